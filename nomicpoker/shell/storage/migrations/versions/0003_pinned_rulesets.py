"""Pinned rulesets: np_ruleset (the ruleset text each table runs or ran under), the name of the
ruleset on each hand (np_hand.ruleset) and the amendment's ruleset and note on dealer events
(np_dealer_event.ruleset_hash, .note).

Nothing to fill in: a table from before this revision is pinned from its ruleset file the
first time it is replayed (``db upgrade`` replays every table right after migrating), when
that file still has the hash the table recorded (:mod:`nomicpoker.shell.storage.pinned`). Hands keep
``ruleset = ''``: the pinned row names them by hash.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    S, I = sa.String, sa.Integer
    op.create_table(
        "np_ruleset",
        sa.Column("id", I(), nullable=False),
        sa.Column("table_name", S(), nullable=False),
        sa.Column("content_hash", S(), nullable=False),
        sa.Column("name", S(), nullable=False),
        sa.Column("toml", S(), nullable=False),
        sa.Column("text", S(), nullable=False),
        sa.Column("origin", S(), nullable=False),
        sa.Column("pinned_at", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_name", "content_hash"),
    )
    op.create_index(op.f("ix_np_ruleset_table_name"), "np_ruleset", ["table_name"], unique=False)
    with op.batch_alter_table("np_hand") as t:
        t.add_column(sa.Column("ruleset", S(), nullable=False, server_default=""))
    with op.batch_alter_table("np_dealer_event") as t:
        t.add_column(sa.Column("ruleset_hash", S(), nullable=False, server_default=""))
        t.add_column(sa.Column("note", S(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("np_dealer_event") as t:
        t.drop_column("note")
        t.drop_column("ruleset_hash")
    with op.batch_alter_table("np_hand") as t:
        t.drop_column("ruleset")
    op.drop_index(op.f("ix_np_ruleset_table_name"), table_name="np_ruleset")
    op.drop_table("np_ruleset")
