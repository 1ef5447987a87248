"""Logs a Dealer can read (issue 13): the poll's and hand start's lines go through the standard
logging module with UTC timestamps; --verbose adds each dealer message sent, --quiet prints
nothing when all went well (cron mails nothing), --log-file keeps every line whatever the
console shows."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.tables.bot import Table

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def _table(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    return t, ["--state", str(t.state)]


def test_hand_start_and_poll_log_timestamped_lines_to_the_console_and_the_log_file(tmp_path):
    t, st = _table(tmp_path)
    log = t.state / "nomicpoker.log"
    res = CliRunner().invoke(app, ["hand", "start", "--table", "T", "--ante", "5", "--log-file", str(log)] + st)
    assert res.exit_code == 0, res.output
    assert re.match(rf"{STAMP} hand 1 of T started in thread ", res.output), res.output
    res = CliRunner().invoke(app, ["poll", "--log-file", str(log)] + st)
    assert res.exit_code == 0
    lines = log.read_text("utf-8").splitlines()
    assert re.fullmatch(rf"{STAMP} INFO nomicpoker\.cli: hand 1 of T started in thread \S+; button bob; "
                        r"seated alice, bob; \d+ dealer messages sent", lines[0]), lines[0]
    assert re.fullmatch(rf"{STAMP} INFO nomicpoker\.cli: T: nothing new", lines[-1]), lines
    assert not any(" DEBUG " in ln for ln in lines)  # neither ran with --verbose yet
    t.forum.post_as("alice", t.forum.threads()[-1].ref, "HAND#1 DICE52 DICE52")
    res = CliRunner().invoke(app, ["poll", "-v", "--log-file", str(log)] + st)
    assert re.search(rf"^{STAMP} T: comment \S+ sent \(forum id \S+\)$", res.output, re.M), res.output
    assert re.search(rf"^{STAMP} DEBUG nomicpoker\.outbox: T: comment \S+ sent ", log.read_text("utf-8"), re.M)


def test_poll_quiet_prints_nothing_when_all_went_well_but_the_log_file_keeps_the_line(tmp_path):
    t, st = _table(tmp_path)
    t.start(ante=5)
    log = tmp_path / "poll.log"
    t.p["alice"].say("HAND#1 DICE52 DICE52")
    res = CliRunner().invoke(app, ["poll", "--quiet", "--log-file", str(log)] + st)
    assert (res.exit_code, res.output) == (0, "")
    assert re.fullmatch(rf"{STAMP} INFO nomicpoker\.cli: T: 1 new comment revision, 1 verdict, \d+ "
                        r"dealer messages? sent\n", log.read_text("utf-8")), log.read_text("utf-8")


def test_a_failing_table_is_an_error_line_on_stderr_even_when_quiet(tmp_path, monkeypatch):
    t, st = _table(tmp_path)
    t.start(ante=5)
    t.forum.path.unlink()
    t.forum.path.mkdir()  # the local forum cannot be opened
    log = tmp_path / "poll.log"
    res = CliRunner().invoke(app, ["poll", "--quiet", "--log-file", str(log)] + st)
    assert res.exit_code == 1
    assert re.fullmatch(rf"{STAMP} T: FAILED: forum config: .*\n", res.output), res.output
    assert re.fullmatch(rf"{STAMP} ERROR nomicpoker\.cli: T: FAILED: .*\n", log.read_text("utf-8"))


def test_a_log_file_that_cannot_be_written_is_one_line(tmp_path):
    t, st = _table(tmp_path)
    (tmp_path / "a-dir").mkdir()
    res = CliRunner().invoke(app, ["poll", "--log-file", str(tmp_path / "a-dir")] + st)
    assert res.exit_code == 1 and res.output.startswith("error: --log-file ") and len(res.output.splitlines()) == 1


def test_log_options_are_global_and_work_for_every_command(tmp_path):
    """--log-level, --log-format and --log-file come before any command: a command that is not
    poll or hand start keeps its error line in the file too, as one JSON object in json."""
    import json

    t, st = _table(tmp_path)
    log = tmp_path / "all.log"
    res = CliRunner().invoke(app, ["--log-format", "json", "--log-file", str(log), "table", "show",
                                   "--table", "NOPE"] + st)
    assert res.exit_code == 1 and res.output.startswith("error: ") and len(res.output.splitlines()) == 1
    (line,) = log.read_text("utf-8").splitlines()
    record = json.loads(line)
    assert set(record) == {"time", "level", "logger", "message"}
    assert re.fullmatch(STAMP, record["time"]) and record["level"] == "ERROR"
    assert record["message"] == res.output.strip()  # the same words the console showed
    # the same options drive poll: json on the console and in the file, level debug = verbose
    t.start(ante=5)
    t.p["alice"].say("HAND#1 DICE52 DICE52")
    res = CliRunner().invoke(app, ["--log-level", "debug", "--log-format", "json", "--log-file", str(log),
                                   "poll"] + st)
    assert res.exit_code == 0, res.output
    console = [json.loads(x) for x in res.output.splitlines()]
    assert {r["level"] for r in console} == {"DEBUG", "INFO"}
    assert any(r["logger"] == "nomicpoker.outbox" and " sent " in r["message"] for r in console)
    kept = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    assert [r["message"] for r in kept[1:]] == [r["message"] for r in console]


def test_log_level_warning_quiets_every_command_and_the_environment_sets_the_options(tmp_path, monkeypatch):
    t, st = _table(tmp_path)
    t.start(ante=5)
    log = tmp_path / "env.log"
    monkeypatch.setenv("NOMICPOKER_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("NOMICPOKER_LOG_FILE", str(log))
    t.p["alice"].say("HAND#1 DICE52 DICE52")
    res = CliRunner().invoke(app, ["poll"] + st)
    assert (res.exit_code, res.output) == (0, "")  # the INFO line is below the level
    assert not log.exists() or log.read_text("utf-8") == ""
    res = CliRunner().invoke(app, ["ledger", "--table", "NOPE"] + st)
    assert res.exit_code == 1
    assert re.fullmatch(rf"{STAMP} ERROR nomicpoker\.cli: error: .*NOPE.*\n", log.read_text("utf-8"))


def test_bad_log_options_are_one_usage_line(tmp_path):
    t, st = _table(tmp_path)
    for args, word in ((["--log-level", "loud"], "--log-level"), (["--log-format", "xml"], "--log-format")):
        res = CliRunner().invoke(app, args + ["table", "list"] + st)
        assert res.exit_code == 2 and res.output.startswith(f"error: {word} ") and len(res.output.splitlines()) == 1
    (tmp_path / "a-dir").mkdir()
    res = CliRunner().invoke(app, ["--log-file", str(tmp_path / "a-dir"), "table", "list"] + st)
    assert res.exit_code == 1 and res.output.startswith("error: --log-file ") and len(res.output.splitlines()) == 1


def test_a_global_log_file_in_a_missing_state_never_creates_it(tmp_path):
    missing = tmp_path / "nowhere"
    res = CliRunner().invoke(app, ["--log-file", str(missing / "poll.log"), "poll", "--state", str(missing)])
    assert res.exit_code == 1 and res.output.startswith("error: no nomicpoker state directory")
    assert len(res.output.splitlines()) == 1 and not missing.exists()
