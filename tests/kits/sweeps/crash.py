"""Crash every dealer step at each of its I/O boundaries, then run it normally, and compare
with the run that never crashed (issue 13's fault tests).

How: a whole hand is played once by the test kit's scripted players (the reference run).
Every dealer step in it (``hand start``, each ``poll``) is recorded: the state before it (a
copy of the state directory, and of the PostgreSQL database when the ledger is one), how
many crash points it passes (``NOMICPOKER_CRASH_TRACE``, see :mod:`nomicpoker.shell.faults`)
and what the ledger and the forum hold after it. Then for each step and each point k: restore
the state before the step, run the step in a forked child with ``NOMICPOKER_CRASH_AT=k`` (the
child dies by ``os._exit`` there, as a killed process does: no rollback, no cleanup), then
run the step normally, as the Dealer or cron would; the ledger and the forum must be what
the reference run had after that step, except for clock columns.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timezone
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import create_engine, inspect, text

from nomicpoker.core.errors import CodedError
from nomicpoker.shell import faults
from nomicpoker.shell.storage.store import open_engine

#: columns holding the local forum's own clock (when a comment or message was stored), which
#: a run after a crash legitimately stores later than the reference run did. The dealer's
#: clock is one fixed reading per step, the same in the reference run and every rerun.
CLOCK_COLUMNS = {"created", "edited"}
#: the local forum's change counters (``LocalForum.marks``, how a poll learns which tables
#: moved): bookkeeping of writes, not the forum's content a reader sees, which is what the
#: sweep compares (they have no ``id`` to order by)
COUNTER_TABLES = {"thread_changes", "inbox_changes"}
#: np_snapshot.mac is keyed by the installation's snapshot.key, made on first use: a run from a
#: state copied before that use makes its own key (the snapshot itself must still be equal)
KEYED_COLUMNS = {"mac"}

Step = Callable[[Any, Path], Any]  # (engine, state) -> anything


@dataclass
class Recorded:
    kind: str
    run: Step
    before: Path  # copy of the state directory
    before_db: str  # a URL of the ledger as it was before the step
    points: list[str]
    after: dict
    moment: datetime  # the step's clock


@dataclass
class Backend:
    """Copies and restores the ledger: SQLite files live in the state directory; a
    PostgreSQL ledger is copied with CREATE DATABASE ... TEMPLATE."""

    url: str
    admin_url: str | None = None
    made: list[str] = field(default_factory=list)

    def copy(self, source_url: str, state: Path) -> str:
        if self.admin_url is None:
            return f"sqlite:///{state / 'ledger.db'}"
        name = f"c{len(self.made)}_{os.getpid()}_{abs(hash(state)) % 10**8}"
        src = source_url.rsplit("/", 1)[1]
        admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{src}"'))
        admin.dispose()
        self.made.append(name)
        return source_url.rsplit("/", 1)[0] + "/" + name

    def drop(self, url: str) -> None:
        if self.admin_url is None:
            return
        admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
        admin.dispose()


def view(url: str, state: Path) -> dict:
    """What the ledger and the local forum hold, minus clock columns and row ids."""
    return {**ledger_view(url), **local_forum_view(state)}


def ledger_view(url: str) -> dict:
    """Every ``np_`` table of the ledger, minus clock columns, keyed columns and row ids;
    archive positions as ranks."""
    out: dict = {}
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            for name in sorted(inspect(conn).get_table_names()):
                if not name.startswith("np_"):
                    continue
                rows = conn.execute(text(f'SELECT * FROM "{name}" ORDER BY id')).mappings().all()
                out[name] = [{k: v for k, v in r.items() if k not in CLOCK_COLUMNS | KEYED_COLUMNS | {"id"}}
                             for r in rows]
            ranks = {r[0]: n for n, r in enumerate(conn.execute(text("SELECT id FROM np_comment ORDER BY id")), 1)}
    finally:
        engine.dispose()
    _archive_positions(out, ranks)
    return out


def local_forum_view(state: Path) -> dict:
    """The local forum's threads, comments and messages, minus its clock columns."""
    import sqlite3

    out: dict = {}
    con = sqlite3.connect(state / "forum.db")
    try:
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%'"):
            if name in COUNTER_TABLES:
                continue
            cur = con.execute(f'SELECT * FROM "{name}" ORDER BY id')
            cols = [d[0] for d in cur.description]
            out[f"forum.{name}"] = [{c: v for c, v in zip(cols, row) if c not in CLOCK_COLUMNS}
                                    for row in cur.fetchall()]
    finally:
        con.close()
    return out


