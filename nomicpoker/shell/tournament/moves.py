"""Moving players between a tournament's tables (shell): the director carries out what the core
decides (:func:`nomicpoker.core.tournament.balance.rebalance`).

Each move is recorded three times in one transaction, so nothing is ever half-done: a
``move_out`` dealer event at the table the player leaves, a ``move_in`` at the one he joins
(both folded at once: posted in each table's thread, the Money carried from one GNDT to the
other, the change log saying why: :mod:`nomicpoker.core.fold.roster_moves`), and the
tournament's ``moves`` event (every move of the step, the tables broken, the positions drawn
for a final table or a redraw) from which :mod:`.seatmap` rebuilds the seats. An interrupted
run left nothing (the transaction) or everything but the posts (the next poll sends them), so
``tournament advance`` is simply run again. Nothing, that is, in the ledger: a move into an
e-mail table mails the player his ID before it is recorded, and a run killed between the two
left a welcome to a table he has not joined; the moves are kept in the state folder before the
mail goes, and the next run makes them as planned or corrects the welcome
(:mod:`.pending_moves`).

Only between hands: a move whose table is playing a hand waits for the next ``advance`` (and
``hand start`` refuses to deal at a table a move waits for: :func:`pending_at`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.tournament.balance import Move, Plan, rebalance, redraw_moves
from nomicpoker.core.tournament.clock_rules import day_number, level_for
from nomicpoker.core.tournament.draw import Entrant, redraw
from nomicpoker.core.tournament.structure import Structure
from nomicpoker.ports import ChecksEnrol, Forum, ForumError
from nomicpoker.shell.cycle import forums
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.outbox import send_outbox
from nomicpoker.shell.cycle.replay import adjudicate
from nomicpoker.shell.cycle.report import TableReport
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import DealerEventRow, TableRow, dumps, loads, transaction
from nomicpoker.shell.tournament import pending_moves
from nomicpoker.shell.tournament.director import TournamentError, add_event, events, get, next_seq, structure_of
from nomicpoker.shell.tournament.seatmap import SeatMap, seat_map

#: the reason each kind of move is posted with (the rule it applies)
WHY = {
    "balance": ("to balance the tables (Robert's: \"if a player is needed to move from a table to balance "
                "tables, the player due for the big blind will be automatically selected to move, and will be "
                "given the earliest seat due for the big blind if more than one seat is open\")"),
    "break": ("table {src} is broken (Robert's: \"As players are eliminated, tables are broken in a pre-set "
              "order, with players from the broken tables assigned to empty seats at other tables\")"),
    "final": "the final table: every table still in play merged into {dst}, seats and button drawn afresh",
    "redraw": ("the seats are redrawn (WRGPT: \"Also periodically, seats are redrawn.\" Within each table, seats "
               "by average cost per hand: the least becomes the big blind, the most the button)"),
}


@dataclass(frozen=True)
class Moved:
    """What one step did: the moves made, the tables broken, whether it made the final table,
    and the moves that wait for a table playing a hand."""

    moves: tuple[Move, ...]
    broken: tuple[int, ...]
    final: bool
    waiting: tuple[Move, ...]
    errors: tuple[str, ...] = ()
    redraw: int = 0  # the number of the redraw made (or waiting, with ``redraw_waits``)
    redraw_waits: bool = False


def plan_for(session: Session, name: str, now: datetime | None = None,
             event: str | None = None) -> tuple[SeatMap, Plan, str, int]:
    """The seats now and what the core decides for them (the draw's ``event`` name is the
    tournament's next event number, so each step's draws are reproducible; given, the number a
    killed run drew by: :func:`.pending_moves.draw_event`): breaks, balancing and the final table
    first; once none is needed, the redraw that is due (:func:`redraw_due_at`), whose number is
    the last value (0: not a redraw)."""
    row = get(session, name)
    m = seat_map(session, name)
    structure = structure_of(row)
    event = event or str(next_seq(session, name))
    order = structure.break_order(len(m.names))
    live = m.live()
    if len(live) < 2:  # nothing to balance; the last table plays on (or the tournament is won)
        return m, Plan(tuple(live), ()), event, 0
    plan = rebalance(list(m.tables.values()), order, row.seed, event)
    if plan.moves or plan.final:
        return m, plan, event, 0
    k = redraw_due_at(session, name, m, now or utcnow())
    if k and all(k <= reached for reached in _reached(session, name, m, now or utcnow()).values()):
        drawn = redraw(row.seed, k, _entrants(session, m), structure.table_size)
        return m, redraw_moves(list(m.tables.values()), drawn.tables, order), event, k
    return m, plan, event, 0


def _reached(session: Session, name: str, m: SeatMap, now: datetime) -> dict[int, int]:
    """For each table in play, the redraws its next deal's level has reached; none once one
    table is left in play (a redraw draws players between tables: :func:`plan_for` makes none
    for a lone table, so none may hold it)."""
    row = get(session, name)
    structure = structure_of(row)
    n = structure.redraw_every_levels if len(m.live()) >= 2 else 0
    day = day_number(datetime.fromisoformat(row.started), now)
    return {t.number: (level_for(structure, hands_dealt=m.hands[t.number], day=day).number - 1) // n
            for t in m.live()} if n else {}


def redraw_due_at(session: Session, name: str, m: SeatMap, now: datetime) -> int:
    """The number of the next redraw once some table in play has reached it (0: none due).
    WRGPT: "Also periodically, seats are redrawn."; here when every ``redraw_every_levels``
    levels end: the redraw is made once every table in play has reached the level it starts
    (the tables that reach it first wait for the others: :func:`redraw_waits`)."""
    reached = _reached(session, name, m, now)
    done = sum(1 for e in events(session, name, "moves") if loads(e.data).get("redraw"))
    return done + 1 if reached and max(reached.values()) > done else 0


def redraw_waits(session: Session, name: str, table: str, now: datetime) -> int:
    """The redraw ``table`` waits for (0: none): its next deal has reached it, another table's not yet."""
    m = seat_map(session, name)
    k = redraw_due_at(session, name, m, now)
    reached = _reached(session, name, m, now)
    n = m.number_of(table)
    return k if k and reached.get(n, 0) >= k else 0


