"""The plain-text fast path of :func:`nomicpoker.core.reading.markup.read_visible` reads a one-line
comment of plain words exactly as the CommonMark parser does (markdown-it-py is the
independent implementation here): it exists only to save the parser's ~0.3 ms per comment."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from nomicpoker.core.reading import markup
from nomicpoker.core.reading.markup import _MD, html_to_text, read_visible

# every character the fast path lets through, plus the ones it must refuse
_ALPHABET = "abzAZ09 ,.'?()/;\"!:$%@+=-" + "*_~`[]<>&\\#|\t\n" + "é\xa0"


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=_ALPHABET, min_size=1, max_size=24))
def test_fast_path_is_the_parsers_reading(text: str) -> None:
    if markup._PLAIN.fullmatch(text):
        assert html_to_text(_MD.render(text)) == f"\n{text}\n\n"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, min_size=1, max_size=24))
def test_read_visible_same_without_fast_path(text: str) -> None:
    _same_without_fast_path(text)


def _same_without_fast_path(text: str) -> None:
    fast = read_visible(text)
    saved = markup._PLAIN
    markup._PLAIN = re.compile(r"(?!)")  # never matches: every comment goes to the parser
    try:
        assert markup._read_visible(text) == fast  # (uncached)
    finally:
        markup._PLAIN = saved


def test_long_plain_lines_keep_the_weight_bound() -> None:
    """A plain line heavy in terminators is still "too complex" exactly when the parser path
    says so (the fast path skips weighing only lines too short to pass the bound)."""
    for text in ("a-" * 790, "a-" * 810, "a" + "-" * 1599, "a" + "-" * 1610, "word " * 3000 + "end"):
        _same_without_fast_path(text)
    assert not read_visible("a" + "-" * 1610).complete


def test_common_comments_take_the_fast_path() -> None:
    for text in ("HAND3 ROUND1 folds", "nice hand", "HAND12 ROUND2 raises to 40", "calls $20!"):
        assert markup._PLAIN.fullmatch(text)
        assert read_visible(text).text.strip() == text
    for text in ("1. folds", "# folds", "- folds", "    folds", "**folds**", "a & b", "folds "):
        assert not markup._PLAIN.fullmatch(text)
