"""Everybody on vacation at the start (shell): WRGPT's "Often, a new tournament or new round will
start with everybody on vacation. This is done because it is not always known who will be on
vacation at the start of a tournament. Players then must send in a BACK command. As soon as all
players have done this, or when the standard timeout period has expired (whichever occurs
first), the table will start."

With the structure's ``start_on_vacation``, ``tournament start`` creates each table with every
player on vacation (``TableSettings.start_on_vacation``, read by the fold at creation:
:meth:`nomicpoker.core.table.days_state.DaysState.at_creation`) and opens each table's thread
before its first hand (:func:`open_threads`; where the forum cannot open one, the director posts
it and gives it with ``tournament thread``), where the players send ``BACK``. ``tournament
advance`` then says, per table not yet dealt, whether it may start
(:func:`nomicpoker.core.tournament.clock_rules.table_may_start`: everyone sent ``BACK``, or the
table's deadline has passed since the thread opened; no deadline: only the BACKs), and the
first ``hand start --thread`` deals in that thread: the BACK comments are archived before the
hand, so the fold reads them in order and whoever did not come back is dealt in on vacation
(the dealer acts for him), as WRGPT does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.reading.player_commands import Command, read_commands
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.tournament.clock_rules import table_may_start
from nomicpoker.core.words.tags import reference_tag
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory, forum_for
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import loads, transaction
from nomicpoker.shell.tournament.director import TournamentError, add_event, events, get, structure_of, tables_of

#: far enough never to pass: a table without a deadline starts only when everyone is BACK
_NEVER = timedelta(days=365 * 100)


@dataclass(frozen=True)
class TableThread:
    """A table's thread before its first hand: where it is (``thread``, "" until given), when
    it was opened, and what the director must post where the bot cannot open it (``ask``)."""

    table: str
    thread: str = ""
    opened: str = ""
    ask: str = ""


def table_threads(s: Session, name: str) -> dict[str, tuple[str, str]]:
    """table -> (thread, when it was opened or given): the last ``table_thread`` event of each."""
    out: dict[str, tuple[str, str]] = {}
    for e in events(s, name, "table_thread"):
        out[loads(e.data)["table"]] = (e.note, e.at)
    return out


def _announcement(name: str, title: str, table: str, players: list[str], hours: int | None, key: str) -> str:
    limit = (f"or when {hours} hours have passed since this post (the table's deadline), whichever comes first"
             if hours else "(the table has no deadline: it waits for everyone)")
    return (f"**Tournament {name} ({title}), table {table}: everybody starts on vacation.** "
            f"Players: {', '.join(players)}.\n\nWRGPT: \"Often, a new tournament or new round will start with "
            "everybody on vacation.\" Write BACK, alone on its line, in a comment here. The table starts as soon "
            f"as all of you have, {limit}; whoever has not is dealt in on vacation (the dealer checks or folds "
            f"for him) until he sends BACK.\n\n{reference_tag(key)}\n")


def open_threads(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
                 forum_factory: ForumFactory | None = None) -> list[TableThread]:
    """Open the thread of each table of a started ``start_on_vacation`` tournament that has
    none (found again by its tag after a crash, where the forum can); where the forum cannot
    open one, say what the director must post (``ask``). Run again, it opens nothing twice."""
    from nomicpoker.shell.cycle.replay import fold_for

    with Session(engine) as s:
        row = get(s, name)
        structure = structure_of(row)
        if not structure.start_on_vacation or not row.started:
            return []
        have = table_threads(s, name)
        todo = []
        for tname in tables_of(s, name):
            if tname in have:
                continue
            table = ledger.get_table(s, tname)
            hours = fold_for(s, table, state).settings.deadline_hours
            todo.append((table, ledger.roster(s, table), hours))  # seated now (a disqualification)
    out = [TableThread(t, *have[t]) for t in have]
    for table, players, hours in todo:
        forum = forum_for(table, state, forum_factory)
        key = f"{table.name}-vacation"
        title = f"Tournament {name}, table {table.name}: everybody starts on vacation"
        body = _announcement(name, row.title, table.name, players, hours, key)
        if not forum.abilities.create_thread:
            out.append(TableThread(table.name, ask=(
                f"post a story post for table {table.name} titled \"{title}\" saying that the players "
                f"({', '.join(players)}) start on vacation and write BACK in its comments, then give it: "
                f"nomicpoker tournament thread --name {name} --table {table.name} --thread URL")))
            continue
        thread = forum.find_thread_with(key) if forum.abilities.find_thread else None
        thread = thread or forum.create_thread(title, body)
        at = iso(now())
        with transaction(engine) as s:
            add_event(s, name, "table_thread", at, note=thread, data={"table": table.name})
        out.append(TableThread(table.name, thread, at))
    return out


def give_thread(engine: Engine, state: Path, name: str, table: str, thread: str,
                now: Callable[[], datetime] = utcnow, forum_factory: ForumFactory | None = None) -> TableThread:
    """The director gives a table the thread he posted (a blog's story post): checked to exist."""
    thread = thread.strip()
    with Session(engine) as s:
        row = get(s, name)
        if not row.started:
            raise TournamentError("not_started", f"tournament {name} has not started: its tables are made by "
                                  f"nomicpoker tournament start")
        if table not in tables_of(s, name):
            raise TournamentError("bad_table", f"{table} is not a table of tournament {name} (its tables: "
                                  f"{', '.join(tables_of(s, name))})")
        if ledger.hand_rows(s, table):
            raise TournamentError("hand_dealt", f"table {table} has dealt its first hand already: its threads are "
                                  "its hands' (nomicpoker hand start --thread)")
        t = ledger.get_table(s, table)
    if not thread or any(c.isspace() for c in thread):
        raise TournamentError("bad_thread", f"{thread!r} is not a thread reference (a URL or an id)")
    forum_for(t, state, forum_factory).list_comments(thread)  # ForumError('not_found') for a wrong one
    at = iso(now())
    with transaction(engine) as s:
        add_event(s, name, "table_thread", at, note=thread, data={"table": table})
    return TableThread(table, thread, at)


@dataclass(frozen=True)
class Waiting:
    """A table of a ``start_on_vacation`` tournament not dealt yet: may it start, in which
    thread, and who has not sent BACK (until when)."""

    table: str
    thread: str
    ready: bool
    missing: tuple[str, ...] = ()
    until: str = ""


def waiting(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
            forum_factory: ForumFactory | None = None) -> dict[str, Waiting]:
    """For each table not dealt yet of a ``start_on_vacation`` tournament: whether it may start
    (module docstring). The BACKs are read from the thread as the fold will read them (a
    seated player's line ``BACK`` in the visible text)."""
    from nomicpoker.shell.cycle.replay import fold_for

    with Session(engine) as s:
        row = get(s, name)
        if not structure_of(row).start_on_vacation or not row.started:
            return {}
        threads = table_threads(s, name)
        todo = []
        for tname in tables_of(s, name):
            if ledger.hand_rows(s, tname):
                continue
            table = ledger.get_table(s, tname)
            # seated now: a player disqualified (or entered late) before the first hand counts as the
            # fold counts him, not as the table was created
            todo.append((table, ledger.roster(s, table), fold_for(s, table, state).settings.deadline_hours))
    out: dict[str, Waiting] = {}
    at = now()
    for table, players, hours in todo:
        if table.name not in threads:
            out[table.name] = Waiting(table.name, "", False, tuple(players))
            continue
        thread, opened = threads[table.name]
        back = set()
        for c in forum_for(table, state, forum_factory).list_comments(thread):
            who = next((p for p in players if same_account(p, c.author)), None)
            if who is not None and not c.deleted and any(
                    isinstance(x, Command) and x.kind == "back" for x in read_commands(c.body, c.body_format)):
                back.add(who)
        start = datetime.fromisoformat(opened)
        timeout = timedelta(hours=hours) if hours else _NEVER
        ready = table_may_start(players, sorted(back), start, at, timeout)
        out[table.name] = Waiting(table.name, thread, ready, tuple(p for p in players if p not in back),
                                  iso(start + timeout) if hours else "")
    return out


__all__ = ["TableThread", "Waiting", "give_thread", "open_threads", "table_threads", "waiting"]
