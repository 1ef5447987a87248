"""The boards still to come, grouped into classes that every player values alike.

Why: exact equity must weigh every way the remaining board cards can fall (1,712,304 boards
for a heads-up all-in before the flop with one shared deck, 2,598,960 with own decks), but
most of those boards differ only in suits that matter to nobody. A hand's value depends on
the board's rank multiset and, for the one suit that can make somebody a flush, on which
ranks of that suit the board holds. So the boards are counted, not listed:

* a *flush class* ``(s, F, M')``: the new cards of suit ``s`` are exactly the ranks ``F``
  and the others have ranks ``M'`` in any other suits, where the board's cards of suit ``s``
  reach that suit's *threshold* ``t_s`` (five minus the most cards of ``s`` any player holds:
  fewer and nobody can make a flush in ``s``). Its weight is the number of real boards it
  stands for: ``prod(available (r, s) for r in F) * prod(C(available ranks r outside s,
  m'_r))``;
* a *rank class* ``M``: every other board with new ranks ``M``. No suit reaches its
  threshold, so nobody has a flush and only ranks matter; its weight is all the boards with
  ranks ``M`` (``prod C(available of rank r, m_r)``) less its flush classes.

With at most two hole cards every threshold is at least 3, so at most one suit of a 5-card
board reaches it and the classes are disjoint; the weights sum to ``C(available, k)``
(checked on every call). Each class carries a *representative* board: real cards of its
ranks, with suits chosen so that it reaches exactly the flushes of its class (the cards need
not be available ones: only ranks and suit counts decide a value).

Used by :mod:`nomicpoker.core.poker.equity`; pure (no I/O, clock or randomness).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

__all__ = ["BoardClasses", "board_classes", "NEVER"]

#: A suit's threshold when nobody can make a flush in it (a board holds at most five cards).
NEVER = 6
_BINOM = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)
_BASE5 = np.int64(5) ** np.arange(13, dtype=np.int64)


@dataclass(frozen=True)
class BoardClasses:
    """The boards still to come as classes: ``boards[i]`` (card codes, known cards first)
    stands for ``weights[i]`` real boards; ``total`` is how many boards there are in all."""

    boards: np.ndarray  # (classes, board size) uint8
    weights: np.ndarray  # (classes,) int64, all > 0
    total: int


def _rows(tuples: list[tuple[int, ...]], width: int) -> np.ndarray:
    """A list of equal-length tuples as a (len, width) int64 array (width may be 0)."""
    return np.array(tuples, dtype=np.int64).reshape(len(tuples), width)


def _counts(ranks: np.ndarray) -> np.ndarray:
    """Rank counts (rows, 13) of rows of rank indices."""
    out = np.zeros((len(ranks), 13), dtype=np.int64)
    for col in ranks.T:
        out[np.arange(len(ranks)), col] += 1
    return out


@lru_cache(maxsize=None)
def _rank_templates(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of ``k`` ranks with at most four of a rank: (ranks ascending (T, k),
    counts (T, 13), base-5 keys sorted ascending for lookup)."""
    ranks = _rows([c for c in combinations_with_replacement(range(13), k)
                   if not c or max(c.count(r) for r in set(c)) <= 4], k)
    counts = _counts(ranks)
    keys = counts @ _BASE5
    order = np.argsort(keys)
    return ranks[order], counts[order], keys[order]


