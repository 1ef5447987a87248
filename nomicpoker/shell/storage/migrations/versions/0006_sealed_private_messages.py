"""Private message bodies sealed in np_outbox (no column changes).

From this revision the fold stores a seal in ``np_outbox.body`` for a private message (a deck,
hole cards) instead of its text (:mod:`nomicpoker.core.fairness.sealed`), and the Dealer's machine keeps
the text in the owner-only secrets folder. This revision changes no table; ``nomicpoker db
upgrade`` then replaces every body stored in the clear by its seal and writes the text where
the sender reads it (:func:`nomicpoker.shell.jobs.schema.backfill`), so an upgraded ledger keeps no
private message readable and audits clean.

Revision ID: 0006
Revises: 0005
"""

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing in SQL: the bodies are sealed by the backfill, which needs the hand secrets."""


def downgrade() -> None:
    """Nothing to undo in SQL (a sealed body stays sealed)."""