def _entrants(session: Session, m: SeatMap) -> list[Entrant]:
    """Each player in play with what WRGPT's redraw reads: his forced bets (antes and blinds,
    the ``post`` steps) and the hands he was dealt, over every table of the tournament."""
    paid: dict[str, int] = {p: 0 for p in m.players()}
    dealt: dict[str, int] = {p: 0 for p in m.players()}
    for tname in m.names.values():
        for a in ledger.stored_rows(session, tname, "action"):
            if a.event == "post" and a.player in paid:
                paid[a.player] += a.chips
        for h in ledger.hand_rows(session, tname):
            for p, _money in loads(h.seats):
                if p in dealt:
                    dealt[p] += 1
    return [Entrant(p, paid[p], dealt[p]) for p in m.players()]


def waiting_tables(session: Session, name: str, now: datetime) -> set[str]:
    """Every table a move or a redraw waits for now (one seat map, one plan: what
    ``tournament advance`` reads to suggest no ``hand start`` there)."""
    m, plan, _event, k = plan_for(session, name, now)
    out = {m.names[n] for mv in plan.moves for n in (mv.from_table, mv.to_table) if n}
    if k:
        out |= {m.names[t.number] for t in plan.tables}
    due = redraw_due_at(session, name, m, now)
    if due:
        out |= {m.names[n] for n, r in _reached(session, name, m, now).items() if r >= due}
    return out


def pending_at(session: Session, name: str, table: str, now: datetime | None = None) -> list[Move]:
    """The moves the core wants now that involve ``table`` (``hand start`` waits for them)."""
    m, plan, _event, k = plan_for(session, name, now)
    n = m.number_of(table)
    if k and n in {t.number for t in plan.tables}:  # a redraw takes every table at once
        return list(plan.moves) or [Move("", n, 0, n, 0, "redraw")]
    return [mv for mv in plan.moves if n in (mv.from_table, mv.to_table)]


def carry_out(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow) -> Moved:
    """Make the moves the core decides now (module docstring), under the poll lock. Each move
    whose two tables are between hands is made; the others wait. The final table is made at
    once or not at all."""
    from nomicpoker.shell.dealer.service import HAND_START_LOCK_WAIT
    from nomicpoker.shell.storage.locks import Busy, run_lock

    with Session(engine) as s:
        row = get(s, name)
    if row.status != "running":
        raise TournamentError("not_running", f"tournament {name} is {row.status}: players move at a running "
                              "tournament's tables")
    try:
        with run_lock(engine, state, HAND_START_LOCK_WAIT):
            return _carry_out(engine, state, name, now)
    except Busy as exc:
        raise TournamentError("busy", f"a poll has held the lock of {exc.where} for {HAND_START_LOCK_WAIT} "
                              "seconds: try again") from exc


