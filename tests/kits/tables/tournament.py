"""Shared by the tournament command tests (tests/e2e/tournament/test_tournament_*.py): a structure file,
the CLI run in process, the ledger read with sqlite3, and a tournament of four entrants."""

from __future__ import annotations

import sqlite3
from pathlib import Path

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
