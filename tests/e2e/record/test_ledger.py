"""The ledger store and its views: SQLite settings, GNDT formats, JSON with hand records, and
one-line errors for bad commands."""

from __future__ import annotations

import pytest

import json

from sqlalchemy import text
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import Table



def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'l.db'}")
    with engine.connect() as c:
        assert c.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert c.execute(text("PRAGMA busy_timeout")).scalar() == 30000


@pytest.mark.usefixtures("any_ledger")
def test_table_creation_writes_the_starting_money_to_the_change_log(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    res = CliRunner().invoke(app, ["ledger", "--table", "T", "--format", "csv", "--log",
                                   "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert "alice,100,o,0" in res.output
    assert "alice,Money,,100,table created" in res.output


@pytest.mark.usefixtures("any_ledger")
def test_ledger_json_has_the_gndt_the_log_and_the_public_hand_records(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 20")
    res = CliRunner().invoke(app, ["ledger", "--table", "T", "--format", "json", "--log",
                                   "--state", str(t.state)])
    doc = json.loads(res.output)
    rows = {r["player"]: r for r in doc["gndt"]["rows"]}
    assert rows["alice"] == {"player": "alice", "money": 75, "turn": "-", "pot": 25}
    assert rows["bob"]["turn"] == "x" and doc["gndt"]["totals"]["pot"] == 35
    rec = doc["hands"][0]
    assert rec["format"] == "nomicpoker-hand-record/1" and rec["secrets"] is None
    assert [d["player"] for d in rec["draws"]] == ["alice", "bob", "carol"]
    causes = [e["cause"] for e in doc["log"] if e["player"] == "alice" and e["column"] == "Money"]
    assert causes[-1].startswith("local:") and "#comment-" in causes[-1]  # the raise's permalink


@pytest.mark.usefixtures("any_ledger")
def test_html_ledger_escapes_untrusted_names(tmp_path):
    t = Table(tmp_path, players=("alice", "<b>bob</b>"))
    res = CliRunner().invoke(app, ["ledger", "--table", "T", "--format", "html", "--log",
                                   "--state", str(t.state)])
    # without the exit code, an error message would pass the "not in" half trivially
    assert res.exit_code == 0, res.output
    assert "&lt;b&gt;bob&lt;/b&gt;" in res.output and "<b>bob</b>" not in res.output


@pytest.mark.usefixtures("any_ledger")
def test_bad_commands_get_one_line_naming_the_problem(tmp_path):
    st = ["--state", str(tmp_path / "s")]
    run = CliRunner().invoke
    assert run(app, ["init"] + st).exit_code == 0  # only init, demo, table create make a state
    cases = [
        (["ledger", "--table", "nope"], "no table named 'nope'"),
        (["table", "create", "--name", "T", "--players", "alice"], "at least two players"),
        (["table", "create", "--name", "T", "--players", "a,b", "--ruleset", "no-such"], "no-such"),
        (["table", "create", "--name", "T", "--players", "a,b", "--forum", "carrier-pigeon"], "carrier-pigeon"),
        (["hand", "start", "--table", "nope"], "no table named"),
        (["table", "create", "--name", "T", "--players", "a,b", "--ruleset", "roberts-nlhe", "--issue-decks"],
         "--issue-decks does not apply"),
        (["table", "create", "--name", "T", "--players", "a,b", "--money", "0"], "--money"),
        (["table", "create", "--name", "bad name", "--players", "a,b"], "table name"),
    ]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", "utf-8")
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"colour": "blue"}', "utf-8")
    cases += [
        (["table", "create", "--name", "T", "--players", "a,b", "--forum-config", str(broken)], "broken.json"),
        (["table", "create", "--name", "T", "--players", "a,b", "--forum-config", str(unknown)], "'colour'"),
        (["table", "create", "--name", "T", "--players", "a,b", "--forum-config", str(tmp_path / "none.json")],
         "none.json"),
    ]
    for args, needle in cases:
        res = run(app, args + st)
        assert res.exit_code == 1, (args, res.output)
        assert needle in res.output and "Traceback" not in res.output, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1, res.output
    # No partial state: none of those left a table behind.
    assert "no tables" in run(app, ["table", "list"] + st).output
    # A duplicate name is refused and leaves the first table as it was.
    assert run(app, ["table", "create", "--name", "T", "--players", "a,b"] + st).exit_code == 0
    res = run(app, ["table", "create", "--name", "T", "--players", "c,d", "--money", "7"] + st)
    assert res.exit_code == 1 and res.output.strip() == "error: table 'T' already exists (nomicpoker table list)"
    assert run(app, ["table", "list"] + st).output.splitlines() == ["T\tblognomic-2008\tlocal\ta, b"]


def test_a_usage_error_is_one_line_and_exit_2_from_the_console_script(tmp_path):
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", "from nomicpoker.cli import main; main()", "table", "create",
                          "--name", "T", "--players", "a,b", "--money", "lots", "--state", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Invalid value for '--money'"), res.stderr
    assert lines[0].endswith("(see nomicpoker table create --help)")


@pytest.mark.usefixtures("any_ledger")
def test_a_second_hand_cannot_start_while_one_is_running(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    res = CliRunner().invoke(app, ["hand", "start", "--table", "T", "--ante", "5", "--state", str(t.state)])
    assert res.exit_code == 1 and "still running" in res.output


def _sqlite_tables(path) -> set[str]:
    import sqlite3

    con = sqlite3.connect(path)
    try:
        return {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()


def test_db_option_puts_the_ledger_at_the_given_url_not_under_the_state_dir(tmp_path):
    state = tmp_path / "state"
    elsewhere = tmp_path / "elsewhere.db"
    args = ["--state", str(state), "--db", f"sqlite:///{elsewhere}"]
    res = CliRunner().invoke(app, ["table", "create", "--name", "T", "--players", "a,b"] + args)
    assert res.exit_code == 0, res.output
    assert elsewhere.is_file() and not (state / "ledger.db").exists()
    # the same URL sees the table; the default database under the state dir does not
    assert CliRunner().invoke(app, ["table", "list"] + args).output.splitlines() == [
        "T\tblognomic-2008\tlocal\ta, b"]
    # ... and listing a missing ledger says where it looked instead of making an empty one
    res = CliRunner().invoke(app, ["table", "list", "--state", str(state)])
    assert res.exit_code == 1 and f"no ledger at {state / 'ledger.db'}" in res.output, res.output
    assert not (state / "ledger.db").exists()


def test_nomicpoker_db_is_the_ledger_when_no_db_option_and_the_option_wins(tmp_path, monkeypatch):
    state = tmp_path / "state"
    from_env = tmp_path / "from-env.db"
    monkeypatch.setenv("NOMICPOKER_DB", f"sqlite:///{from_env}")
    st = ["--state", str(state)]
    res = CliRunner().invoke(app, ["table", "create", "--name", "E", "--players", "a,b"] + st)
    assert res.exit_code == 0, res.output
    assert from_env.is_file() and not (state / "ledger.db").exists()
    assert "table" in " ".join(_sqlite_tables(from_env)).lower()
    # an explicit --db overrides the environment
    explicit = tmp_path / "explicit.db"
    res = CliRunner().invoke(app, ["table", "list", "--db", f"sqlite:///{explicit}"] + st)
    assert res.exit_code == 1 and f"no ledger at {explicit}" in res.output, res.output
    assert not explicit.exists()
    assert CliRunner().invoke(app, ["table", "list"] + st).output.splitlines()[0].startswith("E\t")


@pytest.mark.usefixtures("any_ledger")
def test_the_archive_keeps_every_revision_and_never_updates_a_row_in_place(tmp_path):
    """Issue 3: "never updated in place, an edit is a new revision row" (and a deletion too)."""
    import hashlib

    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    t.draw(1)
    cid = t.p["alice"].say("HAND1 ROUND1 raise 20")
    t.run()

    def rows():
        con = t.sql()
        try:
            return [tuple(r) for r in con.execute("SELECT id, revision, body, sha256, deleted FROM np_comment "
                                                  "WHERE forum_id=? ORDER BY id", (cid,)).fetchall()]
        finally:
            con.close()

    first = rows()
    body1 = "HAND1 ROUND1 raise 20"
    assert [(r[1], r[2], int(r[4])) for r in first] == [(1, body1, 0)]
    assert first[0][3] == hashlib.sha256(body1.encode("utf-8")).hexdigest()
    t.run()
    assert rows() == first  # nothing new: no new row
    t.forum.edit_comment(cid, "HAND1 ROUND1 raise 50")
    t.run()
    t.forum.delete_comment(cid)
    t.run()
    after = rows()
    assert after[0] == first[0]  # the first reading, byte for byte
    assert [(r[1], r[2]) for r in after[:2]] == [(1, body1), (2, "HAND1 ROUND1 raise 50")]
    assert after[1][3] == hashlib.sha256(b"HAND1 ROUND1 raise 50").hexdigest()
    assert len(after) == 3 and after[2][1] == 3 and int(after[2][4]) == 1  # the deletion
    assert after[0][0] < after[1][0] < after[2][0]  # archive positions only grow


def test_init_creates_the_state_the_ledger_and_the_local_forum_and_is_repeatable(tmp_path):
    state = tmp_path / "fresh" / "state"
    res = CliRunner().invoke(app, ["init", "--state", str(state)])
    assert res.exit_code == 0, res.output
    assert (state / "ledger.db").is_file() and (state / "forum.db").is_file()
    assert f"state: {state}" in res.output and "nomicpoker table create" in res.output
    again = CliRunner().invoke(app, ["init", "--state", str(state)])
    assert again.exit_code == 0 and again.output == res.output
    assert "no tables" in CliRunner().invoke(app, ["table", "list", "--state", str(state)]).output
