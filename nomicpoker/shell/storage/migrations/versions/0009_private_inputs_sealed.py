"""A running hand's private inputs leave the ledger: np_unsealed, and the archive rows sealed.

Up to 0008 the archive (``np_comment``) held every player's private message to the Dealer in
the clear (a private advance action in the Dealer's inbox, and at an e-mail table every
message a player wrote), with its SHA-256, while its hand ran: a backup or any copy of the
ledger told what the player planned. From this revision such a revision is archived sealed (a
commitment to its text; the text is kept in the owner-only secrets folder) and its text is
published in the new table ``np_unsealed`` when its hand ends
(:mod:`nomicpoker.shell.storage.sealed_inputs`).

This revision creates ``np_unsealed``. ``nomicpoker db upgrade`` then seals the private
messages of the hands still running (:func:`nomicpoker.shell.jobs.schema.seal_private_inputs`: the
text is moved to the state folder's secrets, the row keeps its commitment; on SQLite with
``secure_delete`` on) and rewrites the file so no free page keeps them
(:func:`nomicpoker.shell.jobs.schema.compact`). Messages of hands that have ended stay as they are:
they are public.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    S, I = sa.String, sa.Integer
    op.create_table(
        "np_unsealed",
        sa.Column("id", I(), nullable=False),
        sa.Column("table_name", S(), nullable=False),
        sa.Column("comment_id", I(), nullable=False),
        sa.Column("nonce", S(), nullable=False),
        sa.Column("body", S(), nullable=False),
        sa.Column("published_at", S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_np_unsealed_table_name"), "np_unsealed", ["table_name"], unique=False)
    op.create_index(op.f("ix_np_unsealed_comment_id"), "np_unsealed", ["comment_id"], unique=True)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA secure_delete = ON")  # the rows sealed by the upgrade's backfill


def downgrade() -> None:
    """The sealed rows stay sealed (their texts are in the secrets folder); the published
    texts are dropped with the table."""
    op.drop_index(op.f("ix_np_unsealed_comment_id"), table_name="np_unsealed")
    op.drop_index(op.f("ix_np_unsealed_table_name"), table_name="np_unsealed")
    op.drop_table("np_unsealed")
