"""The summary that opens a hand's page: who won what, with which five cards, and why.

"Pair of Fives" beating "Pair of Fives" says nothing; a reader wants "Pair of Fives, ace
kicker". :func:`why_it_won` names the card that decided between two hands of the same name,
the way a dealer calls it: the first card, in the order hands are compared (the biggest group
first, then the kickers from the highest down), where the two hands differ.

Pure: five-card hands in, words out.
"""

from __future__ import annotations

from typing import Sequence

from nomicpoker.core.poker.cards import RANK_NAMES
from nomicpoker.core.poker.evaluator import (
    FLUSH, FOUR_OF_A_KIND, HIGH_CARD, ONE_PAIR, THREE_OF_A_KIND, TWO_PAIR, evaluate5,
)

__all__ = ["why_it_won", "ORDINALS"]

ORDINALS = ("first", "second", "third", "fourth", "fifth")

#: categories whose name does not give every card that counts (the rest: kickers)
_KICKERS = {ONE_PAIR: 2, TWO_PAIR: 4, THREE_OF_A_KIND: 3, FOUR_OF_A_KIND: 4, HIGH_CARD: 1, FLUSH: 1}


def _rank(card: str) -> str:
    return RANK_NAMES[card[0]].lower()


def why_it_won(winner: Sequence[str], loser: Sequence[str]) -> str:
    """What decided between the winner's best five and the loser's when both hands have the
    same name (``"ace kicker, over king"``; ``"third card queen, over jack"`` for a flush or high card);
    ``""`` when the names already differ or the hands tie."""
    w, lo = evaluate5(list(winner)), evaluate5(list(loser))
    if w.name != lo.name or w.value <= lo.value or w.category not in _KICKERS:
        return ""
    for i, (a, b) in enumerate(zip(w.cards, lo.cards)):
        if a[0] != b[0]:
            if w.category in (FLUSH, HIGH_CARD):
                return f"{ORDINALS[i]} card {_rank(a)}, over {_rank(b)}"
            return f"{_rank(a)} kicker, over {_rank(b)}"
    return ""  # pragma: no cover - equal ranks throughout means equal values
