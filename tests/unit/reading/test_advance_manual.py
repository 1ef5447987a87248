"""Every example in the WRGPT manual's text (seed 000_…) about advance actions, as a test.

Each case quotes the manual line it rests on. The expected values are read off the manual's
own words, not off the module under test."""

from __future__ import annotations

import pytest

from nomicpoker.core.reading.advance import (
    AdvanceError, Arm, Command, Compare, PlayerIn, Program, RoundIs, Undo, parse,
)
from nomicpoker.core.reading.advance_eval import View, evaluate


def view(*, hand=1, round=2, pot=1000, to_call=0, round_bet=0, money=5000, seats=5,
         out=(), may_check=True, raise_to=False, min_inc=100) -> View:
    """A player's view; players 1..seats, ``out`` folded. The raise bounds are set as an
    ordinary no-limit table would (a raise adds at least ``min_inc`` over the bet)."""
    high = round_bet + to_call
    cap = round_bet + money
    rmin = min(high + min_inc, cap) if money > to_call else None
    return View(hand, round, pot, to_call, round_bet, high, money,
                frozenset(s for s in range(1, seats + 1) if s not in out), frozenset(out),
                may_check, rmin, cap if rmin is not None else None, raise_to)


def act(text: str, v: View) -> tuple[str, int] | None:
    o = evaluate(parse(text), v)  # type: ignore[arg-type]
    return None if o.action is None else (o.action.act, o.action.added)


# "$0 / The above will check or fold, whatever the case may be."
def test_dollar_zero_checks_or_folds():
    assert act("$0", view(to_call=0)) == ("check", 0)
    assert act("$0", view(to_call=200)) == ("fold", 0)


# "if it is $200 to you and you want to raise $300 send in a $500 bet."
def test_dollar_amount_is_call_plus_raise():
    assert act("$500", view(to_call=200)) == ("raise", 500)
    o = evaluate(parse("$500"), view(to_call=200))  # type: ignore[arg-type]
    assert o.action is not None and o.action.total - 200 == 300  # a raise of $300


# "You must have a $-sign in column 1 followed by the amount, and no other text is allowed on
# that line, (ie. none of the switches discussed below)"
@pytest.mark.parametrize("text", ["$100/S", "$100 /S", "$100 JAM"])
def test_dollar_form_takes_nothing_else(text):
    with pytest.raises(AdvanceError):
        parse(text)


# "CALL/S $0 / Keep betting $0, ie. fold at the earliest opportunity. The command FOLD does
# the same thing. Note that FOLD/S is redundant."
def test_call_sticky_zero_and_fold_are_the_same():
    a, b, c = parse("CALL/S $0"), parse("FOLD"), parse("FOLD/S")
    assert a.sticky and b.sticky and c == b  # type: ignore[union-attr]
    for v in (view(to_call=0), view(to_call=50), view(round=1, may_check=False)):
        assert evaluate(a, v).action == evaluate(b, v).action  # type: ignore[arg-type]
    # the big blind's check keeps it for the flop ("you may still survive the first round")
    o = evaluate(b, view(to_call=0))  # type: ignore[arg-type]
    assert o.action is not None and o.action.act == "check" and o.keep


# "when you post an advance CALL $0 intending to fold as soon as possible, you may still
# survive the first round, eg. because you were the big blind - the advance action translated
# into a check. Now the flop comes and you will need to make another $0 bet to fold."
def test_plain_call_zero_is_used_once():
    o = evaluate(parse("CALL $0"), view(round=1, to_call=0))  # type: ignore[arg-type]
    assert o.action is not None and o.action.act == "check" and not o.keep


# "POT/S / Bet or raise the pot at every opportunity."
def test_pot_sticky_bets_the_pot_and_stays():
    o = evaluate(parse("POT/S"), view(pot=1000, to_call=0))  # type: ignore[arg-type]
    assert o.action is not None and o.action.act == "raise" and o.action.added == 1000 and o.keep
    # facing 200 into a pot of 1200: call 200, then raise the 1400 pot
    o = evaluate(parse("POT/S"), view(pot=1200, to_call=200))  # type: ignore[arg-type]
    assert o.action is not None and o.action.added == 1600 and o.keep


