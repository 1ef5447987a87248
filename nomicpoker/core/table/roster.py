"""A table's roster (pure): who sits at it now, from the players it was created with and the
dealer events that moved players in and out between hands.

A tournament moves players between tables (Robert's: "players from the broken tables assigned
to empty seats at other tables"; "the transfer of a player as needed"). Each move is two dealer
events, one in each table's ledger, recorded before it takes effect:

- ``move_out`` at the table he leaves: ``player``, ``data`` ``{"chips": his Money, "to": the
  table he goes to, "why": the reason in words}``;
- ``move_in`` at the table he joins: ``player``, ``data`` ``{"chips", "from", "seat": his
  tournament seat number, "why", "roster": the table's players after the move, in GNDT order}``.

WHY the whole roster in ``move_in``: the GNDT order is the seat order at a tournament table, and
only the director knows the seats; naming the order makes the event self-contained, and the
fold checks it is the old roster plus the player (an inconsistent event is refused, never
guessed at). The table's own configuration (``np_table.players``) stays what the table was
created with: it is an input of the fold, and ``audit`` replays from it.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from nomicpoker.core.table.fold_types import DealerEvent, FoldError

MOVE_OUT = "move_out"
MOVE_IN = "move_in"
#: the dealer event kinds that change a table's roster
ROSTER_KINDS = (MOVE_OUT, MOVE_IN)


def after_move(roster: Sequence[str], ev: DealerEvent) -> tuple[str, ...]:
    """The roster once ``ev`` (a ``move_in`` or ``move_out``) took effect; an event that does
    not fit the roster is ``FoldError('bad_event')``."""
    players = tuple(roster)
    if ev.kind == MOVE_OUT:
        if ev.player not in players:
            raise FoldError("bad_event", f"{ev.kind} of {ev.player}, who does not sit at this table "
                            f"({', '.join(players)})")
        return tuple(p for p in players if p != ev.player)
    if ev.kind != MOVE_IN:
        raise FoldError("bad_event", f"dealer event {ev.kind!r} does not change the roster")
    if ev.player in players:
        raise FoldError("bad_event", f"{ev.kind} of {ev.player}, who already sits at this table")
    new = ev.data.get("roster")
    if not isinstance(new, list) or sorted(map(str, new)) != sorted((*players, ev.player)):
        raise FoldError("bad_event", f"{ev.kind} of {ev.player}: its roster {new!r} is not the table's "
                        f"players ({', '.join(players)}) and {ev.player}")
    return tuple(new)


def roster(players: Sequence[str], events: Iterable[DealerEvent]) -> tuple[str, ...]:
    """The roster after every move among ``events`` (other kinds are skipped)."""
    out = tuple(players)
    for ev in events:
        if ev.kind in ROSTER_KINDS:
            out = after_move(out, ev)
    return out


def chips_of(ev: DealerEvent) -> int:
    """The chips a move carries (``FoldError`` if the event does not say a whole number)."""
    chips = ev.data.get("chips")
    if type(chips) is not int or chips < 0:
        raise FoldError("bad_event", f"{ev.kind} of {ev.player} carries no chips count: {dict(ev.data)!r}")
    return chips


__all__ = ["MOVE_IN", "MOVE_OUT", "ROSTER_KINDS", "after_move", "chips_of", "roster"]
