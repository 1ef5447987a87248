"""The poll cycle (shell): what cron runs as ``nomicpoker poll``.

One run, per active table, in one transaction: archive the hand threads' new comments and
revisions (:mod:`~nomicpoker.shell.cycle.archive`), replay the table, record the deadlines that have
passed and store what the fold derived (:mod:`~nomicpoker.shell.cycle.replay`,
:mod:`~nomicpoker.shell.cycle.deadlines`); then send the outbox (:mod:`~nomicpoker.shell.cycle.outbox`) and
report one line per table.

WHY it is safe to repeat and to crash:

- A lock means overlapping runs never both work (a file lock per state directory, and an
  advisory lock per PostgreSQL ledger shared by several hosts); the second says so, exits 0.
- Everything derived is written in the same transaction as the archive rows it came from,
  so a crash leaves either both or neither.
- Sending is separate and idempotent (see :mod:`nomicpoker.shell.cycle.outbox`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable, cast

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.words.dialects import in_dialect
from nomicpoker.core.errors import CodedError
from nomicpoker.ports import Forum, ForumError, ReportsUnread
from nomicpoker.shell.cycle import idle, moved
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.archive import Inboxes, archive_table, inbox_key
from nomicpoker.shell.cycle.deadlines import Clock, iso, utcnow
from nomicpoker.shell.storage.locks import Busy, run_lock, table_lock
from nomicpoker.shell.cycle.outbox import Pacer, PostedTags, pending_rows, posted_tags, send_outbox
from nomicpoker.shell.cycle.collector import paused_collector
from nomicpoker.shell.storage.paths import private_files
from nomicpoker.shell.cycle import forums
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory
from nomicpoker.shell.cycle.replay import adjudicate
from nomicpoker.shell.cycle.report import TableReport
from nomicpoker.shell.storage.store import TableRow, transaction


@dataclass
class PollReport:
    busy: bool = False
    busy_where: str = ""
    #: who holds the lock, as it recorded itself (:class:`nomicpoker.shell.storage.locks.Holder`), if known
    busy_holder: object = None
    tables: list[TableReport] = field(default_factory=list)
    #: the auditors' site: "" (not rebuilt: nothing changed, or turned off), "rebuilt ..." or
    #: "FAILED: ..." (a site that cannot be written never fails the poll itself)
    site: str = ""
    #: the idle record (:mod:`nomicpoker.shell.cycle.idle`): "" written (this run was idle), else why
    #: not; None when this run could not write one (``--table``, ``--dry-run``, test forums)
    idle: str | None = None

    @property
    def ok(self) -> bool:
        return not any(t.error for t in self.tables)


def update_table(session: Session, table: TableRow, forum: Forum, state: Path, now: datetime,
                 report: TableReport, incremental: bool = True, inboxes: Inboxes | None = None) -> PostedTags:
    """Archive, replay and store one table inside the caller's transaction; return the tags
    the dealer's comments already carry, per thread (for :func:`send_outbox`). ``incremental``
    False: replay from the first input even where a snapshot would serve (benchmarks).
    ``inboxes``: the Dealer's inboxes listed once for the whole poll (:func:`archive_table`)."""
    archived, listings = archive_table(session, table, forum, iso(now), state, inboxes)
    report.archived += archived
    report.listed += [c.id for comments in listings.values() for c in comments]
    report.threads += list(listings)
    before = last_event_id(session, table)
    done = adjudicate(session, table, state, now, incremental)
    added = done.added
    report.folded = "resumed" if done.resumed else done.why
    report.verdicts += len(added.get("verdict", []))
    report.queued += len(added.get("outbox", []))
    report.protests += [f"PROTEST by {v.author} ({v.thread} #{v.forum_id}): {v.message or '(no text)'}"
                        for v in added.get("verdict", []) if v.canonical == "PROTEST"]
    report.stalled += stalled_since(session, table, before)
    return {thread: posted_tags(comments, table.dealer) for thread, comments in listings.items()}


#: the poll's exit code when a deadline passed with nothing the rule lets the Dealer apply (a
#: stalled hand; docs/dealer-guide.md): not 0, so cron reports it, and not 1 (a failure)
STALLED_EXIT = 3


