"""``nomicpoker score``: standings across every table of the game (WRGPT's SCORE)."""

from __future__ import annotations

from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, opened

    @app.command("score", example='nomicpoker score --all --state /srv/poker/state')
    def score(full: bool = typer.Option(False, "--all", "-l", help="Include eliminated players "
                                        "(WRGPT's SCORE/L)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
        """Standings across every table: Money summed per player, most first."""
        from sqlmodel import Session  # here: `--help` must not load the database layer

        from nomicpoker.core.words.standings import render, standings
        from nomicpoker.shell.cycle.scores import table_money

        with opened(state, db, need_state=False, readonly=True) as (st, engine):
            with Session(engine) as s:
                rows = table_money(s)
                notes = player_notes(s, st)
        if not rows:
            typer.echo("no tables")
            return
        typer.echo(render(standings(rows, full), notes).rstrip("\n"))


def player_notes(session, state) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each player's note at the active tables, as their status tables show it (``AWOL``
    after a timeout, ``away`` while sitting out, a vacation's until): the first found."""
    from sqlmodel import select

    from nomicpoker.shell.cycle.replay import fold_for
    from nomicpoker.shell.storage.store import TableRow

    notes: dict[str, str] = {}
    for t in session.exec(select(TableRow).where(TableRow.active == True).order_by(TableRow.id)).all():  # noqa: E712
        days = getattr(fold_for(session, t, state).state, "days", None)
        if days is not None:
            for player, note in days.markers()[1].items():
                notes.setdefault(player, note)
    return notes
