"""Which table a player's private message is for (issue 14/15): the table its subject names as
the whole subject or as a tag (``(alpha)`` as the Dealer writes it, ``[alpha]``, ``table
alpha``), never a table whose short name merely occurs as a word. A player sits at tables ``T``
and ``a`` (and ``alpha``): the subjects below are what players write, and each must reach the
tables listed and no other. Then through the real poll on the local forum: one message, one
table."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select

from nomicpoker.shell.dealer import service
from nomicpoker.shell.cycle.private_inbox import for_table
from nomicpoker.shell.storage.store import CommentRow, TableRow
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.dealer import service
from nomicpoker.ports import PrivateMessage

from kits.tables.bot import Table

TABLES = ("T", "a", "alpha")

#: subject -> the tables it is for (a player seated at all three); () when it names none of
#: them and the player sits at several: the message is for no table
CASES = [
    ("Don't fold (alpha)", {"alpha"}),           # the t after the apostrophe is not table T
    ("a quick CALL for (alpha)", {"alpha"}),      # the article is not table a
    ("Re: Your hole cards for hand 3 (T)", {"T"}),  # a reply to the Dealer's own message
    ("Re: Re: Your advance action in hand 1 (a) (ID=x)", {"a"}),
    ("Fwd: [alpha] advance", {"alpha"}),
    ("for table a", {"a"}),
    ("Table T, hand 4", {"T"}),
    ("t", {"T"}),                                 # the whole subject: --subject T
    ("RE: ALPHA", {"alpha"}),
    ("(T) and (a)", {"T", "a"}),                  # named twice: both, as written
    ("T-rex", set()),
    ("a", {"a"}),
    ("table alphabet soup", set()),
    ("at the table today", set()),
    ("(alphabet)", set()),
    ("", set()),
]


def row(name: str) -> TableRow:
    return TableRow(name=name, ruleset="roberts-nlhe", forum_kind="local", players=json.dumps(["alice", "bob"]),
                    money=100, button="bob", created="2026-01-01T00:00:00+00:00", active=True)


@pytest.mark.parametrize("subject, tables", CASES)
def test_a_subject_names_a_table_only_as_a_whole_or_a_tag(subject, tables):
    rows = [row(n) for n in TABLES]
    msg = PrivateMessage(id="1", sender="alice", recipient="Dealer", subject=subject, body="CALL *", created=None)
    assert {r.name for r in rows if for_table(msg, r, rows)} == tables


def test_an_unnamed_message_goes_to_the_senders_only_table():
    rows = [row("T"), TableRow(**{**row("a").model_dump(), "players": json.dumps(["carol", "dave"])})]
    msg = PrivateMessage(id="1", sender="alice", recipient="Dealer", subject="Don't wait", body="CALL *", created=None)
    assert [r.name for r in rows if for_table(msg, r, rows)] == ["T"]


def test_through_the_poll_one_message_reaches_one_table(tmp_path):
    t = Table(tmp_path, name="alpha", players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    for name in ("T", "a"):
        service.create_table(t.engine, t.state, name, ["alice", "bob"], 100, ruleset="roberts-nlhe",
                             issue_decks=False, settings={"reminders": 0})
    t.forum.send_private_as("alice", t.forum.dealer, "Don't fold (alpha)", "CALL/S *")
    t.forum.send_private_as("alice", t.forum.dealer, "a quick one: table T", "FOLD")
    t.run()
    with Session(t.engine) as s:  # the texts (each archived sealed, kept with the secrets)
        rows = [(name, r.body) for name in ("T", "a", "alpha")
                for r in ledger.revisions(s, name, state=t.state) if r.thread == "~private"]
    assert sorted(rows) == [("T", "FOLD"), ("alpha", "CALL/S *")]
