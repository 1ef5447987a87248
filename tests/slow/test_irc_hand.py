"""A complete roberts-nlhe hand over IRC, end to end, on a real ngIRCd (tests/kits/servers/ircd.py).

The Dealer runs as it would in production: ``nomicpoker serve`` in its own process (the real
CLI, the credentials from the environment), ``hand start`` from another "shell" (here the
test process), and the players are real IRC connections typing lines. The same fixed secrets
as tests/e2e/hands/test_bot_roberts.py deal the same cards (worked out by hand there): alice J♥ K♥,
bob 4♣ 5♠, carol 10♥ 3♠; board J♦ 4♦ A♣ A♠ 7♥; alice wins with aces and jacks.

What it pins: the game is announced in pokprot's ``newgame`` format; hole cards arrive
privately, each player's to that player only; actions typed as ``@`` commands and as plain
words are adjudicated; the dealer's answers come in the channel; the payout moves the money;
and ``audit`` rebuilds exactly the ledger the live runs produced, from the archive alone.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import Session

from nomicpoker.core.fairness.verify import verify_record
from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.secrets_store import HandSecrets
from nomicpoker.shell.storage.store import open_engine

from kits.servers.ircd import PASSWORD, Player, ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)

pytestmark = [needs_ngircd, pytest.mark.slow]

PLAYERS = ("alice", "bob", "carol")


def fixed_secrets(seed: str) -> HandSecrets:
    return HandSecrets(*(hashlib.sha256(f"{seed}:{n}".encode()).digest() for n in ("deck", "dice", "decks")))


def irc_config(port: int) -> dict:
    return {"server": "127.0.0.1", "port": port, "tls": False, "channel": "#poker",
            "listing": "#gamelist", "nick": "dealerbot", "line_interval": 0}


def plain(text: str) -> str:
    return text.replace("\x02", "")


class Game:
    """The table, the serve process and the players."""

    def __init__(self, tmp: Path, port: int):
        self.state = tmp / "state"
        self.state.mkdir(parents=True)
        self.engine = open_engine(f"sqlite:///{self.state / 'ledger.db'}")
        service.create_table(self.engine, self.state, "T", list(PLAYERS), 100, ruleset="roberts-nlhe",
                             forum="irc", forum_config=irc_config(port), issue_decks=False,
                             settings={"reminders": 0})
        self.p = {n: Player(n, port) for n in PLAYERS}
        for player in self.p.values():
            player.join("#poker")
        self.p["alice"].join("#gamelist")
        self.serve: subprocess.Popen | None = None
        self.err = tmp / "serve.err"

    def start_serve(self) -> None:
        env = dict(os.environ, NOMICPOKER_IRC_SERVER_PASSWORD=PASSWORD, NOMICPOKER_LOG_FILE="")
        exe = Path(sys.executable).with_name("nomicpoker")
        self.serve = subprocess.Popen([str(exe), "serve", "--state", str(self.state), "--tick", "2",
                                       "--site", "off"], env=env, stdout=subprocess.DEVNULL,
                                      stderr=self.err.open("w"))

    def stop_serve(self) -> int:
        assert self.serve is not None
        self.serve.send_signal(signal.SIGTERM)
        try:
            return self.serve.wait(30)
        finally:
            if self.serve.poll() is None:
                self.serve.kill()
                self.serve.wait(10)

    def channel(self, who: str = "alice") -> list[str]:
        return [plain(t) for t in self.p[who].texts("PRIVMSG", "#poker")]

    def act(self, who: str, line: str, expect: str, timeout: float = 30) -> str:
        """``who`` says ``line`` in the channel; wait until the dealer's answer containing
        ``expect`` reaches alice; return it."""
        watcher = self.p["alice"]
        start = len(watcher.lines)
        self.p[who].say("#poker", line)
        got = watcher.wait(lambda l: ":dealerbot!" in l and " PRIVMSG #poker :" in l and expect in plain(l),
                           timeout=timeout, what=f"the dealer's answer to {who}: {line!r} ({expect!r})",
                           start=start)
        return plain(got.split(" PRIVMSG #poker :", 1)[1])

    def close(self) -> None:
        if self.serve is not None and self.serve.poll() is None:
            self.stop_serve()
        for player in self.p.values():
            player.close()
        self.engine.dispose()


def test_a_roberts_nlhe_hand_plays_over_irc_end_to_end_and_audits_identically(tmp_path, ircd):
    g = Game(tmp_path, ircd.port)
    try:
        g.start_serve()
        alice = g.p["alice"]
        listed = alice.wait(lambda l: "PRIVMSG #gamelist :newgame " in l, timeout=30, what="newgame")
        fields = listed.split(" :", 1)[1].split(" ")
        assert fields[0] == "newgame" and fields[1] == "#poker" and fields[2].isdigit()
        assert listed.endswith('"T: roberts-nlhe, 100 chips" nlcash 3 0 0 0 0 0')

        secrets_store.write(g.state, "T", 1, fixed_secrets("nlhe:1"))
        started = service.start_hand(g.engine, g.state, "T", 0, blinds=(1, 2))
        assert not started.report.error and started.thread == "#poker/1"

        # hole cards: privately, by NOTICE, each player's own only
        holes = {"alice": "J♥ K♥ (Jh Kh)", "bob": "4♣ 5♠ (4c 5s)", "carol": "10♥ 3♠ (Th 3s)"}
        for name, player in g.p.items():
            notice = player.wait(lambda l, n=name: f" NOTICE {n} :" in l and "(" in l, timeout=30,
                                 what=f"{name}'s hole cards")
            assert f"{name}: {holes[name]}" in notice
            others = [h for n, h in holes.items() if n != name]
            assert not any(h.split(" (")[1][:-1] in line for line in player.lines for h in others)
        alice.wait(lambda l: "carol to act, 2 to call" in plain(l), timeout=30, what="the turn notice")
        assert any("Blinds 1/2: collected from 3 seated players, the pot is 3." in t for t in g.channel())
        assert not any("Jh Kh" in t or "4c 5s" in t for t in g.channel())  # nobody's cards in public

        g.act("carol", "@call", "alice to act")
        g.act("alice", "call", "bob to act")
        out = g.act("bob", "@check", "Flop")
        assert out.startswith("bob checks. Flop: J♦ 4♦ A♣")
        for r, street in ((2, "Turn"), (3, "River")):
            g.act("alice", "check", "bob to act")
            g.act("bob", f"@check --hand 1 --round {r}", "carol to act")
            g.act("carol", "check", street)
        g.act("alice", "check", "bob to act")
        g.act("bob", "check", "carol to act")
        over = g.act("carol", "check", "betting is over")
        assert "board J♦ 4♦ A♣ A♠ 7♥, pot 6" in over
        g.act("alice", "@reveal Jh Kh", "alice")
        g.act("bob", "reveal 4c 5s", "bob")
        g.act("carol", "@reveal Th 3s", "Pot 6: alice wins 6.")
        assert g.stop_serve() == 0, g.err.read_text()

        with Session(g.engine) as s:
            table = ledger.get_table(s, "T")
            assert ledger.current_money(s, table) == {"alice": 104, "bob": 98, "carol": 98}
            record = ledger.hand_record(s, table, 1)
        checks = verify_record(record)
        assert all(c.ok for c in checks), [c for c in checks if not c.ok]
        assert audit(g.engine, g.state)[1] == []
    finally:
        g.close()
