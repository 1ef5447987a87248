"""Private advance actions (shell): the Dealer's inbox, archived like comments.

WHY archived and not just read: the fold is a function of the archive, so a private advance
action must be in it, in the order it arrived, for the live poll and ``audit`` (a replay from
nothing) to fire it at the same moment. Where the forum declares ``Abilities.private_inbox``,
each poll lists the messages players sent the Dealer and appends the new ones for this table
to ``np_comment`` in the pseudo-thread :data:`~nomicpoker.core.fold.advance_private.PRIVATE_THREAD`
(forum id ``pm:<message id>``, revision 1: a message cannot be edited). The fold reads one as
about the hand running when it is archived (:mod:`nomicpoker.core.fold.advance_private`).

Which table a message is for (a player may sit at several tables of a game): the table the
subject names (:func:`names_table`: the whole subject, or a tag as the Dealer's own private
messages carry it, ``Your hole cards for hand 3 (alpha)``, so replying to one keeps it, as
WRGPT's ``ID=`` in the subject does), or, if the subject names no table of the ledger, the
only table the sender sits at. A message older than the table is not for it. A message that
so reaches none of its sender's tables is answered privately, once, saying which tables they
sit at and how to name one (:func:`record_unnamed`); nothing is applied. A message once
archived at a table is never answered so, whatever becomes of the tables later. The site and
``export public-db`` show a private
message's text only once its hand has ended (:func:`withheld`): a private advance action, and
at a table whose players do not read the thread (e-mail: they write to the Dealer and see only
its broadcasts) every player message, as the public thread keeps them.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timezone
from typing import TYPE_CHECKING, Callable, Sequence

from sqlmodel import Session, select

from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.reading.markup import storable
from nomicpoker.ports import Forum, PrivateMessage
from nomicpoker.shell.storage.store import CommentRow, TableRow, VerdictRow, HandEndRow, loads

if TYPE_CHECKING:
    from nomicpoker.shell.storage.sealed_inputs import Sealer

#: shown instead of a private message's text before its hand has ended
WITHHELD = "[private message: shown when the hand ends]"


#: reply and forward prefixes a mail or message client puts before a subject
_REPLY = re.compile(r"^\s*(?:(?:re|fwd?|aw|sv|antw)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def names_table(subject: str, table: str) -> bool:
    """Whether ``subject`` names ``table`` (case-insensitively): the whole subject, reply
    prefixes (``Re:``, ``Fwd:``) aside, is the table's name (``--subject alpha``); or it carries
    the name as a tag, ``(alpha)`` as the Dealer writes it, ``[alpha]``, or ``table alpha``.

    WHY not any word of the subject: table names are short (``T``, ``a``), and a word match
    made ``Don't fold (alpha)`` name table ``T`` (the ``t`` after the apostrophe) and ``a quick
    call`` name table ``a``, so a player at both tables had one message archived at two."""
    if _REPLY.sub("", subject).strip().casefold() == table.casefold():
        return True
    t = re.escape(table)
    return re.search(rf"\(\s*{t}\s*\)|\[\s*{t}\s*\]|(?<![\w-])table\s+{t}(?![\w-])", subject,
                     re.IGNORECASE) is not None


def for_table(msg: PrivateMessage, table: TableRow, tables: Sequence[TableRow],
              players_of: "Callable[[TableRow], Sequence[str]] | None" = None) -> bool:
    """Whether ``msg`` is for ``table`` (see the module docstring). ``players_of``: who sits at
    a table now (:func:`rosters`: a tournament moves players between tables); else the
    players it was created with."""
    players_of = players_of or (lambda t: loads(t.players))
    if not any(same_account(msg.sender, p) for p in players_of(table)):
        return False
    if msg.created is not None and msg.created.astimezone(timezone.utc).isoformat() < table.created:
        return False
    named = [t for t in tables if names_table(msg.subject, t.name)]
    if named:
        return any(t.name == table.name for t in named)
    seated = [t for t in tables if t.active and any(same_account(msg.sender, p) for p in players_of(t))]
    return [t.name for t in seated] == [table.name]


def rosters(session: Session) -> "Callable[[TableRow], Sequence[str]]":
    """Who sits at each table now (its roster after a tournament's moves), read once per table."""
    from nomicpoker.shell.storage import ledger

    cache: dict[str, list[str]] = {}

    def players_of(t: TableRow) -> list[str]:
        if t.name not in cache:
            cache[t.name] = ledger.roster(session, t)
        return cache[t.name]
    return players_of


def from_players(inbox: Sequence[PrivateMessage], players: Sequence[str], dealer: str) -> list[PrivateMessage]:
    """The messages of ``inbox`` sent by one of ``players`` (and not by the Dealer), in order.
    WHY a set first: the Dealer's inbox keeps every message of a tournament, and every table
    a poll works on looks through it; two names that are one account (:func:`same_account`)
    are equal in lower case, so the set passes over the others at the cost of one lookup."""
    lowered = {p.lower() for p in players}
    return [m for m in inbox if m.sender.lower() in lowered and not same_account(m.sender, dealer)
            and any(same_account(m.sender, p) for p in players)]


def archive_private(session: Session, table: TableRow, forum: Forum, now: str,
                    inbox: Sequence[PrivateMessage] | None = None, sealer: "Sealer | None" = None,
                    players_of: "Callable[[TableRow], Sequence[str]] | None" = None) -> int:
    """Append the new private messages for ``table`` (from ``inbox``, the forum's listing,
    else listed here); return how many. Each is archived sealed by ``sealer``, its text kept
    with the secrets until its hand ends (:mod:`nomicpoker.shell.storage.sealed_inputs`); without one
    (no state folder) none is archived: a message is never stored in the clear."""
    if not forum.abilities.private_inbox or sealer is None:
        return 0
    players_of = players_of or rosters(session)
    # Only a message from a player seated here can be for this table (for_table's first test),
    # so the rest of the inbox (the other tables' players: nearly all of it in a tournament) is
    # passed over before the ledger is read: a poll of 112 tables read every table's row for
    # each of them (issue 24).
    mine = from_players(forum.received_private() if inbox is None else inbox, players_of(table), table.dealer)
    if not mine:
        return 0
    seen = set(session.exec(select(CommentRow.forum_id).where(
        CommentRow.table_name == table.name, CommentRow.thread == PRIVATE_THREAD)).all())
    fmt = "markdown" if forum.abilities.markup == "markdown" else "text"
    added = 0
    tables: list[TableRow] | None = None
    for m in mine:
        fid = f"pm:{m.id}"
        if fid in seen:
            continue
        if tables is None:
            tables = list(session.exec(select(TableRow).where(TableRow.forum_kind == table.forum_kind)).all())
        if not for_table(m, table, tables, players_of):
            continue
        body = sealer.seal(storable(m.body), PRIVATE_THREAD, fid, 1)
        created = _created(m, now)
        session.add(CommentRow(
            table_name=table.name, thread=PRIVATE_THREAD, forum_id=fid, revision=1,
            author=storable(m.sender), created=created, body=body, body_format=fmt,
            sha256=hashlib.sha256(body.encode("utf-8")).hexdigest(), fetched_at=now))
        session.flush()
        seen.add(fid)
        added += 1
    return added


def _created(msg: PrivateMessage, now: str) -> str:
    return msg.created.astimezone(timezone.utc).isoformat() if msg.created is not None else now


def record_unnamed(session: Session, table: TableRow, forum: Forum, now: str,
                   inbox: Sequence[PrivateMessage] | None = None,
                   players_of: "Callable[[TableRow], Sequence[str]] | None" = None) -> int:
    """Record an :data:`~nomicpoker.core.fold.advance_private.UNNAMED_PRIVATE` event for each new
    private message that reached none of its sender's tables (its subject names none of them
    while they sit at several, or names only tables they do not sit at); return how many.

    WHY: such a message was dropped silently, and its sender never knew. It is answered once,
    by the first of the sender's tables (the lowest id, among the active tables of this forum
    created before the message), so a player at three tables gets one answer, not three; a
    message older than all of them (an inbox from an earlier game) is for none and not
    answered. The event carries the tables' names: they are outside this table's inputs, and
    recorded the answer replays byte for byte (as a SCORE request's standings do)."""
    if not forum.abilities.private_inbox:
        return 0
    inbox = list(forum.received_private()) if inbox is None else inbox
    if not inbox:  # the common case: no query at all
        return 0
    # Only this table answers a message (the first of its sender's tables, below), so a message
    # whose sender does not sit here, or that is older than this table, is passed over before
    # the ledger is read: every table's poll read every table's roster for each message of the
    # inbox (112 tables: 12,000 queries a poll, issue 24).
    players_of = players_of or rosters(session)
    if not table.active:
        return 0
    inbox = [m for m in from_players(inbox, players_of(table), table.dealer) if table.created <= _created(m, now)]
    if not inbox:
        return 0
    from nomicpoker.core.fold.advance_private import UNNAMED_PRIVATE
    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.storage.store import DealerEventRow, dumps

    tables = list(session.exec(select(TableRow).where(TableRow.forum_kind == table.forum_kind)
                               .order_by(TableRow.id)).all())  # type: ignore[arg-type]
    mine = {t.name for t in tables}
    answered = {str(loads(e.data).get("message", "")) for e in session.exec(select(DealerEventRow).where(
        DealerEventRow.kind == UNNAMED_PRIVATE)).all() if e.table_name in mine}
    # a message archived at one of these tables reached it: the tables may have changed since
    # (one closed, another started), which must not make it "for none" and answered
    answered |= {fid for name, fid in session.exec(select(CommentRow.table_name, CommentRow.forum_id).where(
        CommentRow.thread == PRIVATE_THREAD)).all() if name in mine}
    added = 0
    for m in inbox:
        fid = f"pm:{m.id}"
        if fid in answered or same_account(m.sender, table.dealer):
            continue
        when = _created(m, now)
        seated = [t for t in tables if t.active and t.created <= when
                  and any(same_account(m.sender, p) for p in players_of(t))]
        if not seated or seated[0].name != table.name or any(for_table(m, t, tables, players_of) for t in seated):
            continue
        named = [t.name for t in tables if names_table(m.subject, t.name)]
        hands = ledger.hand_rows(session, table.name)
        session.add(DealerEventRow(
            table_name=table.name, hand=hands[-1].number if hands else 0,
            after=ledger.max_archive_id(session, table.name), kind=UNNAMED_PRIVATE, player=storable(m.sender),
            at=now, data=dumps({"message": fid, "received": when, "tables": [t.name for t in seated],
                                "named": named, "by_line": forum.abilities.live})))
        session.flush()
        answered.add(fid)
        added += 1
    return added


def players_see_thread(row: TableRow) -> bool:
    """Whether the table's players read its thread themselves (every forum but e-mail), as the
    table's forum declared it when the table was created (:class:`nomicpoker.ports.Abilities`,
    stored with the table)."""
    from nomicpoker.shell.storage.ledger import table_abilities

    return table_abilities(row).players_see_thread


def withheld(session: Session, table: str) -> set[str]:
    """Forum ids of the table's private player messages whose hand has not ended: their text
    is not published yet. One about no hand (read while none was running: it changed nothing,
    and was answered so) is public at once: withheld, it would be withheld forever, and its
    table's copies could never replay it.

    Private: a message to the Dealer's inbox (:data:`PRIVATE_THREAD`), and, where the players
    do not read the thread (:func:`players_see_thread`), every message a player wrote in it:
    at an e-mail table a player writes to the Dealer alone, and the other players learn only
    what the Dealer's broadcasts say (an accepted bet in words; an advance action, a refusal,
    table talk not at all). The Dealer's own comments there are the broadcasts: public."""
    row = session.exec(select(TableRow).where(TableRow.name == table)).first()
    thread_private = row is not None and not players_see_thread(row)
    ended = {r.hand for r in session.exec(select(HandEndRow).where(HandEndRow.table_name == table)).all()}
    verdicts = select(VerdictRow.forum_id, VerdictRow.hand).where(VerdictRow.table_name == table)
    comments = select(CommentRow.forum_id, CommentRow.author, CommentRow.thread).where(CommentRow.table_name == table)
    if not thread_private:
        verdicts = verdicts.where(VerdictRow.forum_id.startswith("pm:"))  # type: ignore[attr-defined]
        comments = comments.where(CommentRow.thread == PRIVATE_THREAD)
    hand_of = {fid: hand for fid, hand in session.exec(verdicts).all()}
    out = set()
    for fid, author, thread in session.exec(comments).all():
        if thread == PRIVATE_THREAD:
            if fid not in hand_of or (hand_of[fid] is not None and hand_of[fid] not in ended):
                out.add(fid)
        elif not same_account(author, row.dealer):  # type: ignore[union-attr]
            # a thread message: until its hand ends, or its verdict (a frozen table keeps it
            # unread); one read before any hand began is about no hand, and shown
            if fid not in hand_of or (hand_of[fid] is not None and hand_of[fid] not in ended):
                out.add(fid)
    return out
