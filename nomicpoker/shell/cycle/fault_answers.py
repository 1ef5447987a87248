"""The ``internal_error`` answers the ledger records (shell).

When reading one comment raises (a fault of nomicpoker, not of the comment), the fold's
safety net answers it ``internal_error`` (:func:`nomicpoker.core.fold.fold_run.fold_stream`). That
answer rests on the software, not on the rule text, so it must not be worked out again at
each replay: a release that fixes the fault would read the comment for real, derive another
history, and the poll would stop the table ("verdict row ... differs from the replay"). So the
poll records each one, in the transaction that stores the answer, as a dealer event
(``kind = internal_error``, :data:`~nomicpoker.core.table.fold_types.INTERNAL_ERROR_EVENT`) naming
the revision, the release that answered it and the exception's type; every later fold (the
poll's, ``audit``'s, on any release) answers that revision ``internal_error`` as recorded,
without reading it.

A ledger written before the answers were recorded holds ``internal_error`` verdicts with no
event: :func:`backfill` records those from the verdict rows, before a replay from the first
input could read the comments again (the first poll after upgrading replays from the start:
the fold's code changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from sqlalchemy import select as core_select
from sqlmodel import Session

import nomicpoker
from nomicpoker.core.table.fold_types import INTERNAL_ERROR, INTERNAL_ERROR_EVENT, failure_data
from nomicpoker.shell.cycle.deadlines import iso
from nomicpoker.shell.storage.store import CommentRow, DealerEventRow, HandRow, VerdictRow, dumps, loads

Key = tuple[str, str, int]  # (thread, forum id, revision)


@dataclass(frozen=True)
class Recorded:
    """One recorded answer, as ``audit`` and the site show it."""

    key: Key
    author: str
    hand: int
    at: str
    release: str
    error: str

    def line(self, table: str) -> str:
        thread, forum_id, revision = self.key
        what = f"({self.error})" if self.error else "(recorded from the ledger's verdict)"
        return (f"{table}: comment {thread}#{forum_id} revision {revision} by {self.author} was answered "
                f"{INTERNAL_ERROR} by nomicpoker {self.release or '?'} at {self.at} {what}: a recorded "
                "answer, replayed as recorded, not read again")


def recorded(session: Session, table: str) -> dict[Key, Recorded]:
    """The table's recorded ``internal_error`` answers, by revision, in the order recorded."""
    t = DealerEventRow.__table__.c  # type: ignore[attr-defined]
    rows = session.execute(core_select(t.player, t.hand, t.at, t.data)
                           .where(t.table_name == table, t.kind == INTERNAL_ERROR_EVENT).order_by(t.id)).all()
    out: dict[Key, Recorded] = {}
    for player, hand, at, data in rows:
        d = loads(data or "{}") or {}
        try:
            key = (str(d["thread"]), str(d["forum_id"]), int(d["revision"]))
        except (KeyError, TypeError, ValueError):
            continue  # the fold refuses it with one line (fold_types.recorded_failure)
        out.setdefault(key, Recorded(key, player, hand, at, str(d.get("release", "")), str(d.get("error", ""))))
    return out


def record(session: Session, table: str, failures: Iterable[tuple[Key, BaseException | None]],
           now: datetime) -> int:
    """Record each failed revision that is not recorded yet, inside the caller's transaction
    (the one that stores its answer); return how many were. ``None`` for the exception: the
    answer is taken from the ledger's verdict (:func:`backfill`). The event sits after the
    revision's archive position, in the hand that was running when it was read."""
    have = recorded(session, table)
    n = 0
    for key, exc in failures:
        if key in have:
            continue
        thread, forum_id, revision = key
        c = CommentRow.__table__.c  # type: ignore[attr-defined]
        row = session.execute(core_select(c.id, c.author).where(
            c.table_name == table, c.thread == thread, c.forum_id == forum_id, c.revision == revision)).first()
        if row is None:
            continue  # not an archived revision: nothing to answer
        position, author = int(row[0]), str(row[1])
        h = HandRow.__table__.c  # type: ignore[attr-defined]
        hand = session.execute(core_select(h.number).where(h.table_name == table, h.after < position)
                               .order_by(h.number.desc()).limit(1)).scalar()
        error = type(exc).__name__ if exc is not None else ""
        note = (f"answered {INTERNAL_ERROR} by nomicpoker {nomicpoker.__version__}"
                + (f" ({error})" if error else ", recorded from the ledger's verdict"))
        session.add(DealerEventRow(table_name=table, hand=int(hand or 0), after=position, kind=INTERNAL_ERROR_EVENT,
                                   player=author, at=iso(now), note=note,
                                   data=dumps(failure_data(key, nomicpoker.__version__, error))))
        have[key] = Recorded(key, author, int(hand or 0), iso(now), nomicpoker.__version__, error)
        n += 1
    if n:
        session.flush()
    return n


def backfill(session: Session, table: str, now: datetime) -> int:
    """Record the ``internal_error`` verdicts of a ledger written before these answers were
    recorded (one query of the table's ``internal_error`` verdicts: none, almost always)."""
    v = VerdictRow.__table__.c  # type: ignore[attr-defined]
    rows = session.execute(core_select(v.thread, v.forum_id, v.revision).where(
        v.table_name == table, v.code == INTERNAL_ERROR).order_by(v.seq)).all()
    if not rows:
        return 0
    return record(session, table, [((str(t), str(f), int(r)), None) for t, f, r in rows], now)
