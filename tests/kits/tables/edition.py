"""Test kit for the ledgers the previous release played (``tests/fixtures/edition-1-*-ledger``):
a working copy of a fixture's state folder, the CLI in process on it, and the rows that say
what was played (the derived tables, the Money column, the verdict of each comment).

WHY one kit: tests/e2e/record/test_edition_1_ledger.py and tests/e2e/{blog,email,irc}/
test_edition_1_*_ledger.py each had their own copy of these helpers, and the copies had begun to differ (one took the ledger's path, the others the
state folder's)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from nomicpoker.cli import app

#: the derived tables that say what the hands were and what the Dealer posted
DERIVED = ("np_verdict", "np_entry", "np_outbox", "np_action", "np_reveal", "np_board", "np_hand_end")


def copied_state(fixture: Path, tmp_path: Path, *also_ignored: str) -> Path:
    """A copy of ``fixture`` (a state folder as the release left it) to play on, without its
    README and the other files named."""
    state = tmp_path / "state"
    shutil.copytree(fixture, state, ignore=shutil.ignore_patterns("README.md", *also_ignored))
    return state


def cli(state: Path, *args: str):
    """``nomicpoker ARGS --state STATE`` in process (typer's ``CliRunner``)."""
    return CliRunner().invoke(app, [*args, "--state", str(state)])


def rows(db: Path, query: str, *params) -> list[tuple]:
    """The rows ``query`` selects from the SQLite file ``db``, read with the standard module."""
    con = sqlite3.connect(db)
    try:
        return con.execute(query, params).fetchall()
    finally:
        con.close()


def ledger_rows(state: Path, query: str, *params) -> list[tuple]:
    """:func:`rows` of the state folder's ledger."""
    return rows(state / "ledger.db", query, *params)


def derived(state: Path) -> dict[str, list[tuple]]:
    """Every row of the :data:`DERIVED` tables, in the order they were written."""
    return {t: ledger_rows(state, f"SELECT * FROM {t} ORDER BY seq") for t in DERIVED}


def money(state: Path) -> dict[str, int]:
    """Each player's last Money cell of the GNDT."""
    return {p: int(m) for p, m in ledger_rows(
        state, "SELECT player, new FROM np_entry WHERE \"column\" = 'Money' ORDER BY seq")}


def upgraded_and_audited(state: Path) -> None:
    """``db upgrade`` then ``audit``, which must find the replay identical to the ledger."""
    res = cli(state, "db", "upgrade")
    assert res.exit_code == 0, res.output
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output and "differ" not in res.output, res.output
