"""A table keeps the rules it was created under: the ruleset text is pinned in the ledger, so
changing the file (a Dealer's copy edited in place, or a new nomicpoker release with a
corrected bundled ruleset) changes nothing in a live game. Tables from before pinning are
pinned from their file when it is unchanged, and refused with what to do when it is not."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from sqlmodel import Session, select
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.store import RulesetRow

from kits.tables.rulesets import RULES_DIR, copy_ruleset, recipe_hash, replace
from kits.tables.bot import Table
from _paths import ROOT

REPO = ROOT
ROUND1_CHECK = "[params.check_in_first_round]\nvalue = false"
runner = CliRunner()


def allow_round1_check(d: Path) -> None:
    """Change one value, keeping the file valid: what a careless in-place edit would do."""
    replace(d, ROUND1_CHECK, "[params.check_in_first_round]\nvalue = true")


def check_is_rejected(t: Table, who: str, hand: int) -> None:
    bodies = t.act(who, f"HAND{hand} ROUND1 check")
    assert any("No Player may Check before the Flop." in b for b in bodies), bodies
    assert t.verdicts()[-1].code == "check_before_flop"


def test_a_table_keeps_its_rules_when_its_ruleset_file_is_edited_in_place(tmp_path):
    d = copy_ruleset(tmp_path / "house-rules")
    created = recipe_hash(d)
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset=str(d))
    t.start(ante=5)
    t.draw(1)
    allow_round1_check(d)  # the file now allows the check; the table's pinned rules do not
    assert recipe_hash(d) != created
    check_is_rejected(t, "alice", 1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 folds")
    t.act("carol", "HAND1 ROUND1 folds")
    t.start(ante=5)  # a new hand: still the rules the table was created under
    t.draw(2)
    check_is_rejected(t, "bob", 2)
    with Session(t.engine) as s:
        assert [h.ruleset_hash for h in ledger.hand_rows(s, "T")] == [created, created]
        assert [h.ruleset for h in ledger.hand_rows(s, "T")] == ["blognomic-2008"] * 2
    assert audit(t.engine, t.state)[1] == []


def test_a_table_plays_on_when_its_ruleset_file_is_deleted(tmp_path):
    d = copy_ruleset(tmp_path / "gone")
    t = Table(tmp_path, players=("alice", "bob"), ruleset=str(d))
    shutil.rmtree(d)
    t.start(ante=5)
    t.draw(1)
    check_is_rejected(t, "alice", 1)  # button bob: alice acts first
    assert audit(t.engine, t.state)[1] == []


def test_a_new_release_with_a_changed_bundled_ruleset_does_not_change_a_live_table(tmp_path):
    """Simulates upgrading: the table is created by this checkout; then a copy of the package
    whose bundled blognomic-2008 allows a round-1 check (a "new release") runs the poll in
    another process. The pinned rules still reject the check; the new release's own
    ``rules show`` proves its bundled file did change."""
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    site = tmp_path / "release-2"
    shutil.copytree(REPO / "nomicpoker", site / "nomicpoker",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "adapters", site / "nomicpoker" / "adapters",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(RULES_DIR, site / "nomicpoker" / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    allow_round1_check(site / "nomicpoker" / "rules" / "blognomic-2008")
    script = textwrap.dedent(f"""
        import sys
        import nomicpoker
        assert nomicpoker.__file__.startswith({str(site)!r}), nomicpoker.__file__
        from nomicpoker.cli import main
        sys.argv = ["nomicpoker"] + sys.argv[1:]
        main()
    """)

    def release_2(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": str(site)}
        return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)

    shown = release_2("rules", "show", "blognomic-2008")
    assert shown.returncode == 0, shown.stderr
    assert "  check_in_first_round = true" in shown.stdout
    t.p["alice"].say("HAND1 ROUND1 check")
    polled = release_2("poll", "--state", str(t.state))
    assert polled.returncode == 0, polled.stderr
    assert t.verdicts()[-1].code == "check_before_flop"
    assert any("No Player may Check before the Flop." in b for b in t.new_dealer())
    audited = release_2("audit", "--state", str(t.state))
    assert audited.returncode == 0 and "identical" in audited.stdout, audited.stdout + audited.stderr


# ------------------------------------------------------------------------------ before pinning


def unpin(t: Table) -> None:
    """Make the ledger look as a release before pinning left it: no np_ruleset rows, hands
    without the ruleset's name."""
    con = sqlite3.connect(t.state / "ledger.db")
    con.execute("DELETE FROM np_ruleset")
    con.execute("UPDATE np_hand SET ruleset = ''")
    con.commit()
    con.close()


