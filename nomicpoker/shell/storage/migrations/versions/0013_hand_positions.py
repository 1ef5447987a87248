"""Tournament positions: ``np_hand.positions`` holds where a tournament hand's button and blinds
were (seat numbers) and who posted each blind (Robert's dead button, WRGPT's "no small blind"),
as JSON.

Nothing to fill in: every hand before this revision had its blinds clockwise from the button,
which the empty string says, so it replays exactly as before.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("np_hand") as t:
        t.add_column(sa.Column("positions", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("np_hand") as t:
        t.drop_column("positions")
