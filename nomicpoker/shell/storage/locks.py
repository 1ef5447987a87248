"""One Dealer at a time (shell): the locks a poll and a ``hand start`` hold while they work.

WHY three locks: the file lock in the state directory keeps two runs on one state apart (cron
overlapping a slow run, a ``hand start`` by hand); it also guards the state's own files (hand
secrets, the local forum). The ledger's lock lives with the ledger, so that everything sharing
one ledger shares it: for an SQLite ledger a lock file beside the database file
(``ledger.db.lock``; two state folders, or two hosts mounting one folder, pointed at one file
with ``--db`` would otherwise both work every table and post each dealer comment twice), for a
PostgreSQL ledger a session-level advisory lock (``pg_try_advisory_lock``) on a dedicated
connection, which PostgreSQL releases when that connection ends. File locks are kernel locks
(``flock``): a run that crashes, or whose host dies, never leaves the game locked.

A lock that is held is not silent: its holder records who it is and since when beside the
lock (``<lock>.holder``: host, pid, start time, command), and :class:`Busy` carries that, so a
poll can tell a run that is merely slower than the cron interval from one stuck for hours
(which ``nomicpoker poll`` reports as an error, so cron mails it).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote

from filelock import FileLock, Timeout
from sqlalchemy import text
from sqlalchemy.engine import Engine

from nomicpoker.core.errors import CodedError
from nomicpoker.shell.storage.paths import ledger_lock_path, lock_path

#: The advisory lock's key: one per ledger database (all of a ledger's tables are worked by
#: one run at a time, as with the file lock). 0x6e6f6d6963 is "nomic".
ADVISORY_KEY = 0x6E6F6D6963_01


@dataclass(frozen=True)
class Holder:
    """Who holds a lock, as it recorded itself (``since``: when it took it, UTC)."""

    host: str
    pid: int
    since: datetime
    command: str

    def line(self) -> str:
        return f"pid {self.pid} on {self.host} ({self.command}) since {self.since.isoformat(timespec='seconds')}"


class Busy(CodedError):
    """Another run holds the lock (code ``busy``; ``where`` says which: this state directory's,
    the ledger file's or the shared PostgreSQL ledger's; ``holder`` who, when it is known)."""

    def __init__(self, where: str, holder: Holder | None = None) -> None:
        super().__init__("busy", f"another nomicpoker run holds the lock of {where}")
        self.where = where
        self.holder = holder


def holder_path(lock: Path) -> Path:
    return lock.with_name(lock.name + ".holder")


def _record_holder(lock: Path) -> None:
    record = {"host": socket.gethostname(), "pid": os.getpid(),
              "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "command": " ".join(["nomicpoker", *sys.argv[1:]])[:300]}
    try:
        path = holder_path(lock)
        tmp = path.with_name(path.name + f".{os.getpid()}")
        tmp.write_text(json.dumps(record), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # the lock still works; only its holder is unknown to a waiting run


def _forget_holder(lock: Path) -> None:
    try:
        holder_path(lock).unlink()
    except OSError:
        pass


def read_holder(lock: Path) -> Holder | None:
    """The recorded holder of ``lock``; None when unknown, or when the record is a leftover
    (a process of this host that is gone cannot hold a kernel lock: the new holder is still
    writing its own)."""
    try:
        d = json.loads(holder_path(lock).read_text("utf-8"))
        holder = Holder(str(d["host"]), int(d["pid"]), datetime.fromisoformat(d["since"]), str(d["command"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if holder.host == socket.gethostname():
        try:
            os.kill(holder.pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
    return holder


def ledger_file(engine: Engine) -> Path | None:
    """The file of an SQLite ledger (a plain path or a ``file:`` URI); None for any other."""
    if engine.dialect.name != "sqlite":
        return None
    db = engine.url.database or ""
    if db.startswith("file:"):
        db = unquote(db[len("file:"):].split("?", 1)[0])
    if db in ("", ":memory:"):
        return None
    return Path(os.path.abspath(db))


@contextmanager
def _file_lock(lock: Path, where: str, timeout: float) -> Iterator[None]:
    held = FileLock(str(lock), timeout=timeout)
    try:
        held.acquire()
    except Timeout as exc:
        raise Busy(where, read_holder(lock)) from exc
    try:
        _record_holder(lock)
        yield
    finally:
        _forget_holder(lock)
        held.release()


def _shared(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


@contextmanager
def _advisory(engine: Engine, timeout: float, shared: bool = False) -> Iterator[None]:
    take, release = ("pg_try_advisory_lock_shared", "pg_advisory_unlock_shared") if shared else \
        ("pg_try_advisory_lock", "pg_advisory_unlock")
    conn = engine.connect()
    try:
        deadline = time.monotonic() + timeout
        while True:
            got = conn.execute(text(f"SELECT {take}(:k)"), {"k": ADVISORY_KEY}).scalar()
            conn.commit()
            if got:
                break
            if time.monotonic() >= deadline:
                raise Busy("the shared PostgreSQL ledger")
            time.sleep(0.5)
        try:
            yield
        finally:
            conn.execute(text(f"SELECT {release}(:k)"), {"k": ADVISORY_KEY})
            conn.commit()
    finally:
        conn.close()


@contextmanager
def run_lock(engine: Engine, state: Path, timeout: float = 0, split: bool = False) -> Iterator[None]:
    """Hold the state directory's lock and the ledger's (the lock file beside an SQLite
    ledger, the advisory lock of a PostgreSQL one); wait up to ``timeout`` seconds for each,
    else raise :class:`Busy`. ``split`` (the poll): on a PostgreSQL ledger the ledger's lock
    is taken *shared*, so the polls of several hosts run at once and split the tables, each
    table worked under its own lock (:func:`table_lock`); a command that takes it exclusive
    (``hand start``, the Dealer's controls) still waits for every poll, and they for it."""
    with _file_lock(lock_path(state), "this state directory", timeout):
        db = ledger_file(engine)
        if db is not None:
            with _file_lock(ledger_lock_path(db), f"the ledger {db}", timeout):
                yield
        elif _shared(engine):
            with _advisory(engine, timeout, shared=split):
                yield
        else:
            yield


#: the first key of a table's advisory lock (the two-key form, a space apart from the
#: ledger's one-key lock): "nomi"; the second is the table name's hash in PostgreSQL
TABLE_CLASS = 0x6E6F6D69


@contextmanager
def table_lock(engine: Engine, table: str) -> Iterator[bool]:
    """On a PostgreSQL ledger, try the advisory lock of ``table`` (held by this session until
    the block ends); yield whether it was taken. False: another host's poll is working the
    table now, and this one leaves it (it posts nothing of the table: never twice). Any other
    ledger has one poll at a time already (the ledger's lock): always True."""
    if not _shared(engine):
        yield True
        return
    conn = engine.connect()
    try:
        got = bool(conn.execute(text("SELECT pg_try_advisory_lock(:c, hashtext(:t))"),
                                {"c": TABLE_CLASS, "t": table}).scalar())
        conn.commit()
        try:
            yield got
        finally:
            if got:
                conn.execute(text("SELECT pg_advisory_unlock(:c, hashtext(:t))"), {"c": TABLE_CLASS, "t": table})
                conn.commit()
    finally:
        conn.close()
