"""A poll that resumes the fold from its snapshot reads each comment exactly as a replay from
the first input does (``audit``), one test per difference the resume sweep found
(tests/kits/sweeps/resume.py, tests/e2e/days/test_days_resume_sweep.py, issue 24).

Each table here is polled after every comment, so every poll resumes from the last one's
snapshot; ``audit`` replays from nothing and compares every row and post."""

from __future__ import annotations

from nomicpoker.shell.audit.audit import audit

from kits.tables.bot import Table


def _poll(t: Table) -> None:
    report = t.poll()
    assert report.ok, [x.error for x in report.tables]
    assert report.tables[0].folded in ("resumed", "unchanged"), report.tables[0].folded


def _to_act(t: Table) -> str:
    return next(p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x")


def test_a_bare_action_in_the_last_hands_thread_is_read_with_that_hands_seats_after_a_resume(tmp_path):
    """Under a ruleset that reads bare actions, ``call`` is an action from a player seated in
    the thread's hand and chat from anyone else ("a bare betting word ... is chat from someone
    not seated in the thread's hand"). A resumed fold knew the seats of the current hand only
    (a closed hand came back from the snapshot without its start record), so alice's late
    ``call`` under hand 1, once hand 2 had started, was chat when polled and ``hand_over`` in
    the replay."""
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    hand1 = t.p
    _poll(t)
    for _ in range(2):  # two players fold: the third wins hand 1
        hand1[_to_act(t)].say("fold")
        _poll(t)
    t.start(ante=0, blinds=(1, 2))
    _poll(t)
    before = set(t.dealer_bodies_all())
    hand1["alice"].say("call")  # in hand 1's thread, where alice was seated
    _poll(t)
    said = [b for b in t.dealer_bodies_all() if b not in before]
    assert any("no hand is running in this thread: hand 1 is over" in b for b in said), said
    assert audit(t.engine, t.state)[1] == []
