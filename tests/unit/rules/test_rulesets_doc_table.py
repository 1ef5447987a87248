"""docs/rulesets.md's parameter table says, for every choice and true/false parameter, exactly
the values the loader accepts (a value added to the code, such as deadline_action's "fold",
must reach the page a Dealer amends a ruleset from)."""

from __future__ import annotations

import re

from nomicpoker.core.rules.ruleset import PARAM_SPECS

from _paths import ROOT

DOC = ROOT / "docs" / "rulesets.md"


def test_the_allowed_column_matches_the_loader_for_choices_and_booleans():
    rows = dict(re.findall(r"^\| `(\w+)`(?: \(optional\))? \| ([^|]+) \|", DOC.read_text("utf-8"), re.M))
    checked = 0
    for name, spec in PARAM_SPECS.items():
        if spec.kind in ("choice", "bool"):
            assert rows[name].strip() == spec.allowed(), name
            checked += 1
    assert checked >= 10
