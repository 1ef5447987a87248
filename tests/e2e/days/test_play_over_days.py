"""A table played over two simulated weeks with a fake clock, end to end: the real local forum,
the real SQLite ledger, the poll cycle and the Dealer's controls, every moment injected.

The table: roberts-nlhe, alice, bob, carol with 100 each, blinds 1/2; deadline 4 office hours,
office hours 9:00-18:00 New York time, weekends off; one reminder (halfway); out after 3
timeouts in a row; a flood notice after 2 invalid comments. Every moment below is worked out
by hand from those settings (4 December 2026 is a Friday).
"""

from __future__ import annotations

import re

from nomicpoker.adapters.local import LocalForum
from nomicpoker.ports import ForumError
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.dealer.controls import control
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.clock import events, ny, poll, say, start, table


class CrashingForum(LocalForum):
    """The local forum whose posting fails: a run that crashes after recording its events."""

    def post_comment(self, *a, **kw):
        raise ForumError("network", "connection reset (simulated)")


def test_two_weeks_of_play_over_days(tmp_path):
    t, clock = table(tmp_path)

    # -- Hand 1, Friday 17:00: a deadline across the weekend -------------------------------
    (opening, notice) = start(t, clock, ny(4, 17))
    # Button carol acts first. 4 office hours from Friday 17:00: one on Friday (17-18), three
    # on Monday from 9:00: Monday 12:00 New York, 17:00 UTC.
    assert "**carol** to act" in notice
    assert r"Deadline: 2026-12-07 17:00 UTC (Mon 2026-12-07 12:00 America/New\_York)." in notice
    # Saturday and Sunday, and Monday before halfway (two office hours: Monday 10:00): nothing.
    for moment in (ny(5, 12), ny(6, 23), ny(7, 9, 59)):
        assert poll(t, clock, moment) == []
    assert events(t) == []
    # Monday 10:00: the reminder is due; the run records it and crashes while posting. The next
    # run posts it (one reminder in the thread, naming carol, one in her inbox); later runs
    # post nothing more: it is never sent twice.
    clock.t = ny(7, 10)
    crashed = t.poll(now=clock, forum_factory=lambda kind, cfg, st: CrashingForum(forum_db_path(st)))
    assert not crashed.ok and t.new_dealer() == []
    (reminder,) = poll(t, clock, ny(7, 10, 5))
    assert reminder.startswith("carol: hand 1 is waiting for you to act. Your deadline: 2026-12-07 17:00 UTC")
    assert sum("hand 1 at table T is waiting for you to act" in m.body for m in t.forum.inbox("carol")) == 1
    assert poll(t, clock, ny(7, 10, 10)) == []
    assert poll(t, clock, ny(7, 11)) == []
    assert events(t) == [("reminder", "carol", 1)]

    # Monday 12:00: the deadline. carol faces the big blind: she cannot check, so she folds,
    # and is AWOL (1 of 3).
    out = poll(t, clock, ny(7, 12))
    assert out[0].startswith("carol's deadline passed at 2026-12-07 17:00 UTC (Mon 2026-12-07 12:00 America/New\\_York): the dealer acts for "
                             "them and folds (the deadline rule: check if that is legal, otherwise fold), as the "
                             "table's deadline says.")
    assert "carol is AWOL until they act (1 of 3 timeouts in a row before sitting out): on vacation" in out[0]
    assert "\u201cIf you miss your deadline you will be put on vacation and a $0 bet will be entered for you.\u201d" in out[0]
    assert "**alice** to act" in out[-1] and "AWOL" in out[-1]  # the status table marks her
    assert poll(t, clock, ny(7, 12, 10)) == []  # repeated: still one timeout
    assert events(t) == [("reminder", "carol", 1), ("timeout", "carol", 1)]
    # carol is on vacation since her timeout (WRGPT); she comes BACK to play hand 2 herself
    (back,) = say(t, clock, "carol", ny(7, 12, 20), "BACK")
    assert back.startswith("carol is back")

    # alice goes on vacation at her turn: the dealer acts for her at once (1 to call: she folds);
    # bob, the big blind, takes the pot; the table hears of the vacation at the hand's end.
    out = say(t, clock, "alice", ny(7, 12, 30), "GONE 13 Dec")
    assert out[0].startswith("alice is away: the dealer folds for them.")
    assert any("On vacation: alice (until 13 Dec)" in b for b in out)
    assert t.money() == {"alice": 99, "bob": 101, "carol": 100}

    # -- Hand 2, Monday 13:00 (button alice, away: folded at once) ---------------------------
    out = start(t, clock, ny(7, 13))
    assert any(b.startswith("alice is away: the dealer folds for them.") for b in out)
    # The status table: the until-string's first six characters where the status would be.
    assert re.search(r"\| D  alice +\| +99 \| +0 \| 13 Dec \|", out[-1])
    # carol floods: two invalid comments get their replies, the third one notice, the fourth none.
    # (An out-of-turn raise is no longer invalid here: roberts-nlhe takes it for her turn,
    # issue 22; these are wrong at any turn.)
    assert "(`bad_amount`)" in say(t, clock, "carol", ny(7, 13, 5), "HAND2 ROUND1 raise 0")[0]
    assert len(say(t, clock, "carol", ny(7, 13, 6), "HAND2 ROUND1 bet 11")) == 1
    (flood,) = say(t, clock, "carol", ny(7, 13, 7), "HAND2 ROUND1 raise 0")
    assert "further invalid comments from you are ignored" in flood
    assert say(t, clock, "carol", ny(7, 13, 8), "HAND2 ROUND1 bet 13") == []
    # bob (small blind) calls; carol's turn.
    out = say(t, clock, "bob", ny(7, 13, 10), "HAND2 ROUND1 call")
    assert "**carol** to act" in out[-1]
    # carol protests: the table freezes; her check meanwhile is kept, her deadline does not run.
    (filed,) = say(t, clock, "carol", ny(7, 13, 20), "PROTEST my timeout in hand 1 came early")
    assert "carol has filed a protest" in filed and "came early" not in filed
    assert say(t, clock, "carol", ny(7, 13, 30), "HAND2 ROUND1 check") == []
    assert poll(t, clock, ny(8, 17)) == []  # far past her deadline: nothing while frozen
    assert [k for k, _, _ in events(t)] == ["reminder", "timeout"]
    # The Dealer resolves it: the kept check applies, clearing carol's AWOL.
    clock.t = ny(8, 17, 30)
    done = control(t.engine, t.state, t.name, "resume", "the hand-1 timeout was right", now=clock)
    assert not done.report.error
    out = t.new_dealer()
    assert out[0].startswith("The Dealer resumes the table. The table runs again: the hand-1 timeout was right")
    assert "The comment posted during the freeze is adjudicated now." in out[0]
    assert any("**Flop**" in b for b in out)
    # The Dealer voids hand 2: every chip back where it was at the hand's start.
    clock.t = ny(8, 17, 40)
    control(t.engine, t.state, t.name, "void", "misdeal", now=clock)
    (void,) = t.new_dealer()
    assert "The Dealer voids hand 2: misdeal. Every chip goes back where it was at the hand's start: " \
           "alice 99, bob 101, carol 100." in void
    assert t.money() == {"alice": 99, "bob": 101, "carol": 100}

    # -- Hand 3, Wednesday 9:00: the redeal keeps the button (alice) ---------------------------
    # A misdeal is redealt ("The dealer will retrieve the card, reshuffle, and recut the
    # cards"): hand 3 replaces the voided hand 2 with the same button. bob posts the small
    # blind, carol the big one; alice (away) acts first and folds at once; bob folds.
    out = start(t, clock, ny(9, 9))
    assert "The Button: alice." in out[0]
    assert "Blinds 1/2: collected from 3 seated players, the pot is 3." in out[0]
    assert any(b.startswith("alice is away: the dealer folds for them.") for b in out)
    assert "**bob** to act" in out[-1]
    out = say(t, clock, "bob", ny(9, 9, 10), "HAND3 ROUND1 fold")
    assert t.money() == {"alice": 99, "bob": 100, "carol": 101}

    # -- Hand 4, Wednesday 9:30 (button bob): alice's big blind is posted for her -----------
    out = start(t, clock, ny(9, 9, 30))
    assert "The Button: bob." in out[0]
    assert "Blinds 1/2: collected from 3 seated players, the pot is 3." in out[0]
    assert re.search(r"\| V  alice +\| +97 \| +2 \| 13 Dec \|", out[0])  # V, and her big blind posted
    # bob lets his deadline pass (13:30): he folds, AWOL 1.
    out = poll(t, clock, ny(9, 13, 30))
    assert "bob is AWOL until they act (1 of 3" in out[0]
    # carol calls; alice (away) checks at once; the flop. Each action is said once: carol's
    # call opens the dealer's comment for alice (no turn notice came between them), and the
    # flop does not repeat alice's check.
    out = say(t, clock, "carol", ny(9, 14), "HAND4 ROUND1 call")
    assert out[0].startswith("carol calls. alice is away: the dealer checks for them.\n"), out[0]
    assert out[1].startswith("**Flop**: "), out[1]
    # carol times out on the flop (Thursday 17:45): she checks and is on vacation from then
    # (WRGPT: "put on vacation and a $0 bet will be entered for you"), so the dealer checks
    # for her at once on the turn and the river too, alice (away) checking after each: three
    # turns missed in a row, and she sits out later hands.
    out = poll(t, clock, ny(10, 17, 45))
    assert "carol is AWOL until they act (1 of 3" in out[0]
    assert any(b.startswith("carol is away: the dealer checks for them. carol is AWOL until they act (2 of 3")
               for b in out)
    assert any("carol has timed out 3 times in a row and sits out the next hands until they comment `BACK`."
               in b for b in out)
    # The showdown: alice left in hand 1, so she cannot win this contested hand: she mucks;
    # carol went away in this hand, so she may win it ("you can win the hand during which you
    # go on vacation"): the dealer shows her cards.
    assert any(b.startswith("alice is away: the dealer mucks for them.") for b in out)
    assert any(b.startswith("carol is away: the dealer shows") for b in out)
    assert t.money() == {"alice": 97, "bob": 100, "carol": 103}

    # -- Hand 5: carol sits out until BACK; alice still away ----------------------------------
    out = start(t, clock, ny(15, 10))
    assert "Not seated this hand: carol" in out[0]
    back = say(t, clock, "carol", ny(15, 10, 30), "BACK")
    assert back[0].startswith("carol is back") and "dealt into the next hand" in back[0]

    # Across all of it, each reminder and timeout once (worked out above: the polls on the days
    # of bob's and carol's hand-4 timeouts came after their deadlines, so those reminders were moot), the
    # Dealer's controls in between; and audit rebuilds everything identically.
    assert events(t) == [
        ("reminder", "carol", 1), ("timeout", "carol", 1), ("resume", "", 2), ("void", "", 2),
        ("timeout", "bob", 4), ("timeout", "carol", 4),
    ]
    names, diffs = audit(t.engine, t.state)
    assert names == ["T"] and diffs == []
