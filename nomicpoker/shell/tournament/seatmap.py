"""Where every player of a tournament sits now (shell): the seats of each table, rebuilt from the
tournament's events and its tables' ledgers, for balancing, breaking and the dead button.

- The seats come from the start's draw (``start``), then each ``moves`` event (balancing,
  breaking, the final table, a redraw: each move says from which table and seat to which),
  then the positions a ``moves`` event drew afresh (the final table, a redraw).
- A player is in play while he has chips at his table (Money, or chips in a running hand's
  pot); an eliminated or disqualified player's seat is empty.
- The positions of the last hand dealt at a table (button, small blind, big blind, as seat
  numbers) come from that hand's record when a hand was dealt since the last draw there, else
  from the draw (:func:`nomicpoker.core.tournament.seating.drawn_table`).

Nothing here writes: :mod:`.moves` records what the core decides from this map.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlmodel import Session

from nomicpoker.core.tournament.seating import Positions, TableSeats, drawn_table
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import HandRow, loads
from nomicpoker.shell.tournament.director import events


@dataclass
class SeatMap:
    """A tournament's tables now: ``tables`` by number (live players only), their ledger
    ``names``, the hand running at each (0: none), each live player's chips, and ``history``:
    the last seat each player had at each table (how an old hand's button is placed)."""

    tables: dict[int, TableSeats] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    running: dict[int, int] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)
    history: dict[tuple[int, str], int] = field(default_factory=dict)
    hands: dict[int, int] = field(default_factory=dict)  # hands dealt at each table

    def number_of(self, table: str) -> int:
        return next(n for n, t in self.names.items() if t == table)

    def live(self) -> list[TableSeats]:
        return [t for _n, t in sorted(self.tables.items()) if t.players()]

    def players(self) -> list[str]:
        return [p for t in self.live() for p in t.players()]


def seat_map(session: Session, name: str) -> SeatMap:
    """The tournament's seats now (module docstring); an empty map before the start."""
    m = SeatMap()
    seats: dict[int, list[str | None]] = {}
    drawn: dict[int, tuple[Positions, int]] = {}  # table -> (positions drawn, hands dealt then)
    disqualified = set()
    for ev in events(session, name):
        data = loads(ev.data)
        if ev.kind == "start":
            for t in data["tables"]:
                m.names[t["number"]] = t["table"]
                seats[t["number"]] = list(t["seats"])
                drawn[t["number"]] = (drawn_table(t["number"], tuple(t["seats"]), t["button"]).last, 0)
        elif ev.kind == "moves":
            for mv in data["moves"]:
                src = mv["from_table"]
                if src and seats[src][mv["from_seat"] - 1] == mv["player"]:  # 0: a late entrant
                    seats[src][mv["from_seat"] - 1] = None
            for mv in data["moves"]:
                seats[mv["to_table"]][mv["to_seat"] - 1] = mv["player"]
            for t in data.get("drawn", []):
                drawn[t["number"]] = (Positions(*t["last"]), t["hands"])
        elif ev.kind == "disqualify":
            disqualified.add(ev.player)
    for number, row in seats.items():
        for i, p in enumerate(row):
            if p is not None:
                m.history[(number, p)] = i + 1
    for number, tname in sorted(m.names.items()):
        table = ledger.get_table(session, tname)
        money = ledger.current_money(session, table)
        hands = ledger.hand_rows(session, tname)
        ended = {r.hand for r in ledger.stored_rows(session, tname, "hand_end")}
        m.hands[number] = len(hands)
        m.running[number] = hands[-1].number if hands and hands[-1].number not in ended else 0
        row = [p if p is not None and p not in disqualified and money.get(p, 0) > 0 else None
               for p in seats[number]]
        for p in row:
            if p is not None:
                m.chips[p] = money[p]
        last, dealt = drawn[number]
        if hands and hands[-1].number > dealt:
            last = hand_positions(hands[-1], {p: s for (n, p), s in m.history.items() if n == number}) or last
        m.tables[number] = TableSeats(number, tuple(row), last)
    return m


def hand_positions(hand: HandRow, seat_of: dict[str, int]) -> Positions | None:
    """The positions (seat numbers) hand ``hand`` was dealt with: as recorded with it
    (``positions``, a tournament hand), else read from its button and the players dealt in (the
    engine's way: the small blind after the button, heads-up the button; the big blind next)."""
    recorded = loads(getattr(hand, "positions", "") or "{}")
    if recorded:
        return Positions(recorded["button"], recorded["small_blind"], recorded["big_blind"])
    dealt = sorted(seat_of[p] for p, _m in loads(hand.seats) if p in seat_of)
    if hand.button not in seat_of or len(dealt) < 2:
        return None
    b = seat_of[hand.button]
    if len(dealt) == 2:
        return Positions(b, b, next(s for s in dealt if s != b))
    i = dealt.index(b) if b in dealt else 0
    return Positions(b, dealt[(i + 1) % len(dealt)], dealt[(i + 2) % len(dealt)])


def with_last(t: TableSeats, last: Positions) -> TableSeats:
    return replace(t, last=last)


__all__ = ["SeatMap", "hand_positions", "seat_map"]
