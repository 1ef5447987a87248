"""A ruleset argument that names an existing folder is a path (issue 22): ``rules export``
writes a folder and prints ``next: ... table amend --table T --ruleset rules-p1``, which was
then read as a bundled ruleset's name and refused. Run as printed, from the folder the Dealer
works in, it amends the table; a bundled name with no such folder is still the bundled one."""

from __future__ import annotations

import re
import shlex

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.rules.validate import RulesetError
from nomicpoker.shell.storage.rulesets import load_ruleset

from kits.tables.bot import Table
from kits.tables.rulesets import replace

runner = CliRunner()


def test_the_export_hint_amends_as_printed(tmp_path, monkeypatch):
    t = Table(tmp_path, players=("alice", "bob"))
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["rules", "export", "--table", "T", "rules-p1", "--state", str(t.state)])
    assert r.exit_code == 0, r.output
    replace(tmp_path / "rules-p1", "[params.side_pots]\nvalue = false", "[params.side_pots]\nvalue = true")
    hint = re.search(r"then (table amend .*)$", r.output.strip()).group(1)
    assert hint == "table amend --table T --ruleset rules-p1"
    done = runner.invoke(app, shlex.split(hint) + ["--state", str(t.state)])
    assert done.exit_code == 0, done.output
    assert "unknown" not in done.output


def test_a_folder_name_is_a_path_and_a_bundled_name_stays_bundled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesetError):
        load_ruleset("rules-p2")  # no such folder, no such bundled ruleset
    from kits.tables.rulesets import copy_ruleset
    copy_ruleset(tmp_path / "rules-p2")
    assert load_ruleset("rules-p2").name == "blognomic-2008"
    assert load_ruleset("roberts-nlhe").name == "roberts-nlhe"