def last_event_id(session: Session, table: TableRow) -> int:
    """The id of the table's last dealer event (0: none). Plain SQL, as :func:`stalled_since`:
    both run at every table a poll works on (issue 24)."""
    from nomicpoker.shell.storage.plain_sql import plain

    return int(plain(session, "SELECT MAX(id) FROM np_dealer_event WHERE table_name = :t", {"t": table.name})[0][0] or 0)


def stalled_since(session: Session, table: TableRow, after: int) -> list[str]:
    """The stalled hands this run recorded (``stalled`` dealer events after id ``after``)."""
    from nomicpoker.core.table.fold_types import STALLED
    from nomicpoker.shell.storage.plain_sql import plain

    session.flush()  # what the fold recorded (an ORM query would autoflush)
    hands = [h for h, in plain(session, "SELECT hand FROM np_dealer_event WHERE table_name = :t AND kind = :k "
                                        "AND id > :a ORDER BY id", {"t": table.name, "k": STALLED, "a": after})]
    return [f"hand {hand} is stalled: its Hole Card Draw deadline passed and nobody has stated a "
            f"draw, so the rule folds nobody out (the thread was told; `nomicpoker hand void "
            f"--table {table.name}` ends the hand)" for hand in hands]


def _forum(table: TableRow, state: Path, factory: ForumFactory, opened: dict[str, Forum] | None) -> Forum:
    """The table's forum; with ``opened``, one forum object per forum for the whole run (a
    forum is a function of its kind and configuration: :func:`~nomicpoker.shell.cycle.forums.forum_for`).
    WHY: a tournament's 100 tables on one forum opened it 100 times a poll (the local forum
    keeps its file's log open while a forum of it is alive: ``adapters/local.py``)."""
    if opened is None:
        return forums.forum_for(table, state, factory)
    key = inbox_key(table)
    if key not in opened:
        opened[key] = forums.forum_for(table, state, factory)
    return opened[key]


def poll_table(engine: Engine, table_name: str, state: Path, forum_factory: ForumFactory,
               now: Clock, dry_run: bool, pacer: Pacer | None = None,
               incremental: bool = True, inboxes: Inboxes | None = None,
               opened: dict[str, Forum] | None = None) -> TableReport:
    """Archive, adjudicate and post for one table. A failure becomes ``report.error`` (one
    line) so one broken table does not stop the others: a known one (a forum or ledger error)
    as it is, anything else an adapter's client raised (praw's ``replace_more`` has raised
    ``AssertionError`` on real threads) as its type and first line; ``dry_run`` rolls
    everything back and lists what would have been posted."""
    report = TableReport(table_name)
    kind = "?"
    try:
        if dry_run:
            with Session(engine) as s:
                table = ledger.get_table(s, table_name)
                kind = table.forum_kind
                forum = forums.forum_for(table, state, forum_factory)
                report.dry_run = True
                try:
                    update_table(s, table, forum, state, now(), report, incremental, inboxes)
                    for r in pending_rows(s, table_name):
                        where = f"thread {r.thread}" if r.kind == "comment" else f"private to {r.recipient}"
                        body = in_dialect(r.body, forum.abilities.markup) if r.kind == "comment" else r.body
                        report.would_post.append(f"--- would post ({where}):\n{body}")
                finally:
                    s.rollback()
            return report
        # the table's row read once, and its forum opened, in the transaction that archives and
        # folds it (a session each cost ~1 ms a table polled; issue 24)
        with transaction(engine) as s:
            table = ledger.table_row(s, table_name)
            kind = table.forum_kind
            forum = _forum(table, state, forum_factory, opened)
            tags = update_table(s, table, forum, state, now(), report, incremental, inboxes)
            dealer = table.dealer
        send_outbox(engine, table_name, forum, now, report, tags, pacer, state=state)
        if forum.abilities.mark_read and report.listed:
            # only now, with the ledger committed: a run that died before this point left them
            # unread, and the next run archives them (once: the archive knows their ids)
            forum.mark_read(report.listed)
        if forum.abilities.unread_report:  # a mailbox's mail with no player's ID (e-mail)
            note = cast(ReportsUnread, forum).unread_note()
            if note:
                report.notes.append(note)
        if report.held:
            report.notes.append(
                f"the forum holds the Dealer's comments for moderation: the account {dealer!r} "
                "needs approval (ask a site admin to approve its first comment; nothing is "
                "posted again meanwhile)")
    except ForumError as exc:
        report.error = f"forum {exc.code}: {exc.message} (nothing lost; the next run retries)"
    except CodedError as exc:  # store, fold, secrets, replay: one line, nothing stored
        report.error = str(exc)
    except Exception as exc:  # an adapter's client failing in a way it does not document
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        report.error = (f"unexpected {type(exc).__name__} from the {kind} forum"
                        f"{': ' + first if first else ''} (this table only; nothing lost; the "
                        "next run retries)")
    return report


