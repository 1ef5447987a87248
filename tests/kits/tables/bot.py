"""Test kit for the bot's end-to-end tests: a table on the real local forum and a real SQLite
ledger in ``tmp_path``, scripted players who read their own inboxes, and fixed hand secrets so
every card and die is reproducible."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import Session

from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.dealer import service
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.jobs.demo import Player, draw_all
from nomicpoker.shell.storage import paths
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.storage.secrets_store import HandSecrets
from nomicpoker.shell.storage.store import open_engine


def fixed_secrets(seed: str) -> HandSecrets:
    """Three distinct 32-byte secrets derived from a label (never random in tests)."""
    return HandSecrets(*(hashlib.sha256(f"{seed}:{n}".encode()).digest() for n in ("deck", "dice", "decks")))


@dataclass
class Table:
    tmp: Path
    name: str = "T"
    players: tuple[str, ...] = ("alice", "bob", "carol", "dave")
    stack: int = 100
    issue_decks: bool = True
    deadline_hours: int | None = None
    ruleset: str = "blognomic-2008"
    seed: str = "test"
    #: play over days (core/table/table_settings.py); reminders off unless a test asks for them, so
    #: the deadline tests see only the comments they are about
    settings: dict = field(default_factory=lambda: {"reminders": 0})
    state: Path = field(init=False)
    hands: dict[int, HandSecrets] = field(default_factory=dict)
    db: str | None = None  # the ledger URL (default: SQLite in the state directory)

    def __post_init__(self) -> None:
        self.state = self.tmp / "state"
        self.state.mkdir(parents=True, exist_ok=True)
        self.engine = open_engine(self.db or paths.db_url(self.state))  # NOMICPOKER_DB, else SQLite
        service.create_table(self.engine, self.state, self.name, list(self.players), self.stack,
                             ruleset=self.ruleset, issue_decks=self.issue_decks,
                             deadline_hours=self.deadline_hours, settings=self.settings)
        self.forum = LocalForum(forum_db_path(self.state))
        self.seen = 0
        self.thread = ""
        self.p: dict[str, Player] = {}

    def start(self, ante: int = 5, secrets: HandSecrets | None = None, blinds: tuple[int, ...] = (), now=None):
        with Session(self.engine) as s:
            number = len(ledger.hand_rows(s, self.name)) + 1
        value = secrets or fixed_secrets(f"{self.seed}:{number}")
        secrets_store.write(self.state, self.name, number, value)
        self.hands[number] = value
        started = service.start_hand(self.engine, self.state, self.name, ante, blinds=blinds,
                                     **({"now": now} if now else {}))
        assert not started.report.error, started.report.error
        self.thread = started.thread
        self.seen = 0
        self.p = {n: Player(n, self.forum, started.thread) for n in self.players}
        return started

    def poll(self, forum_factory=None, **kw):
        kwargs = {"forum_factory": forum_factory} if forum_factory else {}
        report = poll_mod.poll(self.engine, self.state, **kwargs, **kw)
        return report

    def run(self) -> None:
        report = self.poll()
        assert report.ok, [t.error for t in report.tables]

    def draw(self, number: int, who: tuple[str, ...] | None = None) -> None:
        draw_all([self.p[n] for n in (who or self.seated())], number, self.run)

    def seated(self) -> tuple[str, ...]:
        with Session(self.engine) as s:
            h = ledger.hand_rows(s, self.name)[-1]
            return tuple(n for n, _ in __import__("json").loads(h.seats))

    def act(self, who: str, body: str) -> list[str]:
        """Post as ``who``, poll, and return the dealer comments that run posted."""
        self.p[who].say(body)
        self.run()
        return self.new_dealer()

    def comments(self):
        return self.forum.list_comments(self.thread)

    def dealer_bodies(self) -> list[str]:
        return [c.body for c in self.comments() if c.author == "Dealer"]

    def dealer_bodies_all(self) -> list[str]:
        """The dealer's comments in every thread of the forum (all hands)."""
        return [c.body for th in self.forum.threads() for c in self.forum.list_comments(th.ref)
                if c.author == "Dealer"]

    def new_dealer(self) -> list[str]:
        bodies = self.dealer_bodies()
        new = bodies[self.seen:]
        self.seen = len(bodies)
        return new

    def money(self) -> dict[str, int]:
        with Session(self.engine) as s:
            return {r.player: r.money for r in ledger.gndt(s, ledger.get_table(s, self.name))}

    def gndt(self):
        with Session(self.engine) as s:
            return {r.player: (r.money, r.turn, r.pot) for r in ledger.gndt(s, ledger.get_table(s, self.name))}

    def sql(self) -> "Sql":
        """A connection to the ledger for tampering and inspection in raw SQL, on SQLite and
        PostgreSQL alike (``?`` placeholders)."""
        return Sql(self.engine)

    def verdicts(self):
        with Session(self.engine) as s:
            return ledger.stored_rows(s, self.name, "verdict")


class Sql:
    """The few DB-API calls the tests use (``execute`` with ``?`` placeholders, ``commit``,
    ``close``) over an SQLAlchemy connection, so a test that edits the ledger by hand runs on
    SQLite and PostgreSQL alike."""

    def __init__(self, engine) -> None:  # type: ignore[no-untyped-def]
        self.conn = engine.connect()

    def execute(self, query: str, params: tuple = ()):  # type: ignore[no-untyped-def]
        from sqlalchemy import text

        parts = query.split("?")
        named = "".join(p + (f":p{i}" if i < len(parts) - 1 else "") for i, p in enumerate(parts))
        return self.conn.execute(text(named), {f"p{i}": v for i, v in enumerate(params)})

    def commit(self) -> None:
        self.conn.commit()

    def close(self) -> None:
        self.conn.close()
