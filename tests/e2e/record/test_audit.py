"""``nomicpoker audit``: the replay of the archive equals the ledger, and tampering shows."""

from __future__ import annotations

import pytest


from typer.testing import CliRunner

from nomicpoker.shell.audit.audit import audit
from nomicpoker.cli import app

from kits.tables.bot import Table

#: the ledger, poll and audit suites run on SQLite and on PostgreSQL (``-m postgres``)
pytestmark = pytest.mark.usefixtures("any_ledger")


def played(tmp_path) -> Table:
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 check")  # rejected
    t.act("alice", "HAND1 ROUND1 raise 20")
    t.act("bob", "HAND1 ROUND1 call")
    t.act("carol", "HAND1 ROUND1 folds")
    return t


def test_audit_rebuilds_the_ledger_identically(tmp_path):
    t = played(tmp_path)
    names, diffs = audit(t.engine, t.state)
    assert names == ["T"] and diffs == []
    res = CliRunner().invoke(app, ["audit", "--state", str(t.state)])
    assert res.exit_code == 0 and "identical" in res.output


def test_audit_names_a_tampered_ledger_row_and_exits_1(tmp_path):
    t = played(tmp_path)
    con = t.sql()
    seq = con.execute("SELECT seq FROM np_entry WHERE player='alice' AND \"column\"='Money' "
                      "ORDER BY seq DESC LIMIT 1").fetchone()[0]
    con.execute("UPDATE np_entry SET new='1000' WHERE seq=?", (seq,))
    con.commit()
    con.close()
    _, diffs = audit(t.engine, t.state)
    assert [d.item for d in diffs] == [f"entry seq {seq}"]
    assert "new live='1000' replay='75'" in diffs[0].detail  # 100 - 5 - 20
    res = CliRunner().invoke(app, ["audit", "--state", str(t.state)])
    assert res.exit_code == 1 and f"entry seq {seq}" in res.output


def test_audit_detects_an_edited_archive_row(tmp_path):
    t = played(tmp_path)
    con = t.sql()
    con.execute("UPDATE np_comment SET body='HAND1 ROUND1 raise 30' WHERE body='HAND1 ROUND1 raise 20'")
    con.commit()
    con.close()
    _, diffs = audit(t.engine, t.state)
    items = [d.item for d in diffs]
    assert any(i.startswith("archive comment") for i in items)
    assert any(i.startswith("entry seq") for i in items)  # the replay now differs too


def test_a_tampered_ledger_makes_the_next_poll_refuse_instead_of_extending_it(tmp_path):
    t = played(tmp_path)
    con = t.sql()
    con.execute("UPDATE np_verdict SET status='accepted' WHERE status='rejected'")
    con.commit()
    con.close()
    t.p["bob"].say("HAND1 ROUND2 check")
    report = t.poll()
    assert not report.ok and "differs from the replay" in report.tables[0].error


def test_an_auditor_without_the_secrets_folder_rebuilds_ended_hands_from_published_secrets(tmp_path):
    import shutil

    t = played(tmp_path)
    t.act("alice", "HAND1 ROUND2 raise 10")
    t.act("bob", "HAND1 ROUND2 folds")  # alice wins: the hand ends, secrets published
    # pot: 3 antes of 5 + 20 + 20 + alice's 10 = 65; alice 100 - 5 - 20 - 10 + 65 = 130
    assert t.money() == {"alice": 130, "bob": 75, "carol": 95}
    shutil.rmtree(t.state / "secrets")
    assert not (t.state / "secrets").exists()
    _, diffs = audit(t.engine, t.state)
    assert diffs == []
    # and the replay really ran without the folder: a tampered row is still caught
    con = t.sql()
    seq = con.execute("SELECT seq FROM np_entry WHERE player='alice' AND \"column\"='Money' "
                      "ORDER BY seq DESC LIMIT 1").fetchone()[0]
    con.execute("UPDATE np_entry SET new='131' WHERE seq=?", (seq,))
    con.commit()
    con.close()
    _, diffs = audit(t.engine, t.state)
    assert [d.item for d in diffs] == [f"entry seq {seq}"]
    assert "new live='131' replay='130'" in diffs[0].detail


def test_secrets_that_do_not_match_the_commitments_are_refused(tmp_path):
    from nomicpoker.shell.storage import secrets_store
    from kits.tables.bot import fixed_secrets

    t = played(tmp_path)
    secrets_store.write(t.state, "T", 1, fixed_secrets("swapped"))
    res = CliRunner().invoke(app, ["audit", "--state", str(t.state)])
    assert res.exit_code == 1 and "do not match the commitments" in res.output


def test_a_dealer_comment_worded_by_an_older_version_does_not_stop_the_table(tmp_path):
    # An upgrade mid-hand changes how the dealer words things, not what was adjudicated:
    # the next poll keeps what was posted and goes on; audit names the row as wording only.
    t = played(tmp_path)
    con = t.sql()
    seq = con.execute("SELECT seq FROM np_outbox ORDER BY seq LIMIT 1").fetchone()[0]
    con.execute("UPDATE np_outbox SET body='Hand #1 has started (older wording).' WHERE seq=?", (seq,))
    con.execute("UPDATE np_verdict SET message='older wording' WHERE status='rejected'")
    con.commit()
    con.close()
    t.p["alice"].say("HAND1 ROUND2 check")  # carol has the button: alice acts first in round 2
    report = t.poll()
    assert report.ok, report.tables[0].error
    # alice checked: bob to act; 100 - 5 ante - 20 raise = 75 each, 25 each in the pot
    assert t.gndt() == {"alice": (75, "-", 25), "bob": (75, "x", 25), "carol": (95, "o", 5)}
    con = t.sql()
    assert con.execute("SELECT body FROM np_outbox WHERE seq=?", (seq,)).fetchone()[0] == \
        "Hand #1 has started (older wording)."
    con.close()
    _, diffs = audit(t.engine, t.state)
    assert diffs and all("wording only" in d.detail for d in diffs)
    assert {d.item.split()[0] for d in diffs} == {"outbox", "verdict"}


def test_a_changed_verdict_code_still_stops_the_table(tmp_path):
    t = played(tmp_path)
    con = t.sql()
    con.execute("UPDATE np_verdict SET code='not_your_turn' WHERE status='rejected'")
    con.commit()
    con.close()
    t.p["bob"].say("HAND1 ROUND2 check")
    report = t.poll()
    assert not report.ok and "differs from the replay" in report.tables[0].error
