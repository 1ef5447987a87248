"""The evaluator in batch form: millions of 5- to 7-card hands per second with numpy.

Why: exact all-in equity (:mod:`nomicpoker.core.poker.equity`) values every player's hand on
every board class, up to a few hundred thousand evaluations per all-in; the scalar
:func:`nomicpoker.core.poker.evaluator.value7` does ~1 M/s in Python, a numpy pass over arrays
of card codes does tens of millions. The values are exactly ``value7``'s (the packed
integers of docs/evaluator.md: higher is better, equal exactly when hands tie), on
*multisets* too: repeated cards (own decks) and five of a kind are valued as the scalar
path values them. The tests compare every table entry and random hands with ``value7``.

How (docs/evaluator.md, "Batch form"):

* a card is a code ``0..51`` (its index in :data:`nomicpoker.core.poker.cards.FULL_DECK`,
  ``rank * 4 + suit``) and maps to one int64 :data:`KEY`: the suit counts as base-8 digits
  in bits 0..11 (as the scalar path's key) and above them two *compact* rank keys, one for
  the six low ranks (2..7) and one for the seven high ranks (8..A). Each compact key gives
  rank ``r`` a weight such that every multiset of at most seven ranks of the group has its
  own sum (``_WEIGHTS_LOW``/``_WEIGHTS_HIGH``, found greedily: 29,267 and 99,260 at most),
  so a hand's key is the sum of its cards' keys and never carries between fields;
* the rank multisets of 5, 6 and 7 cards (6,188 + 18,564 + 50,388) are numbered densely:
  ``index = LOW[n, low key] + HIGH[high key]`` (``LOW`` gives the start of the block of
  multisets sharing that low part, ``HIGH`` the rank of the high part among those of its
  size), and two int32 tables hold, for each index, the best value of those ranks ignoring
  suits (:data:`nomicpoker.core.poker.evaluator_tables.build_nonflush`, the scalar definition) and
  the best flush or straight flush of those ranks in one suit;
* a hand is then: sum the keys, look its suit counts up in ``FLUSH_SUIT``; the ~3% of
  random hands with five or more cards of a suit also sum that suit's compact rank keys and
  take the larger of the two values.

The tables are built on first use (~0.1 s, a few MB) and never at import, so a process that
evaluates nothing in bulk pays nothing; numpy itself is imported only by the modules that
do bulk work. Pure: no I/O, clock or randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Sequence

import numpy as np

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.evaluator import EvaluatorError
from nomicpoker.core.poker.evaluator_tables import (
    CATEGORY_SHIFT, FLUSH, FLUSH_SUIT, STRAIGHT_FLUSH, STRAIGHT_TOP, build_nonflush5)

__all__ = ["CODE", "KEY", "RANK_KEY", "SUIT_OF", "codes", "evaluate", "evaluate_keys",
           "hand_keys", "suit_keys", "tables"]

#: Card code of each canonical card: its position in FULL_DECK (``rank * 4 + suit``).
CODE: dict[str, int] = {c: i for i, c in enumerate(FULL_DECK)}

#: Weights of the compact rank keys: every multiset of at most seven ranks of a group has its
#: own sum (greedy: each weight is the least keeping all sums distinct; a test re-checks it).
_WEIGHTS_LOW = (1, 8, 57, 256, 1153, 4181)  # ranks 2..7
_WEIGHTS_HIGH = (1, 8, 57, 256, 1153, 4181, 14180)  # ranks 8..A
_LOW_RANKS = len(_WEIGHTS_LOW)
#: bits of the low compact key (its largest sum is 7 * 4181 = 29,267 < 2 ** 15)
LOW_BITS = 15
_LOW_MASK = (1 << LOW_BITS) - 1
#: the suit counts' bits below the rank keys in a card's KEY
SUIT_BITS = 12
_SUITS_MASK = (1 << SUIT_BITS) - 1
#: the most cards one evaluation takes (the compact keys are exact up to seven)
MAX_CARDS = 7


def _rank_key(rank: int) -> int:
    """The compact rank part of a card of rank index ``rank`` (0 = deuce .. 12 = ace)."""
    if rank < _LOW_RANKS:
        return _WEIGHTS_LOW[rank]
    return _WEIGHTS_HIGH[rank - _LOW_RANKS] << LOW_BITS


#: Per card code: the compact rank key alone (a suit's ranks are summed from these) ...
RANK_KEY = np.array([_rank_key(i // 4) for i in range(52)], dtype=np.int64)
#: ... the suit index (0..3, the order of SUITS) ...
SUIT_OF = np.array([i % 4 for i in range(52)], dtype=np.int64)
#: ... and the whole key: suit digit below, rank keys above.
KEY = (RANK_KEY << SUIT_BITS) | (np.int64(1) << (3 * SUIT_OF))


def codes(cards: Sequence[str]) -> np.ndarray:
    """Card codes (int64) of canonical cards; ``EvaluatorError('bad_card')`` for any other."""
    try:
        return np.array([CODE[c] for c in cards], dtype=np.int64)
    except (KeyError, TypeError):
        bad = next(c for c in cards if c not in CODE)
        raise EvaluatorError("bad_card", f"{bad!r} is not a canonical card like '7h' or 'Ts'") from None


@dataclass(frozen=True)
class Tables:
    """The dense tables (see the module docstring). ``low[n, k]`` and ``high[k]`` number the
    rank multisets of ``n`` cards; ``nonflush[i]`` and ``flush[i]`` are their values."""

    low: np.ndarray  # (8, 2**15) int64: block start by cards n and low compact key
    high: np.ndarray  # (2**17,) int64: rank of a high part among those of its size
    nonflush: np.ndarray  # (75,140,) int32
    flush: np.ndarray  # (75,140,) int32
    flush_suit: np.ndarray  # (4096,) int64: suit with 5+ cards, or -1
    #: base-8 rank key (sum of 8 ** rank) of each index: what the tests compare with value7
    key8: np.ndarray


def _group(weights: Sequence[int], first_rank: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every multiset of at most seven ranks of one group, by size: arrays of their compact
    keys and base-8 keys (``sum(8 ** rank)``), in ``combinations_with_replacement`` order
    (their rank within the size)."""
    out = []
    for size in range(MAX_CARDS + 1):
        combos = np.array(list(combinations_with_replacement(range(len(weights)), size)),
                          dtype=np.int64).reshape(-1, size) if size else np.zeros((1, 0), np.int64)
        compact = np.asarray(weights, dtype=np.int64)[combos].sum(axis=1)
        key8 = (np.int64(8) ** (first_rank + combos)).sum(axis=1)
        out.append((compact, key8))
    return out


