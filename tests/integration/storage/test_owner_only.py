"""The state directory is made owner-only by every command (:func:`nomicpoker.shell.storage.paths.private_files`)
without an ``lstat`` of every hand's secrets on every poll: the first command looks at every
file; later ones at the files of folders where something was made, renamed or removed since the
last command started, and at the state directory's own files, always."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from nomicpoker.shell.storage import paths
from nomicpoker.shell.storage.paths import CHECKED_STAMP, owner_only, private_files


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def _age(*folders: Path, seconds: float = 3600) -> None:
    """Make folders look unchanged for an hour (their files were made long ago)."""
    old = time.time() - seconds
    for f in folders:
        os.utime(f, (old, old))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    st = tmp_path / "state"
    (st / "secrets" / "sub").mkdir(parents=True)
    for i in range(50):
        (st / "secrets" / f"T-{i}.json").write_text("{}")
    (st / "ledger.db").write_text("")
    return st


def test_the_first_command_tightens_every_file(state: Path) -> None:
    loose = state / "secrets" / "T-7.json"
    os.chmod(loose, 0o644)
    os.chmod(state / "secrets", 0o755)
    with private_files(state):
        pass
    assert mode(loose) == 0o600 and mode(state / "secrets") == 0o700 and mode(state) == 0o700
    assert (state / CHECKED_STAMP).exists() and mode(state / CHECKED_STAMP) == 0o600


def test_a_file_made_loose_since_the_last_command_is_tightened(state: Path) -> None:
    with private_files(state):
        pass
    _age(state / "secrets", state / "secrets" / "sub", seconds=10)
    os.utime(state / CHECKED_STAMP, (time.time() - 5, time.time() - 5))
    made = state / "secrets" / "new.json"
    made.write_text("{}")
    os.chmod(made, 0o644)  # an older nomicpoker, another umask
    deep = state / "secrets" / "sub" / "deep.json"
    deep.write_text("{}")
    os.chmod(deep, 0o644)
    top = state / "forum.db-wal"
    top.write_text("")
    os.chmod(top, 0o644)
    with private_files(state):
        pass
    assert (mode(made), mode(deep), mode(top)) == (0o600, 0o600, 0o600)


def test_what_the_command_itself_makes_loose_is_tightened_after_it(state: Path) -> None:
    with private_files(state):
        pass
    _age(state / "secrets", state / "secrets" / "sub")
    with private_files(state):
        made = state / "secrets" / "sub" / "during.txt"
        made.write_text("x")
        os.chmod(made, 0o644)  # as SQLite does for a journal, from the database's mode
        (state / "ledger.db").chmod(0o644)
    assert mode(made) == 0o600 and mode(state / "ledger.db") == 0o600


def test_a_later_command_does_not_look_at_every_secret(state: Path, monkeypatch) -> None:
    with private_files(state):
        pass
    _age(state / "secrets", state / "secrets" / "sub")
    calls = []
    real = os.lstat
    monkeypatch.setattr(paths.os, "lstat", lambda p, *a, **k: calls.append(p) or real(p, *a, **k))
    with private_files(state):
        pass
    assert not [c for c in calls if "T-" in str(c)], calls  # no file of the unchanged folder
    assert str(state / "ledger.db") in map(str, calls)  # the state directory's own, always
    monkeypatch.undo()
    os.remove(state / CHECKED_STAMP)  # no record: every file again
    os.chmod(state / "secrets" / "T-3.json", 0o644)
    with private_files(state):
        pass
    assert mode(state / "secrets" / "T-3.json") == 0o600


def test_links_and_read_only_state_are_left_alone(tmp_path: Path) -> None:
    st = tmp_path / "state"
    st.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    os.chmod(outside, 0o644)
    os.symlink(outside, st / "link")
    owner_only(st)
    assert mode(outside) == 0o644
    with private_files(tmp_path / "missing"):  # nothing there: nothing done, no error
        pass
    assert not (tmp_path / "missing").exists()
