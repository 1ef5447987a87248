"""Cross-check value7 against independent evaluators on random distinct 7-card hands.

"Agreement, ordering included" means: the map from the other library's value to ours is a
strictly monotone bijection on the sample. Equal values exactly where they tie, and ours
higher exactly where theirs is better. Categories are compared too. On ordinary (one
deck) hands these libraries are right; on duplicate cards they are not (see
test_evaluator.py and docs/evaluator.md), so only distinct-card hands are used here.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.evaluator import best_hand, category_of, value7

N_HANDS = 100_000


def distinct_hands(n: int, seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    seen: set[frozenset[str]] = set()
    hands: list[tuple[str, ...]] = []
    while len(hands) < n:
        h = tuple(rng.sample(FULL_DECK, 7))
        k = frozenset(h)
        if k not in seen:
            seen.add(k)
            hands.append(h)
    return hands


@pytest.fixture(scope="module")
def hands() -> list[tuple[str, ...]]:
    return distinct_hands(N_HANDS, seed=2026)


@pytest.fixture(scope="module")
def ours(hands) -> list[int]:
    return list(map(value7, hands))


def assert_same_order(theirs: list, ours: list[int]) -> None:
    """theirs (higher = better) and ours induce the same total preorder on the sample."""
    mapping: dict = {}
    for t, o in zip(theirs, ours):
        assert mapping.setdefault(t, o) == o, f"their value {t} maps to {mapping[t]} and {o}"
    assert len(set(mapping.values())) == len(mapping), "we tie hands they separate"
    in_their_order = [mapping[t] for t in sorted(mapping)]
    assert in_their_order == sorted(in_their_order), "orders differ"


def test_sample_is_large_and_spans_every_category(ours):
    assert len(ours) >= 100_000
    assert {category_of(v) for v in ours} == set(range(9))


def test_agrees_with_treys_on_100k_hands_ordering_included(hands, ours):
    from treys import Card, Evaluator

    ev = Evaluator()
    new = Card.new
    ranks = [ev.evaluate([new(c) for c in h[2:]], [new(c) for c in h[:2]]) for h in hands]
    assert_same_order([-r for r in ranks], ours)
    # treys rank classes: 0 royal flush, 1 straight flush .. 9 high card
    classes = {r: max(ev.get_rank_class(r), 1) for r in set(ranks)}
    for r, o in zip(ranks, ours):
        assert category_of(o) == 9 - classes[r]


def test_agrees_with_pokerkit_on_100k_hands_ordering_included(hands, ours):
    """pokerkit's own evaluation of all 100k hands, no memoisation: its hand lookup
    (``StandardHighHand.lookup.get_entry``, the table every pokerkit hand is ranked by) on
    pokerkit ``Card`` objects for each of the 21 five-card subsets, the best one kept. That
    is what ``StandardHighHand.from_game`` does, minus building a ``Hand`` object per subset;
    the next test checks the two agree. ~19k hands/s, ~5 s."""
    from pokerkit import Card, StandardHighHand

    lookup = StandardHighHand.lookup
    card = {c: next(iter(Card.parse(c))) for c in FULL_DECK}
    label_to_cat = {
        "High card": 0, "One pair": 1, "Two pair": 2, "Three of a kind": 3, "Straight": 4,
        "Flush": 5, "Full house": 6, "Four of a kind": 7, "Straight flush": 8,
    }
    theirs = []
    for h, o in zip(hands, ours):
        best = max((lookup.get_entry(sub) for sub in combinations([card[c] for c in h], 5)),
                   key=lambda e: e.index)
        theirs.append(best.index)
        assert label_to_cat[best.label.value] == category_of(o)
    assert_same_order(theirs, ours)


def test_pokerkit_from_game_agrees_with_its_lookup_and_with_us(hands, ours):
    """pokerkit's public best-hand search (``StandardHighHand.from_game``, ~5k hands/s) on
    the first 5,000 hands: the same entries as the lookup maximum above, and our order."""
    from pokerkit import Card, StandardHighHand

    n = 5_000
    lookup = StandardHighHand.lookup
    card = {c: next(iter(Card.parse(c))) for c in FULL_DECK}
    theirs = []
    for h in hands[:n]:
        entry = StandardHighHand.from_game("".join(h[:2]), "".join(h[2:])).entry
        by_lookup = max(lookup.get_entry(sub).index
                        for sub in combinations([card[c] for c in h], 5))
        assert entry.index == by_lookup
        theirs.append(entry.index)
    assert_same_order(theirs, ours[:n])


def test_agrees_with_phevaluator_on_100k_hands(hands, ours):
    from phevaluator import evaluate_cards

    assert_same_order([-evaluate_cards(*h) for h in hands], ours)


def test_agrees_with_eval7_on_100k_hands(hands, ours):
    eval7 = pytest.importorskip("eval7")
    card = {c: eval7.Card(c) for c in FULL_DECK}
    assert_same_order([eval7.evaluate([card[c] for c in h]) for h in hands], ours)


def test_best_hand_reference_path_agrees_with_value7_on_a_sample(hands, ours):
    """The slow reference path (subset enumeration) on 5,000 of the same hands, split as
    hold'em: 2 hole + 5 board."""
    for h, v in zip(hands[:5_000], ours):
        assert best_hand(h[:2], h[2:]).value == v

