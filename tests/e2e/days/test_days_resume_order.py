"""A poll that resumes the fold from its snapshot posts exactly what a replay from the first
comment posts: the order in which things happened survives the snapshot.

Found by the 1,000-player tournament benchmark: the end-of-hand post "On vacation: ..." named
two players in the order they went when replayed, and in alphabetical order when the poll
resumed from its snapshot (stored as JSON with sorted keys), so ``audit`` found a wording
difference. Here carol goes before bob (not the alphabetical order), each comment polled on its
own (so every poll resumes from the last one's snapshot), and the post must name carol first,
as WRGPT announces vacations: in the order they were sent."""

from __future__ import annotations

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table
from kits.tables.clock import Clock, ny, say, start

SETTINGS = {"deadline_hours": 4, "tz": "America/New_York", "day_start": 9, "day_length": 9,
            "weekends_off": True, "reminders": 0}


def test_vacations_are_announced_in_the_order_they_were_sent_after_a_resumed_poll(tmp_path):
    clock = Clock(ny(7, 8))
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="order", settings=dict(SETTINGS))
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    start(t, clock, ny(7, 9))  # carol (button) to act first
    say(t, clock, "carol", ny(7, 9, 10), "GONE Friday")
    say(t, clock, "bob", ny(7, 9, 20), "GONE Thursday")
    out = say(t, clock, "alice", ny(7, 9, 30), "HAND1 fold")
    (ended,) = [p for p in out if "On vacation:" in p]
    assert "On vacation: carol (until Friday), bob (until Thursday)." in ended, ended
    assert audit(t.engine, t.state)[1] == []
