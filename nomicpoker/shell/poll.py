"""The poll cycle (shell): what cron runs as ``nomicpoker poll``.

One run, per active table: fetch the hand threads, archive new comments and new revisions,
record a deadline expiry if one is due (the player to act, a silent revealer, or players with
no Hole Card Draw), replay the table (:func:`adjudicator.fold_table`),
store the new verdicts, ledger entries and outbox rows (one transaction per table), then send
the outbox.

WHY it is safe to repeat and to crash:

- A file lock means overlapping runs never both work; the second says so and exits 0.
- Everything derived is written in the same transaction as the archive rows it came from,
  so a crash leaves either both or neither.
- Sending is separate and idempotent: every dealer comment ends with a reference tag, and
  before posting, the thread is searched for it (``forum.find_comment_with``), so a run that
  crashed after posting but before recording marks the comment sent instead of posting again.
  The post itself carries the tag's key too (``post_comment(..., tag=key)``), so an adapter
  whose client may retry a POST (Reddit) removes its duplicates by tag, not by body.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Sequence

from filelock import FileLock, Timeout
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.shell import ledger
from nomicpoker.ports import Forum, ForumError, RemoteComment
from nomicpoker.core.adjudicator import fold_table
from nomicpoker.core.draws import DRAW_TIMEOUT
from nomicpoker.core.fold_types import same_account
from nomicpoker.core.errors import CodedError
from nomicpoker.shell.paths import lock_path
from nomicpoker.core.render import find_tag
from nomicpoker.shell.store import CommentRow, DealerEventRow, OutboxRow, TableRow, dumps, loads, transaction

Clock = Callable[[], datetime]
ForumFactory = Callable[[str, dict, Path], Forum]


#: Deadlines handled in one run: several players may time out in a row (each timeout moves the
#: turn on and may start the next player's clock, already expired). The bound keeps a run
#: finite; any left over are handled by the next run.
MAX_TIMEOUTS_PER_RUN = 8


def utcnow() -> datetime:
    """The one clock of the poll cycle; callers and tests pass their own ``now`` instead."""
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """A moment as the ledger stores it: UTC, whole seconds, so replays compare as text."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def default_forum_factory(kind: str, config: dict, state: Path) -> Forum:
    """The real adapters; tests inject a factory returning fakes (imported late so the poll
    cycle's import does not pull in praw and BeautifulSoup)."""
    from nomicpoker.adapters.registry import open_forum

    return open_forum(kind, config, state)


@dataclass
class TableReport:
    table: str
    archived: int = 0
    verdicts: int = 0
    queued: int = 0
    sent: int = 0
    already: int = 0
    error: str = ""
    would_post: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.error:
            return f"{self.table}: FAILED: {self.error}"
        if not (self.archived or self.verdicts or self.sent or self.already or self.would_post):
            return f"{self.table}: nothing new"
        def n(count: int, word: str) -> str:
            return f"{count} {word}{'' if count == 1 else 's'}"

        bits = [n(self.archived, "new comment revision"), n(self.verdicts, "verdict"),
                n(self.sent, "dealer message") + " sent"]
        if self.already:
            bits.append(f"{self.already} found already posted")
        return f"{self.table}: " + ", ".join(bits)


