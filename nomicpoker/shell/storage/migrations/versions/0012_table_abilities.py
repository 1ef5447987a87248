"""The abilities a table was created with: ``np_table.abilities`` holds what its forum can do
(``nomicpoker.ports.Abilities`` as JSON: who rolls the dice, private messages, the mention
format, whether players read the thread, ...), so replay and ``audit`` read them from the
ledger and never import an adapter (docs/architecture.md, "One composition root").

Existing tables are filled here, at upgrade time, from the adapter registry: the abilities
the forum's adapter declares for the table's kind and config, which is exactly what replay
looked up before this revision, so an upgraded ledger replays and audits as it did. A table
whose forum this release does not know (or whose config cannot be read) gets the documented
default, ``Abilities()``: the bot rolls the dice, no private messages, Markdown, players read
the thread (such a table could not be replayed before: replay refused its unknown forum).

Revision ID: 0012
Revises: 0011
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _declared(kind: str, config_text: str | None) -> str:
    """What the registry declares for ``kind`` and the stored config, or the default."""
    from nomicpoker.adapters.registry import declared_abilities
    from nomicpoker.ports import Abilities, ForumError

    try:
        config = json.loads(config_text or "null") or {}
        if not isinstance(config, dict):
            return Abilities().as_json()
        return declared_abilities(kind, config).as_json()
    except (ForumError, ValueError):
        return Abilities().as_json()


def upgrade() -> None:
    with op.batch_alter_table("np_table") as t:
        t.add_column(sa.Column("abilities", sa.String(), nullable=False, server_default="{}"))
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, forum_kind, forum_config FROM np_table ORDER BY id")).fetchall()
    for row_id, kind, config_text in rows:
        bind.execute(sa.text("UPDATE np_table SET abilities = :a WHERE id = :i"),
                     {"a": _declared(kind, config_text), "i": row_id})


def downgrade() -> None:
    with op.batch_alter_table("np_table") as t:
        t.drop_column("abilities")
