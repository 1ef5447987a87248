"""The outbox (shell): send the dealer's queued messages, once each.

The fold queues every dealer comment and private message as an ``np_outbox`` row; this room
delivers them. WHY it is safe to repeat and to crash: every dealer comment ends with a
reference tag (``[np:KEY]``); before posting, the thread's listing (taken by this run before
anything was sent) is searched for it, so a run that crashed after posting but before
recording marks the comment sent instead of posting again. The post carries the tag's key too
(``post_comment(..., tag=key)``), so an adapter whose client may retry a POST (Reddit) removes
its duplicates by tag, not by body. A private message is looked for among what the Dealer has
sent where the forum lets it read that back (``abilities.private_read``).
"""

from __future__ import annotations

from typing import Protocol, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.fold_types import same_account
from nomicpoker.core.tags import find_tag
from nomicpoker.ports import Forum, RemoteComment
from nomicpoker.shell.deadlines import Clock, iso
from nomicpoker.shell.store import OutboxRow, transaction

#: thread -> {reference tag key: comment id} of the dealer's comments the forum showed
PostedTags = dict[str, dict[str, str]]


class Deliveries(Protocol):
    """Where :func:`send_outbox` counts what it did (a poll's ``TableReport``)."""

    sent: int
    already: int


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
            key = find_tag(c.body)
            if key is not None:
                found.setdefault(key, c.id)
    return found


def already_delivered(forum: Forum, row: OutboxRow) -> str | None:
    """A private message delivered before a crash, where the forum lets the Dealer read back
    what it sent (``abilities.private_read``). Forums without that may deliver it twice; the
    body is the same either way."""
    if not forum.abilities.private_read:
        return None
    for msg in forum.sent_private(row.recipient):
        if msg.subject == row.subject and msg.body == row.body:
            return msg.id
    return None


def pending_rows(session: Session, table: str) -> list[OutboxRow]:
    """The table's messages not sent yet, in the order the fold queued them."""
    return list(session.exec(select(OutboxRow).where(OutboxRow.table_name == table,
                                                     OutboxRow.status == "pending")
                             .order_by(OutboxRow.seq)).all())


def send_outbox(engine: Engine, table: str, forum: Forum, now: Clock, report: Deliveries,
                tags: PostedTags | None = None) -> None:
    """Send pending dealer messages in order, one transaction per message. Stops at the first
    forum error (it propagates); the rest stay pending for the next run. A comment whose tag
    the thread already shows (``tags``, from this run's listing; else the forum is asked) is
    recorded, not posted again."""
    with Session(engine) as s:
        pending = [r.id for r in pending_rows(s, table)]
    for row_id in pending:
        with transaction(engine) as s:
            row = s.get(OutboxRow, row_id)
            if row is None or row.status != "pending":
                continue
            if row.kind == "comment":
                if tags is not None and row.thread in tags:
                    remote = tags[row.thread].get(row.key)
                else:
                    remote = forum.find_comment_with(row.thread, f"[np:{row.key}]")
                if remote is not None:
                    report.already += 1
                else:
                    remote = forum.post_comment(row.thread, row.body, reply_to=row.reply_to,
                                                tag=row.key)
                    report.sent += 1
            else:
                remote = already_delivered(forum, row)
                if remote is not None:
                    report.already += 1
                else:
                    remote = forum.send_private(row.recipient, row.subject, row.body)
                    report.sent += 1
            row.status, row.remote_id, row.sent_at = "sent", remote, iso(now())
            s.add(row)
