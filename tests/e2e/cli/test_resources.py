"""Damaged or missing state (issue 13): a full disk, a read-only state, a locked or damaged
database, a missing or empty ledger, a forum config row that is not JSON. Each is one clear
line and a non-zero exit, never a traceback; nothing is half-written (after the cause is
removed, the next run does exactly what a run without the fault would have done); and the
read-only commands work on a read-only copy of a state. The faults are real: a tmpfs that is
really full, a file size limit (RLIMIT_FSIZE), another user who cannot write, a lock held by
another connection, zeroed pages."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.tables.bot import Table
from kits.tables.cli import cli, one_line, raise_to_poll


def outcome(t: Table) -> tuple:
    """What the players see and the ledger says, for comparing with a run without the fault."""
    dealer = [c.body for c in t.comments() if c.author == "Dealer"]
    return dealer, t.gndt(), [(v.author, v.status, v.code) for v in t.verdicts()]


def reference(tmp_path: Path) -> tuple:
    t = raise_to_poll(tmp_path / "reference")
    t.run()
    return outcome(t)


# --------------------------------------------------------------------------- disk full


def _no_bigger_files(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_write_refused_by_the_file_size_limit_is_one_line_and_nothing_is_half_written(tmp_path):
    want = reference(tmp_path)
    t = raise_to_poll(tmp_path / "run")
    # PYTHONDONTWRITEBYTECODE: CPython writes a module's cached bytecode with a write whose
    # short count it does not check, so under this limit a child that is the first to import a
    # module leaves a truncated .pyc in the run's shared cache (PYTHONPYCACHEPREFIX, set by
    # tests/conftest.py) and every later process importing it fails ("marshal data too short")
    res = cli("poll", "--state", str(t.state), preexec_fn=_no_bigger_files(4096),
              env={"PYTHONDONTWRITEBYTECODE": "1"})
    out = one_line(res, "disk")
    assert "nothing was stored" in out or "nothing lost" in out
    res = cli("poll", "--state", str(t.state))
    assert res.returncode == 0, res.stderr
    assert outcome(t) == want
    assert cli("audit", "--state", str(t.state)).returncode == 0


@pytest.fixture
def small_disk():
    """A 3 MiB tmpfs (a disk that really fills up); skipped where mounting is not allowed."""
    where = Path(tempfile.mkdtemp(prefix="nomicpoker-disk-"))
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here ({res.stderr.strip() or 'not root'}); the "
                    "RLIMIT_FSIZE test covers a refused write")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        shutil.rmtree(where, ignore_errors=True)


def test_a_full_disk_is_one_line_and_the_next_run_after_freeing_space_loses_nothing(tmp_path, small_disk):
    want = reference(tmp_path)
    t = raise_to_poll(tmp_path / "run")
    state = small_disk / "state"
    shutil.copytree(t.state, state)
    filler = small_disk / "filler"
    with open(filler, "wb", buffering=0) as f:  # fill the disk to the last byte
        for size in (65536, 512, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass
    res = cli("poll", "--state", str(state))
    out = one_line(res)
    assert ("nothing was stored" in out or "nothing lost" in out) and ("full" in out or "disk" in out)
    filler.unlink()
    res = cli("poll", "--state", str(state))
    assert res.returncode == 0, res.stderr
    t.state = state  # read the copy through the kit's views
    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.storage.store import open_engine

    t.engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    t.forum = LocalForum(state / "forum.db")
    for p in t.p.values():
        p.forum = t.forum
    assert outcome(t) == want


# --------------------------------------------------------------------------- read-only state


@pytest.fixture
def read_only_copy(tmp_path):
    """``copy(state) -> path``: a copy of a state on a file system mounted read-only (root
    ignores file permissions, not a read-only mount); without mounting rights, a chmod a-w copy
    when not root, else skipped."""
    where = Path(tempfile.mkdtemp(prefix="nomicpoker-ro-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)],
                             capture_output=True).returncode == 0
    if not mounted and os.geteuid() == 0:
        where.rmdir()
        pytest.skip("running as root without the right to mount a read-only file system")

    def copy(state: Path) -> Path:
        target = where / "state"
        shutil.copytree(state, target, ignore=shutil.ignore_patterns("secrets"))
        if mounted:
            subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        else:
            for root, dirs, files in os.walk(target):
                for f in files:
                    os.chmod(Path(root) / f, 0o444)
                os.chmod(root, 0o555)
        return target

    try:
        yield copy
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)
        else:
            for root, _dirs, _files in os.walk(where):
                os.chmod(root, 0o755)
        shutil.rmtree(where, ignore_errors=True)


def test_the_read_only_commands_work_on_a_read_only_copy_and_poll_says_it_cannot_write(tmp_path, read_only_copy):
    res = CliRunner().invoke(app, ["demo", "--state", str(tmp_path / "demo")])
    assert res.exit_code == 0, res.output
    copy = read_only_copy(tmp_path / "demo")
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    for args in (["ledger", "--table", "demo", "--log"], ["audit"], ["table", "list"],
                 ["table", "show", "--table", "demo"], ["audit", "verify", "--table", "demo"],
                 ["audit", "export", "--table", "demo", "--hand", "1"], ["db", "version"],
                 ["site", "build", "--out", str(tmp_path / "site")], ["score"], ["verdicts", "--table", "demo"],
                 ["export", "public-db", "-o", str(tmp_path / "public.db")]):
        res = cli(*args, "--state", str(copy))
        assert res.returncode == 0, (args, res.stdout, res.stderr)
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "public.db").is_file()
    for args in (["poll"], ["hand", "start", "--table", "demo"]):
        res = cli(*args, "--state", str(copy))
        one_line(res, "read-only")
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before


# --------------------------------------------------------------------------- locked, damaged


def test_a_ledger_locked_by_another_process_is_one_line_then_the_next_run_goes_on(tmp_path, monkeypatch):
    want = reference(tmp_path)
    t = raise_to_poll(tmp_path / "run")
    holder = sqlite3.connect(t.state / "ledger.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        monkeypatch.setenv("NOMICPOKER_BUSY_TIMEOUT", "0.5")
        res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
        one_line(res, "locked by another process", "nothing was stored")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    t.run()
    assert outcome(t) == want


def _zero_root_page(db: Path, table: str) -> None:
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    con.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\0" * page_size)


def test_a_damaged_ledger_is_one_line_for_every_command(tmp_path):
    t = raise_to_poll(tmp_path)
    t.engine.dispose()
    _zero_root_page(t.state / "ledger.db", "np_table")
    for args in (["poll"], ["ledger", "--table", "T"], ["audit"], ["table", "list"],
                 ["hand", "start", "--table", "T"]):
        res = CliRunner().invoke(app, [*args, "--state", str(t.state)])
        one_line(res, "damaged", "restore it from a backup")


def test_a_damaged_local_forum_is_the_tables_one_failure_line_and_nothing_is_stored(tmp_path):
    t = raise_to_poll(tmp_path)
    before = t.verdicts()
    _zero_root_page(t.forum.path, "comments" if _has(t.forum.path, "comments") else _first_table(t.forum.path))
    res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
    out = one_line(res, "T: FAILED: forum storage", "restore it from a backup")
    assert len(t.verdicts()) == len(before), out


def _has(db: Path, table: str) -> bool:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone() is not None
    finally:
        con.close()


def _first_table(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rootpage DESC").fetchone()[0]
    finally:
        con.close()


def test_a_forum_config_row_that_is_not_json_is_one_line(tmp_path):
    t = raise_to_poll(tmp_path)
    t.engine.dispose()
    con = sqlite3.connect(t.state / "ledger.db")
    con.execute("UPDATE np_table SET forum_config = '{not json' WHERE name = 'T'")
    con.commit()
    con.close()
    res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
    one_line(res, "T: FAILED:", "forum config that is not JSON")
    res = CliRunner().invoke(app, ["forum", "check", "--table", "T", "--state", str(t.state)])
    one_line(res, "not JSON")


# --------------------------------------------------------------------------- missing or empty


COMMANDS = (["poll"], ["hand", "start", "--table", "T"], ["ledger", "--table", "T"], ["audit"],
            ["table", "list"], ["table", "show", "--table", "T"], ["audit", "verify", "--table", "T"],
            ["deck", "issue", "--table", "T"], ["db", "upgrade"], ["db", "version"])


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_every_command_but_init_demo_and_table_create_refuses_a_missing_state(tmp_path, args):
    """From cron in the wrong directory: say where we looked, exit 1, create nothing."""
    res = cli(*args, cwd=str(tmp_path))
    one_line(res, str(tmp_path / "state"))
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("args", COMMANDS[:6], ids=lambda a: " ".join(a[:2]))
def test_a_0_byte_ledger_is_refused_and_stays_0_bytes(tmp_path, args):
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "ledger.db").write_bytes(b"")
    res = CliRunner().invoke(app, [*args, "--state", str(tmp_path / "state")])
    one_line(res, "empty")
    assert (tmp_path / "state" / "ledger.db").stat().st_size == 0


def test_an_in_memory_ledger_is_not_a_fresh_install(tmp_path):
    (tmp_path / "state").mkdir()
    for args in (["poll"], ["audit"], ["ledger", "--table", "T"]):
        res = CliRunner().invoke(app, [*args, "--state", str(tmp_path / "state"), "--db", "sqlite://"])
        one_line(res, "in-memory")
