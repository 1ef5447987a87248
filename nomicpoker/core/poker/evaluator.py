"""Poker hand evaluation over *multisets* of cards.

Why not a library: in Dealing and Play every player draws from their own deck, so the same
card can occur twice at a table and even twice in one hand (hole AsAh, board AdAcAs2c3d is
five aces). treys, pokerkit, phevaluator and eval7 all assume one 52-card deck and give
wrong answers or crash on such hands (docs/evaluator.md records what each does). Here each
card *instance* is used at most once, ranks may repeat up to any count, and five of a kind
ranks above a straight flush.

Two independent implementations live side by side and the tests compare them:

* the reference path: :func:`evaluate5` classifies five cards directly by grouping ranks,
  and :func:`best_hand` maximises it over every five-card subset of the card instances
  (honouring ``min_hole_cards``); it also yields the cards used and a human name;
* the fast path: :func:`value7` sums per-card integer keys and looks the sum up in tables
  built at import (:mod:`nomicpoker.core.poker.evaluator_tables`).

Values are plain ints, totally ordered, higher is better, equal exactly when hands tie:
``category << 20`` plus five 4-bit tie-break ranks (2..14), most significant first.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from nomicpoker.core.poker.cards import RANK_NAMES, RANK_PLURALS, RANKS, Card
from nomicpoker.core.poker.evaluator_tables import (
    CARD_KEY,
    CATEGORY_SHIFT,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    build_first_best,
    build_value_fast,
    pack,
)

__all__ = [
    "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH",
    "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "FIVE_OF_A_KIND", "CATEGORY_NAMES",
    "HandValue", "EvaluatorError", "evaluate5", "best_hand", "value7", "first_best", "category_of",
]

CATEGORY_NAMES: tuple[str, ...] = (
    "High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight", "Flush",
    "Full House", "Four of a Kind", "Straight Flush", "Five of a Kind",
)

_RANK_CHAR = {i + 2: r for i, r in enumerate(RANKS)}  # 2..14 -> "2".."A"


@dataclass(frozen=True)
class EvaluatorError(ValueError):
    """Input no hand can be made from. ``code`` is stable: ``too_few_cards``, ``bad_card``,
    ``not_five_cards``, ``bad_min_hole_cards``."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class HandValue:
    """The best five-card hand: comparable ``value``, its category, the cards, a name.

    ``cards`` is ordered for display: the biggest group first (trips before the pair of a
    full house, the pair before kickers), higher ranks first within equal groups, straights
    from the top card down (the wheel as 5 4 3 2 A).
    """

    value: int
    category: int
    cards: tuple[Card, ...]
    name: str


def category_of(value: int) -> int:
    """The category constant packed into a value (from :func:`value7` or HandValue.value)."""
    return value >> CATEGORY_SHIFT


def _check_cards(cards: Sequence[Card]) -> None:
    for c in cards:
        if c not in CARD_KEY:
            raise EvaluatorError("bad_card", f"{c!r} is not a canonical card like '7h' or 'Ts'")


_RANK_OF: dict[Card, int] = {r + s: i + 2 for i, r in enumerate(RANKS) for s in "shdc"}
_rank_value = _RANK_OF.__getitem__  # "7h" -> 7, "Ac" -> 14

