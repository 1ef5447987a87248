"""The IRC log: every line said in the table's channel, kept in one SQLite file with a stable id.

IRC keeps no history: a line exists only as it passes. So the bridge (``nomicpoker serve``,
:mod:`nomicpoker.adapters.irc.bridge`) writes each line it receives here *before* doing
anything else with it, and the IRC forum adapter (:mod:`nomicpoker.adapters.irc.forum`) reads its
"comments" from here. The poll cycle, ``hand start`` and the audit therefore see IRC exactly as
they see any forum: a thread of comments with stable ids, oldest first.

The other direction is a spool: what the Dealer posts (a channel comment, a story post, a
private message with hole cards) is written here by whichever process runs the poll, and the
bridge transmits it line by line, recording its progress per line (``sent_lines``). So a
``hand start`` typed in another shell, or a cron ``poll``, needs no IRC connection of its own,
and a dealer comment is "posted" (for the ledger) the moment it is in the spool: the reference
tag search (:meth:`IrcLog.find_out`) finds it there after a crash and it is never queued twice.

Threads: a hand's story post opens a *thread* in the channel; every line said in the channel
afterwards belongs to the newest thread (the hand being played), as the players see it.

Why stdlib ``sqlite3``, WAL, short connections: the same reasons as the local forum (two
processes, the bridge and a poll, on one file).
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from nomicpoker.ports import ForumError, carries_tag

_SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    network TEXT NOT NULL,
    channel TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    author TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    network TEXT NOT NULL,
    target TEXT NOT NULL,          -- the channel, or the nick a private message goes to / came from
    thread_id INTEGER REFERENCES threads(id),
    direction TEXT NOT NULL,       -- 'in' (said by someone) or 'out' (the Dealer's)
    kind TEXT NOT NULL,            -- 'channel', 'story', 'private'
    author TEXT NOT NULL,
    subject TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,            -- as said on IRC (in) or as queued (out)
    body TEXT NOT NULL,            -- what the fold reads (an @ command in the grammar's words)
    created TEXT NOT NULL,
    msgid TEXT UNIQUE,             -- the server's IRCv3 msgid, when it gives one (replays dedupe)
    sent_lines INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lines_thread ON lines(thread_id, id);
CREATE INDEX IF NOT EXISTS lines_spool ON lines(network, direction, done, id);
CREATE TABLE IF NOT EXISTS bridge (
    network TEXT PRIMARY KEY,
    nick TEXT NOT NULL,
    seen TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class LogLine:
    """One row of the log."""

    id: int
    network: str
    target: str
    thread_id: int | None
    direction: str
    kind: str
    author: str
    subject: str
    text: str
    body: str
    created: str
    sent_lines: int
    done: bool


@dataclass(frozen=True)
class LogThread:
    id: int
    network: str
    channel: str
    title: str
    body: str
    author: str
    created: str

    @property
    def ref(self) -> str:
        return thread_ref(self.channel, self.id)


def thread_ref(channel: str, thread_id: int) -> str:
    """What a table stores as a hand's thread: ``#channel/7``."""
    return f"{channel}/{thread_id}"


def parse_thread_ref(ref: str) -> tuple[str, int]:
    channel, _, number = str(ref).strip().rpartition("/")
    if not channel or not (number.isascii() and number.isdigit()):
        raise ForumError("not_found", f"no IRC thread {ref!r} (a thread is written #channel/N)")
    return channel, int(number)


