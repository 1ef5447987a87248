"""A tournament's tables on several forums, through the real commands and the real adapters
against their loopback servers (praw and the fake Reddit API; the blog adapter and a fake
ExpressionEngine BlogNomic): ``tournament start --forum TABLES=FILE`` puts tables where the
configuration files say, the bot opens the threads where the forum allows (Reddit) and asks the
Dealer for the story post where it does not (BlogNomic), and the players' own SEATLOG is
answered on each table's forum (privately on Reddit, in the thread on the blog)."""

from __future__ import annotations

import json

import pytest
from pytest_httpserver import HTTPServer

from kits.servers.reddit import config_for, fake  # noqa: F401 (fake: a fixture)
from kits.tables.tournament import STRUCTURE, rows, run
from fixtures.blog_sites import EE_ENTRY, PASSWORD, USER as BLOG_DEALER, Site, serve_ee

PLAYERS = "ann,bob,cy,dee,eve,fay,gus"
#: BlogNomic has no private messages: its players bring their own decks (blognomic-2008, antes)
BLOG_STRUCTURE = """
name = "spring"
title = "Spring Open"
ruleset = "blognomic-2008"
starting_money = 100
table_size = 3
levels_by = "hands"
level_length = 5

[[levels]]
ante = 5
"""


@pytest.fixture
def forums(fake, httpserver: HTTPServer, tmp_path, monkeypatch):  # noqa: F811 (fake: the fixture)
    """A tournament of seven (tables of three: three tables) and the forum files of two of them."""
    site = Site()
    base = serve_ee(httpserver, site)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", BLOG_DEALER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    reddit = tmp_path / "reddit.json"
    reddit.write_text(json.dumps({"kind": "reddit", **config_for(fake, subreddit="nomic")}))
    blog = tmp_path / "blog.json"
    blog.write_text(json.dumps({"kind": "blognomic", "base_url": base + "/", "profile": "expressionengine",
                                "delay": 0, "dealer": BLOG_DEALER}))
    structure = tmp_path / "spring.toml"
    structure.write_text(BLOG_STRUCTURE)
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(structure), "--players", PLAYERS, "--state", str(state))
    return state, reddit, blog, site, base, fake


def test_tables_on_the_local_forum_reddit_and_a_blog(forums):
    """The issue: "It works on every forum the tables can live on (a tournament may mix the local
    forum, Reddit threads and e-mail tables), and a table's thread or channel is opened by the bot
    where the forum allows and asked of the Dealer where it does not (BlogNomic story posts).\""""
    state, reddit, blog, site, base, fake = forums
    out = run("tournament", "start", "--name", "spring", "--forum", f"2={reddit}", "--forum", f"3={blog}",
              "--state", str(state)).output
    assert rows(state, "SELECT name, forum_kind FROM np_table ORDER BY name") == [
        ("spring-t1", "local"), ("spring-t2", "reddit"), ("spring-t3", "blognomic")]
    assert "table spring-t2 (on the reddit forum): " in out and "table spring-t3 (on the blognomic forum): " in out
    assert f"next: nomicpoker hand start --table spring-t1 --state {state}\n" in out
    assert f"next: nomicpoker hand start --table spring-t2 --state {state}\n" in out
    assert (f"next: post the hand's story post on the blognomic forum, then: nomicpoker hand start --table "
            f"spring-t3 --state {state} --thread <the story post's URL>\n") in out
    # Reddit: the bot opens the hand's thread itself (a self post in the configured subreddit)
    run("hand", "start", "--table", "spring-t2", "--state", str(state))
    [post] = fake.submitted
    assert post["sr"] == "nomic" and "spring-t2" in post["title"]
    # the blog: the Dealer's story post, given to hand start
    run("hand", "start", "--table", "spring-t3", "--thread", base + EE_ENTRY, "--state", str(state))
    assert any("Hand #1 has commenced" in p["comment"] for p in site.posts)
    # the players' SEATLOG on each: privately on Reddit, a reply in the thread on the blog
    t2 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    t3 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t3'")[0][0])
    thread2 = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t2'")[0][0]
    fake.add(t2[0], "SEATLOG", parent=f"t3_{thread2}")
    site.add(t3[0], "SEATLOG")
    run("poll", "--state", str(state))
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output.rstrip("\n")
    [msg] = [m for m in fake.messages if m["to"] == t2[0] and "SEATLOG" in m["subject"]]
    assert log.splitlines()[-1] in msg["text"]
    replies = [p["comment"] for p in site.posts if "asked for the SEATLOG" in p["comment"]]
    assert len(replies) == 1 and log.splitlines()[-1].split()[1] in replies[0]
    run("poll", "--state", str(state))  # answered once
    assert len([p for p in site.posts if "asked for the SEATLOG" in p["comment"]]) == 1
    assert "identical" in run("audit", "--state", str(state)).output