# "IF/P<=2500/B<=500/N=3/I:3/O:2 POT / The above command means: if the pot is at most $2500,
# and the bet to me is at most $500, and there are 3 players in the pot, and player 3 is in,
# and player 2 is out, then bet (or call and raise) the pot."
def test_the_full_condition_example():
    p = parse("IF/P<=2500/B<=500/N=3/I:3/O:2 POT")
    assert p == Program((Arm((Compare("P", "<=", 2500), Compare("B", "<=", 500),
                              Compare("N", "=", 3), PlayerIn(3, True), PlayerIn(2, False)),
                             Command("pot")),))
    yes = view(pot=2500, to_call=500, seats=5, out=(2, 4))
    assert act(p.text(), yes) is not None and act(p.text(), yes)[0] == "raise"  # type: ignore[index]
    for no in (view(pot=2501, to_call=500, out=(2, 4)), view(pot=2500, to_call=501, out=(2, 4)),
               view(pot=2500, to_call=500, out=(2,)), view(pot=2500, to_call=500, out=(3, 4)),
               view(pot=2500, to_call=500, out=(1, 4))):
        assert act(p.text(), no) is None


# "/P=1000, /P<=2000", "/B=1000, /B>=1000", "/N>4 or /N<=3"
@pytest.mark.parametrize("cond,field,op,value", [
    ("P=1000", "P", "=", 1000), ("P<=2000", "P", "<=", 2000), ("B=1000", "B", "=", 1000),
    ("B>=1000", "B", ">=", 1000), ("N>4", "N", ">", 4), ("N<=3", "N", "<=", 3)])
def test_comparison_examples(cond, field, op, value):
    assert parse(f"IF/{cond} CALL *").arms[0].conditions == (Compare(field, op, value),)  # type: ignore[union-attr]


# "/I:1 or /I:5/I:6 ... the latter example is a condition that both player 5 and 6 must be in"
# "/O:1 or /O:5/O:6 ... both player 5 and 6 must be folded."
def test_membership_examples():
    p = parse("IF/I:5/I:6 CALL *")
    assert act(p.text(), view(seats=6)) is not None
    assert act(p.text(), view(seats=6, out=(5,))) is None
    q = parse("IF/O:5/O:6 CALL *")
    assert act(q.text(), view(seats=6, out=(5, 6))) is not None
    assert act(q.text(), view(seats=6, out=(6,))) is None
    # "Note two important things: the use of : instead of ="
    with pytest.raises(AdvanceError) as e:
        parse("IF/I=5 CALL *")
    assert "'/I=5'" in str(e.value)


# "IF/N=2/I:1 JAM / If there are only 2 players in the pot, and player 1 is in, then JAM."
def test_heads_up_with_player_one_jams():
    assert act("IF/N=2/I:1 JAM", view(seats=3, out=(3,), money=800)) == ("all_in", 800)
    assert act("IF/N=2/I:1 JAM", view(seats=3, out=(1,))) is None


# "IF/B=0 POT IF/B<=1000 CALL * / If checked to me, bet the pot. Else, call any bet up to
# $1000. If the bet is more do nothing."
def test_checked_to_me_pot_else_call_up_to_1000():
    text = "IF/B=0 POT IF/B<=1000 CALL *"
    assert act(text, view(to_call=0, pot=700)) == ("raise", 700)
    assert act(text, view(to_call=1000)) == ("call", 1000)
    o = evaluate(parse(text), view(to_call=1001))  # type: ignore[arg-type]
    assert o.action is None and o.arm is None and not o.keep


# "The simple form "$x" is not allowed as an action guarded by IF or ELSE, ie. the following
# is illegal: IF/N=2 $100"
def test_dollar_form_is_illegal_after_if():
    with pytest.raises(AdvanceError) as e:
        parse("IF/N=2 $100")
    assert e.value.code == "advance_bare_amount_in_if" and "'$100'" in str(e.value)
    with pytest.raises(AdvanceError):
        parse("IF/N=2 CALL * ELSE $100")


# "IF/N=2 CALL/S * IF/N=3 CALL * / If only two players are left, call anything to the end.
# If three players are left call anything, but just once."
def test_sticky_arm_versus_plain_arm():
    p = parse("IF/N=2 CALL/S * IF/N=3 CALL *")
    two = evaluate(p, view(seats=3, out=(3,), to_call=300))  # type: ignore[arg-type]
    assert two.arm == 0 and two.action is not None and two.action.act == "call" and two.keep
    three = evaluate(p, view(seats=3, to_call=300))  # type: ignore[arg-type]
    assert three.arm == 1 and three.action is not None and not three.keep