def finish_if_won(engine: Engine, name: str, now: Callable[[], datetime] = utcnow) -> str:
    """The winner, once one player is left in play: the tournament is recorded ``finished``
    (a ``finish`` event naming him). "" while two or more play on."""
    with transaction(engine) as s:
        row = get(s, name)
        if row.status == "finished":
            return next((e.player for e in events(s, name, "finish")), "")
        if row.status != "running":
            return ""
        m = seat_map(s, name)
        left = m.players()
        if len(left) != 1 or any(m.running.values()):
            return ""
        row.status = "finished"
        s.add(row)
        add_event(s, name, "finish", iso(now()), player=left[0], data={"chips": m.chips[left[0]]})
        return left[0]


@dataclass(frozen=True)
class _Decision:
    """What a step of ``advance`` would do now (:func:`_decide`), before anything is written."""

    m: SeatMap
    plan: Plan
    event: str
    redrawn: int
    whole: bool
    done: tuple[Move, ...]
    waiting: tuple[Move, ...]
    #: each destination's roster after the moves (table number -> players)
    seated: dict[int, list[str]]

    def key(self) -> list[list]:
        """The moves, as the pending file records them (plain JSON)."""
        return [[mv.player, mv.from_table, mv.from_seat, mv.to_table, mv.to_seat] for mv in self.done]

    def arriving(self) -> dict[str, list[str]]:
        """Each destination table's name -> the players the moves bring there."""
        out: dict[str, list[str]] = {}
        for mv in self.done:
            out.setdefault(self.m.names[mv.to_table], []).append(mv.player)
        return out


def _decide(s: Session, name: str, t: datetime, event: str | None = None) -> "_Decision | Moved":
    """The moves to make now (``event``: the draws' number, :func:`plan_for`), or what
    :func:`_carry_out` says when none can be made."""
    m, plan, event, redrawn = plan_for(s, name, t, event)
    if not plan.moves and not redrawn:
        return Moved((), tuple(plan.broken), False, ())
    busy = {n for n, h in m.running.items() if h}
    whole = plan.final or bool(redrawn)  # made at once or not at all
    if whole and busy & ({mv.from_table for mv in plan.moves} | {mv.to_table for mv in plan.moves}
                         | ({tb.number for tb in plan.tables} if redrawn else set())):
        return Moved((), (), False, plan.moves, redraw=redrawn, redraw_waits=True)
    done: list[Move] = []
    waiting: list[Move] = []
    occupied = {(n, s_) for n, tb in m.tables.items() for s_, _p in tb.occupied()}
    for mv in plan.moves:
        if mv.from_table in busy or mv.to_table in busy or any(w.player == mv.player for w in waiting):
            waiting.append(mv)  # (a player's move on from a table he has not reached waits with his first)
            continue
        if (mv.to_table, mv.to_seat) in occupied and not whole:
            waiting.append(mv)  # its seat is freed by a move that waits
            continue
        occupied.discard((mv.from_table, mv.from_seat))
        occupied.add((mv.to_table, mv.to_seat))
        done.append(mv)
    if not done and not redrawn:
        return Moved((), (), False, tuple(waiting))
    seated = {}  # each destination's roster after the moves, all checked before any ID mail goes
    for n in sorted({mv.to_table for mv in done}):
        gone = {mv.player for mv in done if mv.from_table == n}
        arriving = [mv.player for mv in done if mv.to_table == n]
        seated[n] = [p for p in ledger.roster(s, ledger.get_table(s, m.names[n])) if p not in gone] + arriving
    return _Decision(m, plan, event, redrawn, whole, tuple(done), tuple(waiting), seated)


