"""The rail (shell): WRGPT's "The only way to see what happens at other tables is to join the
"rail". ... Once on the rail, you will receive every showdown message from all other tables, as
well as nightly "score" messages with the grand total tournament standings."

Built here: joining and leaving the rail (players and spectators alike; the director records
it, as WRGPT's floorman did), and the nightly standings sent to everyone on the rail by private
message on the tournament's forum, at most once a tournament day: the send is recorded (a
``rail_standings`` event with the day) before any message goes, so a run repeated the same day
sends nothing again, and a run that crashed half-way leaves the rest of that day's messages
unsent rather than sent twice. Not built yet: the showdowns of every table on the rail.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.core.tournament.clock_rules import day_number
from nomicpoker.core.tournament.places import format_standings
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import loads
from nomicpoker.shell.tournament.director import TournamentError, add_event, events, get, tables_of


def railbirds(session: Session, name: str) -> list[str]:
    """Who is on the rail now, in the order they joined."""
    out: list[str] = []
    for e in events(session, name):
        if e.kind == "rail_join" and e.player not in out:
            out.append(e.player)
        elif e.kind == "rail_leave" and e.player in out:
            out.remove(e.player)
    return out


def join(engine: Engine, name: str, who: str, leave: bool = False, now: Callable[[], datetime] = utcnow) -> list[str]:
    """Put ``who`` on the rail (or take him off); return who is on it."""
    from nomicpoker.shell.storage.store import transaction

    who = who.strip()
    if not who or any(c.isspace() or c == "," for c in who) or len(who) > 40:
        raise TournamentError("bad_player", f"rail: {who!r} is not a forum name (no spaces or commas, at most 40)")
    with transaction(engine) as s:
        get(s, name)
        on = railbirds(s, name)
        same = next((p for p in on if same_account(p, who)), None)  # Zoe is the account zoe
        if leave and same is None:
            raise TournamentError("bad_player", f"{who} is not on the rail of tournament {name}")
        if not leave and same is not None:
            raise TournamentError("bad_player", f"{who} is already on the rail of tournament {name}"
                                  + (f" (as {same})" if same != who else ""))
        like = next((p for p in on if looks_alike(p, who)), None)
        if not leave and like is not None:  # one standings message to a name that only looks like another's
            raise TournamentError("bad_player", f"{who} looks like {like}, who is on the rail of tournament "
                                  f"{name}: names on the rail must not look alike")
        who = same or who
        add_event(s, name, "rail_leave" if leave else "rail_join", iso(now()), player=who)
        s.flush()
        return railbirds(s, name)


@dataclass(frozen=True)
class Sent:
    day: int
    sent: tuple[str, ...]
    already: bool = False


def send_standings(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
                   forum_factory: ForumFactory = default_forum_factory) -> Sent:
    """The nightly standings to everyone on the rail, once per tournament day (module docstring)."""
    from nomicpoker.shell.storage.store import transaction
    from nomicpoker.shell.tournament.views import current_standings

    at = now()
    with transaction(engine) as s:
        row = get(s, name)
        if not row.started:
            raise TournamentError("not_started", f"tournament {name} has not started: the rail's standings begin "
                                  "with play")
        day = day_number(datetime.fromisoformat(row.started), at)
        if any(loads(e.data).get("day") == day for e in events(s, name, "rail_standings")):
            return Sent(day, (), already=True)
        on = railbirds(s, name)
        table = ledger.get_table(s, tables_of(s, name)[0])
        kind, config = table.forum_kind, ledger.forum_settings(table)
        body = (f"Tournament {name} ({row.title}), standings at the end of day {day}:\n\n"
                + format_standings(current_standings(s, name))
                + "\n\n(You are on the rail of this tournament; ask the Dealer to take you off it.)")
        add_event(s, name, "rail_standings", iso(at), data={"day": day, "to": on})
    forum = forum_factory(kind, config, state)
    for who in on:
        forum.send_private(who, f"Tournament {name}: standings, day {day}", body)
    return Sent(day, tuple(on))


__all__ = ["Sent", "join", "railbirds", "send_standings"]
