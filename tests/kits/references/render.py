"""Shared fixtures for the render tests: rulesets, a table view, and hands built directly from
the engine's frozen dataclasses with amounts worked out by hand."""

from __future__ import annotations

import html
import re

from nomicpoker.core.poker.engine import Hand, PotAward, Result, Seat, ShownHand
from nomicpoker.core.words.render import TableView
from nomicpoker.core.rules.ruleset import Ruleset

D_AND_P = Ruleset()
NLHE = Ruleset(name="roberts-nlhe", title="Robert's Rules", raise_amount="raise_to", side_pots=True,
               return_uncalled=True, deck="shared", blinds=True)

PLAYERS = ("alice", "bob", "carol", "dave")
TABLE = TableView(name="T", players=PLAYERS + ("erin",), money={"erin": 0}, button="alice")


def fresh_hand(number: int = 3) -> Hand:
    """Hand 3 just started: ante 5 from four seated players, button alice, bob first to act."""
    seats = tuple(Seat(p, 95, 0, 5) for p in PLAYERS)
    return Hand(D_AND_P, number, seats, button=0, round=1, to_act=1)


def flop_hand() -> Hand:
    """Round 2 after the flop: bob raised 20, carol folded, dave to act with 80 behind."""
    seats = (
        Seat("alice", 85, 0, 15),
        Seat("bob", 65, 20, 35),
        Seat("carol", 90, 0, 10, folded=True),
        Seat("dave", 80, 0, 15),
    )
    return Hand(D_AND_P, 3, seats, button=0, round=2, board=("7h", "2s", "Kd"), to_act=3)


def wordpress_html(markdown: str) -> str:
    """Roughly what a WordPress comment page shows for our body: paragraphs in <p>, entities
    escaped, inline code in <code>, and wptexturize's en dashes between digits outside code."""
    out = []
    for para in markdown.strip().split("\n\n"):
        text = html.escape(para, quote=True)
        text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
        text = text.replace("[", "&#91;").replace("]", "&#93;")
        out.append("<p>" + text.replace("\n", "<br />\n") + "</p>")
    return "\n".join(out)


def texturized(html_text: str) -> str:
    return re.sub(r"(\d)-(\d)", "\\1&#8211;\\2", html_text)


def settled_hand() -> Hand:
    """Showdown between bob and dave (35 and 15 in), alice and carol folded. dave, all-in for
    less, wins the whole 75 under Dealing and Play (no side pots)."""
    seats = (
        Seat("alice", 85, 0, 15, folded=True),
        Seat("bob", 65, 0, 35),
        Seat("carol", 90, 0, 10, folded=True),
        Seat("dave", 0, 0, 15),
    )
    res = Result(
        awards=(PotAward(75, ("bob", "dave"), ("dave",), {"dave": 75}),),
        returned={},
        destroyed=0,
        payouts={"dave": 75},
        shown=(
            ShownHand("dave", ("Kh", "Ks"), ("Kh", "Ks", "Kd", "7h", "2s"), "Three of a Kind, Kings", 900),
            ShownHand("bob", ("7s", "7d"), ("7s", "7d", "7h", "Kd", "2s"), "Three of a Kind, Sevens", 800),
        ),
        uncontested=False,
    )
    return Hand(D_AND_P, 3, seats, button=0, round=5, board=("7h", "2s", "Kd", "Tc", "3d"), result=res)


AFTER = TableView("T", PLAYERS + ("erin",), {"alice": 85, "bob": 65, "carol": 90, "dave": 75, "erin": 0}, "alice")
