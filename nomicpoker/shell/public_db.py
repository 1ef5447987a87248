"""``nomicpoker export public-db``: a copy of the ledger that is safe to publish.

WHY a copy and not the ledger itself: the ledger is the Dealer's working database. What it
holds is public already (the comment archive is the forum's, the derived rows are posted in
the thread) with four exceptions, which the copy leaves out:

- private message bodies: the fold stores only a seal (:mod:`nomicpoker.core.sealed`), but a
  ledger written by an older nomicpoker may still hold a body; any body that is not a seal
  is replaced by ``[private message withheld]``;
- the text of a private player message whose hand has not ended (a private advance action;
  at an e-mail table every player message: it is the player's secret until then, see
  :func:`nomicpoker.shell.private_inbox.withheld`), and its verdict's words (the canonical
  command, the refusal and the rule it quotes), which were answered to the player alone;
- the table's forum configuration (it may name a credentials file, a contact address or a
  praw site): only the forum kind is kept;
- the outbox's delivery state (remote ids, send times) is kept; it is what the thread shows.

The copy is a single SQLite file in rollback-journal mode (no ``-wal`` beside it), with the
same tables and columns as the ledger, so ``datasette FILE`` serves it as it is, and
``nomicpoker audit --db sqlite:///FILE`` and ``audit verify`` read it like a ledger.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.sealed import is_sealed
from nomicpoker.shell.paths import sqlite_url
from nomicpoker.shell.private_inbox import WITHHELD as PRIVATE_WITHHELD, withheld
from nomicpoker.shell.store import ALL_MODELS, CommentRow, OutboxRow, TableRow, VerdictRow, open_engine, transaction

WITHHELD = "[private message withheld]"


def _public(row, secret: set[tuple[str, str]]):
    values = row.model_dump()
    if isinstance(row, CommentRow) and (row.table_name, row.forum_id) in secret:
        values["body"] = PRIVATE_WITHHELD
    if isinstance(row, VerdictRow) and (row.table_name, row.forum_id) in secret:
        values.update(canonical="", message="", citation="")
    if isinstance(row, OutboxRow) and row.kind == "private" and not is_sealed(row.body):
        values["body"] = WITHHELD
    if isinstance(row, TableRow):
        values["forum_config"] = "{}"
    return type(row)(**values)


def export_public_db(engine: Engine, out: Path) -> dict[str, int]:
    """Write the public copy to ``out`` (replacing it atomically); return rows per table."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
        p.unlink(missing_ok=True)
    counts: dict[str, int] = {}
    target = open_engine(sqlite_url(tmp))
    try:
        with Session(engine) as live, transaction(target) as s:
            secret = {(t.name, fid) for t in live.exec(select(TableRow)).all() for fid in withheld(live, t.name)}
            for model in ALL_MODELS:
                rows = live.exec(select(model)).all()
                counts[model.__tablename__] = len(rows)  # type: ignore[attr-defined]
                for row in rows:
                    s.add(_public(row, secret))
    finally:
        target.dispose()
    con = sqlite3.connect(tmp)
    try:
        con.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        con.execute("VACUUM")  # no freed pages keeping old bytes
    finally:
        con.close()
    os.chmod(tmp, 0o644)  # meant to be published
    os.replace(tmp, out)
    return counts
