"""Balancing and breaking tables, the final table merge, and seating a late entrant (core).

Robert's Rules, tournament section:

- "As players are eliminated, tables are broken in a pre-set order, with players from the
  broken tables assigned to empty seats at other tables." A table is broken as soon as the
  players left fit in one table fewer; the table broken is the next of the structure's
  ``breaking_order`` still in play. Its players take their seats in the order of a draw
  ("Drawing a card is used to determine things like ... seating order coming from a broken
  game"), each at the table with the fewest players, in its seat earliest due for the big blind.
- "The number of players at each table will be kept reasonably balanced by the transfer of a
  player as needed." Here: whenever two tables differ by more than one player, one player moves
  from the fullest table to the emptiest one.
- "if a player is needed to move from a table to balance tables, the player due for the big
  blind will be automatically selected to move, and will be given the earliest seat due for the
  big blind if more than one seat is open."
- The final table merge: when the players left fit at one table, every table still in play is
  broken into the last table of the breaking order and its seats are drawn afresh (seats and
  button, as at the start: :func:`~nomicpoker.core.tournament.draw.seat_draw`).

Ties between tables (two equally full tables, two equally empty ones) go by the breaking
order: players move out of the table that will be broken sooner, and into the one that will be
broken later, so nobody is moved twice when it can be helped.

:func:`rebalance` is pure: the tables (between hands) and the breaking order in, the new tables
and the list of moves out; the shell announces each move in the tables' threads before the
next hand there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from nomicpoker.core.tournament.draw import in_draw_order, seat_draw
from nomicpoker.core.tournament.seating import SeatingError, TableSeats, big_blind_due, seats_due_for_big_blind

MoveReason = Literal["balance", "break", "final", "late_entry", "redraw"]


@dataclass(frozen=True)
class Move:
    """One player's change of seat (``from_table`` 0: a late entrant)."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason

    def describe(self) -> str:
        where = f"table {self.to_table} seat {self.to_seat}"
        if self.reason == "late_entry":
            return f"{self.player} enters late at {where}"
        why = {"balance": "to balance the tables", "break": f"table {self.from_table} is broken",
               "final": "the final table", "redraw": "the seats are redrawn"}[self.reason]
        return f"{self.player} moves from table {self.from_table} seat {self.from_seat} to {where} ({why})"


@dataclass(frozen=True)
class Plan:
    """What :func:`rebalance` decided: the tables in play after it, the moves in order, the
    tables it broke, and whether it made the final table."""

    tables: tuple[TableSeats, ...]
    moves: tuple[Move, ...]
    broken: tuple[int, ...] = ()
    final: bool = False


def rebalance(tables: Sequence[TableSeats], breaking_order: Sequence[int], seed: str, event: str) -> Plan:
    """Break what must be broken, then balance (module docstring). ``event`` names this step
    for the draws it makes (``break <event>``, ``final <event>``), so each is reproducible."""
    live = [t for t in tables if t.players()]
    emptied = tuple(t.number for t in tables if not t.players())
    rank = _rank(breaking_order, [t.number for t in tables])
    players = sum(len(t.players()) for t in live)
    size = max(t.size for t in tables)
    moves: list[Move] = []
    broken: list[int] = list(emptied)
    if len(live) > 1 and players <= size:
        return _final(live, rank, seed, event, broken)
    while len(live) > 1 and players <= (len(live) - 1) * size:
        victim = min(live, key=lambda t: rank[t.number])
        live.remove(victim)
        broken.append(victim.number)
        for p in in_draw_order(seed, f"break {event}", victim.players()):
            target = min(live, key=lambda t: (len(t.players()), -rank[t.number]))
            seat = seats_due_for_big_blind(target)[0]
            moves.append(Move(p, victim.number, victim.seat_of(p), target.number, seat, "break"))
            live[live.index(target)] = target.with_seat(seat, p)
    while len(live) > 1:
        counts = [len(t.players()) for t in live]
        if max(counts) - min(counts) <= 1:
            break
        source = min((t for t in live if len(t.players()) == max(counts)), key=lambda t: rank[t.number])
        target = min((t for t in live if len(t.players()) == min(counts)), key=lambda t: -rank[t.number])
        seat_from, p = big_blind_due(source)
        seat_to = seats_due_for_big_blind(target)[0]
        moves.append(Move(p, source.number, seat_from, target.number, seat_to, "balance"))
        live[live.index(source)] = source.without(p)
        live[live.index(target)] = live[live.index(target)].with_seat(seat_to, p)
    return Plan(tuple(sorted(live, key=lambda t: t.number)), tuple(moves), tuple(broken))


