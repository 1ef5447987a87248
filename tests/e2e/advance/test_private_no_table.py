"""A private message that reaches none of its sender's tables is answered, privately, once,
and nothing is applied: its subject names no table while the player sits at several (it was
dropped silently), or names only a table the player does not sit at.

Through the real poll on the local forum (its inbox is the Dealer's): alice sits at tables
``alpha`` and ``T``; bob at ``alpha`` only. The expected answer is written out from
docs/comment-grammar.md ("Private messages: which table"). ``audit`` replays the answer (a
recorded dealer event) byte for byte.
"""

from __future__ import annotations

from sqlmodel import Session, select

from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.store import CommentRow, DealerEventRow, OutboxRow
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.dealer import service

from kits.tables.bot import Table

SUBJECT = "Your message to the Dealer: which table?"
HOW = ("Send it again with the table in the subject: the table's name alone (`alpha`), or anywhere in "
       "the subject as `(alpha)`, `[alpha]` or `table alpha` (a reply to one of the Dealer's private "
       "messages for that table keeps its tag).")


def two_tables(tmp_path) -> Table:
    t = Table(tmp_path, name="alpha", players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    service.create_table(t.engine, t.state, "T", ["alice", "carol"], 100, ruleset="roberts-nlhe",
                         issue_decks=False, settings={"reminders": 0})
    return t


def answers(t: Table, who: str) -> list:
    return [m for m in t.forum.inbox(who) if m.subject.startswith(SUBJECT + " [np:")]


def archived(t: Table) -> list[tuple[str, str]]:
    """The private messages archived at each table, with their texts (sealed in the archive
    while the hand runs, kept in the secrets folder)."""
    with Session(t.engine) as s:
        return sorted((name, r.body) for name in ("alpha", "T")
                      for r in ledger.revisions(s, name, state=t.state) if r.thread == "~private")


def sent_at(t: Table, who: str, subject: str) -> str:
    """When the local forum recorded the message (the answer quotes this time, in UTC, to the
    minute: "2026-11-23 14:05 UTC")."""
    from datetime import timezone

    m = next(m for m in t.forum.received_private() if m.sender == who and m.subject == subject)
    return m.created.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def test_a_message_naming_no_table_from_a_player_at_two_tables_is_answered_once(tmp_path):
    t = two_tables(tmp_path)
    t.start(ante=0, blinds=(1, 2))
    t.forum.send_private_as("alice", t.forum.dealer, "my advance", "CALL *")
    t.run()
    (answer,) = answers(t, "alice")
    when = sent_at(t, "alice", "my advance")
    assert answer.body.strip() == (f"alice: your private message of {when} names no table, and you sit at 2 "
                                   f"tables: `alpha`, `T`. Nothing was done with it. {HOW}")
    assert "CALL" not in answer.body  # the answer never repeats an advance action
    assert archived(t) == []  # applied nowhere
    t.run()
    t.run()
    assert len(answers(t, "alice")) == 1  # answered once, whatever the number of polls
    # named as the answer says, it reaches its table
    t.forum.send_private_as("alice", t.forum.dealer, "Re: my advance (alpha)", "CALL *")
    t.run()
    assert archived(t) == [("alpha", "CALL *")] and len(answers(t, "alice")) == 1
    with Session(t.engine) as s:
        events = s.exec(select(DealerEventRow).where(DealerEventRow.kind == "unnamed_private")).all()
        assert [(e.table_name, e.player) for e in events] == [("alpha", "alice")]
        row = s.exec(select(OutboxRow).where(OutboxRow.subject == SUBJECT)).one()
        assert row.kind == "private" and row.recipient == "alice" and row.status == "sent"
    tables, diffs = audit(t.engine, t.state)
    assert diffs == [], diffs


def test_between_hands_the_answer_goes_too(tmp_path):
    """No hand is running at either table: the answer holds nothing of a hand, so it is sent."""
    t = two_tables(tmp_path)
    t.forum.send_private_as("alice", t.forum.dealer, "", "WHAT")
    t.run()
    assert len(answers(t, "alice")) == 1 and archived(t) == []
    assert audit(t.engine, t.state)[1] == []


def test_a_message_naming_only_a_table_the_player_does_not_sit_at_is_answered(tmp_path):
    t = two_tables(tmp_path)
    t.forum.send_private_as("bob", t.forum.dealer, "for table T", "FOLD")
    t.run()
    (answer,) = answers(t, "bob")
    when = sent_at(t, "bob", "for table T")
    assert answer.body.strip() == (f"bob: your private message of {when} names no table you sit at now (it "
                                   f"names `T`), and you sit at 1 table: `alpha`. Nothing was done with it. {HOW}")
    assert archived(t) == []


def test_a_player_at_one_table_still_needs_no_name_and_a_stranger_gets_nothing(tmp_path):
    t = two_tables(tmp_path)
    t.start(ante=0, blinds=(1, 2))
    t.forum.send_private_as("bob", t.forum.dealer, "", "CALL *")
    t.forum.send_private_as("zoe", t.forum.dealer, "", "CALL *")
    t.run()
    assert archived(t) == [("alpha", "CALL *")]
    assert answers(t, "bob") == [] and answers(t, "zoe") == []


def test_a_message_older_than_the_players_tables_is_not_answered(tmp_path):
    """An inbox from an earlier game: the message is for no table and gets no answer."""
    t = two_tables(tmp_path)
    with Session(t.engine) as s:  # both tables created after the message below
        from nomicpoker.shell.storage.store import TableRow

        for row in s.exec(select(TableRow)).all():
            row.created = "2999-01-01T00:00:00+00:00"
            s.add(row)
        s.commit()
    t.forum.send_private_as("alice", t.forum.dealer, "", "CALL *")
    t.run()
    assert answers(t, "alice") == [] and archived(t) == []


def _set(t: Table, table: str, **values) -> None:
    from nomicpoker.shell.storage.store import TableRow

    with Session(t.engine) as s:
        row = s.exec(select(TableRow).where(TableRow.name == table)).one()
        for k, v in values.items():
            setattr(row, k, v)
        s.add(row)
        s.commit()


def test_a_message_applied_at_its_only_table_is_not_answered_when_a_second_table_starts(tmp_path):
    """alice at alpha alone: her untagged message reaches alpha. A table created later with
    her in it must not turn that message into 'names no table ... Nothing was done with it'."""
    t = Table(tmp_path, name="alpha", players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    t.forum.send_private_as("alice", t.forum.dealer, "", "CALL *")
    t.run()
    assert archived(t) == [("alpha", "CALL *")] and answers(t, "alice") == []
    service.create_table(t.engine, t.state, "T", ["alice", "carol"], 100, ruleset="roberts-nlhe",
                         issue_decks=False, settings={"reminders": 0})
    _set(t, "T", created="2999-01-01T00:00:00+00:00")  # created after the message
    t.run()
    assert answers(t, "alice") == [] and archived(t) == [("alpha", "CALL *")]


def test_a_message_applied_at_a_table_that_then_closes_is_not_answered(tmp_path):
    t = two_tables(tmp_path)
    t.start(ante=0, blinds=(1, 2))
    t.forum.send_private_as("alice", t.forum.dealer, "(alpha)", "CALL *")
    t.run()
    assert archived(t) == [("alpha", "CALL *")] and answers(t, "alice") == []
    _set(t, "alpha", active=False)  # its game ends; alice still sits at T
    t.run()
    assert answers(t, "alice") == []
