"""Optional ruleset parameters (issue 14's ``advance_actions``): a ruleset file written before the
parameter existed still loads, with the value the code gave it then, and a table pinned to it
replays identically; a file may state it (with its sentence), and an amendment that turns it on
under blognomic-2008 lets players post advance actions from the next hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kits.tables.bot import Table
from kits.tables.game import _to_act
from kits.tables.rulesets import copy_ruleset, replace
from nomicpoker.cli import app
from nomicpoker.core.rules.ruleset import OPTIONAL_PARAMS
from nomicpoker.shell.audit.audit import audit
from nomicpoker.core.rules.validate import RulesetError
from nomicpoker.shell.storage.rulesets import load_ruleset, load_ruleset_file

BLOCK = '''
[params.advance_actions]
value = {value}
cite = "{cite}"
'''
CITES = {"blognomic-2008": "The next Seated Player then acts.",
         "roberts-nlhe": "A verbal statement denotes your action and is binding."}


def _with_param(tmp_path: Path, value: str, name: str = "blognomic-2008") -> Path:
    d = copy_ruleset(tmp_path / f"{name}-{value}", name)
    toml = d / "ruleset.toml"
    toml.write_text(toml.read_text("utf-8") + BLOCK.format(value=value, cite=CITES[name]), "utf-8")
    return d


def test_the_bundled_files_leave_it_out_and_read_as_before():
    # before the parameter, advance actions were taken exactly when actions need not name
    # their hand and round: blognomic-2008 off, roberts-nlhe on
    assert "advance_actions" in OPTIONAL_PARAMS
    b, r = load_ruleset("blognomic-2008"), load_ruleset("roberts-nlhe")
    assert (b.advance_actions, r.advance_actions) == (False, True)
    assert "advance_actions" not in b.params  # no sentence: it is not in the file


def test_a_file_may_state_it_with_its_sentence(tmp_path):
    rs = load_ruleset_file(_with_param(tmp_path, "true"))
    assert rs.advance_actions is True
    assert rs.cite("advance_actions") == "The next Seated Player then acts."
    assert load_ruleset_file(_with_param(tmp_path, "false", "roberts-nlhe")).advance_actions is False


def test_a_wrong_value_is_refused_saying_what_is_allowed(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(_with_param(tmp_path, '"yes"'))
    assert any("advance_actions" in str(e) and "true or false" in str(e) for e in info.value.errors)


def test_a_required_parameter_is_still_required(tmp_path):
    d = copy_ruleset(tmp_path / "b")
    replace(d, "[params.showdown_order]", "[params.showdown_orderx]")
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(d)
    assert any("showdown_order" in str(e) and "missing" in str(e) for e in info.value.errors)


def test_rules_show_says_an_optional_parameter_is_left_out():
    out = CliRunner().invoke(app, ["rules", "show", "roberts-nlhe"]).stdout
    assert "  advance_actions = true" in out and "optional, not in this ruleset's file" in out


def test_an_amendment_turning_it_on_takes_advance_actions_from_the_next_hand(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    first = _to_act(t)
    ps = list(t.players)
    second = ps[(ps.index(first) + 1) % 3]
    t.act(second, "CALL *")
    assert [v.code for v in t.verdicts() if v.author == second][-1] == "advance_off"  # hand 1
    for p in ps:  # end hand 1: everyone but one folds in turn
        if sum(1 for _m, turn, _p in t.gndt().values() if turn in ("x", "-")) <= 1:
            break
        t.act(_to_act(t), "HAND1 ROUND1 folds")
    res = CliRunner().invoke(app, ["table", "amend", "--table", "T", "--ruleset",
                                   str(_with_param(tmp_path, "true")), "--note", "Proposal 7",
                                   "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.start(ante=5)
    t.draw(2)
    t.new_dealer()
    first = _to_act(t)
    second = ps[(ps.index(first) + 1) % 3]
    t.act(second, "CALL *")
    said = t.act(first, "HAND2 ROUND1 raise 10")
    assert any(f"{second} (advance action): calls" in b for b in said), said
    assert audit(t.engine, t.state)[1] == []
