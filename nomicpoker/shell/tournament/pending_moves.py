"""The moves an ``advance`` is about to record while their ID mails go (shell).

A move into an e-mail table mails the player his ID for it before the move is recorded (the
check and the mail come first: a forum that cannot seat him refuses the whole step,
:mod:`.moves`), so a run killed between the two has welcomed him to a table he has not joined.
The moves about to be made are written here, synced, before the first ID mail goes, and removed
once they are recorded. The next run reads them (:func:`settle`): the same moves (nothing
changed meanwhile) are made as planned, and the ID already mailed is not mailed again (the
forum's ``enrol`` sends each ID once); moves that are no longer the ones to make (a
disqualification, a hand ended since) are withdrawn: each player mailed a welcome to a table he
does not join gets a correction, once.

WHY a file in the state folder (``pending/``, as ``hand start`` keeps its story post's,
:mod:`nomicpoker.shell.dealer.service`) and not a tournament event: an event would change the
numbering of the step's draws (:func:`.moves.plan_for`'s ``event``, which ``audit`` and the
SEATLOG recompute); and a tournament whose tables mail nothing (the local forum, Reddit)
writes nothing here.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Mapping, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.ports import Forum
from nomicpoker.shell import faults
from nomicpoker.shell.cycle import forums
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import dumps, loads
from nomicpoker.shell.tournament.seatmap import SeatMap, seat_map


#: what is pending: an ``advance``'s moves, or one late entrant's seat (:func:`entry`)
MOVES = "moves"


def entry(player: str) -> str:
    """The pending step of late entrant ``player`` (his own file: an advance's may be pending too)."""
    return "enter-" + hashlib.sha256(player.strip().casefold().encode("utf-8")).hexdigest()[:16]


def path(state: Path, name: str, what: str = MOVES) -> Path:
    """Where tournament ``name``'s pending ``what`` is kept ("_" starts no table's name)."""
    return state / "pending" / f"_tournament-{name}.{what}.json"


def seats_digest(m: SeatMap) -> str:
    """What the step's draws read of the seat map (each table's seats, the last positions dealt
    there, the hands dealt: the level reached), as a short digest: equal, the draws are too."""
    seen = [[n, list(t.seats), [t.last.button, t.last.small_blind, t.last.big_blind], m.hands.get(n, 0)]
            for n, t in sorted(m.tables.items())]
    return hashlib.sha256(dumps(seen).encode("utf-8")).hexdigest()[:32]


def write(state: Path, name: str, at: str, recorded: int, key: Sequence[Sequence], arriving: Mapping[str, list[str]],
          what: str = MOVES, event: str = "", seats: str = "") -> None:
    """Keep the moves about to be made: ``at`` the step's time, ``recorded`` the tournament's
    ``moves`` events so far (one of those after them holds these once recorded), ``key`` the moves (player, tables
    and seats), ``arriving`` each destination table's name -> the players mailed their ID, ``event`` the
    number the step's draws are named by and ``seats`` the seat map's :func:`seats_digest` (:func:`draw_event`)."""
    target = path(state, name, what)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(dumps({"at": at, "recorded": recorded, "moves": [list(k) for k in key], "arriving": dict(arriving),
                       "event": event, "seats": seats}))
        f.flush()
        os.fsync(f.fileno())
    faults.point("before pending moves")
    tmp.replace(target)
    faults.point("after pending moves")


def read(state: Path, name: str, what: str = MOVES) -> dict | None:
    try:
        data = loads(path(state, name, what).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("arriving"), dict) else None


def draw_event(session: Session, state: Path, name: str) -> str | None:
    """The number a killed run named its draws by, when the seats and the ``moves`` recorded are
    what they were then (None: nothing pending, or they changed). WHY: the draws are named by the
    tournament's next event number (:func:`.moves.plan_for`), and a poll between the kill and the
    re-run records events (the rail's ``rail_asks``, ``rail_showdowns``) without changing a seat:
    re-planned under the new number, the same seats would give other moves, and the welcome the
    killed run mailed would be withdrawn for nothing. The ``moves`` event recorded then carries
    this number, so ``audit`` and the SEATLOG recompute the same draw."""
    from nomicpoker.shell.tournament.director import events

    pending = read(state, name)
    if pending is None or not pending.get("event"):
        return None
    if len(events(session, name, "moves")) != pending.get("recorded"):
        return None
    return str(pending["event"]) if seats_digest(seat_map(session, name)) == pending.get("seats") else None


def forget(state: Path, name: str, what: str = MOVES) -> None:
    try:
        path(state, name, what).unlink()
    except FileNotFoundError:
        pass


def settle(engine: Engine, state: Path, name: str, key: list[list] | None,
           joining: Mapping[str, Sequence[str]], what: str = MOVES) -> None:
    """What a killed run left pending (module docstring), given the moves to make now (``key``,
    None: none; ``joining``: each destination's arriving players): kept when they are its moves;
    else each welcome it mailed to a table its player does not join now is corrected, and it
    is dropped. Dropped too when its moves were recorded (killed before the file went): a
    ``moves`` event since the file was written holds exactly them (another, such as a late
    entrant's, does not count)."""
    from nomicpoker.shell.tournament.director import events

    pending = read(state, name, what)
    if pending is None:
        return
    with Session(engine) as s:
        since = events(s, name, "moves")[int(pending.get("recorded") or 0):]
        if any(_key(e.data) == pending.get("moves") for e in since):
            forget(state, name, what)
            return
        if key is not None and key == pending.get("moves"):
            return  # the same moves: made now as planned
        m = seat_map(s, name)
        rows = {t: ledger.get_table(s, t) for t in pending["arriving"] if t in m.names.values()}
    for tname, players in sorted(pending["arriving"].items()):
        if tname not in rows:
            continue
        forum = forums.forum_for(rows[tname], state)
        if not forum.abilities.player_ids:
            continue
        for player in players:
            if player not in joining.get(tname, ()):
                where = next((m.names[n] for n, tb in sorted(m.tables.items()) if player in tb.players()), None)
                withdraw(forum, tname, player, str(pending["at"]), where, entered=what != MOVES)
    forget(state, name, what)


def _key(data: str) -> list[list]:
    """A recorded ``moves`` event's moves as :func:`write` keeps them."""
    return [[mv["player"], mv["from_table"], mv["from_seat"], mv["to_table"], mv["to_seat"]]
            for mv in (loads(data) or {}).get("moves", ())]


def withdraw(forum: Forum, table: str, player: str, at: str, where: str | None, entered: bool = False) -> None:
    """Tell ``player``, once, that the move to ``table`` his ID mail announced was not made
    (``where``: the table he sits at now; ``entered``: it was his late entry, not a move);
    nothing when no welcome went (the run was killed before it)."""
    sent = list(forum.sent_private(player))
    if not any(m.subject.startswith(f"Your ID for poker table {table}") for m in sent):
        return
    step = "entry" if entered else "advance"
    subject = f"Not {'seated at' if entered else 'moved to'} poker table {table} ({step} of {at[:16].replace('T', ' ')} UTC)"
    if any(m.subject.startswith(subject) for m in sent):
        return
    stay = f"you play on at table {where}" if where else "you sit at no table of the tournament now"
    what = "your late entry" if entered else "a move"
    forum.send_private(player, subject, (
        f"{player}, the Dealer mailed you your ID for poker table {table} for {what} the tournament "
        f"director's run did not record (it stopped before, and the seats have changed since): you "
        f"were not {'seated at' if entered else 'moved to'} table {table}; {stay}. Keep the ID: should "
        f"you be seated at table {table} later, it is your ID there, and it will be announced to you.\n"))


__all__ = ["MOVES", "draw_event", "entry", "forget", "path", "read", "seats_digest", "settle", "withdraw", "write"]
