"""A reminder or a timeout fires exactly once when the poll is killed between recording it and
posting it (issue 11: "no reminder or timeout ever fires twice across repeated or crashed
polls").

The poll runs in a forked child with ``NOMICPOKER_CRASH_AT=k`` (:mod:`nomicpoker.shell.faults`):
it dies by ``os._exit`` at the k-th crash point, as ``kill -9`` would, with no rollback and no
cleanup. ``k`` is found by a traced run on a copy of the state: the first forum write after the
commit that records the alarm as a dealer event (before it: the event is recorded and nothing
is posted; after it: posted, not yet marked as sent). Then the poll runs again, as the next
cron run would, and once more later.

The table is the two-weeks table of tests/e2e/days/test_play_over_days.py: hand 1 starts on Friday
4 December 2026 at 17:00 New York with carol to act; 4 office hours (9:00-18:00, weekends off)
put her deadline on Monday at 12:00 and her one reminder (halfway) at Monday 10:00.
"""

from __future__ import annotations

import os

import pytest

from nomicpoker.shell import faults
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.store import open_engine

from kits.sweeps.crash import copy_state
from kits.tables.clock import events, ny, poll, start, table

REMINDER_AT = ny(7, 10)
DEADLINE_AT = ny(7, 12)


def _child_poll(state, moment, env: dict[str, str]) -> int:
    """The poll of ``state`` at ``moment`` in a forked child with ``env`` set; its exit code."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            faults.reset()
            os.environ.update(env)
            engine = open_engine(f"sqlite:///{state / 'ledger.db'}", create=False)
            code = 0 if poll_mod.poll(engine, state, now=lambda: moment).ok else 3
        except BaseException:  # noqa: BLE001 - a crash point is os._exit; anything else is 2
            code = 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _crash_point(t, moment, point: str) -> int:
    """The number of the first ``point`` reached after the poll's first commit (the one that
    records the alarm), from a traced run on a copy of the state."""
    t.engine.dispose()
    copy = t.tmp / "copy"
    copy_state(t.state, copy)
    trace = t.tmp / "trace"
    assert _child_poll(copy, moment, {faults.TRACE: str(trace)}) == 0
    names = [line.split(" ", 1)[1] for line in trace.read_text("utf-8").splitlines()]
    first_commit = names.index("after commit")
    return names.index(point, first_commit) + 1


def _reminders(t) -> list[str]:
    return [b for b in t.dealer_bodies() if b.startswith("carol: hand 1 is waiting for you to act.")]


def _private_reminders(t) -> list:
    return [m for m in t.forum.inbox("carol") if "hand 1 at table T is waiting for you to act" in m.body]


@pytest.mark.parametrize("point", ["before forum.post_comment", "after forum.post_comment",
                                   "before forum.send_private", "after forum.send_private"])
def test_a_reminder_fires_once_when_the_poll_is_killed_after_recording_it(tmp_path, point):
    t, clock = table(tmp_path)
    start(t, clock, ny(4, 17))
    assert poll(t, clock, ny(7, 9, 59)) == []  # before halfway: nothing
    k = _crash_point(t, REMINDER_AT, point)
    assert _child_poll(t.state, REMINDER_AT, {faults.AT: str(k)}) == faults.CRASH_EXIT
    assert events(t) == [("reminder", "carol", 1)]  # recorded before the kill
    if point == "before forum.post_comment":
        assert _reminders(t) == [] and _private_reminders(t) == []
    # The next cron runs, at once and later: one reminder in the thread, one in carol's inbox.
    poll(t, clock, REMINDER_AT)
    poll(t, clock, ny(7, 11))
    assert len(_reminders(t)) == 1 and len(_private_reminders(t)) == 1
    assert events(t) == [("reminder", "carol", 1)]
    assert audit(t.engine, t.state)[1] == []


@pytest.mark.parametrize("point", ["before forum.post_comment", "after forum.post_comment"])
def test_a_timeout_fires_once_when_the_poll_is_killed_after_recording_it(tmp_path, point):
    t, clock = table(tmp_path)
    start(t, clock, ny(4, 17))
    poll(t, clock, REMINDER_AT)
    k = _crash_point(t, DEADLINE_AT, point)
    assert _child_poll(t.state, DEADLINE_AT, {faults.AT: str(k)}) == faults.CRASH_EXIT
    assert events(t) == [("reminder", "carol", 1), ("timeout", "carol", 1)]
    poll(t, clock, DEADLINE_AT)
    poll(t, clock, ny(7, 15, 59))  # alice's deadline, 4 office hours from 12:00, is 16:00
    notices = [b for b in t.dealer_bodies() if b.startswith("carol's deadline passed")]
    # Once: carol (button, first to act, 2 to call: no check) folds, AWOL 1 of 3, and it is
    # alice's turn, not a second timeout of carol's.
    assert len(notices) == 1 and "(1 of 3 timeouts in a row" in notices[0]
    assert [e for e in events(t) if e[0] == "timeout"] == [("timeout", "carol", 1)]
    assert "**alice** to act" in t.dealer_bodies()[-2]
    assert t.dealer_bodies()[-1].startswith("alice: hand 1 is waiting for you to act.")  # 14:00
    # Money behind: the blinds (alice 1, bob 2) are in the pot; carol folded without paying.
    assert t.money() == {"alice": 99, "bob": 98, "carol": 100}
    assert audit(t.engine, t.state)[1] == []
