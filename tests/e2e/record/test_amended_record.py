"""The pinned ruleset is the only ruleset (issue 21): after ``rules export``, an edited sentence
and ``table amend --ruleset DIR --note "Proposal 1"``, a hand played under the amendment is
exported to PHH, verified from its public JSON alone in a fresh process with nothing else
there, and shown green on the site, after the ruleset folder is deleted; the index and table
pages name the ruleset in force and the amendment (when, the note, what changed, from which
hand); ``rules show --table`` shows it. A table created from a folder that later moved goes on
polling, its site rebuilt, where every poll that changed something failed "cannot write"."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from pokerkit import HandHistory
from typer.testing import CliRunner

from kits.tables.bot import Table
from kits.tables.rulesets import P42_SENTENCE, copy_ruleset
from kits.tables.game import _amended_hand
from nomicpoker.cli import app

run = CliRunner().invoke


def test_a_hand_under_an_amended_ruleset_verifies_from_its_record_alone(tmp_path):
    t = _amended_hand(tmp_path)
    st = ["--state", str(t.state)]
    rec_file = tmp_path / "hand-1.json"
    assert run(app, ["audit", "export", "--table", "T", "--hand", "1", "-o", str(rec_file), *st]).exit_code == 0
    rec = json.loads(rec_file.read_text())
    assert rec["ruleset"] == "blognomic-p1" and P42_SENTENCE in rec["ruleset_files"]["text"]
    # a fresh process in an empty folder: no state, no ledger, only the file
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(rec_file, fresh / "hand-1.json")
    res = subprocess.run([sys.executable, "-m", "nomicpoker", "audit", "verify", "--record", "hand-1.json"],
                         cwd=fresh, capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(fresh)})
    assert res.returncode == 0, res.stdout + res.stderr
    assert "FAIL" not in res.stdout and "PASS T hand 1: ruleset: blognomic-p1" in res.stdout, res.stdout
    assert "PASS T hand 1: payout" in res.stdout
    # the carried rules are checked against the record's hash: another text fails, named
    rec["ruleset_files"]["text"] += "One more sentence.\n"
    (fresh / "bad.json").write_text(json.dumps(rec))
    res = run(app, ["audit", "verify", "--record", str(fresh / "bad.json")])
    assert res.exit_code == 1 and "FAIL T hand 1: ruleset: the ruleset the record carries has hash" in res.output


def test_phh_site_and_rules_show_read_the_pinned_ruleset_after_its_folder_is_gone(tmp_path):
    t = _amended_hand(tmp_path)
    st = ["--state", str(t.state)]
    res = run(app, ["phh", "export", "--table", "T", "--hand", "1", *st])
    assert res.exit_code == 0, res.output
    assert "_nomicpoker_ruleset = 'blognomic-p1'" in res.output
    hh = HandHistory.loads(res.output)  # pokerkit reads the custom fields (PHH's `_` names)
    assert hh.user_defined_fields["_nomicpoker_ruleset"] == "blognomic-p1"
    assert len(hh.user_defined_fields["_nomicpoker_ruleset_hash"]) == 64
    res = run(app, ["rules", "show", "--table", "T", *st])
    assert res.exit_code == 0 and "blognomic-p1" in res.output, res.output
    res = run(app, ["rules", "show", "--table", "T", "--hand", "1", *st])
    assert res.exit_code == 0 and "blognomic-p1" in res.output, res.output
    assert run(app, ["verdicts", "--table", "T", *st]).exit_code == 0
    www = tmp_path / "www"
    res = run(app, ["site", "build", "--out", str(www), *st])
    assert res.exit_code == 0, res.output
    page = (www / "T" / "hand-1.html").read_text()
    assert "FAILED" not in page and "Played under ruleset <code>blognomic-p1</code>" in page
    assert "<td>PASS</td><td>ruleset</td><td>blognomic-p1" in page
    index = (www / "index.html").read_text()
    assert "blognomic-p1" in index and "amended 1 time" in index
    table = (www / "T" / "index.html").read_text()
    assert "blognomic-p1" in table and "Proposal 1" in table and "from hand 1" in table
    assert "rule text" in table and P42_SENTENCE in table  # the amendment's diff
    assert (www / "T" / "hand-1.phh").read_text().startswith("variant")


def test_a_table_whose_ruleset_folder_moved_polls_on_and_its_site_is_rebuilt(tmp_path):
    d = copy_ruleset(tmp_path / "house-rules")
    t = Table(tmp_path, players=("alice", "bob"), ruleset=str(d))
    shutil.move(str(d), str(tmp_path / "moved"))
    t.start(ante=5)
    site = tmp_path / "www"
    res = run(app, ["poll", "--site", str(site), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert (site / "T" / "hand-1.html").is_file()
    t.draw(1)
    res = run(app, ["poll", "--site", str(site), "--state", str(t.state), "--verbose"])
    assert res.exit_code == 0 and "FAILED" not in res.output, res.output
    res = run(app, ["site", "build", "--out", str(tmp_path / "www2"), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
