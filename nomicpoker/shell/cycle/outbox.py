"""The outbox (shell): send the dealer's queued messages, once each.

The fold queues every dealer comment and private message as an ``np_outbox`` row; this room
delivers them. WHY it is safe to repeat and to crash: every dealer comment ends with a
reference tag (``[np:KEY]``); before posting, the thread's listing (taken by this run before
anything was sent) is searched for it, so a run that crashed after posting but before
recording marks the comment sent instead of posting again. The post carries the tag's key too
(``post_comment(..., tag=key)``), so an adapter whose client may retry a POST (Reddit) removes
its duplicates by tag, not by body. A private message is looked for among what the Dealer has
sent where the forum lets it read that back (``abilities.private_read``).

What each forum needs is read from its declared abilities, never its name:

- ``markup``: a comment is sent in the forum's dialect (:func:`nomicpoker.core.words.dialects.in_dialect`);
  the stored body stays the renderer's text, so the audit still compares it byte for byte;
- ``min_post_interval``: posts are spaced by at least that many seconds (:class:`Pacer`), and
  consecutive comments on one thread are combined into one post (:mod:`nomicpoker.core.words.delivery`),
  instead of provoking the forum's flood check (WordPress: 429 within 15 s);
- ``moderation``: a comment the forum holds is recorded ``held`` with the held comment's id,
  never posted again, and recorded ``sent`` once its tag shows in the public thread; while one
  is held the rest wait (WordPress holds every comment of an account until its first is
  approved), and the poll report says the account needs approval;
- a refusal the forum marks ``permanent`` (``ForumError.permanent``) parks that one message
  (status ``parked``) with a visible dealer note in its place, and the rest go on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.words import delivery
from nomicpoker.core.words.dialects import in_dialect, text_in_dialect
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.fairness.sealed import is_sealed
from nomicpoker.core.words.tags import find_tag, find_tags, reference_tag
from nomicpoker.ports import Forum, ForumError, RemoteComment
from nomicpoker.shell.cycle.deadlines import Clock, iso
from nomicpoker.shell.storage import ledger
from nomicpoker.shell import logs
from nomicpoker.shell.storage.secrets_store import SecretsError, read_message
from nomicpoker.shell.storage.plain_sql import plain, plain_count
from nomicpoker.shell.storage.store import OutboxRow, transaction

#: thread -> {reference tag key: comment id} of the dealer's comments the forum showed
PostedTags = dict[str, dict[str, str]]

_log = logs.get("outbox")


class Deliveries(Protocol):
    """Where :func:`send_outbox` counts what it did (a poll's ``TableReport``)."""

    sent: int
    already: int
    held: int
    waiting: int
    parked: list[str]


def posted_tags(comments: Sequence[RemoteComment], dealer: str) -> dict[str, str]:
    """The reference tags of the dealer's comments in one listing.

    WHY from the listing the poll has already fetched: asking the forum for each pending
    message's tag is one search (a page scan, or a request) per message, quadratic in a busy
    thread and unkind to a small community's server. The listing is taken before anything is
    sent, so it holds whatever a crashed earlier run posted; what this run posts it records
    itself."""
    found: dict[str, str] = {}
    for c in comments:
        if same_account(c.author, dealer):
            keys = find_tags(c.body)
            last = find_tag(c.body)
            for key in keys + ([last] if last is not None and last not in keys else []):
                found.setdefault(key, c.id)
    return found


def private_subject(subject: str, key: str) -> str:
    """The subject a private message is sent with: its own, then its identity, the row's key
    (``T-h3-012``: the table, the hand and the message's sequence in it), as WRGPT's dealer
    numbers its messages ("Broadcast Message 10008 [a1]"). WHY in the subject and not the
    body: the body stays the fold's text byte for byte (a mail's body digest, a deck a
    player compares), and every forum with private messages keeps a subject."""
    return f"{subject} [np:{key}]"


def already_delivered(forum: Forum, row: OutboxRow, key: str) -> str | None:
    """This private message (``key``), if a run that crashed after sending it delivered it,
    where the forum lets the Dealer read back what it sent (``abilities.private_read``).

    Found by its identity only (:func:`private_subject`), as a comment is found by its
    reference tag: never by its words. WHY: the Dealer sends the same words twice on purpose
    (a second reminder, the answer to a second WHAT); taking an earlier twin for this one lost
    the second message. A message sent by a release that did not tag subjects is not found,
    so a crash in the very run that upgrades may send it once more (a repeat, never a loss)."""
    if not forum.abilities.private_read:
        return None
    for msg in forum.sent_private(row.recipient):
        if find_tag(msg.subject) == key:
            return msg.id
    return None


def private_body(state: Path | None, table: str, row: OutboxRow) -> str:
    """The body to send for a private row: the ledger holds a seal (nomicpoker.core.fairness.sealed),
    the body is in the owner-only secrets folder. (A row stored before bodies were sealed
    still holds its body.)"""
    if not is_sealed(row.body):
        return row.body
    if state is None:
        raise SecretsError("missing", f"the private message {row.key} is sealed in the ledger: "
                           "sending it needs the state folder")
    return read_message(state, table, row.key)


def pending_rows(session: Session, table: str) -> list[OutboxRow]:
    """The table's messages not sent yet, in the order the fold queued them."""
    return _rows(session, table, "pending")


def held_rows(session: Session, table: str) -> list[OutboxRow]:
    """The table's comments the forum holds for moderation (not public yet)."""
    return _rows(session, table, "held")


def _rows(session: Session, table: str, status: str) -> list[OutboxRow]:
    return list(session.exec(select(OutboxRow).where(OutboxRow.table_name == table,
                                                     OutboxRow.status == status)
                             .order_by(OutboxRow.seq)).all())


_WAITING = ("SELECT id, status, kind, thread, reply_to, \"key\", body, recipient, subject, hand "
            "FROM np_outbox WHERE table_name = :t AND status IN ('pending', 'held') ORDER BY seq")


def _waiting(engine: Engine, table: str) -> tuple[list[delivery.Due], list[delivery.Due],
                                                  dict[int, tuple[str, str, int | None]]]:
    """The table's held comments, its pending messages in order, and the
    recipient, subject and hand of each pending private one: what :func:`held_rows` and
    :func:`pending_rows` give, in one query of plain columns."""
    held: list[delivery.Due] = []
    pending: list[delivery.Due] = []
    privates: dict[int, tuple[str, str, int | None]] = {}
    with engine.connect() as conn:
        rows = plain(conn, _WAITING, {"t": table})
        conn.rollback()
    for row_id, status, kind, thread, reply_to, key, body, recipient, subject, hand in rows:
        due = delivery.Due(id=int(row_id or 0), kind=kind, thread=thread, reply_to=reply_to, key=key, body=body)
        (held if status == "held" else pending).append(due)
        if status == "pending" and kind == "private":
            privates[due.id] = (recipient, subject, hand)
    return held, pending, privates


@dataclass
class Pacer:
    """Spaces posts by ``interval`` seconds (the forum's ``min_post_interval``). ``sleep`` and
    ``clock`` are injectable: tests run on a simulated clock the fake forum shares."""

    interval: float = 0.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    last: float | None = None
    waited: list[float] = field(default_factory=list)

    def wait(self) -> None:
        if self.interval > 0 and self.last is not None:
            gap = self.interval - (self.clock() - self.last)
            if gap > 0:
                self.waited.append(gap)
                self.sleep(gap)

    def posted(self) -> None:
        self.last = self.clock()


_MARK = ("UPDATE np_outbox SET status = :status, remote_id = :remote, sent_at = :at "
         "WHERE id = :id AND status IN ('pending', 'held')")


def _mark(engine: Engine, table: str, rows: Sequence[delivery.Due], status: str, remote: str | None,
          at: str) -> None:
    """Record what became of ``rows`` (a row no longer pending or held is left as it
    is), in one transaction of its own: the post it records is made, and a crash before this
    commit is found again by its reference tag. One plain UPDATE a row (no ORM object loaded:
    each cost a poll ~2 ms a table, issue 24)."""
    with transaction(engine) as s:
        for row in rows:
            if plain_count(s, _MARK, {"status": status, "remote": remote, "at": at, "id": int(row.id)}):
                _log.debug("%s: %s %s %s (forum id %s)", table, row.kind, row.key, status, remote)


def _hand_thread(engine: Engine, table: str, hand: int | None) -> str | None:
    with Session(engine) as s:
        for h in ledger.hand_rows(s, table):
            if h.number == hand:
                return h.thread
    return None


def send_outbox(engine: Engine, table: str, forum: Forum, now: Clock, report: Deliveries,
                tags: PostedTags | None = None, pacer: Pacer | None = None,
                state: Path | None = None) -> None:
    """Send pending dealer messages in order (see the module docstring for holds, pacing,
    combining and refusals). Any other forum error propagates and stops the run for this
    table; what was not sent stays pending for the next run. A comment whose tag the thread
    already shows (``tags``, from this run's listing; else the forum is asked) is recorded,
    not posted again."""
    abilities = forum.abilities
    pacer = pacer or Pacer(abilities.min_post_interval)
    if not pacer.interval:
        pacer.interval = abilities.min_post_interval

    def shown(thread: str, key: str) -> str | None:
        if tags is not None and thread in tags:
            return tags[thread].get(key)
        return forum.find_comment_with(thread, f"[np:{key}]")

    held, pending, privates = _waiting(engine, table)
    still_held = 0
    for row in held:
        remote = shown(row.thread, row.key)
        if remote is not None:  # approved: the public thread shows it now
            _mark(engine, table, [row], "sent", remote, iso(now()))
            report.already += 1
        else:
            still_held += 1
    if still_held and abilities.moderation:
        report.held += still_held
        report.waiting += len(pending)
        return
    measure = lambda body: len(in_dialect(body, abilities.markup))  # noqa: E731
    plan = delivery.batches(pending, combine=abilities.min_post_interval > 0 or abilities.combine,
                            max_length=abilities.max_comment_length, measure=measure)
    for n, batch in enumerate(plan):
        if batch[0].kind == "private":
            _send_private(engine, table, forum, now, report, batch[0], privates[batch[0].id],
                          pacer, shown, state)
            continue
        fresh = []
        for row in batch:
            remote = shown(row.thread, row.key)
            if remote is not None:
                _mark(engine, table, [row], "sent", remote, iso(now()))
                report.already += 1
            else:
                fresh.append(row)
        if not fresh:
            continue
        body = delivery.combined_body([r.body for r in fresh]) if len(fresh) > 1 else fresh[0].body
        reply_to = delivery.common_parent(fresh)
        pacer.wait()
        try:
            remote = forum.post_comment(fresh[0].thread, in_dialect(body, abilities.markup),
                                        reply_to=reply_to, tag=fresh[-1].key)
        except ForumError as exc:
            if exc.code == "held":
                pacer.posted()
                _mark(engine, table, fresh, "held", exc.remote_id, iso(now()))
                report.held += len(fresh)
                if abilities.moderation:
                    report.waiting += sum(len(b) for b in plan[n + 1:])
                    return
                continue
            if not exc.permanent:
                raise
            _park_comments(engine, table, forum, now, report, fresh, exc, pacer, shown)
            continue
        pacer.posted()
        _mark(engine, table, fresh, "sent", remote, iso(now()))
        report.sent += len(fresh)


def _park_comments(engine: Engine, table: str, forum: Forum, now: Clock, report: Deliveries,
                   rows: Sequence[delivery.Due], exc: ForumError, pacer: Pacer,
                   shown: Callable[[str, str], str | None]) -> None:
    """A comment the forum refused for good: post it at the top level with a note saying
    why (when it was a reply), else leave it parked with only the report line."""
    note_id: str | None = None
    reply = any(r.reply_to for r in rows)
    if reply:
        body = delivery.refused_reply_note(exc.message, delivery.combined_body([r.body for r in rows])
                                           if len(rows) > 1 else rows[0].body)
        pacer.wait()
        try:
            note_id = forum.post_comment(rows[0].thread, in_dialect(body, forum.abilities.markup),
                                         reply_to=None, tag=rows[-1].key)
            pacer.posted()
        except ForumError as again:
            if not again.permanent:
                raise
    _mark(engine, table, rows, "parked", note_id, iso(now()))
    where = "posted at the top level instead" if note_id else "nothing posted"
    report.parked.append(f"{', '.join(r.key for r in rows)}: {exc.code}: {exc.message} ({where})")


def _send_private(engine: Engine, table: str, forum: Forum, now: Clock, report: Deliveries,
                  due: delivery.Due, meta: tuple[str, str, int | None], pacer: Pacer,
                  shown: Callable[[str, str], str | None], state: Path | None = None) -> None:
    recipient, subject, hand = meta
    with Session(engine) as s:
        row = s.get(OutboxRow, due.id)
        body = private_body(state, table, row) if row is not None else due.body
        body = text_in_dialect(body, forum.abilities.markup)
        remote = already_delivered(forum, row, due.key) if row is not None else None
    if remote is not None:
        _mark(engine, table, [due], "sent", remote, iso(now()))
        report.already += 1
        return
    try:
        remote = forum.send_private(recipient, private_subject(subject, due.key), body)
    except ForumError as exc:
        if not exc.permanent:
            raise
        thread = _hand_thread(engine, table, hand)
        note_id = None
        if thread:
            key = f"{due.key}-refused"
            note_id = shown(thread, key)
            if note_id is None:
                note = delivery.refused_private_note(recipient, subject, exc.message)
                body = f"{note}\n\n{reference_tag(key)}\n"
                pacer.wait()
                try:
                    note_id = forum.post_comment(thread, in_dialect(body, forum.abilities.markup),
                                                 tag=key)
                    pacer.posted()
                except ForumError as again:
                    if not again.permanent:
                        raise
        _mark(engine, table, [due], "parked", note_id, iso(now()))
        where = "a note in the thread says so" if note_id else "no note could be posted"
        report.parked.append(f"{due.key} (private to {recipient}): {exc.code}: {exc.message} ({where})")
        return
    _mark(engine, table, [due], "sent", remote, iso(now()))
    report.sent += 1
