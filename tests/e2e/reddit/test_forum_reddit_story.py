"""Story posts on Reddit: ``hand start`` submits the post to the configured subreddit, and a
re-run after a crash finds it by its reference tag among the Dealer's own submissions
instead of posting twice.

praw itself talks to the fake Reddit API on loopback (``fixtures/reddit_api.py``: /api/submit
and /user/{name}/submitted as Reddit answers them).
"""

from __future__ import annotations

import pytest

from nomicpoker.shell.dealer import service
from nomicpoker.shell.cycle.forums import default_forum_factory
from nomicpoker.core.words.render import find_tag
from nomicpoker.shell.storage.store import open_engine

from kits.servers.reddit import config_for, fake, forum_for  # noqa: F401 (fixture)
from fixtures.reddit_api import SUB, USER, FakeReddit


class Crash(Exception):
    """Stands in for the process dying at the injected point."""


def story_posts(fake: FakeReddit) -> list:
    """The Dealer's live submissions other than the fixture's own ``SUB``."""
    return [s for s in fake.submissions if s.id != SUB and s.author == USER]


def test_create_thread_submits_a_self_post_to_the_configured_subreddit(fake) -> None:
    forum = forum_for(fake, subreddit="nomic")
    ref = forum.create_thread("Poker: Hand #1 (T)", "Hand #1 has commenced.\n\n`[np:T-h1-story]`\n")
    (form,) = fake.submitted
    assert (form["sr"], form["kind"], form["title"]) == ("nomic", "self", "Poker: Hand #1 (T)")
    assert form["text"].endswith("`[np:T-h1-story]`\n")
    (post,) = story_posts(fake)
    assert ref == post.id


def test_without_a_subreddit_create_thread_is_not_supported(fake) -> None:
    from nomicpoker.ports import ForumError

    with pytest.raises(ForumError) as e:
        forum_for(fake).create_thread("Poker: Hand #1 (T)", "text")
    assert e.value.code == "not_supported" and fake.submitted == []


def test_find_thread_with_finds_only_our_own_live_post_with_exactly_that_tag(fake) -> None:
    fake.submit("mallory", "fake", "planted\n\n`[np:T-h1-story]`", "nomic")  # not the Dealer's
    longer = fake.submit(USER, "other", "x\n\n`[np:T-h1-story2]`", "nomic")  # a longer key
    # hand 2's post naming hand 1's tag before its own: the tag that ends the post counts
    quoted = fake.submit(USER, "Hand 2", "hand 1 was `[np:T-h1-story]`\n\n`[np:T-h2-story]`", "nomic")
    elsewhere = fake.submit(USER, "Hand 1", "x\n\n`[np:T-h1-story]`", "othersub")
    forum = forum_for(fake, subreddit="nomic")
    assert forum.find_thread_with("T-h1-story") is None
    ours = fake.submit(USER, "Poker: Hand #1 (T)", "Hand #1 has commenced.\n\n`[np:T-h1-story]`\n", "nomic")
    assert forum.find_thread_with("T-h1-story") == ours.id
    assert forum.find_thread_with("[np:T-h1-story]") == ours.id
    assert forum.find_thread_with("T-h2-story") == quoted.id
    assert forum.find_thread_with("T-h3-story") is None
    # Without a subreddit configured, the other subreddit's post counts too: the oldest wins.
    assert forum_for(fake).find_thread_with("T-h1-story") == elsewhere.id
    # A deleted post is not found.
    fake.submissions.remove(elsewhere)
    ours.author, ours.selftext = None, "[deleted]"
    assert forum.find_thread_with("T-h1-story") is None
    listing = [q for m, p, q in fake.requests if p.rstrip("/") == f"/user/{USER}/submitted"]
    assert listing and listing[-1]["limit"] == "100"
    assert forum.find_thread_with("T-h1-story2") == longer.id


def test_a_submit_stored_twice_by_a_retry_keeps_the_oldest_post(fake) -> None:
    fake.submit_mode = "error500_once"  # Reddit stores the post, answers 500, prawcore retries
    ref = forum_for(fake, subreddit="nomic").create_thread("Poker: Hand #1 (T)", "x\n\n`[np:T-h1-story]`\n")
    first, second = [s for s in fake.submissions if s.id != SUB]
    assert len(fake.submitted) == 2
    assert ref == first.id
    assert fake.deleted == [f"t3_{second.id}"] and second.author is None


def _table(fake: FakeReddit, tmp_path):
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "T", ["alice", "bob"], 100, forum="reddit",
                         forum_config=config_for(fake, subreddit="nomic"))
    return engine, state


def test_hand_start_on_reddit_creates_the_story_post_and_deals_into_it(fake, tmp_path) -> None:
    engine, state = _table(fake, tmp_path)
    started = service.start_hand(engine, state, "T", 5)
    assert not started.report.error, started.report.error
    (post,) = story_posts(fake)
    assert started.thread == post.id and post.subreddit == "nomic"
    assert post.title == "Poker: Hand #1 (T)" and find_tag(post.selftext) == "T-h1-story"
    assert "Ante: 5." in post.selftext and "Seated: alice, bob." in post.selftext
    # The hand-start comment went into the new post, not the fixture's SUB.
    (start,) = [c for c in fake.comments if c.author == USER]
    assert start.parent == f"t3_{post.id}" and "Hand #1 has commenced" in start.body
    assert not (state / "pending" / "T-hand-1.thread").exists()


def test_a_crash_right_after_reddit_stored_the_story_post_does_not_post_twice(fake, tmp_path) -> None:
    engine, state = _table(fake, tmp_path)

    def crashing(kind, config, st):
        forum = default_forum_factory(kind, config, st)
        real = forum.create_thread

        def create_then_die(*args, **kwargs):
            real(*args, **kwargs)
            raise Crash("killed before the post's id was written down")

        forum.create_thread = create_then_die
        return forum

    with pytest.raises(Crash):
        service.start_hand(engine, state, "T", 5, forum_factory=crashing)
    assert len(story_posts(fake)) == 1 and not (state / "pending" / "T-hand-1.thread").exists()

    started = service.start_hand(engine, state, "T", 5)
    (post,) = story_posts(fake)  # still one: found by its tag, not posted again
    assert started.thread == post.id and len(fake.submitted) == 1
    assert any(p.rstrip("/") == f"/user/{USER}/submitted" for _, p, _ in fake.requests)
    (start,) = [c for c in fake.comments if c.author == USER]
    assert start.parent == f"t3_{post.id}"
