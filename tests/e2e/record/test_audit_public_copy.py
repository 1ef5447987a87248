"""``audit`` on the public copy of a ledger (``export public-db``) while a hand runs (issue 14's
leftover: "the public copy of a running hand differs for private text"). The copy withholds the
running hand's private messages and has none of its secrets, so it cannot replay that hand;
audit used to fail on it ("the secrets of hand 2 are missing" for an auditor, or a "body does
not match its sha256" difference for the withheld text). Now it replays and compares everything
before the running hand, says in one note what it left out, and still finds a row changed
before it; once the hand ends the copy audits whole."""

from __future__ import annotations

import sqlite3

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.audit.public_db import export_public_db

from kits.tables.game import _pm, advance_table, order_from_turn

runner = CliRunner()


def audit_copy(tmp_path, t, name: str = "public.db"):
    out = tmp_path / name
    export_public_db(t.engine, out)
    auditor = tmp_path / "auditor"  # an auditor's machine: no secrets folder
    auditor.mkdir(exist_ok=True)
    return out, runner.invoke(app, ["audit", "--db", f"sqlite:///{out}", "--state", str(auditor)])


def test_a_public_copy_audits_up_to_the_running_hand_and_whole_once_it_ends(tmp_path):
    t = advance_table(tmp_path)
    first, second, _third = order_from_turn(t)
    t.act(first, "fold")
    t.act(second, "fold")  # the big blind takes hand 1
    t.start(ante=0, blinds=(1, 2))
    t.new_dealer()
    first, second, third = order_from_turn(t)
    _pm(t, second, "RAISE/S $77")  # private, withheld from the copy while hand 2 runs

    out, res = audit_copy(tmp_path, t)
    assert res.exit_code == 0, res.output
    assert ("note: T: hand 2 is running and its secrets or private messages are not public yet: "
            "audited up to its start (audit again when it has ended)") in res.output
    assert "audit: T: the replay is identical to the ledger" in res.output

    # A row of hand 1 changed in the copy is still found.
    con = sqlite3.connect(out)
    with con:
        cid = con.execute("SELECT id FROM np_comment WHERE thread != '~private' ORDER BY id LIMIT 1").fetchone()[0]
        con.execute("UPDATE np_comment SET body = 'HAND1 ROUND1 raise 99' WHERE id = ?", (cid,))
    con.close()
    res = runner.invoke(app, ["audit", "--db", f"sqlite:///{out}", "--state", str(tmp_path / "auditor")])
    assert res.exit_code == 1 and "body does not match its sha256" in res.output, res.output

    t.act(first, "fold")
    t.act(third, "fold")  # hand 2 ends: its secrets and the private message are public
    _, res = audit_copy(tmp_path, t, "public2.db")
    assert res.exit_code == 0 and "note:" not in res.output, res.output
    assert "audit: T: the replay is identical to the ledger" in res.output


def test_the_dealers_own_ledger_is_audited_whole_while_a_hand_runs(tmp_path):
    t = advance_table(tmp_path)
    _first, second, _third = order_from_turn(t)
    _pm(t, second, "CALL *")
    res = runner.invoke(app, ["audit", "--state", str(t.state)])
    assert res.exit_code == 0 and "note:" not in res.output, res.output
