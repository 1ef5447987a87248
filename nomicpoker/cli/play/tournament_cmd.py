"""``nomicpoker tournament``: the tournament director's commands (docs/tournaments.md).

check (a structure file, as ``rules check`` checks a ruleset), create, enter, start, show,
seatlog, pause, resume, disqualify. The work is :mod:`nomicpoker.shell.tournament`'s; this
module reads the options and prints. A structure file's problems are printed one per line
(``error: FILE: KEY: what is allowed``) and exit 1; every other refusal is one line and exit 1.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import NoReturn, Optional

import typer

from nomicpoker.cli import options
from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, opened
from nomicpoker.cli.options import fail

tournament_app = options.Typer(help="Tournaments: many tables, one event (docs/tournaments.md).", no_args_is_help=True)

NameOpt = typer.Option(..., "--name", help="The tournament's name.")
S = "--state /srv/poker/state"


def _structure_errors(exc) -> NoReturn:  # type: ignore[no-untyped-def]
    for e in exc.errors:
        typer.echo(f"error: {e}", err=True)
    raise typer.Exit(1)


def _where(state: Optional[str], db: Optional[str]) -> str:
    return "".join(f" {flag} {shlex.quote(v)}" for flag, v in (("--state", state), ("--db", db)) if v)


def _checked(structure: Path):  # type: ignore[no-untyped-def]
    """The structure file validated with its ruleset, or its problems printed and exit 1."""
    from nomicpoker.core.tournament.structure_file import StructureError, check_against_ruleset, parse_structure
    from nomicpoker.core.rules.validate import RulesetError
    from nomicpoker.shell.storage.rulesets import load_ruleset

    try:
        s = parse_structure(structure.read_bytes(), str(structure))
        try:
            blinds = load_ruleset(s.ruleset).blinds
        except RulesetError as exc:  # named like the file's other problems: FILE: ruleset: ...
            for e in exc.errors:
                typer.echo(f"error: {structure}: ruleset: {e}", err=True)
            raise typer.Exit(1) from None
        check_against_ruleset(s, blinds, str(structure))
    except OSError as exc:
        fail(f"--structure {structure}: {exc.strerror or exc}")
    except StructureError as exc:
        _structure_errors(exc)
    return s


@tournament_app.command("check", example="nomicpoker tournament check --structure spring.toml")
def check(structure: Path = typer.Option(..., "--structure", help="The structure file (TOML).")) -> None:
    """Validate a structure file and print the structure as it will be announced."""
    from nomicpoker.shell.tournament.views import structure_lines

    s = _checked(structure)
    typer.echo(f"{structure}: ok: tournament {s.name} ({s.title})")
    for line in structure_lines(s):
        typer.echo(line)


@tournament_app.command("create", example=f"nomicpoker tournament create --structure spring.toml --players alice,bob,carol,dave {S}")
def create(structure: Path = typer.Option(..., "--structure", help="The structure file (TOML; nomicpoker tournament check)."),
           players: str = typer.Option("", "--players", help="Comma-separated entrants (more: tournament enter)."),
           name: Optional[str] = typer.Option(None, "--name", help="The tournament's name (default: the structure's name)."),
           dealer: str = typer.Option("Dealer", "--dealer", help="The account the Dealer posts as."),
           state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Create a tournament: the structure validated and stored, the seed committed."""
    from nomicpoker.core.tournament.structure_file import StructureError
    from nomicpoker.shell.tournament import director

    if not structure.is_file():
        fail(f"--structure {structure}: no such file")
    if not dealer.strip():  # its tables' forum would refuse every start
        fail("--dealer: give the account the Dealer posts as (e.g. --dealer Dealer)")
    checked = _checked(structure)  # before a state or a ledger is made: a refused create leaves nothing
    try:
        director.precheck(name or checked.name, players.split(","), dealer)
    except director.TournamentError as exc:
        fail(exc.message)
    with opened(state, db, create=True) as (st, engine):
        try:
            done = director.create(engine, st, structure, players.split(","), name=name, dealer=dealer)
        except StructureError as exc:
            _structure_errors(exc)
        row = done.row
        typer.echo(f"tournament {row.name}: {row.title}; {len(done.players)} entrant(s); ruleset {row.ruleset}; "
                   f"structure sha256 {row.structure_hash}")
        typer.echo(f"seed committed: sha256 {row.seed_hash} (the seed is published when the tournament starts; "
                   "every seat draw is computed from it)")
        if len(done.players) < 2:  # (not a next: line: the player's name is the director's to give)
            typer.echo(f"to enter players: nomicpoker tournament enter --name {shlex.quote(row.name)} --player "
                       f"<name>{_where(state, db)}; two or more, then tournament start")
        else:
            typer.echo(f"next: nomicpoker tournament start --name {shlex.quote(row.name)}{_where(state, db)}")


