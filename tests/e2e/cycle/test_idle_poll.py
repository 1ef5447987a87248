"""The idle check (``nomicpoker/__main__`` + :mod:`nomicpoker.shell.cycle.idle`): ``nomicpoker poll``
with nothing new is answered without the full poll, and never when the full poll has work.

Real processes (``python -m nomicpoker``, the console script's code), the real local forum and
a real SQLite ledger; nothing of ours is patched. Each reason a poll can have work is made
happen the way it happens in a game (a player posts, edits, deletes, writes privately; a
deadline passes; the Dealer runs a command; a message is left unsent), and the test checks
that the process deferred to the full poll (its ``--verbose`` line) and that the work was done.
A check that skipped the work would fail the second assertion, and a check that deferred for
nothing would fail the control (:func:`test_an_idle_poll_takes_the_fast_path`).

The entry point acts only on a command line the CLI has read before
(:mod:`nomicpoker.shell.cycle.cli_memo`): :func:`warm` runs it once through the CLI first, as the
first cron run after a change does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.cycle.idle import MARKER, check
from nomicpoker.shell.storage.paths import forum_db_path, sqlite_url
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import Table

SKIPPED = "the full poll is skipped"
DEFERRED = "running the full poll"
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")


def run(*args: str, env: dict | None = None, entry: str = "-m") -> subprocess.CompletedProcess:
    """``nomicpoker ARGS`` as a process: the console script's entry (``python -m nomicpoker``),
    or with ``entry="cli"`` the CLI alone (the full command, no idle check)."""
    base = os.environ | {"NOMICPOKER_STATE": "", "NOMICPOKER_DB": "", "NOMICPOKER_SITE": ""}
    for k in ("NOMICPOKER_STATE", "NOMICPOKER_DB", "NOMICPOKER_SITE", "NOMICPOKER_LOG_FILE",
              "NOMICPOKER_LOG_LEVEL", "NOMICPOKER_LOG_FORMAT", "NOMICPOKER_CRASH_AT", "NOMICPOKER_CRASH_TRACE"):
        base.pop(k, None)
    cmd = ([sys.executable, "-m", "nomicpoker"] if entry == "-m" else
           [sys.executable, "-c", "import sys; sys.argv[0] = 'nomicpoker'; from nomicpoker.cli import main; main()"])
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=180, env=base | (env or {}))


def poll(state: Path, *extra: str, env: dict | None = None, entry: str = "-m") -> subprocess.CompletedProcess:
    return run("poll", "--state", str(state), "--site", "off", *extra, env=env, entry=entry)


def warm(state: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The same poll command line twice: the first run reads it (the CLI, a full poll, which
    records it idle again if nothing changed), the second is the one the test looks at."""
    poll(state, *extra, env=env)
    return poll(state, *extra, env=env)


def lines(text: str) -> list[str]:
    return [STAMP.sub("", x) for x in text.splitlines()]


def settle(state: Path) -> None:
    """One full poll in process (the library's poll, the default forum): the copy's own idle record."""
    engine = open_engine(sqlite_url(state / "ledger.db"))
    try:
        report = poll_mod.poll(engine, state)
        assert report.ok and report.idle == "", (report.idle, [t.line() for t in report.tables])
    finally:
        engine.dispose()
    assert (state / MARKER).exists()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A table on the local forum with a hand running (blognomic-2008, decks issued), polled
    until idle; the state directory is copied for each test."""
    tmp = tmp_path_factory.mktemp("idle")
    t = Table(tmp, players=("alice", "bob", "carol"))
    t.start()
    t.p["alice"].say("good luck all")
    t.p["bob"].say("nice table")
    t.run()
    t.run()
    t.engine.dispose()
    return t.state


@pytest.fixture
def state(base, tmp_path) -> Path:
    st = tmp_path / "state"
    shutil.copytree(base, st)
    settle(st)
    return st


def thread_of(state: Path) -> str:
    with sqlite3.connect(state / "ledger.db") as con:
        return con.execute("SELECT thread FROM np_hand ORDER BY number DESC LIMIT 1").fetchone()[0]


def forum(state: Path) -> LocalForum:
    return LocalForum(forum_db_path(state))


def player_comment(state: Path, who: str = "alice") -> str:
    return next(c.id for c in forum(state).list_comments(thread_of(state)) if c.author == who)


def decide(state: Path) -> tuple[list[str] | None, str]:
    """The check's answer now (the function the console entry point calls, unpatched)."""
    return check(state, Path(os.path.abspath(state / "ledger.db")))


