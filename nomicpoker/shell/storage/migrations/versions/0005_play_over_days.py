"""Play over days: np_table.settings (the table's settings at creation: deadline in office
hours, office hours, reminders, timeouts, flood threshold, vacations) and np_dealer_event.data
(what an event carries: a reminder's number, the settings a ``table set`` changed; the
Dealer's reason goes in the ``note`` column revision 0003 added).

Existing rows get the defaults, ``{}`` settings (the table's ``deadline_hours`` column still
counts) and ``{}`` data, which is exactly what they meant before, so an upgraded ledger
replays and audits as it did.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("np_table") as t:
        t.add_column(sa.Column("settings", sa.String(), nullable=False, server_default="{}"))
    with op.batch_alter_table("np_dealer_event") as t:
        t.add_column(sa.Column("data", sa.String(), nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("np_dealer_event") as t:
        t.drop_column("data")
    with op.batch_alter_table("np_table") as t:
        t.drop_column("settings")
