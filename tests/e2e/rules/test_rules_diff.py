"""``nomicpoker rules diff``: what an amendment changes, parameter by parameter, with the cited
sentences old and new; the expected reports are written out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.rules.ruleset_diff import diff_rulesets
from nomicpoker.shell.storage.rulesets import load_ruleset, load_ruleset_file

from kits.tables.rulesets import RULES_DIR, copy_ruleset, proposal_42, recipe_hash, replace

runner = CliRunner()


@pytest.fixture
def p42(tmp_path: Path) -> Path:
    return proposal_42(tmp_path / "blognomic-2008-p42")


def test_diff_of_an_amended_copy_names_each_change_with_old_and_new_sentences(p42):
    old, new = recipe_hash(RULES_DIR / "blognomic-2008")[:12], recipe_hash(p42)[:12]
    r = runner.invoke(app, ["rules", "diff", "blognomic-2008", str(p42)])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"""\
blognomic-2008 ({old}) -> blognomic-2008-p42 ({new})
name: "blognomic-2008" -> "blognomic-2008-p42"
params.check_in_first_round: false -> true
    old rule: “No Player may Check before the Flop.” (Dealing and Play, first round)
    new rule: “From Proposal 42 on, a Player may Check in the first Round while no Player has Raised in it.” (Dealing and Play, first round)
params.side_pots: false -> true
    rule (unchanged): “Once the winner of the Hand is determined, the winner adds to his Money an amount equal to the amount of Money in the Pot, and sets the Pot at zero.” (Dealing and Play, showdown)
    old note: The 2008 text has no side pots: the winner takes the whole Pot, even a player who called all-in for less. The payout comment says so when it matters.
    new note: Proposal 42 gives side pots: an all-in player wins only what he matched.
rejections.check_before_flop: the sentence a rejection with this code quotes
    old rule: “No Player may Check before the Flop.” (Dealing and Play, first round)
    new rule: (none)
