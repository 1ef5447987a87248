"""The embedded local forum: threads, comments and private inboxes in one SQLite file.

It is the default forum and the one ``nomicpoker demo`` and the tests play on, so it behaves
like the real forums the poll cycle meets: comments have stable ids and UTC timestamps, an
edit keeps the id and sets ``edited``, a deletion leaves a ``[deleted]`` placeholder (as Reddit
does) whose action the ledger keeps. Players post with :meth:`LocalForum.post_as`; the Dealer
posts with :meth:`LocalForum.post_comment`.

Why stdlib ``sqlite3`` and a connection per call: the poll cycle (cron) and a player typing
``nomicpoker forum post`` are two processes on one file. WAL lets readers run beside a writer,
``busy_timeout`` waits instead of failing, and ``BEGIN IMMEDIATE`` takes the write lock up
front so two writers never deadlock half-way through a transaction. Short-lived connections
mean no process holds a lock between calls.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, Sequence

from nomicpoker.ports import Abilities, ForumError, PrivateMessage, RemoteComment, carries_tag, tag_key

Clock = Callable[[], datetime]

DELETED_BODY = "[deleted]"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT UNIQUE,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    author TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id INTEGER NOT NULL REFERENCES threads(id),
    parent_id INTEGER REFERENCES comments(id),
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created TEXT NOT NULL,
    edited TEXT,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS comments_thread ON comments(thread_id, id);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient TEXT NOT NULL,
    sender TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_recipient ON messages(recipient, id);
-- how many times each thread or a comment in it changed (kept by the triggers below, whoever
-- writes the file): what LocalForum.marks reads, so a poll learns which tables moved with one
-- row per thread instead of reading every comment
CREATE TABLE IF NOT EXISTS thread_changes (
    thread_id INTEGER PRIMARY KEY,
    n INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS thread_changes_comment_insert AFTER INSERT ON comments BEGIN
    INSERT INTO thread_changes (thread_id, n) VALUES (NEW.thread_id, 1)
        ON CONFLICT (thread_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS thread_changes_comment_update AFTER UPDATE ON comments BEGIN
    INSERT INTO thread_changes (thread_id, n) VALUES (NEW.thread_id, 1)
        ON CONFLICT (thread_id) DO UPDATE SET n = n + 1;
    INSERT INTO thread_changes (thread_id, n) VALUES (OLD.thread_id, 1)
        ON CONFLICT (thread_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS thread_changes_comment_delete AFTER DELETE ON comments BEGIN
    INSERT INTO thread_changes (thread_id, n) VALUES (OLD.thread_id, 1)
        ON CONFLICT (thread_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS thread_changes_thread_update AFTER UPDATE ON threads BEGIN
    INSERT INTO thread_changes (thread_id, n) VALUES (NEW.id, 1)
        ON CONFLICT (thread_id) DO UPDATE SET n = n + 1;
END;
-- the messages are only ever added; one changed or removed from outside counts here
CREATE TABLE IF NOT EXISTS inbox_changes (
    recipient TEXT PRIMARY KEY,
    n INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS inbox_changes_update AFTER UPDATE ON messages BEGIN
    INSERT INTO inbox_changes (recipient, n) VALUES (OLD.recipient, 1)
        ON CONFLICT (recipient) DO UPDATE SET n = n + 1;
    INSERT INTO inbox_changes (recipient, n) VALUES (NEW.recipient, 1)
        ON CONFLICT (recipient) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS inbox_changes_delete AFTER DELETE ON messages BEGIN
    INSERT INTO inbox_changes (recipient, n) VALUES (OLD.recipient, 1)
        ON CONFLICT (recipient) DO UPDATE SET n = n + 1;
END;
"""

#: forum files whose schema this process has set up (:meth:`LocalForum._schema_key`)
_READY: set[tuple[str, int, int]] = set()

#: one idle connection per forum file while a :class:`LocalForum` of it is alive in this
#: process: [connection, forums alive] (see :func:`_hold`)
_HELD: dict[tuple[str, int, int], list] = {}
_HELD_LOCK = threading.Lock()


