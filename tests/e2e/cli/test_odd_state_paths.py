"""A state folder (or a ledger copy) whose path holds characters that mean something in a URL
(``?`` starts SQLAlchemy's query, ``%`` its escapes, ``#`` an SQLite URI's fragment) is read as
itself by every way nomicpoker opens an SQLite ledger by path: the default ledger URL
(``demo``, ``poll``, ``audit``, ``site build``), ``export public-db``, audit's scratch
databases, a read-only copy (opened through an SQLite URI), and the idle check of ``poll``.

The URL we write is cross-checked against SQLAlchemy's own ``URL.create`` and ``make_url``
(the independent implementation); the end-to-end tests run the real CLI and check that no
stray file appears beside the folder (the old URL cut the path at ``?``, so SQLite created
``.../we`` instead).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage.paths import sqlite_url, sqlite_url_path
from nomicpoker.shell.storage.store import readonly_url, sqlite_path

WEIRD = "we?ird%20#x"
NAMES = [WEIRD, "a%41b", "%", "%%25", "a?b=c&d", "sp ace+plus", "at@host:1", "hash#frag", "semi;colon",
         "back\\slash", "ünï€ödé", "new\nline", "q'uote\"s", "[br]{ace}", "tab\tstop", "~tilde", "file:x"]


@pytest.mark.parametrize("name", NAMES)
def test_the_ledger_url_names_the_file_whatever_its_path_holds(name):
    path = f"/srv/{name}/state/ledger.db"
    url = sqlite_url(path)
    assert url == URL.create("sqlite", database=path).render_as_string(hide_password=False)
    assert make_url(url).database == path and not make_url(url).query
    assert sqlite_path(url) == Path(path) and sqlite_url_path(url) == Path(path)
    assert make_url(sqlite_url(name)).database == name  # relative paths too


def test_a_url_with_options_is_not_taken_for_a_plain_file():
    assert sqlite_url_path("sqlite:////a/b.db?mode=ro") is None
    assert sqlite_url_path("sqlite:///:memory:") is None and sqlite_url_path("postgresql://h/db") is None


@pytest.mark.parametrize("name", [WEIRD, "a%41b", "hash#frag"])
def test_a_read_only_copy_is_opened_at_its_own_path_and_not_written(tmp_path, name):
    folder = tmp_path / name
    folder.mkdir()
    db = folder / "ledger.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t (v TEXT)")
        con.execute("INSERT INTO t VALUES ('here')")
    con.close()
    for mode in ("immutable=1", "mode=ro"):
        engine = create_engine(readonly_url(db, mode))
        try:
            with engine.connect() as conn:
                assert conn.execute(text("SELECT v FROM t")).scalar() == "here"
                with pytest.raises(OperationalError, match="readonly"):
                    conn.execute(text("INSERT INTO t VALUES ('x')"))
        finally:
            engine.dispose()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert sorted(p.name for p in folder.iterdir()) == ["ledger.db"]


def cli(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def python_m(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    return subprocess.run([sys.executable, "-m", "nomicpoker", *args], capture_output=True, text=True,
                          timeout=180, env=env)


def test_demo_poll_audit_site_export_and_the_idle_check_in_a_folder_named_like_a_url(tmp_path):
    st = tmp_path / WEIRD
    cli("demo", "--state", str(st))
    assert (st / "ledger.db").is_file() and (st / "site" / "demo" / "hand-1.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [WEIRD]  # nothing created beside it
    cli("poll", "--state", str(st))
    assert "identical" in cli("audit", "--state", str(st))
    cli("audit", "verify", "--table", "demo", "--hand", "1", "--state", str(st))
    cli("site", "build", "--out", str(tmp_path / WEIRD / "www"), "--state", str(st))
    assert (st / "www" / "demo" / "hand-1.html").is_file()
    out = tmp_path / WEIRD / "pub?lic%25.db"
    cli("export", "public-db", "-o", str(out), "--state", str(st))
    assert out.is_file() and sqlite3.connect(out).execute("SELECT count(*) FROM np_table").fetchone() == (1,)
    # an auditor opens the copy by a URL (the path percent-encoded, as paths.sqlite_url does)
    auditor = tmp_path / WEIRD / "auditor"
    assert "identical" in cli("audit", "--db", sqlite_url(out), "--state", str(auditor))
    assert sorted(p.name for p in tmp_path.iterdir()) == [WEIRD]
    # the idle check: a full poll records the state, the next poll answers without it
    first = python_m("poll", "--state", str(st), "--site", "off", "-v")
    assert first.returncode == 0, first.stdout + first.stderr
    idle = python_m("poll", "--state", str(st), "--site", "off", "-v")
    assert idle.returncode == 0 and "the full poll is skipped" in idle.stdout, idle.stdout + idle.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [WEIRD]


def _chattr(flag: str, path: Path) -> bool:
    tool = shutil.which("chattr")
    return bool(tool) and subprocess.run([tool, flag, str(path)], capture_output=True).returncode == 0


def test_an_auditors_read_only_copy_in_a_folder_named_like_a_url(tmp_path):
    """A copy this process cannot write is opened read-only (through an SQLite URI, whose path
    is encoded a second time inside the SQLAlchemy URL). As root, permission bits do not stop
    writing, so the folder is made immutable (``chattr +i``), which stops root too."""
    st = tmp_path / "state"
    cli("demo", "--state", str(st))
    folder = tmp_path / WEIRD
    folder.mkdir()
    copy = folder / "poker.db"
    cli("export", "public-db", "-o", str(copy), "--state", str(st))
    if os.geteuid() != 0:
        folder.chmod(0o555)
    elif not _chattr("+i", folder):
        pytest.skip("cannot make a folder read-only for root here (chattr +i needs ext4 and CAP_LINUX_IMMUTABLE)")
    try:
        assert not os.access(folder, os.W_OK)
        url = sqlite_url(copy)
        assert "identical" in cli("audit", "--db", url, "--state", str(tmp_path / "auditor"))
        cli("audit", "verify", "--table", "demo", "--hand", "1", "--db", url)
        assert sorted(p.name for p in folder.iterdir()) == ["poker.db", "poker.metadata.json"]  # nothing new
    finally:
        if os.geteuid() == 0:
            _chattr("-i", folder)
        folder.chmod(0o755)


#: a folder name holding a byte that is not UTF-8 (any byte but / and NUL is allowed on POSIX;
#: Python names it with a lone surrogate): the old f-string URL opened it, quote() cannot encode it
UNDECODABLE = os.fsdecode(b"caf\xe9 ?%41")


def test_a_path_with_a_byte_that_is_not_utf8_names_its_own_file():
    path = f"/srv/{UNDECODABLE}/state/ledger.db"
    url = sqlite_url(path)
    assert make_url(url).database == path and not make_url(url).query
    assert sqlite_path(url) == Path(path) and sqlite_url_path(url) == Path(path)


@pytest.mark.skipif(sys.platform != "linux", reason="file names of arbitrary bytes are a POSIX file system's")
def test_demo_and_audit_in_a_folder_whose_name_is_not_utf8(tmp_path):
    st = tmp_path / UNDECODABLE
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    for args in (["demo"], ["audit"]):  # a real process: it prints the name as the bytes it is
        res = subprocess.run([sys.executable, "-m", "nomicpoker", *args, "--state", str(st)],
                             capture_output=True, timeout=180, env=env)
        assert res.returncode == 0, res.stderr.decode(errors="replace")
    assert (st / "ledger.db").is_file() and b"identical" in res.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [UNDECODABLE]
