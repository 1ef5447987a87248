"""``first_best`` (the showdown's fast path: the five-card table only) against the
reference path ``best_hand``: the same value and the same five card instances, on random
deals from one deck, on multisets with heavy repeats (per-player decks), on flush-rich and
straight-rich pools, and on every size it takes; anything else is refused with a code."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.evaluator import EvaluatorError, best_hand, evaluate5, first_best, value7
from nomicpoker.core.poker.showdown import best_five

POOLS = [
    FULL_DECK,
    FULL_DECK[:12],                                  # low ranks, repeats
    [c for c in FULL_DECK if c[1] == "h"],           # one suit: flushes and straight flushes
    FULL_DECK[-16:],                                 # high ranks: broadway straights
    [c for c in FULL_DECK if c[0] in "A2345"],       # wheels
]


def _check(cards: list[str]) -> None:
    ref = best_hand(cards, ())
    value, idx = first_best(cards)
    assert value == ref.value == value7(cards), cards
    # the same five cards as the reference reports (its HandValue: cards in order, name)
    assert evaluate5([cards[i] for i in idx]) == ref, cards
    assert best_five(tuple(cards[:2]), tuple(cards[2:]), 0) == best_hand(cards[:2], cards[2:], 0)


def test_first_best_is_best_hand_on_random_multisets():
    rng = random.Random(20261123)
    for _ in range(5_000):
        pool = rng.choice(POOLS)
        _check([rng.choice(pool) for _ in range(rng.randint(5, 7))])


def test_first_best_is_best_hand_on_deals_from_one_deck():
    rng = random.Random(7)
    for _ in range(3_000):
        _check(rng.sample(FULL_DECK, rng.randint(5, 7)))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=7))
def test_first_best_is_best_hand_for_any_cards(cards):
    _check(cards)


def test_the_first_subset_of_the_best_value_is_reported():
    # a board that plays: every subset holding the five board cards ties with others only
    # when the hole cards add nothing; the reference reports the first in enumeration order
    cards = ["2c", "3d", "As", "Ks", "Qs", "Js", "Ts"]
    value, idx = first_best(cards)
    assert idx == (2, 3, 4, 5, 6)
    # two equal two-pair hands: the kicker from the earlier index is taken first
    cards = ["9c", "9d", "9h", "Kc", "Kd", "2s", "2h"]
    assert evaluate5([cards[i] for i in first_best(cards)[1]]) == best_hand(cards, ())


@pytest.mark.parametrize("cards", [["As"] * 4, FULL_DECK[:8], []])
def test_other_sizes_are_refused_with_a_code(cards):
    with pytest.raises(EvaluatorError) as e:
        first_best(cards)
    assert e.value.code == "not_five_to_seven_cards"


def test_a_bad_card_is_reported_as_the_evaluator_reports_it():
    with pytest.raises(EvaluatorError) as e:
        first_best(["As", "Kd", "Qh", "Jc", "1x"])
    with pytest.raises(EvaluatorError) as ref:
        best_hand(["As", "Kd", "Qh", "Jc", "1x"], ())
    assert e.value.code == ref.value.code