def _hold(key: tuple[str, int, int], path: Path) -> bool:
    """Keep one connection to the forum file open, idle (no transaction, no lock beyond WAL's
    shared read mark), while a forum of it is alive.

    WHY: each call opens and closes its own connection (the module docstring), and in WAL
    mode the last connection to close checkpoints the log into the file and deletes it: a
    poll working on a tournament's 100 tables paid that three times a table (its listing, its
    inbox, its post), ~1.5 ms of CPU each time. With this one open, a call's close is never
    the last: SQLite checkpoints as it always does once the log reaches its limit, and when
    the last forum of the file goes. It reads nothing and writes nothing."""
    with _HELD_LOCK:
        entry = _HELD.get(key)
        if entry is None:
            try:
                conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
                conn.execute("SELECT 1 FROM threads LIMIT 1").fetchall()  # maps the WAL index
            except sqlite3.Error:
                return False
            entry = _HELD[key] = [conn, 0]
        entry[1] += 1
        return True


def _release(key: tuple[str, int, int]) -> None:
    with _HELD_LOCK:
        entry = _HELD.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _HELD[key]
            try:
                entry[0].close()
            except sqlite3.Error:  # pragma: no cover - nothing to release then
                pass

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")

#: The embedded forum's file in a state folder when the table's config names no ``path``.
STATE_FILE = "forum.db"


def state_forum_path(state: Path) -> Path:
    """Where the embedded forum of the state folder ``state`` lives (``init``, the demo, a
    ``local`` table without a ``path``). WHY here: the adapter owns its defaults (the blog's
    page cache is ``<state>/blognomic-cache`` the same way), so the registry never imports the
    shell; the shell asks the composition root (:mod:`nomicpoker.shell.cycle.forums`)."""
    return state / STATE_FILE


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ForumError("config", "the local forum's clock must return timezone-aware datetimes")
    return moment.astimezone(timezone.utc).isoformat()


def _parse(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True)
class LocalThread:
    """A story post on the local forum. ``ref`` is what tables store: the slug if it has one,
    else the numeric id as a string."""

    id: int
    ref: str
    slug: str | None
    title: str
    body: str
    author: str
    created: datetime


