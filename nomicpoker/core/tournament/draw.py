"""Seat draws from a committed seed (core), reproducible by anyone who has the seed.

The Dealer commits to the tournament's seed (its sha256 is published when the tournament is
created) and publishes the seed when play starts; every draw is then a function of the seed
and public names alone, so an auditor recomputes it with ``sha256sum``::

    key(purpose, item) = sha256( seed + "\\n" + purpose + "\\n" + item )   (hex, UTF-8)

- **The seat draw** (purpose ``seats``, or ``redraw N`` for the N-th redraw): the players in
  ascending order of their key (ties, impossible in practice, by name); with ``T`` tables
  (the fewest that seat everyone), the i-th player (from 0) sits at table ``i mod T + 1``,
  seat ``i div T + 1``: tables that differ by at most one player.
- **The button** (purpose ``button <purpose> table <n>``): Robert's "the starting position of
  the button is determined by the players drawing for the high card by suit". The 52 cards in
  ascending order of their key form the deck; one card is dealt to each seated player,
  clockwise from seat 1; the highest card by rank, then suit (spades, hearts, diamonds,
  clubs), takes the button.
- **A redraw** (WRGPT, from WRGPT8): "the pool of surviving players is randomly assigned to
  new tables, as before. Within each table, players are assigned seats based on average cost
  per hand played so far. The player who has spent the least amount of money in blinds per
  hand becomes the big blind and the player who has spent the most becomes the button."
  "Players who are resigned will automatically draw the big blind."
- **Seating order from a broken table** (purpose ``break <event>``): Robert's "Drawing a card
  is used to determine things like who gets the button in a new game, or seating order coming
  from a broken game": the broken table's players pick their new seats in ascending key order.

:func:`seat_log` is WRGPT's ``SEATLOG``: "a detailed report about the starting seat
assignment".
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from nomicpoker.core.poker.cards import FULL_DECK, RANKS
from nomicpoker.core.tournament.seating import Positions, SeatingError, TableSeats, drawn_table

#: Robert's "high card by suit": spades above hearts above diamonds above clubs
SUIT_ORDER = "cdhs"


def key(seed: str, purpose: str, item: str) -> str:
    """The draw key of ``item`` (module docstring)."""
    return hashlib.sha256(f"{seed}\n{purpose}\n{item}".encode("utf-8")).hexdigest()


def in_draw_order(seed: str, purpose: str, items: Sequence[str]) -> tuple[str, ...]:
    """``items`` in ascending order of their draw key."""
    return tuple(sorted(items, key=lambda x: (key(seed, purpose, x), x)))


def card_value(card: str) -> tuple[int, int]:
    """A card's rank, then suit, for the high-card draw (``As`` beats ``Ah`` beats ``Ks``)."""
    return RANKS.index(card[0]), SUIT_ORDER.index(card[1])


def deck(seed: str, purpose: str) -> tuple[str, ...]:
    return in_draw_order(seed, purpose, FULL_DECK)


@dataclass(frozen=True)
class SeatLogLine:
    """One player's line of the seat draw: the key, the order it gave, the table and seat,
    and the card drawn for the button (empty after a redraw, where positions come from the
    costs per hand)."""

    player: str
    key: str
    order: int
    table: int
    seat: int
    card: str
    button: bool
    cost_per_hand: Fraction | None = None


@dataclass(frozen=True)
class Draw:
    """The tables a draw makes and its log (what SEATLOG prints)."""

    purpose: str
    tables: tuple[TableSeats, ...]
    log: tuple[SeatLogLine, ...]


