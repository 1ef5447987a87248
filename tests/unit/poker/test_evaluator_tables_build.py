"""The evaluator's tables, built the fast way at import or on first use, against their
definitions written the plain way: every straight mask, every suit-count key, every
five-card rank multiset."""

from __future__ import annotations

from itertools import combinations_with_replacement

from nomicpoker.core.poker import evaluator_tables as t


def test_straight_top_is_its_definition_on_every_mask():
    spec = tuple(t._straight_top(m) for m in range(1 << 13))
    assert t.STRAIGHT_TOP == spec
    assert t.STRAIGHT_TOP[0b1000000001111] == 5 and t.STRAIGHT_TOP[0b1111100000000] == 14
    assert t.STRAIGHT_TOP[0b1111110000000] == 14  # six in a row: the higher straight


def test_flush_suit_is_its_definition_on_every_key():
    spec = tuple(next((si for si in range(4) if (key >> (3 * si)) & 7 >= 5), -1)
                 for key in range(1 << 12))
    assert t.FLUSH_SUIT == spec


def test_the_five_card_table_is_its_definition_on_every_multiset():
    powers = [8 ** i for i in range(13)]
    spec = {}
    for combo in combinations_with_replacement(range(13), 5):
        counts = [0] * 13
        for i in combo:
            counts[i] += 1
        spec[sum(powers[i] for i in combo)] = t._value5_from_counts(counts)
    assert t.build_nonflush5() == spec
    assert len(spec) == 6188