def pinned_rows(t: Table) -> list[RulesetRow]:
    with Session(t.engine) as s:
        return list(s.exec(select(RulesetRow)).all())


def test_a_table_from_before_pinning_is_pinned_from_its_unchanged_file(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    unpin(t)
    t.draw(1)  # polls: pins the bundled file, whose hash is the one recorded
    rows = pinned_rows(t)
    assert [(r.name, r.content_hash, r.origin) for r in rows] == [
        ("blognomic-2008", recipe_hash(RULES_DIR / "blognomic-2008"), "blognomic-2008")]
    assert rows[0].toml == (RULES_DIR / "blognomic-2008" / "ruleset.toml").read_text("utf-8")
    assert rows[0].text == (RULES_DIR / "blognomic-2008" / "rule.txt").read_text("utf-8")
    check_is_rejected(t, "alice", 1)
    with Session(t.engine) as s:  # the public hand record names the ruleset from its pin
        assert ledger.hand_record(s, ledger.get_table(s, "T"), 1)["ruleset"] == "blognomic-2008"
    assert audit(t.engine, t.state)[1] == []


def test_a_table_from_before_pinning_whose_file_changed_is_refused_with_what_to_do(tmp_path):
    d = copy_ruleset(tmp_path / "house")
    original = copy_ruleset(tmp_path / "original-kept-aside")
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset=str(d))
    t.start(ante=5)
    unpin(t)
    allow_round1_check(d)
    t.p["alice"].say("HAND#1 DICE52 DICE52")
    report = t.poll()
    err = report.tables[0].error
    assert not report.ok and "\n" not in err
    assert "table T predates pinned rulesets" in err and "has changed since it was created" in err
    assert "nomicpoker table pin --table T --ruleset DIR" in err
    assert pinned_rows(t) == []  # nothing stored: the run was refused whole
    assert [v.author for v in t.verdicts()] == []  # alice's dice were not adjudicated
    st = ["--state", str(t.state)]
    listed = runner.invoke(app, ["table", "list", *st])
    assert listed.exit_code == 0 and listed.stdout.split("\t")[1] == f"{d} (not pinned)"
    wrong = runner.invoke(app, ["table", "pin", "--table", "T", "--ruleset", str(d), *st])
    assert wrong.exit_code == 1 and "not " in wrong.output and "table amend" in wrong.output
    assert len(wrong.output.strip().splitlines()) == 1
    ok = runner.invoke(app, ["table", "pin", "--table", "T", "--ruleset", str(original), *st])
    assert ok.exit_code == 0 and "pinned" in ok.stdout, ok.output
    again = runner.invoke(app, ["table", "pin", "--table", "T", "--ruleset", str(original), *st])
    assert again.exit_code == 0 and "already pinned" in again.stdout
    t.run()
    t.seen = len(t.dealer_bodies())
    assert audit(t.engine, t.state)[1] == []


def test_a_pinned_ruleset_altered_in_the_database_is_refused(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    con = sqlite3.connect(t.state / "ledger.db")
    con.execute("UPDATE np_ruleset SET toml = replace(toml, ?, ?)",
                (ROUND1_CHECK, "[params.check_in_first_round]\nvalue = true"))
    con.commit()
    con.close()
    report = t.poll()
    assert not report.ok and "no longer has its hash" in report.tables[0].error