class IrcLog:
    """The log file of one state directory; ``network`` names the server (``host:port``) so
    two networks' channels of the same name stay apart."""

    def __init__(self, path: Path | str, network: str):
        self.path = Path(path)
        self.network = network
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise ForumError("config", f"cannot open the IRC log at {self.path}: {exc}") from exc

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise ForumError("storage", f"cannot open the IRC log {self.path}: {exc}") from exc
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=30000")
            yield conn
        except sqlite3.IntegrityError:
            raise
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise ForumError("network", f"the IRC log {self.path} is busy: {text}", retry=True) from exc
            raise ForumError("storage", f"the IRC log {self.path} cannot be used ({text})") from exc
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @staticmethod
    def _line(row: sqlite3.Row) -> LogLine:
        return LogLine(id=row["id"], network=row["network"], target=row["target"],
                       thread_id=row["thread_id"], direction=row["direction"], kind=row["kind"],
                       author=row["author"], subject=row["subject"], text=row["text"],
                       body=row["body"], created=row["created"], sent_lines=row["sent_lines"],
                       done=bool(row["done"]))

    @staticmethod
    def _thread(row: sqlite3.Row) -> LogThread:
        return LogThread(id=row["id"], network=row["network"], channel=row["channel"],
                         title=row["title"], body=row["body"], author=row["author"],
                         created=row["created"])

    # -- threads ----------------------------------------------------------------------------

    def open_thread(self, channel: str, title: str, body: str, author: str, now: str,
                    story_text: str) -> LogThread:
        """Open a thread in ``channel`` and spool its story post, in one transaction."""
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO threads (network, channel, title, body, author, created)"
                " VALUES (?, ?, ?, ?, ?, ?)", (self.network, channel, title, body, author, now))
            tid = int(cur.lastrowid)
            conn.execute(
                "INSERT INTO lines (network, target, thread_id, direction, kind, author, text,"
                " body, created) VALUES (?, ?, ?, 'out', 'story', ?, ?, ?, ?)",
                (self.network, channel, tid, author, story_text, body, now))
        return self.thread(thread_ref(channel, tid))

    def thread(self, ref: str) -> LogThread:
        channel, tid = parse_thread_ref(ref)
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM threads WHERE id = ? AND network = ? AND channel = ?",
                               (tid, self.network, channel)).fetchone()
        if row is None:
            raise ForumError("not_found", f"no IRC thread {ref!r} on {self.network}")
        return self._thread(row)

    def threads(self, channel: str | None = None) -> list[LogThread]:
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM threads WHERE network = ? ORDER BY id",
                                (self.network,)).fetchall()
        return [self._thread(r) for r in rows if channel is None or r["channel"] == channel]

    # -- lines --------------------------------------------------------------------------------

    def record_in(self, target: str, author: str, text: str, body: str, now: str,
                  private: bool = False, msgid: str | None = None) -> int | None:
        """Append a line someone said (to the channel ``target``, or privately to the Dealer);
        return its id, or ``None`` when the server's ``msgid`` shows it is already logged (a
        bouncer's playback after a reconnect). A channel line joins the channel's newest
        thread."""
        with self._write() as conn:
            thread = None
            if not private:
                row = conn.execute("SELECT MAX(id) FROM threads WHERE network = ? AND channel = ?",
                                   (self.network, target)).fetchone()
                thread = row[0]
            try:
                cur = conn.execute(
                    "INSERT INTO lines (network, target, thread_id, direction, kind, author, text,"
                    " body, created, msgid, done) VALUES (?, ?, ?, 'in', ?, ?, ?, ?, ?, ?, 1)",
                    (self.network, target, thread, "private" if private else "channel", author,
                     text, body, now, msgid))
            except sqlite3.IntegrityError:
                return None
            return int(cur.lastrowid)

    def record_out(self, target: str, kind: str, author: str, body: str, now: str,
                   thread_id: int | None = None, subject: str = "", text: str | None = None) -> int:
        """Spool a dealer message for the bridge to transmit (``text``, default ``body``: what
        goes on the wire; ``body`` what the Dealer reads back); return its id."""
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO lines (network, target, thread_id, direction, kind, author, subject,"
                " text, body, created) VALUES (?, ?, ?, 'out', ?, ?, ?, ?, ?, ?)",
                (self.network, target, thread_id, kind, author, subject,
                 body if text is None else text, body, now))
            return int(cur.lastrowid)

    def thread_lines(self, thread_id: int) -> list[LogLine]:
        """The thread's channel lines (the players' and the Dealer's), oldest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM lines WHERE thread_id = ? AND kind = 'channel'"
                                " ORDER BY id", (thread_id,)).fetchall()
        return [self._line(r) for r in rows]

    def find_out(self, tag: str, thread_id: int | None = None, kind: str = "channel") -> int | None:
        """The oldest spooled dealer message carrying ``tag`` (in ``thread_id`` if given)."""
        query = "SELECT id, body FROM lines WHERE network = ? AND direction = 'out' AND kind = ?"
        args: list[object] = [self.network, kind]
        if thread_id is not None:
            query += " AND thread_id = ?"
            args.append(thread_id)
        with self._connect() as conn:
            rows = conn.execute(query + " ORDER BY id", args).fetchall()
        for row in rows:
            if carries_tag(row["body"], tag):
                return int(row["id"])
        return None

    def private_out(self, nick: str) -> list[LogLine]:
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM lines WHERE network = ? AND direction = 'out'"
                                " AND kind = 'private' AND lower(target) = lower(?) ORDER BY id",
                                (self.network, nick)).fetchall()
        return [self._line(r) for r in rows]

    def private_in(self) -> list[LogLine]:
        """Lines players sent the Dealer privately, oldest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM lines WHERE network = ? AND direction = 'in'"
                                " AND kind = 'private' ORDER BY id", (self.network,)).fetchall()
        return [self._line(r) for r in rows]

    def latest_out(self, channel: str) -> LogLine | None:
        """The Dealer's newest channel message in ``channel`` (what ``@status`` repeats)."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM lines WHERE network = ? AND direction = 'out' AND"
                               " kind IN ('channel', 'story') AND target = ? ORDER BY id DESC LIMIT 1",
                               (self.network, channel)).fetchone()
        return None if row is None else self._line(row)

    # -- the spool, for the bridge -------------------------------------------------------------

    def pending(self) -> list[LogLine]:
        """Dealer messages not yet wholly transmitted, oldest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM lines WHERE network = ? AND direction = 'out'"
                                " AND done = 0 ORDER BY id", (self.network,)).fetchall()
        return [self._line(r) for r in rows]

    def progress(self, line_id: int, sent_lines: int, done: bool) -> None:
        with self._write() as conn:
            conn.execute("UPDATE lines SET sent_lines = ?, done = ? WHERE id = ?",
                         (sent_lines, int(done), line_id))

    def heartbeat(self, nick: str, now: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT INTO bridge (network, nick, seen) VALUES (?, ?, ?) ON CONFLICT"
                         "(network) DO UPDATE SET nick = excluded.nick, seen = excluded.seen",
                         (self.network, nick, now))

    def last_heartbeat(self) -> tuple[str, str] | None:
        with self._connect() as conn:
            row = conn.execute("SELECT nick, seen FROM bridge WHERE network = ?",
                               (self.network,)).fetchone()
        return None if row is None else (row["nick"], row["seen"])
