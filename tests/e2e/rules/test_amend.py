"""``nomicpoker table amend``: a rule amendment the nomic passed applies from the next hand on,
never to the running one; it is a dealer event in the ledger, announced in the next hand's
story post and first comment, and ``audit`` replays it identically."""

from __future__ import annotations

import sqlite3

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.dealer.amendments import amend_table
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.dealer.service import ServiceError
from nomicpoker.shell.storage.store import DealerEventRow, RulesetRow

from kits.tables.rulesets import RULES_DIR, copy_ruleset, proposal_42, recipe_hash, replace
from kits.tables.bot import Table

runner = CliRunner()


def counts(t: Table) -> tuple[int, int]:
    with Session(t.engine) as s:
        return (len(s.exec(select(RulesetRow)).all()), len(s.exec(select(DealerEventRow)).all()))


def cli(t: Table, *args: str):
    return runner.invoke(app, [*args, "--state", str(t.state)])


def play_hand_1(t: Table) -> None:
    """alice (first to act, button carol) tries a round-1 check, then raises; both others fold."""
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 check")
    assert t.verdicts()[-1].code == "check_before_flop"
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 folds")
    t.act("carol", "HAND1 ROUND1 folds")


def test_an_amendment_applies_at_the_next_hand_and_not_in_the_current_one(tmp_path):
    p42 = proposal_42(tmp_path / "blognomic-2008-p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    before = counts(t)
    mid = cli(t, "table", "amend", "--table", "T", "--ruleset", str(p42), "--note", "Proposal 42")
    assert mid.exit_code == 1
    assert mid.output.strip() == ("error: hand 1 of table T is still running and an amendment applies "
                                  "from the next hand: run table amend again once hand 1 has ended "
                                  "(nothing was changed)")
    assert counts(t) == before
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 check")  # hand 1 keeps the 2008 rules
    assert t.verdicts()[-1].code == "check_before_flop"
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 folds")
    t.act("carol", "HAND1 ROUND1 folds")

    done = cli(t, "table", "amend", "--table", "T", "--ruleset", str(p42), "--note", "Proposal 42 (enacted 1 Feb)")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == (
        f"table T: ruleset blognomic-2008-p42 ({recipe_hash(p42)[:12]}) applies from hand 2, in place "
        f"of blognomic-2008 ({recipe_hash(RULES_DIR / 'blognomic-2008')[:12]}). Changed: "
        "check_in_first_round false \u2192 true; side_pots false \u2192 true. "
        "3 quoted rule sentence(s) or reading(s) changed.")
    with Session(t.engine) as s:
        ev = s.exec(select(DealerEventRow).where(DealerEventRow.kind == "amend")).one()
        assert (ev.hand, ev.ruleset_hash, ev.note, ev.player) == (1, recipe_hash(p42), "Proposal 42 (enacted 1 Feb)", "")

    t.start(ante=5)
    first = t.new_dealer()[0]
    with Session(t.engine) as s:
        at = s.exec(select(DealerEventRow).where(DealerEventRow.kind == "amend")).one().at
    assert (
        "**The rules were amended before this hand.** From this hand on the table plays under ruleset "
        f"blognomic-2008-p42 (hash `{recipe_hash(p42)[:12]}`), in place of blognomic-2008 "
        f"(`{recipe_hash(RULES_DIR / 'blognomic-2008')[:12]}`); applied by the Dealer at {at}: "
        "Proposal 42 (enacted 1 Feb). Changed: check_in_first_round false \u2192 true; side_pots false "
        "\u2192 true. 3 quoted rule sentence(s) or reading(s) changed. `nomicpoker rules diff` shows "
        "every quoted sentence, old and new.") in first.split("\n\n")
    t.draw(2)
    t.act("bob", "HAND2 ROUND1 check")  # hand 2 plays under the amendment: the check stands
    v = t.verdicts()[-1]
    assert (v.author, v.status) == ("bob", "accepted")
    with Session(t.engine) as s:
        hands = ledger.hand_rows(s, "T")
        assert [(h.ruleset, h.ruleset_hash) for h in hands] == [
            ("blognomic-2008", recipe_hash(RULES_DIR / "blognomic-2008")),
            ("blognomic-2008-p42", recipe_hash(p42))]
        table = ledger.get_table(s, "T")
        assert [ledger.hand_record(s, table, n)["ruleset"] for n in (1, 2)] == [
            "blognomic-2008", "blognomic-2008-p42"]
    names, diffs = audit(t.engine, t.state)
    assert diffs == []
    res = cli(t, "audit")
    assert res.exit_code == 0 and "identical" in res.stdout


def test_the_story_post_of_the_first_amended_hand_says_the_rules_changed(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    play_hand_1(t)
    amend_table(t.engine, t.state, "T", str(p42), note="Proposal 42")
    started = t.start(ante=5)
    body = t.forum.thread(started.thread).body
    assert f"Rules: blognomic-2008-p42 ({recipe_hash(p42)[:12]})." in body
    assert ("The rules were amended since the last hand (was blognomic-2008, "
            f"{recipe_hash(RULES_DIR / 'blognomic-2008')[:12]})") in body
    hand_1 = t.forum.thread(next(th.ref for th in t.forum.threads() if th.ref != started.thread)).body
    assert "amended" not in hand_1


def test_an_amendment_before_the_first_hand_applies_to_hand_1(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    amend_table(t.engine, t.state, "T", str(p42))
    t.start(ante=5)
    assert "**The rules were amended before this hand.**" in t.new_dealer()[0]
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 check")
    assert t.verdicts()[-1].status == "accepted"
    assert audit(t.engine, t.state)[1] == []


def test_two_amendments_between_hands_the_last_one_applies_and_both_notes_are_announced(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    p43 = copy_ruleset(tmp_path / "p43")
    replace(p43, 'name = "blognomic-2008"', 'name = "blognomic-2008-p43"')
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    play_hand_1(t)
    amend_table(t.engine, t.state, "T", str(p42), note="Proposal 42")
    amend_table(t.engine, t.state, "T", str(p43), note="Proposal 43 repeals 42")
    t.start(ante=5)
    first = t.new_dealer()[0]
    assert "ruleset blognomic-2008-p43" in first and "Proposal 42; Proposal 43 repeals 42" in first
    assert "No parameter takes another value." in first  # p43 is blognomic-2008 renamed
    t.draw(2)
    t.act("bob", "HAND2 ROUND1 check")
    assert t.verdicts()[-1].code == "check_before_flop"
    assert audit(t.engine, t.state)[1] == []


def test_a_bad_amended_ruleset_prints_every_error_and_writes_nothing(tmp_path):
    bad = copy_ruleset(tmp_path / "bad")
    replace(bad, 'value = "added"', 'value = "raise"')
    replace(bad, "[params.side_pots]\nvalue = false", '[params.side_pots]\nvalue = "no"')
    t = Table(tmp_path, players=("alice", "bob"))
    before = counts(t)
    r = cli(t, "table", "amend", "--table", "T", "--ruleset", str(bad))
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)
    assert "params.raise_amount.value" in lines[0] and "params.side_pots.value" in lines[1]
    assert counts(t) == before


@pytest.mark.parametrize("ruleset, code, words", [
    ("blognomic-2008", "unchanged", "already plays under this ruleset"),
    ("roberts-nlhe", "bad_decks", "issues each player a deck"),
])
def test_an_amendment_that_cannot_apply_is_refused_before_anything_is_written(tmp_path, ruleset, code, words):
    t = Table(tmp_path, players=("alice", "bob"))
    before = counts(t)
    with pytest.raises(ServiceError) as info:
        amend_table(t.engine, t.state, "T", ruleset)
    assert info.value.code == code and words in info.value.message
    assert counts(t) == before
    r = cli(t, "table", "amend", "--table", "T", "--ruleset", ruleset)
    assert r.exit_code == 1 and len(r.output.strip().splitlines()) == 1


def test_table_show_and_rules_diff_table_read_the_pinned_ruleset(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    same = cli(t, "rules", "diff", "--table", "T", "blognomic-2008")
    assert same.exit_code == 0 and "no differences: identical" in same.stdout
    amend_table(t.engine, t.state, "T", str(p42), note="Proposal 42")
    shown = cli(t, "table", "show", "--table", "T")
    assert f"ruleset blognomic-2008-p42 ({recipe_hash(p42)[:12]})" in shown.stdout.splitlines()[0]
    assert f"from hand 1: ruleset blognomic-2008-p42 ({recipe_hash(p42)[:12]}): Proposal 42" in shown.stdout
    back = cli(t, "rules", "diff", "--table", "T", "blognomic-2008")
    assert back.exit_code == 0
    assert back.stdout.splitlines()[2] == "params.check_in_first_round: true -> false"


def test_a_hand_recorded_under_a_ruleset_no_amendment_applied_is_refused(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    play_hand_1(t)
    amend_table(t.engine, t.state, "T", str(p42))
    t.start(ante=5)
    con = sqlite3.connect(t.state / "ledger.db")
    con.execute("DELETE FROM np_dealer_event WHERE kind = 'amend'")  # the amendment's record lost
    con.commit()
    con.close()
    report = t.poll()
    assert not report.ok
    assert "hand 2 is recorded under ruleset blognomic-2008-p42" in report.tables[0].error


def test_table_list_names_the_ruleset_in_force(tmp_path):
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    assert cli(t, "table", "list").stdout.split("\t")[1] == "blognomic-2008"
    amend_table(t.engine, t.state, "T", str(p42))
    assert cli(t, "table", "list").stdout.split("\t")[:2] == ["T", "blognomic-2008-p42"]


def test_an_amendment_recorded_mid_hand_by_other_means_is_refused_not_applied(tmp_path):
    """The command refuses mid-hand; a ledger that has such an event anyway (written by hand)
    is refused by the fold rather than changing the rules of a running hand."""
    p42 = proposal_42(tmp_path / "p42")
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    amend_table(t.engine, t.state, "T", str(p42))
    amend_table(t.engine, t.state, "T", "blognomic-2008")  # back: both rulesets are pinned now
    t.start(ante=5)
    con = sqlite3.connect(t.state / "ledger.db")
    after = con.execute("SELECT max(id) FROM np_comment").fetchone()[0] or 0
    con.execute("INSERT INTO np_dealer_event (table_name, hand, after, kind, player, at, ruleset_hash, note, data) "
                "VALUES ('T', 1, ?, 'amend', '', '2026-01-01T00:00:00+00:00', ?, '', '{}')",
                (after, recipe_hash(p42)))
    con.commit()
    con.close()
    report = t.poll()
    assert not report.ok
    assert "a rule amendment is recorded while hand 1 is running" in report.tables[0].error
