"""One reading of a player's command whatever the turn (issue 22).

"It is not necessary to use these features out of turn, ie. you can also use them when it is
your turn to bet." (seed ``000_…``): an advance action read at one's own turn acts exactly as
it would have acted read a moment before, and a command of the ordinary grammar (``raise 6``,
``HAND1 ROUND2 call``) means at every turn what it means at one's own. The property: for every
command form and every betting position, posting it before the turn and at the turn moves the
same money (the fold's GNDT and the hand's seats compared), at a roberts-nlhe table, blinds
1/2, in the pure table fold."""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nomicpoker.core.poker import engine
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol", "dave")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
CFG = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False, private=True)


def _start(stacks=(100, 100, 100, 100)) -> HandStart:
    # button dave: alice small blind, bob big blind, carol first to act
    return HandStart(1, "1", "dave", 0, (1, 2), tuple(zip(PLAYERS, stacks)), 0,
                     "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def fold(posts, stacks=(100, 100, 100, 100)):
    revs = [Revision(i + 1, "1", str(i + 1), 1, a, f"2026-01-01T{(i + 1) // 60:02d}:{(i + 1) % 60:02d}:00+00:00", b)
            for i, (a, b) in enumerate(posts)]
    return fold_table(CFG, [_start(stacks)], revs, [])


def to_act(result) -> str | None:
    h = result.state.current
    if h is None or h.phase != "betting" or h.hand.to_act is None:
        return None
    return h.hand.seats[h.hand.to_act].name


def money(result):
    """What moved: the GNDT (Money, Turn, Pot) and each seat's chips in, folded or not."""
    h = result.state.current
    seats = tuple((s.name, s.money, s.round_bet, s.total_bet, s.folded) for s in h.hand.seats)
    return dict(result.state.gndt), seats, h.hand.round, len(h.hand.board)


def verdicts(result, who):
    return [(v["status"], v["code"]) for v in result.rows["verdict"] if v["author"] == who]


# -- the issue's examples --------------------------------------------------------------------

def test_raise_dollar_at_ones_turn_is_the_advance_raise_not_the_ordinary_raise_to():
    """carol and dave call 2, alice (small blind) has 1 to call: RAISE $6 is 6 over the bet
    to call, "raises to 8 (adds 7)", at her turn as a poll earlier; "raise 6" is to 6."""
    before = fold([("carol", "call"), ("alice", "RAISE $6"), ("dave", "call")])
    at = fold([("carol", "call"), ("dave", "call"), ("alice", "RAISE $6")])
    assert money(before) == money(at)
    assert at.state.current.hand.seat("alice").round_bet == 8
    plain = fold([("carol", "call"), ("dave", "call"), ("alice", "raise 6")])
    assert plain.state.current.hand.seat("alice").round_bet == 6


def test_call_up_to_at_ones_turn_calls_and_call_zero_checks_or_folds():
    at = fold([("carol", "call"), ("dave", "call"), ("alice", "CALL $10")])  # 1 to call: calls
    assert verdicts(at, "alice") == [("accepted", "")]
    assert at.state.current.hand.seat("alice").round_bet == 2
    zero = fold([("carol", "call"), ("dave", "call"), ("alice", "CALL $0")])  # facing 1: folds
    assert verdicts(zero, "alice") == [("accepted", "")]
    assert zero.state.current.hand.seat("alice").folded
    # bob, big blind, nothing to call after alice's call: CALL $0 checks (the flop comes)
    check = fold([("carol", "call"), ("dave", "call"), ("alice", "call"), ("bob", "CALL $0")])
    assert verdicts(check, "bob") == [("accepted", "")]
    assert not check.state.current.hand.seat("bob").folded
    assert len(check.state.current.hand.board) == 3


def test_an_ordinary_raise_posted_before_the_turn_keeps_its_meaning():
    """"raise 6" out of turn was read as WRGPT's RAISE $6 (6 over the call): it is raise-to 6
    at the turn, so it is raise-to 6 before it."""
    before = fold([("carol", "call"), ("alice", "raise 6"), ("dave", "call")])
    at = fold([("carol", "call"), ("dave", "call"), ("alice", "raise 6")])
    assert money(before) == money(at)
    assert before.state.current.hand.seat("alice").round_bet == 6


# -- the property ----------------------------------------------------------------------------

AMOUNTS = [0, 1, 2, 3, 5, 6, 8, 12, 20, 50, 99, 100, 150]
FORMS = [
    "RAISE ${x}", "raise ${x}", "CALL ${x}", "call ${x}", "CALL *", "call *", "MAKE ${x}", "BET ${x}",
    "${x}", "POT", "pot", "JAM", "FOLD/S", "CHECK/S", "CHECK/Q", "CALL/S ${x}", "RAISE/S ${x}", "POT/R",
    "MAKE/H=1 ${x}", "IF/B=0 POT IF/B<={x} CALL * ELSE FOLD", "IF/N=2 JAM ELSE CALL ${x}",
    "IF/F=1 MAKE ${x} ELSE CALL *", "IF/P>={x} RAISE ${x}", "IF/I:1/B<=5 CALL * ELSE FOLD/R",
    # the ordinary grammar's forms
    "raise {x}", "RAISE {x}", "call", "call {x}", "check", "CHECK", "fold", "FOLD", "all in",
    "all in {x}", "I call.", "HAND1 ROUND{r} raise {x}", "HAND1 ROUND{r} call", "HAND1 ROUND{r} check",
    "HAND1 ROUND{r} folds",
]


def _legal_text(la, pick: int) -> str:
    """An ordinary action the player to act may take (to move the hand along)."""
    options = ["fold"]
    options.append("check" if la.check else "call")
    if la.raise_min is not None:
        options.append(f"raise {la.raise_min + (pick % 3) * (la.raise_max - la.raise_min) // 4}")
    return options[pick % len(options)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 11), max_size=8), st.integers(0, 11), st.sampled_from(FORMS),
       st.sampled_from(AMOUNTS), st.sampled_from([(100,) * 4, (100, 30, 100, 12), (5, 100, 60, 100)]))
