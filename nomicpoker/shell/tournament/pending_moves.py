"""The moves an ``advance`` is about to record while their ID mails go (shell).

A move into an e-mail table mails the player his ID for it before the move is recorded (the
check and the mail come first: a forum that cannot seat him refuses the whole step,
:mod:`.moves`), so a run killed between the two has welcomed him to a table he has not joined.
The moves about to be made are written here, synced, before the first ID mail goes, and removed
once they are recorded. The next run reads them (:func:`settle`): the same moves (nothing
changed meanwhile) are made as planned, and the ID already mailed is not mailed again (the
forum's ``enrol`` sends each ID once); moves that are no longer the ones to make (a
disqualification, a hand ended since) are withdrawn: each player mailed a welcome to a table he
does not join gets a correction, once, naming where this run seats him. The file lists only the
players the step mails (no ID for that table yet), keeps the number the step's draws are named
by (:func:`draw_event`), and is checked when read: one of another shape stops the command
(``TournamentError('pending')``) rather than be ignored.

WHY a file in the state folder (``pending/``, as ``hand start`` keeps its story post's,
:mod:`nomicpoker.shell.dealer.service`) and not a tournament event: an event would change the
numbering of the step's draws (:func:`.moves.plan_for`'s ``event``, which ``audit`` and the
SEATLOG recompute); and a tournament whose tables mail nothing (the local forum, Reddit)
writes nothing here.
"""

from __future__ import annotations

import hashlib
import os
from datetime import datetime
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
    """What is pending (None: nothing). ``TournamentError('pending')`` when the file cannot be
    read or is not of the shape :func:`write` gives it (edited by hand, cut short by a full
    disk): ignoring it would leave a welcome uncorrected, guessing could move the wrong
    players, so the command stops, nothing done, and says what to do (:func:`_unreadable`)."""
    where = path(state, name, what)
    try:
        text = where.read_text("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(name, where, what, f"it cannot be read ({exc})") from exc
    try:
        data = loads(text)
    except ValueError as exc:
        raise _unreadable(name, where, what, f"it is not JSON ({exc})") from exc
    problem = _shape(data)
    if problem:
        raise _unreadable(name, where, what, problem)
    return data


def _shape(data: object) -> str:
    """What is wrong with a pending file's content ("" when it is as :func:`write` writes it;
    ``event`` and ``seats`` may be missing: an older release's file)."""
    if not isinstance(data, dict):
        return "it is not a JSON object"
    missing = [k for k in ("at", "recorded", "moves", "arriving") if k not in data]
    if missing:
        return f"it has no {', '.join(repr(k) for k in missing)}"
    if not isinstance(data["at"], str) or not _is_time(data["at"]):
        return f"its \"at\" ({data['at']!r}) is not the step's time (an ISO 8601 date)"
    if isinstance(data["recorded"], bool) or not isinstance(data["recorded"], int) or data["recorded"] < 0:
        return f"its \"recorded\" ({data['recorded']!r}) is not a count of moves events"
    if not isinstance(data["moves"], list) or not all(
            isinstance(mv, list) and len(mv) == 5 and isinstance(mv[0], str)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in mv[1:]) for mv in data["moves"]):
        return "its \"moves\" are not [player, from table, from seat, to table, to seat] lists"
    if not isinstance(data["arriving"], dict) or not all(
            isinstance(t, str) and isinstance(ps, list) and all(isinstance(p, str) for p in ps)
            for t, ps in data["arriving"].items()):
        return "its \"arriving\" is not each table's name -> the players mailed their ID"
    bad = [k for k in ("event", "seats") if not isinstance(data.get(k, ""), str)]
    return f"its {', '.join(repr(k) for k in bad)} is not a string" if bad else ""


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _unreadable(name: str, where: Path, what: str, problem: str) -> Exception:
    from nomicpoker.shell.tournament.director import TournamentError

    step = "tournament advance" if what == MOVES else "tournament enter"
    return TournamentError("pending", (
        f"tournament {name}: the pending file {where} is not one this release can read: {problem}. It keeps "
        f"what a killed `{step}` was doing while it mailed players their IDs (docs/tournaments.md); nothing "
        "was done now. Restore it if it was edited; else delete it and run the command again (a player "
        "mailed an ID for a move that was not made then gets no correction: tell him yourself)"))


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
    path(state, name, what).unlink(missing_ok=True)


