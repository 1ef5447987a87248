"""The Dealer's commands: init, table, hand, poll, ledger, audit, demo.

Every command takes ``--state DIR`` (or ``NOMICPOKER_STATE``) and ``--db URL`` (or
``NOMICPOKER_DB``). Known failures print ONE line naming what is wrong and exit 1 (bad usage
exits 2, as typer does); no tracebacks for anything a Dealer can cause.
"""

from __future__ import annotations

import errno
import json
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, NoReturn, Optional

import typer

from nomicpoker.cli import options
from nomicpoker.cli.hints import play_hints, start_hint
from nomicpoker.cli.options import fail

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

from nomicpoker.shell.storage import paths

StateOpt = options.StateOpt
DbOpt = options.DbOpt

table_app = options.Typer(help="Create and inspect tables.", no_args_is_help=True)
hand_app = options.Typer(help="Start hands.", no_args_is_help=True)
audit_app = options.Typer(help="Rebuild the ledger from the archive and compare (no subcommand); "
                        "export and verify public hand records.", invoke_without_command=True)


#: coded errors that are usage errors: a table setting the Dealer wrote wrong (``table create
#: --setting``, ``--deadline-hours``, ``table set``). They exit 2 like typer's own usage errors,
#: the same from every command that takes settings.
USAGE_CODES = frozenset({"bad_setting", "bad_timezone", "bad_office_hours", "bad_deadline"})


@contextmanager
def settings_usage() -> Iterator[None]:
    """Inside :func:`opened`: a bad table setting is one line and exit 2 (a usage error)."""
    from nomicpoker.core.errors import CodedError

    try:
        yield
    except CodedError as exc:
        if exc.code in USAGE_CODES:
            fail(str(exc), 2)
        raise


@contextmanager
def opened(state: Optional[str], db: Optional[str], create: bool = False,
           need_state: bool = True, readonly: bool = False) -> Iterator[tuple[Path, object]]:
    """State dir and ledger engine; every known error becomes one line and exit 1.

    Only ``create`` commands (init, demo, table create) make a state directory or a ledger.
    Every other command on a missing one says where it looked and exits 1, so a cron job run
    from the wrong directory fails loudly instead of reporting "no active tables" forever.
    ``need_state``: the command uses the state directory itself (the poll lock, the hand
    secrets), not only the ledger. ``readonly``: the command only reads (ledger, audit, table
    show/list, verdicts, score, the exports): it never makes the state owner-only (nor
    writes the check's stamp), so it works on any copy, read-only or not, whatever its modes."""
    from sqlalchemy.exc import SQLAlchemyError

    from nomicpoker.core.errors import CodedError
    from nomicpoker.shell.storage.store import describe, open_engine

    st = paths.state_dir(state)
    url = paths.db_url(st, db)
    engine = None
    try:
        with paths.private_files(st, tighten=not readonly):
            if create:
                try:
                    paths.claim_state(st)
                except paths.NotAState as exc:
                    fail(str(exc))
            elif need_state and not st.is_dir():
                fail(f"no nomicpoker state directory at {st} (from {paths.state_source(state)}): run "
                     "nomicpoker init there, or pass --state DIR (cron: cd to the game's directory or "
                     "set NOMICPOKER_STATE)")
            _open_log_file()
            engine = open_engine(url, create=create)
            yield st, engine
    except CodedError as exc:  # store, secrets, forum, ruleset, poll, service: one base
        fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except SQLAlchemyError as exc:  # a database failing under us: full, locked, damaged
        fail(describe(exc, url)[1])
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):  # the reader of our output has gone: options.closed_pipe
            raise
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            fail(f"the disk is full ({exc.filename or st}): nothing was stored; free some space "
                 "and run the command again")
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            fail(f"cannot write {exc.filename or st}: {exc.strerror} (the state directory is "
                 "read-only for this user; the readers, ledger, audit, table show/list, verdicts, "
                 "score and the exports, read a read-only copy)")
        fail(f"{exc.filename or st}: {exc.strerror or exc}")
    finally:
        if engine is not None:
            engine.dispose()  # type: ignore[attr-defined]


def _open_log_file() -> None:
    """A log file given before the state existed is opened now, before the command does
    anything: one line and exit 1 if it cannot be (``--log-file /no/such/dir/poll.log``)."""
    from nomicpoker.shell import logs

    try:
        logs.open_log_file()
    except OSError as exc:
        fail(f"--log-file {exc.filename or logs.pending_log_file()}: {exc.strerror or exc}: nothing was done")


