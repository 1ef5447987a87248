"""The words of the chances at an all-in: each player's exact chance to win and tie, pot by
pot, before a street is dealt (docs/equity.md).

Why in words and exact counts: a broadcast shows rounded percentages; an auditor can
recount ours, so each line gives the number of boards won out of all of them, the
percentage (two decimals, never rounded to a false 0% or 100%) and, where a player can
split the pot, the ties and the expected share. Pure: an :class:`Equity` in, Markdown out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from nomicpoker.core.poker.cards import pretty
from nomicpoker.core.poker.equity import Equity, PotChances
from nomicpoker.core.words.gndt import md_escape

__all__ = ["percent", "chances", "no_chances", "BOARD_WORDS"]

#: How the boards still to come are named, by the number of cards to come.
BOARD_WORDS = {5: "boards", 4: "turns, rivers and two flop cards", 3: "flops, turns and rivers",
               2: "turns and rivers", 1: "rivers"}


def percent(part: int | Fraction, whole: int = 1) -> str:
    """``part / whole`` as a percentage with two decimals, rounded half up; a chance that is
    neither nothing nor certain never reads as ``0%`` or ``100%`` (``<0.01%``, ``>99.99%``)."""
    x = Fraction(part) / whole
    if x == 0:
        return "0%"
    if x == 1:
        return "100%"
    hundredths = int(x * 10000 + Fraction(1, 2))
    if hundredths == 0:
        return "<0.01%"
    if hundredths >= 10000:
        return ">99.99%"
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(pretty(c) for c in cards)


def _lines(eq: Equity, pot: PotChances, with_cards: bool) -> list[str]:
    out = []
    for p in pot.eligible:
        who = md_escape(p) + (f" ({_cards(eq.holes[p])})" if with_cards else "")
        wins, ties = pot.wins[p], pot.ties[p]
        line = f"- {who}: wins {wins:,} ({percent(wins, eq.boards)})"
        if ties:
            line += f", ties {ties:,} ({percent(ties, eq.boards)}), share {percent(pot.shares[p])}"
        out.append(line)
    return out


def _source(eq: Equity) -> str:
    left = 52 - len(eq.board) - (sum(len(h) for h in eq.holes.values()) if eq.deck == "shared" else 0)
    if eq.deck == "shared":
        return f"from the {left} unseen cards"
    return f"from the Dealer's {left} cards left (hole cards come from the players' own decks)"


def chances(eq: Equity, street: str) -> str:
    """The chances before ``street`` ("flop", "turn", "river") is dealt.

    One pot: a line per player with the hand as dealt. Side pots: the hands first, then a
    paragraph per pot (``Main pot``, ``Side pot 1`` ... as the payout names them)."""
    what = BOARD_WORDS.get(eq.to_come, "ways to complete the board")
    head = f"Chances before the {street}, over all {eq.boards:,} {what} {_source(eq)}"
    if len(eq.pots) == 1:
        return "\n".join([head + ":"] + _lines(eq, eq.pots[0], True))
    hands = ", ".join(f"{md_escape(p)} {_cards(eq.holes[p])}" for p in eq.players)
    parts = [f"{head}. Hands: {hands}."]
    for i, pot in enumerate(eq.pots):
        label = "Main pot" if i == 0 else f"Side pot {i}"
        players = ", ".join(md_escape(p) for p in pot.eligible)
        parts.append("\n".join([f"{label} {pot.amount} ({players}):"] + _lines(eq, pot, False)))
    return "\n\n".join(parts)


def no_chances(street: str, why: str) -> str:
    """Why no chances are given before ``street`` (``why`` is already Markdown-safe)."""
    return f"No chances before the {street}: {why}."