def _five_card_flushes(key8: np.ndarray) -> np.ndarray:
    """The flush or straight flush of five cards of one suit (ranks as base-8 keys, repeats
    allowed): :func:`nomicpoker.core.poker.evaluator_tables.flush_value`, vectorised."""
    counts = [(key8 >> (3 * r)) & 7 for r in range(13)]
    mask = sum((c > 0).astype(np.int64) << r for r, c in enumerate(counts))
    top = np.asarray(STRAIGHT_TOP, dtype=np.int64)[mask]
    value = np.full(len(key8), FLUSH << CATEGORY_SHIFT, dtype=np.int64)
    seen = np.zeros(len(key8), dtype=np.int64)  # cards placed so far, from the ace down
    for r in range(12, -1, -1):
        for copy in range(5):  # the copy-th card of rank r is the (seen + copy)-th highest
            place = np.minimum(seen + copy, 4)  # (only where copy < count: then it is < 5)
            value |= np.where(copy < counts[r], (r + 2) << (16 - 4 * place), 0)
        seen = seen + counts[r]
    return np.where(top > 0, (STRAIGHT_FLUSH << CATEGORY_SHIFT) | (top << 16), value)


@lru_cache(maxsize=1)
def tables() -> Tables:
    """Build the tables once, on first use (a few hundredths of a second).

    The multisets of ``n`` cards are laid out block by block (one block per low part, its
    high parts in order), which is what ``low``/``high`` number. Five-card values come from
    the scalar five-card table (:func:`nomicpoker.core.poker.evaluator_tables.build_nonflush5`, the
    definition) and a vectorised flush rule; the value of six and seven cards is the best
    over removing one card, as :func:`~nomicpoker.core.poker.evaluator_tables.build_nonflush`
    builds it, here one numpy pass per rank. A test compares every entry with the scalar
    tables."""
    low_group = _group(_WEIGHTS_LOW, 0)
    high_group = _group(_WEIGHTS_HIGH, _LOW_RANKS)
    high = np.zeros(1 << 17, dtype=np.int64)
    for compact, _ in high_group:
        high[compact] = np.arange(len(compact))
    low = np.zeros((MAX_CARDS + 1, 1 << LOW_BITS), dtype=np.int64)
    key8_parts, low_parts, high_parts = [], [], []
    start = 0
    for n in (5, 6, 7):
        for size in range(n + 1):
            l_compact, l_key8 = low_group[size]
            h_compact, h_key8 = high_group[n - size]
            width = len(h_compact)
            low[n, l_compact] = start + width * np.arange(len(l_compact))
            start += width * len(l_compact)
            key8_parts.append((l_key8[:, None] + h_key8[None, :]).ravel())
            low_parts.append(np.repeat(l_compact, width))
            high_parts.append(np.tile(h_compact, len(l_compact)))
    key8 = np.concatenate(key8_parts)
    low_key = np.concatenate(low_parts)
    high_key = np.concatenate(high_parts)
    five = slice(0, _COUNT[5])
    scalar5 = build_nonflush5()
    nonflush = np.zeros(len(key8), dtype=np.int64)
    nonflush[five] = [scalar5[k] for k in key8[five].tolist()]
    flush = np.zeros(len(key8), dtype=np.int64)
    flush[five] = _five_card_flushes(key8[five])
    for n in (6, 7):  # best over removing one card: one pass per rank
        rows = slice(_OFFSET[n], _OFFSET[n] + _COUNT[n])
        k8, lk, hk = key8[rows], low_key[rows], high_key[rows]
        best_nf = np.full(_COUNT[n], -1, dtype=np.int64)
        best_fl = np.full(_COUNT[n], -1, dtype=np.int64)
        for r in range(13):
            has = ((k8 >> (3 * r)) & 7) > 0
            if r < _LOW_RANKS:
                sub = low[n - 1][np.where(has, lk - _WEIGHTS_LOW[r], 0)] + high[hk]
            else:
                sub = low[n - 1][lk] + high[np.where(has, hk - _WEIGHTS_HIGH[r - _LOW_RANKS], 0)]
            sub = np.where(has, sub, 0)  # (rows without the rank: any index, not used)
            best_nf = np.where(has, np.maximum(best_nf, nonflush[sub]), best_nf)
            best_fl = np.where(has, np.maximum(best_fl, flush[sub]), best_fl)
        nonflush[rows], flush[rows] = best_nf, best_fl
    return Tables(low=low, high=high, nonflush=nonflush.astype(np.int32),
                  flush=flush.astype(np.int32),
                  flush_suit=np.asarray(FLUSH_SUIT, dtype=np.int64), key8=key8)