def poll(engine: Engine, state: Path, table: str | None = None, dry_run: bool = False,
         forum_factory: ForumFactory = default_forum_factory, now: Clock = utcnow,
         lock_timeout: float = 0, sleep: Callable[[float], None] = time.sleep,
         clock: Callable[[], float] = time.monotonic, incremental: bool = True,
         site: Path | None = None) -> PollReport:
    """One poll cycle under the run lock (:mod:`nomicpoker.shell.storage.locks`: this host's file lock,
    and the shared ledger's advisory lock on PostgreSQL). ``busy`` when another run holds it.
    ``sleep`` and ``clock`` pace posting on forums that want an interval between posts (tests
    pass a simulated clock). ``incremental`` False: every table replays from its first input
    (what the poll did before snapshots; for benchmarks). With ``site`` (a directory), the auditors' site there is rebuilt
    when the run changed anything (or it is not there yet), still under the lock so two runs
    never write it at once. Everything the run writes under ``state`` is owner-only."""
    with private_files(state):
        state.mkdir(parents=True, exist_ok=True)
        try:
            with run_lock(engine, state, lock_timeout, split=True):
                watch = None
                if table is None and not dry_run and incremental and forum_factory is default_forum_factory:
                    watch = idle.watch(state, ledger_file(engine))
                report = _poll_locked(engine, state, table, dry_run, forum_factory, now, sleep, clock,
                                      incremental, site)
                if watch is not None:
                    report.idle = idle.settle(watch, report)
                return report
        except Busy as exc:
            return PollReport(busy=True, busy_where=exc.where, busy_holder=exc.holder)


def ledger_file(engine: Engine) -> Path | None:
    """The ledger's SQLite file, for the idle check; None for any other database or form."""
    url = engine.url
    db = url.database or ""
    if url.get_backend_name() != "sqlite" or url.query or db in ("", ":memory:") or db.startswith("file:"):
        return None
    return Path(os.path.abspath(db))


def _changed(t: TableReport) -> bool:
    return bool(t.archived or t.verdicts or t.queued or t.sent or t.already)


def rebuild_site(engine: Engine, state: Path, site: Path, report: PollReport) -> None:
    """Rebuild the site after a run that changed something; a failure is reported, not raised
    (the table's adjudication is done and stored either way)."""
    missing = not (site / "index.html").exists() and report.ok
    if not (any(_changed(t) for t in report.tables) or missing):
        return
    from nomicpoker.shell.audit.site import build_site

    try:
        written = build_site(engine, site, None, state)
        report.site = f"rebuilt {len(written)} files in {site}"
    except OSError as exc:
        # a write under the site's folder is a failed write; anything else a failed read
        where = Path(exc.filename) if exc.filename else None
        wrote = where is not None and (where == site or site in where.parents)
        report.site = (f"FAILED: cannot write {site}: {exc}" if wrote else
                       f"FAILED: cannot build {site}: reading {exc.filename or 'a file'} failed: "
                       f"{exc.strerror or exc}")
    except CodedError as exc:
        report.site = f"FAILED: cannot build {site}: {exc}"


