"""The readers work on any copy of a state (issue 21): a backup made with umask 022 (folders
0755, files 0644, not the 0700/0600 a Dealer's state has) on a file system mounted read-only,
and the same copy writable: ``ledger``, ``audit`` (and ``verify``, ``export``), ``table
show/list``, ``verdicts``, ``score``, ``rules diff --table``, ``phh export`` and ``export
public-db`` read it and exit 0, and never try to write it (not a mode, not a stamp). Before,
making the state owner-only met EROFS on the read-only mount ("cannot write ... Read-only
file system", exit 1), and on the writable copy it changed every mode.

The read-only mount is real (tmpfs remounted ``ro``): it needs root; elsewhere that case skips
and the writable copy still runs."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kits.tables.cli import cli
from nomicpoker.cli import app

READERS = (["ledger", "--table", "demo", "--log"], ["ledger", "--table", "demo", "--format", "json"], ["audit"],
           ["table", "list"], ["table", "show", "--table", "demo"], ["audit", "verify", "--table", "demo"],
           ["audit", "export", "--table", "demo", "--hand", "1"], ["verdicts", "--table", "demo"], ["score"],
           ["rules", "diff", "--table", "demo", "blognomic-2008"], ["phh", "export", "--table", "demo", "--hand", "1"],
           ["db", "version"])


def _umask_022_copy(src: Path, dst: Path) -> None:
    """The copy a backup makes: folders 0755, files 0644 (secrets folder included: a careless
    backup does not know better)."""
    old = os.umask(0o022)
    try:
        shutil.copytree(src, dst, copy_function=shutil.copyfile)
        for root, dirs, files in os.walk(dst):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(Path(root) / f, 0o644)
    finally:
        os.umask(old)


def _modes(root: Path) -> dict[str, tuple[int, bytes | None]]:
    return {str(p.relative_to(root)): (stat.S_IMODE(p.stat().st_mode), p.read_bytes() if p.is_file() else None)
            for p in [root, *root.rglob("*")]}


@pytest.fixture(scope="module")
def demo_state(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("demo")
    res = CliRunner().invoke(app, ["demo", "--state", str(where / "state")])
    assert res.exit_code == 0, res.output
    return where / "state"


def _read_everything(copy: Path, out: Path) -> None:
    for args in READERS + (["export", "public-db", "-o", str(out / "public.db")],
                           ["site", "build", "--out", str(out / "site")]):
        res = CliRunner().invoke(app, [*args, "--state", str(copy)])
        assert res.exit_code == 0, (args, res.output)
    assert (out / "public.db").is_file() and (out / "site" / "index.html").is_file()


def test_the_readers_read_a_umask_022_copy_on_a_read_only_mount(demo_state, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a read-only file system needs root")
    where = Path(tempfile.mkdtemp(prefix="nomicpoker-ro-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        where.rmdir()
        pytest.skip("this root may not mount a file system")
    try:
        copy = where / "state"
        _umask_022_copy(demo_state, copy)
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        before = _modes(copy)
        _read_everything(copy, tmp_path)
        assert _modes(copy) == before
        # a command that must write says so in one line, as before
        res = cli("poll", "--state", str(copy))
        assert res.returncode == 1 and "read-only" in res.stdout + res.stderr, res.stdout + res.stderr
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        shutil.rmtree(where, ignore_errors=True)


def test_the_readers_never_write_a_writable_copy(demo_state, tmp_path):
    copy = tmp_path / "copy"
    _umask_022_copy(demo_state, copy)
    before = _modes(copy)
    _read_everything(copy, tmp_path / "out")
    assert _modes(copy) == before  # no mode tightened, no stamp, no file added