def _final(live: list[TableSeats], rank: dict[int, int], seed: str, event: str, broken: list[int]) -> Plan:
    """Every player to the final table, seats and button drawn afresh."""
    final = max(live, key=lambda t: rank[t.number])
    where = {p: (t.number, t.seat_of(p)) for t in live for p in t.players()}
    draw = seat_draw(seed, list(where), final.size, f"final {event}", first_table=final.number)
    table = draw.tables[0]
    moves = tuple(Move(line.player, *where[line.player], table.number, line.seat, "final") for line in draw.log)
    broken += [t.number for t in live if t.number != final.number]
    return Plan((table,), moves, tuple(broken), final=True)


def seat_late_entrant(tables: Sequence[TableSeats], player: str, breaking_order: Sequence[int]) -> tuple[TableSeats, Move]:
    """A late entrant's seat: at the table with the fewest players (the latest in the breaking
    order among equals), in its seat earliest due for the big blind. Robert's: "A new player
    assumes the position of the available seat and is dealt right into the game, except when
    seated between the button and the small blind." (then the player waits, as
    :func:`~nomicpoker.core.tournament.seating.dealt_in` says)."""
    if any(player in t.players() for t in tables):
        raise SeatingError("duplicate", f"{player} is already seated")
    rank = _rank(breaking_order, [t.number for t in tables])
    open_tables = [t for t in tables if t.players() and seats_due_for_big_blind(t)]
    if not open_tables:
        raise SeatingError("no_seat", f"no empty seat for {player}: every table in play is full")
    target = min(open_tables, key=lambda t: (len(t.players()), -rank[t.number]))
    seat = seats_due_for_big_blind(target)[0]
    new = tuple(t.with_seat(seat, player) if t.number == target.number else t for t in tables)
    return new, Move(player, 0, 0, target.number, seat, "late_entry")


def redraw_moves(tables: Sequence[TableSeats], drawn: Sequence[TableSeats], breaking_order: Sequence[int]) -> Plan:
    """WRGPT's redraw carried onto the tables in play: the draw's table ``i`` (numbered from 1,
    :func:`~nomicpoker.core.tournament.draw.redraw`) is the ``i``-th table in play that breaks
    last, so the tables kept are the ones the breaking order keeps longest. A move for every
    player whose table or seat changes; the plan's tables carry the drawn positions."""
    live = [t for t in tables if t.players()]
    rank = _rank(breaking_order, [t.number for t in tables])
    kept = sorted((t.number for t in live), key=lambda n: -rank[n])[:len(drawn)]
    where = {p: (t.number, s) for t in live for s, p in t.occupied()}
    out, moves = [], []
    for d, number in zip(sorted(drawn, key=lambda t: t.number), kept):
        out.append(TableSeats(number, d.seats, d.last))
        for s, p in d.occupied():
            if where[p] != (number, s):
                moves.append(Move(p, *where[p], number, s, "redraw"))
    broken = tuple(t.number for t in live if t.number not in kept)
    return Plan(tuple(sorted(out, key=lambda t: t.number)), tuple(moves), broken)


def _rank(order: Sequence[int], numbers: Sequence[int]) -> dict[int, int]:
    """table -> its place in the breaking order (0: broken first); tables the order leaves out
    (none, once the start checked it) are broken after the named ones, highest number first."""
    rank = {t: i for i, t in enumerate(order)}
    extra = sorted((n for n in numbers if n not in rank), reverse=True)
    rank.update({n: len(order) + i for i, n in enumerate(extra)})
    return rank


__all__ = ["Move", "MoveReason", "Plan", "rebalance", "redraw_moves", "seat_late_entrant"]
