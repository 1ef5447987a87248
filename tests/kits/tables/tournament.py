"""Shared by the tournament command tests (tests/e2e/tournament/test_tournament_*.py): a structure file,
the CLI run in process, the ledger read with sqlite3, and a tournament of four entrants."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app

runner = CliRunner()

STRUCTURE = """
name = "spring"
title = "Spring Open"
starting_money = 1000
table_size = {size}
levels_by = "hands"
level_length = 5
payouts = [60, 30, 10]

[[levels]]
small_blind = 5
big_blind = 10

[[levels]]
ante = 1
small_blind = 10
big_blind = 20
"""


def run(*args: str, code: int = 0):
    res = runner.invoke(app, list(args))
    assert res.exit_code == code, res.output
    return res


def rows(state: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(state / "ledger.db")
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def made(tmp_path):
    """A structure file (tables of 3), a state and a tournament of four entrants."""
    path = tmp_path / "spring.toml"
    path.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    res = run("tournament", "create", "--structure", str(path), "--players", "ann,bob,cy,dee", "--state", str(state))
    return path, state, res
