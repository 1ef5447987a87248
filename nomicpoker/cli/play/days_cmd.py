"""The Dealer's controls for play over days: ``table set``, ``table pause``, ``table resume``,
``table seat``, ``table unseat``, ``hand void``, ``hand fold``.

Each is recorded with its reason (``--note``), posted in the hand's thread at once and
replayed by ``audit`` (:mod:`nomicpoker.shell.dealer.controls`). Registered into the ``table`` and
``hand`` groups of :mod:`nomicpoker.cli.setup.bot_cmd`.
"""

from __future__ import annotations

from typing import Optional

import typer

from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, fail, hand_app, opened, settings_usage, table_app

TableOpt = typer.Option(..., "--table", help="Table name.")
NoteOpt = typer.Option(..., "--note", help="Why: posted in the thread and kept in the ledger.")
PlayerOpt = typer.Option(..., "--player", help="The player.")


def _run(table: str, kind: str, note: str, state, db, player: str = "", data: dict | None = None) -> None:
    from nomicpoker.shell.dealer.controls import control

    with opened(state, db) as (st, engine):
        with settings_usage():  # table set: a bad value or combination exits 2, as table create's
            done = control(engine, st, table, kind, note, player=player, data=data)
        if done.unchanged:
            typer.echo(f"table {table}: settings unchanged ({done.settings.describe()}): nothing recorded or posted")
            return
        what = {"settings": "settings changed", "pause": "paused", "resume": "resumed",
                "void": f"hand {done.hand} void", "fold": f"{player} folded out of hand {done.hand}",
                "seat": f"{player} dealt into the next hands", "unseat": f"{player} sits out from the next hand"}[kind]
        typer.echo(f"table {table}: {what}; {done.report.sent} dealer message(s) sent")
        if done.settings is not None:
            typer.echo(f"settings: {done.settings.describe()}"
                       + (f"; forced bets: {done.settings.forced_bets()}" if done.settings.forced_bets() else ""))
        if done.report.error:
            fail(done.report.error)


def table_set(assignments: Optional[list[str]] = typer.Argument(None, help="NAME=VALUE ... (see table create --setting)."),
              table: str = TableOpt, note: str = typer.Option("", "--note", help="Why (posted with the change)."),
              ante: Optional[str] = typer.Option(None, "--ante", help="The table's ante from the next hand (none: unset)."),
              blinds: Optional[str] = typer.Option(None, "--blinds", help="The table's small and big blind from the next hand, e.g. 1,2 (none: unset)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Change the table's settings from now on (deadline, office hours, reminders, forced bets, ...)."""
    from nomicpoker.core.errors import CodedError
    from nomicpoker.core.table.table_settings import parse_assignments

    try:
        data = parse_assignments(list(assignments or [])
                                 + ([f"ante={ante}"] if ante is not None else [])
                                 + ([f"blinds={blinds}"] if blinds is not None else []))
    except CodedError as exc:
        fail(str(exc), 2)
    if not data:
        fail("nothing to set: give NAME=VALUE, --ante or --blinds", 2)
    _run(table, "settings", note, state, db, data=data)


def table_pause(table: str = TableOpt, note: str = NoteOpt,
                state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Freeze the table: no deadline runs, no action applies; comments are kept for later."""
    _run(table, "pause", note, state, db)


def table_resume(table: str = TableOpt, note: str = NoteOpt,
                 state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """End a pause or a protest: clocks start again, kept comments are adjudicated in order."""
    _run(table, "resume", note, state, db)


def table_seat(table: str = TableOpt, player: str = PlayerOpt, note: str = NoteOpt,
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Deal a player who sits out into the next hands again (between hands)."""
    _run(table, "seat", note, state, db, player=player)


def table_unseat(table: str = TableOpt, player: str = PlayerOpt, note: str = NoteOpt,
                 state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Make a player sit out from the next hand on (between hands)."""
    _run(table, "unseat", note, state, db, player=player)


def hand_void(table: str = TableOpt, note: str = NoteOpt,
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Void the running hand: every chip goes back where it was at the hand's start."""
    _run(table, "void", note, state, db)


def hand_fold(table: str = TableOpt, player: str = PlayerOpt, note: str = NoteOpt,
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Fold a player out of the running hand (their chips stay in the pot)."""
    _run(table, "fold", note, state, db, player=player)


def register(app: typer.Typer) -> None:
    """Add the controls to the table and hand groups."""
    s = "--state /srv/poker/state"
    for name, fn, example in (
            ("set", table_set, f"nomicpoker table set --table T deadline_hours=24 tz=Europe/London --note 'slower' {s}"),
            ("pause", table_pause, f"nomicpoker table pause --table T --note 'the forum is down' {s}"),
            ("resume", table_resume, f"nomicpoker table resume --table T --note 'back up' {s}"),
            ("seat", table_seat, f"nomicpoker table seat --table T --player carol --note 'back from holiday' {s}"),
            ("unseat", table_unseat, f"nomicpoker table unseat --table T --player carol --note 'away a week' {s}")):
        table_app.command(name, example=example)(fn)
    hand_app.command("void", example=f"nomicpoker hand void --table T --note 'misdeal' {s}")(hand_void)
    hand_app.command("fold", example=f"nomicpoker hand fold --table T --player carol --note 'asked to' {s}")(hand_fold)