@pytest.mark.parametrize("spec, message", [
    ("4={reddit}", "--forum 4=...: the draw makes 3 table(s), so there is no table 4"),
    ("x={reddit}", "--forum x=...: name the tables as 3, 2-5 or all"),
    ("2-3={reddit}|3={blog}", "table 3 is named by two --forum options (2-3 and 3): name each table once"),
])
def test_a_wrong_forum_option_is_refused_before_any_table_is_made(forums, spec, message):
    state, reddit, blog, *_ = forums
    args = [a for s in spec.format(reddit=reddit, blog=blog).split("|") for a in ("--forum", s)]
    res = run("tournament", "start", "--name", "spring", *args, "--state", str(state), code=1)
    assert res.output.strip() == f"error: {message}"
    assert rows(state, "SELECT count(*) FROM np_table") == [(0,)]
    assert rows(state, "SELECT status FROM np_tournament") == [("registering",)]


def test_a_ruleset_that_deals_hole_cards_needs_private_messages(forums, tmp_path):
    """roberts-nlhe sends each player his hole cards privately: a blog table is refused at the
    start, before any table is made (the hand would stop at its first deal)."""
    _state, _reddit, blog, *_ = forums
    structure = tmp_path / "nlhe.toml"
    structure.write_text(STRUCTURE.format(size=3).replace('name = "spring"', 'name = "nlhe"'))
    state = tmp_path / "state2"
    run("tournament", "create", "--structure", str(structure), "--players", PLAYERS, "--state", str(state))
    res = run("tournament", "start", "--name", "nlhe", "--forum", f"3={blog}", "--state", str(state), code=1)
    assert res.output.strip() == (f"error: --forum 3={blog}: the blognomic forum has no private messages, and "
                                  "ruleset roberts-nlhe deals each player's hole cards privately: choose a forum "
                                  "with private messages, or a ruleset where players bring their own decks "
                                  "(blognomic-2008)")
    assert rows(state, "SELECT count(*) FROM np_table") == [(0,)]


def test_the_rail_on_a_blog_goes_to_the_rail_thread_the_director_gives(forums):
    """WRGPT's rail "by private message, or a rail thread": on a forum without private messages
    (the tournament's tables on the blog), the standings wait for the rail's thread; once the
    director gives the post he made, they are one comment there, once a day."""
    state, _reddit, blog, site, base, _fake = forums
    run("tournament", "start", "--name", "spring", "--forum", f"all={blog}", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    res = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state), code=1)
    assert res.output.strip() == ("error: tournament spring: the rail's forum at table spring-t1 has no private "
                                  "messages: post the rail's thread there and give it with nomicpoker tournament rail "
                                  "--name spring --thread REF (the standings wait for it)")
    run("tournament", "rail", "--name", "spring", "--thread", base + EE_ENTRY, "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state)).output
    assert out.strip() == "tournament spring: standings of day 1 sent to 1 on the rail: zoe"
    [post] = [p["comment"] for p in site.posts if "standings at the end of day 1" in p["comment"]]
    assert "[np:spring-rail-day1]" in post
    run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state))
    assert len([p for p in site.posts if "standings at the end of day 1" in p["comment"]]) == 1


