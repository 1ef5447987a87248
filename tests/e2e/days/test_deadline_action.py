"""The ruleset's ``deadline_action`` decides what a timeout does (issue 11: "deadline_hours and
deadline_action are loaded and never read"), through the real poll on the local forum and
SQLite ledger with a fake clock, and ``audit`` replays it identically.

The values come from the seeds: ``check_or_fold`` (WRGPT: "a $0 bet will be entered for you";
Robert's Rules, dead hands rule 1(e): only "when facing a bet or raise") and ``fold`` (the bot
server: "the server auto-folds"). A ruleset that says ``fold`` cites its own sentence, which
must be in its rule text, like every parameter (``rules check``).

Worked out by hand: roberts-nlhe, alice and bob with 100, blinds 1/2, a deadline of 4 plain
hours (UTC). The button is the last player, bob: heads-up he posts the small blind and acts
first; when he calls, alice (the big blind) may check for free.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from typer.testing import CliRunner

from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table
from kits.tables.rulesets import copy_ruleset, replace
from kits.tables.clock import at, Clock, FOLD_SENTENCE, NOTICE, RULE, run, started, T0


@pytest.mark.parametrize("action", ["check_or_fold", "fold"])
def test_a_timeout_with_a_free_check_follows_the_rulesets_deadline_action(tmp_path, action):
    t, clock, notice = started(tmp_path, action)
    assert "Deadline: 2026-12-07 18:00 UTC. " + NOTICE[action] in notice
    clock.t = at(1)
    t.p["bob"].say("call")
    (called,) = run(t, clock, at(1))  # 15:00: alice's four hours run to 19:00
    assert "**alice** to act" in called and "Deadline: 2026-12-07 19:00 UTC. " + NOTICE[action] in called
    assert run(t, clock, at(4) + timedelta(minutes=59)) == []  # 18:59: not yet
    out = run(t, clock, at(5))
    did = "checks" if action == "check_or_fold" else "folds"
    assert out[0].startswith(f"alice's deadline passed at 2026-12-07 19:00 UTC: the dealer acts for "
                             f"them and {did} {RULE[action]}, as the table's deadline says.")
    if action == "check_or_fold":  # the flop; alice (not the button) acts first again, but
        # she is on vacation since her timeout (WRGPT, issue 22): the dealer checks for her at
        # once, never giving her a new deadline, and bob is to act
        assert t.money() == {"alice": 98, "bob": 98}
        assert any(b.startswith("alice is away: the dealer checks for them.") for b in out)
        assert "**bob** to act" in out[-1] and "Deadline: 2026-12-07 23:00 UTC" in out[-1]
    else:  # bob takes the 4 in the pot
        assert t.money() == {"alice": 98, "bob": 102}
        assert not any("to act" in b for b in out[1:])
    assert run(t, clock, at(5) + timedelta(minutes=10)) == []  # a repeated poll: one timeout
    assert audit(t.engine, t.state) == (["T"], [])


@pytest.mark.parametrize("action", ["check_or_fold", "fold"])
def test_a_timeout_facing_a_bet_folds_under_either_value(tmp_path, action):
    t, clock, _ = started(tmp_path, action)
    out = run(t, clock, at(4))  # bob owes 1: he cannot check
    assert out[0].startswith(f"bob's deadline passed at 2026-12-07 18:00 UTC: the dealer acts for them "
                             f"and folds {RULE[action]}")
    assert t.money() == {"alice": 101, "bob": 99}
    assert audit(t.engine, t.state) == (["T"], [])


def test_a_vacation_checks_when_free_even_where_the_deadline_folds(tmp_path):
    """WRGPT: while gone "each turn is checked or folded at once"; that is the vacation rule,
    not the deadline's, so a house that folds on a timeout still checks for a player away."""
    t, clock, _ = started(tmp_path, "fold")
    clock.t = at(1)
    t.p["alice"].say("GONE 13 Dec")
    t.p["bob"].say("call")
    out = run(t, clock, at(1))
    assert any(b.startswith("alice is away: the dealer checks for them.") for b in out)
    assert t.money() == {"alice": 98, "bob": 98}
    assert audit(t.engine, t.state) == (["T"], [])


def test_rules_check_takes_only_the_seeds_deadline_actions_each_cited_in_the_text(tmp_path):
    runner = CliRunner()
    rules = copy_ruleset(tmp_path / "r", "roberts-nlhe")
    replace(rules, '[params.deadline_action]\nvalue = "check_or_fold"', '[params.deadline_action]\nvalue = "skip"')
    res = runner.invoke(app, ["rules", "check", str(rules)])
    assert res.exit_code == 1
    assert ('params.deadline_action.value: deadline_action must be one of "check_or_fold", "fold"; got "skip"'
            in res.output)
    # "fold" is a value, but the sentence it cites must be in the rule text
    replace(rules, 'value = "skip"\nsource = "Dead hands, rule 1(e)"\ncite = "(e) You have the clock on you '
            'when facing a bet or raise and exceed the specified time limit."',
            f'value = "fold"\nsource = "House rule"\ncite = "{FOLD_SENTENCE}"')
    res = runner.invoke(app, ["rules", "check", str(rules)])
    assert res.exit_code == 1 and "params.deadline_action.cite" in res.output
    with (rules / "rule.txt").open("a", encoding="utf-8") as f:
        f.write(f"\n{FOLD_SENTENCE}\n")
    res = runner.invoke(app, ["rules", "check", str(rules)])
    assert res.exit_code == 0 and res.output.startswith("ok: roberts-nlhe ")


@pytest.mark.parametrize("body, did", [("CALL *", "carol: calls 2"),
                                       ("GONE 13 Dec", "carol is away: the dealer folds for them.")])
def test_the_next_deadline_runs_from_an_action_the_dealer_took_for_a_comment(tmp_path, body, did):
    """An advance action written at one's own turn fires at once, and a vacation taken at
    one's turn folds at once: the next player's clock starts then, not at the step before
    (hand start, 14:00). Three-handed the button, carol, acts first; alice is next."""
    clock = Clock(T0)
    t = Table(tmp_path / "t", players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"deadline_hours": 4, "reminders": 0})
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    t.start(ante=0, blinds=(1, 2), now=clock)
    assert "**carol** to act" in t.new_dealer()[-1]
    clock.t = at(3)  # 17:00
    t.p["carol"].say(body)
    out = run(t, clock, at(3))
    assert any(b.startswith(did) for b in out), out
    assert "**alice** to act" in out[-1] and "Deadline: 2026-12-07 21:00 UTC." in out[-1], out[-1]
    assert run(t, clock, at(4)) == []  # 18:00, four hours after the hand start: not alice's deadline
    out = run(t, clock, at(7))
    assert out[0].startswith("alice's deadline passed at 2026-12-07 21:00 UTC")
    assert audit(t.engine, t.state) == (["T"], [])
