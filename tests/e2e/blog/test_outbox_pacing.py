"""Pacing and combining on forums that want time between posts (``Abilities.min_post_interval``).

The local forum, declared as a paced forum (a port fake: the real local adapter with other
abilities), plays hole-card draws on a simulated clock: posts are spaced by the interval,
comments due together on one thread are combined (each part keeping its tag), and a forum
whose comments are too short to combine gets one post per message, each after the wait. On
the real-theme BlogNomic site, posting faster than 15 s is what WordPress refuses with 429.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytest_httpserver import HTTPServer

from nomicpoker.adapters.local import LocalForum
from nomicpoker.core.words.tags import find_tags
from nomicpoker.ports import ForumError
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table
from fixtures.wp_theme_site import BASE, THREAD, WordPressSite, serve


class PacedLocal(LocalForum):
    """The local forum declaring a posting interval (and a short longest comment)."""

    def __init__(self, path, clock, interval: float, longest: int | None):
        super().__init__(path)
        self.posts: list[tuple[float, str]] = []
        self.sim = clock
        self.abilities = replace(LocalForum.abilities, min_post_interval=interval,
                                 max_comment_length=longest)

    def post_comment(self, thread, body, reply_to=None, *, tag=None):
        self.posts.append((self.sim.now, body))
        return super().post_comment(thread, body, reply_to, tag=tag)


class Sim:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def paced_table(tmp_path, interval: float, longest: int | None):
    t = Table(tmp_path, players=("alice", "bob", "carol"), issue_decks=True)
    t.start()
    sim = Sim()
    forum = PacedLocal(forum_db_path(t.state), sim, interval, longest)
    factory = lambda kind, config, state: forum  # noqa: E731
    return t, sim, forum, factory


def test_due_comments_on_a_paced_forum_are_combined_into_one_post(tmp_path) -> None:
    t, sim, forum, factory = paced_table(tmp_path, 15.0, None)
    for p in t.p.values():
        p.say("HAND#1 DICE52 DICE52")
    report = t.poll(forum_factory=factory, sleep=sim.sleep, clock=lambda: sim.now)
    assert report.ok, [x.error for x in report.tables]
    (tr,) = report.tables
    assert tr.sent == 3 and len(forum.posts) == 1  # three dice notes, one post
    assert len(find_tags(forum.posts[0][1])) == 3 and sim.slept == []


def test_a_paced_forum_gets_its_posts_spaced_by_the_interval(tmp_path) -> None:
    t, sim, forum, factory = paced_table(tmp_path, 15.0, 400)  # too short to combine two notes
    for p in t.p.values():
        p.say("HAND#1 DICE52 DICE52")
    report = t.poll(forum_factory=factory, sleep=sim.sleep, clock=lambda: sim.now)
    assert report.ok, [x.error for x in report.tables]
    times = [when for when, _ in forum.posts]
    assert len(times) == 3
    assert all(b - a >= 15.0 for a, b in zip(times, times[1:]))
    assert len(sim.slept) == 2 and all(s == pytest.approx(15.0) for s in sim.slept)


def test_an_unpaced_forum_posts_each_message_as_its_own_reply_without_waiting(tmp_path) -> None:
    t, sim, forum, factory = paced_table(tmp_path, 0.0, None)
    for p in t.p.values():
        p.say("HAND#1 DICE52 DICE52")
    assert t.poll(forum_factory=factory, sleep=sim.sleep, clock=lambda: sim.now).ok
    assert len(forum.posts) == 3 and sim.slept == []


def test_wordpress_refuses_a_second_comment_within_15_seconds(httpserver: HTTPServer, monkeypatch, tmp_path) -> None:
    """What pacing avoids: the real-theme site answers 429 (the adapter's retries wait with
    backoff and then give up, saying so)."""
    from nomicpoker.adapters.blog.forum import BlogNomicForum, Credentials
    from nomicpoker.adapters.blog.http import PageCache, PoliteSession
    from nomicpoker.adapters.blog.siteprofile import load_profile

    site = WordPressSite()
    site.member("pokerbot", "pw", "Poker Dealer", moderator=False)
    site.member("kevan")
    site.add("pokerbot", "an approved first comment")
    site.clock += 60
    base = serve(httpserver, site, monkeypatch)
    http = PoliteSession(delay=0, backoff=0, max_retries=1, cache=PageCache(None), sleep=lambda s: None)
    forum = BlogNomicForum(base, load_profile("wordpress"), http=http,
                           credentials=lambda: Credentials("pokerbot", "pw", "test"))
    forum.post_comment(BASE + THREAD, "first <code>[np:T-h1-001]</code>", tag="T-h1-001")
    with pytest.raises(ForumError) as err:
        forum.post_comment(BASE + THREAD, "second <code>[np:T-h1-002]</code>", tag="T-h1-002")
    assert err.value.code == "rate_limited" and err.value.retry
    assert site.answers == [302, 429, 429]
    site.clock += 15
    forum.post_comment(BASE + THREAD, "second <code>[np:T-h1-002]</code>", tag="T-h1-002")
    assert site.answers[-1] == 302
