"""The test Reddit as the Reddit adapter's tests meet it: served on loopback for praw with the
Dealer's credentials set (the ``fake`` fixture), a table's forum config pointing at it, and
the adapter the registry builds from that config. WHY one kit: the Reddit test files (hand,
inbox, refusals, story) each defined the same fixture and config, so a change to how the
Dealer reaches Reddit had to be made four times.

tests/integration/adapters/test_forum_reddit.py keeps its own: it sets the credentials in several ways (a fixture
of its own) and tests the config's defaults, so it must not inherit these."""

from __future__ import annotations

import re

import pytest

from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.core.poker.cards import parse_card
from nomicpoker.adapters.registry import open_forum

from fixtures.reddit_api import CREDENTIALS, USER, FakeReddit, serving


@pytest.fixture
def fake(monkeypatch):
    """The test Reddit on loopback, with the Dealer's credentials in praw's variables."""
    for key, value in CREDENTIALS.items():
        monkeypatch.setenv(key, value)
    with serving(FakeReddit()) as state:
        yield state


def config_for(fake: FakeReddit, **extra) -> dict:
    """A table's forum config for the test Reddit, the Dealer named, a 2 s client timeout."""
    return {"oauth_url": fake.url, "reddit_url": fake.url, "user_agent": "test:nomicpoker:0.1",
            "dealer": USER, "timeout": 2, **extra}


def forum_for(fake: FakeReddit, **extra) -> RedditForum:
    """The adapter the registry builds from :func:`config_for`."""
    forum = open_forum("reddit", config_for(fake, **extra), state=None)  # type: ignore[arg-type]
    assert isinstance(forum, RedditForum)
    return forum


_LISTING = re.compile(r"^- *(\d+): (\S+) \(")


def inbox_deck(fake: FakeReddit, player: str, hand: int) -> tuple[dict[int, str], str]:
    """The deck a player received privately for ``hand``: position -> card, and its checksum."""
    for msg in reversed(fake.messages):
        if msg["to"] == player and f"hand {hand}" in msg["text"].split("\n", 1)[0]:
            lines = msg["text"].splitlines()
            deck = {int(m.group(1)): parse_card(m.group(2)) for m in map(_LISTING.match, lines) if m}
            checksum = next(line.strip() for line in lines if line.startswith("Cards printed by:"))
            return deck, checksum
    raise AssertionError(f"no deck for {player} in the messages the fake received")
