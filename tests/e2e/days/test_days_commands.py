"""The commands and controls of play over days, one at a time, on the real local forum and
ledger with a fixed clock: WHAT re-sends hole cards, START moves a player's day from the next
hand, GONE RESIGN has no way BACK, UNDO withdraws only one's own protest (and means the protest
while it freezes the table, an advance action otherwise), a pause keeps
comments for later, the Dealer folds a player and seats and unseats between hands, table set
changes the deadline from then on, a vacation folds a player out of an unmade Hole Card Draw,
and Reddit mentions a user as u/name. Every expected value is worked out by hand."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from nomicpoker.adapters.local import LocalForum
from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.dealer.controls import control
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.dealer.service import ServiceError

from kits.tables.bot import Table
from kits.tables.rulesets import copy_ruleset, replace
from kits.tables.clock import Clock, hole, ny, poll, say, start

#: office hours 9-18 New York, Monday to Friday; 4 of them to act; no reminders
SETTINGS = {"deadline_hours": 4, "tz": "America/New_York", "day_start": 9, "day_length": 9,
            "weekends_off": True, "reminders": 0}


def nlhe(tmp_path, **settings) -> tuple[Table, Clock]:
    clock = Clock(ny(7, 8))
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="cmds", settings={**SETTINGS, **settings})
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    return t, clock


def ctl(t: Table, clock: Clock, moment, kind: str, note: str = "because", **kw) -> list[str]:
    clock.t = moment
    done = control(t.engine, t.state, t.name, kind, note, now=clock, **kw)
    assert not done.report.error
    return t.new_dealer()


def test_what_answers_in_public_and_resends_the_hole_cards_privately(tmp_path):
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))  # Monday 9:00; carol (button) to act, deadline 13:00 New York
    before = len(t.forum.inbox("bob"))
    (reply,) = say(t, clock, "bob", ny(7, 9, 30), "WHAT")
    assert reply.startswith("For bob (")
    assert "- Hand 1, betting; pot 3." in reply and "- In this hand: 2 put in, 98 behind." in reply
    assert "- Waiting for carol until 2026-12-07 18:00 UTC" in reply
    assert "- Status: active." in reply
    assert hole(t, "bob", 1) not in reply  # the cards stay private
    inbox = t.forum.inbox("bob")
    assert len(inbox) == before + 1 and f"({hole(t, 'bob', 1)})" in inbox[-1].body


def test_start_moves_a_players_day_from_the_next_hand(tmp_path):
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))
    (ack,) = say(t, clock, "carol", ny(7, 9, 10), "START 12")
    assert ack.startswith("carol's office hours start at 12:00 from the next hand")
    # This hand: carol's day still starts at 9:00 (13:10 New York is 18:10 UTC).
    out = say(t, clock, "carol", ny(7, 9, 10), "HAND1 ROUND1 folds")
    say(t, clock, "alice", ny(7, 9, 20), "HAND1 ROUND1 folds")
    # Hand 2 (button alice, who acts first): alice's day is the table's.
    (opening, notice) = start(t, clock, ny(7, 17))[:2]
    assert "2026-12-08 17:00 UTC" in notice  # 1 h Monday 17-18, 3 h Tuesday 9-12 New York
    say(t, clock, "alice", ny(7, 17, 10), "HAND2 ROUND1 call")  # bob, small blind, next
    say(t, clock, "bob", ny(7, 17, 20), "HAND2 ROUND1 call")
    # carol, big blind, from 17:20: with her day from 12:00 (to 21:00) she has 3 h 40 on Monday
    # and 20 min on Tuesday from 12:00: 12:20 New York, 17:20 UTC.
    with Session(t.engine) as s:
        cur = fold_for(s, ledger.get_table(s, t.name), t.state).current
    assert cur.to_act == "carol" and cur.alarms[-1].at == "2026-12-08T17:20:00+00:00"
    assert "(`bad_start`)" in say(t, clock, "carol", ny(7, 17, 30), "START 6:30")[0]


def test_a_resigned_player_cannot_come_back(tmp_path):
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))
    out = say(t, clock, "carol", ny(7, 9, 5), "GONE RESIGN")  # her turn: folded at once
    assert out[0].startswith("carol is away: the dealer folds for them.")
    (no,) = say(t, clock, "carol", ny(7, 9, 6), "BACK")
    assert "(`resigned`)" in no and "no coming BACK after GONE RESIGN" in no


def test_undo_withdraws_only_ones_own_protest_and_the_kept_comments_then_act(tmp_path):
    t, clock = nlhe(tmp_path, floorman="referee")
    start(t, clock, ny(7, 9))
    (filed,) = say(t, clock, "bob", ny(7, 9, 5), "PROTEST the blinds are wrong")
    assert "bob has filed a protest" in filed and "blinds are wrong" not in filed
    assert "the blinds are wrong" in t.forum.inbox("referee")[-1].body  # the floorman's copy
    clock.t = ny(7, 9, 6)
    report = t.poll(now=clock)
    assert say(t, clock, "carol", ny(7, 9, 10), "HAND1 ROUND1 folds") == []  # kept
    assert say(t, clock, "alice", ny(7, 9, 11), "UNDO") == []  # kept too: not her protest
    out = say(t, clock, "bob", ny(7, 9, 20), "UNDO")
    assert out[0].startswith("bob withdraws the protest. The table runs again.")
    assert "The 2 comments posted during the freeze are adjudicated now, in order." in out[0]
    # alice's UNDO, in its turn: she has no protest, so it is read as withdrawing her advance
    # action (roberts-nlhe has them), of which she has none
    assert "alice: you had no advance action." in out[-1]
    assert any("**alice** to act" in b for b in out)
    assert audit(t.engine, t.state)[1] == []


def test_a_protesters_undo_withdraws_the_protest_and_leaves_the_advance_action(tmp_path):
    """UNDO means the protest while the author's protest freezes the table, their advance
    action otherwise (docs/comment-grammar.md)."""
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))  # carol (button) to act, then alice (small blind), bob (big blind)
    (kept,) = say(t, clock, "bob", ny(7, 9, 1), "FOLD/S")  # WRGPT's FOLD ("FOLD" alone is the ordinary fold)
    assert kept.startswith("bob's advance action: FOLD.")
    say(t, clock, "bob", ny(7, 9, 2), "PROTEST the deck looks stacked")
    (back,) = say(t, clock, "bob", ny(7, 9, 3), "UNDO")
    assert back.startswith("bob withdraws the protest. The table runs again.")
    (gone,) = say(t, clock, "bob", ny(7, 9, 4), "UNDO")  # no freeze now: the advance action
    assert gone.startswith("bob: your advance action FOLD is withdrawn.")
    say(t, clock, "carol", ny(7, 9, 5), "call")
    out = say(t, clock, "alice", ny(7, 9, 6), "call")
    assert "**bob** to act" in out[-1]  # no FOLD fired for him
    with Session(t.engine) as s:
        undos = [v for v in ledger.stored_rows(s, t.name, "verdict") if v.canonical == "UNDO"]
    assert [(v.author, v.status) for v in undos] == [("bob", "accepted")] * 2
    assert audit(t.engine, t.state)[1] == []


def test_a_private_undo_never_withdraws_a_protest(tmp_path):
    """A private message carries only advance actions: the protester's UNDO sent privately
    during the freeze is kept with the other comments and, read after the Dealer resumes,
    withdraws an advance action (there is none), answered privately."""
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))
    say(t, clock, "bob", ny(7, 9, 5), "PROTEST the blinds are wrong")
    clock.t = ny(7, 9, 6)
    t.forum.send_private_as("bob", t.forum.dealer, "advance (T)", "UNDO")
    assert poll(t, clock, ny(7, 9, 6)) == []
    with Session(t.engine) as s:
        assert fold_for(s, ledger.get_table(s, t.name), t.state).frozen == "protest"
    out = ctl(t, clock, ny(7, 9, 10), "resume", "denied")
    assert out[0].startswith("The Dealer resumes the table.")
    assert "you had no advance action" in t.forum.inbox("bob")[-1].body
    assert audit(t.engine, t.state)[1] == []


def test_pause_keeps_comments_and_no_deadline_runs_until_resume(tmp_path):
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))
    (paused,) = ctl(t, clock, ny(7, 9, 1), "pause", "server move")
    assert paused.startswith("The Dealer pauses the table: server move.")
    with pytest.raises(ServiceError) as err:
        ctl(t, clock, ny(7, 9, 2), "pause", "again")
    assert err.value.code == "frozen"
    assert say(t, clock, "carol", ny(7, 9, 5), "HAND1 ROUND1 call") == []
    assert poll(t, clock, ny(9, 9)) == []  # two days on: no timeout while paused
    out = ctl(t, clock, ny(9, 10), "resume", "moved")
    assert out[0].startswith("The Dealer resumes the table. The table runs again: moved.\n\n"
                             "The comment posted during the freeze is adjudicated now.")
    # carol's call counts from the resume: alice's deadline is Wednesday 14:00 New York.
    assert "2026-12-09 19:00 UTC" in out[-1] and "**alice** to act" in out[-1]


def test_the_dealer_folds_a_player_and_seats_and_unseats_between_hands(tmp_path):
    t, clock = nlhe(tmp_path)
    start(t, clock, ny(7, 9))
    with pytest.raises(ServiceError) as err:
        ctl(t, clock, ny(7, 9, 1), "unseat", "leaving", player="bob")
    assert err.value.code == "hand_running"
    out = ctl(t, clock, ny(7, 9, 2), "fold", "asked to be folded", player="carol")
    assert out[0].startswith("The Dealer folds carol out of hand 1: asked to be folded.")
    say(t, clock, "alice", ny(7, 9, 3), "HAND1 ROUND1 folds")  # bob wins the blinds
    assert t.money() == {"alice": 99, "bob": 101, "carol": 100}
    (note,) = ctl(t, clock, ny(7, 10), "unseat", "on leave", player="bob")
    assert note.startswith("The Dealer: bob sits out from the next hand (on leave).")
    out = start(t, clock, ny(7, 11))
    assert "Not seated this hand: bob" in out[0]
    with pytest.raises(ServiceError):
        ctl(t, clock, ny(7, 11, 1), "seat", "back", player="bob")  # a hand is running
    assert audit(t.engine, t.state)[1] == []


def test_table_set_changes_the_deadline_from_then_on(tmp_path):
    t, clock = nlhe(tmp_path)
    clock.t = ny(7, 8)  # before any hand: recorded, nothing to post
    assert not control(t.engine, t.state, t.name, "settings", "", data={"deadline_hours": 2}, now=clock).report.error
    (opening, notice) = start(t, clock, ny(7, 9))[:2]
    assert "2026-12-07 16:00 UTC" in notice  # 9:00 + 2 office hours = 11:00 New York
    out = ctl(t, clock, ny(7, 9, 30), "settings", "holidays", data={"deadline_hours": 8})
    assert out[0].startswith("The Dealer changes the table's settings (holidays): deadline 8 office hours")
    with Session(t.engine) as s:
        cur = fold_for(s, ledger.get_table(s, t.name), t.state).current
    assert cur.alarms[-1].at == "2026-12-07T22:00:00+00:00"  # 9:00 + 8 office hours = 17:00 New York


def test_a_player_on_vacation_is_folded_out_of_the_hole_card_draw(tmp_path):
    clock = Clock(ny(7, 8))
    t = Table(tmp_path, players=("alice", "bob", "carol"), seed="vac", settings=dict(SETTINGS))
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    start_own = t.start(ante=5, now=clock)
    t.new_dealer()
    say(t, clock, "alice", ny(7, 9), "GONE next week")
    out = t.new_dealer()
    with Session(t.engine) as s:
        cur = fold_for(s, ledger.get_table(s, t.name), t.state).current
    assert "alice" not in cur.waiting and set(cur.waiting) == {"bob", "carol"}


def test_reddit_mentions_a_user_as_u_name():
    assert RedditForum.abilities.mentioning("alice") == "u/alice"
    assert LocalForum.abilities.mentioning("alice") == "alice"


def test_a_rulesets_deadline_is_the_default_a_table_setting_overrides(tmp_path):
    """issue 11: "A ruleset may set a default": a copy of roberts-nlhe whose text sets 6 hours.
    A table without a deadline setting runs on it (plain hours: the default 24-hour days); a
    table that sets ``deadline_hours=none`` has none."""
    rules = copy_ruleset(tmp_path / "nlhe-6h", "roberts-nlhe")
    replace(rules, '[params.deadline_hours]\nvalue = "none"', "[params.deadline_hours]\nvalue = 6")
    clock = Clock(ny(7, 8))
    for name, settings, due in (("six", {"reminders": 0}, "2026-12-07 20:00 UTC"),
                                ("none", {"reminders": 0, "deadline_hours": None}, None)):
        t = Table(tmp_path / name, players=("alice", "bob"), ruleset=str(rules), issue_decks=False,
                  settings=settings)
        t.forum = LocalForum(forum_db_path(t.state), clock=clock)
        notice = start(t, clock, ny(7, 9))[-1]  # 14:00 UTC + 6 hours
        if due:
            assert f"Deadline: {due}" in notice
        else:
            assert "Deadline" not in notice
