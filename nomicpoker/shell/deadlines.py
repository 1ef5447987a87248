"""Deadlines (shell): every clock check of the poll cycle, and the dealer events they record.

The fold never reads the clock (:mod:`nomicpoker.core.adjudicator`): when the poll finds that
a deadline has passed, it records a dealer event with the time (``np_dealer_event``) and the
fold, replayed, decides what it means. The deadlines, all counted in the table's
``--deadline-hours`` from the time the fold reports (:class:`~nomicpoker.core.fold_types.CurrentHand`):

- the **turn deadline** (``timeout``): the player to act in a betting round, or a player
  still to reveal at showdown, from the hand's last change;
- the **Hole Card Draw deadline** (``draw_timeout``): each player with no valid draw while
  somebody else has one, from the hand start or their last identical-dice draw
  (:func:`nomicpoker.core.draws.draw_clock`).

WHY events and not a clock inside the fold: a replay (``audit``) a month later must reach the
same verdicts; the recorded time is an input like a comment.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Callable

from sqlmodel import Session

from nomicpoker.core.fold_types import DRAW_TIMEOUT, TURN_TIMEOUT, CurrentHand
from nomicpoker.shell import ledger
from nomicpoker.shell.store import DealerEventRow, TableRow

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


def _record(session: Session, table: TableRow, cur: CurrentHand, kind: str, players: list[str],
            now: datetime) -> None:
    after = ledger.max_archive_id(session, table.name)
    for player in players:
        session.add(DealerEventRow(table_name=table.name, hand=cur.number, after=after,
                                   kind=kind, player=player, at=iso(now)))
    session.flush()


def draw_deadlines_due(table: TableRow, cur: CurrentHand, now: datetime) -> list[str]:
    """The players whose Hole Card Draw deadline has passed at ``now``."""
    hours = timedelta(hours=table.deadline_hours or 0)
    return [p for p, since in cur.draw_clock if now >= datetime.fromisoformat(since) + hours]


def turn_deadline_due(table: TableRow, cur: CurrentHand, now: datetime) -> str | None:
    """The player whose turn (or reveal) deadline has passed at ``now``, if any."""
    if cur.phase not in ("betting", "reveal") or not cur.waiting:
        return None
    if now < datetime.fromisoformat(cur.since) + timedelta(hours=table.deadline_hours or 0):
        return None
    return cur.waiting[0]


def record_due(session: Session, table: TableRow, cur: CurrentHand | None, now: datetime) -> bool:
    """Record a dealer event for each deadline of the table's current hand (``cur``, as the
    fold left it) that has passed at ``now`` (a ``draw_timeout`` per player in the draw phase,
    else one ``timeout`` for the player waited on); True when one was recorded (the caller
    folds again)."""
    if not table.deadline_hours or cur is None:
        return False
    if cur.phase == "draw":
        due = draw_deadlines_due(table, cur, now)
        _record(session, table, cur, DRAW_TIMEOUT, due, now)
        return bool(due)
    player = turn_deadline_due(table, cur, now)
    if player is None:
        return False
    _record(session, table, cur, TURN_TIMEOUT, [player], now)
    return True