@lru_cache(maxsize=None)
def _flush_templates(k: int, f: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flush classes of ``k`` new cards with exactly ``f`` of the flush suit, as the
    product of ``F`` (every set of ``f`` ranks) and ``M'`` (every multiset of ``k - f``
    ranks, at most three of a rank), ``F``-major: (``F`` ranks (nF, f), ``M'`` counts
    (nM', 13), index of each pair's whole rank multiset among :func:`_rank_templates` ``(k)``,
    (nF * nM',))."""
    subsets = _rows(list(combinations(range(13), f)), f)
    others = _rows([c for c in combinations_with_replacement(range(13), k - f)
                    if not c or max(c.count(r) for r in set(c)) <= 3], k - f)
    m_counts = _counts(others)
    whole = ((_counts(subsets) @ _BASE5)[:, None] + (m_counts @ _BASE5)[None, :]).ravel()
    _, _, keys = _rank_templates(k)
    return subsets, m_counts, np.searchsorted(keys, whole)


@lru_cache(maxsize=None)
def _flush_cards(k: int, f: int, s: int) -> np.ndarray:
    """The representative new cards of every flush class ``(k, f)`` in suit ``s``: ``F`` in
    suit ``s``, the ``M'`` ranks (ascending) in the other suits in turn."""
    subsets = _rows(list(combinations(range(13), f)), f)
    others = _rows([c for c in combinations_with_replacement(range(13), k - f)
                    if not c or max(c.count(r) for r in set(c)) <= 3], k - f)
    other_suits = np.array([x for x in range(4) if x != s], dtype=np.int64)
    f_cards = np.repeat(subsets * 4 + s, len(others), axis=0)
    m_cards = np.tile(others * 4 + other_suits[np.arange(k - f) % 3], (len(subsets), 1))
    return np.concatenate([f_cards, m_cards], axis=1)


def _spread_suits(known_suits: np.ndarray, thresholds: np.ndarray, k: int) -> np.ndarray:
    """Suits for ``k`` new cards that keep every suit below its threshold, given the known
    board's suit counts: each card goes to the suit with the most room left (ties: lowest
    suit). When no such spread exists no rank class has any weight, so any spread serves."""
    counts = known_suits.copy()
    out = np.zeros(k, dtype=np.int64)
    for j in range(k):
        room = thresholds - 1 - counts
        s = int(np.argmax(room))
        out[j] = s
        counts[s] += 1
    return out


def board_classes(known: np.ndarray, available: np.ndarray, thresholds: np.ndarray,
                  board_size: int = 5) -> BoardClasses:
    """The classes of the boards that complete ``known`` (card codes) to ``board_size`` cards
    from the ``available`` cards (a (13, 4) bool array: rank, suit), for players whose suit
    thresholds are ``thresholds`` ((4,) ints, each 3..5 or :data:`NEVER`)."""
    known = np.asarray(known, dtype=np.int64)
    k = board_size - len(known)
    avail = np.asarray(available, dtype=np.int64)
    per_rank = avail.sum(axis=1)
    total = comb(int(avail.sum()), k)
    known_suits = np.bincount(known % 4, minlength=4)
    r_ranks, r_counts, _ = _rank_templates(k)
    r_weights = _BINOM[per_rank[None, :], r_counts].prod(axis=1)
    boards: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for s in range(4):
        if thresholds[s] >= NEVER:
            continue
        outside = per_rank - avail[:, s]
        for f in range(max(0, int(thresholds[s] - known_suits[s])), k + 1):
            subsets, m_counts, index = _flush_templates(k, f)
            w = np.outer(avail[subsets, s].prod(axis=1),
                         _BINOM[outside[None, :], m_counts].prod(axis=1)).ravel()
            keep = np.flatnonzero(w)
            if not keep.size:
                continue
            w = w[keep]
            r_weights -= np.bincount(index[keep], weights=w, minlength=len(r_weights)).astype(np.int64)
            boards.append(_flush_cards(k, f, s)[keep])
            weights.append(w)
    keep = np.flatnonzero(r_weights)
    suits = _spread_suits(known_suits, np.asarray(thresholds), k)
    boards.append(r_ranks[keep] * 4 + suits[None, :])
    weights.append(r_weights[keep])
    new = np.concatenate(boards) if boards else np.zeros((0, k), dtype=np.int64)
    w = np.concatenate(weights)
    if int(w.sum()) != total or (w < 0).any():  # pragma: no cover - the counting's contract
        raise AssertionError(f"board classes weigh {int(w.sum())} boards, not {total}")
    full = np.concatenate([np.broadcast_to(known, (len(new), len(known))), new], axis=1)
    return BoardClasses(boards=full.astype(np.uint8), weights=w, total=total)