2 parameter value(s) changed (check_in_first_round, side_pots); 3 citation(s) changed
rule text: 2 line(s) added, 0 removed (--text shows them)
"""


def test_diff_the_other_way_round_swaps_old_and_new(p42):
    r = runner.invoke(app, ["rules", "diff", str(p42), "blognomic-2008"])
    lines = r.stdout.splitlines()
    assert lines[2] == "params.check_in_first_round: true -> false"
    assert lines[4] == "    new rule: “No Player may Check before the Flop.” (Dealing and Play, first round)"
    assert "    old rule: (none)" in lines
    assert lines[-1] == "rule text: 0 line(s) added, 2 removed (--text shows them)"


def test_diff_text_shows_the_rule_text_lines_added(p42):
    r = runner.invoke(app, ["rules", "diff", "--text", "blognomic-2008", str(p42)])
    assert r.exit_code == 0
    assert "+# Proposal 42, enacted 1 Feb 2008, adds the sentence below." in r.stdout.splitlines()
    assert ("+From Proposal 42 on, a Player may Check in the first Round while no Player has Raised in it."
            in r.stdout.splitlines())


def test_a_value_changed_under_the_same_sentence_and_a_sentence_changed_under_the_same_value(tmp_path):
    d = copy_ruleset(tmp_path / "x")
    replace(d, "[params.min_hole_cards]\nvalue = 1", "[params.min_hole_cards]\nvalue = 0")
    replace(d, '[params.five_of_a_kind]\nvalue = true\nsource = "Dealing and Play, hole card draw"',
            '[params.five_of_a_kind]\nvalue = true\nsource = "Hole Card Draw, as amended"')
    r = runner.invoke(app, ["rules", "diff", "blognomic-2008", str(d)])
    lines = r.stdout.splitlines()
    i = lines.index("params.min_hole_cards: 1 -> 0")
    assert lines[i + 1] == ("    rule (unchanged): “The winner of the Hand is then determined per the Poker "
                            "Hands Page by comparing the best five-card Poker Hand held by any such Seated "
                            "Player (including one or both of such Seated Player’s Hole Cards and the "
                            "balance of the cards in the five-card hand from the Community Cards.” "
                            "(Dealing and Play, showdown)")
    j = lines.index("params.five_of_a_kind: true (value unchanged)")
    assert lines[j + 1].startswith("    old rule: “") and lines[j + 1].endswith("(Dealing and Play, hole card draw)")
    assert lines[j + 2].startswith("    new rule: “") and lines[j + 2].endswith("(Hole Card Draw, as amended)")
    assert lines[j + 1][len("    old rule: "):].rsplit(" (", 1)[0] == lines[j + 2][len("    new rule: "):].rsplit(" (", 1)[0]
    assert lines[-2] == "1 parameter value(s) changed (min_hole_cards); 1 citation(s) changed"


def test_identical_rulesets_say_so():
    r = runner.invoke(app, ["rules", "diff", "blognomic-2008", "blognomic-2008"])
    h = recipe_hash(RULES_DIR / "blognomic-2008")[:12]
    assert r.exit_code == 0
    assert r.stdout == (f"blognomic-2008 ({h}) -> blognomic-2008 ({h})\nno differences: identical\n"
                        "rule text: unchanged\n")


def test_diff_between_the_two_bundled_rulesets_lists_every_parameter_whose_value_differs():
    a, b = load_ruleset("blognomic-2008"), load_ruleset("roberts-nlhe")
    values = {c.name for c in diff_rulesets(a, b) if c.key.startswith("params.") and c.value_changed}
    # docs/rulesets.md's table: every row where the two columns differ
    assert values == {"raise_amount", "min_raise", "check_in_first_round", "blinds", "first_to_act",
                      "short_all_in_reopens", "side_pots", "return_uncalled", "min_hole_cards",
                      "odd_chips", "five_of_a_kind", "deck", "redraw_identical_dice",
                      "require_hand_and_round", "showdown_order", "advance_actions",
                      "no_raise_after_out_of_turn_check", "all_in_face_up"}


def test_a_copy_moved_elsewhere_has_no_differences(tmp_path):
    d = copy_ruleset(tmp_path / "moved")
    assert diff_rulesets(load_ruleset("blognomic-2008"), load_ruleset_file(d)) == ()


@pytest.mark.parametrize("args", [["rules", "diff", "blognomic-2008"], ["rules", "diff"],
                                  ["rules", "diff", "--table", "T", "a", "b"]])
def test_diff_needs_two_rulesets_or_a_table_and_one(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    assert "give two rulesets" in r.output


def test_diff_of_a_broken_file_prints_its_errors_and_exits_1(tmp_path):
    d = copy_ruleset(tmp_path / "broken")
    replace(d, 'value = "added"', 'value = "raise"')
    r = runner.invoke(app, ["rules", "diff", "blognomic-2008", str(d)])
    assert r.exit_code == 1
    assert "params.raise_amount.value" in r.output and "Traceback" not in r.output


def test_export_writes_the_pinned_ruleset_byte_for_byte_even_after_the_file_changed(tmp_path):
    from kits.tables.bot import Table

    d = copy_ruleset(tmp_path / "house")
    original = recipe_hash(d)
    t = Table(tmp_path, players=("alice", "bob"), ruleset=str(d))
    replace(d, "[params.side_pots]\nvalue = false", "[params.side_pots]\nvalue = true")
    out = tmp_path / "to-amend"
    r = runner.invoke(app, ["rules", "export", "--table", "T", str(out), "--state", str(t.state)])
    assert r.exit_code == 0, r.output
    assert recipe_hash(out) == original  # the table's text, not the edited file's
    assert (out / "rule.txt").read_bytes() == (RULES_DIR / "blognomic-2008" / "rule.txt").read_bytes()
    again = runner.invoke(app, ["rules", "export", "--table", "T", str(out), "--state", str(t.state)])
    assert again.exit_code == 1 and "not an empty directory" in again.output
