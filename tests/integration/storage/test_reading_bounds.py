"""Hostile text: any comment is read in bounded time, never crashes the reader, and a body no
database can store (a lone surrogate) is archived as a reader sees it.

Times are not asserted here (performance lives in scripts/fuzz_comments.py and
docs/benchmarks.md); these tests pin *what* the bounded reader answers."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlmodel import select

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, parse_comment
from nomicpoker.core.reading.htmltext import html_to_text
from nomicpoker.core.reading.markup import MAX_CHARS, read_visible
from nomicpoker.ports import RemoteComment
from nomicpoker.shell.cycle.archive import archive
from nomicpoker.shell.storage.store import CommentRow, open_engine, transaction


@pytest.mark.parametrize("filler", ["[" * 400, "[s]" * 400, "*a " * 1200, "a\n" * 500,
                                    "![[" * 300, "_a" * 1200])
def test_formatting_too_complex_to_read_never_acts_and_says_why(filler: str) -> None:
    r = parse_comment(f"HAND1 ROUND1 raise 10\n\n{filler}", "markdown")
    assert isinstance(r, GrammarError) and r.code == "unparseable"
    assert "not read" in r.message and "too complex" in r.message


def test_a_comment_over_the_length_cap_never_acts_and_says_why() -> None:
    r = parse_comment("HAND1 ROUND1 raise 10 " + "x" * MAX_CHARS, "markdown")
    assert isinstance(r, GrammarError) and r.code == "unparseable" and "characters long" in r.message


@pytest.mark.parametrize("body", ["[" * 20_000, "lol " * 5_000, "<a " * 10_000, "HAND" * 30_000])
def test_long_or_complex_chat_with_nothing_like_an_action_is_chat(body: str) -> None:
    assert parse_comment(body, "markdown") == NoAction()


def test_a_long_ordinary_comment_under_the_caps_is_read_exactly() -> None:
    prose = "A long remark about the last hand, and the one before it, and strategy. " * 100
    r = parse_comment(prose + "\n\nHAND1 ROUND1 raise 10", "markdown")
    assert isinstance(r, Intent) and r.amount == 10


@pytest.mark.parametrize("body", [
    "<a " * 3000 + "HAND1 ROUND1 raise 10",     # a tag the text ends inside is dropped
    "x <b title='HAND1 ROUND1 raise 10",
    "<!-- HAND1 ROUND1 raise 10",
    "<!DOCTYPE x HAND1 ROUND1 raise 10",
    "<script>HAND1 ROUND1 raise 10</script>",
    "<s/>HAND1 ROUND1 raise 10",                # "/>" does not close a non-void element
])
def test_html_that_a_browser_does_not_show_never_acts(body: str) -> None:
    assert parse_comment(body, "html") == NoAction()


def test_html_reader_keeps_text_around_odd_tags() -> None:
    # As HTML5 tokenizes it: "< " is text, "<d<p>" is one (unknown) tag named "d<p".
    assert html_to_text("a < b and c<d<p>x</p>&amp;").split() == ["a", "<", "b", "and", "cx", "&"]


def test_lone_surrogates_and_nul_never_crash_the_reader() -> None:
    for fmt in ("markdown", "html", "text"):
        assert isinstance(parse_comment("HAND1 ROUND1 raise 10 \ud800 \x00 \udfff", fmt), Intent)
    assert "\ufffd" in read_visible("a\ud83d b", "text").text


def test_a_lone_surrogate_is_archived_as_the_replacement_character(tmp_path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    c = RemoteComment(id="c1", author="bo\udcffb", created=datetime(2026, 1, 1, tzinfo=timezone.utc),
                      body="HAND1 ROUND1 call \ud83d", body_format="markdown")
    with transaction(engine) as s:
        assert archive(s, "t", "thread", [c], "2026-01-01T00:00:00+00:00", None) == 1
    with transaction(engine) as s:
        row = s.exec(select(CommentRow)).one()
        assert row.body == "HAND1 ROUND1 call \ufffd" and row.author == "bo\ufffdb"
        # the same comment seen again is not a new revision
        assert archive(s, "t", "thread", [c], "2026-01-01T00:01:00+00:00", None) == 0
