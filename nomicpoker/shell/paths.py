"""Where runtime state lives (shell). The core never imports this module.

The state directory holds the ledger database (SQLite by default), the local forum, the
hand secrets (owner-only permissions) and the poll lock. It is ``--state DIR``, else the
``NOMICPOKER_STATE`` environment variable, else ``./state``. The ledger database is
``--db URL``, else ``NOMICPOKER_DB``, else ``sqlite:///<state>/ledger.db``.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


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
    return explicit or os.environ.get("NOMICPOKER_DB") or f"sqlite:///{state / 'ledger.db'}"


def forum_db_path(state: Path) -> Path:
    """The embedded local forum's SQLite file."""
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


def owner_only(state: Path) -> None:
    """Make the state directory and everything under it owner-only: folders 0700, files 0600.

    WHY every file and not only the secrets: the ledger database holds the archive and the
    outbox, the local forum holds players' private messages (their decks), and a file made
    by an older nomicpoker (or by SQLite, which gives its -wal and -shm files the database's
    mode) may still be 0644. Only what this user owns is changed (an auditor's read-only
    copy is left as it is), and symbolic links are never followed."""
    if not state.is_dir():
        return
    uid = os.getuid() if hasattr(os, "getuid") else None
    for root, dirs, files in os.walk(state):
        for path in [root] if root == str(state) else []:
            _tighten(path, uid)
        for name in dirs + files:
            _tighten(os.path.join(root, name), uid)


def _tighten(path: str, uid: int | None) -> None:
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or (uid is not None and st.st_uid != uid):
            return
        want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
        if stat.S_IMODE(st.st_mode) != want:
            os.chmod(path, want)
    except (FileNotFoundError, PermissionError):  # a journal that came and went; a read-only copy
        return


@contextmanager
def private_files(state: Path) -> Iterator[None]:
    """Run a command that writes under ``state`` with umask 077 (every file it creates, by
    us, SQLite or a library, is owner-only from its first byte), and tighten whatever is
    there before and after (:func:`owner_only`)."""
    old = os.umask(0o077)
    try:
        owner_only(state)
        yield
    finally:
        os.umask(old)
        owner_only(state)
