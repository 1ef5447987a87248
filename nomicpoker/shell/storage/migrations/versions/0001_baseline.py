"""The ledger as the first release (0.1.0, commit 34c6f5e) made it with ``create_all``.

A ledger from that release has these tables and no ``alembic_version``: ``nomicpoker db
upgrade`` recognises it by its tables, stamps it 0001 and runs the later revisions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

S, I, B = sa.String, sa.Integer, sa.Boolean


def _col(name: str, kind, null: bool = False) -> sa.Column:
    return sa.Column(name, kind(), nullable=null)


def _table(name: str, *cols: sa.Column, unique: tuple[str, ...] = (), derived: bool = False) -> None:
    head = [sa.Column("id", I(), nullable=False)]
    if name != "np_table":
        head.append(_col("table_name", S))
    if derived:
        head.append(_col("seq", I))
    extra = [sa.UniqueConstraint(*unique)] if unique else []
    op.create_table(name, *head, *cols, sa.PrimaryKeyConstraint("id"), *extra)
    if name != "np_table":
        op.create_index(op.f(f"ix_{name}_table_name"), name, ["table_name"], unique=False)


TABLES = ("np_table", "np_hand", "np_comment", "np_dealer_event", "np_verdict", "np_entry",
          "np_outbox", "np_dice", "np_deck", "np_draw", "np_reveal", "np_board", "np_hand_end")


def upgrade() -> None:
    _table("np_table", _col("name", S), _col("ruleset", S), _col("ruleset_hash", S),
           _col("forum_kind", S), _col("forum_config", S), _col("dealer", S), _col("players", S),
           _col("money", I), _col("button", S), _col("issue_decks", B),
           _col("deadline_hours", I, True), _col("active", B), _col("created", S))
    op.create_index(op.f("ix_np_table_name"), "np_table", ["name"], unique=True)
    _table("np_hand", _col("number", I), _col("thread", S), _col("ruleset_hash", S),
           _col("button", S), _col("ante", I), _col("blinds", S), _col("seats", S), _col("after", I),
           _col("started_at", S), _col("commitments", S), unique=("table_name", "number"))
    _table("np_comment", _col("thread", S), _col("forum_id", S), _col("revision", I),
           _col("author", S), _col("created", S), _col("edited", S, True), _col("body", S),
           _col("body_format", S), _col("sha256", S), _col("deleted", B), _col("dice", S),
           _col("permalink", S), _col("fetched_at", S),
           unique=("table_name", "thread", "forum_id", "revision"))
    _table("np_dealer_event", _col("hand", I), _col("after", I), _col("kind", S),
           _col("player", S), _col("at", S))
    _table("np_verdict", _col("hand", I, True), _col("thread", S), _col("forum_id", S),
           _col("revision", I), _col("author", S), _col("status", S), _col("code", S),
           _col("message", S), _col("citation", S), _col("canonical", S), derived=True)
    _table("np_entry", _col("hand", I, True), _col("player", S), _col("column", S), _col("old", S),
           _col("new", S), _col("cause", S), derived=True)
    _table("np_outbox", _col("key", S), _col("hand", I, True), _col("kind", S), _col("thread", S),
           _col("reply_to", S, True), _col("recipient", S), _col("subject", S), _col("body", S),
           _col("status", S), _col("remote_id", S, True), _col("sent_at", S, True), derived=True)
    op.create_index(op.f("ix_np_outbox_key"), "np_outbox", ["key"], unique=True)
    _table("np_dice", _col("hand", I), _col("comment_id", S), _col("player", S), _col("index", I),
           _col("sides", I), _col("result", I), _col("source", S), derived=True)
    _table("np_deck", _col("hand", I), _col("player", S), _col("source", S), _col("checksum", S),
           derived=True)
    _table("np_draw", _col("hand", I), _col("player", S), _col("comment_id", S),
           _col("positions", S), _col("checksum", S), derived=True)
    _table("np_reveal", _col("hand", I), _col("player", S), _col("comment_id", S), _col("cards", S),
           derived=True)
    _table("np_board", _col("hand", I), _col("street", S), _col("cards", S), derived=True)
    _table("np_hand_end", _col("hand", I), _col("secrets", S), _col("payouts", S),
           _col("destroyed", I), derived=True)


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