def unwelcomed(forum: Forum, table: str, players: Sequence[str]) -> list[str]:
    """The ``players`` ``forum`` has mailed no ID for ``table`` yet: those a step's ``enrol``
    will mail, the only ones a pending file lists (a player who holds his ID from before, moved
    back to a table he sat at, is mailed nothing, so no correction is owed him)."""
    return [p for p in players if not _id_mailed(forum.sent_private(p), table)]


def to_welcome(state: Path, name: str, tables: Sequence[tuple[Forum, str]], arriving: Mapping[str, Sequence[str]],
               what: str = MOVES) -> dict[str, list[str]]:
    """What a step's pending file lists, by table (its forum, its name): the arriving players
    holding no ID there yet (:func:`unwelcomed`), and those a killed run's file, kept by
    :func:`settle` for the same moves, listed (their welcome may have gone since: still owed a
    correction should this run be killed too and the moves change)."""
    kept = read(state, name, what)
    out = {t: unwelcomed(forum, t, arriving.get(t, ())) for forum, t in tables}
    for t, ps in (kept or {}).get("arriving", {}).items():
        out[t] = list(dict.fromkeys([*ps, *out.get(t, [])]))
    return out


def _id_mailed(sent: Sequence, table: str) -> bool:
    return any(m.subject.startswith(f"Your ID for poker table {table}") for m in sent)


def settle(engine: Engine, state: Path, name: str, key: list[list] | None,
           joining: Mapping[str, Sequence[str]], what: str = MOVES) -> None:
    """What a killed run left pending (module docstring), given the moves to make now (``key``,
    None: none; ``joining``: each destination's arriving players): kept when they are its moves;
    else each welcome it mailed to a table its player does not join now is corrected, and it
    is dropped. Dropped too when its moves were recorded (killed before the file went): a
    ``moves`` event since the file was written holds exactly them (another, such as a late
    entrant's, does not count)."""
    from nomicpoker.shell.tournament.director import events

    path(state, name, what).with_suffix(".tmp").unlink(missing_ok=True)  # cut short: no mail went after it
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
    dest = {p: t for t, ps in joining.items() for p in ps}
    for tname, players in sorted(pending["arriving"].items()):
        if tname not in rows:
            continue
        forum = forums.forum_for(rows[tname], state)
        if not forum.abilities.player_ids:
            continue
        for player in players:
            if player not in joining.get(tname, ()):
                bound = dest.get(player)  # where this run seats him (his table now may be one it breaks)
                where = bound or next((m.names[n] for n, tb in sorted(m.tables.items()) if player in tb.players()),
                                      None)
                withdraw(forum, tname, player, str(pending["at"]), where, entered=what != MOVES,
                         instead=bound is not None)
    forget(state, name, what)


def _key(data: str) -> list[list]:
    """A recorded ``moves`` event's moves as :func:`write` keeps them."""
    return [[mv["player"], mv["from_table"], mv["from_seat"], mv["to_table"], mv["to_seat"]]
            for mv in (loads(data) or {}).get("moves", ())]


def withdraw(forum: Forum, table: str, player: str, at: str, where: str | None, entered: bool = False,
             instead: bool = False) -> None:
    """Tell ``player``, once, that the move to ``table`` his ID mail announced was not made
    (``where``: the table he sits at after this run, ``instead``: which this run moves or seats
    him to; ``entered``: it was his late entry, not a move); nothing when no welcome went (the
    run was killed before it: the pending file lists only players who held no ID there before,
    :func:`unwelcomed`)."""
    sent = list(forum.sent_private(player))
    if not _id_mailed(sent, table):
        return
    step = "entry" if entered else "advance"
    subject = f"Not {'seated at' if entered else 'moved to'} poker table {table} ({step} of {at[:16].replace('T', ' ')} UTC)"
    if any(m.subject.startswith(subject) for m in sent):
        return
    if where and instead:
        stay = f"you are {'seated at' if entered else 'moved to'} table {where} instead"
    else:
        stay = f"you play on at table {where}" if where else "you sit at no table of the tournament now"
    what = "your late entry" if entered else "a move"
    forum.send_private(player, subject, (
        f"{player}, the Dealer mailed you your ID for poker table {table} for {what} the tournament "
        f"director's run did not record (it stopped before, and the seats have changed since): you "
        f"were not {'seated at' if entered else 'moved to'} table {table}; {stay}. Keep the ID: should "
        f"you be seated at table {table} later, it is your ID there, and it will be announced to you.\n"))


__all__ = ["MOVES", "draw_event", "entry", "forget", "path", "read", "seats_digest", "settle", "to_welcome", "unwelcomed",
           "withdraw", "write"]
