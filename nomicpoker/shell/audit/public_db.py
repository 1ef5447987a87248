"""``nomicpoker export public-db``: a copy of the ledger that is safe to publish.

WHY a copy and not the ledger itself: the ledger is the Dealer's working database; it keeps
the players' private messages to the Dealer as they arrived (the archive is the fold's input),
the forum's configuration and the poll's cache. The copy is built row by row from the
allow-list of :mod:`nomicpoker.shell.audit.public_record` (each column of each table named with how
it is published, and per row what waits for its hand's end), never by copying tables: a column
nobody named is not copied.

The copy is a single SQLite file in rollback-journal mode (no ``-wal`` beside it), vacuumed (no
freed page keeps old bytes), with the same tables and columns as the ledger, so ``datasette
FILE`` serves it as it is, and ``nomicpoker audit --db sqlite:///FILE`` and ``audit verify``
read it like a ledger. Beside it, ``<name>.metadata.json`` describes every table and column
for datasette (:mod:`nomicpoker.shell.audit.public_metadata`): ``datasette poker.db -m
poker.metadata.json``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.paths import sqlite_url
from nomicpoker.shell.audit import public_metadata
from nomicpoker.shell.audit.public_record import ALLOW, not_public_yet, public_values
from nomicpoker.shell.storage.store import ALL_MODELS, open_engine, transaction


def metadata_path(out: Path) -> Path:
    """Where the datasette metadata of the copy ``out`` goes: ``poker.db`` -> ``poker.metadata.json``."""
    return Path(out).with_name(Path(out).stem + ".metadata.json")


def export_public_db(engine: Engine, out: Path, license_name: str | None = None,
                     license_url: str | None = None) -> dict[str, int]:
    """Write the public copy to ``out`` (replacing it atomically) and its datasette metadata
    beside it (:func:`metadata_path`); return rows per table."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
        p.unlink(missing_ok=True)
    counts: dict[str, int] = {}
    target = open_engine(sqlite_url(tmp))
    try:
        with Session(engine) as live, transaction(target) as s:
            secret = not_public_yet(live)
            for model in ALL_MODELS:
                t = model.__table__  # type: ignore[attr-defined]
                names = [c.name for c in t.columns]
                rows = [public_values(t.name, dict(zip(names, r)), secret)
                        for r in live.execute(select(t).order_by(t.c.id)).all()]
                published = [r for r in rows if r is not None]
                counts[t.name] = len(published)
                if published:
                    columns = list(published[0])
                    ledger.bulk_insert(s, t, columns, [tuple(r[c] for c in columns) for r in published])
    finally:
        target.dispose()
    con = sqlite3.connect(tmp)
    try:
        con.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        con.execute("VACUUM")  # no freed pages keeping old bytes
    finally:
        con.close()
    os.chmod(tmp, 0o644)  # meant to be published
    _write_metadata(out, license_name, license_url)
    os.replace(tmp, out)
    return counts


def _write_metadata(out: Path, license_name: str | None, license_url: str | None) -> None:
    from nomicpoker import __version__

    tables = {name: list(rule.columns) for name, rule in ALLOW.items() if rule.rows}
    meta = public_metadata.metadata(out.stem, __version__, tables, license_name, license_url)
    for name, rule in ALLOW.items():
        if not rule.rows:  # published empty (the poll's cache): nothing for a reader
            meta["databases"][out.stem]["tables"][name] = {"hidden": True}
    path = metadata_path(out)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