def _carry_out(engine: Engine, state: Path, name: str, now: Callable[[], datetime]) -> Moved:
    t = now()
    with Session(engine) as s:  # a killed run's draws keep their number while the seats are as they were
        d = _decide(s, name, t, pending_moves.draw_event(s, state, name))
        recorded = len(events(s, name, "moves"))
    pending_moves.settle(engine, state, name, d.key() if isinstance(d, _Decision) else None,
                         d.arriving() if isinstance(d, _Decision) else {})
    if isinstance(d, Moved):
        return d
    with Session(engine) as s:
        tables = {n: ledger.get_table(s, d.m.names[n])
                  for n in {n for mv in d.done for n in (mv.from_table, mv.to_table)}}
    seatings = [(tables[n], d.seated[n]) for n in sorted(d.seated)]
    opened = _check_enrol(state, seatings)  # every table checked: a refusal records and mails nothing
    mails = [(forum, table, players) for forum, table, players in opened if _sends_ids(forum)]
    if mails:  # the intended moves are kept before any ID mail goes (the run may be killed after it)
        welcomed = pending_moves.to_welcome(state, name, [(forum, table.name) for forum, table, _p in mails],
                                            d.arriving())
        pending_moves.write(state, name, iso(t), recorded, d.key(), welcomed, event=d.event,
                            seats=pending_moves.seats_digest(d.m))
    for forum, table, players in mails:
        _mail_ids(forum, table, players)
    with transaction(engine) as s:
        if mails:  # the mails took time: the seats are read again (the run lock keeps them as they were)
            again = _decide(s, name, t, d.event)
            if isinstance(again, Moved) or again.key() != d.key():
                raise TournamentError("changed", f"the seats of tournament {name} changed while advance ran: "
                                      "nothing was moved; run it again")
        done, waiting, m, plan, event, redrawn = d.done, d.waiting, d.m, d.plan, d.event, d.redrawn
        rosters: dict[int, list[str]] = {}
        seat_of = dict(m.history)
        at = iso(t)
        touched: set[int] = set()
        out_rows = []
        for mv in done:
            for n in (mv.from_table, mv.to_table):
                if n not in rosters:
                    rosters[n] = ledger.roster(s, tables[n])
            src, dst = m.names[mv.from_table], m.names[mv.to_table]
            chips = m.chips[mv.player]
            why = WHY[mv.reason].format(src=src, dst=dst)
            hands = ledger.hand_rows(s, src)
            s.add(DealerEventRow(table_name=src, hand=hands[-1].number if hands else 0,
                                 after=ledger.max_archive_id(s, src), kind="move_out", player=mv.player, at=at,
                                 note=why, data=dumps({"chips": chips, "to": dst, "seat": mv.to_seat, "why": why})))
            rosters[mv.from_table] = [p for p in rosters[mv.from_table] if p != mv.player]
            seat_of[(mv.to_table, mv.player)] = mv.to_seat
            new = sorted(rosters[mv.to_table] + [mv.player], key=lambda p: seat_of.get((mv.to_table, p), 0))
            rosters[mv.to_table] = new
            hands = ledger.hand_rows(s, dst)
            s.add(DealerEventRow(table_name=dst, hand=hands[-1].number if hands else 0,
                                 after=ledger.max_archive_id(s, dst), kind="move_in", player=mv.player, at=at,
                                 note=why, data=dumps({"chips": chips, "from": src, "seat": mv.to_seat, "why": why,
                                                       "roster": new})))
            touched |= {mv.from_table, mv.to_table}
            out_rows.append({"player": mv.player, "from_table": mv.from_table, "from_seat": mv.from_seat,
                             "to_table": mv.to_table, "to_seat": mv.to_seat, "chips": chips, "reason": mv.reason})
        drawn = []
        if d.whole:
            drawn = [{"number": tb.number, "last": [tb.last.button, tb.last.small_blind, tb.last.big_blind],
                      "hands": m.hands[tb.number]} for tb in plan.tables]
        broken = [b for b in plan.broken if not any(mv.from_table == b for mv in waiting)]
        add_event(s, name, "moves", at, data={"event": event, "moves": out_rows, "broken": broken,
                                              "final": plan.final, "drawn": drawn, "redraw": redrawn})
        s.flush()
        for n in sorted(touched):
            adjudicate(s, tables[n], state, t)
        names = [m.names[n] for n in sorted(touched)]
    pending_moves.forget(state, name)
    errors = _send(engine, state, names, now)
    return Moved(tuple(done), tuple(broken), plan.final, tuple(waiting), errors, redraw=redrawn)


