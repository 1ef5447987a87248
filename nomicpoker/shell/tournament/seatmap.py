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

from sqlmodel import Session, select

from nomicpoker.core.tournament.seating import Positions, TableSeats, drawn_table
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
    broken: set[int] = set()
    for ev in events(session, name, ("start", "moves", "disqualify")):  # not the rail's records
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
            broken |= set(data.get("broken", ()))
        elif ev.kind == "disqualify":
            disqualified.add(ev.player)
    for number, row in seats.items():
        for i, p in enumerate(row):
            if p is not None:
                m.history[(number, p)] = i + 1
    now = _tables_now(session, list(m.names.values()), {m.names[n] for n in broken})
    for number, tname in sorted(m.names.items()):
        money, count, last_hand, last_ended = now[tname]
        m.hands[number] = count
        m.running[number] = last_hand.number if last_hand is not None and last_hand.number > last_ended else 0
        row = [p if p is not None and p not in disqualified and money.get(p, 0) > 0 else None
               for p in seats[number]]
        for p in row:
            if p is not None:
                m.chips[p] = money[p]
        last, dealt = drawn[number]
        if last_hand is not None and last_hand.number > dealt:
            last = hand_positions(last_hand, {p: s for (n, p), s in m.history.items() if n == number}) or last
        m.tables[number] = TableSeats(number, tuple(row), last)
    return m


def _tables_now(session: Session, names: list[str], broken: set[str] = frozenset()  # type: ignore[assignment]
                ) -> dict[str, tuple[dict[str, int], int, HandRow | None, int]]:
    """For each table, in a handful of queries whatever the number of tables: each seated
    player's chips (Money and Pot, as ``ledger.current_money``), the hands dealt, the last
    hand's record and the last hand ended. ``broken``: the tables a ``moves`` event broke
    (every player with chips moved out: their players' chips are 0 here, unread).

    WHY batched: ``hand start`` and ``tournament advance`` read the whole tournament's seats; a
    thousand players sit at over a hundred tables, and per-table reads of every change log
    grew with the tournament's history."""
    from sqlalchemy import func

    from nomicpoker.core.table.fold_types import DealerEvent
    from nomicpoker.core.table.roster import ROSTER_KINDS, roster
    from nomicpoker.shell.storage.store import DealerEventRow, EntryRow, HandEndRow, TableRow

    if not names:
        return {}
    tables = {t.name: t for t in session.exec(select(TableRow).where(TableRow.name.in_(names))).all()}  # type: ignore[attr-defined]
    moves: dict[str, list[DealerEvent]] = {}
    for r in session.exec(select(DealerEventRow).where(DealerEventRow.table_name.in_(names),  # type: ignore[attr-defined]
                                                       DealerEventRow.kind.in_(ROSTER_KINDS))  # type: ignore[attr-defined]
                          .order_by(DealerEventRow.id)).all():
        moves.setdefault(r.table_name, []).append(DealerEvent(after=r.after, hand=r.hand, kind=r.kind, player=r.player,
                                                              at=r.at, data=loads(r.data or "{}") or {}))
    players = {n: roster(loads(tables[n].players), moves.get(n, ())) for n in names}
    # the change logs of the tables not broken (a broken table's is history: late in a
    # tournament most tables are broken, and the Money query read all of their rows)
    seated = [n for n in names if players[n] and n not in broken]
    latest = (select(func.max(EntryRow.id)).where(EntryRow.table_name.in_(seated),  # type: ignore[attr-defined]
                                                  EntryRow.column.in_(("Money", "Pot")))  # type: ignore[attr-defined]
              .group_by(EntryRow.table_name, EntryRow.player, EntryRow.column))
    cells: dict[tuple[str, str, str], str] = {}
    for t, p, c, v in session.exec(select(EntryRow.table_name, EntryRow.player, EntryRow.column, EntryRow.new)
                                   .where(EntryRow.id.in_(latest))).all():  # type: ignore[attr-defined]
        cells[(t, p, c)] = v
    counts = dict(session.exec(select(HandRow.table_name, func.count(HandRow.id))  # type: ignore[arg-type]
                               .where(HandRow.table_name.in_(names)).group_by(HandRow.table_name)).all())  # type: ignore[attr-defined]
    top = (select(HandRow.table_name.label("t"), func.max(HandRow.number).label("n"))  # type: ignore[attr-defined]
           .where(HandRow.table_name.in_(names)).group_by(HandRow.table_name).subquery())  # type: ignore[attr-defined]
    last_hands = {h.table_name: h for h in session.exec(select(HandRow).join(
        top, (HandRow.table_name == top.c.t) & (HandRow.number == top.c.n))).all()}
    ended = dict(session.exec(select(HandEndRow.table_name, func.max(HandEndRow.hand))  # type: ignore[arg-type]
                              .where(HandEndRow.table_name.in_(names)).group_by(HandEndRow.table_name)).all())  # type: ignore[attr-defined]
    out = {}
    for name in names:
        table = tables[name]
        money = {p: 0 if name in broken else int(cells.get((name, p, "Money"), table.money))
                 + int(cells.get((name, p, "Pot"), 0)) for p in players[name]}
        out[name] = (money, int(counts.get(name, 0)), last_hands.get(name), int(ended.get(name) or 0))
    return out


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
