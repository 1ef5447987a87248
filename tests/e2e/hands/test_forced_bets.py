"""Forced bets stored with the table (issue 22): ``table create --ante/--blinds`` and ``table
set --ante/--blinds`` (checked against the ruleset), shown by ``table show``; ``hand start``
without them takes the table's and says so, and never deals a hand with no forced bet the
Dealer did not ask for: ``hand start`` without ``--ante`` dealt blognomic-2008's hand with
ante 0 ("Hand #2 has commenced. Ante: 0"), though its rule says "All Seated Players then Ante,
which occurs only once per Hand."

Through the real CLI (typer's runner) on the local forum and a SQLite ledger."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app

from _paths import FIXTURES

ANTE_RULE = "All Seated Players then Ante, which occurs only once per Hand."
FIXTURE = FIXTURES / "edition-1-ledger"


def cli(state: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--state", str(state)])


def hands(state: Path, table: str) -> list[tuple[int, int, list[int]]]:
    con = sqlite3.connect(state / "ledger.db")
    try:
        return [(n, a, json.loads(b)) for n, a, b in con.execute(
            "SELECT number, ante, blinds FROM np_hand WHERE table_name = ? ORDER BY number", (table,))]
    finally:
        con.close()


def first_dealer_comment(state: Path) -> str:
    forum = LocalForum(state / "forum.db")
    thread = forum.threads()[-1].ref
    return next(c.body for c in forum.list_comments(thread) if c.author == "Dealer")


def test_hand_start_without_a_forced_bet_is_refused_with_the_rule_and_writes_nothing(tmp_path):
    state = tmp_path / "state"
    assert cli(state, "table", "create", "--name", "B", "--players", "alice,bob").exit_code == 0
    res = cli(state, "hand", "start", "--table", "B")
    assert res.exit_code == 1, res.output
    assert "no forced bet is known" in res.output and ANTE_RULE in res.output and "--ante 5" in res.output
    assert hands(state, "B") == []
    assert LocalForum(state / "forum.db").threads() == []  # no story post either
    assert not list((state / "secrets").glob("B/hand-*"))
    # the Dealer asks for none: a hand with ante 0 is dealt, as asked
    res = cli(state, "hand", "start", "--table", "B", "--ante", "0")
    assert res.exit_code == 0, res.output
    assert hands(state, "B") == [(1, 0, [])]


def test_the_tables_ante_is_stored_shown_used_and_changed_for_the_next_hand(tmp_path):
    state = tmp_path / "state"
    res = cli(state, "table", "create", "--name", "B", "--players", "alice,bob", "--ante", "5")
    assert res.exit_code == 0, res.output
    assert "next: nomicpoker hand start --table B --state" in res.output  # no flag needed
    assert "forced bets: ante 5" in cli(state, "table", "show", "--table", "B").output
    res = cli(state, "hand", "start", "--table", "B")
    assert res.exit_code == 0, res.output
    assert "hand 1 of B: ante 5, the table's" in res.output
    assert hands(state, "B") == [(1, 5, [])]
    assert "Ante 5" in first_dealer_comment(state)
    res = cli(state, "table", "set", "--table", "B", "--ante", "10", "--note", "stakes up")
    assert res.exit_code == 0 and "forced bets: ante 10" in res.output, res.output
    assert hands(state, "B") == [(1, 5, [])]  # the running hand keeps its ante
    forum = LocalForum(state / "forum.db")
    said = [c.body for c in forum.list_comments(forum.threads()[-1].ref) if c.author == "Dealer"][-1]
    assert "forced bets from the next hand: ante 10" in said, said
    # hand 1 ends (blognomic: draws first; the Dealer voids it to move on)
    assert cli(state, "hand", "void", "--table", "B", "--note", "test").exit_code == 0
    assert cli(state, "hand", "start", "--table", "B").exit_code == 0
    assert hands(state, "B") == [(1, 5, []), (2, 10, [])]
    res = cli(state, "hand", "start", "--table", "B")  # a hand is running
    assert res.exit_code == 1
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output, res.output


def test_blinds_are_checked_against_the_ruleset(tmp_path):
    state = tmp_path / "state"
    res = cli(state, "table", "create", "--name", "B", "--players", "alice,bob", "--blinds", "1,2")
    assert res.exit_code != 0 and "has no blinds" in res.output and ANTE_RULE in res.output, res.output
    assert "table B" not in cli(state, "table", "list").output
    assert cli(state, "table", "create", "--name", "B", "--players", "alice,bob", "--ante", "5").exit_code == 0
    res = cli(state, "table", "set", "--table", "B", "--blinds", "1,2")
    assert res.exit_code != 0 and "has no blinds" in res.output, res.output
    assert "forced bets: ante 5" in cli(state, "table", "show", "--table", "B").output  # unchanged
    for bad in ("2,1", "1", "0,2", "x,2"):
        res = cli(state, "table", "set", "--table", "B", "--blinds", bad)
        assert res.exit_code == 2, (bad, res.output)
    res = cli(state, "table", "create", "--name", "R", "--players", "alice,bob,carol", "--ruleset",
              "roberts-nlhe", "--blinds", "1,2")
    assert res.exit_code == 0, res.output
    assert "forced bets: blinds 1/2" in cli(state, "table", "show", "--table", "R").output
    res = cli(state, "hand", "start", "--table", "R")
    assert res.exit_code == 0 and "blinds 1/2, the table's" in res.output, res.output
    assert hands(state, "R") == [(1, 0, [1, 2])]
    assert "Blinds 1/2" in first_dealer_comment(state)


def test_a_table_from_before_forced_bets_were_stored_takes_its_last_hands(tmp_path):
    state = tmp_path / "state"
    shutil.copytree(FIXTURE, state, ignore=shutil.ignore_patterns("README.md"))
    assert cli(state, "db", "upgrade").exit_code == 0
    assert "forced bets: none stored" in cli(state, "table", "show", "--table", "R").output
    res = cli(state, "hand", "start", "--table", "R")
    assert res.exit_code == 0, res.output
    assert "blinds 1/2, hand 3's, as the table stores none" in res.output
    assert hands(state, "R")[-1] == (4, 0, [1, 2])


HOUSE = "The small blind is 5 chips and the big blind 10 chips."


def _house_rules(tmp_path: Path, small: int, big: int) -> Path:
    """roberts-nlhe amended by a house that states its blind amounts (optional parameters)."""
    from kits.tables.rulesets import copy_ruleset

    rules = copy_ruleset(tmp_path / "house-nlhe", "roberts-nlhe")
    with (rules / "rule.txt").open("a", encoding="utf-8") as f:
        f.write(f"\n{HOUSE}\n")
    with (rules / "ruleset.toml").open("a", encoding="utf-8") as f:
        for name, value in (("small_blind", small), ("big_blind", big)):
            f.write(f'\n[params.{name}]\nvalue = {value}\nsource = "House rule"\ncite = "{HOUSE}"\n')
    return rules


def test_the_amounts_a_ruleset_states_are_the_default(tmp_path):
    state = tmp_path / "state"
    rules = _house_rules(tmp_path, 5, 10)
    res = cli(state, "table", "create", "--name", "H", "--players", "alice,bob,carol", "--ruleset", str(rules))
    assert res.exit_code == 0, res.output
    assert "next: nomicpoker hand start --table H --state" in res.output  # no flag needed
    res = cli(state, "hand", "start", "--table", "H")
    assert res.exit_code == 0 and "blinds 5/10, ruleset" in res.output, res.output
    assert hands(state, "H") == [(1, 0, [5, 10])]
    # the table's own forced bets come before the ruleset's
    assert cli(state, "hand", "void", "--table", "H", "--note", "test").exit_code == 0
    assert cli(state, "table", "set", "--table", "H", "--blinds", "1,2").exit_code == 0
    assert cli(state, "hand", "start", "--table", "H").exit_code == 0
    assert hands(state, "H")[-1] == (2, 0, [1, 2])


def test_a_ruleset_with_blind_amounts_that_make_no_sense_is_refused(tmp_path):
    for small, big, why in ((5, 0, "give both blinds"), (10, 5, "above big_blind")):
        rules = _house_rules(tmp_path / f"{small}-{big}", small, big)
        res = CliRunner().invoke(app, ["rules", "check", str(rules)])
        assert res.exit_code != 0 and why in res.output, res.output
