"""Pots: the main pot, side pots, uncalled bets and how a pot is split. Pure functions.

Why a module of its own: the two rulesets disagree here more than anywhere else. Robert's
Rules build a side pot for every all-in level and return a bet nobody matched; the 2008
"Dealing and Play" text has neither ("the winner adds to his Money an amount equal to the
amount of Money in the Pot"). Both readings are functions of the same inputs (what each
player put in, who folded), so they live side by side and the engine picks by parameter.

Players are referred to by index (seat order); the caller maps indices to names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the indices of the players who may win it."""

    amount: int
    eligible: tuple[int, ...]


def uncalled(contributions: Sequence[int]) -> tuple[int | None, int]:
    """The part of the largest contribution nobody matched: ``(index, amount)``.

    Only one player can hold an unmatched excess (everyone else put in less); the excess is
    the difference to the second-largest contribution. ``(None, 0)`` when the top is matched.
    """
    top = -1
    top_i: int | None = None
    second = 0
    for i, c in enumerate(contributions):
        if c > top:
            second = max(second, top)
            top, top_i = c, i
        elif c > second:
            second = c
    if top_i is None or top <= second:
        return None, 0
    return top_i, top - second


def build_pots(
    contributions: Sequence[int],
    live: Sequence[bool],
    dead: int = 0,
    side_pots: bool = True,
) -> tuple[Pot, ...]:
    """Main and side pots from what each player put in and who has not folded.

    With ``side_pots`` every distinct contribution level of the players makes a layer; a
    layer is won among the live players who reached it. Adjacent layers with the same
    eligible players merge (one pot per all-in level that matters). A layer nobody live
    reached (only folded chips) joins the pot below it: folded chips never start a pot of
    their own. ``dead`` (a big-blind ante or dead antes, which buy no eligibility) goes to the
    main pot, which every live player may win: a player all in on a dead ante alone still
    contests it (it becomes a pot of its own below the first layer when he reached none).

    Without ``side_pots`` there is one pot of everything, eligible to every live player:
    the 2008 text's "the winner adds to his Money an amount equal to the amount of Money in
    the Pot".
    """
    n = len(contributions)
    everyone_live = tuple(i for i in range(n) if live[i])
    total = sum(contributions) + dead
    if not side_pots:
        return (Pot(total, everyone_live),) if total else ()
    levels = sorted({c for c in contributions if c > 0})
    pots: list[list] = []  # [amount, eligible]
    prev = 0
    for level in levels:
        amount = 0
        eligible = []
        for i in range(n):
            c = contributions[i]
            if c > prev:
                amount += (c if c < level else level) - prev
                if c >= level and live[i]:
                    eligible.append(i)
        prev = level
        el = tuple(eligible)
        if pots and (not el or pots[-1][1] == el):
            pots[-1][0] += amount
        elif not el:
            pots.append([amount, everyone_live])
        else:
            pots.append([amount, el])
    if dead:
        # dead money is contested by every player still in, even one whose chips went in as
        # dead money alone (all in on a big-blind or dead ante), as pokerkit reads it
        if pots and pots[0][1] == everyone_live:
            pots[0][0] += dead
        else:
            pots.insert(0, [dead, everyone_live])
    return tuple(Pot(a, e) for a, e in pots)


def split(
    amount: int,
    winners: Sequence[int],
    odd_chips: str,
    clockwise_key: Callable[[int], int],
) -> tuple[dict[int, int], int]:
    """Split ``amount`` equally among ``winners``: ``(shares, destroyed)``.

    ``odd_chips``:

    - ``"destroy"`` — "they split the Pot equally with all fractions rounded down": each gets
      ``amount // n`` and the remainder leaves the game (returned as ``destroyed``).
    - ``"first_left_of_button"`` — Robert's odd chip rules 4 and 5a: the remainder goes one
      chip each to the winners in clockwise order starting left of the button
      (``clockwise_key`` gives a winner's distance from the button; smaller is first).
    """
    n = len(winners)
    share, rem = divmod(amount, n)
    shares = {w: share for w in winners}
    if not rem:
        return shares, 0
    if odd_chips == "destroy":
        return shares, rem
    for w in sorted(winners, key=clockwise_key)[:rem]:
        shares[w] += 1
    return shares, 0