# "IF/S/O:6 JAM / From now until the end, when player 6 is out, jam."
def test_outer_sticky_waits_for_its_condition():
    p = parse("IF/S/O:6 JAM")
    assert p.sticky  # type: ignore[union-attr]
    waiting = evaluate(p, view(seats=6))  # type: ignore[arg-type]
    assert waiting.action is None and waiting.keep
    fired = evaluate(p, view(seats=6, out=(6,), money=900))  # type: ignore[arg-type]
    assert fired.action is not None and fired.action.act == "all_in" and fired.keep


# "for the /S switch to have the desired effect it must appear on the first IF"
def test_sticky_on_a_later_if_is_that_arm_only():
    p = parse("IF/N=2 JAM IF/S/N=3 CALL *")
    assert not p.sticky and p.arms[1].action.sticky and not p.arms[0].action.sticky  # type: ignore[union-attr]


# "IF/N=4 FOLD/R IF/N=3 CALL * IF/N=2 JAM / The /R switch implies "REVEAL" ... and always takes
# effect even if the first IF arm is not the one actually selected."
def test_reveal_is_promoted():
    p = parse("IF/N=4 FOLD/R IF/N=3 CALL * IF/N=2 JAM")
    assert p.reveal and all(not a.action.sticky for a in p.arms)  # type: ignore[union-attr]
    assert parse("IF/N=4/H=7 FOLD IF/N=3 CALL/Q *") == Program(
        (Arm((Compare("N", "=", 4),), Command("fold")),
         Arm((Compare("N", "=", 3),), Command("call_any"))), hand=7, quiet=True)


# "FOLD/Q" ; "Note: the /Q switch is not allowed on UNDO."
def test_quiet_and_undo():
    assert parse("FOLD/Q").quiet  # type: ignore[union-attr]
    assert parse("UNDO") == Undo()
    with pytest.raises(AdvanceError) as e:
        parse("UNDO/Q")
    assert e.value.code == "advance_undo_switch"


# "JAM/H=99 / This ensures that the JAM will only take effect during hand 99. If by the time
# the command is received the hand number is 100, the JAM is ignored."
def test_hand_switch():
    p = parse("JAM/H=99")
    assert p.hand == 99  # type: ignore[union-attr]
    assert evaluate(p, view(hand=99)).action is not None  # type: ignore[arg-type]
    o = evaluate(p, view(hand=100))  # type: ignore[arg-type]
    assert o.action is None and not o.keep and "hand 99" in o.failure


# "IF/F=1 CALL $x ... F = 1 pre-flop F = 2 post-flop F = 3 turn (4th card) F = 4 river"
def test_round_condition():
    p = parse("IF/F=1 CALL $300")
    assert p.arms[0].conditions == (RoundIs(1),)  # type: ignore[union-attr]
    assert act(p.text(), view(round=1, to_call=300)) == ("call", 300)
    assert act(p.text(), view(round=2, to_call=300)) is None
    with pytest.raises(AdvanceError):
        parse("IF/F=5 JAM")


# "if you do someting like this pre-flop: IF/F=4 JAM intending to jam on the river, it will
# not work since your next "real" action will wipe it out."
def test_expiry_at_the_next_action():
    o = evaluate(parse("IF/F=4 JAM"), view(round=1))  # type: ignore[arg-type]
    assert o.action is None and not o.keep


# "(unless of course you specify "sticky", but even that is erased if the first attempt to use
# it fails)" and "your sticky action translates into an insufficient bet (possible with MAKE or
# RAISE), in which case you will be folded"
def test_failed_sticky_is_erased():
    o = evaluate(parse("MAKE/S $100"), view(to_call=300))  # type: ignore[arg-type]
    assert o.action is None and not o.keep and "300" in o.failure
    o = evaluate(parse("RAISE/S $10"), view(to_call=0, min_inc=100))  # type: ignore[arg-type]
    assert o.action is None and not o.keep


# "There is a maximum of 8 IF lines per advance action."
def test_at_most_eight_ifs():
    eight = " ".join(f"IF/N={n} CALL *" for n in range(2, 10))
    assert len(parse(eight).arms) == 8  # type: ignore[union-attr]
    with pytest.raises(AdvanceError) as e:
        parse(eight + " IF/N=10 JAM")
    assert e.value.code == "advance_too_many_ifs" and "IF/N=10" in str(e.value)


# "If no IF lines match then the ELSE part is executed. The ELSE part is optional."
def test_else():
    assert act("IF/B=0 POT ELSE FOLD", view(to_call=50)) == ("fold", 0)
    with pytest.raises(AdvanceError):
        parse("ELSE FOLD")
    with pytest.raises(AdvanceError):
        parse("IF/B=0 POT ELSE FOLD ELSE JAM")