def full_poll(state: Path, **kw) -> list[str]:
    """The full poll in process (the library's poll, the default forum): its report lines."""
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    try:
        report = poll_mod.poll(engine, state, **kw)
    finally:
        engine.dispose()
    return [t.line() for t in report.tables]


def defers(state: Path, why: str, *work: str) -> None:
    """The check defers (saying ``why``), and the full poll then has ``work`` to do; after it,
    a further idle full poll records the state again and the check answers."""
    names, reason = decide(state)
    assert names is None and why in reason, reason
    done = " | ".join(full_poll(state))
    for w in work:
        assert w in done, done
    full_poll(state)
    assert decide(state)[0] is not None, decide(state)[1]


def deferred_with(out: subprocess.CompletedProcess, *expected: str) -> None:
    text = out.stdout + out.stderr
    assert DEFERRED in text and SKIPPED not in text, text
    for e in expected:
        assert e in text, text


# ---------------------------------------------------------------------------- the control


def test_an_idle_poll_takes_the_fast_path(state):
    """Nothing new: the check answers, without importing the database layer, typer or the
    fold, exactly the lines the full poll prints; ``--quiet`` prints nothing; exit 0 both."""
    first = poll(state, "-v")
    assert "has not read this command line before" in first.stdout and DEFERRED in first.stdout, first.stdout
    verbose = poll(state, "-v")
    assert verbose.returncode == 0 and SKIPPED in verbose.stdout, verbose.stdout + verbose.stderr
    fast = warm(state)
    full = poll(state, entry="cli")  # the CLI alone: the full poll
    assert fast.returncode == full.returncode == 0
    assert lines(fast.stdout) == lines(full.stdout) == ["T: nothing new"], (fast.stdout, full.stdout)
    assert fast.stderr == full.stderr == ""
    quiet = warm(state, "--quiet")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    warm(state, "-q")
    probe = ("import runpy, sys; sys.argv = ['nomicpoker', 'poll', '--state', sys.argv[1], '--site', 'off', '-q']\n"
             "try:\n    runpy.run_module('nomicpoker', run_name='__main__')\nexcept SystemExit as e:\n"
             "    code = e.code\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'sqlmodel', 'typer', 'markdown_it'))\n"
             "print('HEAVY', code, heavy[:3])")
    out = subprocess.run([sys.executable, "-c", probe, str(state)], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("HEAVY 0 []"), out.stdout + out.stderr


def test_the_answer_is_the_full_polls_for_each_option(state, tmp_path):
    """``--table``, ``--log-file`` (and its format), the global log options: same lines."""
    assert lines(poll(state, "--table", "T").stdout) == ["T: nothing new"]
    for entry in ("-m", "cli"):
        log = tmp_path / f"{entry}.log"
        out = run("--log-format", "json", "poll", "--state", str(state), "--site", "off", "-q",
                  "--log-file", str(log), entry=entry)
        assert out.returncode == 0 and out.stdout == ""
        (record,) = [json.loads(x) for x in log.read_text().splitlines()]
        assert (record["level"], record["logger"], record["message"]) == ("INFO", "nomicpoker.cli", "T: nothing new")
    text = warm(state, "--log-file", str(tmp_path / "t.log"), "-v").stdout
    assert SKIPPED in text
    assert [x.split(" ", 1)[1] for x in (tmp_path / "t.log").read_text().splitlines()][-1] == \
        "INFO nomicpoker.cli: T: nothing new"


# ---------------------------------------------------------------------------- the forum


def test_a_new_comment_is_polled(state):
    forum(state).post_as("carol", thread_of(state), "hello there")
    defers(state, "a forum changed", "T: 1 new comment revision")


def test_an_edited_comment_is_polled(state):
    forum(state).edit_comment(player_comment(state), "good luck all, really")
    defers(state, "a forum changed", "T: 1 new comment revision")


def test_an_edit_keeping_length_and_timestamp_is_polled(state):
    """Not a heuristic on lengths or times: the same-length body written behind the forum's back."""
    cid = player_comment(state)
    with sqlite3.connect(forum_db_path(state)) as con:
        con.execute("UPDATE comments SET body = 'GOOD LUCK ALL' WHERE id = ?", (int(cid),))
    defers(state, "a forum changed", "T: 1 new comment revision")


def test_a_deleted_comment_is_polled(state):
    forum(state).delete_comment(player_comment(state, "bob"))
    defers(state, "a forum changed", "T: 1 new comment revision")


def test_a_private_message_to_the_dealer_is_polled(state):
    forum(state).send_private_as("alice", "Dealer", "advance action (T)", "CALL/S *")
    defers(state, "a forum changed", "T: 1 new comment revision")


def test_a_poll_that_had_work_is_not_recorded_the_next_idle_one_is(state):
    """The record is written only by a run that changed nothing: after a comment is archived,
    the check defers once more, and the idle full poll after it records the new state."""
    forum(state).post_as("carol", thread_of(state), "first")
    out = poll(state, "-v")
    deferred_with(out, "T: 1 new comment revision", "idle record: none")
    assert not (state / MARKER).exists()
    deferred_with(poll(state, "-v"), "idle record: written")
    assert SKIPPED in poll(state, "-v").stdout


# ---------------------------------------------------------------------------- the ledger and commands


def test_an_unsent_outbox_row_is_sent(state):
    """A dealer message left pending (a Dealer's repair, a crashed run) is delivered, or
    found already posted, by the full poll."""
    with sqlite3.connect(state / "ledger.db") as con:
        con.execute("UPDATE np_outbox SET status = 'pending' WHERE id = (SELECT MAX(id) FROM np_outbox "
                    "WHERE kind = 'comment')")
    defers(state, "the ledger changed", "T: 0 new comment revisions, 0 verdicts, 0 dealer messages sent, "
           "1 found already posted")


def test_a_held_outbox_row_is_looked_for(state):
    with sqlite3.connect(state / "ledger.db") as con:
        con.execute("UPDATE np_outbox SET status = 'held' WHERE id = (SELECT MAX(id) FROM np_outbox "
                    "WHERE kind = 'comment')")
    defers(state, "the ledger changed", "1 found already posted")


@pytest.mark.parametrize("command", [
    ["table", "pause", "--table", "T", "--note", "away"],
    ["table", "set", "--table", "T", "--note", "slower", "deadline_hours=6"],
    ["hand", "void", "--table", "T", "--note", "misdeal"],
    ["hand", "fold", "--table", "T", "--player", "carol", "--note", "asked to"],
], ids=["pause", "set", "void", "fold"])
def test_a_dealer_command_since_the_last_poll_is_polled(state, command):
    """Each is a dealer event the fold must take in (the command may post its own notice;
    the check must defer either way, and the full poll then records the state again)."""
    out = run(*command, "--state", str(state))
    assert out.returncode == 0, out.stdout + out.stderr
    defers(state, "the ledger changed")


def test_a_new_table_or_hand_is_polled(state):
    """A table created and its first hand started by other commands: the check defers, the
    full poll reports the new table, and from then on both are answered."""
    assert run("table", "create", "--name", "U", "--players", "dave,erin", "--money", "50", "--ante", "5",
               "--state", str(state)).returncode == 0
    defers(state, "the ledger changed", "U: ")
    assert run("hand", "start", "--table", "U", "--state", str(state)).returncode == 0
    names, why = decide(state)
    assert names is None and "the ledger changed" in why
    full_poll(state)
    full_poll(state)
    assert lines(poll(state).stdout) == ["T: nothing new", "U: nothing new"]


def test_an_amendment_and_a_resume_are_polled(state, tmp_path):
    """``table amend`` (a pinned ruleset and a dealer event) on a table between hands, then a
    pause and a resume: each time the check defers and the full poll takes it in."""
    from kits.tables.rulesets import proposal_42

    assert run("table", "create", "--name", "U", "--players", "dave,erin,fred", "--money", "50",
               "--state", str(state)).returncode == 0
    full_poll(state)
    full_poll(state)
    assert decide(state)[0] == ["T", "U"]
    out = run("table", "amend", "--table", "U", "--ruleset", str(proposal_42(tmp_path / "p42")),
              "--note", "Proposal 42", "--state", str(state))
    assert out.returncode == 0, out.stdout + out.stderr
    defers(state, "the ledger changed")
    for command in ("pause", "resume"):
        assert run("table", command, "--table", "U", "--note", "n", "--state", str(state)).returncode == 0
        defers(state, "the ledger changed")


def test_a_dropped_snapshot_or_a_new_key_is_polled(state):
    with sqlite3.connect(state / "ledger.db") as con:
        con.execute("DELETE FROM np_snapshot")
    defers(state, "the ledger changed")
    (state / "snapshot.key").write_bytes(os.urandom(32))
    defers(state, "the snapshot key changed")


def test_a_full_poll_that_moved_nothing_but_replayed_records_nothing(state):
    """A poll that could not resume from a snapshot (here: the table's was dropped) is not
    idle even if it stored nothing: only a resumed, idle run is recorded."""
    with sqlite3.connect(state / "ledger.db") as con:
        con.execute("DELETE FROM np_snapshot")
    engine = open_engine(sqlite_url(state / "ledger.db"))
    try:
        report = poll_mod.poll(engine, state)
    finally:
        engine.dispose()
    assert report.idle and not (state / MARKER).exists(), report.idle


# ---------------------------------------------------------------------------- the clock


def test_a_deadline_that_has_passed_is_applied(tmp_path):
    """A hand started five hours ago on a four-hour deadline, last polled (idle) before the
    deadline: the check must not answer, the full poll records the timeout."""
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", deadline_hours=4,
              issue_decks=False)
    started = datetime.now(timezone.utc) - timedelta(hours=5)
    t.start(ante=0, blinds=(1, 2), now=lambda: started)
    before = lambda: started + timedelta(minutes=1)  # noqa: E731
    for _ in range(2):
        report = poll_mod.poll(t.engine, t.state, now=before)
        assert report.ok
    assert report.idle == ""
    marker = json.loads((t.state / MARKER).read_text())
    assert marker["next_due"] and datetime.fromisoformat(marker["next_due"]) < datetime.now(timezone.utc)
    t.engine.dispose()
    names, why = decide(t.state)
    assert names is None and "a clock event is due" in why, why
    full_poll(t.state)  # at the real time: the deadline has passed
    with sqlite3.connect(t.state / "ledger.db") as con:
        kinds = [r[0] for r in con.execute("SELECT kind FROM np_dealer_event")]
    assert "timeout" in kinds, kinds


