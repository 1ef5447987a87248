"""Tournaments (issue 24): ``np_tournament`` (the structure file verbatim, the ruleset, the seed's
commitment and, once started, the seed) and ``np_tournament_event`` (entrants, the start with
its draw, pauses, disqualifications, in order).

Nothing to fill in: a ledger from before this revision has no tournament.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    S, I = sa.String, sa.Integer
    op.create_table(
        "np_tournament",
        sa.Column("id", I(), nullable=False),
        sa.Column("name", S(), nullable=False),
        sa.Column("title", S(), nullable=False),
        sa.Column("structure", S(), nullable=False),
        sa.Column("structure_hash", S(), nullable=False),
        sa.Column("ruleset", S(), nullable=False),
        sa.Column("seed_hash", S(), nullable=False),
        sa.Column("seed", S(), nullable=False),
        sa.Column("status", S(), nullable=False),
        sa.Column("forum_kind", S(), nullable=False),
        sa.Column("dealer", S(), nullable=False),
        sa.Column("created", S(), nullable=False),
        sa.Column("started", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_np_tournament_name"), "np_tournament", ["name"], unique=True)
    op.create_table(
        "np_tournament_event",
        sa.Column("id", I(), nullable=False),
        sa.Column("tournament", S(), nullable=False),
        sa.Column("seq", I(), nullable=False),
        sa.Column("kind", S(), nullable=False),
        sa.Column("player", S(), nullable=False),
        sa.Column("at", S(), nullable=False),
        sa.Column("note", S(), nullable=False),
        sa.Column("data", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament", "seq"),
    )
    op.create_index(op.f("ix_np_tournament_event_tournament"), "np_tournament_event", ["tournament"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_np_tournament_event_tournament"), table_name="np_tournament_event")
    op.drop_table("np_tournament_event")
    op.drop_index(op.f("ix_np_tournament_name"), table_name="np_tournament")
    op.drop_table("np_tournament")