def _sends_ids(forum: Forum) -> bool:
    return isinstance(forum, ChecksEnrol) or forum.abilities.player_ids


def _mail_ids(forum: Forum, table: TableRow, players: Sequence[str]) -> None:
    """Mail each player arriving at ``table`` his ID for it (once: the forum's ``enrol``). A
    forum that refuses stops the step before anything is recorded (``advance`` and ``enter``
    alike), so the director sees why and nobody is moved."""
    try:
        forum.enrol(table.name, list(players))
    except ForumError as exc:
        raise TournamentError("forum", f"table {table.name} ({table.forum_kind}) cannot seat "
                              f"{', '.join(players)}: {exc.message}; nothing was moved") from exc


def _check_enrol(state: Path, seatings: Sequence[tuple[TableRow, Sequence[str]]]) -> list[tuple[Forum, TableRow, Sequence[str]]]:
    """The players each table will seat, checked against what its forum knows players by
    before a move into it is recorded: on e-mail his secret ID is mailed to him once (the
    table's ``enrol``, as ``table create`` does; a player moved from another forum has never
    had one, and without it no mail of his is read); an IRC table checks every seat is a nick.
    A forum that cannot take him (no address in the e-mail roster, not a nick) refuses the
    move: nothing is recorded. Every table is checked before any of them is enrolled
    (``check_enrol`` where ``enrol`` sends something; ``enrol`` itself where it sends nothing),
    so a refusal at one table has mailed nobody a welcome to another table he never joins.
    Returns each table's forum, opened, with its players: :func:`_carry_out` mails the IDs."""
    opened = []
    for table, players in seatings:
        forum = forums.forum_for(table, state)
        try:
            if isinstance(forum, ChecksEnrol):
                forum.check_enrol(table.name, list(players))
            elif not forum.abilities.player_ids:
                forum.enrol(table.name, list(players))  # a check only: nothing to send here
        except ForumError as exc:
            raise TournamentError("forum", f"table {table.name} ({table.forum_kind}) cannot seat "
                                  f"{', '.join(players)}: {exc.message}; nothing was moved") from exc
        opened.append((forum, table, players))
    return opened


def _send(engine: Engine, state: Path, names: Sequence[str], now: Callable[[], datetime]) -> tuple[str, ...]:
    """Post what the moves queued at each table (a forum that fails: the next poll posts it)."""
    errors = []
    for tname in names:
        with Session(engine) as s:
            forum = forums.forum_for(ledger.get_table(s, tname), state)
        try:
            send_outbox(engine, tname, forum, now, TableReport(tname), state=state)
        except ForumError as exc:
            errors.append(f"{tname}: forum {exc.code}: {exc.message} (recorded; the next poll posts it)")
    return tuple(errors)


__all__ = ["Moved", "WHY", "carry_out", "enter_late", "finish_if_won", "pending_at", "plan_for", "waiting_tables"]


