"""Where runtime state lives (shell). The core never imports this module.

The state directory holds the ledger database (SQLite by default), the local forum, the
hand secrets (owner-only permissions) and the poll lock. It is ``--state DIR``, else the
``NOMICPOKER_STATE`` environment variable, else ``./state``. The ledger database is
``--db URL``, else ``NOMICPOKER_DB``, else ``sqlite:///<state>/ledger.db``.
"""

from __future__ import annotations

import os
from pathlib import Path


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


def lock_path(state: Path) -> Path:
    return state / "poll.lock"
