"""The whole hands the fault sweeps replay (tests/kits/sweeps/sweep.py): one on the test Reddit
(praw against ``fixtures.reddit_api``), one on the test BlogNomic (requests against
``fixtures.wp_theme_site``, BlogNomic's real theme). Each is played once by scripted players
through a :class:`~kits.sweeps.sweep.Sweep`, which records every dealer step.

Both hands have a comment out of turn (a rejection), a raise, a call, three streets of checks
and a showdown with two reveals; Reddit's decks go out by private message, BlogNomic's players
bring their own. Expected money is worked out in the comments, never read from the output.
"""

from __future__ import annotations

import re
from pathlib import Path

import prawcore.sessions
import pytest
from pytest_httpserver import HTTPServer

from nomicpoker.core.fairness.dealing import deck_checksum
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service

from kits.servers.blog import SimClock, deck_with
from kits.tables.bot import fixed_secrets
from kits.servers.reddit import config_for, inbox_deck
from kits.references.fair_dealing import REF
from kits.sweeps.sweep import Sweep
from fixtures.reddit_api import CREDENTIALS, SUB, USER, FakeReddit, serving
from fixtures.wp_theme_site import BASE, THREAD, WordPressSite, serve


@pytest.fixture
def reddit(monkeypatch):
    """The test Reddit, served on loopback for praw, with the Dealer's credentials set."""
    for key, value in CREDENTIALS.items():
        monkeypatch.setenv(key, value)
    # prawcore waits 0-2 s before it repeats a failed request; the sweeps do not wait (the
    # request is repeated all the same, so nothing they test changes)
    monkeypatch.setattr(prawcore.sessions.FiniteRetryStrategy, "_sleep_seconds", lambda self: None)
    with serving(FakeReddit(stable_ids=True)) as fake:
        yield fake


@pytest.fixture
def blog(monkeypatch):
    """The test BlogNomic (the real theme), without moderation, and the Dealer's login.

    Served by a threaded server of its own: a "timeout" fault holds its answer ``STALL``
    seconds after the client gave up, and the client's next request (the retry, the next
    page) is answered meanwhile, as a real web server would, instead of waiting behind it
    (0.3 s saved per timeout fault; nothing the sweeps check depends on it: the client is
    one sequential Dealer, and the stalled request's work is done before it stalls)."""
    server = HTTPServer(threaded=True)
    server.start()
    site = WordPressSite(moderation=False)
    site.member("pokerbot", "pw", "Poker Dealer")
    site.member("kevan", "pw", "Kevan")
    site.member("josh", "pw", "Josh")
    base = serve(server, site, monkeypatch)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", "pokerbot")
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", "pw")
    try:
        yield site, base
    finally:
        server.clear()
        if server.is_running():
            server.stop()


#: the client's timeout in the sweeps; a "timeout" fault answers after FaultPlan.stall (0.8 s)
CLIENT_TIMEOUT = 0.5
STALL = 0.8
#: a "429" fault's Retry-After in the sweeps: 0, no idle second per fault (fixtures/http_faults.py)
RETRY_AFTER = "0"


def reddit_view(fake: FakeReddit) -> dict:
    """What Reddit shows: the live comments (a deleted duplicate is gone from listings), the
    messages delivered, the submissions."""
    return {
        "reddit.comments": [(c.id, c.author, c.body, c.parent, c.created) for c in fake.comments if fake.visible(c)],
        "reddit.messages": [(m["to"], m["subject"], m["text"]) for m in fake.messages],
        "reddit.submissions": [(s.id, s.author, s.title, s.selftext) for s in fake.submissions],
    }


