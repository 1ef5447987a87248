"""np_action: every public step of a hand with the chips it moved (a derived table).

The rows of hands played before this revision are filled in by ``nomicpoker db upgrade``
right after the migration, from the replay (see :func:`nomicpoker.shell.jobs.schema.backfill`), so
an upgraded ledger audits clean.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    S, I = sa.String, sa.Integer
    op.create_table(
        "np_action",
        sa.Column("id", I(), nullable=False),
        sa.Column("table_name", S(), nullable=False),
        sa.Column("seq", I(), nullable=False),
        sa.Column("hand", I(), nullable=False),
        sa.Column("n", I(), nullable=False),
        sa.Column("player", S(), nullable=False),
        sa.Column("event", S(), nullable=False),
        sa.Column("amount", I(), nullable=True),
        sa.Column("cards", S(), nullable=False),
        sa.Column("chips", I(), nullable=False),
        sa.Column("comment_id", S(), nullable=False),
        sa.Column("at", S(), nullable=False),
        sa.Column("cause", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_np_action_table_name"), "np_action", ["table_name"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_np_action_table_name"), table_name="np_action")
    op.drop_table("np_action")
