"""Reddit as a client meets it: refusals for good, deep threads, and a client that asserts.

praw itself talks to the fake Reddit (``fixtures/reddit_api.py``), which now does what real
Reddit does: "continue this thread" and nested "load more" stubs, ``sort`` and ``limit``,
deleted comments gone from listings, and the refusals a table must survive (a reply to a
deleted comment, a locked or archived thread, a private message the player refuses). A
permanent refusal parks that one outbox row with a visible note and the rest goes on; one
table's unexpected exception fails that table only.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from nomicpoker.core.words.tags import find_tags
from nomicpoker.ports import ForumError
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.jobs import poll
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import OutboxRow, open_engine

from kits.servers.reddit import config_for, fake, forum_for  # noqa: F401 (fixture)
from fixtures.reddit_api import SUB, USER, FakeReddit


def table_on(fake: FakeReddit, tmp_path, players=("alice", "bob"), **kw):
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "T", list(players), 100, forum="reddit", forum_config=config_for(fake),
                         **kw)
    return engine, state


def rows(engine) -> list[OutboxRow]:
    with Session(engine) as s:
        return list(s.exec(select(OutboxRow).order_by(OutboxRow.seq)).all())


# -- the fake does what Reddit does ------------------------------------------------------------


def test_continue_this_thread_and_nested_load_more_stubs_are_all_read(fake) -> None:
    a = fake.add("alice", "HAND1 ROUND1 raise 10")
    chain = [a]
    for who in ("bob", "carol", "dave", "erin"):  # a reply chain five deep
        chain.append(fake.add(who, f"reply by {who}", parent=f"t1_{chain[-1].id}"))
    siblings = [fake.add(f"p{i}", f"sibling {i}", parent=f"t1_{a.id}") for i in range(3)]
    fake.depth_limit = 2  # replies two deep end in "continue this thread"
    fake.replies_after = 1  # a comment's second and later replies come as "load more"
    got = forum_for(fake).list_comments(SUB)
    assert sorted(g.id for g in got) == sorted(f"t1_{c.id}" for c in chain + siblings)
    parents = {g.id: g.parent_id for g in got}
    assert all(parents[f"t1_{c.id}"] == f"t1_{p.id}" for p, c in zip(chain, chain[1:]))
    paths = [p for m, p, _ in fake.requests if m == "GET"]
    assert any("/_/" in p for p in paths)  # praw followed a "continue this thread" stub
    assert any(p == "/api/morechildren" for _, p, _ in fake.requests)


def test_the_listing_asks_for_the_oldest_first_and_the_most_reddit_gives(fake) -> None:
    fake.add("alice", "hello")
    forum_for(fake).list_comments(SUB)
    (query,) = [q for m, p, q in fake.requests if m == "GET" and p.rstrip("/") == f"/comments/{SUB}"]
    assert query.get("sort") == "old" and query.get("limit") == "500"


def test_a_deleted_comment_without_replies_is_gone_from_the_listing(fake) -> None:
    a = fake.add("alice", "HAND1 ROUND1 raise 10")
    b = fake.add("bob", "HAND1 ROUND1 call")
    fake.delete(a)
    assert [g.id for g in forum_for(fake).list_comments(SUB)] == [f"t1_{b.id}"]


@pytest.mark.parametrize("setup, error", [
    (lambda fake, c: fake.delete(c), "DELETED_COMMENT"),
    (lambda fake, c: setattr(fake.submission(SUB), "locked", True), "THREAD_LOCKED"),
    (lambda fake, c: setattr(fake.submission(SUB), "archived", True), "TOO_OLD"),
])
def test_a_reply_reddit_will_never_accept_is_a_permanent_refusal(fake, setup, error) -> None:
    c = fake.add("alice", "HAND1 ROUND1 raise 10")
    setup(fake, c)
    with pytest.raises(ForumError) as err:
        forum_for(fake).post_comment(SUB, "not your turn\n\n`[np:T-h1-009]`", reply_to=f"t1_{c.id}", tag="T-h1-009")
    assert err.value.permanent and error in err.value.message and not err.value.retry


def test_a_refused_private_message_is_permanent_and_a_rate_limit_is_not(fake) -> None:
    fake.refuse_messages_to = {"bob"}
    forum = forum_for(fake)
    with pytest.raises(ForumError) as err:
        forum.send_private("bob", "Your deck", "secret cards")
    assert err.value.permanent and "NOT_WHITELISTED_BY_USER_MESSAGE" in err.value.message
    fake.comment_mode = "ratelimit"
    with pytest.raises(ForumError) as err:
        forum.post_comment(SUB, "hello\n\n`[np:x-1]`", tag="x-1")
    assert err.value.code == "rate_limited" and not err.value.permanent and err.value.retry


def test_a_duplicate_a_retry_left_behind_is_deleted_by_a_later_run(fake) -> None:
    first = fake.add(USER, "Dice for alice\n\n`[np:T-h1-004]`")
    late = fake.add(USER, "Dice for alice\n\n`[np:T-h1-004]`")  # the retried POST, seen only now
    other = fake.add(USER, "Turn notice\n\n`[np:T-h1-005]`")
    got = forum_for(fake).list_comments(SUB)
    assert [g.id for g in got] == [f"t1_{first.id}", f"t1_{other.id}"]
    assert fake.deleted == [f"t1_{late.id}"]


# -- the table goes on --------------------------------------------------------------------------


def test_a_reply_to_a_deleted_comment_is_posted_at_the_top_level_and_the_table_plays_on(fake, tmp_path) -> None:
    engine, state = table_on(fake, tmp_path, issue_decks=False)
    assert not service.start_hand(engine, state, "T", 5, thread=SUB).report.error
    wrong = fake.add("bob", "HAND1 ROUND1 raise 10")  # bob out of turn: a rejection is due
    fake.comment_mode = "ratelimit"  # the first try meets a rate limit: it stays pending
    report = poll.poll(engine, state)
    assert not report.ok and "rate_limited" in report.tables[0].error
    fake.comment_mode = "ok"
    fake.delete(wrong)  # ... and bob deletes his comment before the next run
    fake.add("alice", "HAND#1 DICE52 DICE52")
    report = poll.poll(engine, state)
    (t,) = report.tables
    assert report.ok, t.error
    assert len(t.parked) == 1 and "DELETED_COMMENT" in t.parked[0] and "top level" in t.parked[0]
    (note,) = [c for c in fake.comments if c.author == USER and "refused this as a reply" in c.body]
    assert note.parent == f"t3_{SUB}" and "bob" in note.body  # visible to the table
    by_key = {r.key: r for r in rows(engine)}
    parked = [r for r in by_key.values() if r.status == "parked"]
    assert len(parked) == 1 and parked[0].remote_id == f"t1_{note.id}"
    assert find_tags(note.body) == [parked[0].key]
    # the rest went on: alice's dice were rolled and answered, nothing is pending
    assert {r.status for r in by_key.values()} == {"sent", "parked"}
    assert any(c.body.startswith("Dice for alice") for c in fake.comments if c.author == USER)
    before = len(fake.posted)
    assert poll.poll(engine, state).ok and len(fake.posted) == before  # nothing posted again


def test_a_refused_private_message_is_parked_with_a_note_and_the_others_are_delivered(fake, tmp_path) -> None:
    engine, state = table_on(fake, tmp_path, players=("alice", "bob", "carol"), issue_decks=True)
    fake.refuse_messages_to = {"bob"}
    started = service.start_hand(engine, state, "T", 5, thread=SUB)
    assert not started.report.error, started.report.error
    assert sorted(m["to"] for m in fake.messages) == ["alice", "carol"]
    (parked,) = [r for r in rows(engine) if r.status == "parked"]
    assert parked.kind == "private" and parked.recipient == "bob"
    (note,) = [c for c in fake.comments if c.author == USER and "refused the Dealer's private message" in c.body]
    assert "**bob**" in note.body and "NOT_WHITELISTED_BY_USER_MESSAGE" in note.body.replace("\\", "")
    deck = next(m for m in fake.messages if m["to"] == "alice")["text"]
    assert deck.splitlines()[3] not in note.body  # the note never repeats a deck's content
    assert all(r.status in ("sent", "parked") for r in rows(engine))
    assert poll.poll(engine, state).ok  # later runs go on, and do not try bob again
    assert sorted(m["to"] for m in fake.messages) == ["alice", "carol"]


def test_a_locked_thread_parks_its_comments_and_the_run_stays_green(fake, tmp_path) -> None:
    engine, state = table_on(fake, tmp_path, issue_decks=False)
    assert not service.start_hand(engine, state, "T", 5, thread=SUB).report.error
    fake.submission(SUB).locked = True
    fake.add("alice", "HAND#1 DICE52 DICE52")
    report = poll.poll(engine, state)
    (t,) = report.tables
    assert report.ok and t.parked and all("THREAD_LOCKED" in p for p in t.parked)
    assert "nothing posted" in t.parked[0] and "parked" in t.line()


def test_an_unexpected_exception_fails_only_its_table_in_one_line(fake, tmp_path) -> None:
    engine, state = table_on(fake, tmp_path, issue_decks=False)
    assert not service.start_hand(engine, state, "T", 5, thread=SUB).report.error
    service.create_table(engine, state, "L", ["alice", "bob"], 100)  # on the local forum
    assert not service.start_hand(engine, state, "L", 5).report.error
    top = fake.add("alice", "a deep thread")
    mid = fake.add("bob", "reply", parent=f"t1_{top.id}")
    fake.add("carol", "reply", parent=f"t1_{mid.id}")
    fake.depth_limit, fake.gone_on_continue = 2, True  # praw: "Please file a bug report"
    report = poll.poll(engine, state)
    by_name = {t.table: t for t in report.tables}
    assert by_name["T"].error.startswith("unexpected AssertionError from the reddit forum")
    assert "\n" not in by_name["T"].error and "this table only" in by_name["T"].error
    assert not by_name["L"].error  # the other table was polled as usual
    fake.gone_on_continue = False
    assert poll.poll(engine, state).ok  # and the next run, with Reddit behaving, goes on
