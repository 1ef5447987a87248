"""``nomicpoker serve``: the long-running mode for tables on a live chat (IRC).

Why a process that stays, and not cron: IRC keeps no history. A line exists only while it
passes, so something must be connected to hear it; cron would connect, find nothing said
(what was said while it was away is gone) and leave. ``serve`` keeps the Dealer's bridge
connected (:class:`nomicpoker.ports.Bridge`, opened by the registry for every active table
whose forum declares ``Abilities.live``), and:

- the bridge writes every line to its log the moment it arrives, with a stable id, before
  anything else (so a crash after that loses nothing: the next poll archives it);
- after each new line, the poll cycle runs for that table (:func:`nomicpoker.shell.jobs.poll.poll`,
  unchanged: archive, fold, store, send), so a player is answered within a second, and what
  the poll "sends" is spooled in the log for the bridge to transmit;
- every ``tick`` seconds every live table is polled (deadlines pass without anyone speaking)
  and the games are announced in the listing channel;
- at start, every live table is polled once first: lines logged before a crash are archived.

A dropped connection is retried with a growing wait (up to ``max_backoff``); the poll of the
other tables goes on meanwhile. A poll that finds the lock busy (a cron ``poll`` or a ``hand
start`` in another shell) is retried on the next turn: the line is in the log already.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.errors import CodedError
from nomicpoker.ports import Bridge, ForumError, GameListing
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.jobs.poll import PollReport, poll
from nomicpoker.shell.storage.store import TableRow, loads

BridgeFactory = Callable[[Sequence[tuple[str, str, dict]], Path], list[Bridge]]
#: seconds a serve poll waits for a lock held by a cron poll or a hand start
LOCK_WAIT = 30.0


class ServeError(CodedError):
    """``serve`` cannot run (no live table)."""


def default_bridges(tables: Sequence[tuple[str, str, dict]], state: Path) -> list[Bridge]:
    from nomicpoker.shell.cycle.forums import open_bridges

    return open_bridges(tables, state)


def live_tables(engine: Engine, only: str | None = None) -> list[tuple[str, str, dict]]:
    """``(name, kind, config)`` of the active tables whose forum is a live chat."""
    out = []
    with Session(engine) as s:
        if only is not None:  # a table named on the command line: say exactly what is wrong with it
            named = ledger.get_table(s, only)  # StoreError('no_table') listing the tables there are
            kind = named.forum_kind
            if not ledger.table_abilities(named).live:
                raise ServeError("not_live", f"table {only!r} is on the {kind} forum, not a live chat: "
                                 "serve is for IRC tables; run nomicpoker poll for it (from cron)")
            if not named.active:
                raise ServeError("inactive", f"table {only!r} is not active: nothing to serve")
        for t in s.exec(select(TableRow).where(TableRow.active == True).order_by(TableRow.id)).all():  # noqa: E712
            if only is not None and t.name != only:
                continue
            if ledger.table_abilities(t).live:
                out.append((t.name, t.forum_kind, ledger.forum_settings(t)))
    return out


def listings(engine: Engine, names: Sequence[str]) -> list[GameListing]:
    """What the listing channel says about each table, from the ledger: seats with Money,
    the latest hand's blinds and ante, the starting Money, when the table was created."""
    out = []
    with Session(engine) as s:
        for name in names:
            t = ledger.get_table(s, name)
            money = ledger.current_money(s, t)
            players = ledger.roster(s, t)  # seated now: a tournament moves players between tables
            seated = sum(1 for p in players if money.get(p, 0) > 0)
            hands = ledger.hand_rows(s, name)
            blinds = loads(hands[-1].blinds) if hands else []
            small, big = (blinds + [0, 0])[:2] if len(blinds) >= 2 else (0, 0)
            started = datetime.fromisoformat(t.created)
            if started.tzinfo is None:
                started = started.replace(tzinfo=timezone.utc)
            out.append(GameListing(table=name, ruleset=t.ruleset, seats=len(players),
                                   small_blind=int(small), big_blind=int(big),
                                   ante=int(hands[-1].ante) if hands else 0, money=int(t.money),
                                   started=started, open=bool(t.active) and seated >= 2))
    return out


@dataclass
class ServeState:
    """What a serve loop has done so far (tests and the log read it)."""

    polls: int = 0
    dirty: set[str] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)


def serve(engine: Engine, state: Path, *, table: str | None = None, tick: float = 60.0,
          step: float = 1.0, stop: Callable[[], bool] = lambda: False,
          bridges: BridgeFactory = default_bridges, report: Callable[[str], None] = lambda line: None,
          monotonic: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
          max_backoff: float = 300.0, poll_kwargs: dict | None = None) -> ServeState:
    """Run until ``stop()`` is true. ``report`` gets one line per poll that did something and
    per connection change (the CLI logs them). ``poll_kwargs`` go to every poll (the site
    directory; tests pass their clock)."""
    tables = live_tables(engine, table)
    if not tables:
        raise ServeError("no_live_tables", "no active table is on a live chat (IRC): nothing to serve"
                         + (f" (table {table!r})" if table else "") + "; see docs/irc.md")
    run = ServeState()
    opened = bridges(tables, state)
    retry_at = {id(b): 0.0 for b in opened}
    backoff = {id(b): 0.0 for b in opened}
    connected: set[int] = set()
    names = [name for name, _, _ in tables]
    run.dirty.update(names)  # lines logged before a restart are archived first
    last_tick = monotonic()

    def do_poll(name: str) -> None:
        result: PollReport = poll(engine, state, table=name, lock_timeout=LOCK_WAIT, **(poll_kwargs or {}))
        run.polls += 1
        if result.busy:
            return  # stays dirty: the next turn tries again
        run.dirty.discard(name)
        for t in result.tables:
            line = t.line()
            if not line.endswith("nothing new"):
                run.lines.append(line)
                report(line)

    try:
        while not stop():
            for b in opened:
                key = id(b)
                if key not in connected:
                    if monotonic() < retry_at[key]:
                        continue
                    try:
                        b.start()
                        connected.add(key)
                        backoff[key] = 0.0
                        report(f"connected for {', '.join(b.tables)}")
                        b.announce(listings(engine, b.tables))
                    except ForumError as exc:
                        if not exc.retry:
                            raise
                        backoff[key] = min(max_backoff, max(5.0, backoff[key] * 2))
                        retry_at[key] = monotonic() + backoff[key]
                        report(f"cannot connect ({exc}); again in {backoff[key]:g}s")
                        continue
                try:
                    run.dirty |= b.step(step)
                except ForumError as exc:
                    connected.discard(key)
                    b.close()
                    retry_at[key] = monotonic() + 1.0
                    report(f"connection lost ({exc}); reconnecting (lines said meanwhile are not heard)")
            for name in sorted(run.dirty):
                do_poll(name)
            if monotonic() - last_tick >= tick:
                last_tick = monotonic()
                for name in names:
                    do_poll(name)
                current = listings(engine, names)
                for b in opened:
                    if id(b) in connected:
                        b.announce([g for g in current if g.table in b.tables])
            if not connected:
                sleep(min(step, 1.0))
    finally:
        for b in opened:
            b.close()
    return run
