"""Where runtime state lives (shell). The core never imports this module.

The state directory holds the ledger database (SQLite by default), the local forum, the
hand secrets (owner-only permissions) and the poll lock. It is ``--state DIR``, else the
``NOMICPOKER_STATE`` environment variable, else ``./state``. The ledger database is
``--db URL``, else ``NOMICPOKER_DB``, else ``sqlite:///<state>/ledger.db``.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import quote, unquote

from nomicpoker.core.errors import CodedError


def state_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    raw = explicit or os.environ.get("NOMICPOKER_STATE") or "state"
    return Path(raw).expanduser().resolve()


def state_source(explicit: str | os.PathLike[str] | None = None) -> str:
    """Where :func:`state_dir` took the directory from, for messages that say where we looked."""
    if explicit:
        return "--state"
    if os.environ.get("NOMICPOKER_STATE"):
        return "NOMICPOKER_STATE"
    return f"the default ./state in the working directory {Path.cwd()}"


def db_url(state: Path, explicit: str | None = None) -> str:
    return explicit or os.environ.get("NOMICPOKER_DB") or sqlite_url(state / "ledger.db")


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL of the SQLite file at ``path``, whatever its name holds.

    Why: SQLAlchemy reads ``sqlite:///<database>?<query>``: a ``?`` in the path starts the
    query (and cuts the path) and the database part is percent-decoded, so ``%20`` names
    another file. Each character but ``/`` (and the space and ``+`` SQLAlchemy leaves alone
    too) is percent-encoded here, as ``sqlalchemy.engine.URL.create(...).render_as_string()``
    does, without importing SQLAlchemy (the idle check stays light); a test checks both agree.
    A byte that is not UTF-8 (a POSIX file name holds any byte; Python keeps it as a lone
    surrogate) is left as it is: ``quote`` cannot encode it, and SQLAlchemy's decoding
    passes non-ASCII text through untouched, so the file is the one named.
    """
    parts = _UNDECODABLE.split(os.fspath(path))
    return "sqlite:///" + "".join(p if i % 2 else quote(p, safe=" +/") for i, p in enumerate(parts))


#: the lone surrogates ``os.fsdecode`` makes of bytes that are not UTF-8 (kept, split out)
_UNDECODABLE = re.compile("([\udc80-\udcff]+)")


def sqlite_url_path(url: str) -> Path | None:
    """The file a plain ``sqlite:///FILE`` URL names (decoded as SQLAlchemy decodes it);
    None for any other database, an in-memory one, or a URL with options (``?...``)."""
    if not url.startswith("sqlite:///"):
        return None
    rest = url[len("sqlite:///"):]
    if "?" in rest or rest in ("", ":memory:"):
        return None
    return Path(unquote(rest))


def forum_db_path(state: Path) -> Path:
    """The embedded local forum's SQLite file: the file the local adapter opens when a table's
    config names none (``adapters/local.state_forum_path``, which the adapters may not import
    from here; tests/unit/house/test_rooms.py pins that the two agree)."""
    return state / "forum.db"


def secrets_dir(state: Path) -> Path:
    """Hand secrets, created with mode 0700; files inside are 0600."""
    return state / "secrets"


