"""Ledger URLs as Dealers write them (shell): the PostgreSQL schemes other tools use, the
driver nomicpoker installs, and plain words for a URL that names no ledger. Read by
:func:`nomicpoker.shell.storage.store.open_engine` before SQLAlchemy sees the URL (whose own answers
are "Can't load plugin: sqlalchemy.dialects:postgres" and "Could not parse SQLAlchemy URL")."""

from __future__ import annotations

from sqlalchemy.engine import make_url

#: the driver nomicpoker installs for PostgreSQL (the ``postgres`` extra: psycopg 3)
PG_DRIVER = "postgresql+psycopg"
#: what to run when that driver is missing
PG_INSTALL = ("pip install 'nomicpoker[postgres]' (pipx: pipx inject nomicpoker 'psycopg[binary]')")


def ledger_url(url: str) -> str:
    """``url`` as SQLAlchemy must read it: ``postgres://`` (what Heroku, Render and libpq
    tools write) and a bare ``postgresql://`` name the psycopg 3 driver nomicpoker installs
    (SQLAlchemy would look for a ``postgres`` plugin, or for psycopg2)."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return f"{PG_DRIVER}://" + url[len(scheme):]
    return url


def url_problem(url: str, shown: str) -> str:
    """What is wrong with a ``--db`` that is not a database URL nomicpoker can use, in plain
    words ("" when nothing is)."""
    hint = ("write sqlite:///PATH/ledger.db (an SQLite file) or postgresql://USER@HOST/DBNAME "
            "(a PostgreSQL database)")
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - SQLAlchemy's ArgumentError, ValueError: not a URL at all
        return f"--db {shown!r} is not a database URL: {hint}"
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        return (f"--db {shown!r}: nomicpoker keeps its ledger in SQLite or PostgreSQL, not "
                f"{parsed.get_backend_name()!r}: {hint}")
    return ""