@tournament_app.command("list", example=f"nomicpoker tournament list {S}")
def list_(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """List the tournaments: name, status, entrants, tables, title."""
    from sqlmodel import Session, select

    from nomicpoker.shell.storage.tournament_rows import TournamentRow
    from nomicpoker.shell.tournament import director

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        with Session(engine) as s:
            rows = s.exec(select(TournamentRow).order_by(TournamentRow.id)).all()
            if not rows:
                typer.echo("no tournaments (nomicpoker tournament create --structure FILE --players a,b,...)")
            for r in rows:
                typer.echo(f"{r.name}\t{r.status}\t{len(director.entrants(s, r.name))} entrant(s)\t"
                           f"{len(director.tables_of(s, r.name))} table(s)\t{r.title}")


@tournament_app.command("enter", example=f"nomicpoker tournament enter --name spring-open --player mallory {S}")
def enter(name: str = NameOpt, player: str = typer.Option(..., "--player", help="The entrant."),
          state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Enter a player: before the start, or late (late_entry_levels) at a seat of a running table."""
    from sqlmodel import Session

    from nomicpoker.shell.tournament import director, moves

    with opened(state, db) as (st, engine):
        with Session(engine) as s:
            running = director.get(s, name).status == "running"
        if running:
            mv = moves.enter_late(engine, st, name, player)
            typer.echo(f"tournament {name}: {mv.describe()} with {director.structure_of(director.get(Session(engine), name)).starting_money} chips")
            return
        director.enter(engine, name, player)
        with Session(engine) as s:
            count = len(director.entrants(s, name))
        typer.echo(f"tournament {name}: {player} entered ({count} entrant(s))")


@tournament_app.command("start", example=f"nomicpoker tournament start --name spring-open {S}")
def start(name: str = NameOpt,
          forum: Optional[list[str]] = typer.Option(None, "--forum", help="TABLES=FILE: these tables (3, 2-5 or all) "
                                                    "on the forum of this configuration file (as table create "
                                                    "--forum-config); repeatable. Default: the local forum."),
          state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Publish the seed, draw the seats and create the tables on their forums."""
    from nomicpoker.shell.tournament import director
    from nomicpoker.shell.tournament.views import structure_lines

    given = _forums_given(forum or [])
    with opened(state, db) as (st, engine):
        placed = _placed(engine, st, name, given) if given else None
        done = director.start(engine, st, name, forums=placed)
        typer.echo(f"tournament {name} started: seed {done.row.seed} (sha256 {done.row.seed_hash}); "
                   f"{sum(len(t.players()) for t in done.draw.tables)} players at {len(done.tables)} table(s)")
        for line in structure_lines(done.structure):
            typer.echo(line)
        for tname in done.kept:
            typer.echo(f"{tname}: made by the interrupted start, kept (the tables made now have its settings and "
                       "rules)")
        from nomicpoker.core.tournament.seating import next_positions

        kinds = _kinds(engine, done.tables)
        for t, tname in zip(done.draw.tables, done.tables):
            seats = ", ".join(f"{s} {p}" for s, p in t.occupied())
            where = f" (on the {kinds[tname]} forum)" if kinds[tname] != done.row.forum_kind else ""
            typer.echo(f"table {tname}{where}: {seats}; button {t.player_at(next_positions(t).button)}")
        typer.echo(f"seat draw: nomicpoker tournament seatlog --name {shlex.quote(name)}{_where(state, db)}")
        if done.structure.start_on_vacation:
            _vacation_threads(engine, st, name, state, db)
            return
        _hand_starts(engine, done.tables, state, db)


def _forums_given(specs: list[str]):  # type: ignore[no-untyped-def]
    """The ``--forum TABLES=FILE`` options read (each file as table create reads it)."""
    from nomicpoker.cli.setup.config_files import read_forum_config
    from nomicpoker.shell.tournament.forums import TableForum

    out = []
    for spec in specs:
        tables, sep, path = spec.partition("=")
        if not sep or not tables.strip() or not path.strip():
            fail(f"--forum {spec}: write TABLES=FILE (e.g. --forum 2-3=reddit.toml)", 2)
        kind, config = read_forum_config(Path(path.strip()), f"--forum {tables.strip()}=")
        if not kind:
            fail(f"--forum {spec}: {path.strip()} says no kind (kind = \"reddit\", \"email\", ...)", 2)
        out.append(TableForum(tables.strip(), kind, config, path.strip()))
    return out


def _placed(engine, st: Path, name: str, given):  # type: ignore[no-untyped-def]
    """The ``--forum``s checked against the tables the draw will make (before any is made)."""
    from sqlmodel import Session

    from nomicpoker.core.tournament.draw import table_count
    from nomicpoker.shell.tournament import director, forums

    with Session(engine) as s:
        row = director.get(s, name)
        players = director.entrants(s, name)
    count = table_count(len(players), director.structure_of(row).table_size)
    names = [director.table_name(name, n) for n in range(1, count + 1)]
    return forums.plan(given, count, names, st, ruleset=row.ruleset)


def _kinds(engine, tables) -> dict:  # type: ignore[no-untyped-def]
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger

    with Session(engine) as s:
        return {t: ledger.get_table(s, t).forum_kind for t in tables}


def _hand_starts(engine, tables, state, db) -> None:  # type: ignore[no-untyped-def]
    """Each table's ``hand start`` as it works when copied (where the Dealer writes the story
    post, what to post first: cli.hints.start_hint)."""
    from sqlmodel import Session

    from nomicpoker.cli.hints import start_hint
    from nomicpoker.shell.storage import ledger

    with Session(engine) as s:
        for tname in tables:
            typer.echo(f"next: {start_hint(s, ledger.get_table(s, tname), state, db)}")


def _vacation_threads(engine, st, name: str, state, db) -> None:  # type: ignore[no-untyped-def]
    """Everybody starts on vacation: each table's thread opened (or asked of the director)."""
    from nomicpoker.shell.tournament import vacation_start

    typer.echo("everybody starts on vacation: each table starts when all its players have written BACK in "
               "its thread, or when its deadline has passed")
    for t in vacation_start.open_threads(engine, st, name):
        if t.ask:
            typer.echo(f"{t.table}: {t.ask}")
        else:
            typer.echo(f"{t.table}: thread {t.thread} (opened {t.opened})")
    typer.echo(f"next: nomicpoker tournament advance --name {shlex.quote(name)}{_where(state, db)}")


@tournament_app.command("thread", example=f"nomicpoker tournament thread --name spring-open --table spring-open-t1 "
                        f"--thread https://blognomic.com/archives/spring-open-t1 {S}")
def thread_(name: str = NameOpt, table: str = typer.Option(..., "--table", help="The tournament's table."),
            thread: str = typer.Option(..., "--thread", help="The thread (story post) you posted for it."),
            state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Give a table the thread you posted where the bot cannot open one (a blog's story post)."""
    from nomicpoker.shell.tournament import vacation_start

    with opened(state, db) as (st, engine):
        t = vacation_start.give_thread(engine, st, name, table, thread)
        typer.echo(f"{t.table}: thread {t.thread} (from {t.opened})")
        typer.echo(f"next: nomicpoker tournament advance --name {shlex.quote(name)}{_where(state, db)}")


@tournament_app.command("show", example=f"nomicpoker tournament show --name spring-open {S}")
def show(name: str = NameOpt, state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """The tournament: structure, status, tables with each player's chips, standings."""
    from datetime import datetime, timezone

    from nomicpoker.core.tournament.places import format_standings
    from nomicpoker.shell.storage.store import loads
    from nomicpoker.shell.tournament import director, views

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        from sqlmodel import Session

        with Session(engine) as s:
            row = director.get(s, name)
            typer.echo(f"tournament {row.name}: {row.title}; {row.status}"
                       + (f" since {row.started}" if row.started else f", created {row.created}"))
            typer.echo(f"structure sha256 {row.structure_hash}; seed sha256 {row.seed_hash}"
                       + (f"; seed {row.seed}" if row.seed else " (the seed is published at the start)"))
            for line in views.structure_lines(director.structure_of(row)):
                typer.echo(line)
            players = director.entrants(s, name)
            if row.status == "registering":
                typer.echo(f"entrants ({len(players)}): {', '.join(players) or 'none yet'}")
                return
            for t in views.tables(s, name, datetime.now(timezone.utc)):
                seats = ", ".join(f"{p} {m}" for p, m in t.seats)
                typer.echo(f"table {t.number} ({t.name}): {seats}; {t.hands} hand(s) dealt; level {t.level}")
            for e in director.events(s, name, ("finish", "pause", "resume", "disqualify")):
                if e.kind == "finish":
                    typer.echo(f"{e.at}: the tournament is over: {e.player} wins with all {loads(e.data)['chips']} chips")
                if e.kind in ("pause", "resume", "disqualify"):
                    typer.echo(f"{e.at}: {e.kind}{' ' + e.player if e.player else ''}: {e.note}")
            typer.echo("standings:")
            typer.echo(format_standings(views.current_standings(s, name)))


@tournament_app.command("seatlog", example=f"nomicpoker tournament seatlog --name spring-open {S}")
def seatlog(name: str = NameOpt, state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """WRGPT's SEATLOG: the starting seat draw, recomputed from the published seed."""
    from nomicpoker.shell.tournament import views

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        from sqlmodel import Session

        with Session(engine) as s:
            typer.echo(views.seatlog(s, name))


def _pause(name: str, note: str, state, db, resume: bool) -> None:  # type: ignore[no-untyped-def]
    from nomicpoker.shell.tournament import director

    with opened(state, db) as (st, engine):
        done = director.pause(engine, st, name, note, resume=resume)
        typer.echo(f"tournament {name} {'resumed' if resume else 'paused'}: "
                   f"{', '.join(done.changed) or 'no table needed it'}")
        if resume:
            for t in done.protests:
                typer.echo(f"{t}: a protest is open: the table stays frozen until you rule on it "
                           f"(nomicpoker table resume --table {t} --note ...)")


@tournament_app.command("pause", example=f"nomicpoker tournament pause --name spring-open --note 'the forum is down' {S}")
def pause(name: str = NameOpt, note: str = typer.Option(..., "--note", help="Why: posted in every table's thread."),
          state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Pause every table of the tournament (table pause at each, with the reason)."""
    _pause(name, note, state, db, resume=False)


@tournament_app.command("resume", example=f"nomicpoker tournament resume --name spring-open --note 'back up' {S}")
def resume(name: str = NameOpt, note: str = typer.Option(..., "--note", help="Why: posted in every table's thread."),
           state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Resume every table of a paused tournament."""
    _pause(name, note, state, db, resume=True)


@tournament_app.command("disqualify", example=f"nomicpoker tournament disqualify --name spring-open --player mallory --note 'collusion' {S}")
def disqualify(name: str = NameOpt, player: str = typer.Option(..., "--player", help="The player."),
               note: str = typer.Option(..., "--note", help="Why: posted at the player's table and kept."),
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Disqualify a player: his chips leave play, he takes no place (between his table's hands)."""
    from nomicpoker.shell.tournament import director

    with opened(state, db) as (st, engine):
        done = director.disqualify(engine, st, name, player, note)
        typer.echo(f"tournament {name}: {done.player} disqualified"
                   + (f"; he sits out at {done.table} from the next hand, his chips out of play"
                      if done.table else ""))


@tournament_app.command("advance", example=f"nomicpoker tournament advance --name spring-open {S}")
def advance(name: str = NameOpt, state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Between hands: move players (tables broken, balanced, the final table), then apply each
    table's level to its forced bets; each posted in the table's thread."""
    from nomicpoker.shell.tournament import director, moves

    from nomicpoker.shell.tournament import vacation_start

    with opened(state, db) as (st, engine):
        winner = moves.finish_if_won(engine, name)
        if winner:
            typer.echo(f"tournament {name} is over: {winner} wins")
            return
        moved = moves.carry_out(engine, st, name)
        for mv in moved.moves:
            typer.echo(mv.describe())
        for b in moved.broken:
            typer.echo(f"table {b} is broken")
        if moved.final:
            typer.echo("the final table is made: seats and button drawn afresh")
        if moved.redraw and moved.redraw_waits:
            typer.echo(f"redraw {moved.redraw} waits for the hands running to end (run this again once they have)")
        elif moved.redraw:
            typer.echo(f"redraw {moved.redraw}: the seats are redrawn (WRGPT: \"Also periodically, seats are redrawn.\"); "
                       "seats and positions by cost per hand: nomicpoker tournament show")
        for mv in moved.waiting:
            typer.echo(f"waits for a hand to end: {mv.describe()} (run this again once it has ended)")
        for e in moved.errors:
            typer.echo(e)
        winner = moves.finish_if_won(engine, name)
        if winner:
            typer.echo(f"tournament {name} is over: {winner} wins")
            return
        done = director.advance(engine, st, name)
        waits = vacation_start.waiting(engine, st, name)
        for a in done:
            if a.changed:
                typer.echo(f"{a.table}: {a.said} (posted in its thread)")
            elif a.running:
                typer.echo(f"{a.table}: a hand is running: its level is applied once it ends (run this again)")
            elif not a.playable:
                typer.echo(f"{a.table}: fewer than two players can be dealt in (with chips, not sitting out): "
                           "no hand to deal")
            else:
                typer.echo(f"{a.table}: level {a.level}, as it is")
            if a.held and not a.running and a.playable:
                typer.echo(f"{a.table}: no hand today: {a.held}")
        from datetime import datetime, timezone

        from sqlmodel import Session

        with Session(engine) as s:  # a table a move or a redraw waits for deals no hand yet
            moving = moves.waiting_tables(s, name, datetime.now(timezone.utc))
        for a in done:
            if a.table in moving and not a.running and a.playable:
                typer.echo(f"{a.table}: waits for a move or a redraw at another table (run this again once its hand ended)")
        for w in waits.values():  # everybody started on vacation: the table waits for the BACKs
            if not w.thread:
                typer.echo(f"{w.table}: everybody started on vacation, and the table has no thread yet for their "
                           f"BACK (nomicpoker tournament thread --name {name} --table {w.table} --thread URL)")
            elif not w.ready:
                typer.echo(f"{w.table}: everybody started on vacation: waiting for BACK from {', '.join(w.missing)} "
                           f"in thread {w.thread}" + (f", until {w.until}" if w.until else " (no deadline)"))
        ready = [a.table for a in done if not a.running and a.playable and not a.held and a.table not in waits and a.table not in moving]
        _hand_starts(engine, ready, state, db)  # as each works when copied (a blog's: post the story first)
        for w in waits.values():
            if w.ready:
                typer.echo(f"next: nomicpoker hand start --table {w.table} --thread {shlex.quote(w.thread)}"
                           + _where(state, db))


@tournament_app.command("rail", example=[f"nomicpoker tournament rail --name spring-open --join zoe {S}",
                                          f"nomicpoker tournament rail --name spring-open --join zoe --forum "
                                          f"spring-open-t1 {S}",
                                          f"nomicpoker tournament rail --name spring-open --send-standings {S}",
                                          f"nomicpoker tournament rail --name spring-open --send-showdowns {S}"])
def rail(name: str = NameOpt,
         join: Optional[str] = typer.Option(None, "--join", help="Put this player or spectator on the rail."),
         leave: Optional[str] = typer.Option(None, "--leave", help="Take this one off the rail."),
         send_standings: bool = typer.Option(False, "--send-standings",
                                             help="Send today's standings to everyone on the rail (once a day; cron)."),
         send_showdowns: bool = typer.Option(False, "--send-showdowns",
                                             help="Send the showdowns not sent yet (nomicpoker poll does it too)."),
         thread: Optional[str] = typer.Option(None, "--thread", help="The rail's thread, where the forum has no "
                                              "private messages (the Dealer posts it on a blog)."),
         forum: Optional[str] = typer.Option(None, "--forum", metavar="TABLE",
                                             help="With --join: the table on whose forum a spectator (or a player "
                                             "once out) gets the rail (players in play get it at their table). With "
                                             "--thread: the forum that thread is on (default: the first table's)."),
         state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """The rail: who gets every showdown of the other tables and the nightly standings, each on
    the forum where he plays."""
    from nomicpoker.shell.tournament import rail as rail_mod

    given = (join, leave, send_standings or None, send_showdowns or None, thread)
    if sum(x is not None for x in given) != 1:
        fail("give one of --join NAME, --leave NAME, --send-standings, --send-showdowns or --thread REF", 2)
    if forum is not None and join is None and thread is None:
        fail("--forum TABLE goes with --join NAME or --thread REF", 2)
    with opened(state, db) as (st, engine):
        if send_standings:
            done = rail_mod.send_standings(engine, st, name)
            if done.already:
                typer.echo(f"tournament {name}: the standings of day {done.day} were already sent: nothing sent")
            else:
                typer.echo(f"tournament {name}: standings of day {done.day} sent to {len(done.sent)} on the rail"
                           + (f": {', '.join(done.sent)}" if done.sent else ""))
            return
        if send_showdowns:
            _said_showdowns(rail_mod.send_showdowns(engine, st, name), quiet=False)
            return
        if thread is not None:
            rail_mod.set_thread(engine, name, thread, forum=forum)
            typer.echo(f"tournament {name}: the rail's thread is {thread}"
                       + (f" (the forum of table {forum})" if forum else ""))
            return
        on = rail_mod.join(engine, name, join or leave or "", leave=leave is not None, forum=forum, state=st)
        typer.echo(f"tournament {name}: on the rail: {', '.join(on) or 'nobody'}"
                   + (f" ({join}: on the forum of table {forum} while not in play at a table)" if forum else ""))


def _said_showdowns(done, quiet: bool) -> None:  # type: ignore[no-untyped-def]
    """One line per showdown sent (and the reason none could go); ``quiet``: nothing when none."""
    if done.waiting:
        typer.echo(f"warning: {done.waiting}", err=True)
    for sd in done.sent:
        typer.echo(f"tournament {done.tournament}: the showdown of {sd.table} hand {sd.hand} sent to "
                   f"{len(sd.to)} on the rail: {', '.join(sd.to)}")
    if not done.sent and not done.waiting and not quiet:
        typer.echo(f"tournament {done.tournament}: no showdown to send")


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` group to the main app."""
    app.add_typer(tournament_app, name="tournament")
