"""The Reddit adapter: praw itself talking to a fake Reddit API on loopback.

The fake (``fixtures/reddit_api.py``) implements what praw calls: the token, comments,
morechildren, comment, del, compose and me endpoints. It can accept a comment and then time
out or answer 500, as Reddit sometimes does, so prawcore retries and the comment lands twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone

import pytest

from nomicpoker.ports import Forum, ForumError
from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.adapters.registry import open_forum

from fixtures.reddit_api import (  # tests/ is on sys.path (pyproject.toml: pythonpath)
    CLIENT_SECRET, CREDENTIALS, PASSWORD, SUB, T0, USER, FakeReddit, serving,
)

@pytest.fixture
def fake():
    with serving(FakeReddit()) as state:
        yield state


@pytest.fixture
def creds_env(monkeypatch):
    """Credentials the praw way: praw_* environment variables."""
    for key, value in CREDENTIALS.items():
        monkeypatch.setenv(key, value)


def forum_for(fake: FakeReddit, **extra) -> RedditForum:
    config = {"oauth_url": fake.url, "reddit_url": fake.url, "user_agent": "test:nomicpoker:0.1 (by u/PokerDealer)", "timeout": 1, **extra}
    forum = open_forum("reddit", config, state=None)  # type: ignore[arg-type]
    assert isinstance(forum, RedditForum)
    return forum


def test_reddit_forum_satisfies_the_protocol(fake, creds_env) -> None:
    assert isinstance(forum_for(fake), Forum)


def test_all_comments_including_more_children_come_oldest_first_by_fullname(fake, creds_env) -> None:
    a = fake.add("alice", "HAND1 ROUND1 raise 10")
    r = fake.add("bob", "replying to alice", parent="t1_" + a.id)
    b = fake.add("bob", "HAND1 ROUND1 call")
    c = fake.add("carol", "HAND1 ROUND1 fold")
    rc = fake.add("dave", "reply under a hidden comment", parent="t1_" + c.id)
    fake.more_after = 1  # only alice's thread comes in the first listing
    got = forum_for(fake).list_comments(SUB)
    assert [g.id for g in got] == [f"t1_{x.id}" for x in (a, r, b, c, rc)]
    assert [g.author for g in got] == ["alice", "bob", "bob", "carol", "dave"]
    assert got[1].parent_id == f"t1_{a.id}" and got[0].parent_id is None
    assert got[4].parent_id == f"t1_{c.id}"
    assert got[0].created == datetime.fromtimestamp(a.created, tz=timezone.utc)
    assert got[0].body == "HAND1 ROUND1 raise 10" and got[0].body_format == "markdown"
    assert any(m == "POST" and p == "/api/morechildren" for m, p, _ in fake.requests)
    listing = [q for m, p, q in fake.requests if p.rstrip("/") == f"/comments/{SUB}"][0]
    assert listing.get("sort") == "old" and listing.get("limit") == "500"


def test_thread_may_be_given_as_a_url(fake, creds_env) -> None:
    fake.add("alice", "hi")
    got = forum_for(fake).list_comments(f"https://www.reddit.com/r/nomic/comments/{SUB}/hand_1/")
    assert [g.author for g in got] == ["alice"]


def test_edits_and_deletions_are_detected(fake, creds_env) -> None:
    a = fake.add("alice", "HAND1 ROUND1 raise 20")
    a.edited = float(T0 + 500)
    b = fake.add(None, "[deleted]")
    fake.add("erin", "a reply keeps the deleted comment listed", parent=f"t1_{b.id}")
    c = fake.add(None, "[removed]")
    d = fake.add("dave", "HAND1 ROUND1 call")
    got = {g.id: g for g in forum_for(fake).list_comments(SUB)}
    assert got[f"t1_{a.id}"].edited == datetime.fromtimestamp(T0 + 500, tz=timezone.utc)
    assert not got[f"t1_{a.id}"].deleted
    # Reddit keeps a deleted comment that has replies as a placeholder; one without replies
    # is gone from the listing (the archive keeps what it read before)
    assert got[f"t1_{b.id}"].deleted and f"t1_{c.id}" not in got
    assert got[f"t1_{d.id}"].edited is None and not got[f"t1_{d.id}"].deleted


def test_reply_is_posted_to_the_comment_or_the_submission(fake, creds_env) -> None:
    a = fake.add("alice", "HAND1 ROUND1 check")
    forum = forum_for(fake)
    forum.list_comments(SUB)
    rid = forum.post_comment(SUB, "Rejected: no check in round 1\n\n`[np:h1-3]`", reply_to=f"t1_{a.id}")
    tid = forum.post_comment(SUB, "Turn: bob to act\n\n`[np:h1-4]`")
    posts = [f for m, p, f in fake.requests if p == "/api/comment"]
    assert [p["thing_id"] for p in posts] == [f"t1_{a.id}", f"t3_{SUB}"]
    assert posts[0]["text"].startswith("Rejected")
    assert rid == f"t1_{fake.comments[-2].id}" and tid == f"t1_{fake.comments[-1].id}"
    assert forum.find_comment_with(SUB, "[np:h1-4]") == tid
    assert forum.find_comment_with(SUB, "[np:h9-9]") is None


def test_comment_already_in_the_thread_is_not_posted_again(fake, creds_env) -> None:
    old = fake.add(USER, "Turn: bob to act\n\n`[np:h1-4]`")
    forum = forum_for(fake)
    got = forum.post_comment(SUB, "Turn: bob to act\n\n`[np:h1-4]`", tag="h1-4")
    assert got == f"t1_{old.id}"
    assert not any(p == "/api/comment" for _, p, _ in fake.requests)


@pytest.mark.parametrize("mode", ["timeout_once", "error500_once"])
def test_post_that_lands_twice_after_a_retry_is_deduplicated(fake, creds_env, mode) -> None:
    fake.add("alice", "HAND1 ROUND1 raise 10")
    fake.comment_mode = mode
    forum = forum_for(fake)
    kept = forum.post_comment(SUB, "Turn: bob to act\n\n`[np:h1-5]`", tag="h1-5")
    posts = [p for _, p, _ in fake.requests if p == "/api/comment"]
    assert len(posts) == 2  # prawcore retried the POST
    assert len(fake.posted) == 2  # ... and the comment landed twice
    first, second = fake.posted
    assert kept == first
    assert fake.deleted == [second]
    live = [f"t1_{c.id}" for c in fake.comments if c.author == USER and "np:h1-5" in c.body]
    assert live == [first]


def test_post_that_lands_twice_with_different_whitespace_is_deduplicated_by_tag(fake, creds_env) -> None:
    fake.comment_mode = "error500_once"
    fake.reformat_once = True
    body = "Pot: 30.\n\n**bob** to act\n\n`[np:T-h1-005]`\n"
    kept = forum_for(fake).post_comment(SUB, body, tag="T-h1-005")
    first, second = fake.posted
    stored = {f"t1_{c.id}": c.body for c in fake.comments}
    assert stored[first] == "Pot: 30.  \n\n**bob** to act  \n\n`[np:T-h1-005]`\n"
    # the retry stored `body` as sent: not the same text, only the tag says they are one comment
    assert stored[second] == "[deleted]"
    assert kept == first
    assert fake.deleted == [second]


def test_a_quoted_or_longer_tag_is_not_taken_for_ours(fake, creds_env) -> None:
    fake.add(USER, "As `[np:T-h1-005]` said, bob is to act.\n\n`[np:T-h1-009]`")
    fake.add(USER, "Pot: 40.\n\n`[np:T-h1-0050]`")
    forum = forum_for(fake)
    assert forum.find_comment_with(SUB, "[np:T-h1-005]") is None
    forum.post_comment(SUB, "Pot: 30.\n\n`[np:T-h1-005]`", tag="T-h1-005")
    assert len(fake.posted) == 1 and fake.deleted == []


def test_untagged_duplicate_bodies_are_deduplicated_but_different_bodies_are_not(fake, creds_env) -> None:
    fake.comment_mode = "error500_once"
    forum = forum_for(fake)
    forum.post_comment(SUB, "Pot is 30.\nsame last line")
    forum.post_comment(SUB, "Pot is 40.\nsame last line")
    live = [c.body for c in fake.comments if c.author == USER]
    assert live == ["Pot is 30.\nsame last line", "Pot is 40.\nsame last line"]
    assert len(fake.deleted) == 1


def test_ratelimit_means_try_again_next_run(fake, creds_env) -> None:
    fake.comment_mode = "ratelimit"
    with pytest.raises(ForumError) as err:
        forum_for(fake).post_comment(SUB, "Turn: bob\n`[np:h1-6]`")
    assert err.value.code == "rate_limited" and err.value.retry
    assert "9 minutes" in err.value.message
    assert not [c for c in fake.comments if c.author == USER]


def test_private_message_goes_through_compose(fake, creds_env) -> None:
    forum_for(fake).send_private("alice", "Your deck", "Cards printed by: Grimes, Elko")
    (msg,) = fake.messages
    assert (msg["to"], msg["subject"], msg["text"]) == ("alice", "Your deck", "Cards printed by: Grimes, Elko")


def test_check_logs_in_without_posting(fake, creds_env) -> None:
    rows = forum_for(fake).check()
    assert all(ok for _, ok, _ in rows)
    assert any(USER in detail for _, _, detail in rows)
    assert not any(p in ("/api/comment", "/api/compose") for _, p, _ in fake.requests)


def test_wrong_password_is_login_failed_without_the_password(fake, creds_env, monkeypatch) -> None:
    monkeypatch.setenv("praw_password", "wrong-secret-pw")
    forum = forum_for(fake)
    with pytest.raises(ForumError) as err:
        forum.list_comments(SUB)
    assert err.value.code == "login_failed"
    assert "wrong-secret-pw" not in str(err.value)
    rows = forum.check()
    assert rows[-1][1] is False and all("wrong-secret-pw" not in d for _, _, d in rows)


def test_missing_credentials_are_a_config_error(fake, monkeypatch, tmp_path) -> None:
    for key in ("praw_client_id", "praw_client_secret", "praw_username", "praw_password"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)  # no praw.ini here
    with pytest.raises(ForumError) as err:
        forum_for(fake)
    assert err.value.code == "config" and "client_id" in err.value.message


def test_credentials_from_a_praw_ini_site_in_the_working_directory(fake, tmp_path, monkeypatch) -> None:
    """Issue 5: credentials the praw way, "a praw.ini site or praw_* environment variables".
    No praw_* variable is set (the suite's isolation clears them), so only the site can work."""
    (tmp_path / "praw.ini").write_text(
        "[dealer]\n" + "".join(f"{k.removeprefix('praw_')}={v}\n" for k, v in CREDENTIALS.items()),
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    a = fake.add("alice", "HAND1 ROUND1 raise 10")
    forum = forum_for(fake, site="dealer")
    assert [c.id for c in forum.list_comments(SUB)] == [f"t1_{a.id}"]
    rid = forum.post_comment(SUB, "Turn: bob\n\n`[np:h1-8]`", tag="h1-8")
    assert rid == f"t1_{fake.comments[-1].id}" and fake.comments[-1].author == USER
    # a site that praw.ini does not define is a config error naming no secret
    with pytest.raises(ForumError) as err:
        forum_for(fake, site="nosuchsite")
    assert err.value.code == "config" and PASSWORD not in err.value.message


def test_unreachable_reddit_is_a_network_error(creds_env) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = FakeReddit()
    dead.url = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
    with pytest.raises(ForumError) as err:
        forum_for(dead).list_comments(SUB)
    assert err.value.code == "network" and err.value.retry


def test_bad_reddit_config_names_the_key(tmp_path) -> None:
    for config, named in (({"comment_sort": "sideways"}, "comment_sort"), ({"colour": "x"}, "colour"), ({"timeout": "1"}, "timeout")):
        with pytest.raises(ForumError) as err:
            open_forum("reddit", config, tmp_path)
        assert err.value.code == "config" and named in err.value.message


def test_credentials_never_appear_in_logs(fake, creds_env, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    fake.comment_mode = "error500_once"
    forum = forum_for(fake)
    forum.list_comments(SUB)
    forum.post_comment(SUB, "Turn: bob\n`[np:h1-7]`", tag="h1-7")
    forum.check()
    assert caplog.records  # praw/prawcore did log (requests, the retry)
    for secret in (CLIENT_SECRET, PASSWORD, "tok-123"):
        assert secret not in caplog.text


def test_the_poll_cycle_plays_through_reddit(fake, creds_env, tmp_path) -> None:
    """The bot's own service and poll cycle, with the adapter the registry builds."""
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.jobs import poll
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.storage.store import open_engine

    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"oauth_url": fake.url, "reddit_url": fake.url, "user_agent": "test:nomicpoker:0.1", "dealer": USER}
    service.create_table(engine, state, "T", ["alice", "bob", "carol"], 100, forum="reddit",
                         forum_config=config, issue_decks=False)
    started = service.start_hand(engine, state, "T", 5, thread=SUB)
    assert not started.report.error, started.report.error
    opening = len(fake.posted)
    assert opening >= 1
    intruder = fake.add("mallory", "HAND1 ROUND1 raise 10")
    report = poll.poll(engine, state)
    assert report.ok, [t.error for t in report.tables]
    replies = [f for m, p, f in fake.requests if p == "/api/comment"][opening:]
    assert any("mallory" in r["text"] for r in replies)
    with Session(engine) as s:
        (verdict,) = [v for v in ledger.stored_rows(s, "T", "verdict") if v.forum_id == f"t1_{intruder.id}"]
    assert verdict.status == "rejected"
    before = len(fake.posted)
    assert poll.poll(engine, state).ok
    assert len(fake.posted) == before
    assert fake.deleted == []


def _dealer_posts_after_three_polls(fake, tmp_path, config_extra: dict) -> list[int]:
    from nomicpoker.shell.jobs import poll
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.storage.store import open_engine

    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"oauth_url": fake.url, "reddit_url": fake.url, "user_agent": "test:nomicpoker:0.1",
              **config_extra}
    service.create_table(engine, state, "T", ["alice", "bob"], 100, forum="reddit",
                         forum_config=config, issue_decks=False)
    started = service.start_hand(engine, state, "T", 5, thread=SUB)
    assert not started.report.error, started.report.error
    counts = []
    for _ in range(3):  # nobody but the dealer has said anything: every run must be quiet
        report = poll.poll(engine, state)
        assert report.ok, [t.error for t in report.tables]
        counts.append(len([c for c in fake.comments if c.author == USER]))
    return counts


def test_without_a_dealer_key_the_dealer_s_own_comments_are_still_ignored(fake, creds_env, tmp_path) -> None:
    counts = _dealer_posts_after_three_polls(fake, tmp_path, {})
    assert counts == [1, 1, 1]  # the hand-start comment only


def test_a_dealer_name_in_another_case_still_ignores_the_dealer_s_own_comments(fake, creds_env, tmp_path) -> None:
    counts = _dealer_posts_after_three_polls(fake, tmp_path, {"dealer": USER.lower()})
    assert counts == [1, 1, 1]


def test_with_the_dealer_key_as_reddit_spells_it_every_poll_is_quiet(fake, creds_env, tmp_path) -> None:
    """The control for the two tests above: the same table, quiet when configured exactly."""
    assert _dealer_posts_after_three_polls(fake, tmp_path, {"dealer": USER}) == [1, 1, 1]


def _hand_started(fake, tmp_path):
    """alice and bob at table T on the test Reddit (no decks issued), hand 1 started; the
    Dealer named as Reddit spells it."""
    from kits.tables.bot import fixed_secrets
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.storage import secrets_store
    from nomicpoker.shell.storage.store import open_engine

    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"oauth_url": fake.url, "reddit_url": fake.url, "user_agent": "test:nomicpoker:0.1", "dealer": USER}
    service.create_table(engine, state, "T", ["alice", "bob"], 100, forum="reddit",
                         forum_config=config, issue_decks=False)
    # fixed secrets: with random ones alice's two dice came up equal about once in 52 runs
    # (identical_dice, "draw again"), and a test of her account's case failed by chance
    secrets_store.write(state, "T", 1, fixed_secrets("reddit:case"))
    assert not service.start_hand(engine, state, "T", 5, thread=SUB).report.error
    return engine, state