#: rank multisets of n cards (13 ranks, repeats allowed): C(n + 12, 12), and where each
#: size's block starts in the tables
_COUNT = {5: 6188, 6: 18564, 7: 50388}
_OFFSET = {5: 0, 6: 6188, 7: 6188 + 18564}


def evaluate_keys(keys: np.ndarray, suit_rank_keys: np.ndarray | None, n: int,
                  t: Tables | None = None) -> np.ndarray:
    """Values of hands of ``n`` cards (5..7) given their summed :data:`KEY` (``keys``) and,
    for the flush check, each suit's summed :data:`RANK_KEY` (``suit_rank_keys``, shape
    ``(4, len(keys))``; ``None`` when no hand can hold five cards of one suit)."""
    t = t or tables()
    value = t.nonflush[t.low[n][(keys >> SUIT_BITS) & _LOW_MASK] + t.high[keys >> (SUIT_BITS + LOW_BITS)]]
    suit = t.flush_suit[keys & _SUITS_MASK]
    rows = np.flatnonzero(suit >= 0)
    if rows.size:
        if suit_rank_keys is None:
            raise ValueError("a hand has five cards of one suit: pass suit_rank_keys")
        s = suit[rows]
        fk = suit_rank_keys[s, rows]
        count = (keys[rows] >> (3 * s)) & 7
        fv = t.flush[t.low[count, fk & _LOW_MASK] + t.high[fk >> LOW_BITS]]
        value[rows] = np.maximum(value[rows], fv)
    return value


