"""The table tag at the start of a private IRC line (``(T) CALL *``, ``[T] CALL *``): what names
the table of a private line for a player at two IRC tables, as a subject does on the other
forums. The whole exchange on a real ngIRCd: tests/slow/test_irc_private_tables.py."""

from __future__ import annotations

import pytest

from nomicpoker.adapters.irc.forum import split_table_tag


@pytest.mark.parametrize("line, split", [
    ("(T) CALL *", ("(T)", "CALL *")),
    ("  [alpha]CALL/S *", ("[alpha]", "CALL/S *")),
    ("CALL *", ("", "CALL *")),
    ("(T)", ("", "(T)")),                      # a tag with nothing after it is the message
    ("(just kidding) fold", ("", "(just kidding) fold")),  # words in brackets are no tag
    ("call (T)", ("", "call (T)")),             # only at the start
])
def test_a_table_tag_at_the_start_of_a_private_line_is_its_subject(line, split):
    assert split_table_tag(line) == split