def test_a_command_moves_the_same_money_before_the_turn_and_at_it(prefix, last, form, x, stacks):
    posts: list[tuple[str, str]] = []
    for pick in prefix:  # some betting first, by whoever is to act
        r = fold(posts, stacks)
        who = to_act(r)
        if who is None:
            return
        posts.append((who, _legal_text(engine.legal_actions(r.state.current.hand), pick)))
    r = fold(posts, stacks)
    q = to_act(r)
    if q is None:
        return
    move = (q, _legal_text(engine.legal_actions(r.state.current.hand), last))
    after = fold(posts + [move], stacks)
    p = to_act(after)
    if p is None or p == q:
        return
    text = form.format(x=x, r=after.state.current.hand.round)
    early = fold(posts + [(p, text), move], stacks)  # posted a moment before p's turn
    now = fold(posts + [move, (p, text)], stacks)  # posted at p's turn
    assert money(early) == money(now), (posts, move, p, text)
    assert to_act(early) == to_act(now)
    # what stays for later turns (a sticky action) is the same too
    assert early.state.current.advance == now.state.current.advance


# -- Robert's rule 7: "A player who checks out of turn may not bet or raise on the next turn
# to act." -------------------------------------------------------------------------------------

RULE7 = "A player who checks out of turn may not bet or raise on the next turn to act."


def test_a_check_out_of_turn_bars_a_raise_at_the_next_turn_quoting_rule_7():
    """alice (small blind) checks while carol is to act; carol raises, so the check cannot
    stand; at alice's turn a raise is refused with rule 7, and a call is taken."""
    posts = [("alice", "check"), ("carol", "raise 6"), ("dave", "call")]
    r = fold(posts)
    assert to_act(r) == "alice"  # the held check did not act: there is a bet to call
    notices = [o["body"] for o in r.rows["outbox"] if o["kind"] == "comment"]
    assert RULE7 in notices[1 + 1]  # the confirmation of alice's check quotes the rule
    turn = notices[-1]
    assert "**alice** to act" in turn and "raise" not in turn.split("**alice** to act")[1].split("\n\n")[0]
    for raise_ in ("raise 20", "RAISE $10", "all in", "HAND1 ROUND1 raise 12"):
        refused = fold(posts + [("alice", raise_)])
        assert verdicts(refused, "alice")[-1] in (("rejected", "checked_out_of_turn"), ("accepted", ""))
        assert refused.state.current.hand.seat("alice").round_bet == 1, raise_
        assert to_act(refused) == "alice"
    refused = fold(posts + [("alice", "raise 20")])
    (v,) = [v for v in refused.rows["verdict"] if v["code"] == "checked_out_of_turn"]
    assert v["citation"] == RULE7 and "may not bet or raise" in v["message"]
    called = fold(posts + [("alice", "raise 20"), ("alice", "call")])
    assert verdicts(called, "alice")[-1] == ("accepted", "")
    assert called.state.current.hand.seat("alice").round_bet == 6
    assert called.state.current.no_raise == set()  # spent at that turn