def init(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Create the state directory, the ledger database and the local forum."""
    from nomicpoker.shell.cycle.forums import local_forum

    with opened(state, db, create=True) as (st, _engine):
        local_forum(st)
        from nomicpoker.shell.storage.store import shown_url

        typer.echo(f"state: {st}\nledger: {shown_url(paths.db_url(st, db))}\nlocal forum: {paths.forum_db_path(st)}")
        import shlex

        where = [part for flag, value in (("--state", state), ("--db", db)) if value for part in (flag, value)]
        typer.echo("next: " + " ".join(shlex.quote(p) for p in [
            "nomicpoker", "table", "create", "--name", "T", "--players", "alice,bob,carol", "--money", "100",
            "--ante", "5", *where]))


@table_app.command("create", example='nomicpoker table create --name T --players alice,bob,carol --money 100 --state /srv/poker/state')
def table_create(
    name: str = typer.Option(..., "--name", help="Table name (letters, digits, - and _)."),
    players: str = typer.Option(..., "--players", help="Comma-separated, in GNDT order."),
    money: int = typer.Option(100, "--money", parser=options.whole_number, help="Starting Money of every player."),
    ruleset: str = typer.Option("blognomic-2008", "--ruleset", help="Bundled ruleset name or path."),
    forum: Optional[str] = typer.Option(None, "--forum", help="local | blognomic | reddit | irc | email "
                                        "(default: the config file's kind, else local)."),
    forum_config: Optional[Path] = typer.Option(None, "--forum-config", help="A JSON or TOML file of forum "
                                                "settings (no credentials; docs/forums.md)."),
    dealer: str = typer.Option("Dealer", "--dealer", help="The account the Dealer posts as."),
    issue_decks: Optional[bool] = typer.Option(None, "--issue-decks/--own-decks",
                                               help="Issue Trading Post decks privately (default: yes where the forum has private messages)."),
    deadline_hours: Optional[int] = typer.Option(None, "--deadline-hours", parser=options.integer, help="Hours to act before the dealer checks or folds."),
    button: Optional[str] = typer.Option(None, "--button", help="The first hand's button (default: the last player)."),
    thread: Optional[str] = typer.Option(None, "--thread", help="A thread the players have commented on (a sign-up post): warn about seats that match nobody there."),
    setting: Optional[list[str]] = typer.Option(None, "--setting", help="Play over days: NAME=VALUE, repeatable "
                                                "(deadline_hours=4, tz=Europe/London, day_start=9, day_length=10, "
                                                "weekends_off=yes, cap_hours=24, reminders=1, max_timeouts=3, "
                                                "flood_threshold=5, vacation_can_win=no, floorman=NAME)."),
    ante: Optional[int] = typer.Option(None, "--ante", parser=options.whole_number, help="The table's ante: every hand start takes it unless told otherwise."),
    blinds: Optional[str] = typer.Option(None, "--blinds", help="The table's small and big blind, e.g. 1,2 (rulesets with blinds)."),
    state: Optional[str] = StateOpt, db: Optional[str] = DbOpt,
) -> None:
    """Create a table."""
    from nomicpoker.core.table.table_settings import parse_assignments
    from nomicpoker.shell.dealer.service import create_table

    config: dict = {}
    if forum_config is not None:
        from nomicpoker.cli.setup.config_files import read_forum_config

        kind, config = read_forum_config(forum_config, "--forum-config")
        if forum is not None and kind is not None and kind != forum:
            fail(f"--forum {forum} but {forum_config} says kind = {kind!r}: give one", 2)
        forum = forum or kind
    forum = forum or "local"
    with opened(state, db, create=True) as (st, engine):
        with settings_usage():  # a bad setting exits 2, as table set does
            values = {**parse_assignments(setting or []), **forced_bet_values(ante, blinds)}
            from nomicpoker.core.table.table_settings import BY_TOURNAMENT_START

            if set(BY_TOURNAMENT_START) & set(values):  # a tournament's table is made by its start
                fail(f"--setting {'/'.join(BY_TOURNAMENT_START)}: set by nomicpoker tournament start, not table "
                     "create", 2)
            row = create_table(engine, st, name, players.split(","), money, ruleset=ruleset, forum=forum,
                               forum_config=config, dealer=dealer, issue_decks=issue_decks,
                               deadline_hours=deadline_hours, button=button, settings=values)
        from sqlmodel import Session  # the database layer only when needed
        with Session(engine) as s:
            words = _decks_word(s, row)
        typer.echo(f"table {row.name}: {', '.join(json.loads(row.players))} with {row.money} each, "
                   f"ruleset {row.ruleset} ({row.ruleset_hash[:12]}, pinned), forum {row.forum_kind}, "
                   f"dealer {row.dealer!r}, {words}")
        if thread:
            from nomicpoker.shell.dealer.names import seat_warnings
            from nomicpoker.shell.cycle.forums import forum_for

            from nomicpoker.ports import ForumError

            try:  # the table is made; a thread that cannot be read is only a warning
                opened_forum = forum_for(row, st)
                lines = seat_warnings(opened_forum.list_comments(thread), json.loads(row.players),
                                      thread, row.dealer)
            except ForumError as exc:
                lines = [f"could not read {thread} to check the seats: {exc}"]
            for line in lines:
                typer.echo(f"warning: {line}", err=True)
        with Session(engine) as s:
            typer.echo(f"next: {start_hint(s, row, state, db)}")


def forced_bet_values(ante: Optional[int], blinds: Optional[str]) -> dict:
    """``--ante``/``--blinds`` of table create and table set as setting values (``none``
    unsets); a malformed value is ``SettingsError`` (exit 2 under :func:`settings_usage`)."""
    from nomicpoker.core.table.table_settings import parse_assignments

    out: dict = {}
    if ante is not None:
        out.update(parse_assignments([f"ante={ante}"]))
    if blinds is not None:
        out.update(parse_assignments([f"blinds={blinds}"]))
    return out


def _decks_word(session: Session, row) -> str:
    """How the table's hole cards are dealt (under the rules of its next hand), in a word or three."""
    from nomicpoker.shell.storage import pinned

    if pinned.current_ruleset(session, row).deck == "shared":
        return "hole cards from the dealer's deck"
    return "issued decks" if row.issue_decks else "own decks"


@table_app.command("list", example='nomicpoker table list --state /srv/poker/state')
def table_list(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """List tables."""
    from nomicpoker.shell.dealer.service import list_tables

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        rows = list_tables(engine)
        if not rows:
            typer.echo("no tables (nomicpoker table create --name T --players alice,bob --money 100)")
        from nomicpoker.core.errors import CodedError
        from nomicpoker.shell.storage import ledger, pinned

        from sqlmodel import Session  # the database layer only when needed
        with Session(engine) as s:
            for t in rows:
                try:  # the ruleset the next hand is played under (amendments included)
                    rules = pinned.current_ruleset(s, t).name
                except CodedError:  # a table from before pinning whose file changed: table show says why
                    rules = f"{t.ruleset} (not pinned)"
                # seated now: a tournament's moves change who sits at its tables
                typer.echo(f"{t.name}\t{rules}\t{t.forum_kind}\t{', '.join(ledger.roster(s, t))}")


@table_app.command("show", example='nomicpoker table show --table T --state /srv/poker/state')
def table_show(name: str = typer.Option(..., "--table", "--name", help="Table name."),
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Show a table: configuration, hands and the GNDT."""
    from nomicpoker.shell.storage import ledger
    from nomicpoker.core.words.gndt import gndt

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        from sqlmodel import Session  # the database layer only when needed
        with Session(engine) as s:
            from nomicpoker.shell.storage import pinned

            t = ledger.get_table(s, name)
            ended = {r.hand for r in ledger.stored_rows(s, name, "hand_end")}
            rs = pinned.current_ruleset(s, t)
            typer.echo(f"table {t.name}: ruleset {rs.name} ({rs.content_hash[:12]}), forum {t.forum_kind}, "
                       f"dealer {t.dealer}, {_decks_word(s, t)}")
            for a in pinned.amendments(s, name):
                typer.echo(f"amended at {a.at} from hand {a.hand + 1}: ruleset "
                           f"{pinned.ruleset(s, t, a.ruleset_hash).name} ({a.ruleset_hash[:12]})"
                           + (f": {a.note}" if a.note else ""))
            for h in ledger.hand_rows(s, name):
                typer.echo(f"hand {h.number}: thread {h.thread}, button {h.button}, ante {h.ante}, "
                           f"ruleset {h.ruleset_hash[:12]}, {'ended' if h.number in ended else 'running'}")
            from nomicpoker.core.table.table_settings import CURRENT_EDITION
            from nomicpoker.shell.cycle.replay import fold_for

            res = fold_for(s, t, _st)  # the settings in force (table set changes them) and the hand
            forced = res.settings.forced_bets() or "none stored (hand start is told them: --ante/--blinds)"
            typer.echo(f"forced bets: {forced}")
            typer.echo(f"settings: {res.settings.describe()}; edition {res.settings.edition}"
                       + (f" (table set edition={CURRENT_EDITION} opts in)" if res.settings.edition < CURRENT_EDITION else "")
                       + (f"; FROZEN ({res.frozen})" if res.frozen else "")
                       + (f"; sitting out: {', '.join(res.sitting_out)}" if res.sitting_out else ""))
            if ledger.hand_rows(s, name):
                cur = res.current
                if cur is not None and cur.phase != "complete":
                    waiting = ", ".join(cur.waiting) or "nobody"
                    typer.echo(f"now: hand {cur.number}, {cur.phase}{_round_words(res)}; "
                               f"waiting for {waiting} since {cur.since}")
                    board = list((res.records.get(cur.number) or {}).get("board") or [])
                    typer.echo(f"board: {' '.join(str(c) for c in board) if board else 'none yet'}")
                    for a in cur.alarms:
                        typer.echo(f"due: {a.kind}{' ' + str(a.n) if a.n else ''} for {a.player} at {a.at}")
            typer.echo(gndt(ledger.gndt(s, t), "md").rstrip("\n"))


#: the betting rounds of a hand, as the players' comments name them (ROUND1 ...) and what they follow
_ROUNDS = {1: "round 1 (before the flop)", 2: "round 2 (after the flop)", 3: "round 3 (after the turn)",
           4: "round 4 (after the river)"}


def _round_words(res) -> str:  # type: ignore[no-untyped-def]
    """``, round 2 (after the flop)`` for a hand in its betting, else ''."""
    hand = getattr(getattr(res.state, "current", None), "hand", None)
    number = getattr(hand, "round", None)
    return f", {_ROUNDS[number]}" if number in _ROUNDS else ""


@table_app.command("amend", example='nomicpoker table amend --table T --ruleset ./proposal-42 --note "Proposal 42" --state /srv/poker/state')
def table_amend(table: str = typer.Option(..., "--table", help="Table name."),
                ruleset: str = typer.Option(..., "--ruleset", help="The amended ruleset: a path to its "
                                            "ruleset.toml or directory, or a bundled name."),
                note: str = typer.Option("", "--note", help="Which proposal enacted it (shown to players)."),
                state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Apply a rule amendment the nomic passed, from the table's next hand on (refused while a
    hand runs). The ruleset is validated as rules check does and pinned to the table."""
    from nomicpoker.core.rules.ruleset_diff import summary
    from nomicpoker.shell.dealer.amendments import amend_table
    from nomicpoker.core.rules.validate import RulesetError

    with opened(state, db) as (st, engine):
        try:
            done = amend_table(engine, st, table, ruleset, note)
        except RulesetError as exc:  # every problem of the file, as rules check prints them
            for one in exc.errors:
                typer.echo(f"error: {one}", err=True)
            raise typer.Exit(1)
        typer.echo(f"table {done.table}: ruleset {done.ruleset.name} ({done.ruleset.content_hash[:12]}) "
                   f"applies from hand {done.from_hand}, in place of {done.previous.name} "
                   f"({done.previous.content_hash[:12]}). {summary(done.previous, done.ruleset)}")
        from sqlmodel import Session

        from nomicpoker.shell.storage import ledger
        with Session(engine) as s:
            hint = start_hint(s, ledger.get_table(s, done.table), state, db)
        typer.echo(f"next: {hint} (its first comment announces the amendment)")


@table_app.command("pin", example='nomicpoker table pin --table T --ruleset blognomic-2008 --state /srv/poker/state')
def table_pin(table: str = typer.Option(..., "--table", help="Table name."),
              ruleset: str = typer.Option(..., "--ruleset", help="A copy of the ruleset the table was "
                                          "created under (path or bundled name)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Pin the original ruleset of a table created before rulesets were pinned, when its
    file has changed since (only a ruleset with the hash the table recorded is accepted)."""
    from nomicpoker.shell.dealer.amendments import pin_original
    from nomicpoker.core.rules.validate import RulesetError

    with opened(state, db) as (_st, engine):
        try:
            rs, new = pin_original(engine, table, ruleset)
        except RulesetError as exc:
            for one in exc.errors:
                typer.echo(f"error: {one}", err=True)
            raise typer.Exit(1)
        typer.echo(f"table {table}: ruleset {rs.name} ({rs.content_hash[:12]}) "
                   + ("pinned" if new else "was already pinned"))


VerboseOpt = options.VerboseOpt
LogFileOpt = options.LogFileOpt


def logging_for(verbose: bool, quiet: bool, log_file: Optional[Path]):  # type: ignore[no-untyped-def]
    """The command's logger (:mod:`nomicpoker.shell.logs`), its own options merged with the
    global ones (``nomicpoker --log-level ... poll``); a log file that cannot be opened is one
    line and exit 1."""
    from nomicpoker.shell import logs

    try:
        logs.configure(verbose=verbose, quiet=quiet, log_file=log_file)
        logs.open_log_file()  # the state exists by now: a folder still missing is an error
    except OSError as exc:
        fail(f"--log-file {log_file}: {exc.strerror or exc}: nothing was done")
    return logs.get("cli")


@hand_app.command("start", example='nomicpoker hand start --table T --ante 5 --state /srv/poker/state')
def hand_start(table: str = typer.Option(..., "--table", help="Table name."),
               ante: Optional[int] = typer.Option(None, "--ante", parser=options.whole_number,
                                                  help="Ante every seated player pays "
                                                  "(default: the table's, table set --ante; 0: none)."),
               thread: Optional[str] = typer.Option(None, "--thread", help="Register an existing story post instead of creating one."),
               blinds: Optional[str] = typer.Option(None, "--blinds", help="Small and big blind, e.g. 1,2 (rulesets with blinds: roberts-nlhe; default: the table's)."),
               verbose: bool = VerboseOpt, log_file: Optional[Path] = LogFileOpt,
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Start the next hand: secrets, story post, hand-start comment, decks or hole cards."""
    from nomicpoker.shell.tournament.hand_start import start_hand  # a tournament's table: its rules first

    amounts: tuple[int, ...] | None = None
    if blinds:
        try:
            amounts = tuple(int(b) for b in blinds.split(","))
        except ValueError:
            fail(f"--blinds {blinds!r}: expected whole numbers, e.g. --blinds 1,2", 2)
    with opened(state, db) as (st, engine):
        log = logging_for(verbose, False, log_file)
        h = start_hand(engine, st, table, ante, thread=thread, blinds=amounts)
        if h.forced_from:  # hand start was given no forced bet: say which it took
            what = " and ".join(([f"ante {h.ante}"] if h.ante or not h.blinds else [])
                                + ([f"blinds {h.blinds[0]}/{h.blinds[1]}"] if h.blinds else []))
            log.info("hand %s of %s: %s, %s", h.number, h.table, what, h.forced_from)
        log.info("hand %s of %s started in thread %s; button %s; seated %s; %s dealer messages sent",
                 h.number, h.table, h.thread, h.button, ", ".join(p for p, _ in h.seats), h.report.sent)
        for hint in play_hints(engine, st, h, state, db):
            typer.echo(f"next: {hint}")
        if h.report.held:
            log.warning("%s dealer comment(s) held for moderation: the forum account needs a site "
                        "admin's approval (nomicpoker poll posts nothing again meanwhile and records "
                        "them once they are public)", h.report.held)
        if h.report.error:
            log.error("%s: FAILED: %s", h.table, h.report.error)
            raise typer.Exit(1)


#: how long another run may hold the lock before a poll reports it (cron polls every few minutes)
STALE_LOCK_MINUTES = 30


def poll_cmd(table: Optional[str] = typer.Option(None, "--table", help="Only this table."),
             dry_run: bool = typer.Option(False, "--dry-run", help="List what would be posted; store and send nothing."),
             quiet: bool = options.QuietOpt,
             site: Optional[str] = typer.Option(None, "--site", help="Rebuild the auditors' site here when something changed (default NOMICPOKER_SITE, else <state>/site; 'off' to skip)."),
             stale_lock: int = typer.Option(STALE_LOCK_MINUTES, "--stale-lock-minutes", parser=options.whole_number_at_least(1),
                                            help="Report a lock another run has held this long as an error (exit 1), "
                                            "so cron mails it."),
             verbose: bool = VerboseOpt, log_file: Optional[Path] = LogFileOpt,
             state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """One poll cycle: what cron runs. One timestamped line per table (failures on stderr)."""
    from nomicpoker.shell.cycle import idle
    from nomicpoker.shell.storage.paths import site_dir
    from nomicpoker.shell.jobs.poll import STALLED_EXIT, poll

    with opened(state, db) as (st, engine):
        log = logging_for(verbose, quiet, log_file)  # after the state is known to exist
        from nomicpoker.shell.cycle import cli_memo
        from nomicpoker.shell import logs

        why = idle.LAST or cli_memo.WHY  # why the console entry point did not answer this run
        if why:
            log.debug("idle check: %s: running the full poll", why)
        where = site_dir(st, site)
        if not dry_run:  # the next run of this very command line may be answered without the CLI
            cli_memo.remember("poll", idle.poll_params(st, paths.db_url(st, db), where, table, logs.current()),
                              idle.code_signature())
        report = poll(engine, st, table=table, dry_run=dry_run, site=where)
        if report.idle is not None:
            log.debug("idle record: %s", "written (nothing new)" if not report.idle
                      else f"none ({report.idle})")
        if report.busy:
            _busy(log, report, stale_lock)
            return
        if not report.tables:
            log.info("no active tables: nothing to do")
            return
        for t in report.tables:
            for item in t.would_post:
                typer.echo(item)
            for protest in t.protests:  # for the Dealer, even with --quiet
                log.warning("%s: %s", t.table, protest)
            for stall in t.stalled:  # for the Dealer, even with --quiet; exit code 3 below
                log.warning("%s: %s", t.table, stall)
            line = ("(dry run: nothing stored or sent) " if dry_run else "") + t.line()
            if t.error:
                log.error("%s", line)
            else:
                log.info("%s", line)
        from nomicpoker.shell.tournament.after_poll import after_poll  # the rail's showdowns of the hands that ended

        rail_failed = not dry_run and not after_poll(engine, st, log)
        site_failed = report.site.startswith("FAILED")
        if site_failed and report.ok:  # else the table's line says why
            log.error("site: %s", report.site)
        elif report.site:
            log.debug("site: %s", report.site)
        if not report.ok or site_failed or rail_failed:  # the tables' work is done and kept; exit 1 all the same
            raise typer.Exit(1)
        if any(t.stalled for t in report.tables) and not dry_run:
            raise typer.Exit(STALLED_EXIT)  # a hand the rule cannot move on: cron reports it


def _busy(log, report, stale_minutes: int) -> None:  # type: ignore[no-untyped-def]
    """Another run holds the lock: a line at info while that is normal (a slow run overlapping
    the next cron run), an error and exit 1 once it has held it ``stale_minutes`` (a run stuck
    on a forum, a stopped process): cron mails that, where a quiet exit 0 would hide it forever."""
    from datetime import datetime, timezone

    holder = report.busy_holder
    where = report.busy_where or "this state directory"
    if holder is not None:
        minutes = (datetime.now(timezone.utc) - holder.since).total_seconds() / 60
        if minutes >= stale_minutes:
            fail(f"another nomicpoker run has held the lock of {where} for {minutes:.0f} minutes "
                 f"({holder.line()}): nothing was done; if that run is stuck, stop it (the next poll "
                 "goes on where it stopped)")
    log.info("another nomicpoker poll is running (it holds the lock of %s%s): nothing to do "
             "this time", where, f"; {holder.line()}" if holder is not None else "")


def ledger_cmd(table: str = typer.Option(..., "--table", help="Table name."),
               fmt: str = typer.Option("md", "--format", help="md | html | csv | json"),
               log: bool = typer.Option(False, "--log", help="Add the change log."),
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Print the GNDT (Money, Turn, Pot), optionally with the change log."""
    from nomicpoker.shell.storage import ledger
    from nomicpoker.core.words.gndt import FORMATS, change_log, gndt

    if fmt not in FORMATS:
        fail(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}", 2)
    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        from sqlmodel import Session  # the database layer only when needed
        with Session(engine) as s:
            t = ledger.get_table(s, table)
            rows = ledger.gndt(s, t)
            entries = ledger.change_log(s, table) if log or fmt == "json" else []
            if fmt == "json":
                doc = {"table": t.name, "gndt": json.loads(gndt(rows, "json", title=t.name)),
                       "hands": [ledger.hand_record(s, t, h.number) for h in ledger.hand_rows(s, table)]}
                if log:
                    doc["log"] = json.loads(change_log(entries, "json"))["entries"]
                typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
                return
            if fmt == "html":
                page = gndt(rows, "html", title=f"GNDT of {t.name}", standalone=True)
                if log:
                    page = page.replace("</body>", change_log(entries, "html", title="Change log") + "</body>")
                typer.echo(page, nl=False)
                return
            typer.echo(gndt(rows, fmt, title=f"GNDT of {t.name}" if fmt == "md" else ""), nl=False)
            if log:
                typer.echo("")
                typer.echo(change_log(entries, fmt, title="Change log" if fmt == "md" else ""), nl=False)


@audit_app.callback(example='nomicpoker audit --table T --state /srv/poker/state')
def audit_cmd(ctx: typer.Context,
              table: Optional[str] = typer.Option(None, "--table", help="Only this table."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Rebuild the ledger from the archive into a scratch database and compare."""
    if ctx.invoked_subcommand is not None:
        return
    from nomicpoker.shell.audit.audit import audit

    with opened(state, db, need_state=False, readonly=True) as (st, engine):
        notes: list[str] = []  # running hands this copy cannot replay yet (a public copy)
        recorded: list[str] = []  # internal_error answers the ledger records (a fault's, not the rules')
        names, diffs = audit(engine, st, table, notes, recorded)
        for line in notes:
            typer.echo(f"note: {line}", err=True)
        for line in recorded:
            typer.echo(line)
        for d in diffs:
            typer.echo(d.line())
        if table is None:  # each tournament's seat draw against its published seed
            from sqlmodel import Session

            from nomicpoker.shell.tournament.views import audit_draws

            with Session(engine) as s:
                drawn = audit_draws(s)
            for line in drawn:
                typer.echo(line)
            if any("DIFFERS" in line for line in drawn):
                typer.echo("audit: a tournament's seat draw is not its seed's", err=True)
                raise typer.Exit(1)
        if diffs:
            typer.echo(f"audit: {len(diffs)} difference(s) between the ledger and its replay", err=True)
            raise typer.Exit(1)
        typer.echo(f"audit: {', '.join(names) or 'no tables'}: the replay is identical to the ledger")


def demo_cmd(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt,
             table: str = typer.Option("demo", "--table", help="Base table name (a fresh one is chosen if taken)."),
             entropy: bool = typer.Option(False, "--entropy", help="Deal with players' entropy (hand open, comments in the window, hand start).")) -> None:
    """Play one full hand on the local forum and show the thread and the ledger."""
    from nomicpoker.shell.jobs.demo import run_demo
    from nomicpoker.shell.dealer.service import valid_table_name

    if not valid_table_name(table):  # before a state is made: a refused demo leaves nothing
        fail(f"--table {table!r}: use letters, digits, '-' and '_' (max 40)", 2)
    with opened(state, db, create=True) as (st, engine):
        typer.echo(f"nomicpoker demo: state in {st}")
        out = run_demo(engine, st, echo=typer.echo, table=table, entropy=entropy)
        if out["problems"]:
            fail(out["problems"][0])


def register(app: typer.Typer) -> None:
    """Add this group's commands to the main app."""
    app.command("init", example='nomicpoker init --state /srv/poker/state')(init)
    app.add_typer(table_app, name="table")
    app.add_typer(hand_app, name="hand")
    app.command("poll", example=['nomicpoker poll --quiet --state /srv/poker/state --log-file /srv/poker/state/poll.log', 'nomicpoker poll --dry-run --table T --state /srv/poker/state'])(poll_cmd)
    app.command("ledger", example='nomicpoker ledger --table T --log --state /srv/poker/state')(ledger_cmd)
    app.add_typer(audit_app, name="audit")
    app.command("demo", example='nomicpoker demo --state /tmp/poker-demo')(demo_cmd)