def _watch_moves(engine: Engine, state: Path, dry_run: bool, forum_factory: ForumFactory,
                 incremental: bool) -> tuple[dict, moved.Look] | None:
    """The recorded marks and a look at every active table (:mod:`nomicpoker.shell.cycle.moved`),
    or None where tables are not skipped: a dry run, the full replay, a test's forums, crash
    points switched on, anything that cannot be looked at (then every table is polled)."""
    if dry_run or not incremental or forum_factory is not default_forum_factory \
            or any(os.environ.get(v) is not None for v in idle.FAULT_VARIABLES):
        moved.forget(state)
        return None
    try:
        with Session(engine) as s:
            return moved.load(state), moved.look(s, state, _mark_opener(state))
    except Exception:  # noqa: BLE001 - a doubt polls every table
        moved.forget(state)
        return None


def _mark_opener(state: Path) -> Callable[[str, dict], Forum]:
    def opener(kind: str, config: dict) -> Forum:
        return forums.open_forum(kind, config, state)
    return opener


def _quiet(t: TableReport) -> bool:
    """A table whose poll found nothing and did nothing (its mark may be recorded)."""
    return (t.line() == f"{t.table}: nothing new" and t.folded == "resumed" and not
            (t.queued or t.protests or t.would_post or t.error or t.stalled or t.held))


def _record_moves(engine: Engine, state: Path, watch: tuple[dict, moved.Look], report: PollReport,
                  skipped: list[str]) -> None:
    marks, before = watch
    try:
        with Session(engine) as s:
            after = moved.look(s, state, _mark_opener(state))
            quiet = [t.table for t in report.tables if t.table not in skipped and _quiet(t)]
            due = {name: moved.next_due(s, name) for name in quiet}
    except Exception:  # noqa: BLE001
        moved.forget(state)
        return
    moved.record(state, marks, before, after, quiet, skipped, due)


def _poll_locked(engine: Engine, state: Path, table: str | None, dry_run: bool,
                 forum_factory: ForumFactory, now: Clock, sleep: Callable[[float], None],
                 clock: Callable[[], float], incremental: bool = True,
                 site: Path | None = None) -> PollReport:
    with Session(engine) as s:
        if table is not None:
            names = [ledger.get_table(s, table).name]
        else:
            names = [t.name for t in s.exec(select(TableRow).where(TableRow.active == True)  # noqa: E712
                                            .order_by(TableRow.id)).all()]
    report = PollReport()
    watch = _watch_moves(engine, state, dry_run, forum_factory, incremental)
    moment = now()
    skipped: list[str] = []
    # the Dealer's inbox of each forum, listed once this run for all its tables (the real
    # adapters only: a test's factory may give two tables of one configuration two forums)
    inboxes: Inboxes | None = {} if forum_factory is default_forum_factory else None
    opened: dict[str, Forum] | None = {} if forum_factory is default_forum_factory else None
    for name in names:
        if watch is not None and moved.skip(watch[0], watch[1], name, moment):
            # nothing new can reach this table's poll (shell/cycle/moved.py): not folded at all
            seen = watch[1].tables[name]
            report.tables.append(TableReport(name, folded="unchanged", threads=list(seen.threads)))
            skipped.append(name)
            continue
        # A table's poll is a burst of short-lived objects (the snapshot's JSON, the listings,
        # SQLAlchemy's rows) that reference counting frees: with the collector on, their
        # allocations set off collections that walk every live object of the process
        # (measured: 30-40 ms in one poll of 10 tables) for no garbage (shell/cycle/collector.py).
        with paused_collector(), table_lock(engine, name) as mine:
            if not mine:  # another host's poll works it now (a shared PostgreSQL ledger)
                report.tables.append(TableReport(name, folded="elsewhere",
                                                 notes=["polled by another host this run"]))
                skipped.append(name)
                continue
            report.tables.append(poll_table(engine, name, state, forum_factory, now, dry_run,
                                            Pacer(sleep=sleep, clock=clock), incremental, inboxes, opened))
    if watch is not None and len(skipped) < len(names):
        _record_moves(engine, state, watch, report, skipped)
    if site is not None and not dry_run:
        rebuild_site(engine, state, site, report)
    return report