def hand_keys(cards: np.ndarray) -> np.ndarray:
    """Summed :data:`KEY` of each row of card codes (any number of columns up to seven)."""
    cols = np.asarray(cards).T
    keys = KEY[cols[0]]
    for col in cols[1:]:
        keys = keys + KEY[col]
    return keys


def suit_keys(cards: np.ndarray) -> np.ndarray:
    """Per suit, the summed :data:`RANK_KEY` of each row's cards of that suit: ``(4, rows)``."""
    cols = np.asarray(cards, dtype=np.intp).T
    out = np.zeros((4, cols.shape[1]), dtype=np.int64)
    rows = np.arange(cols.shape[1])
    for col in cols:  # one card per row: no (suit, row) pair twice in one column
        out[SUIT_OF[col], rows] += RANK_KEY[col]
    return out


#: rows evaluated per numpy pass: small enough that every intermediate array stays in the
#: CPU cache (a pass over millions of rows at once is memory-bound and ~2x slower)
CHUNK = 1 << 15


def _card_columns(hands: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    """The hands as ``(cards, rows)`` uint8 codes, checked (codes 0..51, 5 to 7 per row)."""
    a = np.asarray(hands)
    if a.ndim != 2 or not 5 <= a.shape[1] <= MAX_CARDS:
        raise EvaluatorError("not_five_to_seven_cards",
                             f"evaluate takes rows of 5 to 7 card codes, got shape {a.shape}")
    if a.dtype != np.uint8:  # any other integer type: check the range, then narrow
        if a.size and (not np.issubdtype(a.dtype, np.integer) or a.min() < 0 or a.max() > 51):
            raise EvaluatorError("bad_card", "card codes are integers 0..51 (positions in FULL_DECK)")
        a = a.astype(np.uint8)
    elif a.size and a.max() > 51:
        raise EvaluatorError("bad_card", "card codes are integers 0..51 (positions in FULL_DECK)")
    return np.ascontiguousarray(a.T)


def evaluate(hands: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    """The value (int32) of each row of ``hands``: card codes (best as uint8), 5 to 7 per
    row, a code may repeat (own decks). Equal to
    :func:`nomicpoker.core.poker.evaluator.value7` of the cards, row by row.

    Raises :class:`nomicpoker.core.poker.evaluator.EvaluatorError`: ``bad_card`` for a code
    outside 0..51, ``not_five_to_seven_cards`` for another width."""
    cols = _card_columns(hands)
    n, rows = cols.shape
    t = tables()
    low, high, nonflush, flush_suit = t.low[n], t.high, t.nonflush, t.flush_suit
    out = np.empty(rows, dtype=np.int32)
    take = np.take
    for at in range(0, rows, CHUNK):
        block = cols[:, at:at + CHUNK]
        keys = take(KEY, block[0])
        for col in block[1:]:
            keys += take(KEY, col)
        value = take(nonflush, take(low, (keys >> SUIT_BITS) & _LOW_MASK)
                     + take(high, keys >> (SUIT_BITS + LOW_BITS)))
        suit = take(flush_suit, keys & _SUITS_MASK)
        flushes = np.flatnonzero(suit >= 0)
        if flushes.size:  # ~3% of random hands: sum that suit's rank keys for these rows only
            s = suit[flushes]
            fk = np.zeros(flushes.size, dtype=np.int64)
            for col in block:
                c = col[flushes]
                fk += np.where(take(SUIT_OF, c) == s, take(RANK_KEY, c), 0)
            count = (keys[flushes] >> (3 * s)) & 7
            fv = t.flush[t.low[count, fk & _LOW_MASK] + t.high[fk >> LOW_BITS]]
            value[flushes] = np.maximum(value[flushes], fv)
        out[at:at + CHUNK] = value
    return out
