"""The abilities a table was created with are stored with it (``np_table.abilities``, schema
0011), and replay and ``audit`` read them from the ledger: they never import an adapter.

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
from alembic import command
from sqlalchemy import create_engine, text
from sqlmodel import Session
from typer.testing import CliRunner

from nomicpoker.adapters.blog.forum import blog_abilities
from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.adapters.email.forum import EmailForum
from nomicpoker.adapters.irc.forum import IRC_ABILITIES
from nomicpoker.adapters.local import LocalForum
from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.cli import app
from nomicpoker.ports import Abilities
from nomicpoker.shell.cycle.replay import table_config_for
from nomicpoker.shell.jobs import schema
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import StoreError

FIXTURES = Path(__file__).parent / "fixtures"


def _cli(state: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--state", str(state)])


def _stored(db: Path) -> dict[str, dict]:
    con = sqlite3.connect(db)
    try:
        return {n: json.loads(a) for n, a in con.execute("SELECT name, abilities FROM np_table ORDER BY id")}
    finally:
        con.close()


@pytest.mark.parametrize("abilities", [LocalForum.abilities, RedditForum.abilities, IRC_ABILITIES,
                                       EmailForum.abilities, blog_abilities(load_profile("wordpress")),
                                       blog_abilities(load_profile("expressionengine")), Abilities()])
def test_stored_abilities_read_back_equal(abilities):
    assert Abilities.from_mapping(json.loads(abilities.as_json())) == abilities


def test_an_empty_or_older_mapping_is_the_documented_default_and_an_unknown_key_is_left_out():
    assert Abilities.from_mapping({}) == Abilities()
    default = Abilities()
    assert (default.dice, default.private_send, default.markup, default.players_see_thread) == ("bot", False, "markdown", True)
    assert Abilities.from_mapping({"private_send": True, "teleport": True}) == Abilities(private_send=True)


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


# the tables of a ledger at schema 0010: (name, forum kind, forum config as stored)
OLD_TABLES = [
    ("L", "local", "{}"),
    ("B", "blognomic", json.dumps({"base_url": "https://blog.example/", "profile": "expressionengine"})),
    ("W", "blognomic", json.dumps({"base_url": "https://blog.example/"})),
    ("R", "reddit", "{}"),
    ("I", "irc", json.dumps({"server": "irc.example", "channel": "#poker"})),
    ("E", "email", "{}"),
    ("U", "pigeon-post", "{}"),   # a forum this release does not know
    ("J", "local", "{not json"),  # a config nobody can read
]


def test_the_migration_fills_each_older_table_from_the_registry_or_the_default(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'l.db'}")
    with engine.begin() as conn:
        command.upgrade(schema.alembic_config(conn), "0010")
        for i, (name, kind, config) in enumerate(OLD_TABLES):
            conn.execute(text("INSERT INTO np_table (id, name, ruleset, ruleset_hash, forum_kind, forum_config, "
                              "dealer, players, money, button, issue_decks, settings, active, created) VALUES "
                              "(:i, :n, 'roberts-nlhe', 'h', :k, :c, 'Dealer', '[\"a\",\"b\"]', 100, 'b', 0, '{}', 1, "
                              "'2026-01-01T00:00:00+00:00')"), {"i": i + 1, "n": name, "k": kind, "c": config})
    with engine.begin() as conn:
        command.upgrade(schema.alembic_config(conn), "0011")
    engine.dispose()
    got = {n: Abilities.from_mapping(a) for n, a in _stored(tmp_path / "l.db").items()}
    assert got == {
        "L": LocalForum.abilities, "B": blog_abilities(load_profile("expressionengine")),
        "W": blog_abilities(load_profile("wordpress")), "R": RedditForum.abilities, "I": IRC_ABILITIES,
        "E": EmailForum.abilities, "U": Abilities(), "J": Abilities(),
    }
    # what each kind's fold depends on, said without the adapters' code
    assert (got["B"].dice, got["W"].dice, got["E"].players_see_thread, got["R"].mention) == ("forum", "bot", False, "u/{name}")


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