def test_the_bar_lasts_one_turn_and_a_check_that_stands_spends_it():
    # nobody bets before alice's turn on the flop: her out-of-turn check stands as a check
    pre = [("carol", "call"), ("dave", "call"), ("alice", "call"), ("bob", "check")]
    r = fold(pre)
    assert to_act(r) == "alice" and len(r.state.current.hand.board) == 3
    # bob checks out of turn on the flop (alice first), alice checks, bob's check acts
    r = fold(pre + [("bob", "check"), ("alice", "check")])
    assert to_act(r) == "carol" and r.state.current.no_raise == set()


def test_an_advance_check_out_of_turn_is_barred_too_and_blognomic_has_no_such_rule():
    posts = [("alice", "CHECK/S"), ("carol", "raise 6"), ("dave", "call"), ("alice", "RAISE $10")]
    r = fold(posts)
    assert verdicts(r, "alice")[-1] in (("accepted", ""), ("rejected", "checked_out_of_turn"))
    assert r.state.current.hand.seat("alice").round_bet == 1 and to_act(r) == "alice"
    assert load_ruleset("blognomic-2008").no_raise_after_out_of_turn_check is False
    assert RULES.no_raise_after_out_of_turn_check is True
    assert RULES.cite("no_raise_after_out_of_turn_check") == RULE7


# -- an advance form written at one's own turn is the player's own action -----------------------


def _bodies(result) -> list[str]:
    return [r["body"] for r in result.rows["outbox"] if r["kind"] == "comment"]


def test_an_advance_form_at_ones_own_turn_is_announced_as_the_players_action():
    """WRGPT: "you can also use them when it is your turn to bet". carol's ``CALL *`` at her
    turn is her call, not an advance action kept and fired: no "(advance action)" label and no
    "It is tried ..." confirmation. dave's ``CALL *``, written before his turn, is an advance
    action and fires after carol's call, labelled as one."""
    r = fold([("dave", "CALL *"), ("carol", "CALL *")])
    bodies = _bodies(r)
    carol = [b for b in bodies if b.startswith("carol")]
    assert carol and carol[0].startswith("carol: calls"), bodies
    assert not any("carol (advance action)" in b or "carol's advance action" in b for b in bodies), bodies
    assert any(b.startswith("dave (advance action): calls") for b in bodies), bodies
    assert any("dave's advance action" in b for b in bodies), bodies  # dave's confirmation, before his turn
    assert to_act(r) == "alice"


def test_an_advance_form_at_ones_own_turn_that_does_not_act_is_told_and_not_kept():
    """A conditional written at one's own turn whose condition is not met acts as nothing: it
    is not kept (so no confirmation says it is), the player is told why privately, and it is
    still his turn."""
    r = fold([("carol", "IF/O:4 CALL *")])  # "if dave is out": he is not
    assert to_act(r) == "carol" and r.state.current.advance == {}
    to_carol = [b for b in r.rows["outbox"] if b["kind"] == "private" and b["recipient"] == "carol"]
    assert len(to_carol) == 2, to_carol  # her hole cards, then why it did not act
    assert not any("carol's advance action" in b for b in _bodies(r)), _bodies(r)


def test_a_table_of_edition_1_keeps_its_old_announcement_of_an_advance_form_at_ones_turn():
    """A table created before editions replays as it was played (issue 22's editions): there
    carol's own-turn ``CALL *`` was confirmed first and announced as an advance action."""
    from dataclasses import replace

    from nomicpoker.core.table.table_settings import TableSettings

    old = replace(CFG, settings=TableSettings(edition=1))
    revs = [Revision(1, "1", "1", 1, "carol", "2026-01-01T00:01:00+00:00", "CALL *")]
    r = fold_table(old, [_start()], revs, [])
    bodies = [b for b in _bodies(r) if b.startswith("carol")]
    assert bodies[0].startswith("carol's advance action: CALL") and "It is tried at your next turn" in bodies[0], bodies
    assert bodies[1].startswith("carol (advance action): calls 2"), bodies


def test_a_sticky_advance_form_at_ones_own_turn_acts_and_says_it_is_kept():
    """A sticky action written at one's own turn acts now (announced as the player's own) and
    stays for the hand: the confirmation says it acted and is kept, not that it did not act."""
    r = fold([("carol", "CALL/S *")])
    bodies = [b for b in _bodies(r) if b.startswith("carol")]
    assert any(b.startswith("carol: calls 2") for b in bodies), bodies
    mine = [b for b in bodies if b.startswith("carol's advance action")]
    assert mine and "It acted now and is kept" in mine[0] and "did not act" not in mine[0], bodies
