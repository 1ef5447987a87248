"""A fold without a hub (issue 23): a phase returns what happened as values
(:mod:`nomicpoker.core.fold.effects`) and the fold applies them. The phases' behaviour is pinned
by their own tests (tests/e2e/hands/test_score.py, test_draw_deadline.py, test_play_over_days.py ...,
unchanged); here, that each phase written so is a pure function of its input that returns those
values, leaves the state it is given as it was, and never reaches into the fold."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from nomicpoker.core.fold import (advance_fold, advance_private, away, betting_fold, dealer_controls, draws, ordinary, over_days,
                                   score_fold)
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.fold.effects import (AdvanceHand, DaysSet, FirstReading, HandSet, LogChanges, LogSteps, Message,
                                          Post, Readjudicate, ScoreAnswered, ScoreAsked, TakeAdvance, Verdict)
from nomicpoker.core.table.snapshot import encode
from nomicpoker.core.reading.comment_reading import Facts, TextReading, read_revision
from nomicpoker.core.table.fold_types import DealerEvent, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset

from kits.tables.fold import CONFIG as DRAW_CONFIG, START as DRAW_START, build

CFG = TableConfig("T", ("alice", "bob"), 100, "Dealer", load_ruleset("roberts-nlhe"), "roberts-nlhe")
REV = Revision(3, "1", "c9", 1, "bob", "2026-01-01T00:03:00+00:00", "SCORE/L")
ROWS = [["T", "alice", 120, None], ["T", "bob", 80, None], ["U", "carol", 0, None]]


def test_a_score_comment_returns_its_verdict_and_its_request_and_changes_nothing_else():
    reading = read_revision(TextReading(REV.body, "markdown", True), Facts(number=1))
    assert score_fold.comment(REV, reading, 1) == (
        FirstReading(REV, "action"), Verdict(REV, 1, "accepted", canonical="SCORE/L"),
        ScoreAsked(("1", "c9", "bob", "L", "1")))


def _state(config: TableConfig, *pending: list[str]):
    """A table's fold state with ``pending`` SCORE requests (no hand played)."""
    st = fold_table(config, [], [], []).state
    st.score_pending.extend(pending)
    return st


def test_a_score_event_returns_the_answer_once():
    ev = DealerEvent(5, 1, score_fold.SCORE, "bob", "2026-01-01T01:00:00+00:00", data={"forum_id": "c9", "rows": ROWS})
    st = _state(CFG, ["1", "c9", "bob", "L", "1"])
    done, post = score_fold.event(ev, st, CFG)
    assert done == ScoreAnswered("c9") and isinstance(post, Post)
    assert (post.hand, post.thread, post.reply_to) == (1, "1", "c9")
    body = post.body("T-h1-007")
    assert "bob asked for the SCORE/L" in body and "carol" in body and "[np:T-h1-007]" in body
    assert st.score_pending == [["1", "c9", "bob", "L", "1"]]  # the state is only read: the fold applies
    assert score_fold.event(ev, _state(CFG), CFG) == ()  # answered already: nothing


def test_at_an_edition_2_e_mail_table_the_answer_is_a_private_message():
    ev = DealerEvent(5, 1, score_fold.SCORE, "bob", "2026-01-01T01:00:00+00:00", data={"forum_id": "c9", "rows": ROWS})
    private = replace(CFG, private=True, players_see_thread=False, settings=replace(CFG.settings, edition=2))
    assert private.answers_privately()
    done, msg = score_fold.event(ev, _state(private, ["1", "c9", "bob", "", "1"]), private)
    assert done == ScoreAnswered("c9") and isinstance(msg, Message)
    assert (msg.hand, msg.user, msg.subject) == (None, "bob", "Standings (T)")
    # edition 1 told the whole table (issue 28's editions)
    old = replace(private, settings=replace(CFG.settings, edition=1))
    assert isinstance(score_fold.event(ev, _state(old, ["1", "c9", "bob", "", "1"]), old)[1], Post)


PHASES = [score_fold, dealer_controls, advance_private, advance_fold, draws, ordinary, betting_fold, away, over_days]