def test_a_deadline_still_ahead_does_not_stop_the_fast_path(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", deadline_hours=4,
              issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    t.run()
    t.run()
    t.engine.dispose()
    out = warm(t.state, "-v")
    assert SKIPPED in out.stdout and "next clock event at" in out.stdout, out.stdout + out.stderr


# ---------------------------------------------------------------------------- the site, options, states


def test_a_missing_site_is_rebuilt(state):
    """The full poll rebuilds the auditors' site when it is missing: so must a poll the check
    would otherwise answer."""
    site = state / "site"
    out = run("poll", "--state", str(state), "-v")
    deferred_with(out, "site: rebuilt")
    full_poll(state)  # idle again: recorded
    assert SKIPPED in run("poll", "--state", str(state), "-v").stdout
    (site / "index.html").unlink()
    out = run("poll", "--state", str(state), "-v")
    assert SKIPPED not in out.stdout and (site / "index.html").exists(), out.stdout


def test_another_state_or_ledger_is_not_answered_from_this_record(state, tmp_path):
    """A copy of the state (its idle record names the original's ledger) and the same state
    polled with another ledger: neither is answered from the record, by the check itself and
    through the console script (where the command line is new, too)."""
    other = tmp_path / "copy"
    shutil.copytree(state, other)
    names, why = decide(other)
    assert names is None and "another ledger" in why, why
    warm(state, "-v")
    deferred_with(poll(other, "-v"))
    deferred_with(poll(state, "-v", "--db", f"sqlite:///{other / 'ledger.db'}"))
    deferred_with(poll(state, "-v"), "another ledger")  # the record that run left is the copy's


def test_an_unknown_table_gives_the_full_polls_error(state):
    fast, full = poll(state, "--table", "NOPE"), poll(state, "--table", "NOPE", entry="cli")
    assert fast.returncode == full.returncode != 0
    assert fast.stderr == full.stderr and "NOPE" in fast.stderr


@pytest.mark.parametrize("damage", ["garbage", "empty", "newer", "missing"])
def test_a_damaged_or_newer_ledger_gives_the_full_polls_error(state, damage):
    db = state / "ledger.db"
    if damage == "garbage":
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        db.write_bytes(b"this is not a database" * 200)
    elif damage == "empty":
        db.write_bytes(b"")
    elif damage == "newer":
        with sqlite3.connect(db) as con:
            con.execute("UPDATE alembic_version SET version_num = '9999'")
    else:
        db.unlink()
    fast, full = poll(state), poll(state, entry="cli")
    assert fast.returncode == full.returncode == 1, (fast.stderr, full.stderr)
    assert lines(fast.stderr) == lines(full.stderr) and fast.stderr.startswith("error: "), fast.stderr


def test_a_missing_state_gives_the_full_polls_error(tmp_path):
    fast, full = poll(tmp_path / "nowhere"), poll(tmp_path / "nowhere", entry="cli")
    assert fast.returncode == full.returncode == 1
    assert fast.stderr == full.stderr and "no nomicpoker state directory" in fast.stderr


def test_another_run_holding_the_lock_is_reported_as_the_full_poll_does(state):
    from filelock import FileLock

    with FileLock(str(state / "poll.lock")):
        out = poll(state, "-v")
    assert SKIPPED not in out.stdout and "another nomicpoker poll is running" in out.stdout, out.stdout


def test_crash_points_switched_on_take_the_full_poll(state, tmp_path):
    out = warm(state, "-v", env={"NOMICPOKER_CRASH_TRACE": str(tmp_path / "trace")})
    deferred_with(out, "crash points")
    assert (tmp_path / "trace").read_text().strip()


@pytest.mark.parametrize("extra, env", [
    ((), {"NOMICPOKER_BUSY_TIMEOUT": "abc"}),   # the full poll refuses it; the check must not answer
    (("--log-file=",), {}),                      # an empty log file name: the full poll's error
])
def test_settings_only_the_full_poll_checks_get_the_full_polls_answer(state, extra, env):
    fast, full = poll(state, *extra, env=env), poll(state, *extra, env=env, entry="cli")
    assert fast.returncode == full.returncode == 1, (fast.stdout, fast.stderr, full.stderr)
    assert lines(fast.stderr) == lines(full.stderr) and SKIPPED not in fast.stdout


@pytest.mark.parametrize("name", ["a#b", "we?ird%20#x", "a%41b"])
def test_a_state_path_with_uri_characters_is_read_as_itself(base, tmp_path, name):
    """The check opens the ledger by URI: a '#' in the state's path is part of the path, not a
    fragment (which opened, or created, another file); the ledger URL it reads the path from
    (paths.db_url) percent-encodes '?' and '%', and the check decodes it as SQLAlchemy does
    (a '?' was refused, and '%41' read as 'A')."""
    st = tmp_path / name
    shutil.copytree(base, st)
    settle(st)
    out = warm(st, "-v")
    assert out.returncode == 0 and SKIPPED in out.stdout, out.stdout + out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# ---------------------------------------------------------------------------- a tournament's broken table


def test_a_broken_tables_thread_and_the_live_tables_are_still_checked(tmp_path):
    """Issue 24: at the end of a tournament most tables are broken (no player left, every one
    moved by the director) but still active: the idle check reads them cheaply (their forum's
    change marks) and still sees what the full poll would read there. Four entrants at two
    tables of two; an all-in at table 2 leaves one player there, so the final table merge
    breaks table 2 (its hand 1 thread stays). Idle: the check answers for both tables. A
    comment in the broken table's thread: the check defers and the full poll reads it (today's
    behaviour, docs/tournaments.md). A comment at the live table's hand: the check defers and
    the full poll reads it."""
    from kits.tables.bot import fixed_secrets
    from kits.tables.tournament import play_all_in, rows, started
    from kits.tables.tournament import run as cli
    from nomicpoker.shell.storage import secrets_store

    st = started(tmp_path, "ann,bob,cy,dee")
    play_all_in(st, "spring-t2")
    assert "table 2 is broken" in cli("tournament", "advance", "--name", "spring", "--state", str(st)).output
    secrets_store.write(st, "spring-t1", 1, fixed_secrets("spring-t1:1"))
    cli("hand", "start", "--table", "spring-t1", "--state", str(st))
    assert rows(st, "SELECT name FROM np_table WHERE active = 1 ORDER BY id") == [("spring-t1",), ("spring-t2",)]
    for _ in range(4):  # the Dealer's own comments archived; then an idle full poll records it
        full_poll(st)
    assert decide(st)[0] == ["spring-t1", "spring-t2"], decide(st)[1]
    broken = rows(st, "SELECT thread FROM np_hand WHERE table_name = 'spring-t2' ORDER BY number DESC")[0][0]
    live = rows(st, "SELECT thread FROM np_hand WHERE table_name = 'spring-t1' ORDER BY number DESC")[0][0]
    forum(st).post_as("ann", broken, "gg all, see you at the final table")
    defers(st, "a forum changed", "spring-t2: 1 new comment revision")
    forum(st).post_as("cy", live, "good luck")
    defers(st, "a forum changed", "spring-t1: 1 new comment revision")
