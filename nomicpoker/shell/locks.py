"""One Dealer at a time (shell): the lock a poll and a ``hand start`` hold while they work.

WHY two locks: the file lock in the state directory keeps two runs on one host apart (cron
overlapping a slow run, a ``hand start`` by hand). Two hosts that share one PostgreSQL ledger
(each with its own state directory, so its own file lock) would both work every table and
post each dealer comment twice; so when the ledger is PostgreSQL the run also holds a
session-level advisory lock (``pg_try_advisory_lock``) on a dedicated connection. PostgreSQL
releases it when that connection ends, so a run that crashes (or whose host dies) never leaves
the game locked. SQLite ledgers are local files: the file lock is the whole story.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout
from sqlalchemy import text
from sqlalchemy.engine import Engine

from nomicpoker.core.errors import CodedError
from nomicpoker.shell.paths import lock_path

#: The advisory lock's key: one per ledger database (all of a ledger's tables are worked by
#: one run at a time, as with the file lock). 0x6e6f6d6963 is "nomic".
ADVISORY_KEY = 0x6E6F6D6963_01


class Busy(CodedError):
    """Another run holds the lock (code ``busy``; ``where`` says which: this state directory's
    or the shared PostgreSQL ledger's)."""

    def __init__(self, where: str) -> None:
        super().__init__("busy", f"another nomicpoker run holds the lock of {where}")
        self.where = where


def _shared(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


@contextmanager
def _advisory(engine: Engine, timeout: float) -> Iterator[None]:
    conn = engine.connect()
    try:
        deadline = time.monotonic() + timeout
        while True:
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": ADVISORY_KEY}).scalar()
            conn.commit()
            if got:
                break
            if time.monotonic() >= deadline:
                raise Busy("the shared PostgreSQL ledger")
            time.sleep(0.5)
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_KEY})
            conn.commit()
    finally:
        conn.close()


@contextmanager
def run_lock(engine: Engine, state: Path, timeout: float = 0) -> Iterator[None]:
    """Hold this host's file lock and, for a shared (PostgreSQL) ledger, its advisory lock;
    wait up to ``timeout`` seconds for each, else raise :class:`Busy`."""
    lock = FileLock(str(lock_path(state)), timeout=timeout)
    try:
        lock.acquire()
    except Timeout as exc:
        raise Busy("this state directory") from exc
    try:
        if _shared(engine):
            with _advisory(engine, timeout):
                yield
        else:
            yield
    finally:
        lock.release()
