"""A tournament as the ledger says (shell): its structure, tables and standings, and the
SEATLOG, for ``tournament show`` and ``tournament seatlog``.

The standings read each table's GNDT (Money) and its hand starts: a player whose Money is 0
after the last hand he was dealt into has ended is out, eliminated in that hand, with the stack
he started it with (Robert's same-hand rule reads it). Hands of different tables are ordered by
their start time, then table number.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from nomicpoker.core.tournament.clock_rules import day_number, level_for
from nomicpoker.core.tournament.draw import seat_log
from nomicpoker.core.tournament.places import Elimination, Standing, standings
from nomicpoker.core.tournament.structure import Structure
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import loads
from nomicpoker.shell.tournament.director import (TournamentError, draw_of, entrants, events, get, structure_of,
                                                  tables_of)


@dataclass(frozen=True)
class TableView:
    name: str
    number: int
    seats: tuple[tuple[str, int], ...]  # (player, Money) in seat order
    hands: int
    level: int


def structure_lines(s: Structure) -> list[str]:
    """The structure as announced at the start ("This will be announced at the start of the
    tournament.")."""
    unit = "hands at each table" if s.levels_by == "hands" else "days"
    out = [f"structure: {s.table_size} seats a table, {s.starting_money} chips each, ruleset {s.ruleset}; "
           f"antes and blinds go up after each multiple of {s.level_length} {unit}:"]
    out += [f"  {lv.describe()}" for lv in s.levels]
    order = s.breaking_order if isinstance(s.breaking_order, str) else ", ".join(map(str, s.breaking_order))
    limit = s.vacation_hands_per_day
    out.append(f"tables broken: {order}; hands a day while someone is on vacation: "
               f"{'no limit' if limit is None else limit}")
    if s.payouts:
        out.append("payouts: " + ", ".join(f"{_ordinal(i + 1)} {p}" for i, p in enumerate(s.payouts)))
    # every key the director set is announced, and said so where the tables do not apply it yet
    if s.late_entry_levels:
        out.append(f"late entry until level {s.late_entry_levels} ends (tournament enter seats a late entrant "
                   "at the table with the fewest players)")
    if s.redraw_every_levels:
        out.append(f"seats redrawn when every {s.redraw_every_levels} levels end (once every table has reached "
                   "the level, by tournament advance)")
    if s.start_on_vacation:
        out.append("everybody starts on vacation: a table starts when all its players have sent BACK in its "
                   "thread, or when its deadline has passed")
    return out


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def tables(session: Session, name: str, now: datetime) -> list[TableView]:
    """Each table's players in play now, in seat order, with their chips (after the moves)."""
    from nomicpoker.shell.tournament.seatmap import seat_map

    row = get(session, name)
    structure = structure_of(row)
    if not events(session, name, "start"):
        return []
    m = seat_map(session, name)
    day = day_number(datetime.fromisoformat(row.started), now)
    out = []
    for number, tname in sorted(m.names.items()):
        level = level_for(structure, hands_dealt=m.hands[number], day=day).number
        seats = tuple((p, m.chips[p]) for _s, p in m.tables[number].occupied())
        out.append(TableView(tname, number, seats, m.hands[number], level))
    return out


def current_standings(session: Session, name: str) -> tuple[Standing, ...]:
    row = get(session, name)
    structure = structure_of(row)
    dq = [e.player for e in events(session, name, "disqualify")]
    chips: dict[str, int] = {p: structure.starting_money for p in entrants(session, name)}
    # (started_at, table number, hand number, player, stack at start): the hand number breaks a
    # tie of two hands at one table started in the same second (``started_at`` is to the second),
    # which made them "the same hand" and ranked their players by stacks, not by when they went out
    outs: list[tuple[str, int, int, str, int]] = []
    for number, tname in enumerate(tables_of(session, name), start=1):
        table = ledger.get_table(session, tname)
        money = ledger.current_money(session, table)
        hands = ledger.hand_rows(session, tname)
        ended = {r.hand for r in ledger.stored_rows(session, tname, "hand_end")}
        for p in ledger.roster(session, table):
            if p in dq:
                continue
            chips[p] = money.get(p, 0)
            dealt = [h for h in hands if p in dict(loads(h.seats))]
            if chips[p] == 0 and dealt and dealt[-1].number in ended:
                last = dealt[-1]
                outs.append((last.started_at, number, last.number, p, int(dict(loads(last.seats))[p])))
    outs.sort()
    order = {k: i for i, k in enumerate(sorted({(a, n, h) for a, n, h, _p, _s in outs}), start=1)}
    elims = [Elimination(p, order[(a, n, h)], stack) for a, n, h, p, stack in outs]
    elims += [Elimination(p, 0, 0, disqualified=True) for p in dq]
    live = {p: c for p, c in chips.items() if p not in {e.player for e in elims}}
    return standings(live, elims, structure.payouts)


def seatlog(session: Session, name: str) -> str:
    """WRGPT's SEATLOG for the tournament's starting draw, recomputed from the published seed
    and checked against the draw recorded at the start."""
    row = get(session, name)
    [start] = events(session, name, "start") or [None]
    if start is None or not row.seed:
        raise TournamentError("not_started", f"tournament {name} has not started: the seats are drawn by "
                              f"nomicpoker tournament start (the seed's sha256 is {row.seed_hash})")
    players = [e.player for e in events(session, name, "enter") if e.seq < start.seq]
    dq_before = {e.player for e in events(session, name, "disqualify") if e.seq < start.seq}
    draw = draw_of(row, [p for p in players if p not in dq_before], row.seed)
    recorded = [(t["number"], t["seats"], t["button"]) for t in loads(start.data)["tables"]]
    again = [(t.number, list(t.seats), t.last.button) for t in draw.tables]
    if recorded != again:
        raise TournamentError("draw_differs", f"the draw recorded at the start of {name} is not the one its seed "
                              "gives: the ledger was changed, or the entrants were")
    return seat_log(draw, row.seed_hash, row.seed)


def audit_draws(session: Session) -> list[str]:
    """For ``audit``: one line per started tournament, saying whether the draw the ledger
    recorded at its start is the one its published seed gives (and the seed its commitment)."""
    import hashlib

    from sqlmodel import select

    from nomicpoker.shell.storage.tournament_rows import TournamentRow

    out = []
    for row in session.exec(select(TournamentRow).order_by(TournamentRow.id)).all():
        if not row.seed:
            continue
        if hashlib.sha256(row.seed.encode("ascii")).hexdigest() != row.seed_hash:
            out.append(f"tournament {row.name}: DIFFERS: the published seed is not the one committed at creation")
            continue
        try:
            seatlog(session, row.name)
        except TournamentError as exc:
            out.append(f"tournament {row.name}: DIFFERS: {exc.message}")
        else:
            out.append(f"tournament {row.name}: the seat draw is the one its published seed gives")
        out.append(audit_chips(session, row.name))
    return out


def audit_chips(session: Session, name: str) -> str:
    """For ``audit``: a tournament's chips are conserved. The chips at its tables (each
    table's GNDT, Money and Pot, over the players seated there now) are the starting chips of
    every player drawn at the start, less what hands destroyed; and each move's chips are the
    ones its ``move_out`` took from one table and its ``move_in`` brought to the other."""
    from collections import Counter

    row = get(session, name)
    structure = structure_of(row)
    [start] = events(session, name, "start")
    drawn = sum(1 for t in loads(start.data)["tables"] for p in t["seats"] if p is not None)
    total = destroyed = 0
    outs: Counter = Counter()
    ins: Counter = Counter()
    for tname in tables_of(session, name):
        table = ledger.get_table(session, tname)
        total += sum(ledger.current_money(session, table).values())
        destroyed += sum(int(r.destroyed or 0) for r in ledger.stored_rows(session, tname, "hand_end"))
        for ev in ledger.dealer_events(session, tname):
            if ev.kind == "move_out":
                outs[(ev.player, tname, ev.data.get("to"), ev.data.get("chips"))] += 1
            elif ev.kind == "move_in":
                ins[(ev.player, ev.data.get("from"), tname, ev.data.get("chips"))] += 1
    names = {0: "", **{t["number"]: t["table"] for t in loads(start.data)["tables"]}}
    moved: Counter = Counter()
    late = 0
    for ev in events(session, name, "moves"):
        for mv in loads(ev.data)["moves"]:
            moved[(mv["player"], names[mv["from_table"]], names[mv["to_table"]], mv["chips"])] += 1
            late += mv["from_table"] == 0
    drawn += late  # a late entrant brings the starting chips (his move_in has no move_out)
    removed = 0  # a disqualified player's chips, removed from play (his move_out goes to no table)
    for ev in events(session, name, "disqualify"):
        d = loads(ev.data or "{}")
        if d.get("table"):
            moved[(ev.player, d["table"], "", d["chips"])] += 1
            removed += d["chips"]
    expected = drawn * structure.starting_money - destroyed - removed
    if total != expected:
        return (f"tournament {name}: DIFFERS: {total} chips at its tables, not the {expected} its {drawn} "
                f"players started with" + (f" less {destroyed} destroyed" if destroyed else ""))
    if outs != Counter({k: v for k, v in moved.items() if k[1]}) or ins != Counter({k: v for k, v in moved.items() if k[2]}):
        return (f"tournament {name}: DIFFERS: the tables' move_out/move_in events are not the tournament's "
                f"{sum(moved.values())} move(s), chips for chips")
    return (f"tournament {name}: chips conserved: {total} at its tables, {drawn} x {structure.starting_money} at the "
            f"start{f' less {destroyed} destroyed' if destroyed else ''}"
            f"{f' less {removed} removed from play (disqualified)' if removed else ''}; {sum(moved.values())} move(s), "
            "each carrying the same chips out of one table and into the other")


__all__ = ["TableView", "audit_chips", "audit_draws", "current_standings", "seatlog", "structure_lines", "tables"]
