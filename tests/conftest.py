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
    """A PostgreSQL server on loopback for this test session (tests/_pg_kit.py); skips with
    the reason when the binaries are absent."""
    from _pg_kit import start_server

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

#: What a test file imports at its top decides its level (README, "Running the tests"): a whole game or
#: command through the real poll cycle, service or CLI is end-to-end; anything else that
#: touches the shell (ledger, forums, adapters, a database) is integration; the rest (the pure
#: core, the ports) is unit. A file may say its level itself with ``pytestmark``.
E2E_IMPORTS = ("_bot_kit", "_game_kit", "nomicpoker.cli", "typer.testing", "nomicpoker.shell.jobs.poll",
               "nomicpoker.shell.dealer.service", "nomicpoker.shell.jobs.demo")
INTEGRATION_IMPORTS = ("nomicpoker.shell", "nomicpoker.adapters", "adapters", "sqlmodel", "sqlalchemy",
                       "sqlite3", "subprocess", "_pg_kit", "_chromium", "alembic")
LEVELS = ("unit", "integration", "e2e")
_level_of: dict[str, str] = {}


def test_level(path) -> str:
    """``unit``, ``integration`` or ``e2e`` for the test file at ``path``, by its module-level
    imports (an import inside one test does not make the whole file a higher level)."""
    import ast

    key = str(path)
    if key not in _level_of:
        names: set[str] = set()
        for node in ast.parse(open(path, encoding="utf-8").read()).body:
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)

        def uses(prefixes: tuple[str, ...]) -> bool:
            return any(n == p or n.startswith(p + ".") for n in names for p in prefixes)

        _level_of[key] = "e2e" if uses(E2E_IMPORTS) else "integration" if uses(INTEGRATION_IMPORTS) else "unit"
    return _level_of[key]


test_level.__test__ = False  # a helper, not a test


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not any(item.get_closest_marker(level) for level in LEVELS):
            item.add_marker(getattr(pytest.mark, test_level(item.path)))
    # The long sweeps first (a stable sort: the order is otherwise kept): pytest-xdist
    # (pyproject.toml) hands the first tests out in turn, so the two workers share the sweeps
    # from the start, the short tests fill in at the end, and ``--dist worksteal`` lets an idle
    # worker take queued tests from the busy one instead of one sweep running alone at the end.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
