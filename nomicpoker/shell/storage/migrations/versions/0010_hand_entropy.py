"""Players' entropy: ``np_hand.entropy`` holds what a hand's deal mixed into its committed
secrets (the comments of its entropy window and the drand round, issue 26), as JSON.

Nothing to fill in: every hand before this revision was dealt from its committed secrets
alone, which the empty string says, so it verifies exactly as before.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("np_hand") as t:
        t.add_column(sa.Column("entropy", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("np_hand") as t:
        t.drop_column("entropy")
