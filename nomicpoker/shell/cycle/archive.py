"""The comment archive (shell): what the forum showed, kept as it was, revision by revision.

The archive is the fold's main input (``np_comment``): rows are appended, never updated, so
an edit or a deletion is a new revision and the first reading of a comment stays on record.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import timezone
from pathlib import Path
from typing import Sequence

from sqlalchemy import insert
from sqlmodel import Session

from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.reading.markup import storable
from nomicpoker.ports import Forum, PrivateMessage, RemoteComment
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.plain_sql import plain
from nomicpoker.shell.storage.store import CommentRow, TableRow, dumps
from nomicpoker.shell.cycle.private_inbox import archive_private, players_see_thread, record_unnamed, rosters
from nomicpoker.shell.storage.sealed_inputs import Sealer, commitment_in, sealer_for


def _sha(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def archive(session: Session, table: str, thread: str, comments: Sequence[RemoteComment], now: str,
            dealer: str | None = None, sealer: Sealer | None = None) -> int:
    """Append new comments and new revisions (edits, deletions) to the archive; never update a
    row. Returns the number of rows added, not counting the dealer's own comments. ``sealer``:
    a revision it applies to (a player's message at a table whose players do not read the
    thread) is archived sealed, its text kept with the secrets (:mod:`~nomicpoker.shell.storage.sealed_inputs`)."""
    # Only the four columns the comparison needs, as plain tuples: an idle poll compares the
    # whole listing with the archive, and building one ORM object per archived revision
    # (~0.1 ms each, pydantic included) made that cost grow with the thread's history.
    # Sorted here, not by the query: with ORDER BY id SQLite's planner walks the whole table's
    # archive in the table_name index (in id order) and filters the thread, which grew with
    # the table's history (~6 ms at 15,900 revisions); without it, it seeks the thread in the
    # (table_name, thread, forum_id, revision) unique index (~0.1 ms).
    # Read and written as plain columns through the session's connection (no ORM object or
    # unit of work: ~0.5 ms a table polled, issue 24), after a flush as an ORM query would.
    session.flush()
    conn = session.connection()
    t = CommentRow.__table__  # type: ignore[attr-defined]
    latest: dict[str, tuple[int, bool, str]] = {}
    for _, fid, revision, was_deleted, body in sorted(plain(
            session, "SELECT id, forum_id, revision, deleted, body FROM np_comment "
                     "WHERE table_name = :t AND thread = :th", {"t": table, "th": thread})):
        latest[fid] = (revision, bool(was_deleted), body)
    added = 0
    for c in comments:
        # A lone surrogate (a broken emoji from an adapter) can be neither stored nor posted:
        # archive what a reader sees, U+FFFD, so no later poll of the table fails on it.
        body, author = storable(c.body), storable(c.author)
        if body != c.body or author != c.author:
            c = replace(c, body=body, author=author)
        prev = latest.get(c.id)
        deleted = bool(c.deleted)
        if prev is not None:
            prev_revision, prev_deleted, prev_body = prev
            if sealer is not None and commitment_in(prev_body) is not None:
                # compare the listing with the text, not its seal (read only for a message
                # listed again: an e-mail table lists only the mail not yet marked archived)
                prev_body = sealer.text(prev_body)  # type: ignore[assignment]
            # (a sealed text not in the secrets folder, None, is taken as unchanged: a listing
            # cannot be compared with it, and a revision from nothing would be a false edit)
            if prev_deleted or (deleted == prev_deleted and (prev_body is None or c.body == prev_body)):
                continue
            body = (prev_body or "") if deleted else c.body  # a deletion keeps the text it had
        else:
            body = c.body
        text, revision = body, (prev[0] + 1) if prev else 1
        if sealer is not None and sealer.applies(thread, c.author):
            body = sealer.seal(body, thread, c.id, revision)
        edited = c.edited.astimezone(timezone.utc).isoformat() if c.edited else None
        row = CommentRow(
            table_name=table, thread=thread, forum_id=c.id,
            revision=revision, author=c.author,
            created=c.created.astimezone(timezone.utc).isoformat(), edited=edited, body=body,
            body_format=c.body_format, sha256=_sha(body), deleted=deleted,
            dice=dumps(list(c.dice)), permalink=c.permalink, fetched_at=now,
        )
        # inserted as its values, not added to the session: no unit of work to flush
        conn.execute(insert(t), {col.name: getattr(row, col.name) for col in t.columns if col.name != "id"})
        latest[c.id] = (revision, deleted, text)
        added += dealer is None or not same_account(c.author, dealer)
    return added


def threads_to_poll(session: Session, table: str) -> list[str]:
    """The threads of the table's last two hands: the running one, and the one before it,
    where late comments (an edit, a reveal after the payout) may still arrive and must be
    archived for the replay to note them. Older threads are closed for good."""
    out: list[str] = []
    for thread in ledger.last_threads(session, table, 2):
        if thread not in out:
            out.append(thread)
    return out


#: the Dealer's inbox as listed once in a poll, per forum (:func:`inbox_key`)
Inboxes = dict[str, list[PrivateMessage]]


def inbox_key(table: TableRow) -> str:
    """Which forum (and so which Dealer's inbox) a table is on: its kind and configuration."""
    return json.dumps([table.forum_kind, table.forum_config])


def archive_table(session: Session, table: TableRow, forum: Forum, now: str, state: Path,
                  inboxes: Inboxes | None = None) -> tuple[int, dict[str, list[RemoteComment]]]:
    """List and archive every thread the table still polls, then the private messages for it
    (:mod:`nomicpoker.shell.cycle.private_inbox`); return the number of new revisions (not the
    dealer's) and each thread's listing (for the outbox's posted tags). A private input is
    archived sealed, its text kept in ``state``'s secrets folder
    (:mod:`nomicpoker.shell.storage.sealed_inputs`).

    ``inboxes``: the Dealer's inbox listed once per forum for a whole poll (the poll of many
    tables on one forum, a tournament's, listed it once for each table: issue 24); a message
    that arrives after the listing is archived by the next poll, as if this table had been
    polled first (the poll's marks see it arrive: :mod:`nomicpoker.shell.cycle.moved`). None:
    listed here."""
    added = 0
    listings: dict[str, list[RemoteComment]] = {}
    see = players_see_thread(table)  # as the table's forum declares it (and withheld() reads it)
    sealer = sealer_for(state, table, see)
    for thread in threads_to_poll(session, table.name):
        comments = list(forum.list_comments(thread))
        listings[thread] = comments
        added += archive(session, table.name, thread, comments, now, dealer=table.dealer,
                         sealer=None if see else sealer)
    if forum.abilities.private_inbox:  # one listing (a request on Reddit) for both
        if inboxes is None:
            inbox = list(forum.received_private())
        else:
            key = inbox_key(table)
            if key not in inboxes:
                inboxes[key] = list(forum.received_private())
            inbox = inboxes[key]
        players_of = rosters(session)  # the table's roster, read once for both
        added += archive_private(session, table, forum, now, inbox, sealer=sealer, players_of=players_of)
        # it reached none of the sender's tables
        added += record_unnamed(session, table, forum, now, inbox, players_of=players_of)
    return added, listings
