"""The hand engine's ``blind_posters`` (a tournament table's dead button, core/poker/engine):
naming the posters the engine would pick gives the very same hand; "" leaves a blind unposted
(WRGPT: "If the player with the big blind is eliminated there will be no small blind") and the
first to act before the flop is the player after the big blind."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from nomicpoker.core.poker import engine
from nomicpoker.shell.storage.rulesets import load_ruleset

RULES = load_ruleset("roberts-nlhe")
NAMES = ["p1", "p2", "p3", "p4", "p5", "p6"]


@given(st.integers(2, 6), st.integers(0, 5), st.integers(0, 3))
def test_naming_the_usual_posters_changes_nothing(n, b, ante):
    seats = [(p, 100) for p in NAMES[:n]]
    button = NAMES[b % n]
    first = b % n if n == 2 else (b + 1) % n
    posters = [NAMES[first], NAMES[(first + 1) % n]]
    plain = engine.start_hand(RULES, 1, seats, button, ante=ante, blinds=(5, 10))
    named = engine.start_hand(RULES, 1, seats, button, ante=ante, blinds=(5, 10), blind_posters=posters)
    assert named == plain


def test_no_small_blind():
    """p1 the button (the last to act), no small blind, p3 the big blind: only p3 posts, and p4
    (after the big blind) acts first; a call of 10 completes his bet."""
    seats = [(p, 100) for p in NAMES[:4]]
    hand = engine.start_hand(RULES, 1, seats, "p2", blinds=(5, 10), blind_posters=["", "p3"])
    assert [s.total_bet for s in hand.seats] == [0, 0, 10, 0]
    assert hand.seats[hand.to_act].name == "p4"
    assert hand.high_bet == 10


def test_posters_must_be_seated():
    import pytest

    with pytest.raises(ValueError):
        engine.start_hand(RULES, 1, [("a", 10), ("b", 10)], "a", blinds=(1, 2), blind_posters=["a", "zed"])
