"""Advance actions at a table (issue 14): an out-of-turn advance action is kept in the fold,
fires when the turn arrives with the dealer's words, UNDO withdraws it, and ``audit`` (a
replay from nothing) agrees with the polls that ran it."""

from __future__ import annotations

from kits.tables.bot import Table
from kits.tables.game import _to_act, advance_table, order_from_turn
from nomicpoker.shell.audit.audit import audit


def test_an_out_of_turn_call_fires_at_the_turn_and_audits_identical(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    said = t.act(second, "CALL *")
    assert any(f"{second}'s advance action: CALL \\*" in b or f"{second}'s advance action: CALL *" in b
               for b in said), said
    assert _to_act(t) == first  # nothing fired yet
    said = t.act(first, "raise 6")
    money = t.gndt()
    # second posted a blind (1 or 2): the call adds what is left to reach 6
    fired = [b for b in said if f"{second} (advance action): calls " in b]
    assert fired, said
    assert _to_act(t) == third
    assert money[second][2] == money[first][2]  # the same chips in the pot
    names, diffs = audit(t.engine, t.state)
    assert diffs == []


def test_quiet_gets_no_confirmation_and_undo_withdraws(tmp_path):
    t = advance_table(tmp_path)
    first, second, _third = order_from_turn(t)
    assert t.act(second, "FOLD/Q") == []
    said = t.act(second, "UNDO")
    assert any("withdrawn" in b for b in said), said
    said = t.act(first, "call")
    assert not any("(advance action)" in b for b in said)
    assert _to_act(t) == second  # second acts himself
    assert audit(t.engine, t.state)[1] == []


def test_a_conditional_that_matches_nothing_leaves_the_turn(tmp_path):
    t = advance_table(tmp_path)
    first, second, _third = order_from_turn(t)
    t.act(second, "IF/B>=100 FOLD")
    said = t.act(first, "raise 6")
    assert not any("(advance action)" in b for b in said)
    assert _to_act(t) == second


def test_a_malformed_advance_action_is_rejected_quoting_it(tmp_path):
    t = advance_table(tmp_path)
    _first, second, _third = order_from_turn(t)
    said = t.act(second, "IF/N=2 $100")
    assert any("$100" in b for b in said), said
    codes = [v.code for v in t.verdicts() if v.author == second]
    assert codes[-1] == "advance_bare_amount_in_if"


def test_off_by_default_under_blognomic_2008(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    first, second, _ = order_from_turn(t)
    said = t.act(second, "CALL *")  # answered, not silently chat (issue 14: "IF/B<=10 CALL" was)
    v = [v for v in t.verdicts() if v.author == second][-1]
    assert (v.status, v.code) == ("rejected", "advance_off")
    assert any("not taken at this table" in b for b in said), said
    said = t.act(second, "IF/B<=10 CALL")  # malformed too: still an answer
    assert [v.code for v in t.verdicts() if v.author == second][-1] == "advance_off"
    assert _to_act(t) == first  # nothing changed
    t.act(second, "fold")  # a lone word is chat under blognomic-2008, as before
    assert [v.status for v in t.verdicts() if v.author == second][-1] == "chat"
    said = t.act(first, "Jam")
    assert [v.status for v in t.verdicts() if v.author == first][-1] == "chat"


def test_a_dealer_may_turn_it_on_under_blognomic_2008(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"),
              settings={"reminders": 0, "advance_actions": True})
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    first, second, _ = order_from_turn(t)
    t.act(second, "MAKE $15")
    said = t.act(first, "HAND1 ROUND1 raise 10")
    assert any(f"{second} (advance action): raises 15" in b for b in said), said
    assert audit(t.engine, t.state)[1] == []