def _archive_positions(out: dict, ranks: dict[int, int]) -> None:
    """Archive positions (np_comment ids) as ranks: PostgreSQL's sequences are not rolled back
    with a crashed transaction, so a rerun's comments get later ids with a gap before them.
    The fold only uses their order, and ranks compare that."""
    rank = lambda v: ranks.get(v, v)  # noqa: E731 - 0 (before any comment) stays 0
    for name in ("np_hand", "np_dealer_event"):
        for row in out.get(name, []):
            row["after"] = rank(row["after"])
    for row in out.get("np_snapshot", []):
        covers = json.loads(row["covers"])
        covers["archive_id"] = rank(covers["archive_id"])
        covers["last_key"] = [rank(covers["last_key"][0])] + covers["last_key"][1:]
        row["covers"] = covers


def copy_state(src: Path, dst: Path) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("poll.lock"))


class Recorder:
    """Wraps the kit's dealer steps (``poll.poll``, ``service.start_hand``) to record them."""

    def __init__(self, backend: Backend, scratch: Path, poll: Callable) -> None:
        self.poll = poll  # the real poll, for settling
        self.backend = backend
        self.scratch = scratch
        self.steps: list[Recorded] = []

    def wrap(self, kind: str, original: Callable, engine_url: Callable[[], str], dispose: Callable[[], None]):
        def recorded(engine, state, *args, **kwargs):
            if kwargs.get("forum_factory") or kwargs.get("now"):
                return original(engine, state, *args, **kwargs)  # not a plain dealer step
            dispose()
            n = len(self.steps)
            before = self.scratch / f"before-{n}"
            copy_state(state, before)
            before_db = self.backend.copy(engine_url(), before)
            trace = self.scratch / f"trace-{n}"
            moment = datetime.now(timezone.utc)  # one clock reading per step, shared by every rerun
            kw = {**kwargs, "now": lambda: moment}
            faults.reset()
            os.environ[faults.TRACE] = str(trace)
            try:
                result = original(engine, state, *args, **kw)
            finally:
                del os.environ[faults.TRACE]
            points = trace.read_text("utf-8").splitlines() if trace.exists() else []
            run: Step = lambda eng, st: original(eng, st, *args, **kw)  # noqa: E731
            dispose()
            after = self.scratch / f"after-{n}"
            copy_state(state, after)
            after_db = self.backend.copy(engine_url(), after)
            settle(after_db, after, self.poll, moment)
            self.steps.append(Recorded(kind, run, before, before_db, points, view(after_db, after), moment))
            self.backend.drop(after_db)
            return result
        return recorded


