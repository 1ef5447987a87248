"""``nomicpoker export public-db``: a copy of the ledger safe to publish and ready for
datasette (one SQLite file, no -wal beside it), from which an auditor verifies every hand."""

from __future__ import annotations

import sqlite3
import stat

from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.tables.bot import Table
from kits.tables.game import blognomic_game


def test_the_public_copy_has_every_table_no_private_body_and_verifies(tmp_path):
    t = blognomic_game(tmp_path, "T")
    out = tmp_path / "pub" / "poker.db"
    res = CliRunner().invoke(app, ["export", "public-db", "-o", str(out), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert not (tmp_path / "pub" / "poker.db-wal").exists()
    con = sqlite3.connect(out)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
        assert {"np_table", "np_hand", "np_comment", "np_verdict", "np_entry", "np_outbox",
                "np_action", "np_hand_end"} <= tables
        bodies = [r[0] for r in con.execute("select body from np_outbox where kind='private'")]
        assert bodies and all(b.startswith("[sealed private message") for b in bodies)
        assert {r[0] for r in con.execute("select forum_config from np_table")} == {"{}"}
        n_actions = con.execute("select count(*) from np_action").fetchone()[0]
        assert n_actions > 10
    finally:
        con.close()
    # An auditor with only this file verifies every hand, money included.
    res = CliRunner().invoke(app, ["audit", "verify", "--table", "T", "--db", f"sqlite:///{out}",
                                   "--state", str(tmp_path / "auditor")])
    assert res.exit_code == 0 and "FAIL" not in res.output and "payout" in res.output, res.output


def test_a_legacy_plaintext_private_body_is_withheld(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    con = sqlite3.connect(t.state / "ledger.db")
    con.execute("update np_outbox set body='deck: As Kd Qh' where kind='private'")
    con.commit()
    con.close()
    out = tmp_path / "poker.db"
    assert CliRunner().invoke(app, ["export", "public-db", "-o", str(out), "--state", str(t.state)]).exit_code == 0
    data = out.read_bytes()
    assert b"As Kd Qh" not in data and b"[private message withheld]" in data
