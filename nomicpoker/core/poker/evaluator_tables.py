"""Lookup tables behind the fast scalar path :func:`nomicpoker.core.poker.evaluator.value7`.

Why tables: the engine evaluates a handful of hands per showdown, but the cross-checks,
the exhaustive 5-card test and equity-style tools evaluate millions. In pure Python the
cheapest evaluation is "a few integer additions and two lookups", so we precompute:

* ``CARD_KEY[card]``: one integer per card holding *both* its rank and its suit as a
  base-8 digit: ``8 ** (4 + rank_index)`` for the rank part (13 digits, bits 12..50) and
  ``8 ** suit_index`` for the suit part (4 digits, bits 0..11). Adding the keys of up to
  seven cards never carries (a digit is at most 7), so the sum is an exact multiset key:
  the high part is the rank multiset, the low 12 bits are the four suit counts.
* ``NONFLUSH[rank_key]``: for every multiset of 5..7 ranks (repeats allowed up to 7, so
  duplicate cards and five of a kind are covered), the best value ignoring suits.
* ``FLUSH_SUIT[suit_key]``: which suit has five or more cards, or -1 (at most one can,
  with at most seven cards).
* ``STRAIGHT_TOP[mask]``: the top rank of the best straight in a 13-bit rank mask, or 0.

Values are packed integers, see :func:`pack`. The small tables are built at import
(milliseconds); ``NONFLUSH`` (75,140 rank multisets, ~0.06 s) only by
:func:`build_value_fast`, on the first scalar evaluation, and its five-card part (6,188,
a few milliseconds) by :func:`build_first_best`, on the first showdown. docs/benchmarks.md
records it.

This module is pure (no I/O, clock or randomness) and imports nothing from the rest of the
package except the card alphabet, so the evaluator's reference path and this fast path are
two independent implementations that the tests compare.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

from nomicpoker.core.poker.cards import RANKS, SUITS

HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, \
    FOUR_OF_A_KIND, STRAIGHT_FLUSH, FIVE_OF_A_KIND = range(10)

#: Bits of the packed value below the category: five 4-bit rank fields.
CATEGORY_SHIFT = 20


def pack(category: int, ranks: tuple[int, ...] | list[int]) -> int:
    """Pack a category and up to five tie-break ranks (2..14, most significant first).

    ``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``, missing fields zero.
    Rank values are 2..14, so a present field always beats a missing one, and two hands get
    the same integer exactly when category and tie-break sequence are equal: equal values
    are exactly ties.
    """
    v = category
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


# Straight patterns as (top rank value, 13-bit mask over rank indices 0..12 = 2..A).
_STRAIGHTS: tuple[tuple[int, int], ...] = tuple(
    [(top + 2, 0b11111 << (top - 4)) for top in range(12, 3, -1)]
    + [(5, 0b1000000001111)]  # the wheel A-2-3-4-5 plays as five high
)


def _straight_top(mask: int) -> int:
    for top, pattern in _STRAIGHTS:
        if mask & pattern == pattern:
            return top
    return 0


def _build_straight_top() -> tuple[int, ...]:
    """``STRAIGHT_TOP``: ``_straight_top(mask)`` for every 13-bit mask (the definition; a
    test compares all 8,192). Built by writing each pattern's top into every mask holding
    the pattern, lowest straight first so a higher one overwrites it: 2,560 writes instead
    of 81,920 pattern tests at import."""
    table = [0] * (1 << 13)
    for top, pattern in reversed(_STRAIGHTS):
        free = ((1 << 13) - 1) & ~pattern
        sub = free
        while True:  # every subset of the free bits, with the pattern's bits set
            table[sub | pattern] = top
            if sub == 0:
                break
            sub = (sub - 1) & free
    return tuple(table)


STRAIGHT_TOP: tuple[int, ...] = _build_straight_top()

CARD_KEY: dict[str, int] = {
    r + s: (8 ** (4 + ri)) + (8 ** si)
    for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)
}
#: Rank value 2..14 of each canonical card.
CARD_RANK: dict[str, int] = {r + s: ri + 2 for ri, r in enumerate(RANKS) for s in SUITS}


def _build_flush_suit() -> tuple[int, ...]:
    """``FLUSH_SUIT``: for each 12-bit suit-count key, the lowest suit index whose 3-bit count
    is 5 or more, else -1 (the definition; a test compares all 4,096). Written suit by suit,
    highest first, so a lower suit overwrites: four plain loops instead of a generator per
    key at import."""
    table = [-1] * (1 << 12)
    for si in (3, 2, 1, 0):
        shift = 3 * si
        for key in range(1 << 12):
            if (key >> shift) & 7 >= 5:
                table[key] = si
    return tuple(table)


FLUSH_SUIT: tuple[int, ...] = _build_flush_suit()


def _value5_from_counts(counts: list[int]) -> int:
    """Value of exactly five cards given only their rank counts (suits ignored).

    ``counts[i]`` is how many of the five have rank index ``i`` (0 = deuce .. 12 = ace).
    """
    desc = [i for i in range(12, -1, -1) if counts[i]]
    # Groups biggest first, higher rank first: the tie-break order of every pattern.
    groups = sorted(desc, key=lambda i: counts[i], reverse=True)
    shape = tuple(counts[i] for i in groups)
    ranks = [i + 2 for i in groups]
    if shape == (1, 1, 1, 1, 1):
        mask = 0
        for i in desc:
            mask |= 1 << i
        top = STRAIGHT_TOP[mask]
        return pack(STRAIGHT, [top]) if top else pack(HIGH_CARD, ranks)
    category = {
        (5,): FIVE_OF_A_KIND, (4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE,
        (3, 1, 1): THREE_OF_A_KIND, (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): ONE_PAIR,
    }[shape]
    return pack(category, ranks)


def build_nonflush5() -> dict[int, int]:
    """The five-card part of ``NONFLUSH`` (6,188 rank multisets, ~0.01 s): all that
    :func:`build_first_best` needs, so a process that settles showdowns but never evaluates
    in bulk (``phh replay``, a poll) does not build the 75,140-entry table.

    Generated shape by shape (five distinct ranks, one pair, two pair, trips, full house,
    quads, five of a kind), each with its tie-break ranks already in order, rather than by
    classifying every multiset: a third of the time. The definition is
    :func:`_value5_from_counts` on every multiset; a test compares all 6,188 entries."""
    p8 = [8 ** i for i in range(13)]
    desc = range(12, -1, -1)  # rank indices, ace first: combinations come out descending
    table: dict[int, int] = {}
    hi = HIGH_CARD << CATEGORY_SHIFT
    for a, b, c, d, e in combinations(desc, 5):
        top = STRAIGHT_TOP[(1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)]
        table[p8[a] + p8[b] + p8[c] + p8[d] + p8[e]] = (
            STRAIGHT << CATEGORY_SHIFT | top << 16 if top else
            hi | (a + 2) << 16 | (b + 2) << 12 | (c + 2) << 8 | (d + 2) << 4 | (e + 2))
    for x in desc:
        others = [r for r in desc if r != x]
        for b, c, d in combinations(others, 3):  # one pair of x
            table[2 * p8[x] + p8[b] + p8[c] + p8[d]] = (
                ONE_PAIR << CATEGORY_SHIFT | (x + 2) << 16 | (b + 2) << 12 | (c + 2) << 8 | (d + 2) << 4)
        for b, c in combinations(others, 2):  # three x
            table[3 * p8[x] + p8[b] + p8[c]] = (
                THREE_OF_A_KIND << CATEGORY_SHIFT | (x + 2) << 16 | (b + 2) << 12 | (c + 2) << 8)
        for y in others:
            table[3 * p8[x] + 2 * p8[y]] = FULL_HOUSE << CATEGORY_SHIFT | (x + 2) << 16 | (y + 2) << 12
            table[4 * p8[x] + p8[y]] = FOUR_OF_A_KIND << CATEGORY_SHIFT | (x + 2) << 16 | (y + 2) << 12
        table[5 * p8[x]] = FIVE_OF_A_KIND << CATEGORY_SHIFT | (x + 2) << 16
    for x, y in combinations(desc, 2):  # two pair, x over y
        for k in desc:
            if k != x and k != y:
                table[2 * p8[x] + 2 * p8[y] + p8[k]] = (
                    TWO_PAIR << CATEGORY_SHIFT | (x + 2) << 16 | (y + 2) << 12 | (k + 2) << 8)
    return table


def build_nonflush() -> dict[int, int]:
    """``NONFLUSH`` table: rank-multiset key (sum of ``8 ** rank_index``) -> best value.

    Five-card multisets (6,188) are classified directly; a six- or seven-card multiset's
    best hand is the best of its multisets with one card removed, which is exactly "the
    best five-card subset", built up one size at a time. 75,140 entries.

    Each size is built forward from the one below: every (n-1)-multiset plus each rank
    offers its value to the n-multiset it makes, which keeps the largest offer. The offers
    an n-multiset gets are exactly its multisets with one card removed, so the table is the
    same as taking the max over removals, in half the time (~0.06 s instead of ~0.14 s CPU:
    it is built once per process that evaluates in bulk; a showdown needs only the five-card
    part, :func:`build_nonflush5`).
    """
    powers = [8 ** i for i in range(13)]
    table = build_nonflush5()
    smaller = table
    for _n in (6, 7):
        bigger: dict[int, int] = {}
        offered = bigger.get
        for key, value in smaller.items():
            for p in powers:
                if value > offered(key + p, -1):
                    bigger[key + p] = value
        table.update(bigger)
        smaller = bigger
    return table


def flush_value(ranks: list[int]) -> int:
    """Best flush-or-straight-flush value from the ranks (2..14) of cards of one suit (>= 5).

    A straight flush needs five distinct ranks in sequence; otherwise the best flush is the
    five highest ranks, repeats included (a multiset A A K 9 5 beats A K Q J 9, since flushes
    compare rank by rank). Pattern categories (full house ...) come from NONFLUSH, and the
    caller takes the larger of the two.
    """
    mask = 0
    for r in ranks:
        mask |= 1 << (r - 2)
    top = STRAIGHT_TOP[mask]
    if top:
        return pack(STRAIGHT_FLUSH, [top])
    return pack(FLUSH, sorted(ranks, reverse=True)[:5])


def build_value_fast() -> Callable[[Sequence[str]], int]:
    """Build the tables and return the scalar evaluator for 5..7 cards.

    Built on demand (the first :func:`nomicpoker.core.poker.evaluator.value7` call), not at import,
    so the CLI and the engine, which only need :func:`best_hand`, never pay for it. The
    returned closure binds every table as a local cell: cheaper than global lookups.
    """
    nonflush = build_nonflush()
    key_of = CARD_KEY.__getitem__
    flush_suit = FLUSH_SUIT
    card_rank = CARD_RANK
    suits = SUITS

    def value_fast(cards: Sequence[str]) -> int:
        """Value of the best five of 5..7 cards (the caller checks the count)."""
        key = sum(map(key_of, cards))
        v = nonflush[key >> 12]
        s = flush_suit[key & 4095]
        if s >= 0:
            suit = suits[s]
            f = flush_value([card_rank[c] for c in cards if c[1] == suit])
            if f > v:
                return f
        return v

    return value_fast


#: the five-card subsets of 5, 6 and 7 cards as index tuples, in ``itertools.combinations``
#: order (the order :func:`nomicpoker.core.poker.evaluator.best_hand` enumerates them in)
_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(combinations(range(n), 5)) for n in (5, 6, 7)}


def build_first_best() -> Callable[[Sequence[str]], tuple[int, tuple[int, ...]]]:
    """Build the five-card table and return ``first_best(cards)``: for 5..7 card instances,
    the best five-card value and the index tuple of the *first* five-card subset (in
    ``combinations`` order) that has it, which is the subset ``best_hand`` reports.

    Why: a showdown needs the five cards that play, not only the value; this finds them
    with one key sum and one lookup per subset, from the small table. Each subset is valued
    exactly as the scalar path values five cards (the larger of its rank pattern and, when
    all five share a suit, its flush), so the value equals :func:`build_value_fast`'s."""
    nonflush5 = build_nonflush5()
    key_of = CARD_KEY.__getitem__
    flush_suit = FLUSH_SUIT
    card_rank = CARD_RANK
    subsets = _SUBSETS

    def first_best(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
        keys = list(map(key_of, cards))
        best = -1
        at: tuple[int, ...] = ()
        for idx in subsets[len(keys)]:
            a, b, c, d, e = idx
            key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
            v = nonflush5[key >> 12]
            if flush_suit[key & 4095] >= 0:
                f = flush_value([card_rank[cards[i]] for i in idx])
                if f > v:
                    v = f
            if v > best:
                best, at = v, idx
        return best, at

    return first_best