def die_at(k: int, url: str, run: Callable[[Any], Any]) -> int:
    """Run ``run(engine)``, with an engine on ``url``, in a forked child that dies at crash
    point ``k`` (``NOMICPOKER_CRASH_AT``: :func:`os._exit`, no rollback, no cleanup, as a killed
    process dies); the child's exit code: ``faults.CRASH_EXIT`` when it died there, 0 when it
    finished, 2 when it raised. WHY here: both crash sweeps (this kit's on the local forum,
    tests/kits/sweeps/sweep.py's on the test servers) must kill the Dealer the same way."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            faults.reset()
            os.environ[faults.AT] = str(k)
            engine = open_engine(url, create=False)
            run(engine)
            code = 0
        except BaseException:  # noqa: BLE001 - a crash point is os._exit, anything else is 2
            code = 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def crash_at(step: Recorded, url: str, state: Path, k: int) -> int:
    """Run ``step`` in a forked child that dies at crash point ``k``; its exit code."""
    return die_at(k, url, lambda engine: step.run(engine, state))


def opened(url: str, engines: dict | None = None) -> Any:
    """``open_engine(url)`` as cron opens the ledger; with ``engines``, made once per URL and
    kept there (its callers dispose it after each use, so each run connects afresh to the
    files copied there for it). WHY: a new engine compiles every statement of a poll again
    (SQLAlchemy caches compiled SQL per engine), ~18% of a sweep's CPU for nothing it checks."""
    if engines is None:
        return open_engine(url, create=False)
    if url not in engines:
        engines[url] = open_engine(url, create=False)
    return engines[url]


def settle(url: str, state: Path, poll: Callable, moment: datetime, engines: dict | None = None) -> None:
    """One more plain poll: what the next cron run does anyway. A step that crashed may have
    left that run's work (archiving the dealer's own comment) to its rerun, or done it
    earlier; after this both sides are at the same point."""
    engine = opened(url, engines)
    try:
        report = poll(engine, state, now=lambda: moment)
        assert report.ok, [t.error for t in report.tables]
    finally:
        engine.dispose()


def recover(step: Recorded, url: str, state: Path, poll: Callable, engines: dict | None = None) -> None:
    """What the Dealer does after a crash: run the step again; a ``hand start`` whose hand row
    was already committed says the hand is running, and the next poll sends the rest."""
    engine = opened(url, engines)
    try:
        try:
            step.run(engine, state)
        except CodedError as exc:
            if step.kind != "start" or exc.code != "hand_running":
                raise
            report = poll(engine, state, now=lambda: step.moment)
            assert report.ok, [t.error for t in report.tables]
    finally:
        engine.dispose()


def check_every_point(recorder: Recorder, poll: Callable, only_every: int = 1, part: int = 0,
                      parts: int = 1) -> dict:
    """Crash each recorded step at each of its points; return figures for the docs.
    ``parts``/``part``: of the (step, point) pairs in order, only every ``parts``-th one from
    the ``part``-th, so ``parts`` tests (each recording its own reference run) together crash
    every point while the test workers run them side by side."""
    crashes = 0
    by_step: dict[str, int] = {}
    pairs = [(i, k) for i, step in enumerate(recorder.steps) for k in range(1, len(step.points) + 1, only_every)]
    mine = set(pairs[part::parts])
    engines: dict = {}  # one per ledger URL: SQLite's work copy is one URL for every point
    for i, step in enumerate(recorder.steps):
        for k in range(1, len(step.points) + 1, only_every):
            if (i, k) not in mine:
                continue
            work = recorder.scratch / "work"
            copy_state(step.before, work)
            url = recorder.backend.copy(step.before_db, work)
            try:
                code = crash_at(step, url, work, k)
                assert code == faults.CRASH_EXIT, (i, step.kind, k, step.points[k - 1], code)
                recover(step, url, work, poll, engines)
                settle(url, work, poll, step.moment, engines)
                got = view(url, work)
                if got != step.after:
                    diff = {t: (got.get(t), step.after.get(t)) for t in set(got) | set(step.after)
                            if got.get(t) != step.after.get(t)}
                    raise AssertionError(f"step {i} ({step.kind}) crashed at point {k} "
                                         f"({step.points[k - 1]}): after recovery {sorted(diff)} "
                                         f"differ from the crash-free run: {diff}")
            finally:
                if url in engines and recorder.backend.admin_url is not None:
                    engines.pop(url).dispose()  # a PostgreSQL copy is dropped: its engine goes
                recorder.backend.drop(url)
            crashes += 1
        by_step[step.kind] = by_step.get(step.kind, 0) + len(step.points)
    return {"crashes": crashes, "points": by_step, "steps": len(recorder.steps)}
