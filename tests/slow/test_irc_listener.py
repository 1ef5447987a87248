"""``serve`` hears the channel while it speaks (issue 28): a line typed while a long dealer
message goes out at one line a second is logged the moment it arrives, with the time it was
said, in the order it was said; and a ``serve`` killed mid-send has lost nothing it heard (the
rest of the message is sent after the restart, and the lines are answered once).

Before, the bridge sent a whole spooled message (paced by sleeping) before reading again: lines
typed during a 15-25-line turn notice were logged 20-26 s late, stamped with the late time, and
a crash mid-send lost what waited on the socket. A real ``nomicpoker serve`` process, a real
ngIRCd (tests/kits/servers/ircd.py), the default pacing (a burst of 4, then one line a second).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlmodel import Session, select

from nomicpoker.adapters.irc.log import IrcLog
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import CommentRow, open_engine

from kits.tables.bot import fixed_secrets
from kits.servers.ircd import PASSWORD, Player, ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)

pytestmark = [needs_ngircd, pytest.mark.slow]

PLAYERS = ("alice", "bob", "carol")


def start_serve(state: Path, err: Path) -> subprocess.Popen:
    env = dict(os.environ, NOMICPOKER_IRC_SERVER_PASSWORD=PASSWORD, NOMICPOKER_LOG_FILE="")
    return subprocess.Popen([str(Path(sys.executable).with_name("nomicpoker")), "serve", "--state", str(state),
                             "--tick", "600", "--site", "off"], env=env, stdout=subprocess.DEVNULL,
                            stderr=err.open("a"))


def test_lines_typed_during_a_long_send_are_logged_at_once_and_a_crash_mid_send_loses_none(tmp_path, ircd):
    state = tmp_path / "state"
    state.mkdir()
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "T", list(PLAYERS), 100, ruleset="roberts-nlhe", forum="irc",
                         forum_config={"server": "127.0.0.1", "port": ircd.port, "tls": False,
                                       "channel": "#poker", "nick": "dealerbot"},  # default pacing
                         issue_decks=False, settings={"reminders": 0})
    p = {n: Player(n, ircd.port) for n in PLAYERS}
    for player in p.values():
        player.join("#poker")
    err = tmp_path / "serve.err"
    serve = start_serve(state, err)
    log = IrcLog(state / "irc-log.db", f"127.0.0.1:{ircd.port}")
    try:
        p["alice"].wait(lambda l: l.startswith(":dealerbot!") and " JOIN " in l, timeout=30, what="the dealer")
        secrets_store.write(state, "T", 1, fixed_secrets("nlhe:1"))
        service.start_hand(engine, state, "T", 0, blinds=(1, 2))  # the story, the blinds, the turn
        p["alice"].wait(lambda l: l.startswith(":dealerbot!") and " PRIVMSG #poker :" in l, timeout=30,
                        what="the dealer starting to speak")
        said = []
        for i in range(5):
            line = f"while you talk {i}"
            p[PLAYERS[i % 3]].say("#poker", line)
            said.append((line, datetime.now(timezone.utc)))
            time.sleep(0.6)
        time.sleep(1.0)
        assert log.pending(), "the dealer's message went out whole before the test typed: too short"
        heard = [(r.text, datetime.fromisoformat(r.created)) for r in log.private_in() + [
            x for t in log.threads("#poker") for x in log.thread_lines(t.id) if x.direction == "in"]]
        heard = [(t, at) for t, at in heard if t.startswith("while you talk")]
        assert [t for t, _ in heard] == [t for t, _ in said]  # all of them, in the order said
        for (text, at), (_, typed) in zip(heard, said):
            assert abs((at - typed).total_seconds()) < 1.5, (text, at, typed)

        serve.send_signal(signal.SIGKILL)  # mid-send: part of the turn notice is still spooled
        serve.wait(10)
        assert log.pending()
        serve = start_serve(state, err)
        end = time.monotonic() + 90
        while log.pending() and time.monotonic() < end:
            time.sleep(0.5)
        assert not log.pending(), err.read_text()
        p["alice"].wait(lambda l: "carol to act" in l.replace("\x02", ""), timeout=30, what="the turn notice")
        with Session(engine) as s:
            rows = [r.body for r in s.exec(select(CommentRow).where(CommentRow.table_name == "T")).all()]
        assert sorted(b for b in rows if b.startswith("while you talk")) == [t for t, _ in said]
    finally:
        if serve.poll() is None:
            serve.send_signal(signal.SIGTERM)
            try:
                serve.wait(20)
            except subprocess.TimeoutExpired:
                serve.kill()
        for player in p.values():
            player.close()
        engine.dispose()