_PATTERN = {
    (5,): FIVE_OF_A_KIND, (4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE,
    (3, 1, 1): THREE_OF_A_KIND, (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): ONE_PAIR,
    (1, 1, 1, 1, 1): HIGH_CARD,
}


def _classify5(cards: Sequence[Card], with_order: bool = True) -> tuple[int, list[int], list[Card]]:
    """Category, tie-break ranks and display order of exactly five cards (reference path).

    With repeats several categories can apply at once (Ah Ah Ah Kh Kh is a full house *and*
    a flush); the hand is the best of them. A rank pattern (five/four of a kind, full house,
    trips, pairs) never coexists with a straight, which needs five distinct ranks; a flush
    can accompany any pattern, and beats only trips and below.
    """
    ranks = [_rank_value(c) for c in cards]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Groups biggest first, then higher rank first: (count, rank).
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    group_ranks = [r for _, r in groups]
    flush = len({c[1] for c in cards}) == 1

    straight_top = 0
    if len(counts) == 5:
        hi = max(ranks)
        if hi - min(ranks) == 4:
            straight_top = hi
        elif sorted(ranks) == [2, 3, 4, 5, 14]:
            straight_top = 5

    pattern = _PATTERN[shape]

    if straight_top:
        order = sorted(cards, key=_rank_value, reverse=True) if with_order else []
        if straight_top == 5 and with_order:  # wheel: the ace plays low
            order = order[1:] + order[:1]
        return (STRAIGHT_FLUSH if flush else STRAIGHT), [straight_top], order
    if flush and pattern < FLUSH:
        order = sorted(cards, key=_rank_value, reverse=True) if with_order else []
        return FLUSH, sorted(ranks, reverse=True), order
    if not with_order:
        return pattern, group_ranks, []
    by_group = sorted(cards, key=lambda c: (counts[_rank_value(c)], _rank_value(c)), reverse=True)
    return pattern, group_ranks, by_group


#: The name of each category, from its first two tiebreak ranks: ``{a}``/``{b}`` is a rank's
#: name ("Seven"), ``{as}``/``{bs}`` its plural ("Sevens"). Scheme in docs/evaluator.md.
_NAME_FORMS: dict[int, str] = {
    FIVE_OF_A_KIND: "Five of a Kind, {as}",
    STRAIGHT_FLUSH: "Straight Flush, {a} high",
    FOUR_OF_A_KIND: "Four of a Kind, {as}",
    FULL_HOUSE: "Full House, {as} over {bs}",
    FLUSH: "Flush, {a} high",
    STRAIGHT: "Straight, {a} high",
    THREE_OF_A_KIND: "Three of a Kind, {as}",
    TWO_PAIR: "Two Pair, {as} and {bs}",
    ONE_PAIR: "Pair of {as}",
    HIGH_CARD: "High Card, {a}",
}


def _name(category: int, tiebreak: list[int]) -> str:
    """Human name; scheme documented in docs/evaluator.md."""
    if category == STRAIGHT_FLUSH and tiebreak[0] == 14:
        return "Royal Flush"
    ranks = [_RANK_CHAR[r] for r in tiebreak[:2]]
    words = {"a": RANK_NAMES[ranks[0]], "as": RANK_PLURALS[ranks[0]]}
    if len(ranks) > 1:
        words.update(b=RANK_NAMES[ranks[1]], bs=RANK_PLURALS[ranks[1]])
    return _NAME_FORMS[category].format_map(words)


def _value5(cards: Sequence[Card]) -> int:
    category, tiebreak, _ = _classify5(cards, with_order=False)
    return pack(category, tiebreak)


def evaluate5(cards: Sequence[Card]) -> HandValue:
    """Evaluate exactly five cards (a multiset: repeats allowed)."""
    if len(cards) != 5:
        raise EvaluatorError("not_five_cards", f"evaluate5 needs exactly 5 cards, got {len(cards)}")
    _check_cards(cards)
    category, tiebreak, order = _classify5(cards)
    return HandValue(pack(category, tiebreak), category, tuple(order), _name(category, tiebreak))


def best_hand(hole: Sequence[Card], board: Sequence[Card], min_hole_cards: int = 0) -> HandValue:
    """Best five-card hand from ``hole + board``, each card instance used at most once.

    ``min_hole_cards`` is how many of the five must come from ``hole``: 0 for standard
    hold'em (playing the board is allowed), 1 for Dealing and Play ("including one or both
    of such Seated Player's Hole Cards"). Among subsets of equal value the first in
    enumeration order (hole cards first) is reported, so the result is deterministic.
    """
    if min_hole_cards < 0 or min_hole_cards > 5:
        raise EvaluatorError("bad_min_hole_cards", f"min_hole_cards must be 0..5, got {min_hole_cards}")
    allc = tuple(hole) + tuple(board)
    _check_cards(allc)
    if len(allc) < 5:
        raise EvaluatorError("too_few_cards", f"a poker hand needs 5 cards, got {len(allc)}")
    if len(hole) < min_hole_cards:
        raise EvaluatorError(
            "too_few_cards",
            f"must use at least {min_hole_cards} hole card(s) but only {len(hole)} given",
        )
    nh = len(hole)
    best: tuple[int, tuple[int, ...]] | None = None
    k = min_hole_cards - 1
    for idx in combinations(range(len(allc)), 5):
        # idx is ascending and hole cards are indices 0..nh-1, so "at least k+1 hole
        # cards" is exactly "the (k+1)-th smallest index is a hole index".
        if k >= 0 and idx[k] >= nh:
            continue
        v = _value5([allc[i] for i in idx])
        if best is None or v > best[0]:
            best = (v, idx)
    assert best is not None  # len(allc) >= 5 and nh >= min_hole_cards guarantee a subset
    return evaluate5([allc[i] for i in best[1]])


def _first_value_fast(cards: Sequence[Card]) -> int:
    """Build the tables on first use, then route every later call straight to them."""
    global _value_fast
    _value_fast = build_value_fast()
    return _value_fast(cards)


_value_fast = _first_value_fast


def value7(cards: Sequence[Card]) -> int:
    """Value of the best five of ``cards`` (5..7 fast; more via :func:`best_hand`).

    Equal to ``best_hand(cards, (), 0).value``. No hole-card constraint, no names: this is
    the scalar path for bulk work (cross-checks, benchmarks, equity estimates).
    """
    n = len(cards)
    if 5 <= n <= 7:
        try:
            return _value_fast(cards)
        except (KeyError, TypeError, IndexError):
            _check_cards(cards)
            raise
    if n < 5:
        raise EvaluatorError("too_few_cards", f"a poker hand needs 5 cards, got {n}")
    return best_hand(tuple(cards), (), 0).value


def _first_best_first(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Build the five-card table on first use, then route every later call straight to it."""
    global _first_best
    _first_best = build_first_best()
    return _first_best(cards)


_first_best = _first_best_first


def first_best(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """``(value, idx)`` for 5..7 card instances: the best five-card value and the indices of
    the first five-card subset (in ``itertools.combinations`` order) that has it: the
    subset ``best_hand(cards, (), 0)`` reports. The fast path behind a showdown, which
    needs the cards that play; it builds only the five-card table (see
    :func:`nomicpoker.core.poker.evaluator_tables.build_first_best`)."""
    n = len(cards)
    if not 5 <= n <= 7:
        raise EvaluatorError("not_five_to_seven_cards", f"first_best takes 5 to 7 cards, got {n}")
    try:
        return _first_best(cards)
    except (KeyError, TypeError, IndexError):
        _check_cards(cards)
        raise
