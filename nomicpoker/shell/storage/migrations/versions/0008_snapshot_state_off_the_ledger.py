"""The fold's state leaves the ledger: every ``np_snapshot`` row is deleted (no column changes).

Up to 0007 a table's snapshot held the fold's state in ``np_snapshot.state``, and the state of
a running hand holds what no copy of the ledger may hold before the hand ends: every hole card
dealt from the shared deck (the engine's ``DealHole`` events) and the advance actions players
sent the Dealer privately. From this revision the state is kept in the owner-only secrets
folder (:mod:`nomicpoker.shell.storage.snapshots`) and the column stays empty. A snapshot is a cache
(deleting it only makes the next poll replay the table from its first input, and store a new
one where it belongs), so the upgrade deletes them all; on SQLite with ``secure_delete`` on,
so the freed pages are overwritten with zeros, and :func:`nomicpoker.shell.jobs.schema.upgrade`
then vacuums the file and empties its write-ahead log (PostgreSQL: ``VACUUM FULL`` of the
table), so no old page keeps the bytes.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA secure_delete = ON")
    op.execute("DELETE FROM np_snapshot")


def downgrade() -> None:
    """Nothing to restore: the next poll of an older nomicpoker makes its snapshot again."""