def table_count(players: int, table_size: int) -> int:
    """The fewest tables of ``table_size`` that seat ``players``."""
    return -(-players // table_size)


def seat_draw(seed: str, players: Sequence[str], table_size: int, purpose: str = "seats",
              first_table: int = 1) -> Draw:
    """The random seat draw (module docstring), tables numbered from ``first_table``."""
    _check_players(players)
    order = in_draw_order(seed, purpose, players)
    count = table_count(len(order), table_size)
    seats: list[list[str | None]] = [[None] * table_size for _ in range(count)]
    place: dict[str, tuple[int, int]] = {}
    for i, p in enumerate(order):
        seats[i % count][i // count] = p
        place[p] = (i % count + first_table, i // count + 1)
    tables, cards = [], {}
    for n in range(count):
        number = n + first_table
        d = deck(seed, f"button {purpose} table {number}")
        dealt = [(s, p, d[k]) for k, (s, p) in enumerate((i + 1, p) for i, p in enumerate(seats[n]) if p is not None)]
        best = max(dealt, key=lambda x: card_value(x[2]))
        tables.append(drawn_table(number, tuple(seats[n]), best[0]))
        cards.update({p: (c, p == best[1]) for _s, p, c in dealt})
    log = tuple(SeatLogLine(p, key(seed, purpose, p), i + 1, *place[p], *cards[p]) for i, p in enumerate(order))
    return Draw(purpose, tuple(tables), log)


@dataclass(frozen=True)
class Entrant:
    """A survivor at a redraw: what WRGPT's seat assignment reads."""

    player: str
    blinds_paid: int = 0
    hands_played: int = 0
    resigned: bool = False

    @property
    def cost_per_hand(self) -> Fraction:
        return Fraction(self.blinds_paid, self.hands_played) if self.hands_played else Fraction(0)


def redraw(seed: str, number: int, entrants: Sequence[Entrant], table_size: int) -> Draw:
    """WRGPT's redraw (module docstring). At each table, seats clockwise from seat 1: the
    small blind (second-least cost per hand), the big blind (least), then rising cost, the
    button last (most); resigned players first of all, so they draw the big blind. Equal
    costs are ordered by the draw key. Heads-up the button (most) posts the small blind."""
    purpose = f"redraw {number}"
    by_name = {e.player: e for e in entrants}
    base = seat_draw(seed, [e.player for e in entrants], table_size, purpose)
    tables, log = [], []
    keys = {line.player: line for line in base.log}
    for t in base.tables:
        ranked = sorted(t.players(), key=lambda p: (not by_name[p].resigned, by_name[p].cost_per_hand,
                                                     keys[p].key))
        n = len(ranked)
        if n == 2:  # seat 1 the big blind, seat 2 the button (and small blind)
            layout = [ranked[0], ranked[1]]
            pos = Positions(2, 2, 1)
        else:  # SB, BB, the rest rising, the button last
            layout = [ranked[1], ranked[0], *ranked[2:]]
            pos = Positions(n, n, 1)  # so that the next hand is button n, small blind 1, big blind 2
        seats = tuple(layout) + (None,) * (table_size - n)
        table = TableSeats(t.number, seats, pos)
        tables.append(table)
        for s, p in table.occupied():
            line = keys[p]
            log.append(SeatLogLine(p, line.key, line.order, t.number, s, "", s == n,
                                   by_name[p].cost_per_hand))
    log.sort(key=lambda line: line.order)
    return Draw(purpose, tuple(tables), tuple(log))


def seat_log(draw: Draw, seed_hash: str, seed: str | None) -> str:
    """WRGPT's SEATLOG: the draw's recipe and each player's key, order, table, seat and card.
    Before the seed is published (``seed`` None) only its hash is shown."""
    lines = [f"SEATLOG: {draw.purpose}; seed sha256 {seed_hash}"
             + (f", seed {seed}" if seed is not None else " (the seed is published when play starts)"),
             f"key = sha256(seed + \"\\n\" + \"{draw.purpose}\" + \"\\n\" + name); ascending key order;"
             f" {len(draw.tables)} table(s): the i-th player (from 0) sits at table i mod {len(draw.tables)} + 1,"
             f" seat i div {len(draw.tables)} + 1"
             + ("; within a table, seats by cost per hand (least: big blind, most: button)"
                if draw.purpose.startswith("redraw") else "; button: high card by suit (s > h > d > c)")]
    for line in draw.log:
        extra = (f" cost/hand {float(line.cost_per_hand):.2f}" if line.cost_per_hand is not None
                 else f" card {line.card}")
        lines.append(f"{line.order:>4} {line.player:<20} table {line.table:>3} seat {line.seat:>2}"
                     f"{extra}{' BUTTON' if line.button else ''}  {line.key[:16]}")
    return "\n".join(lines)


def _check_players(players: Sequence[str]) -> None:
    if len(players) < 2:
        raise SeatingError("too_few", f"{len(players)} player(s): a tournament needs two")
    seen = set()
    for p in players:
        if p in seen:
            raise SeatingError("duplicate", f"{p} is entered twice")
        seen.add(p)


__all__ = ["Draw", "Entrant", "SUIT_ORDER", "SeatLogLine", "card_value", "deck", "in_draw_order", "key", "redraw",
           "seat_draw", "seat_log", "table_count"]
