"""Private advance actions through Reddit's inbox (issue 14): praw reads the Dealer's
``/message/messages`` from a fake Reddit API on loopback; a player's message (a new
conversation, or a reply nested under one of the Dealer's own messages) is archived for the
table and fires at the turn, and ``audit`` replays it identically."""

from __future__ import annotations

import time

from sqlmodel import Session

from nomicpoker.adapters.registry import open_forum
from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs import poll
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.tables.game import ledger_cells_holding
from kits.servers.reddit import config_for, fake  # noqa: F401 (fixture)
from fixtures.reddit_api import SUB, USER


def test_the_inbox_lists_what_players_sent_including_replies_oldest_first(fake) -> None:
    mine = fake.pm(USER, "Your hole cards for hand 1 (T)", "7h 2s", dest="alice")
    a = fake.pm("bob", "advance (T)", "CALL *")
    r = fake.pm("alice", "re: Your hole cards for hand 1 (T)", "FOLD/R", reply_to=mine)
    fake.pm("carol", "to someone else", "hi", dest="dave")
    forum = open_forum("reddit", config_for(fake), state=None)  # type: ignore[arg-type]
    assert forum.abilities.private_inbox
    got = forum.received_private()
    assert [(m.id, m.sender, m.body) for m in got] == [(a["name"], "bob", "CALL *"),
                                                       (r["name"], "alice", "FOLD/R")]
    assert all(m.recipient == USER and m.created is not None for m in got)


def test_a_private_advance_action_sent_on_reddit_fires_and_audits_identical(fake, tmp_path) -> None:
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    players = ("alice", "bob", "carol")
    service.create_table(engine, state, "T", list(players), 100, ruleset="roberts-nlhe", issue_decks=False,
                         forum="reddit", forum_config=config_for(fake), settings={"reminders": 0})
    secrets_store.write(state, "T", 1, fixed_secrets("reddit-inbox"))
    started = service.start_hand(engine, state, "T", 0, blinds=(1, 2), thread=SUB)
    assert not started.report.error, started.report.error

    def run() -> None:
        report = poll.poll(engine, state)
        assert report.ok, [t.error for t in report.tables]

    def to_act() -> str:
        with Session(engine) as s:
            rows = ledger.gndt(s, ledger.get_table(s, "T"))
        return next(r.player for r in rows if r.turn == "x")

    run()
    first = to_act()
    second = players[(players.index(first) + 1) % 3]
    fake.pm(second, "advance (T)", "CALL *", created=int(time.time()) + 1)  # after the table
    run()
    sent = [m for m in fake.messages if m["to"] == second and "advance action" in m["text"]]
    assert sent and "CALL" in sent[-1]["text"]  # confirmed privately
    # the message is in no row of the live ledger while the hand runs (archived sealed)
    assert ledger_cells_holding(state / "ledger.db", "CALL *") == []
    fake.add(first, "raise 6")
    run()
    assert any(f"{second} (advance action): calls" in c.body for c in fake.comments if c.author == USER)
    assert to_act() not in (first, second)
    assert audit(engine, state)[1] == []


def test_a_message_older_than_the_table_is_not_for_it(fake, tmp_path) -> None:
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    fake.pm("alice", "advance (T)", "JAM")  # the fake's clock: 2023, long before the table
    service.create_table(engine, state, "T", ["alice", "bob"], 100, ruleset="roberts-nlhe", issue_decks=False,
                         forum="reddit", forum_config=config_for(fake), settings={"reminders": 0})
    secrets_store.write(state, "T", 1, fixed_secrets("reddit-inbox-old"))
    assert not service.start_hand(engine, state, "T", 0, blinds=(1, 2), thread=SUB).report.error
    assert poll.poll(engine, state).ok
    from nomicpoker.shell.storage.store import CommentRow
    from sqlmodel import select
    with Session(engine) as s:
        assert s.exec(select(CommentRow).where(CommentRow.thread == "~private")).all() == []
