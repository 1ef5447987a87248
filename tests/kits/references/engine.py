"""Shared helpers for the engine tests: the bundled rulesets and short ways to play events."""

from __future__ import annotations

from nomicpoker.core.poker.actions import Call, Check, Fold, Raise
from nomicpoker.core.poker.engine import Hand, Rejection, apply, start_hand
from nomicpoker.shell.storage.rulesets import load_ruleset

BLOG = load_ruleset("blognomic-2008")
RR = load_ruleset("roberts-nlhe")


def play(hand: Hand, *events) -> Hand:
    """Apply events that must all be accepted."""
    for ev in events:
        r = apply(hand, ev)
        assert not isinstance(r, Rejection), (ev, r)
        hand = r
    return hand


def refused(hand: Hand, ev, code: str) -> Rejection:
    r = apply(hand, ev)
    assert isinstance(r, Rejection), (ev, r)
    assert r.code == code, r
    return r


def money(hand: Hand) -> dict[str, int]:
    return {s.name: s.money for s in hand.seats}


# Dealing and Play names every action's hand and round; these helpers fill them in.
def braise(p, rnd, z, hand=1):
    return Raise(p, hand, rnd, amount=z)


def bcall(p, rnd, hand=1, amount=None):
    return Call(p, hand, rnd, amount=amount)


def bcheck(p, rnd, hand=1):
    return Check(p, hand, rnd)


def bfold(p, rnd, hand=1):
    return Fold(p, hand, rnd)


def blog3(ante=5, stacks=(100, 100, 100)) -> Hand:
    # GNDT order alice, bob, carol; carol has the Button, so alice acts first.
    return start_hand(BLOG, 1, list(zip(("alice", "bob", "carol"), stacks)), "carol", ante=ante)


def rr3(stacks=(1000, 1000, 1000), blinds=(5, 10), **kw) -> Hand:
    # seats a, b, c; c has the button: a posts the small blind, b the big blind, c acts first
    return start_hand(RR, 1, list(zip("abc", stacks)), "c", blinds=blinds, **kw)
