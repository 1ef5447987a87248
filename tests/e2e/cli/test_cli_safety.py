"""Commands that cannot hurt what they were not meant to touch (issue 27): a state folder is a
folder of its own, an empty ``--db`` is refused, the ledger's lock lives with the ledger, a
lock held for hours is reported, ``poll --dry-run`` lists what it would post, ``table set``
with nothing changed posts nothing. Real processes, the real file system, the local forum."""

from __future__ import annotations

import json
import os
import socket
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from filelock import FileLock

from kits.tables.bot import Table
from kits.tables.cli import cli, one_line, raise_to_poll


def a_home(tmp: Path) -> Path:
    """A folder a Dealer might point --state at by mistake: a note and a web folder."""
    home = tmp / "home"
    (home / "web").mkdir(parents=True)
    (home / "notes.txt").write_text("my notes")
    (home / "web" / "index.html").write_text("<p>hi</p>")
    os.chmod(home / "notes.txt", 0o644)
    os.chmod(home / "web", 0o755)
    os.chmod(home / "web" / "index.html", 0o644)
    return home


def modes(home: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in (home, home / "notes.txt", home / "web",
                                                            home / "web" / "index.html")}


@pytest.mark.parametrize("command", [
    ["init"], ["demo"], ["table", "create", "--name", "T", "--players", "a,b"],
], ids=["init", "demo", "table-create"])
def test_a_folder_holding_other_files_is_refused_and_left_as_it_was(tmp_path, command):
    home = a_home(tmp_path)
    before = modes(home)
    res = cli(*command, "--state", ".", cwd=home)
    one_line(res, "holds other files", "notes.txt", "web/")
    assert modes(home) == before
    assert sorted(p.name for p in home.iterdir()) == ["notes.txt", "web"]


@pytest.mark.parametrize("command", [["poll"], ["ledger", "--table", "T"], ["table", "list"]])
def test_other_commands_never_tighten_a_folder_that_is_not_a_state(tmp_path, command):
    home = a_home(tmp_path)
    before = modes(home)
    res = cli(*command, "--state", str(home))
    assert res.returncode == 1, res.stdout + res.stderr
    assert modes(home) == before


def test_a_new_an_empty_and_an_older_state_are_accepted(tmp_path):
    assert cli("init", "--state", str(tmp_path / "new")).returncode == 0
    (tmp_path / "empty").mkdir()
    assert cli("init", "--state", str(tmp_path / "empty")).returncode == 0
    assert (tmp_path / "empty" / ".nomicpoker-state").exists()
    t = Table(tmp_path / "old")  # a state made by the library, without the mark
    assert not (t.state / ".nomicpoker-state").exists()
    res = cli("table", "create", "--name", "U", "--players", "a,b", "--state", str(t.state))
    assert res.returncode == 0, res.stdout + res.stderr
    assert (t.state / ".nomicpoker-state").exists()


@pytest.mark.parametrize("args, env, needle", [
    (["--db", ""], {}, "--db is empty"),
    (["--state", ""], {}, "--state is empty"),
    ([], {"NOMICPOKER_DB": ""}, "NOMICPOKER_DB is set but empty"),
    ([], {"NOMICPOKER_STATE": " "}, "NOMICPOKER_STATE is set but empty"),
])
def test_an_empty_db_or_state_is_refused_not_replaced_by_the_default(tmp_path, args, env, needle):
    t = raise_to_poll(tmp_path)
    verdicts = len(t.verdicts())
    state = [] if "--state" in args or "NOMICPOKER_STATE" in env else ["--state", str(t.state)]
    one_line(cli("poll", *state, *args, env=env, cwd=tmp_path), needle, code=2)
    assert len(t.verdicts()) == verdicts
    assert not (tmp_path / "state" / "ledger.db").exists() or (tmp_path / "state") == t.state


def test_two_state_folders_sharing_one_sqlite_ledger_share_its_lock(tmp_path):
    """Another state folder pointed at this ledger with --db: while a run holds the ledger's
    lock (the file beside the ledger), its poll does nothing and says so."""
    t = raise_to_poll(tmp_path)
    dealer = len(t.dealer_bodies_all())
    db = f"sqlite:///{t.state / 'ledger.db'}"
    other = tmp_path / "other"
    assert cli("init", "--state", str(other), "--db", db).returncode == 0
    with FileLock(str(t.state / "ledger.db.lock")):
        res = cli("poll", "--state", str(other), "--db", db, "--site", "off")
        assert res.returncode == 0 and "another nomicpoker poll is running" in res.stdout, res.stdout + res.stderr
        assert "ledger.db" in res.stdout
        res = cli("poll", "--state", str(t.state), "--site", "off")
        assert "another nomicpoker poll is running" in res.stdout, res.stdout + res.stderr
    assert len(t.dealer_bodies_all()) == dealer
    assert cli("poll", "--state", str(t.state), "--site", "off").returncode == 0
    assert len(t.dealer_bodies_all()) > dealer


def test_a_lock_held_for_hours_is_an_error_cron_mails(tmp_path):
    """A run stuck for two hours: the next ``poll --quiet`` says who holds the lock and since
    when, on stderr and in the log file, and exits 1 (a lock held a minute is still quiet)."""
    t = raise_to_poll(tmp_path)
    log = tmp_path / "poll.log"
    lock = t.state / "poll.lock"
    holder = lock.with_name("poll.lock.holder")
    for age, code in ((timedelta(minutes=1), 0), (timedelta(hours=2), 1)):
        since = (datetime.now(timezone.utc) - age).isoformat(timespec="seconds")
        with FileLock(str(lock)):
            holder.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "since": since,
                                          "command": "nomicpoker poll --quiet"}))
            res = cli("poll", "--quiet", "--state", str(t.state), "--site", "off", "--log-file", str(log))
        assert res.returncode == code, res.stdout + res.stderr
        if code:
            out = one_line(res, "has held the lock of this state directory for 120 minutes", f"pid {os.getpid()}",
                           since)
            assert out in log.read_text()
        else:
            assert res.stdout + res.stderr == ""


def test_poll_dry_run_lists_what_it_would_post_and_stores_nothing(tmp_path):
    t = raise_to_poll(tmp_path)
    dealer, verdicts = len(t.dealer_bodies_all()), len(t.verdicts())
    res = cli("poll", "--dry-run", "--state", str(t.state), "--site", "off")
    assert res.returncode == 0, res.stderr
    assert "would post (thread" in res.stdout and "[np:T-h1-" in res.stdout, res.stdout
    (line,) = [x for x in res.stdout.splitlines() if "T: " in x and "(dry run" in x]
    assert "dealer message would be posted" in line or "dealer messages would be posted" in line, line
    assert "message sent" not in line and "messages sent" not in line, line
    assert (len(t.dealer_bodies_all()), len(t.verdicts())) == (dealer, verdicts)


def test_table_set_with_nothing_changed_posts_nothing(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start()
    st = ["--state", str(t.state)]
    res = cli("table", "set", "--table", "T", "deadline_hours=6", *st)
    assert res.returncode == 0 and "settings changed; 1 dealer message" in res.stdout, res.stdout + res.stderr
    posted = len(t.dealer_bodies_all())
    res = cli("table", "set", "--table", "T", "deadline_hours=6", *st)
    assert res.returncode == 0 and "settings unchanged" in res.stdout, res.stdout + res.stderr
    assert len(t.dealer_bodies_all()) == posted
