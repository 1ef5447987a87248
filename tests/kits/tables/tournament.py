"""Shared by the tournament command tests (tests/e2e/tournament/test_tournament_*.py): a structure file,
the CLI run in process, the ledger read with sqlite3, a tournament of four entrants (``made``),
one created or started as a test needs it (:func:`created`, :func:`started`, on an e-mail
table with :func:`email_forum`), and hands played to their end."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Sequence

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app

runner = CliRunner()

STRUCTURE = """
name = "spring"
title = "Spring Open"
starting_money = 1000
table_size = {size}
levels_by = "hands"
level_length = 5
payouts = [60, 30, 10]

[[levels]]
small_blind = 5
big_blind = 10

[[levels]]
ante = 1
small_blind = 10
big_blind = 20
"""


def run(*args: str, code: int = 0):
    res = runner.invoke(app, list(args))
    assert res.exit_code == code, res.output
    return res


def rows(state: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(state / "ledger.db")
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def made(tmp_path):
    """A structure file (tables of 3), a state and a tournament of four entrants."""
    path = tmp_path / "spring.toml"
    path.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    res = run("tournament", "create", "--structure", str(path), "--players", "ann,bob,cy,dee", "--state", str(state))
    return path, state, res


def created(tmp_path: Path, players: str | Sequence[str], size: int = 3,
            edits: Sequence[tuple[str, str]] = (), head: str = "") -> Path:
    """Tournament ``spring`` created with ``players`` (a comma list or names) under
    :data:`STRUCTURE` with tables of ``size``, each ``(old, new)`` of ``edits`` replaced in it
    (``("level_length = 5", "level_length = 1")``) and ``head`` put before it (top-level keys:
    ``"start_on_vacation = true\n"``); its state folder, ``tmp_path / "state"``."""
    text = head + STRUCTURE.format(size=size)
    for old, new in edits:
        assert old in text, f"{old!r} is not in the structure"
        text = text.replace(old, new)
    path = tmp_path / "spring.toml"
    path.write_text(text)
    state = tmp_path / "state"
    names = players if isinstance(players, str) else ",".join(players)
    run("tournament", "create", "--structure", str(path), "--players", names, "--state", str(state))
    return state


def started(tmp_path: Path, players: str | Sequence[str], size: int = 3, edits: Sequence[tuple[str, str]] = (),
            head: str = "", forums: Sequence[str] = ()) -> Path:
    """:func:`created`, then ``tournament start`` (``forums``: its ``--forum`` values, e.g.
    ``1=mail.json``); the state folder."""
    state = created(tmp_path, players, size, edits, head)
    run("tournament", "start", "--name", "spring", *[x for f in forums for x in ("--forum", f)], "--state", str(state))
    return state


def email_forum(servers, tmp_path: Path, users: Sequence[str], table: str = "spring-t1") -> Path:  # type: ignore[no-untyped-def]
    """The forum file of an e-mail table on the loopback mail ``servers`` (kits.servers.mail)
    whose roster gives ``users`` their addresses, for ``tournament start --forum N=FILE``."""
    import json

    from kits.servers.mail import dealer_config

    path = tmp_path / f"mail-{table}.json"
    path.write_text(json.dumps({"kind": "email", **dealer_config(servers, tmp_path, tuple(users), table=table)}))
    return path


def mail_id(servers, player: str, table: str) -> str:  # type: ignore[no-untyped-def]
    """The ID ``player`` read in his welcome mail of ``table`` (an e-mail table: each mail of his
    to the Dealer names it)."""
    import re

    [welcome] = [m for m in servers.inbox(player) if f"Your ID for poker table {table}" in str(m["Subject"])]
    return re.search(r"\(ID=([a-z0-9]{6})\)", str(welcome["Subject"])).group(1)


def players_at(state: Path, table: str) -> list[str]:
    """The players of ``table`` as its ``np_table`` row lists them."""
    import json

    return json.loads(rows(state, f"SELECT players FROM np_table WHERE name = '{table}'")[0][0])


def drawn(state: Path) -> dict[int, dict]:
    """The start's draw as the ledger recorded it: each table (``number``, ``table``, ``seats``,
    ``button``) by its number."""
    import json

    start = json.loads(rows(state, "SELECT data FROM np_tournament_event WHERE kind = 'start'")[0][0])
    return {t["number"]: t for t in start["tables"]}


def fold_around(state: Path, table: str, number: int) -> None:
    """Hand ``number`` at ``table``: whoever is to act folds, poll, until the hand ends."""
    thread = rows(state, f"SELECT thread FROM np_hand WHERE table_name = '{table}' AND number = {number}")[0][0]
    for _ in range(6):
        if rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {number}"):
            return
        cells = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND hand = {number} "
                                 "AND column = 'Turn' ORDER BY id"))
        [who] = [p for p, v in cells.items() if v == "x"]
        run("forum", "post", "--state", str(state), "--as", who, thread, f"HAND{number} ROUND1 fold")
        run("poll", "--state", str(state))
    raise AssertionError("the hand did not end")


def play_all_in(state: Path, table: str) -> dict[str, str]:
    """Start the next hand at ``table`` (fixed cards) and play it as an all-in showdown: the
    first to act moves all in, everyone calls, each reveals. Returns the Money column after it."""
    import json
    import re

    from kits.tables.bot import fixed_secrets
    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.storage import secrets_store
    from nomicpoker.shell.storage.paths import forum_db_path

    done = rows(state, f"SELECT number FROM np_hand WHERE table_name = '{table}' ORDER BY number")
    number = done[-1][0] + 1 if done else 1
    secrets_store.write(state, table, number, fixed_secrets(f"tournament:{number}"))
    run("hand", "start", "--table", table, "--state", str(state))
    thread, seats = rows(state, f"SELECT thread, seats FROM np_hand WHERE table_name = '{table}' AND number = {number}")[0]
    dealt = [p for p, _m in json.loads(seats)]
    forum = LocalForum(forum_db_path(state))
    post = ("forum", "post", "--state", str(state), "--as")
    first = True
    for _ in range(len(dealt) * 2):
        cells = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND hand = {number} "
                                 "AND column = 'Turn' ORDER BY id"))
        turn = [p for p, v in cells.items() if v == "x"]
        ended = rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {number}")
        if ended or not turn:
            break
        run(*post, turn[0], thread, f"HAND{number} ROUND1 {'all in' if first else 'call'}")
        first = False
        run("poll", "--state", str(state))
    for p in dealt:
        if rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {number}"):
            break
        msg = next((m for m in reversed(forum.inbox(p)) if f"hand {number}," in m.body), None)
        if msg is None:
            continue
        cards = re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body).group(1)
        run(*post, p, thread, f"HAND{number} reveal {cards}")
        run("poll", "--state", str(state))
    assert rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {number}"), "hand did not end"
    return dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND column = 'Money' "
                            "ORDER BY id"))
