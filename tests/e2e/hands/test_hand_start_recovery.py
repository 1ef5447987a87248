"""``hand start`` that crashes after creating the story post: a re-run must find that post
(by the reference tag it carries) instead of creating a second one."""

from __future__ import annotations

import pytest

from nomicpoker.shell.dealer import service
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.cycle.forums import default_forum_factory

from kits.tables.bot import Table


class Crash(Exception):
    """Stands in for the process dying (power cut, kill -9) at the injected point."""


def crash_after(method: str, calls: int = 1):
    """A forum factory whose forum crashes right after the ``calls``-th real ``method`` call."""
    def factory(kind, config, state):
        forum = default_forum_factory(kind, config, state)
        real = getattr(forum, method)
        seen = {"n": 0}

        def wrapped(*args, **kwargs):
            result = real(*args, **kwargs)
            seen["n"] += 1
            if seen["n"] == calls:
                raise Crash(f"crash after {method}")
            return result

        setattr(forum, method, wrapped)
        return forum
    return factory


def story_posts(t: Table) -> list[str]:
    return [th.ref for th in LocalForum(forum_db_path(t.state)).threads()]


def test_a_crash_right_after_creating_the_story_post_does_not_create_a_second_one(tmp_path):
    t = Table(tmp_path)
    with pytest.raises(Crash):
        service.start_hand(t.engine, t.state, t.name, 5, forum_factory=crash_after("create_thread"))
    assert len(story_posts(t)) == 1  # the post was really made before the crash
    started = service.start_hand(t.engine, t.state, t.name, 5)
    # One story post, and the hand lives in it.
    assert story_posts(t) == [started.thread]
    assert started.number == 1


def test_a_crash_after_the_story_post_but_before_the_hand_is_recorded_reuses_the_post(tmp_path):
    t = Table(tmp_path)
    # list_comments is first called while registering the new thread, before the hand row.
    with pytest.raises(Crash):
        service.start_hand(t.engine, t.state, t.name, 5, forum_factory=crash_after("list_comments"))
    started = service.start_hand(t.engine, t.state, t.name, 5)
    assert story_posts(t) == [started.thread]
    assert not (t.state / "pending" / "T-hand-1.thread").exists()  # cleared once recorded


def test_the_story_post_of_another_hand_or_table_is_not_reused(tmp_path):
    t = Table(tmp_path)
    forum = LocalForum(forum_db_path(t.state))
    # A look-alike post by a player carrying the tag must not be taken for the dealer's.
    forum.create_thread_as("mallory", "Poker: Hand #1 (T)", "fake\n\n`[np:T-h1-story]`\n")
    started = service.start_hand(t.engine, t.state, t.name, 5)
    assert started.thread != "1"
    assert len(story_posts(t)) == 2


def test_hand_start_registers_an_existing_story_post_whose_earlier_comments_do_not_act(tmp_path):
    t = Table(tmp_path)
    forum = LocalForum(forum_db_path(t.state))
    ref = forum.create_thread_as("Dealer", "Poker: Hand #1", "Hand #1 has commenced. Ante: 5.")
    forum.post_as("alice", ref, "HAND#1 DICE52 DICE52")  # before the hand: must not act
    started = service.start_hand(t.engine, t.state, t.name, 5, thread=ref)
    assert started.thread == ref and story_posts(t) == [ref]  # no new story post
    t.thread = ref
    bodies = t.dealer_bodies()
    assert len(bodies) == 1 and "Hand #1 has commenced" in bodies[0]  # no dice for the old comment
    assert [v.status for v in t.verdicts()] == ["ignored"]


def test_hand_start_with_an_unknown_thread_fails_and_starts_nothing(tmp_path):
    from nomicpoker.ports import ForumError
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger

    t = Table(tmp_path)
    with pytest.raises(ForumError) as e:
        service.start_hand(t.engine, t.state, t.name, 5, thread="no-such-thread")
    assert e.value.code == "not_found"
    with Session(t.engine) as s:
        assert ledger.hand_rows(s, t.name) == []
    assert story_posts(t) == []


def test_a_remembered_story_post_that_was_deleted_is_forgotten_with_a_clear_message(tmp_path):
    t = Table(tmp_path)
    (t.state / "pending").mkdir(parents=True)
    (t.state / "pending" / "T-hand-1.thread").write_text("gone-thread", "utf-8")
    with pytest.raises(service.ServiceError) as e:
        service.start_hand(t.engine, t.state, t.name, 5)
    assert e.value.code == "story_post_gone" and "run hand start again" in e.value.message
    started = service.start_hand(t.engine, t.state, t.name, 5)  # the next attempt posts anew
    assert story_posts(t) == [started.thread]
