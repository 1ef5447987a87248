"""The batch evaluator (numpy) gives exactly the scalar evaluator's values: every table entry
against the scalar tables' definitions, the dense numbering of rank multisets, and hands
(distinct cards, own-deck repeats, five of a kind, 5/6/7 cards) against ``value7``."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nomicpoker.core.poker import batch_eval as be
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.evaluator import EvaluatorError, category_of, value7
from nomicpoker.core.poker.evaluator_tables import build_nonflush, flush_value


def _cards(row) -> list[str]:
    return [FULL_DECK[int(c)] for c in row]


@pytest.mark.parametrize("weights", [be._WEIGHTS_LOW, be._WEIGHTS_HIGH])
def test_each_group_key_is_unique_for_every_multiset_of_up_to_seven_ranks(weights):
    sums = [sum(weights[i] for i in combo) for size in range(8)
            for combo in combinations_with_replacement(range(len(weights)), size)]
    assert len(sums) == len(set(sums))
    assert max(sums) == 7 * weights[-1]


def test_the_key_fields_never_carry_into_each_other():
    assert 7 * be._WEIGHTS_LOW[-1] < 1 << be.LOW_BITS  # low rank key below the high one
    assert 7 * be._WEIGHTS_HIGH[-1] < 1 << 17  # the high key's table
    assert be.SUIT_BITS == 12  # four base-8 suit digits, as the scalar key


def test_the_dense_numbering_covers_every_rank_multiset_of_5_6_7_once():
    t = be.tables()
    assert len(t.key8) == 6188 + 18564 + 50388
    assert len(set(t.key8.tolist())) == len(t.key8)
    # each multiset's compact keys, read back from its base-8 key, give its own position
    counts = np.stack([(t.key8 >> (3 * r)) & 7 for r in range(13)], axis=1)
    low = counts[:, :6] @ np.array(be._WEIGHTS_LOW)
    high = counts[:, 6:] @ np.array(be._WEIGHTS_HIGH)
    n = counts.sum(axis=1)
    assert set(n.tolist()) == {5, 6, 7}
    assert (t.low[n, low] + t.high[high] == np.arange(len(t.key8))).all()


def test_every_nonflush_entry_is_the_scalar_table():
    t = be.tables()
    scalar = build_nonflush()
    assert t.nonflush.tolist() == [scalar[k] for k in t.key8.tolist()]


def test_every_flush_entry_is_the_scalar_flush_rule():
    t = be.tables()
    for k8, got in zip(t.key8.tolist(), t.flush.tolist()):
        ranks = [r + 2 for r in range(13) for _ in range((k8 >> (3 * r)) & 7)]
        assert got == flush_value(ranks), ranks


def test_random_distinct_seven_card_hands_match_value7():
    rng = np.random.default_rng(20261128)
    hands = np.argsort(rng.random((30_000, 52)), axis=1)[:, :7].astype(np.uint8)
    got = be.evaluate(hands)
    assert got.tolist() == [value7(_cards(h)) for h in hands]
    assert got.dtype == np.int32


@pytest.mark.parametrize("n", [5, 6, 7])
def test_hands_with_repeated_cards_match_value7(n):
    """Own decks: a card may repeat (five of a kind, multiset flushes); heavy repeats over a
    few ranks and two suits, and uniform codes with replacement."""
    rng = np.random.default_rng(n)
    heavy = rng.integers(0, 6, size=(8_000, n)) * 4 + rng.integers(0, 2, size=(8_000, n))
    loose = rng.integers(0, 52, size=(8_000, n))
    for hands in (heavy, loose):
        assert be.evaluate(hands).tolist() == [value7(_cards(h)) for h in hands]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 51), min_size=7, max_size=7), min_size=1, max_size=30),
       st.sampled_from([5, 6, 7]))
def test_any_card_lists_match_value7(rows, n):
    hands = np.array([r[:n] for r in rows], dtype=np.int64)
    assert be.evaluate(hands).tolist() == [value7(_cards(h)) for h in hands]


def test_the_documented_duplicate_card_hands():
    five_aces = be.codes(["As", "Ah", "Ad", "Ac", "As", "2c", "3d"])
    flush = be.codes(["Ah", "Kh", "Ah", "9h", "5h", "2c", "3d"])
    values = be.evaluate(np.stack([five_aces, flush]))
    assert [category_of(int(v)) for v in values] == [9, 5]
    assert values.tolist() == [value7(_cards(five_aces)), value7(_cards(flush))]


def test_all_five_card_hands_have_the_known_category_counts():
    """All 2,598,960 distinct five-card hands at once: the textbook counts per category and
    7,462 distinct values, independent of the scalar path."""
    hands = np.fromiter((c for h in combinations(range(52), 5) for c in h), dtype=np.uint8,
                        count=2598960 * 5).reshape(-1, 5)
    values = be.evaluate(hands)
    counts = np.bincount(values >> 20, minlength=10).tolist()
    assert counts == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40, 0]
    assert len(np.unique(values)) == 7462


def test_bad_input_is_refused_with_a_code():
    with pytest.raises(EvaluatorError) as e:
        be.evaluate(np.array([[0, 1, 2, 3, 52]]))
    assert e.value.code == "bad_card"
    with pytest.raises(EvaluatorError) as e:
        be.evaluate(np.array([[0, 1, 2, -1, 5]]))
    assert e.value.code == "bad_card"
    with pytest.raises(EvaluatorError) as e:
        be.evaluate(np.array([[0, 1, 2, 3]]))
    assert e.value.code == "not_five_to_seven_cards"
    with pytest.raises(EvaluatorError) as e:
        be.evaluate(np.zeros((2, 8), dtype=np.uint8))
    assert e.value.code == "not_five_to_seven_cards"
    with pytest.raises(EvaluatorError) as e:
        be.codes(["As", "7H"])
    assert e.value.code == "bad_card"
    assert be.evaluate(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize("n", [5, 6, 7])
def test_values_from_summed_keys_are_the_values_of_the_cards(n):
    """The equity path sums keys once per board and adds each hand's: the same values."""
    rng = np.random.default_rng(100 + n)
    hands = np.concatenate([rng.integers(0, 52, size=(5_000, n)),
                            rng.integers(0, 5, size=(5_000, n)) * 4 + 1])  # repeats, one suit
    by_keys = be.evaluate_keys(be.hand_keys(hands), be.suit_keys(hands), n)
    assert by_keys.tolist() == be.evaluate(hands).tolist() == [value7(_cards(h)) for h in hands]
