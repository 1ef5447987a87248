"""Each action is announced once: when the dealer acts for a player (a turn deadline, a Hole
Card Draw deadline, a vacation, an advance action, the Dealer's fold) its own comment says what
was done, and the next dealer comment must neither repeat it ("alice checks." after "alice's
deadline passed ...: the dealer ... checks") nor drop the player's action that came just
before it ("carol calls." when alice's advance action fires at once, with no turn notice in
between).

End to end through the real poll on the local forum and SQLite ledger with a fake clock, as
tests/e2e/days/test_deadline_action.py; every expected text is written out by hand from
docs/dealer-comments.md. ``audit`` replays each table identically; a table whose ledger holds
the older wording (a table started before this change) keeps playing and audits with
"wording only" differences (docs/dealer-guide.md, known limits).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.dealer.controls import control
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table
from kits.tables.clock import at, Clock, poll_at, RULE, run, started, started_at, T0

CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
FLOP = rf"({CARD}) ({CARD}) ({CARD})"


def three_handed(tmp_path) -> tuple[Table, Clock]:
    """roberts-nlhe, alice, bob and carol with 100, blinds 1/2, a deadline of 4 hours: carol
    (the button) acts first, 2 to call; alice (small blind) owes 1, bob (big blind) nothing."""
    clock = Clock(T0)
    t = Table(tmp_path / "t", players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"deadline_hours": 4, "reminders": 0})
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    t.start(ante=0, blinds=(1, 2), now=clock)
    assert "**carol** to act, 2 to call" in t.new_dealer()[-1]
    return t, clock


def key(body: str) -> str:
    return re.search(r"`\[np:(T-h\d+-\d+)\]`\n$", body).group(1)


@pytest.mark.parametrize("action", ["check_or_fold", "fold"])
def test_a_timeout_that_ends_the_round_or_the_hand_is_not_said_again(tmp_path, action):
    t, clock, _ = started(tmp_path, action)
    clock.t = at(1)
    t.p["bob"].say("call")
    run(t, clock, at(1))
    out = run(t, clock, at(5))  # alice's deadline: she checks (or folds), which ends the round (hand)
    did = "checks" if action == "check_or_fold" else "folds"
    assert out[0] == (f"alice's deadline passed at 2026-12-07 19:00 UTC: the dealer acts for them and "
                      f"{did} {RULE[action]}, as the table's deadline says.\n\nalice is AWOL until they "
                      f"act (1 of 3 timeouts in a row before sitting out): on vacation, the dealer "
                      f"checking or folding for them at each turn until they comment `BACK` or an "
                      f"action of theirs is accepted (\u201cIf you miss your deadline you will be put "
                      f"on vacation and a $0 bet will be entered for you.\u201d).\n\n`[np:{key(out[0])}]`\n")
    if action == "check_or_fold":
        # WRGPT's timeout rule (issue 22): alice is on vacation at once, so on the flop the
        # dealer checks for her without a new deadline, and bob is to act
        flop, away, notice = out[1:]
        assert away.startswith("alice is away: the dealer checks for them. alice is AWOL until they act "
                               "(2 of 3 timeouts in a row before sitting out)"), away
        m = re.fullmatch(rf"\*\*Flop\*\*: {FLOP}\n\nBoard: (.*)\. Pot: 4\.\n\nRound 2 begins: alice acts "
                         rf"first\.\n\n`\[np:T-h1-\d+\]`\n", flop)
        assert m and m.group(4) == " ".join(m.group(1, 2, 3)), flop
        assert notice.startswith("Hand #1, round 2 (flop): **bob** to act, nothing to call. Pot: 4.\n")
    else:
        (payout,) = out[1:]
        assert payout.startswith("**Hand #1 is over.** No community cards were dealt.\n\nEveryone else "
                                 "folded: bob wins without a showdown."), payout
    # the finished hand (fold) and the running one up to its start replay byte for byte
    assert audit(t.engine, t.state) == (["T"], [])


def test_a_timeout_is_not_said_again_by_the_next_turn_notice(tmp_path):
    t, clock = three_handed(tmp_path)
    out = run(t, clock, at(4))  # carol's deadline: facing 2 she folds; alice is next
    assert out[0].startswith("carol's deadline passed at 2026-12-07 18:00 UTC: the dealer acts for them "
                             "and folds ")
    assert out[1].startswith("Hand #1, round 1 (pre-flop): **alice** to act, 1 to call. Pot: 3.\n"), out[1]
    assert len(out) == 2


def test_an_advance_action_that_fires_at_once_opens_with_the_action_before_it(tmp_path):
    """carol calls in turn; alice's CALL * and bob's CHECK, posted before their turns, fire at
    once. carol's call is said by the first of those comments (no turn notice came between),
    each advance action by its own comment, and the flop repeats none of them."""
    t, clock = three_handed(tmp_path)
    clock.t = at(1)
    t.p["alice"].say("CALL *")
    t.p["bob"].say("check")
    run(t, clock, at(1))  # the two confirmations
    clock.t = at(2)
    t.p["carol"].say("HAND1 ROUND1 call")
    out = run(t, clock, at(2))
    assert out[0] == f"carol calls. alice (advance action): calls 1\n\n`[np:{key(out[0])}]`\n", out[0]
    assert out[1] == f"bob (advance action): checks\n\n`[np:{key(out[1])}]`\n", out[1]
    m = re.fullmatch(rf"\*\*Flop\*\*: {FLOP}\n\nBoard: (.*)\. Pot: 6\.\n\nRound 2 begins: alice acts "
                     rf"first\.\n\n`\[np:T-h1-\d+\]`\n", out[2])
    assert m, out[2]
    assert out[3].startswith("Hand #1, round 2 (flop): **alice** to act, nothing to call. Pot: 6.\n")
    assert len(out) == 4


def test_an_advance_action_is_not_said_again_by_the_next_turn_notice(tmp_path):
    t, clock = three_handed(tmp_path)
    clock.t = at(1)
    t.p["alice"].say("CALL *")
    run(t, clock, at(1))
    clock.t = at(2)
    t.p["carol"].say("HAND1 ROUND1 call")
    out = run(t, clock, at(2))
    assert out[0] == f"carol calls. alice (advance action): calls 1\n\n`[np:{key(out[0])}]`\n", out[0]
    assert out[1].startswith("Hand #1, round 1 (pre-flop): **bob** to act, nothing to call. Pot: 6.\n"), out[1]


def test_a_vacation_s_check_opens_with_the_call_before_it_and_the_flop_does_not_repeat_it(tmp_path):
    t, clock = three_handed(tmp_path)
    clock.t = at(1)
    t.p["bob"].say("GONE 13 Dec")
    t.p["carol"].say("HAND1 ROUND1 call")
    t.p["alice"].say("HAND1 ROUND1 call")  # carol's call was said by alice's turn notice
    out = run(t, clock, at(1))
    away = next(b for b in out if "is away" in b)
    assert away == f"alice calls. bob is away: the dealer checks for them.\n\n`[np:{key(away)}]`\n", out
    flop = out[out.index(away) + 1]
    assert flop.startswith("**Flop**: "), flop


def test_a_draw_deadline_that_ends_the_hand_is_not_said_again(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), deadline_hours=24)
    t.start(ante=5)
    t0 = started_at(t)
    t.draw(1, who=("bob",))
    t.new_dealer()
    notice, payout = poll_at(t, t0 + timedelta(hours=24))
    assert notice.startswith("alice has stated no Hole Card Draw")
    assert payout.startswith("**Hand #1 is over.** No community cards were dealt.\n"), payout
    assert audit(t.engine, t.state)[1] == []


def test_a_draw_deadline_before_round_one_is_not_said_by_the_turn_notice(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)
    t0 = started_at(t)
    t.draw(1, who=("alice", "carol"))
    t.new_dealer()
    notice, turn = poll_at(t, t0 + timedelta(hours=24))
    assert notice.startswith("bob has stated no Hole Card Draw")
    assert turn.startswith("Hand #1, round 1 (pre-flop): **alice** to act"), turn


def test_the_dealer_s_fold_that_ends_the_hand_is_not_said_again(tmp_path):
    t, clock = three_handed(tmp_path)
    for who in ("carol", "alice"):
        clock.t = at(1)
        done = control(t.engine, t.state, t.name, "fold", "asked to be folded", player=who, now=clock)
        assert not done.report.error
    out = t.new_dealer()
    assert out[0].startswith("The Dealer folds carol out of hand 1: asked to be folded.")
    assert out[1].startswith("Hand #1, round 1 (pre-flop): **alice** to act, 1 to call. Pot: 3.\n"), out[1]
    assert out[2].startswith("The Dealer folds alice out of hand 1: asked to be folded.")
    assert out[3].startswith("**Hand #1 is over.** No community cards were dealt.\n"), out[3]
    assert audit(t.engine, t.state) == (["T"], [])


def test_a_table_whose_ledger_holds_the_older_wording_keeps_playing(tmp_path):
    """A table started before this change posted "alice checks. **Flop**: ...". The poll
    compares the adjudication of stored rows, not their wording (ledger.WORDING_COLUMNS): the
    older text stays as posted, the table plays on, and new comments get the new wording;
    audit names the older row a wording-only difference."""
    t, clock, _ = started(tmp_path, "check_or_fold")
    clock.t = at(1)
    t.p["bob"].say("call")
    run(t, clock, at(1))
    flop = run(t, clock, at(5))[1]
    old = "alice checks. " + flop
    sql = t.sql()  # what the older nomicpoker stored (and posted), and no snapshot of this version
    sql.execute("UPDATE np_outbox SET body = ? WHERE key = ?", (old, key(flop)))
    sql.execute("DELETE FROM np_snapshot")
    sql.commit()
    sql.close()
    clock.t = at(6)
    # alice timed out: she is on vacation (WRGPT), the dealer checked for her on the flop
    t.p["bob"].say("HAND1 ROUND2 folds")
    out = run(t, clock, at(6))
    assert out[-1].startswith("bob folds. **Hand #1 is over.**"), out[-1]
    tables, diffs = audit(t.engine, t.state)
    assert tables == ["T"] and len(diffs) == 1, diffs
    assert diffs[0].item.startswith("outbox seq ") and diffs[0].detail.startswith("wording only"), diffs