class LocalForum:
    """The Forum protocol on a local SQLite file, plus what players and tests need.

    ``dealer`` is the account the poll cycle posts as. ``clock`` returns aware datetimes; tests
    inject a fixed or stepping clock so timestamps are reproducible.
    """

    name = "local"
    #: The embedded forum: Markdown, private messages the Dealer can read back, story posts
    #: the Dealer creates and finds again; no dice roller (the bot rolls) and no moderation.
    abilities = Abilities(dice="bot", private_send=True, private_read=True, markup="markdown",
                          edits_visible=True, create_thread=True, find_thread=True,
                          login=False, private_inbox=True, fingerprint=True, cli_players=True)

    def __init__(self, path: Path | str, dealer: str = "Dealer", clock: Clock | None = None):
        self.path = Path(path)
        self.dealer = dealer
        self._clock: Clock = clock or _utcnow
        try:
            key = self._schema_key()
            if key is None or key not in _READY:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self._connect() as conn:
                    conn.execute("PRAGMA journal_mode=WAL")
                    conn.executescript(_SCHEMA)
                key = self._schema_key()
                if key is not None:
                    _READY.add(key)
        except (OSError, sqlite3.Error) as exc:
            raise ForumError("config", f"cannot open the local forum at {self.path}: {exc}") from exc
        if key is not None and _hold(key, self.path):
            weakref.finalize(self, _release, key)

    def _schema_key(self) -> tuple[str, int, int] | None:
        """The file as this process last set its schema up (path, inode, device); None when it
        is not there. WHY: a poll opens the forum once per table, and setting the schema up
        (the WAL pragma, the tables and triggers) is most of an open; a file replaced or
        removed since has another key (or none) and is set up again."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (str(self.path.resolve()), st.st_ino, st.st_dev)

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA foreign_keys=ON")
            yield conn
        except sqlite3.IntegrityError:
            raise  # the callers that expect one handle it
        except sqlite3.DatabaseError as exc:
            # A damaged, locked, full or read-only forum file: one coded line for the poll's
            # report instead of a traceback; nothing of the ledger's transaction is stored.
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise ForumError("network", f"the local forum {self.path} is busy: {text}", retry=True) from exc
            damaged = "malformed" in text or "not a database" in text
            if not damaged and ("disk" in text or "full" in text or "readonly" in text):
                raise ForumError("storage", f"cannot write the local forum {self.path} ({text}: the "
                                 "disk may be full or the file read-only)", retry=True) from exc
            raise ForumError("storage", f"the local forum {self.path} cannot be used ({text}): "
                             "restore it from a backup (or sqlite3 FILE .recover)") from exc
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: take the write lock first, commit or roll back."""
        with self._connect() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise ForumError("network", f"local forum is busy: {exc}", retry=True) from exc
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _now(self) -> str:
        return _iso(self._clock())

    def _thread_id(self, conn: sqlite3.Connection, thread: str) -> int:
        ref = str(thread).strip()
        row = None
        if ref.isascii() and ref.isdigit() and len(ref) <= 18:  # SQLite integers are 64-bit  # '²'.isdigit() is true; int() refuses it
            row = conn.execute("SELECT id FROM threads WHERE id = ?", (int(ref),)).fetchone()
        if row is None:
            row = conn.execute("SELECT id FROM threads WHERE slug = ?", (ref,)).fetchone()
        if row is None:
            raise ForumError("not_found", f"no thread {ref!r} on the local forum")
        return int(row["id"])

    def _comment_row(self, conn: sqlite3.Connection, comment_id: str) -> sqlite3.Row:
        ref = str(comment_id).strip()
        row = None
        if ref.isascii() and ref.isdigit() and len(ref) <= 18:  # SQLite integers are 64-bit
            row = conn.execute("SELECT * FROM comments WHERE id = ?", (int(ref),)).fetchone()
        if row is None:
            raise ForumError("not_found", f"no comment {ref!r} on the local forum")
        return row

    @staticmethod
    def _thread_value(row: sqlite3.Row) -> LocalThread:
        return LocalThread(
            id=int(row["id"]),
            ref=row["slug"] or str(row["id"]),
            slug=row["slug"],
            title=row["title"],
            body=row["body"],
            author=row["author"],
            created=_parse(row["created"]),  # type: ignore[arg-type]
        )

    @staticmethod
    def _comment_value(row: sqlite3.Row, thread_ref: str) -> RemoteComment:
        deleted = bool(row["deleted"])
        return RemoteComment(
            id=str(row["id"]),
            author=row["author"],
            created=_parse(row["created"]),  # type: ignore[arg-type]
            body=DELETED_BODY if deleted else row["body"],
            body_format="markdown",
            edited=_parse(row["edited"]),
            deleted=deleted,
            parent_id=None if row["parent_id"] is None else str(row["parent_id"]),
            permalink=f"local:{thread_ref}#comment-{row['id']}",
        )

    # -- the Forum protocol ---------------------------------------------------------------

    def list_comments(self, thread: str) -> list[RemoteComment]:
        """Every comment in posting order (ids ascend with time), deleted ones as placeholders."""
        with self._connect() as conn:
            tid = self._thread_id(conn, thread)
            trow = conn.execute("SELECT * FROM threads WHERE id = ?", (tid,)).fetchone()
            ref = self._thread_value(trow).ref
            rows = conn.execute(
                "SELECT * FROM comments WHERE thread_id = ? ORDER BY id", (tid,)
            ).fetchall()
        return [self._comment_value(r, ref) for r in rows]

    def post_comment(
        self, thread: str, body: str, reply_to: str | None = None, *, tag: str | None = None
    ) -> str:
        """Post as the dealer account. ``tag`` is accepted for the protocol; a local insert
        is never retried, so there are no duplicates to look for."""
        return self.post_as(self.dealer, thread, body, reply_to=reply_to)

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        """The oldest live dealer comment in ``thread`` whose reference tag is ``tag``."""
        if not tag or not tag_key(tag):
            raise ForumError("config", "find_comment_with needs a non-empty tag")
        with self._connect() as conn:
            tid = self._thread_id(conn, thread)
            rows = conn.execute(
                "SELECT id, body FROM comments WHERE thread_id = ? AND author = ? AND deleted = 0"
                " ORDER BY id",
                (tid, self.dealer),
            ).fetchall()
        for row in rows:
            if carries_tag(row["body"], tag):
                return str(row["id"])
        return None

    def create_thread(self, title: str, body: str, slug: str | None = None) -> str:
        """Create a story post by the dealer; return its reference (the slug, or the id)."""
        return self.create_thread_as(self.dealer, title, body, slug=slug)

    def send_private(self, user: str, subject: str, body: str) -> str:
        """Deliver to ``user``'s inbox from the dealer; return the message id."""
        user = user.strip()
        if not user:
            raise ForumError("comment_refused", "a private message needs a recipient")
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO messages (recipient, sender, subject, body, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (user, self.dealer, subject, body, self._now()),
            )
            return f"m{cur.lastrowid}"

    def check(self) -> list[tuple[str, bool, str]]:
        """The file opens and answers a query; the dealer account needs no login here."""
        try:
            with self._connect() as conn:
                count = conn.execute("SELECT COUNT(*) FROM threads").fetchone()[0]
                mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        except sqlite3.Error as exc:
            return [("local forum database", False, f"{self.path}: {exc}")]
        return [
            ("local forum database", True, f"{self.path} ({count} threads, journal {mode})"),
            ("dealer account", True, f"posting as {self.dealer!r} (no login on the local forum)"),
        ]

    def fingerprint(self, threads: Sequence[str]) -> str:
        """A digest of every row a poll reads for ``threads`` (each thread's own row and all
        its comments, whatever their state) and of the Dealer's inbox, in one read
        transaction, with the file's resolved path and the dealer's name (``Fingerprinted``:
        the idle check compares it with the digest of an idle full poll)."""
        h = hashlib.sha256()

        def put(*parts: object) -> None:
            data = repr(parts).encode("utf-8")
            h.update(len(data).to_bytes(8, "big"))
            h.update(data)

        put(str(self.path.resolve()), self.dealer)
        with self._connect() as conn:
            conn.execute("BEGIN")
            try:
                for thread in threads:
                    tid = self._thread_id(conn, thread)
                    put("thread", thread, tuple(conn.execute("SELECT * FROM threads WHERE id = ?", (tid,)).fetchone()))
                    for row in conn.execute("SELECT * FROM comments WHERE thread_id = ? ORDER BY id", (tid,)):
                        put(tuple(row))
                for row in conn.execute("SELECT * FROM messages WHERE recipient = ? ORDER BY id", (self.dealer,)):
                    put("message", tuple(row))
            finally:
                conn.execute("COMMIT")
        return h.hexdigest()

    def marks(self, threads: Sequence[str]) -> tuple[dict[str, str], str, tuple[tuple[str, str], ...]]:
        """Cheap change marks (``Fingerprinted.marks``): for each of ``threads`` a token that
        changes whenever the thread or any comment in it is added, edited or deleted (the
        change counter the triggers keep, with the comments' count and last id); a token of
        the Dealer's inbox as a whole (its messages changed or removed: never by nomicpoker);
        and its messages as (message id, sender) pairs. One read transaction; a thread not
        found is marked ``missing``."""
        out: dict[str, str] = {}
        with self._connect() as conn:
            conn.execute("BEGIN")
            try:
                for thread in threads:
                    try:
                        tid = self._thread_id(conn, thread)
                    except ForumError:
                        out[thread] = "missing"
                        continue
                    n = conn.execute("SELECT n FROM thread_changes WHERE thread_id = ?", (tid,)).fetchone()
                    count, last = conn.execute("SELECT COUNT(*), MAX(id) FROM comments WHERE thread_id = ?",
                                               (tid,)).fetchone()
                    out[thread] = f"{tid}:{n[0] if n else 0}:{count}:{last}"
                changed = conn.execute("SELECT n FROM inbox_changes WHERE recipient = ?", (self.dealer,)).fetchone()
                inbox = tuple((f"m{r[0]}", r[1]) for r in conn.execute(
                    "SELECT id, sender FROM messages WHERE recipient = ? ORDER BY id", (self.dealer,)))
            finally:
                conn.execute("COMMIT")
        return out, f"{self.path.resolve()}:{self.dealer}:{changed[0] if changed else 0}", inbox

    # -- what players, the CLI and tests need ---------------------------------------------

    def create_thread_as(self, author: str, title: str, body: str, slug: str | None = None) -> str:
        if slug is not None and not _SLUG.match(slug):
            raise ForumError("config", f"bad thread slug {slug!r}: use a-z, 0-9 and '-'")
        if slug is not None and slug.isdigit():
            raise ForumError("config", f"thread slug {slug!r} must not be all digits")
        with self._write() as conn:
            try:
                cur = conn.execute(
                    "INSERT INTO threads (slug, title, body, author, created) VALUES (?, ?, ?, ?, ?)",
                    (slug, title, body, author, self._now()),
                )
            except sqlite3.IntegrityError as exc:
                raise ForumError("comment_refused", f"thread slug {slug!r} is taken") from exc
            return slug or str(cur.lastrowid)

    def post_as(self, author: str, thread: str, body: str, reply_to: str | None = None) -> str:
        """Post ``body`` in ``thread`` as ``author``; return the new comment id."""
        author = author.strip()
        if not author:
            raise ForumError("comment_refused", "a comment needs an author")
        if not body.strip():
            raise ForumError("comment_refused", "an empty comment is not posted")
        with self._write() as conn:
            tid = self._thread_id(conn, thread)
            parent = None
            if reply_to is not None:
                prow = self._comment_row(conn, reply_to)
                if prow["thread_id"] != tid:
                    raise ForumError(
                        "comment_refused", f"comment {reply_to} is not in thread {thread}"
                    )
                parent = int(prow["id"])
            cur = conn.execute(
                "INSERT INTO comments (thread_id, parent_id, author, body, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (tid, parent, author, body, self._now()),
            )
            return str(cur.lastrowid)

    def edit_comment(self, comment_id: str, body: str, author: str | None = None) -> None:
        """Replace a comment's body and stamp ``edited``. With ``author``, only its own author
        may edit it (the CLI passes ``--as``)."""
        if not body.strip():
            raise ForumError("comment_refused", "an edit cannot empty a comment; delete it instead")
        with self._write() as conn:
            row = self._comment_row(conn, comment_id)
            self._check_owner(row, author, "edit")
            if row["deleted"]:
                raise ForumError("comment_refused", f"comment {comment_id} is deleted")
            conn.execute(
                "UPDATE comments SET body = ?, edited = ? WHERE id = ?",
                (body, self._now(), int(row["id"])),
            )

    def delete_comment(self, comment_id: str, author: str | None = None) -> None:
        """Mark a comment deleted; it stays listed as a placeholder, in its place."""
        with self._write() as conn:
            row = self._comment_row(conn, comment_id)
            self._check_owner(row, author, "delete")
            conn.execute("UPDATE comments SET deleted = 1 WHERE id = ?", (int(row["id"]),))

    @staticmethod
    def _check_owner(row: sqlite3.Row, author: str | None, verb: str) -> None:
        if author is not None and row["author"] != author:
            raise ForumError(
                "comment_refused",
                f"{author} cannot {verb} comment {row['id']}: it was posted by {row['author']}",
            )

    def inbox(self, user: str) -> list[PrivateMessage]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT * FROM messages WHERE recipient = ? ORDER BY id", (user,)
            ).fetchall()
        return [
            PrivateMessage(
                id=f"m{r['id']}",
                recipient=r["recipient"],
                sender=r["sender"],
                subject=r["subject"],
                body=r["body"],
                created=_parse(r["created"]),  # type: ignore[arg-type]
            )
            for r in rows
        ]

    def sent_private(self, user: str) -> list[PrivateMessage]:
        """The dealer's private messages to ``user`` (the port's read-back)."""
        return [m for m in self.inbox(user) if m.sender == self.dealer]

    def received_private(self) -> list[PrivateMessage]:
        """The dealer's inbox: what players sent it (advance actions), oldest first."""
        return [m for m in self.inbox(self.dealer) if m.sender != self.dealer]

    def mark_read(self, ids: Sequence[str]) -> int:
        """Nothing to mark: the listing is the whole thread each time (``abilities.mark_read``)."""
        return 0

    def enrol(self, table: str, players: Sequence[str]) -> list[str]:
        """Players are known by their account names here (``abilities.player_ids``)."""
        return []

    def send_private_as(self, sender: str, user: str, subject: str, body: str) -> str:
        """A player's private message (to the dealer, say); return the message id."""
        sender, user = sender.strip(), user.strip()
        if not sender or not user:
            raise ForumError("comment_refused", "a private message needs a sender and a recipient")
        if not body.strip():
            raise ForumError("comment_refused", "an empty private message is not sent")
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO messages (recipient, sender, subject, body, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (user, sender, subject, body, self._now()),
            )
            return f"m{cur.lastrowid}"

    def find_thread_with(self, tag: str) -> str | None:
        """A story post by the dealer whose reference tag is ``tag``."""
        for t in self.threads():
            if t.author == self.dealer and carries_tag(t.body, tag):
                return t.ref
        return None

    def threads(self) -> list[LocalThread]:
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM threads ORDER BY id").fetchall()
        return [self._thread_value(r) for r in rows]

    def thread(self, ref: str) -> LocalThread:
        with self._connect() as conn:
            tid = self._thread_id(conn, ref)
            row = conn.execute("SELECT * FROM threads WHERE id = ?", (tid,)).fetchone()
        return self._thread_value(row)
