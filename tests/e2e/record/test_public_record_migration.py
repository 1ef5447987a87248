"""Schema 0008: a ledger written before issue 21 holds the running hands' hole cards and
private advance actions in ``np_snapshot``; ``nomicpoker db upgrade`` removes them from the
file (its free pages and write-ahead log too), and the game goes on and audits clean.

The ledger is ``tests/fixtures/schema-0007-running-hands``, made by nomicpoker at schema 0007
(its README says how): table R (roberts-nlhe) has hand 1 running with a private ``CALL $37``
waiting, table B (blognomic-2008) has hand 1 running after both Hole Card Draws."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage.store import SCHEMA_HEAD

from _paths import FIXTURES

FIXTURE = FIXTURES / "schema-0007-running-hands"
PRIVATE = "CALL $37"


def _hole_pairs(state: Path) -> list[str]:
    """The hole cards the Dealer sent privately at table R, as JSON pairs (the snapshot's
    spelling) and as the message wrote them."""
    con = sqlite3.connect(state / "forum.db")
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        bodies: list[str] = []
        for n in names:
            for row in con.execute(f'SELECT * FROM "{n}"').fetchall():
                bodies += [v for v in row if isinstance(v, str) and v.startswith("Your hole cards") and "reveal" in v]
    finally:
        con.close()
    pairs = []
    for body in bodies:
        a, b = re.search(r"\((\w\w) (\w\w)\)", body).groups()
        pairs += [f'"{a}","{b}"', f"{a} {b}"]
    assert len(pairs) == 6, bodies
    return pairs


def _ledger_text(state: Path) -> str:
    out = ""
    for name in ("ledger.db", "ledger.db-wal"):
        if (state / name).exists():
            out += (state / name).read_bytes().decode("latin-1")
    return out


def _outside_the_archive(state: Path, needle: str) -> list[str]:
    """Ledger cells holding ``needle``, except the private message's own archive row."""
    con = sqlite3.connect(state / "ledger.db")
    try:
        where = []
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            for c in cols:
                for row in con.execute(f'SELECT * FROM "{name}" WHERE CAST("{c}" AS TEXT) LIKE ?', (f"%{needle}%",)):
                    d = dict(zip(cols, row))
                    if not (name == "np_comment" and c == "body" and d["thread"] == "~private"):
                        where.append(f"{name}.{c}")
        return where
    finally:
        con.close()


def test_db_upgrade_removes_the_running_hands_cards_and_private_actions_from_the_ledger(tmp_path):
    state = tmp_path / "state"
    shutil.copytree(FIXTURE, state, ignore=shutil.ignore_patterns("README.md"))
    run = lambda *a: CliRunner().invoke(app, [*a, "--state", str(state)])  # noqa: E731
    pairs = _hole_pairs(state)
    # the fixture holds the defect: the snapshot of R has every hole card and the advance action
    before = _ledger_text(state)
    assert [p for p in pairs if p.startswith('"') and p in before] == [p for p in pairs if p.startswith('"')]
    assert "np_snapshot.state" in _outside_the_archive(state, PRIVATE)
    res = run("db", "upgrade")
    assert res.exit_code == 0, res.output
    assert f"-> {SCHEMA_HEAD}" in res.output and "ledger.db.before-0007" in res.output
    after = _ledger_text(state)
    assert [p for p in pairs if p in after] == []
    assert _outside_the_archive(state, PRIVATE) == []
    assert PRIVATE not in after  # nor in its archive row (schema 0009 seals it: its text is a secret)
    # the game goes on: the next poll replays the tables and keeps their state with the secrets
    assert run("poll").exit_code == 0
    assert (state / "secrets" / "R" / "snapshot").is_dir()
    assert [p for p in pairs if p in _ledger_text(state)] == []
    assert _outside_the_archive(state, PRIVATE) == [] and PRIVATE not in _ledger_text(state)
    res = run("audit")
    assert res.exit_code == 0 and "differ" not in res.output, res.output
    res = run("export", "public-db", "-o", str(tmp_path / "public.db"))
    assert res.exit_code == 0, res.output
    published = (tmp_path / "public.db").read_bytes().decode("latin-1")
    assert [p for p in pairs if p in published] == [] and PRIVATE not in published