def test_everybody_on_vacation_on_a_blog_asks_the_dealer_for_each_tables_post(forums, tmp_path):
    """start_on_vacation on a blog: the bot cannot open the tables' threads, so ``start`` says
    what to post for each and ``tournament thread`` gives the post; ``advance`` then reads the
    players' BACK comments there."""
    state, _reddit, blog, site, base, _fake = forums
    structure = tmp_path / "vacation.toml"
    structure.write_text("start_on_vacation = true\n" + BLOG_STRUCTURE.replace('name = "spring"', 'name = "away"'))
    run("tournament", "create", "--structure", str(structure), "--players", PLAYERS, "--state", str(state))
    out = run("tournament", "start", "--name", "away", "--forum", f"all={blog}", "--state", str(state)).output
    for n in (1, 2, 3):
        assert (f"away-t{n}: post a story post for table away-t{n} titled \"Tournament away, table away-t{n}: "
                "everybody starts on vacation\"") in out
        assert f"nomicpoker tournament thread --name away --table away-t{n} --thread URL" in out
    adv = run("tournament", "advance", "--name", "away", "--state", str(state)).output
    assert ("away-t1: everybody started on vacation, and the table has no thread yet for their BACK "
            "(nomicpoker tournament thread --name away --table away-t1 --thread URL)") in adv
    res = run("tournament", "thread", "--name", "away", "--table", "away-t9", "--thread", base + EE_ENTRY,
              "--state", str(state), code=1)
    assert "away-t9 is not a table of tournament away" in res.output
    run("tournament", "thread", "--name", "away", "--table", "away-t1", "--thread", base + EE_ENTRY,
        "--state", str(state))
    t1 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'away-t1'")[0][0])
    for p in t1:
        site.add(p, "BACK")
    adv = run("tournament", "advance", "--name", "away", "--state", str(state)).output
    assert f"next: nomicpoker hand start --table away-t1 --thread {base + EE_ENTRY} --state {state}" in adv
    assert "next: nomicpoker hand start --table away-t2" not in adv


def test_the_rail_of_a_spectator_named_onto_the_blog_goes_to_that_forums_rail_thread(forums):
    """Each on the rail gets it on his own forum: yan (no forum named) by private message on the
    first table's forum (local), zoe, whom the director named onto the blog table, in the blog's
    rail thread, which the director gives for that forum (``--thread URL --forum TABLE``); until
    then the standings wait, the refusal naming that forum's table."""
    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.storage.paths import forum_db_path

    state, _reddit, blog, site, base, _fake = forums
    run("tournament", "start", "--name", "spring", "--forum", f"3={blog}", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--join", "yan", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--forum", "spring-t3", "--state", str(state))
    res = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state), code=1)
    assert res.output.strip() == ("error: tournament spring: the rail's forum at table spring-t3 has no private "
                                  "messages: post the rail's thread there and give it with nomicpoker tournament rail "
                                  "--name spring --thread REF --forum spring-t3 (the standings wait for it)")
    assert not [m for m in LocalForum(forum_db_path(state)).inbox("yan") if "standings" in (m.subject or "")]
    run("tournament", "rail", "--name", "spring", "--thread", base + EE_ENTRY, "--forum", "spring-t3",
        "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state)).output
    assert out.strip() == "tournament spring: standings of day 1 sent to 2 on the rail: yan, zoe"
    assert len([p for p in site.posts if "standings at the end of day 1" in p["comment"]]) == 1
    [pm] = [m for m in LocalForum(forum_db_path(state)).inbox("yan") if "standings" in (m.subject or "")]
    assert pm.subject == "Tournament spring: standings, day 1"
    assert not [m for m in LocalForum(forum_db_path(state)).inbox("zoe") if "standings" in (m.subject or "")]
