"""The Dealer's inbox is listed once a poll, for every table on its forum (issue 24).

A tournament's tables share one forum and so one Dealer's inbox; the poll used to list the
whole inbox again at every table it worked on. Now it lists it once per forum and each table
archives its own players' messages from that listing (:func:`nomicpoker.shell.cycle.archive.archive_table`).
Two heads-up tables on the real local forum and one real SQLite ledger, the library's poll
with the real adapters; what the poll calls is watched with ``sys.setprofile`` (nothing
patched). What must hold: one listing a poll; each message archived at its sender's table,
once; a message that reaches the inbox after the listing was taken (here: while the first
table is being polled) is not lost: the poll's marks see it arrive, and the next poll archives
it at its table. The forum itself is opened once a run for both tables, and still lists each
thread afresh. ``audit`` (a replay from nothing) agrees.
"""

from __future__ import annotations

import sys

from sqlmodel import Session, select

from nomicpoker.adapters.local import LocalForum
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.storage.store import CommentRow

from kits.tables.bot import Table, fixed_secrets
from kits.tables.clock import Clock, T0, at


def two_tables(tmp_path) -> tuple[Table, Clock]:
    clock = Clock(T0)
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"deadline_hours": 4, "reminders": 0})
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    service.create_table(t.engine, t.state, "U", ["carol", "dave"], 100, ruleset="roberts-nlhe",
                         issue_decks=False, settings={"deadline_hours": 4, "reminders": 0})
    t.start(ante=0, blinds=(1, 2), now=clock)
    secrets_store.write(t.state, "U", 1, fixed_secrets("U:1"))
    assert not service.start_hand(t.engine, t.state, "U", 0, blinds=(1, 2), now=clock).report.error
    for k in range(4):  # the hand starts' posts archived, then a poll that finds nothing
        clock.t = at(0.1 * (k + 1))
        assert t.poll(now=clock).ok
    return t, clock


def poll_watching(t: Table, clock: Clock, moment, on_archived=None) -> list[str]:
    """Poll at ``moment``; return the order of the forum's inbox listings and tables archived
    (``"inbox"``, ``"T"``, ``"U"``). ``on_archived(table)`` runs as a table's archive ends."""
    clock.t = moment
    seen: list[str] = []

    def hook(frame, event, arg):  # noqa: ANN001
        code = frame.f_code
        if event == "call" and code.co_name == "received_private" and code.co_filename.endswith("local.py"):
            seen.append("inbox")
        if event == "return" and code.co_name == "archive_table" and code.co_filename.endswith("archive.py"):
            seen.append(frame.f_locals["table"].name)
            if on_archived is not None:
                on_archived(frame.f_locals["table"].name)

    sys.setprofile(hook)
    try:
        report = t.poll(now=clock)
    finally:
        sys.setprofile(None)
    assert report.ok, [x.error for x in report.tables]
    return seen


def private_archive(t: Table) -> dict[str, list[str]]:
    """Each table's archived private messages (their authors), in archive order."""
    with Session(t.engine) as s:
        rows = s.exec(select(CommentRow).where(CommentRow.thread == PRIVATE_THREAD).order_by(CommentRow.id)).all()
    out: dict[str, list[str]] = {"T": [], "U": []}
    for r in rows:
        out[r.table_name].append(r.author)
    return out


def test_one_listing_of_the_inbox_serves_every_table_and_each_message_reaches_its_own(tmp_path):
    t, clock = two_tables(tmp_path)
    clock.t = at(1)
    t.forum.send_private_as("bob", "Dealer", "T", "check")
    t.forum.send_private_as("carol", "Dealer", "U", "fold")
    seen = poll_watching(t, clock, at(1))
    assert seen == ["inbox", "T", "U"], seen  # listed once, for both tables
    assert private_archive(t) == {"T": ["bob"], "U": ["carol"]}
    for k in range(3):  # the Dealer's answers archived; nothing is archived twice
        poll_watching(t, clock, at(1.1 + 0.1 * k))
    assert private_archive(t) == {"T": ["bob"], "U": ["carol"]}
    assert audit(t.engine, t.state) == (["T", "U"], [])


def test_a_message_that_arrives_after_the_listing_is_archived_by_the_next_poll(tmp_path):
    t, clock = two_tables(tmp_path)
    clock.t = at(1)
    t.forum.send_private_as("bob", "Dealer", "T", "check")
    t.forum.send_private_as("carol", "Dealer", "U", "fold")  # U has new input: it takes this poll

    def dave_writes(table: str) -> None:  # while T is polled: after the inbox was listed
        if table == "T":
            t.forum.send_private_as("dave", "Dealer", "U", "fold")

    assert poll_watching(t, clock, at(1), dave_writes) == ["inbox", "T", "U"]
    assert private_archive(t) == {"T": ["bob"], "U": ["carol"]}  # this run's listing did not hold dave's
    seen = poll_watching(t, clock, at(1.1))  # U's marks moved while it ran: U is polled again
    assert "U" in seen
    assert private_archive(t) == {"T": ["bob"], "U": ["carol", "dave"]}
    for k in range(3):
        poll_watching(t, clock, at(1.2 + 0.1 * k))
    assert private_archive(t) == {"T": ["bob"], "U": ["carol", "dave"]}  # once
    assert audit(t.engine, t.state) == (["T", "U"], [])


def test_the_forum_opened_once_a_run_lists_each_thread_afresh(tmp_path):
    """The poll opens the forum once for both tables (one object; the local forum keeps its
    file's log open meanwhile): a comment posted at U while T is polled is read by U's poll in
    the same run, and answered once."""
    t, clock = two_tables(tmp_path)
    clock.t = at(1)
    t.forum.send_private_as("carol", "Dealer", "U", "fold")  # U has new input: it takes this poll
    t.forum.send_private_as("bob", "Dealer", "T", "check")
    u_thread = t.forum.threads()[-1].ref
    opened: list[int] = []

    def hook(frame, event, arg):  # noqa: ANN001
        code = frame.f_code
        if event == "return" and code.co_name == "forum_for" and code.co_filename.endswith("forums.py"):
            opened.append(id(arg))
        if event == "return" and code.co_name == "archive_table" and code.co_filename.endswith("archive.py") \
                and frame.f_locals["table"].name == "T":
            t.forum.post_as("dave", u_thread, "good luck all")  # after T's listing, before U's

    sys.setprofile(hook)
    try:
        report = t.poll(now=clock)
    finally:
        sys.setprofile(None)
    assert report.ok and len(opened) == 1, (opened, [x.error for x in report.tables])
    assert {x.table: x.archived for x in report.tables} == {"T": 1, "U": 2}  # U read dave's comment
    with Session(t.engine) as s:
        archived = s.exec(select(CommentRow).where(CommentRow.table_name == "U", CommentRow.author == "dave",
                                                   CommentRow.body == "good luck all")).all()
    assert len(archived) == 1
    for k in range(3):
        poll_watching(t, clock, at(1.1 + 0.1 * k))
    with Session(t.engine) as s:
        assert len(s.exec(select(CommentRow).where(CommentRow.table_name == "U", CommentRow.author == "dave")).all()) == 1
    assert audit(t.engine, t.state) == (["T", "U"], [])
