"""Lookup tables behind the fast scalar path :func:`nomicpoker.evaluator.value7`.

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

Values are packed integers, see :func:`pack`. The build enumerates the 75,140 rank
multisets once, at import; docs/benchmarks.md records its cost.

This module is pure (no I/O, clock or randomness) and imports nothing from the rest of the
package except the card alphabet, so the evaluator's reference path and this fast path are
two independent implementations that the tests compare.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from nomicpoker.cards import RANKS, SUITS

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


STRAIGHT_TOP: tuple[int, ...] = tuple(_straight_top(m) for m in range(1 << 13))

CARD_KEY: dict[str, int] = {
    r + s: (8 ** (4 + ri)) + (8 ** si)
    for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)
}
#: Rank value 2..14 of each canonical card.
CARD_RANK: dict[str, int] = {r + s: ri + 2 for ri, r in enumerate(RANKS) for s in SUITS}

FLUSH_SUIT: tuple[int, ...] = tuple(
    next((si for si in range(4) if (key >> (3 * si)) & 7 >= 5), -1) for key in range(1 << 12)
)


def nonflush_value(counts: list[int]) -> int:
    """Best value of any five cards drawn from a rank multiset, ignoring suits.

    ``counts[i]`` is how many cards of rank index ``i`` (0 = deuce .. 12 = ace) there are,
    at least five in all. Categories are tried best first; each uses the highest ranks it
    can, so the first category that fits gives the maximum.
    """
    desc = [i for i in range(12, -1, -1) if counts[i]]
    for i in desc:
        if counts[i] >= 5:
            return pack(FIVE_OF_A_KIND, [i + 2])
    for i in desc:
        if counts[i] == 4:
            kicker = next(j for j in desc if j != i)
            return pack(FOUR_OF_A_KIND, [i + 2, kicker + 2])
    trips = [i for i in desc if counts[i] == 3]
    pairs = [i for i in desc if counts[i] == 2]
    if trips:
        t = trips[0]
        partner = [j for j in desc if j != t and counts[j] >= 2]
        if partner:
            return pack(FULL_HOUSE, [t + 2, partner[0] + 2])
    mask = 0
    for i in desc:
        mask |= 1 << i
    top = STRAIGHT_TOP[mask]
    if top:
        return pack(STRAIGHT, [top])
    if trips:
        t = trips[0]
        return pack(THREE_OF_A_KIND, [t + 2] + [j + 2 for j in desc if j != t][:2])
    if len(pairs) >= 2:
        p, q = pairs[0], pairs[1]
        kicker = next(j for j in desc if j != p and j != q)
        return pack(TWO_PAIR, [p + 2, q + 2, kicker + 2])
    if pairs:
        p = pairs[0]
        return pack(ONE_PAIR, [p + 2] + [j + 2 for j in desc if j != p][:3])
    return pack(HIGH_CARD, [j + 2 for j in desc[:5]])


def _build_nonflush() -> dict[int, int]:
    table: dict[int, int] = {}
    for n in (5, 6, 7):
        for combo in combinations_with_replacement(range(13), n):
            counts = [0] * 13
            key = 0
            for i in combo:
                counts[i] += 1
                key += 8 ** i
            table[key] = nonflush_value(counts)
    return table


#: Keyed by the rank part of the card-key sum (``sum >> 12``).
NONFLUSH: dict[int, int] = _build_nonflush()


def flush_value(ranks: list[int]) -> int:
    """Best flush-or-straight-flush value from the ranks (2..14) of cards of one suit (>= 5).

    A straight flush needs five distinct ranks in sequence; otherwise the best flush is the
    five highest ranks, repeats included (a multiset A A K 9 5 beats A K Q J 9, since flushes
    compare rank by rank). Pattern categories (full house ...) come from NONFLUSH.
    """
    mask = 0
    for r in ranks:
        mask |= 1 << (r - 2)
    top = STRAIGHT_TOP[mask]
    if top:
        return pack(STRAIGHT_FLUSH, [top])
    return pack(FLUSH, sorted(ranks, reverse=True)[:5])


def value_fast(cards) -> int:
    """Value of the best five of 5..7 cards via the tables (callers check the count)."""
    key = 0
    for c in cards:
        key += CARD_KEY[c]
    v = NONFLUSH[key >> 12]
    s = FLUSH_SUIT[key & 4095]
    if s >= 0:
        suit = SUITS[s]
        f = flush_value([CARD_RANK[c] for c in cards if c[1] == suit])
        if f > v:
            return f
    return v
