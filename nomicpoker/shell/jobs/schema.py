"""Schema versions of the ledger (shell): ``nomicpoker db upgrade`` and ``db version``.

WHY Alembic and a version on every ledger: a Dealer's game runs for months while nomicpoker
gets new releases; a release that adds a column must be able to bring a running game's ledger
along, and an old nomicpoker must never write to a ledger a newer one has changed. Every
command checks the version when it opens the ledger (:func:`nomicpoker.shell.storage.store.open_engine`,
without importing Alembic); only this module runs migrations.

A ledger made by 0.1.0 (before versions) has the tables but no ``alembic_version``: it is
stamped with the baseline revision (0001, exactly 0.1.0's schema) and upgraded from there.
An SQLite ledger is first copied next to itself (``ledger.db.before-<rev>``), so an upgrade
that goes wrong can be undone by hand.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import Engine

from nomicpoker.shell.storage.store import SCHEMA_HEAD, StoreError, schema_version, sqlite_path

MIGRATIONS = Path(__file__).parents[1] / "storage" / "migrations"  # the ledger's versions live with it
BASELINE = "0001"


@dataclass(frozen=True)
class Upgraded:
    before: str | None  # None: a 0.1.0 ledger without a version
    after: str
    backup: Path | None
    problems: tuple[str, ...] = ()  # tables whose new derived rows could not be filled in


def alembic_config(connection=None):  # type: ignore[no-untyped-def]
    """An Alembic config on the packaged migrations (no alembic.ini), bound to ``connection``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def revisions() -> list[str]:
    """The packaged revisions, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def current(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return schema_version(conn)


def _backup(engine: Engine, url: str, version: str | None) -> Path | None:
    path = sqlite_path(url)
    if path is None:
        return None
    target = path.with_name(f"{path.name}.before-{version or '0.1.0'}")
    target.unlink(missing_ok=True)
    source, copy = sqlite3.connect(path), sqlite3.connect(target)
    try:
        source.backup(copy)  # SQLite's online backup: a consistent copy, WAL included
    finally:
        copy.close()
        source.close()
    return target


def backfill(engine: Engine, state: Path | None) -> list[str]:
    """Store the derived rows a new revision's tables lack (e.g. np_action for hands played
    before it), by replaying each table through the poll's own storing path. Returns one line
    per table that could not be replayed (its rows fill in at its next poll instead)."""
    from sqlmodel import Session, select

    from nomicpoker.core.errors import CodedError
    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.cycle.replay import fold_for
    from nomicpoker.shell.storage.store import TableRow, transaction

    with Session(engine) as s:
        names = [t.name for t in s.exec(select(TableRow).order_by(TableRow.id)).all()]
    problems = []
    for name in names:
        try:
            with transaction(engine) as s:
                table = ledger.get_table(s, name)
                result = fold_for(s, table, state or Path("/nonexistent"))
                ledger.store_fold(s, name, result)
                seal_private_bodies(s, name, result, state)
                left = seal_private_inputs(s, table, state)
            if left:
                problems.append(f"{name}: {left} private message(s) of a running hand stay in the clear in "
                                "the archive (no state folder to keep their text in): run nomicpoker db "
                                "upgrade again with --state DIR (the folder holding secrets/)")
        except CodedError as exc:
            problems.append(f"{name}: {exc}")
    return problems


def seal_private_inputs(session, table, state: Path | None) -> int:  # type: ignore[no-untyped-def]
    """Revision 0009: seal each private message of a running hand archived in the clear (its
    text moved to the secrets folder, its row keeping the commitment and the commitment's
    SHA-256, :mod:`nomicpoker.shell.storage.sealed_inputs`). Returns how many could not be sealed
    (no state folder: the text would be lost)."""
    from nomicpoker.shell.cycle.private_inbox import withheld
    from nomicpoker.shell.storage.sealed_inputs import commitment_in, seal
    from nomicpoker.shell.storage.store import CommentRow

    held = withheld(session, table.name)
    if not held:
        return 0
    rows = [r for r in session.exec(select_rows(CommentRow, table.name)).all()
            if r.forum_id in held and commitment_in(r.body) is None]
    if not rows:
        return 0
    if state is None or not state.is_dir():
        return len(rows)
    import hashlib

    for r in rows:
        r.body = seal(state, table.name, r.body, f"{r.thread}\x00{r.forum_id}\x00{r.revision}")
        r.sha256 = hashlib.sha256(r.body.encode("utf-8")).hexdigest()
        session.add(r)
    session.flush()
    return 0


def select_rows(model, table: str):  # type: ignore[no-untyped-def]
    from sqlmodel import select

    return select(model).where(model.table_name == table).order_by(model.id)


def seal_private_bodies(session, table: str, result, state: Path | None) -> int:  # type: ignore[no-untyped-def]
    """Revision 0006: replace each private message body stored in the clear by the seal the
    fold stores now, keeping the text in the owner-only secrets folder for the sender (when
    the state directory is known). Returns how many were sealed."""
    from nomicpoker.core.fairness.sealed import is_sealed
    from nomicpoker.shell.storage import ledger, secrets_store

    seals = {r["key"]: r["body"] for r in result.rows.get("outbox", ()) if r["kind"] == "private"}
    n = 0
    for row in ledger.stored_rows(session, table, "outbox"):
        if row.kind != "private" or is_sealed(row.body) or row.key not in seals:
            continue
        if state is not None and state.is_dir():
            secrets_store.write_message(state, table, row.key, row.body)
        row.body = seals[row.key]
        session.add(row)
        n += 1
    session.flush()
    return n


def upgrade(engine: Engine, url: str, state: Path | None = None) -> Upgraded:
    """Bring the ledger at ``engine`` to :data:`SCHEMA_HEAD` in one transaction."""
    from alembic import command

    with engine.connect() as conn:
        names = set(inspect(conn).get_table_names())
        version = schema_version(conn, names)
    if "np_table" not in names:
        raise StoreError("no_ledger", "this database holds no nomicpoker ledger to upgrade "
                         "(nomicpoker init makes a new one)")
    if version == SCHEMA_HEAD:
        return Upgraded(version, version, None)
    if version is not None and version not in revisions():
        raise StoreError("new_schema", f"the ledger has schema version {version}, newer than this "
                         f"nomicpoker knows ({SCHEMA_HEAD}): upgrade nomicpoker instead")
    backup = _backup(engine, url, version)
    with engine.begin() as conn:
        cfg = alembic_config(conn)
        if version is None:
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
    problems = tuple(backfill(engine, state))
    compact(engine)
    return Upgraded(version, SCHEMA_HEAD, backup, problems)


def compact(engine: Engine) -> None:
    """Rewrite the database so no freed page keeps what a revision removed (0008: the fold
    states of running hands; 0009: the text of their private messages): SQLite is vacuumed and
    its write-ahead log emptied; PostgreSQL's ``np_snapshot`` and ``np_comment`` get a
    ``VACUUM FULL`` (a new file for each table). Both run outside a
    transaction, as they must."""
    if engine.dialect.name == "sqlite":
        raw = engine.raw_connection()
        try:
            cur = raw.driver_connection.cursor()  # type: ignore[union-attr]
            cur.execute("VACUUM")
            cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            cur.close()
        finally:
            raw.close()
    elif engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM FULL np_snapshot")
            conn.exec_driver_sql("VACUUM FULL np_comment")  # 0009: the private messages sealed
