"""One tournament table's seats and where the button and the blinds go (core).

Seats are numbered 1..size clockwise. A table remembers the positions of the last hand dealt
there; the next hand's positions follow Robert's Rules' **dead button**: "The big blind is
posted by the player due for it, and the small blind and button are positioned accordingly,
even if this means the small blind or the button is placed in front of an empty seat, giving
the same player the privilege of last action on consecutive hands." So:

- the big blind moves to the next occupied seat clockwise (a player moved into an empty seat
  before it posts it: the seat "due for the big blind");
- the small blind is the seat that had the big blind: if its player is gone (eliminated or
  moved) "there will be no small blind" (WRGPT);
- the button is the seat that had the small blind, occupied or not (a dead button).

Heads-up, "the small blind is on the button" (Robert's): the player who is not the big blind.
A player seated strictly between the button and the small blind is not dealt in ("NO PLAYER
MAY BE DEALT IN BETWEEN THE BUTTON OR SMALL BLIND. YOU MUST WAIT TILL THE BUTTON PASSES.").

WHY positions are seats and not players: the dead button and the dead small blind are
positions in front of empty seats, and a player's seat (not his name) is what balancing reads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from nomicpoker.core.errors import CodedError


class SeatingError(CodedError):
    """Codes: ``too_few`` (a hand needs two players), ``seat_taken``, ``no_seat``,
    ``not_seated``."""


@dataclass(frozen=True)
class Positions:
    """Where the button, the small blind and the big blind are, as seat numbers. The small
    blind is posted only if its seat is occupied (``small_blind_posted``); the button may be
    dead (an empty seat). Heads-up ``button == small_blind``."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True)
class TableSeats:
    """A tournament table: its number, its seats (``seats[i]`` is seat ``i + 1``'s player or
    None) and the positions of the last hand dealt there (``last``; after a draw, the
    positions that make the drawn button the first hand's button)."""

    number: int
    seats: tuple[str | None, ...]
    last: Positions

    @property
    def size(self) -> int:
        return len(self.seats)

    def occupied(self) -> tuple[tuple[int, str], ...]:
        """(seat, player) clockwise from seat 1."""
        return tuple((i + 1, p) for i, p in enumerate(self.seats) if p is not None)

    def players(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p is not None)

    def player_at(self, seat: int) -> str | None:
        return self.seats[seat - 1]

    def seat_of(self, player: str) -> int:
        for i, p in enumerate(self.seats):
            if p == player:
                return i + 1
        raise SeatingError("not_seated", f"{player} has no seat at table {self.number}")

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, starting with the one after ``seat``."""
        return tuple((seat + k - 1) % self.size + 1 for k in range(1, self.size + 1))

    def next_occupied(self, seat: int) -> int:
        for s in self.clockwise_from(seat):
            if self.seats[s - 1] is not None:
                return s
        raise SeatingError("too_few", f"table {self.number} has nobody seated")

    def with_seat(self, seat: int, player: str | None) -> TableSeats:
        seats = list(self.seats)
        if player is not None and seats[seat - 1] is not None:
            raise SeatingError("seat_taken", f"seat {seat} of table {self.number} is taken by {seats[seat - 1]}")
        seats[seat - 1] = player
        return replace(self, seats=tuple(seats))

    def without(self, player: str) -> TableSeats:
        return self.with_seat(self.seat_of(player), None)


def drawn_table(number: int, seats: tuple[str | None, ...], button: int) -> TableSeats:
    """A table fresh from a draw whose first hand's button is ``button`` (an occupied seat).
    ``last`` is set so that :func:`next_positions` gives exactly that first hand: with the
    small blind on the first seat after the button and the big blind on the next."""
    t = TableSeats(number, seats, Positions(button, button, button))
    if len(t.occupied()) < 2:
        raise SeatingError("too_few", f"table {number} has {len(t.occupied())} player(s): a hand needs two")
    heads_up = len(t.occupied()) == 2
    before_bb = button if heads_up else t.next_occupied(button)
    return replace(t, last=Positions(button, button, before_bb))


def next_positions(t: TableSeats) -> Positions:
    """The positions of the next hand at ``t`` (the dead-button rule; module docstring)."""
    seated = t.occupied()
    if len(seated) < 2:
        raise SeatingError("too_few", f"table {t.number} has {len(seated)} player(s): a hand needs two")
    bb = t.next_occupied(t.last.big_blind)
    if len(seated) == 2:  # "In heads-up play with two blinds, the small blind is on the button."
        other = next(s for s, _ in seated if s != bb)
        return Positions(other, other, bb)
    return Positions(t.last.small_blind, t.last.big_blind, bb)


def small_blind_posted(t: TableSeats, pos: Positions) -> bool:
    """Whether a small blind is posted: "If the player with the big blind is eliminated there
    will be no small blind" (the seat that had it is empty)."""
    return t.player_at(pos.small_blind) is not None


def dealt_in(t: TableSeats, pos: Positions) -> tuple[str, ...]:
    """The players dealt into the hand, clockwise from the seat after the button: everyone
    seated but a player strictly between the button and the small blind (who waits until the
    button passes)."""
    if pos.button == pos.small_blind:
        waiting: set[int] = set()
    else:
        order = t.clockwise_from(pos.button)
        waiting = set(order[:order.index(pos.small_blind)])
    return tuple(t.player_at(s) for s in t.clockwise_from(pos.button)  # type: ignore[misc]
                 if t.player_at(s) is not None and s not in waiting)


def after_hand(t: TableSeats, pos: Positions) -> TableSeats:
    """The table once the hand at ``pos`` was dealt (its positions become ``last``)."""
    return replace(t, last=pos)


def big_blind_due(t: TableSeats) -> tuple[int, str]:
    """(seat, player) of the player due for the big blind next hand: the one Robert's moves
    when a player is needed to balance tables."""
    s = next_positions(t).big_blind
    return s, t.player_at(s)  # type: ignore[return-value]


def seats_due_for_big_blind(t: TableSeats) -> tuple[int, ...]:
    """The empty seats of ``t``, earliest due for the big blind first: clockwise from the seat
    after the last big blind (a player seated there posts the big blind next hand, or the
    soonest after it)."""
    return tuple(s for s in t.clockwise_from(t.last.big_blind) if t.player_at(s) is None)


__all__ = ["Positions", "SeatingError", "TableSeats", "after_hand", "big_blind_due", "dealt_in", "drawn_table",
           "next_positions", "seats_due_for_big_blind", "small_blind_posted"]
