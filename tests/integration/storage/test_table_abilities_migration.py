"""Schema 0012 fills ``np_table.abilities`` of the tables made before it from the adapter
registry, at upgrade time (what replay looked up until then), and with the documented default
``Abilities()`` for a forum this release does not know or a config nobody can read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from nomicpoker.adapters.blog.forum import blog_abilities
from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.adapters.email.forum import EmailForum
from nomicpoker.adapters.irc.forum import IRC_ABILITIES
from nomicpoker.adapters.local import LocalForum
from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.ports import Abilities
from nomicpoker.shell.jobs import schema


def _stored(db: Path) -> dict[str, dict]:
    con = sqlite3.connect(db)
    try:
        return {n: json.loads(a) for n, a in con.execute("SELECT name, abilities FROM np_table ORDER BY id")}
    finally:
        con.close()


# the tables of a ledger at schema 0011: (name, forum kind, forum config as stored)
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
        command.upgrade(schema.alembic_config(conn), "0011")
        for i, (name, kind, config) in enumerate(OLD_TABLES):
            conn.execute(text("INSERT INTO np_table (id, name, ruleset, ruleset_hash, forum_kind, forum_config, "
                              "dealer, players, money, button, issue_decks, settings, active, created) VALUES "
                              "(:i, :n, 'roberts-nlhe', 'h', :k, :c, 'Dealer', '[\"a\",\"b\"]', 100, 'b', 0, '{}', 1, "
                              "'2026-01-01T00:00:00+00:00')"), {"i": i + 1, "n": name, "k": kind, "c": config})
    with engine.begin() as conn:
        command.upgrade(schema.alembic_config(conn), "0012")
    engine.dispose()
    got = {n: Abilities.from_mapping(a) for n, a in _stored(tmp_path / "l.db").items()}
    assert got == {
        "L": LocalForum.abilities, "B": blog_abilities(load_profile("expressionengine")),
        "W": blog_abilities(load_profile("wordpress")), "R": RedditForum.abilities, "I": IRC_ABILITIES,
        "E": EmailForum.abilities, "U": Abilities(), "J": Abilities(),
    }
    # what each kind's fold depends on, said without the adapters' code
    assert (got["B"].dice, got["W"].dice, got["E"].players_see_thread, got["R"].mention) == ("forum", "bot", False, "u/{name}")
