"""np_snapshot: the fold's state after the inputs it covers, so a poll folds only what is new
(a cache: see :mod:`nomicpoker.shell.storage.snapshots`), and, on SQLite, the triggers that drop a
table's snapshot when a row it covers is updated or deleted in place.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: the tables a snapshot covers at this revision (inputs, then derived rows)
COVERED = ("np_ruleset", "np_hand", "np_comment", "np_dealer_event", "np_verdict", "np_entry", "np_outbox", "np_dice",
           "np_deck", "np_draw", "np_reveal", "np_board", "np_hand_end", "np_action")
#: np_outbox's columns the fold writes (status, remote_id and sent_at are the shell's)
OUTBOX_FOLD_COLUMNS = ("table_name", "seq", "key", "hand", "kind", "thread", "reply_to", "recipient",
                       "subject", "body")


def upgrade() -> None:
    S, I = sa.String, sa.Integer
    op.create_table(
        "np_snapshot",
        sa.Column("id", I(), nullable=False),
        sa.Column("table_name", S(), nullable=False),
        sa.Column("fingerprint", S(), nullable=False),
        sa.Column("covers", S(), nullable=False),
        sa.Column("current", S(), nullable=False),
        sa.Column("state", S(), nullable=False),
        sa.Column("mac", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_np_snapshot_table_name"), "np_snapshot", ["table_name"], unique=True)
    if op.get_bind().dialect.name != "sqlite":
        return
    for name in COVERED:
        update = f"UPDATE OF {', '.join(OUTBOX_FOLD_COLUMNS)}" if name == "np_outbox" else "UPDATE"
        for what, when in (("update", update), ("delete", "DELETE")):
            op.execute(f"CREATE TRIGGER IF NOT EXISTS np_guard_{name}_{what} AFTER {when} ON {name} "
                       "BEGIN DELETE FROM np_snapshot WHERE table_name = OLD.table_name; END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in COVERED:
            for what in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS np_guard_{name}_{what}")
    op.drop_index(op.f("ix_np_snapshot_table_name"), table_name="np_snapshot")
    op.drop_table("np_snapshot")