@pytest.mark.parametrize("phase", PHASES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_phase_written_without_a_hub_never_reaches_into_the_fold(phase):
    """No class holding the fold, no ``self``: only functions of their arguments (the Dealer's
    controls, the draw phase, the ordinary readings and private messages used to be objects
    calling ``self.f.post``, ``self.host.advance_hand``, ``self.f.days...``)."""
    tree = ast.parse(Path(phase.__file__).read_text("utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "self"]


# -- the Dealer's controls, the draw deadline, private messages: values, the state untouched ----

AT = "2026-01-02T00:00:00+00:00"


def _drawing():
    """A blognomic-2008 hand in its Hole Card Draw: alice has drawn, bob and carol have not."""
    revs, _ = build([])
    first_draw = next(i for i, r in enumerate(revs) if r.body.startswith("cards"))
    return fold_table(DRAW_CONFIG, [DRAW_START], revs[:first_draw + 1], []).state


def test_a_control_returns_its_changes_and_leaves_the_state_as_it_was():
    st = _drawing()
    before = encode(st, DRAW_CONFIG)
    pause = dealer_controls.event(DealerEvent(9, 1, "pause", "", AT, note="lunch"), st)
    assert pause[0] == DaysSet({"frozen": "pause"}) and isinstance(pause[1], Post)
    assert "lunch" in pause[1].body("T-h1-009")
    fold = dealer_controls.event(DealerEvent(9, 1, "fold", "bob", AT, note="asked"), st)
    moved, said, *rest = fold
    assert isinstance(moved, HandSet) and moved.fields["hand"].seat("bob").folded and moved.fields["since"] == AT
    assert isinstance(said, Post)
    # carol still owes her draw: the steps and the GNDT are written, round 1 does not open
    assert rest == [LogSteps(1, "dealer: bob folded by the Dealer (asked)"),
                    LogChanges(1, "dealer: bob folded by the Dealer (asked)")]
    assert encode(st, DRAW_CONFIG) == before  # only read: the fold applies what was returned
    assert not st.current.hand.seat("bob").folded


def test_a_resume_hands_back_the_comments_kept_during_the_freeze_in_order():
    st = _drawing()
    kept = [Revision(20 + i, "1", f"k{i}", 1, p, "2026-01-01T12:00:00+00:00", "nice hand") for i, p in enumerate(("bob", "carol"))]
    st.days.frozen, st.days.held = "pause", list(kept)
    out = dealer_controls.event(DealerEvent(22, 1, "resume", "", AT), st)
    assert out[0] == DaysSet({"frozen": "", "protester": "", "held": []})
    # posted before the resume: they count from it (the clock must not have run meanwhile)
    assert [e for e in out if isinstance(e, Readjudicate)] == [Readjudicate(replace(r, created=AT)) for r in kept]
    assert st.days.held == kept and st.days.frozen == "pause"


def test_a_draw_deadline_returns_the_fold_out_and_the_awol_mark():
    st = _drawing()
    before = encode(st, DRAW_CONFIG)
    out = draws.timeout(DealerEvent(9, 1, "draw_timeout", "bob", AT), st, DRAW_CONFIG.ruleset)
    moved, change, post, *rest = out
    assert moved.fields["hand"].seat("bob").folded and moved.fields["timed_out"] == {"bob": AT}
    assert isinstance(change, DaysSet) and change.fields["awol"] == {"bob"} and change.fields["timeouts"] == {"bob": 1}
    assert "bob" in post.body("T-h1-009") and rest[0] == LogSteps(1, rest[0].cause)
    assert encode(st, DRAW_CONFIG) == before
    # the last one waited for: round 1 opens, through the fold
    st2 = _drawing()
    st2.current.hand = moved.fields["hand"]
    last = draws.timeout(DealerEvent(9, 1, "draw_timeout", "carol", AT), st2, DRAW_CONFIG.ruleset)
    assert isinstance(last[-1], AdvanceHand) and last[-2] == HandSet(1, {"phase": "betting"})


def test_a_private_advance_action_is_handed_to_the_advance_phase():
    cfg = replace(CFG, private=True)
    revs = []
    st = fold_table(cfg, [replace(DRAW_START, ante=0, blinds=(1, 2))], revs, []).state
    to_act = st.current.hand.seats[st.current.hand.to_act].name
    rev = Revision(1, advance_private.PRIVATE_THREAD, "m1", 1, to_act, AT, "CALL *")
    reading = read_revision(TextReading(rev.body, "markdown", True),
                            Facts(private=True, in_hand=True, seated=True, player=True, advance_on=True, number=1))
    (take,) = advance_private.comment(rev, reading, st, cfg, advance_on=True)
    assert isinstance(take, TakeAdvance) and (take.number, take.my_turn) == (1, True)
    off = advance_private.comment(rev, reading, st, cfg, advance_on=False)
    assert off[0] == Verdict(rev, 1, "ignored", "advance_off", "advance actions are not taken at this table")
    assert isinstance(off[1], Message) and off[1].user == to_act


def test_an_ordinary_action_goes_to_the_function_of_its_kind():
    st = _drawing()
    h = st.current
    bet = read_revision(TextReading("HAND1 ROUND1 call", "markdown", False),
                        Facts(in_hand=True, seated=True, player=True, number=1, round=1))
    rev = Revision(9, "1", "c9", 1, "bob", AT, "HAND1 ROUND1 call")
    out = ordinary.act(rev, bet, h, 1, st.days, DRAW_CONFIG, DRAW_CONFIG.ruleset)
    assert out[0] == FirstReading(rev, "action")
    assert out[1].code == "betting_closed"  # round 1 opens when every draw is stated
    assert ordinary.chat(rev, 1) == (FirstReading(rev, "chat"), Verdict(rev, 1, "chat"))


def test_a_players_command_returns_its_changes_and_what_sees_its_own_verdict():
    st = _drawing()
    st.days.awol.add("bob")
    before = encode(st, DRAW_CONFIG)
    gone = Revision(9, "1", "c9", 1, "bob", AT, "GONE until Friday")
    cmd = TextReading(gone.body, "markdown", False).commands[0]
    change, verdict = over_days.command(gone, cmd, 1, st, DRAW_CONFIG)
    assert change == DaysSet({"vacation": {"bob": "until Friday"}, "vacation_hand": {"bob": 1}})
    assert verdict == Verdict(gone, 1, "accepted", canonical=cmd.canonical)
    what = replace(gone, body="WHAT")
    (verdict, post) = over_days.command(what, TextReading("WHAT", "markdown", False).commands[0], 1, st, DRAW_CONFIG)
    # an accepted WHAT is bob's action: he is AWOL no more, and the answer says so
    assert "Status: active." in post.body("T-h1-009")
    assert encode(st, DRAW_CONFIG) == before and "bob" in st.days.awol
