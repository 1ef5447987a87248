"""Plain text and blog HTML read as the table's edition reads them (``TableSettings.edition``):
edition 2 reads emphasis by CommonMark's rules on every channel (issue 28), edition 1 stripped
every ``*``, ``_`` and ``~`` at a word's edge, and its tables replay as they were read
(tests/e2e/email/test_edition_1_email_ledger.py plays a whole table of it)."""

from __future__ import annotations

import pytest

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, parse_comment
from nomicpoker.core.reading.markup import read_as, visible_text

#: (typed, what edition 1 showed the grammar, what edition 2 shows it): the previous release's
#: regular expression applied by hand, and CommonMark's reading as a Markdown forum renders it
FORMS = [
    ("CALL *", "CALL ", "CALL *"),
    ("~~fold~~ call", "fold call", " call"),
    ("call ~~or fold~~", "call or fold", "call "),
    ("check *", "check ", "check *"),
    ("**raise** 20", "raise 20", "raise 20"),
    ("_fold_", "fold", "fold"),
    ("5*2", "5*2", "5*2"),
]


@pytest.mark.parametrize("typed, edition_1, edition_2", FORMS)
@pytest.mark.parametrize("dialect", ["text", "html"])
def test_each_edition_reads_emphasis_as_it_did(typed, edition_1, edition_2, dialect):
    body = typed + "\n" if dialect == "text" else f"<p>{typed}</p>"
    assert visible_text(body, read_as(dialect, 1)).strip("\n") == edition_1
    assert visible_text(body, read_as(dialect, 2)).strip("\n") == edition_2
    assert visible_text(body, dialect) == visible_text(body, read_as(dialect, 2))


def test_markdown_reads_the_same_in_both_editions():
    assert read_as("markdown", 1) == "markdown" == read_as("markdown", 2)
    assert visible_text("~~fold~~ call\n", "markdown").strip() == "call"


def test_the_grammar_gets_the_edition_s_reading():
    assert isinstance(parse_comment("~~fold~~ call\n", read_as("text", 1), bare=True), GrammarError)
    read = parse_comment("~~fold~~ call\n", read_as("text", 2), bare=True)
    assert isinstance(read, Intent) and read.kind == "call"
    read = parse_comment("CALL *\n", read_as("text", 1), bare=True)
    assert isinstance(read, Intent) and read.kind == "call"  # then a plain call
    assert isinstance(parse_comment("CALL *\n", read_as("text", 2), bare=True), NoAction)  # an advance form


def test_the_which_table_answer_gives_the_time_as_each_edition_did():
    """The answer to a private message naming no table: edition 1 gave the time as stored
    (ISO, as the release at 77b725a wrote it), edition 2 in words."""
    from nomicpoker.core.fold.advance_private import unnamed_answer

    args = ("alice", "2026-11-23T14:05:09+00:00", ["A", "B"], [], True)
    _, old = unnamed_answer(*args, edition=1)
    _, new = unnamed_answer(*args, edition=2)
    assert "your private message of 2026-11-23T14:05:09+00:00 names no table" in old, old
    assert "your private message of 2026-11-23 14:05 UTC names no table" in new, new
    assert unnamed_answer(*args)[1] == new  # a new table's