def enter_late(engine: Engine, state: Path, name: str, player: str, now: Callable[[], datetime] = utcnow) -> Move:
    """A late entrant (``late_entry_levels``): while every table in play still deals a level up to
    it, the entrant takes the starting chips at the table with the fewest players, in its seat
    earliest due for the big blind (Robert's: "A new player assumes the position of the available
    seat and is dealt right into the game, except when seated between the button and the small
    blind."). Recorded as the tournament's ``enter`` and ``moves`` events and a ``move_in`` at
    the table, in one transaction; refused (nothing written) while that table plays a hand. At an
    e-mail table his ID is mailed first, the seat kept pending meanwhile (:mod:`.pending_moves`:
    a run killed after the mail is run again to the same seat, or the welcome is corrected)."""
    from nomicpoker.shell.dealer.service import HAND_START_LOCK_WAIT
    from nomicpoker.shell.storage.locks import Busy, run_lock

    what = pending_moves.entry(player)
    try:
        with run_lock(engine, state, HAND_START_LOCK_WAIT):
            t = now()
            refusal: TournamentError | None = None
            with Session(engine) as s:
                try:
                    p, mv, m, structure = _late_seat(s, name, player, t)
                except TournamentError as exc:
                    refusal = exc
                else:
                    dst = m.names[mv.to_table]
                    table = ledger.get_table(s, dst)
                    recorded = len(events(s, name, "moves"))
            if refusal is not None:  # a welcome a killed run mailed is corrected, then the refusal said
                pending_moves.settle(engine, state, name, None, {}, what)
                raise refusal
            key = [[p, 0, 0, mv.to_table, mv.to_seat]]
            pending_moves.settle(engine, state, name, key, {dst: [p]}, what)
            with Session(engine) as s:
                seating = [(table, ledger.roster(s, table) + [p])]
            for forum, tbl, players in _check_enrol(state, seating):
                if _sends_ids(forum):
                    welcomed = pending_moves.to_welcome(state, name, [(forum, tbl.name)], {dst: [p]}, what)
                    pending_moves.write(state, name, iso(t), recorded, key, welcomed, what)
                    _mail_ids(forum, tbl, players)
            with transaction(engine) as s:
                again = _late_seat(s, name, player, t)
                if (again[0], again[1]) != (p, mv):  # (the run lock keeps the seats as they were)
                    raise TournamentError("changed", f"the seats of tournament {name} changed while enter ran: "
                                          "nothing was recorded; run it again")
                at = iso(t)
                seat_of = {**{pl: st for (n, pl), st in m.history.items() if n == mv.to_table}, p: mv.to_seat}
                new = sorted(ledger.roster(s, table) + [p], key=lambda q: seat_of.get(q, 0))
                why = f"a late entrant (late entry until level {structure.late_entry_levels} ends)"
                chips = structure.starting_money
                hands = ledger.hand_rows(s, dst)
                add_event(s, name, "enter", at, player=p)
                s.add(DealerEventRow(table_name=dst, hand=hands[-1].number if hands else 0,
                                     after=ledger.max_archive_id(s, dst), kind="move_in", player=p, at=at, note=why,
                                     data=dumps({"chips": chips, "from": "", "seat": mv.to_seat, "why": why,
                                                 "roster": new})))
                add_event(s, name, "moves", at, data={"event": str(next_seq(s, name)), "moves": [
                    {"player": p, "from_table": 0, "from_seat": 0, "to_table": mv.to_table, "to_seat": mv.to_seat,
                     "chips": chips, "reason": "late_entry"}], "broken": [], "final": False, "drawn": [], "redraw": 0})
                s.flush()
                adjudicate(s, table, state, t)
            pending_moves.forget(state, name, what)
    except Busy as exc:
        raise TournamentError("busy", f"a poll has held the lock of {exc.where} for {HAND_START_LOCK_WAIT} "
                              "seconds: try again") from exc
    _send(engine, state, [dst], now)
    return mv


def _late_seat(s: Session, name: str, player: str, t: datetime) -> "tuple[str, Move, SeatMap, Structure]":
    """The late entrant's name as entered and his seat now, or the refusal (TournamentError)."""
    from nomicpoker.core.tournament.balance import seat_late_entrant
    from nomicpoker.core.tournament.seating import SeatingError
    from nomicpoker.shell.tournament.director import _check_players, _refuse_disqualified, entrants

    row = get(s, name)
    structure = structure_of(row)
    [p] = _check_players([player], row.dealer) or [""]
    if not p:
        raise TournamentError("bad_players", "give the player's name (--player NAME)")
    _refuse_disqualified(s, name, p, "he does not enter again")
    _check_players(entrants(s, name) + [p], row.dealer)
    if not structure.late_entry_levels:
        raise TournamentError("started", f"tournament {name} has started and its structure allows no late "
                              "entry (late_entry_levels = 0)")
    m = seat_map(s, name)
    day = day_number(datetime.fromisoformat(row.started), t)
    reached = max((level_for(structure, hands_dealt=m.hands[tb.number], day=day).number for tb in m.live()),
                  default=1)
    if reached > structure.late_entry_levels:
        raise TournamentError("late", f"late entry to tournament {name} closed when level "
                              f"{structure.late_entry_levels} ended (a table deals level {reached})")
    try:
        _tables, mv = seat_late_entrant(m.live(), p, structure.break_order(len(m.names)))
    except SeatingError as exc:
        raise TournamentError(exc.code, exc.message) from exc
    if m.running[mv.to_table]:
        raise TournamentError("hand_running", f"{p}'s seat is at table {m.names[mv.to_table]}, which is playing "
                              f"hand {m.running[mv.to_table]}: enter him once it ends")
    return p, mv, m, structure
