"""The abilities a table was created with are stored with it (``np_table.abilities``, schema
0012), and replay and ``audit`` read them from the ledger: they never import an adapter.

Before, replay looked the forum's abilities up in the adapter registry on every fold, so an
audit needed the adapters installed (praw, BeautifulSoup, the IRC client) and a later adapter
release could change how a table's history folds. ``table create`` now stores what the forum
declared (read once, by the composition root :mod:`nomicpoker.shell.cycle.forums`), and
``db upgrade`` filled older tables from the registry (a documented default for a forum this
release does not know)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session
from typer.testing import CliRunner

from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.shell.cycle.replay import table_config_for
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import StoreError

from _paths import FIXTURES


def _cli(state: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--state", str(state)])


def _stored(db: Path) -> dict[str, dict]:
    con = sqlite3.connect(db)
    try:
        return {n: json.loads(a) for n, a in con.execute("SELECT name, abilities FROM np_table ORDER BY id")}
    finally:
        con.close()


def test_table_create_stores_what_the_forum_declares(tmp_path):
    state = tmp_path / "state"
    res = _cli(state, "table", "create", "--name", "T", "--players", "alice,bob", "--money", "100")
    assert res.exit_code == 0, res.output
    assert _stored(state / "ledger.db") == {"T": json.loads(LocalForum.abilities.as_json())}
    assert _stored(state / "ledger.db")["T"]["private_send"] is True  # the local forum has private messages


def test_the_fold_takes_the_stored_abilities_not_the_adapters(tmp_path):
    """A local table whose stored abilities say otherwise than the local adapter: the fold's
    configuration follows the ledger (who rolls, private messages, mentions, who reads the thread)."""
    state = tmp_path / "state"
    assert _cli(state, "table", "create", "--name", "T", "--players", "alice,bob", "--money", "100").exit_code == 0
    con = sqlite3.connect(state / "ledger.db")
    con.execute("UPDATE np_table SET abilities = ? WHERE name = 'T'", (json.dumps(
        {"dice": "forum", "private_send": False, "mention": "@{name}", "players_see_thread": False}),))
    con.commit()
    con.close()
    from nomicpoker.shell.storage.store import open_engine

    engine = open_engine(f"sqlite:///{state / 'ledger.db'}", create=False)
    with Session(engine) as s:
        cfg = table_config_for(s, ledger.get_table(s, "T"))
    engine.dispose()
    local = LocalForum.abilities
    assert (local.dice, local.private_send, local.players_see_thread) == ("bot", True, True)
    assert (cfg.forum_roller, cfg.private, cfg.mention, cfg.players_see_thread) == (True, False, "@{name}", False)


@pytest.mark.parametrize("bad, why", [("{nope", "not JSON"), ("[1, 2]", "not a JSON object")])
def test_stored_abilities_that_are_not_an_object_are_a_coded_error_naming_the_column(tmp_path, bad, why):
    state = tmp_path / "state"
    assert _cli(state, "table", "create", "--name", "T", "--players", "alice,bob", "--money", "100").exit_code == 0
    con = sqlite3.connect(state / "ledger.db")
    con.execute("UPDATE np_table SET abilities = ? WHERE name = 'T'", (bad,))
    con.commit()
    con.close()
    from nomicpoker.shell.storage.store import open_engine

    engine = open_engine(f"sqlite:///{state / 'ledger.db'}", create=False)
    with Session(engine) as s, pytest.raises(StoreError) as err:
        ledger.table_abilities(ledger.get_table(s, "T"))
    engine.dispose()
    assert err.value.code == "bad_config" and why in err.value.message and "np_table.abilities" in err.value.message


# A process in which the adapters cannot be imported at all: what replay and audit need must
# come from the ledger.
NO_ADAPTERS = """
import sys

class NoAdapters:
    def find_spec(self, name, path=None, target=None):
        if name == "nomicpoker.adapters" or name.startswith("nomicpoker.adapters."):
            raise ImportError(name + ": the adapters are not installed here")
        return None

if sys.argv[1] == "block":
    sys.meta_path.insert(0, NoAdapters())
sys.argv = ["nomicpoker", *sys.argv[2:]]
from nomicpoker.cli import main
main()
"""


def _run(block: bool, state: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", NO_ADAPTERS, "block" if block else "open", *args,
                           "--state", str(state)], capture_output=True, text=True, timeout=300)


def test_audit_and_the_ledger_replay_without_any_adapter_installed(tmp_path):
    """The fixture table (three hands played on the local forum) is upgraded, then audited,
    verified and shown in a process that cannot import an adapter: the same words as with them."""
    state = tmp_path / "state"
    shutil.copytree(FIXTURES / "edition-1-ledger", state, ignore=shutil.ignore_patterns("README.md"))
    assert _cli(state, "db", "upgrade").exit_code == 0
    assert _stored(state / "ledger.db") == {"R": json.loads(LocalForum.abilities.as_json())}
    for args in (["audit"], ["audit", "verify"], ["ledger", "--table", "R"]):
        with_adapters, without = _run(False, state, *args), _run(True, state, *args)
        assert with_adapters.returncode == 0, with_adapters.stderr
        assert (without.returncode, without.stdout) == (0, with_adapters.stdout), without.stderr
    assert "the replay is identical to the ledger" in _run(True, state, "audit").stdout
    # the blocker bites: what needs the forum itself cannot run there
    blocked = _run(True, state, "forum", "check", "--table", "R")
    assert blocked.returncode != 0 and "the adapters are not installed here" in blocked.stdout + blocked.stderr
