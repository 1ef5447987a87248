"""``serve`` on a real ngIRCd: nothing the bridge has logged is lost when the process dies
before the poll ran (the next start archives and answers it, once), a message cut off mid-way
is finished from the line it stopped at, the bridge paces its lines, and ``serve`` without a
live table says so in one line."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

from nomicpoker.adapters.irc.forum import IrcCredentials, settings_from
from nomicpoker.adapters.irc.bridge import IrcBridge
from nomicpoker.adapters.registry import open_bridges
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.secrets_store import HandSecrets
from nomicpoker.shell.jobs.serve import ServeError, serve
from nomicpoker.shell.storage.store import CommentRow, open_engine

from kits.servers.ircd import PASSWORD, Player, ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)

PLAYERS = ("alice", "bob", "carol")


def cfg(port: int) -> dict:
    return {"server": "127.0.0.1", "port": port, "tls": False, "channel": "#poker",
            "nick": "dealerbot", "line_interval": 0}


def make_table(tmp: Path, port: int):
    state = tmp / "state"
    state.mkdir(parents=True)
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "T", list(PLAYERS), 100, ruleset="roberts-nlhe", forum="irc",
                         forum_config=cfg(port), issue_decks=False, settings={"reminders": 0})
    return state, engine


def seen(player: Player, needle: str) -> int:
    return sum(needle in line.replace("\x02", "") for line in player.lines)


@needs_ngircd
def test_a_line_logged_before_a_crash_is_archived_and_answered_once_after_the_restart(
        tmp_path, ircd, monkeypatch):
    monkeypatch.setenv("NOMICPOKER_IRC_SERVER_PASSWORD", PASSWORD)
    state, engine = make_table(tmp_path, ircd.port)
    players = {n: Player(n, ircd.port) for n in PLAYERS}
    for p in players.values():
        p.join("#poker")
    alice, carol = players["alice"], players["carol"]
    try:
        secrets = HandSecrets(*(hashlib.sha256(f"nlhe:1:{n}".encode()).digest() for n in ("deck", "dice", "decks")))
        secrets_store.write(state, "T", 1, secrets)
        service.start_hand(engine, state, "T", 0, blinds=(1, 2))
        bridge = open_bridges([("T", "irc", cfg(ircd.port))], state)[0]
        bridge.start()
        end = time.monotonic() + 20
        while not seen(carol, "carol to act") and time.monotonic() < end:
            bridge.step(0.1)
            carol.drain(0.05)
        assert seen(carol, "carol to act") == 1
        carol.say("#poker", "@call")
        touched: set[str] = set()
        while not touched and time.monotonic() < end:
            touched = bridge.step(0.2)
        assert touched == {"T"}
        bridge.close()  # the process dies here: logged, never polled
        with Session(engine) as s:
            archived = [r.body for r in s.exec(select(CommentRow).where(CommentRow.table_name == "T")).all()]
        assert "call" not in archived

        deadline = time.monotonic() + 30

        def stop() -> bool:
            alice.drain(0.05)
            return seen(alice, "alice to act") > 0 or time.monotonic() > deadline

        serve(engine, state, tick=600, step=0.2, stop=stop)
        alice.drain(0.5)
        assert seen(alice, "alice to act") == 1, alice.lines[-10:]
        assert seen(alice, "carol calls") == 1
        with Session(engine) as s:
            calls = [r for r in s.exec(select(CommentRow).where(CommentRow.table_name == "T")).all()
                     if r.author == "carol"]
        assert [(r.body, r.revision) for r in calls] == [("call", 1)]
    finally:
        for p in players.values():
            p.close()
        engine.dispose()


@needs_ngircd
def test_a_message_cut_off_mid_way_is_finished_from_the_line_it_stopped_at(tmp_path, ircd):
    settings = settings_from(cfg(ircd.port), tmp_path)
    bridge = IrcBridge([("T", settings)], IrcCredentials(PASSWORD, None))
    alice = Player("alice", ircd.port)
    alice.join("#poker")
    try:
        row = bridge.log.record_out("#poker", "channel", "dealerbot", "one\ntwo\nthree", "2026-01-01T00:00:00+00:00")
        bridge.log.progress(row, 1, False)  # "one" went out before the crash
        bridge.start()
        end = time.monotonic() + 10
        while "three" not in alice.texts("PRIVMSG", "#poker") and time.monotonic() < end:
            bridge.step(0.1)
            alice.drain(0.05)
        assert alice.texts("PRIVMSG", "#poker") == ["two", "three"]
        while bridge.log.pending() and time.monotonic() < end:  # progress is written just after
            bridge.step(0.1)
        assert bridge.log.pending() == []
    finally:
        bridge.close()
        alice.close()


def test_the_bridge_sends_a_burst_then_one_line_per_interval(tmp_path):
    settings = settings_from({**cfg(6667), "line_interval": 2, "burst": 3}, tmp_path)
    clock = [0.0]
    waits: list[float] = []
    bridge = IrcBridge([("T", settings)], IrcCredentials(None, None), monotonic=lambda: clock[0])

    def send_one() -> None:
        while (delay := bridge._token_delay()) > 0:  # the I/O loop reads meanwhile
            waits.append(delay)
            clock[0] += delay

    for _ in range(7):
        send_one()
    assert waits == [2.0, 2.0, 2.0, 2.0]  # three at once, then one every two seconds
    clock[0] += 60  # a quiet minute refills the burst, no more
    waits.clear()
    for _ in range(4):
        send_one()
    assert waits == [2.0]


def test_serve_without_a_table_on_a_live_chat_says_so(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "L", ["alice", "bob"], 100)
    with pytest.raises(ServeError) as e:
        serve(engine, state, stop=lambda: True)
    assert e.value.code == "no_live_tables" and "docs/irc.md" in e.value.message
