"""Eliminations, places and payouts (core).

WRGPT: "eliminated players are ranked in reverse order of elimination" (and live players by
their chips; "in case of ties, tied players are ranked in an irrelevant order": here by name,
so the listing is stable). Robert's: "If multiple players go broke on the same hand, the player
starting the hand with the larger chip stack, at the start of the hand finishes in the higher
ranking position." Players who went broke on the same hand with equal starting stacks share a
place, and share its prize and the next ones' equally (what is left after an equal split goes
one each to the tied players in name order, so no prize is lost).

A disqualified player: "Chips from a disqualified participant will be removed from play." He
takes no place and no prize; the places are counted among the others.

Eliminations are given in the order they happened, each with the tournament-wide sequence
number of the hand that ended it (``hand``: any increasing number; hands that ended at the same
step of play, at two tables, are two different numbers: their order is the ledger's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class Elimination:
    player: str
    hand: int
    stack_at_start: int
    disqualified: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` (None for a disqualified player), the chips of a
    live player (0 when out), whether the player is out, and the prize (0 when none)."""

    place: int | None
    player: str
    chips: int
    out: bool
    prize: int = 0
    disqualified: bool = False


def standings(chips: Mapping[str, int], eliminations: Sequence[Elimination],
              payouts: Sequence[int] = ()) -> tuple[Standing, ...]:
    """Every entrant's place: live players by chips (most first), then the eliminated in
    reverse order of elimination (same hand: larger starting stack first; equal: one place),
    then the disqualified without a place. ``chips`` holds the live players only. Prizes go
    to the places that are final: the eliminated, and the winner once he is the last left."""
    out_names = {e.player for e in eliminations}
    live = sorted((p for p in chips if p not in out_names), key=lambda p: (-chips[p], p))
    rows: list[tuple[int, str, int, bool]] = []  # (place, player, chips, out)
    place = 1
    for p in live:
        rows.append((place, p, chips[p], False))
        place += 1
    counted = [e for e in eliminations if not e.disqualified]
    by_hand: dict[int, list[Elimination]] = {}
    for e in counted:
        by_hand.setdefault(e.hand, []).append(e)
    for hand in sorted(by_hand, reverse=True):
        group = sorted(by_hand[hand], key=lambda e: (-e.stack_at_start, e.player))
        i = 0
        while i < len(group):
            tied = [e for e in group[i:] if e.stack_at_start == group[i].stack_at_start]
            for e in tied:
                rows.append((place, e.player, 0, True))
            place += len(tied)
            i += len(tied)
    prizes = _prizes([r[0] for r in rows], [r[1] for r in rows], payouts)
    if len(live) > 1:  # a live player's place is not final: no prize shown until he is out or has won
        prizes = {p: v for p, v in prizes.items() if p not in live}
    table = [Standing(pl, p, c, o, prizes.get(p, 0)) for pl, p, c, o in rows]
    table += [Standing(None, e.player, 0, True, 0, True) for e in eliminations if e.disqualified]
    return tuple(table)


def _prizes(places: list[int], players: list[str], payouts: Sequence[int]) -> dict[str, int]:
    """Each player's prize; players sharing a place share the prizes of the places they span."""
    out: dict[str, int] = {}
    i = 0
    while i < len(places):
        j = i
        while j < len(places) and places[j] == places[i]:
            j += 1
        group = sorted(players[i:j])
        pot = sum(payouts[k] for k in range(i, j) if k < len(payouts))
        share, rest = divmod(pot, len(group))
        for n, p in enumerate(group):
            out[p] = share + (1 if n < rest else 0)
        i = j
    return out


def format_standings(rows: Sequence[Standing]) -> str:
    """The standings as plain lines (SCORE/L: every entrant, the eliminated included)."""
    lines = []
    for r in rows:
        where = "DQ" if r.disqualified else f"{r.place:>3}."
        state = "disqualified" if r.disqualified else ("out" if r.out else f"{r.chips} chips")
        lines.append(f"{where} {r.player} ({state})" + (f": prize {r.prize}" if r.prize else ""))
    return "\n".join(lines)


__all__ = ["Elimination", "Standing", "format_standings", "standings"]