@dataclass
class PollReport:
    busy: bool = False
    tables: list[TableReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(t.error for t in self.tables)


class PollError(CodedError):
    """The poll cannot run at all (no ledger, a broken table config); ``message`` says why."""


def _sha(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def archive(session: Session, table: str, thread: str, comments: Sequence[RemoteComment], now: str,
            dealer: str | None = None) -> int:
    """Append new comments and new revisions (edits, deletions) to the archive; never update a
    row. Returns the number of rows added, not counting the dealer's own comments."""
    latest: dict[str, CommentRow] = {}
    for row in session.exec(select(CommentRow).where(CommentRow.table_name == table,
                                                     CommentRow.thread == thread)
                            .order_by(CommentRow.id)).all():
        latest[row.forum_id] = row
    added = 0
    for c in comments:
        prev = latest.get(c.id)
        deleted = bool(c.deleted)
        if prev is not None:
            if prev.deleted or (deleted == prev.deleted and c.body == prev.body):
                continue
            body = prev.body if deleted else c.body  # a deletion keeps the text it had
        else:
            body = c.body
        edited = c.edited.astimezone(timezone.utc).isoformat() if c.edited else None
        row = CommentRow(
            table_name=table, thread=thread, forum_id=c.id,
            revision=(prev.revision + 1) if prev else 1, author=c.author,
            created=c.created.astimezone(timezone.utc).isoformat(), edited=edited, body=body,
            body_format=c.body_format, sha256=_sha(body), deleted=deleted,
            dice=dumps(list(c.dice)), permalink=c.permalink, fetched_at=now,
        )
        session.add(row)
        session.flush()
        latest[c.id] = row
        added += dealer is None or not same_account(c.author, dealer)
    return added


def fold_for(session: Session, table: TableRow, state: Path, public: dict | None = None):
    """Replay ``table`` from the inputs in ``session`` (``public``: published secrets of ended
    hands, for a rebuild without the secrets folder)."""
    from nomicpoker.adapters.registry import declared_abilities

    abilities = declared_abilities(table.forum_kind, loads(table.forum_config) or {})
    cfg = ledger.table_config(table, forum_roller=abilities.dice != "bot")
    if cfg.ruleset.content_hash and table.ruleset_hash and cfg.ruleset.content_hash != table.ruleset_hash:
        raise PollError("ruleset_changed", f"ruleset {table.ruleset} changed since table {table.name} "
                        f"was created (hash {cfg.ruleset.content_hash[:12]} != {table.ruleset_hash[:12]})")
    return fold_table(cfg, ledger.hand_starts(session, table.name, state, public),
                      ledger.revisions(session, table.name), ledger.dealer_events(session, table.name))


def _draw_deadlines_due(session: Session, table: TableRow, cur, now: datetime) -> bool:
    """Record a ``draw_timeout`` event (with the time) for each player whose Hole Card Draw
    deadline has passed; the fold decides what it means (:mod:`nomicpoker.core.draws`)."""
    hours = timedelta(hours=table.deadline_hours)
    due = [p for p, since in cur.draw_clock if now >= datetime.fromisoformat(since) + hours]
    after = ledger.max_archive_id(session, table.name)
    for player in due:
        session.add(DealerEventRow(table_name=table.name, hand=cur.number, after=after,
                                   kind=DRAW_TIMEOUT, player=player, at=iso(now)))
    session.flush()
    return bool(due)


def _deadline_due(session: Session, table: TableRow, result, now: datetime) -> bool:
    cur = result.current
    if table.deadline_hours and cur is not None and cur.phase == "draw":
        return _draw_deadlines_due(session, table, cur, now)
    if not table.deadline_hours or cur is None or cur.phase not in ("betting", "reveal") or not cur.waiting:
        return False
    since = datetime.fromisoformat(cur.since)
    if now < since + timedelta(hours=table.deadline_hours):
        return False
    session.add(DealerEventRow(table_name=table.name, hand=cur.number,
                               after=ledger.max_archive_id(session, table.name), kind="timeout",
                               player=cur.waiting[0], at=iso(now)))
    session.flush()
    return True


def threads_to_poll(session: Session, table: str) -> list[str]:
    """The threads of the table's last two hands: the running one, and the one before it,
    where late comments (an edit, a reveal after the payout) may still arrive and must be
    archived for the replay to note them. Older threads are closed for good."""
    hands = ledger.hand_rows(session, table)
    out: list[str] = []
    for h in hands[-2:]:
        if h.thread not in out:
            out.append(h.thread)
    return out


#: thread -> {reference tag key: comment id} of the dealer's comments the forum showed
PostedTags = dict[str, dict[str, str]]


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


def update_table(session: Session, table: TableRow, forum: Forum, state: Path, now: datetime,
                 report: TableReport) -> PostedTags:
    """Archive, replay and store one table inside the caller's transaction; return the tags
    the dealer's comments already carry, per thread (for :func:`send_outbox`)."""
    tags: PostedTags = {}
    for thread in threads_to_poll(session, table.name):
        comments = forum.list_comments(thread)
        tags[thread] = posted_tags(comments, table.dealer)
        report.archived += archive(session, table.name, thread, comments, iso(now),
                                   dealer=table.dealer)
    result = fold_for(session, table, state)
    for _ in range(MAX_TIMEOUTS_PER_RUN):
        if not _deadline_due(session, table, result, now):
            break
        result = fold_for(session, table, state)
    added = ledger.store_fold(session, table.name, result)
    report.verdicts += len(added.get("verdict", []))
    report.queued += len(added.get("outbox", []))
    return tags


def _already_delivered(forum: Forum, row: OutboxRow) -> str | None:
    """A private message delivered before a crash, where the forum lets the Dealer read back
    what it sent (``abilities.private_read``). Forums without that may deliver it twice; the
    body is the same either way."""
    if not forum.abilities.private_read:
        return None
    for msg in forum.sent_private(row.recipient):
        if msg.subject == row.subject and msg.body == row.body:
            return msg.id
    return None


def send_outbox(engine: Engine, table: str, forum: Forum, now: Clock, report: TableReport,
                tags: PostedTags | None = None) -> None:
    """Send pending dealer messages in order, one transaction per message. Stops at the first
    forum error; the rest stay pending for the next run. A comment whose tag the thread already
    shows (``tags``, from this run's listing; else the forum is asked) is recorded, not
    posted again."""
    with Session(engine) as s:
        pending = [r.id for r in s.exec(select(OutboxRow).where(OutboxRow.table_name == table,
                                                                OutboxRow.status == "pending")
                                        .order_by(OutboxRow.seq)).all()]
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
                remote = _already_delivered(forum, row)
                if remote is not None:
                    report.already += 1
                else:
                    remote = forum.send_private(row.recipient, row.subject, row.body)
                    report.sent += 1
            row.status, row.remote_id, row.sent_at = "sent", remote, iso(now())
            s.add(row)


def poll_table(engine: Engine, table_name: str, state: Path, forum_factory: ForumFactory,
               now: Clock, dry_run: bool) -> TableReport:
    """Archive, adjudicate and post for one table. A known failure becomes ``report.error``
    (one line) so one broken table does not stop the others; ``dry_run`` rolls everything
    back and lists what would have been posted."""
    report = TableReport(table_name)
    try:
        with Session(engine) as s:
            table = ledger.get_table(s, table_name)
            forum = forum_factory(table.forum_kind, loads(table.forum_config) or {}, state)
        if dry_run:
            with Session(engine) as s:
                table = ledger.get_table(s, table_name)
                try:
                    update_table(s, table, forum, state, now(), report)
                    pending = s.exec(select(OutboxRow).where(OutboxRow.table_name == table_name,
                                                             OutboxRow.status == "pending")
                                     .order_by(OutboxRow.seq)).all()
                    for r in pending:
                        where = f"thread {r.thread}" if r.kind == "comment" else f"private to {r.recipient}"
                        report.would_post.append(f"--- would post ({where}):\n{r.body}")
                finally:
                    s.rollback()
            return report
        with transaction(engine) as s:
            table = ledger.get_table(s, table_name)
            tags = update_table(s, table, forum, state, now(), report)
        send_outbox(engine, table_name, forum, now, report, tags)
    except ForumError as exc:
        report.error = f"forum {exc.code}: {exc.message} (nothing lost; the next run retries)"
    except CodedError as exc:  # store, fold, secrets, poll: one line, nothing stored
        report.error = str(exc)
    return report


def poll(engine: Engine, state: Path, table: str | None = None, dry_run: bool = False,
         forum_factory: ForumFactory = default_forum_factory, now: Clock = utcnow,
         lock_timeout: float = 0) -> PollReport:
    """One poll cycle under the lock. ``busy`` when another run holds it."""
    state.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(lock_path(state)), timeout=lock_timeout)
    try:
        lock.acquire()
    except Timeout:
        return PollReport(busy=True)
    try:
        with Session(engine) as s:
            if table is not None:
                names = [ledger.get_table(s, table).name]
            else:
                names = [t.name for t in s.exec(select(TableRow).where(TableRow.active == True)  # noqa: E712
                                                .order_by(TableRow.id)).all()]
        report = PollReport()
        for name in names:
            report.tables.append(poll_table(engine, name, state, forum_factory, now, dry_run))
        return report
    finally:
        lock.release()
