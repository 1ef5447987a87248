"""An IRC table for the tests of issue 28: a roberts-nlhe table T (alice, bob, carol, 100
each) in #poker on a real ngIRCd (tests/kits/servers/ircd.py), ``nomicpoker serve``'s loop
(:func:`nomicpoker.shell.jobs.serve.serve`) running in a thread of the test process, and the
players as hand-written IRC clients (:class:`kits.servers.ircd.Player`).

Why serve in a thread and not a process: these tests look at many small exchanges, and the
real loop in-process answers them in a fraction of a second; the whole-hand tests
(tests/slow/test_irc_hand.py) run ``serve`` as its own process.
"""

from __future__ import annotations

import threading
from pathlib import Path

from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.servers.ircd import PASSWORD, Player

PLAYERS = ("alice", "bob", "carol")


def irc_config(port: int, **extra) -> dict:
    return {"server": "127.0.0.1", "port": port, "tls": False, "channel": "#poker",
            "nick": "dealerbot", "line_interval": 0, **extra}


def plain(line: str) -> str:
    return line.replace("\x02", "")


class IrcTable:
    def __init__(self, tmp: Path, port: int, settings: dict | None = None, players=PLAYERS, **config):
        self.state = tmp / "state"
        self.state.mkdir(parents=True)
        self.engine = open_engine(f"sqlite:///{self.state / 'ledger.db'}")
        service.create_table(self.engine, self.state, "T", list(players), 100, ruleset="roberts-nlhe",
                             forum="irc", forum_config=irc_config(port, **config), issue_decks=False,
                             settings={"reminders": 0, **(settings or {})})
        self.port = port
        self.p = {n: Player(n, port) for n in players}
        for player in self.p.values():
            player.join("#poker")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def serve(self, **kwargs) -> None:
        import os

        from nomicpoker.shell.jobs.serve import serve

        os.environ["NOMICPOKER_IRC_SERVER_PASSWORD"] = PASSWORD

        def run() -> None:
            try:
                serve(self.engine, self.state, tick=kwargs.pop("tick", 600), step=0.1,
                      stop=self._stop.is_set, **kwargs)
            except BaseException as exc:  # noqa: BLE001  (the test reads it)
                self.error = exc

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        self.p["alice"].wait(lambda l: l.startswith(":dealerbot!") and " JOIN " in l, timeout=30,
                             what="the dealer joining #poker")

    def deal(self, seed: str = "nlhe:1", number: int = 1) -> None:
        secrets_store.write(self.state, "T", number, fixed_secrets(seed))
        started = service.start_hand(self.engine, self.state, "T", 0, blinds=(1, 2))
        assert not started.report.error, started.report.error

    def mark(self, who: str = "alice") -> int:
        return len(self.p[who].lines)

    def channel_line(self, needle: str, start: int = 0, who: str = "alice", timeout: float = 30) -> str:
        """The dealer's first channel line from ``start`` containing ``needle`` (bold off)."""
        got = self.p[who].wait(lambda l: l.startswith(":dealerbot!") and " PRIVMSG #poker :" in l
                               and needle in plain(l), timeout=timeout, start=start,
                               what=f"the dealer saying {needle!r} in #poker")
        return plain(got.split(" PRIVMSG #poker :", 1)[1])

    def notice(self, who: str, needle: str, start: int = 0, timeout: float = 30) -> str:
        got = self.p[who].wait(lambda l: l.startswith(":dealerbot!") and f" NOTICE {self.p[who].nick} :" in l
                               and needle in plain(l), timeout=timeout, start=start,
                               what=f"a NOTICE to {who} with {needle!r}")
        return plain(got.split(f" NOTICE {self.p[who].nick} :", 1)[1])

    def act(self, who: str, line: str, expect: str, timeout: float = 30) -> str:
        start = self.mark()
        self.p[who].say("#poker", line)
        return self.channel_line(expect, start, timeout=timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)
        for player in self.p.values():
            player.close()
        self.engine.dispose()