def test_a_quoted_action_on_reddit_does_not_act_though_reddit_sends_the_quote_as_entities(fake, creds_env, tmp_path) -> None:
    """Reddit's API sends ``> quoted`` as ``&gt; quoted`` (the fake does too, like Reddit):
    the quote must still be read as a quote, and the unquoted control as an attempt."""
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.jobs import poll

    engine, state = _hand_started(fake, tmp_path)
    quoted = fake.add("bob", "> HAND1 ROUND1 raise 10 & more\n\nthat was someone else, not me")
    assert "&gt; HAND1" in fake.json_of(quoted, 0)["data"]["body"]  # as Reddit sends it
    plain = fake.add("bob", "HAND1 ROUND1 raise 10")
    assert poll.poll(engine, state).ok
    with Session(engine) as s:
        status = {v.forum_id: v.status for v in ledger.stored_rows(s, "T", "verdict")}
    assert status[f"t1_{quoted.id}"] == "chat"
    assert status[f"t1_{plain.id}"] == "rejected"  # an attempt (before the draws), answered
    replies = [c for c in fake.comments if c.author == USER and c.parent in (f"t1_{quoted.id}", f"t1_{plain.id}")]
    assert [c.parent for c in replies] == [f"t1_{plain.id}"]


def test_a_reddit_player_is_recognised_whatever_the_case_of_the_seat_name(fake, creds_env, tmp_path) -> None:
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.jobs import poll

    engine, state = _hand_started(fake, tmp_path)
    draw = fake.add("Alice", "HAND#1 DICE52 DICE52")  # as Reddit spells the account
    assert poll.poll(engine, state).ok
    with Session(engine) as s:
        (verdict,) = [v for v in ledger.stored_rows(s, "T", "verdict") if v.forum_id == f"t1_{draw.id}"]
    assert verdict.status == "accepted", (verdict.code, verdict.message)