def play_reddit(fake: FakeReddit, tmp: Path) -> Sweep:
    """alice and bob, 100 each, ante 5 (pot 10). The bot rolls each DICE52 and sends each deck
    privately. alice asks WHAT twice (two private answers with the same words). Round 1: bob out of turn is rejected; alice raises 10 (85), bob calls (85, pot
    30); rounds 2-4 all checks; both reveal; the better hand takes 30 (115 / 85)."""
    fake.faults.stall, fake.faults.retry_after = STALL, RETRY_AFTER
    state = tmp / "state"
    sweep = Sweep(fake, state, tmp / "scratch", lambda: reddit_view(fake))
    config = config_for(fake, timeout=CLIENT_TIMEOUT)
    service.create_table(sweep.engine, state, "T", ["alice", "bob"], 100, forum="reddit", forum_config=config)
    secrets_store.write(state, "T", 1, fixed_secrets("reddit-sweep"))
    sweep.start("T", 5, thread=SUB)
    decks = {p: inbox_deck(fake, p, 1) for p in ("alice", "bob")}
    draws = {p: fake.add(p, "HAND#1 DICE52 DICE52") for p in ("alice", "bob")}
    sweep.poll()
    pos = {}
    for p, c in draws.items():
        (reply,) = [d.body for d in fake.comments if d.author == USER and d.parent == f"t1_{c.id}"]
        pos[p] = tuple(int(x) for x in re.findall(r"DICE52: (\d+)", reply))
        assert len(pos[p]) == 2 and pos[p][0] != pos[p][1], reply
    for p in ("alice", "bob"):
        fake.add(p, f"cards {pos[p][0]}, {pos[p][1]}, {decks[p][1]}")
    sweep.poll()
    for _ in range(2):  # the same private answer twice: two messages, each with its identity
        fake.add("alice", "WHAT")
        sweep.poll()
    for who, body in (("bob", "HAND1 ROUND1 call"), ("alice", "HAND1 ROUND1 raise 10"), ("bob", "HAND1 ROUND1 call"),
                      ("alice", "HAND1 ROUND2 check"), ("bob", "HAND1 ROUND2 check"),
                      ("alice", "HAND1 ROUND3 check"), ("bob", "HAND1 ROUND3 check"),
                      ("alice", "HAND1 ROUND4 check"), ("bob", "HAND1 ROUND4 check")):
        fake.add(who, body)
        sweep.poll()
    for p in ("alice", "bob"):
        fake.add(p, "HAND1 reveal " + " ".join(decks[p][0][x] for x in pos[p]))
        sweep.poll()
    mine = [c.body for c in fake.comments if c.author == USER and fake.visible(c)]
    assert any("not_your_turn" in b for b in mine) and "Hand #1 is over." in mine[-1], mine[-1]
    assert re.search(r"Pot 30: (alice|bob) wins 30\.", mine[-1]), mine[-1]
    assert sorted(m["to"] for m in fake.messages) == ["alice", "alice", "alice", "bob"]
    what = [m["text"] for m in fake.messages if m["subject"].startswith("Your state in hand 1")]
    assert len(what) == 2 and what[0] == what[1]
    sweep.audit_clean()
    return sweep


def wp_view(site: WordPressSite) -> dict:
    """What the blog holds: every comment (who, the stored text, its parent, approved); the
    times are the site's clock, which a retry's wait moves."""
    return {"wp.comments": [(c.id, c.user.login, c.content, c.parent, c.approved) for c in site.comments]}


def play_blognomic(site: WordPressSite, base: str, tmp: Path) -> Sweep:
    """Kevan and Josh, 100 each, ante 5 (pot 10). The bot rolls each DICE52 (the theme has no
    roller); each player brings a deck with the cards this test wants at the rolled positions
    (Kevan A♠ A♥, Josh 9♥ 9♦). Round 1: Josh out of turn is rejected; Kevan raises 10, Josh
    calls (pot 30); rounds 2-4 all checks; both reveal; 115 / 85 either way."""
    site.faults.stall, site.faults.retry_after = STALL, RETRY_AFTER
    clock = SimClock(site)
    state = tmp / "state"
    sweep = Sweep(site, state, tmp / "scratch", lambda: wp_view(site),
                  poll_kwargs={"sleep": clock.sleep, "clock": clock.now})
    secrets = fixed_secrets("blog-sweep")
    config = {"base_url": base, "delay": 0, "backoff": 0, "timeout": CLIENT_TIMEOUT}
    service.create_table(sweep.engine, state, "T", ["Kevan", "Josh"], 100, forum="blognomic", forum_config=config)
    secrets_store.write(state, "T", 1, secrets)
    sweep.start("T", 5, thread=BASE + THREAD)
    ids = {login: site.add(login, "HAND#1 DICE52 DICE52").id for login in ("kevan", "josh")}
    sweep.poll()
    dice = {login: (REF["die"](secrets.dice, str(ids[login]), 0, 52), REF["die"](secrets.dice, str(ids[login]), 1, 52))
            for login in ids}
    assert all(a != b for a, b in dice.values()), "pick another seed: a pair is drawn again"
    want = {"kevan": ("As", "Ah"), "josh": ("9h", "9d")}
    for login in ids:
        deck = deck_with(*want[login], *dice[login])
        site.add(login, f"cards {dice[login][0]}, {dice[login][1]}, {deck_checksum(deck)}", parent=ids[login])
    sweep.poll()
    for who, body in (("josh", "HAND1 ROUND1 call"), ("kevan", "HAND1 ROUND1 raise 10"), ("josh", "HAND1 ROUND1 call"),
                      ("kevan", "HAND1 ROUND2 check"), ("josh", "HAND1 ROUND2 check"),
                      ("kevan", "HAND1 ROUND3 check"), ("josh", "HAND1 ROUND3 check"),
                      ("kevan", "HAND1 ROUND4 check"), ("josh", "HAND1 ROUND4 check"),
                      ("kevan", "HAND1 reveal As Ah"), ("josh", "HAND1 reveal 9h 9d")):
        site.add(who, body)
        sweep.poll()
    mine = [c.content for c in site.comments if c.user.login == "pokerbot"]
    assert any("not_your_turn" in b for b in mine) and "Hand #1 is over." in mine[-1], mine[-1]
    assert "Pot 30:" in mine[-1] and "wins 30." in mine[-1]
    sweep.audit_clean()
    return sweep
