"""On PostgreSQL, the triggers that drop a table's snapshot when a row it covers is updated or
deleted in place (SQLite has had them since 0004): without them an edit made in place under a
snapshot went unseen by the poll on PostgreSQL (only ``nomicpoker audit`` found it). No table
changes; nothing on SQLite.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: the tables a snapshot covers at this revision (inputs, then derived rows)
COVERED = ("np_ruleset", "np_hand", "np_comment", "np_dealer_event", "np_verdict", "np_entry", "np_outbox", "np_dice",
           "np_deck", "np_draw", "np_reveal", "np_board", "np_hand_end", "np_action")
#: np_outbox's columns the fold writes (status, remote_id and sent_at are the shell's)
OUTBOX_FOLD_COLUMNS = ("table_name", "seq", "key", "hand", "kind", "thread", "reply_to", "recipient",
                       "subject", "body")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE OR REPLACE FUNCTION np_guard_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$ "
               "BEGIN DELETE FROM np_snapshot WHERE table_name = OLD.table_name; RETURN NULL; END $$")
    for name in COVERED:
        update = ("UPDATE OF " + ", ".join(f'"{c}"' for c in OUTBOX_FOLD_COLUMNS)) if name == "np_outbox" else "UPDATE"
        for what, when in (("update", update), ("delete", "DELETE")):
            op.execute(f"DROP TRIGGER IF EXISTS np_guard_{name}_{what} ON {name}")
            op.execute(f"CREATE TRIGGER np_guard_{name}_{what} AFTER {when} ON {name} "
                       "FOR EACH ROW EXECUTE FUNCTION np_guard_snapshot()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name in COVERED:
        for what in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS np_guard_{name}_{what} ON {name}")
    op.execute("DROP FUNCTION IF EXISTS np_guard_snapshot()")