def site_dir(state: Path, explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Where ``poll`` and ``site build`` write the auditors' site: ``explicit`` (``--site``),
    else ``NOMICPOKER_SITE``, else ``<state>/site``; ``off`` (either way) turns the poll's
    rebuild off. A site under the state directory is owner-only like the rest of it: point
    the setting at a web root to publish it."""
    raw = explicit if explicit is not None else os.environ.get("NOMICPOKER_SITE")
    if raw is None or str(raw) == "":
        return state / "site"
    if str(raw).lower() == "off":
        return None
    return Path(raw).expanduser().resolve()


def lock_path(state: Path) -> Path:
    return state / "poll.lock"


def ledger_lock_path(db: Path) -> Path:
    """The lock of an SQLite ledger file, beside it (see :mod:`nomicpoker.shell.storage.locks`): every
    state folder and host that shares the file shares this lock."""
    return db.with_name(db.name + ".lock")


#: the file that marks a folder as a nomicpoker state (written when a command makes the state)
STATE_MARK = ".nomicpoker-state"
#: what a state made before the mark existed holds, any one of which makes a folder a state
_LEGACY_STATE = ("ledger.db", "forum.db", "secrets", "snapshot.key", "poll.lock")


class NotAState(CodedError):
    """``--state`` names a folder that holds other things: nothing is made or changed there
    (code ``not_a_state``)."""

    def __init__(self, message: str) -> None:
        super().__init__("not_a_state", message)


def is_state(folder: Path) -> bool:
    """Whether ``folder`` is a nomicpoker state: it has the mark, or (made by an older
    nomicpoker) a ledger, a local forum, hand secrets or a poll lock."""
    return (folder / STATE_MARK).exists() or any((folder / name).exists() for name in _LEGACY_STATE)


def claim_state(folder: Path) -> None:
    """Make ``folder`` a state for a command that creates one (init, table create, demo): a new
    or empty folder is made and marked, a state (an older one too) is marked; a folder holding
    anything else is refused (:class:`NotAState`), before anything is written or tightened.

    WHY: the state is made owner-only (folders 0700, files 0600) on every run, and
    ``init --state .`` in a home or web folder turned its notes into 0600 and its web/ into
    0700, silently. The state gets a folder of its own; only a folder that is one is touched."""
    if folder.exists() and not folder.is_dir():
        raise NotAState(f"--state {folder} is a file, not a folder: give the folder to keep the game's "
                        "state in (a new one is made)")
    if folder.is_dir() and not is_state(folder):
        others = sorted(e.name + ("/" if e.is_dir() else "") for e in os.scandir(folder))
        if others:
            shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
            raise NotAState(f"--state {folder} holds other files ({shown}), not a nomicpoker state: "
                            "nomicpoker keeps its state (ledger, secrets) in a folder of its own and makes "
                            f"it owner-only; give a new or empty folder (e.g. --state {folder / 'state'})")
    folder.mkdir(parents=True, exist_ok=True)
    mark = folder / STATE_MARK
    if not mark.exists():
        mark.write_text("This folder is a nomicpoker state: ledger, secrets, local forum (owner-only).\n",
                        "utf-8")


def owner_only(state: Path, changed_since: float | None = None) -> None:
    """Make the state directory and everything under it owner-only: folders 0700, files 0600.

    WHY every file and not only the secrets: the ledger database holds the archive and the
    outbox, the local forum holds players' private messages (their decks), and a file made
    by an older nomicpoker (or by SQLite, which gives its -wal and -shm files the database's
    mode) may still be 0644. Only what this user owns is changed (an auditor's read-only
    copy is left as it is), and symbolic links are never followed.

    ``changed_since`` (a time): every folder and the state directory's own files are looked
    at, but the files of a folder below it only if the folder's modification time is at or
    after it, that is if an entry was made, renamed or removed in it since. A file is made
    owner-only when it appears, so this finds every new loose file without an ``lstat`` of
    each hand's secrets on every poll (~4,700 files at 150 hands of 10 tables: a third of an
    idle poll's time). What it does not see is a file whose mode was loosened in place
    (``chmod``) in a folder where nothing else changed: only this user can do that."""
    if not state.is_dir() or not is_state(state):  # --state at a home or web folder: untouched
        return
    uid = os.getuid() if hasattr(os, "getuid") else None
    _tighten(str(state), uid)
    stack = [(str(state), True)]
    while stack:
        folder, look = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # gone, not a folder, not ours to read
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                st = _tighten(entry.path, uid)
                if st is None:  # a link, or not ours
                    continue
                look_here = changed_since is None or st.st_mtime >= changed_since
                # a folder whose files are not looked at is listed only for its subfolders;
                # a link count of 2 says it has none (1: a file system that does not count)
                if look_here or st.st_nlink != 2:
                    stack.append((entry.path, look_here))
            elif look:
                _tighten(entry.path, uid)


def _tighten(path: str, uid: int | None) -> os.stat_result | None:
    """Tighten one path; its ``lstat`` (None: gone, a link, or not ours: not to be entered)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or (uid is not None and st.st_uid != uid):
            return None
        want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
        if stat.S_IMODE(st.st_mode) != want:
            os.chmod(path, want)
        return st
    except OSError as exc:
        # a journal that came and went; a copy this user may not change: not ours, or on a
        # read-only file system (EROFS: a backup mounted read-only, whatever its modes)
        if exc.errno in _UNCHANGEABLE:
            return None
        raise


#: what a chmod of a path that cannot be tightened raises (it is left as it is)
_UNCHANGEABLE = frozenset({errno.ENOENT, errno.EPERM, errno.EACCES, errno.EROFS})


#: slack for file systems whose modification times are coarse (whole seconds, 2 s on FAT)
_MTIME_SLACK = 2.0
#: the state directory's record of when a command last made it owner-only: its modification
#: time is that command's start (an empty file; missing or unreadable: look at every file)
CHECKED_STAMP = "owner-only.checked"


@contextmanager
def private_files(state: Path, tighten: bool = True) -> Iterator[None]:
    """Run a command that writes under ``state`` with umask 077 (every file it creates, by
    us, SQLite or a library, is owner-only from its first byte), and tighten whatever is
    there: before, what changed since the last command that did this (every file the first
    time); after, what the command changed (:func:`owner_only`).

    ``tighten`` False (a command that only reads the state: ``ledger``, ``audit``, ``table
    show``...): the umask only; nothing under ``state`` is changed or stamped, so it reads a
    copy whatever its modes and wherever it is (a backup made with umask 022, a read-only
    mount) without trying to write it."""
    old = os.umask(0o077)
    if not tighten:
        try:
            yield
        finally:
            os.umask(old)
        return
    stamp = state / CHECKED_STAMP
    started = time.time() - _MTIME_SLACK
    try:
        try:
            since: float | None = stamp.stat().st_mtime - _MTIME_SLACK
        except OSError:
            since = None
        owner_only(state, since)
        yield
    finally:
        os.umask(old)
        owner_only(state, changed_since=started)
        _stamp(stamp, started)


def _stamp(stamp: Path, at: float) -> None:
    """Record ``at`` as the last check's start (nothing on a read-only state directory, nor in
    a folder that is not a state)."""
    try:
        if stamp.parent.is_dir() and is_state(stamp.parent):
            if not stamp.exists():
                os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT, 0o600))
            os.utime(stamp, (at, at))
    except OSError:
        pass
