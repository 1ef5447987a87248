"""A player at two IRC tables names the table of a private line with a tag at its start, as a
subject names it on the other forums (``(T) CALL *``, ``[T] CALL *``); a private line with no
tag gets a private answer naming the player's tables and the form, and nothing is applied.

On a real ngIRCd (tests/kits/servers/ircd.py) with ``nomicpoker serve`` in its own process, as
tests/slow/test_irc_hand.py: tables ``T`` (#poker: alice, bob) and ``alpha`` (#alpha: alice,
carol) share the Dealer's connection.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.paths import sqlite_url
from nomicpoker.shell.storage.store import CommentRow, open_engine
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.dealer import service

from kits.tables.game import ledger_cells_holding
from kits.servers.ircd import PASSWORD, Player, ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)


def irc_config(port: int, channel: str) -> dict:
    return {"server": "127.0.0.1", "port": port, "tls": False, "channel": channel,
            "nick": "dealerbot", "line_interval": 0}


def notice_to(player: Player, text: str, start: int, what: str) -> str:
    return player.wait(lambda l: ":dealerbot!" in l and f" NOTICE {player.nick} :" in l and text in l,
                       timeout=30, what=what, start=start)


@needs_ngircd
@pytest.mark.slow
def test_a_player_at_two_irc_tables_tags_a_private_line_or_is_told_how(tmp_path, ircd):
    state = tmp_path / "state"
    state.mkdir()
    engine = open_engine(sqlite_url(state / "ledger.db"))
    for name, channel, players in (("T", "#poker", ["alice", "bob"]), ("alpha", "#alpha", ["alice", "carol"])):
        service.create_table(engine, state, name, players, 100, ruleset="roberts-nlhe", forum="irc",
                             forum_config=irc_config(ircd.port, channel), issue_decks=False,
                             settings={"reminders": 0})
    p = {n: Player(n, ircd.port) for n in ("alice", "bob", "carol")}
    for n, chans in (("alice", ("#poker", "#alpha")), ("bob", ("#poker",)), ("carol", ("#alpha",))):
        for c in chans:
            p[n].join(c)
    env = dict(os.environ, NOMICPOKER_IRC_SERVER_PASSWORD=PASSWORD, NOMICPOKER_LOG_FILE="")
    err = tmp_path / "serve.err"
    serve = subprocess.Popen([str(Path(sys.executable).with_name("nomicpoker")), "serve",
                              "--state", str(state), "--tick", "2", "--site", "off"],
                             env=env, stdout=subprocess.DEVNULL, stderr=err.open("w"))
    try:
        p["alice"].wait(lambda l: l.startswith(":dealerbot!") and " JOIN " in l and "#poker" in l,
                        timeout=30, what="the dealer joining #poker")
        started = service.start_hand(engine, state, "T", 0, blinds=(1, 2))
        assert not started.report.error
        alice = p["alice"]
        notice_to(alice, "hole cards", 0, "alice's hole cards")
        # no tag: which tables, and how to tag; nothing applied
        mark = len(alice.lines)
        alice.say("dealerbot", "CALL *")
        answer = notice_to(alice, "names no table", mark, "the answer to an untagged line")
        assert "you sit at 2 tables: T, alpha. Nothing was done with it." in answer, answer
        assert "Send it again starting with the table's tag: (T) CALL * or [T] CALL *" in answer, answer
        # tagged: it reaches table T, and its answer (the advance action's confirmation) comes privately
        mark = len(alice.lines)
        alice.say("dealerbot", "(T) CALL *")
        notice_to(alice, "advance action", mark, "the confirmation of the tagged advance action")
        alice.drain(2)
        assert sum("names no table" in line for line in alice.lines) == 1  # answered once
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(30) == 0, err.read_text()
        with Session(engine) as s:  # archived sealed at T, its text kept with the secrets
            rows = s.exec(select(CommentRow).where(CommentRow.thread == "~private")).all()
            assert [r.table_name for r in rows] == ["T"] and "CALL" not in rows[0].body
            assert [r.body for r in ledger.revisions(s, "T", state=state) if r.thread == "~private"] == ["CALL *"]
        # the /msg is in no row of the ledger: "CALL *" is only in the Dealer's answer to the
        # untagged line, which shows how to tag one ("`(T) CALL *`")
        assert ledger_cells_holding(state / "ledger.db", "CALL *") == ["np_outbox.body"]
        assert audit(engine, state)[1] == []
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait(10)
        for player in p.values():
            player.close()
        engine.dispose()
