"""``hand start`` at a tournament's table (shell): the tournament's rules before the deal.

At a table of a tournament, before :func:`nomicpoker.shell.dealer.service.start_hand` deals:

- a paused or finished tournament deals no hand (``paused`` / ``finished``);
- a table a move waits for (balancing, a break, the final table) deals no hand until
  ``tournament advance`` made it (``moves_pending``): players move between hands;
- WRGPT's vacation hand limit: "there may be limits imposed on the number of hands that can be
  played per day while someone is on vacation" (``held``);
- the level in force ("the new limits apply on the next deal", Robert's) becomes the table's
  forced bets first, announced in its thread as ``tournament advance`` does; ``--ante`` or
  ``--blinds`` other than the level's are refused (``not_the_level``);
- the positions are the tournament's (:func:`seating`): Robert's dead button, "The big blind is
  posted by the player due for it, and the small blind and button are positioned accordingly,
  even if this means the small blind or the button is placed in front of an empty seat", and
  WRGPT's "If the player with the big blind is eliminated there will be no small blind". They
  are recorded with the hand (``np_hand.positions``) and the fold deals from them, so ``audit``
  replays them.

Any other table is started as always.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.tournament.clock_rules import day_number, level_changes, level_for, vacation_limit_reached
from nomicpoker.core.tournament.seating import TableSeats, dealt_in, next_positions, small_blind_posted
from nomicpoker.shell.cycle.deadlines import utcnow
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory
from nomicpoker.shell.dealer import service
from nomicpoker.shell.dealer.service import HandStarted, Seating, ServiceError
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import TableRow
from nomicpoker.shell.storage.tournament_rows import TournamentRow
from nomicpoker.shell.tournament.director import TournamentError, _vacation_hold, get, structure_of, tables_of
from nomicpoker.shell.tournament.moves import pending_at, redraw_waits
from nomicpoker.shell.tournament.seatmap import seat_map


def tournament_of(session: Session, table: TableRow) -> str:
    """The tournament ``table`` belongs to ("" for a table of its own): its setting, else (a
    table made before tournaments set it) the started tournaments' tables."""
    name = ledger.table_settings(table, None).tournament if table.settings else ""
    if name:
        return name
    for row in session.exec(select(TournamentRow).where(TournamentRow.status != "registering")).all():
        if table.name in tables_of(session, row.name):
            return row.name
    return ""


def start_hand(engine: Engine, state: Path, table: str, ante: int | None = None, thread: str | None = None,
               blinds: Sequence[int] | None = None, now: Callable[[], datetime] = utcnow,
               forum_factory: ForumFactory = default_forum_factory) -> HandStarted:
    """Start the next hand at ``table``, a tournament's or not (module docstring)."""
    with Session(engine) as s:
        name = tournament_of(s, ledger.get_table(s, table))
    if not name:
        return service.start_hand(engine, state, table, ante, thread=thread, blinds=blinds, now=now,
                                  forum_factory=forum_factory)
    _check_and_level(engine, state, name, table, ante, blinds, now)
    return service.start_hand(engine, state, table, None, thread=thread, blinds=None, now=now,
                              forum_factory=forum_factory, seating=lambda s, row, seated, b: seating(s, name, row, seated, b))


def _check_and_level(engine: Engine, state: Path, name: str, table: str, ante: int | None,
                     blinds: Sequence[int] | None, now: Callable[[], datetime]) -> None:
    from nomicpoker.shell.dealer.controls import control
    from nomicpoker.shell.dealer.fold_now import fold_now

    with Session(engine) as s:
        row = get(s, name)
        if row.status == "paused":
            raise TournamentError("paused", f"tournament {name} is paused: no hand is dealt at its tables until "
                                  f"nomicpoker tournament resume --name {name}")
        if row.status == "finished":
            raise TournamentError("finished", f"tournament {name} is over: no more hands")
        hands = ledger.hand_rows(s, table)
        ended = {r.hand for r in ledger.stored_rows(s, table, "hand_end")}
        if hands and hands[-1].number not in ended:
            return  # service.start_hand says a hand is running
        waiting = pending_at(s, name, table, now())
        if waiting and waiting[0].reason == "redraw":
            raise TournamentError("moves_pending", f"table {table} waits for the seats to be redrawn (WRGPT: \"Also "
                                  f"periodically, seats are redrawn.\"): run nomicpoker tournament advance --name {name} first")
        if waiting:
            raise TournamentError("moves_pending", f"table {table} waits for a move between hands "
                                  f"({waiting[0].describe()}): run nomicpoker tournament advance --name {name} first")
        k = redraw_waits(s, name, table, now())
        if k:
            raise TournamentError("redraw_waits", f"table {table} has reached the level of redraw {k} (WRGPT: \"Also "
                                  "periodically, seats are redrawn.\"): it deals again once every table has reached it "
                                  f"and nomicpoker tournament advance --name {name} redrew the seats")
        structure = structure_of(row)
        t = now()
        day = day_number(datetime.fromisoformat(row.started), t)
        table_row = ledger.get_table(s, table)
        folded = fold_now(s, table_row, state)
        held = _vacation_hold(structure, folded.days, ledger.current_money(s, table_row), hands, row.started,
                              day, vacation_limit_reached)
        if held:
            raise TournamentError("held", f"table {table} deals no more hands today: {held}")
        level = level_for(structure, hands_dealt=len(hands), day=day)
        want = (level.ante, (level.small_blind, level.big_blind) if level.big_blind else None)
        given_blinds = tuple(blinds) if blinds else None
        if (ante is not None and ante != level.ante) or (given_blinds and given_blinds != want[1]):
            raise TournamentError("not_the_level", f"table {table} plays {level.describe()} of tournament {name}: "
                                  "its forced bets are the level's (drop --ante and --blinds)")
        settings = folded.settings
        have = (settings.ante or 0, settings.blinds)
        before = next((lv for lv in structure.levels
                       if (lv.ante, (lv.small_blind, lv.big_blind) if lv.big_blind else None) == have),
                      structure.levels[0])
    if have != want:  # the level in force, announced in the thread before the deal
        note = level_changes(structure, before, level) or f"Level {level.number} from the next deal."
        data: dict = {"ante": level.ante or None}
        if level.big_blind:
            data["blinds"] = (level.small_blind, level.big_blind)
        control(engine, state, table, "settings", f"tournament {name}: {note}", data=data, now=now)


def seating(session: Session, name: str, table: TableRow, seated: list[str], blinds: tuple[int, ...]) -> Seating:
    """The tournament's deal at ``table`` (module docstring): the seats from the seat map, the
    players hand start would deal in (chips, not sitting out) as the occupied seats."""
    m = seat_map(session, name)
    t = m.tables[m.number_of(table.name)]
    missing = [p for p in seated if p not in t.players()]
    if missing:
        raise ServiceError("bad_seats", f"{', '.join(missing)} at table {table.name} but not in tournament {name}'s "
                           "seats: run nomicpoker audit")
    here = TableSeats(t.number, tuple(p if p in seated else None for p in t.seats), t.last)
    pos = next_positions(here)
    dealt = dealt_in(here, pos)
    small = here.player_at(pos.small_blind) if small_blind_posted(here, pos) else ""
    big = here.player_at(pos.big_blind) or ""
    posters = (small or "", big) if len(blinds) == 2 else ()
    return Seating([p for p in seated if p in dealt], dealt[-1], posters,
                   {"button": pos.button, "small_blind": pos.small_blind, "big_blind": pos.big_blind})


__all__ = ["seating", "start_hand", "tournament_of"]
