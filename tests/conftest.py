"""Shared test configuration.

Hypothesis: no per-example deadline (CI runs on two shared cores, where a slow example is
load, not a bug) and no too-slow health check; every property test still runs its examples.

Isolation: every test starts with no ``NOMICPOKER_*`` and no ``praw_*`` environment variables
(a CI machine or a Dealer's shell may set them: ``NOMICPOKER_DB`` would point every CLI call at
a real database), with its working directory in a fresh temporary directory (so the default
``./state`` and a stray ``praw.ini`` in the checkout can never be used), and with
``XDG_CONFIG_HOME``, ``XDG_CACHE_HOME`` and ``HOME`` there too, so praw finds no user
``praw.ini`` and the command lines the CLI read stay the test's. Tests that need
one of these set it themselves with ``monkeypatch``.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "nomicpoker",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("nomicpoker")

#: prefixes of environment variables the code under test (or praw) reads
ISOLATED_PREFIXES = ("nomicpoker_", "praw_")

#: where the tests' temporary files go when the machine has it and ``TMPDIR`` does not say
#: otherwise: a RAM-backed tmpfs (see :func:`pytest_configure`)
RAM_TMP = "/dev/shm"
#: the free space that tmpfs must have (a Docker container's default /dev/shm is 64 MiB)
RAM_TMP_MIN_FREE = 2 << 30


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml's ``addopts``): one worker per core plus one.

    WHY the one more: the sweeps of ``tests/slow``, which run first, spend much of their time
    waiting on their loopback servers (the network faults' stalls and timeouts, Chromium,
    PostgreSQL, Dovecot, ngIRCd), so with one worker per core a core sat idle: on this project's
    2-core machine, idle, the whole suite took 10 min 29 s at 153% CPU with 2 workers and
    9 min 28 s at 176% with 3 (docs/benchmarks.md, "Test suite")."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config):
    """Before pytest-xdist starts its workers (they and the CLI's child processes inherit the
    environment set here): temporary files in RAM, compiled modules cached."""
    _temporary_files_in_ram(config)
    _bytecode_cached()


def _temporary_files_in_ram(config) -> None:
    """Every temporary file of the run (``tmp_path``, ``tempfile``, the CLI's child processes)
    on a RAM-backed tmpfs, unless ``TMPDIR`` or ``--basetemp`` says where.

    WHY: a ledger is SQLite in WAL mode with ``synchronous=FULL``, so each commit and each last
    close of a ledger ``fdatasync``s; the end-to-end tests make ~200 of them a test (1,794 in
    tests/test_bot_flows.py's 9 tests, 2.3 ms each on this machine's disk when it is idle,
    far more when it is busy), and that disk wait, not the CPU, was most of their time. On
    tmpfs an fsync returns at once; what the tests check (the rows, their order, the refusals)
    does not depend on the disk. Set ``TMPDIR`` to run them on a disk again."""
    import shutil
    import tempfile

    if os.environ.get("TMPDIR") or config.getoption("basetemp", None):
        return
    try:
        ram = os.path.isdir(RAM_TMP) and os.access(RAM_TMP, os.W_OK | os.X_OK) \
            and shutil.disk_usage(RAM_TMP).free >= RAM_TMP_MIN_FREE
    except OSError:
        ram = False
    if ram:
        os.environ["TMPDIR"] = RAM_TMP
        tempfile.tempdir = None  # computed again from TMPDIR on its next use


def _bytecode_cached() -> None:
    """With ``PYTHONDONTWRITEBYTECODE`` set (no ``__pycache__`` in the checkout), the compiled
    modules go to a cache outside it (``PYTHONPYCACHEPREFIX``: the one already set, else
    ``~/.cache/nomicpoker-tests/pycache``) instead of not at all.

    WHY: without any cache every process compiles every module it imports from source, and
    pytest rewrites the asserts of every test module and plugin again: ~6 s of each worker's
    collection of the whole suite (11 s of CPU instead of 5), and ~0.2 s of each of the
    hundreds of ``nomicpoker`` child processes the CLI tests start. The checkout stays as
    clean as the variable asked; a stale entry is recompiled (Python checks each source's
    mtime and size)."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or sys.pycache_prefix or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "nomicpoker-tests", "pycache")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode = False  # this process too (``-n 0``): the test modules it imports next
    sys.pycache_prefix = prefix


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory, monkeypatch):
    for key in list(os.environ):
        if key.lower().startswith(ISOLATED_PREFIXES):
            monkeypatch.delenv(key)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # the CLI's readings (shell/cycle/cli_memo.py)
    monkeypatch.chdir(home)
    # praw reads its praw.ini files once per process and caches them on the class: forget
    # them, so each test reads only its own (isolated) locations
    if "praw.config" in sys.modules:
        monkeypatch.setattr(sys.modules["praw.config"].Config, "CONFIG", None)
    yield


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server on loopback for this test session (tests/kits/servers/pg.py); skips with
    the reason when the binaries are absent."""
    from kits.servers.pg import start_server

    yield from start_server()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def ledger_url(request, tmp_path):
    """The ledger URL of a fresh, empty database: an SQLite file, and (``-m postgres``) a new
    database on the test PostgreSQL server. Tests taking it run on both."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger-db' / 'ledger.db'}"
    return request.getfixturevalue("pg_server").new_database()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_ledger(request, monkeypatch):
    """Run a whole test file on both ledgers (``pytestmark = pytest.mark.usefixtures(
    "any_ledger")``): on ``postgres`` every ledger the test makes or opens by default (the
    test kit's tables, the CLI in process and in child processes) is a fresh database on the
    test PostgreSQL server, through ``NOMICPOKER_DB`` as a Dealer would set it."""
    if request.param == "postgres":
        monkeypatch.setenv("NOMICPOKER_DB", request.getfixturevalue("pg_server").new_database())
    return request.param


# --------------------------------------------------------------------------- test levels

# Each level is a folder (tests/unit, tests/integration, tests/e2e, tests/slow) whose conftest.py
# marks its tests with the level (tests/_paths.py, mark_level); tests/unit/house/test_levels.py keeps
# every test file in one of them (docs/testing.md).


@pytest.hookimpl(trylast=True)  # after the levels' conftests have marked their tests
def pytest_collection_modifyitems(config, items):
    """The order of tests/_schedule.py: each pytest-xdist worker's first share starts with its
    part of the long sweeps and ends with unit tests, so the workers finish together. Every
    worker collects the same tests and computes the same order (pytest-xdist checks it)."""
    from _schedule import shares

    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = shares(items, workers)
