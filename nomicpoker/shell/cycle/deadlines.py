"""Deadlines (shell): every clock check of the poll cycle, and the dealer events they record.

The fold never reads the clock (:mod:`nomicpoker.core.fold.adjudicator`): when the poll finds that
a deadline has passed, it records a dealer event with the time (``np_dealer_event``) and the
fold, replayed, decides what it means. The fold reports the moments (``FoldResult.alarms``:
office hours, the player's own start of day, the cap, the reminders before each deadline);
this room compares them with the clock:

- the **turn deadline** (``timeout``): the player to act in a betting round, or a player
  still to reveal at showdown, from the hand's last change;
- the **Hole Card Draw deadline** (``draw_timeout``): each player with no valid draw while
  somebody else has one, from the hand start or their last identical-dice draw
  (:func:`nomicpoker.core.fold.draws.draw_clock`);
- the **reminders** (``reminder``) before each, naming the player the forum's way;
- a **stalled** hand (``stalled``): the Hole Card Draw deadline passed while nobody had drawn,
  so the rule folds nobody out; recorded once, said in the thread, and the poll warns the
  Dealer and exits 3 (:data:`nomicpoker.shell.jobs.poll.STALLED_EXIT`).

WHY events and not a clock inside the fold: a replay (``audit``) a month later must reach the
same verdicts; the recorded time is an input like a comment.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from sqlmodel import Session

from nomicpoker.core.table.days_state import REMINDER
from nomicpoker.core.table.fold_types import Alarm, CurrentHand
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import DealerEventRow, TableRow, dumps

Clock = Callable[[], datetime]

#: Deadlines handled in one run: several players may time out in a row (each timeout moves the
#: turn on and may start the next player's clock, already expired). The bound keeps a run
#: finite; any left over are handled by the next run.
MAX_TIMEOUTS_PER_RUN = 8


def utcnow() -> datetime:
    """The one clock of the poll cycle; callers and tests pass their own ``now`` instead."""
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """A moment as the ledger stores it: UTC, whole seconds, so replays compare as text."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def due_alarms(cur: CurrentHand | None, now: datetime) -> list[Alarm]:
    """The fold's alarms (:mod:`nomicpoker.core.table.days_state`) that have passed at ``now``. When
    a deadline has passed, its earlier reminders are moot: only the deadlines are returned.
    Of several reminders passed for one player, only the last (the others are moot too)."""
    passed = [a for a in (cur.alarms if cur is not None else ()) if datetime.fromisoformat(a.at) <= now]
    deadlines = [a for a in passed if a.kind != REMINDER]
    if deadlines:
        return deadlines
    last: dict[str, Alarm] = {}
    for a in passed:
        if a.player not in last or a.n > last[a.player].n:
            last[a.player] = a
    return list(last.values())


def record_due(session: Session, table: TableRow, cur: CurrentHand | None, now: datetime) -> bool:
    """Record a dealer event for each alarm of the table's current hand (``cur.alarms``, as the
    fold left it) that has passed at ``now``: reminders (``reminder``, with their number), a
    ``timeout`` for a player waited on in a betting round or at the showdown, a
    ``draw_timeout`` per player in the draw phase. The fold computed the moments (office
    hours, the player's own start of day, the cap) and left out what is already recorded, so
    a repeated or crashed run never records one twice; nothing runs while the table is
    frozen. True when one was recorded (the caller folds again)."""
    due = due_alarms(cur, now)
    if not due:
        return False
    after = ledger.max_archive_id(session, table.name)
    for alarm in due:
        session.add(DealerEventRow(table_name=table.name, hand=alarm.hand, after=after, kind=alarm.kind,
                                   player=alarm.player, at=iso(now), data=dumps(alarm.data())))
    session.flush()
    return True
