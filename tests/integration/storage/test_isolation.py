"""The suite's own isolation (tests/conftest.py) holds: a CI machine's environment cannot
reach the code under test."""

from __future__ import annotations

import os
from pathlib import Path

from nomicpoker.shell.storage.paths import db_url, state_dir

from _paths import ROOT


def test_no_nomicpoker_or_praw_variable_is_visible():
    leaked = [k for k in os.environ if k.lower().startswith(("nomicpoker_", "praw_"))]
    assert leaked == []


def test_the_default_state_is_under_a_temporary_directory_not_the_checkout():
    checkout = ROOT
    default = state_dir()
    assert default.name == "state" and default.parent == Path.cwd().resolve()
    assert checkout not in default.parents
    assert db_url(default) == f"sqlite:///{default / 'ledger.db'}"
