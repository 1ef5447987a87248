"""The grammar's chat fast path (:func:`nomicpoker.core.reading.grammar._may_start`): a comment in which
none of the searches the parser starts from finds anything is chat, without building the
parser. It exists only to save time (most comments of a game are chat); these tests cross-check
it against the full parser (:func:`~nomicpoker.core.reading.grammar._parse_bounded`) on generated text
built from the grammar's own vocabulary, so a place the fast path missed would show up as a
different reading."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings, strategies as st

from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.intents import NoAction
from nomicpoker.core.reading.lookalike import skeleton

#: pieces of actions, near-actions and chat: tags, verbs, cards, dice, draw statements
_WORDS = [
    "HAND3", "hand 3", "Hand #3", "hand", "ROUND1", "round 2", "R1", "rnd", "DICE52", "dice6",
    "dice", "raise", "raises", "20", "$5", "call", "calls", "check", "fold", "folds", "all",
    "in", "all-in", "reveal", "show", "shows", "cards", "card 14,", "Cards printed by:",
    "printed", "7h", "Ah", "10s", "Kd", "2c", "7♥", "ace of spades", "of", "nice", "hand!",
    "good", "luck", "I", "me", "told", "you", "so", "tjqka", "shdc", "score", "SCORE", "GONE",
    "UNDO", "rаise", "fоld", "ⅼ", "0", "O", "l", "1", "x", "—", ".", ",", "!", "?", ":", "#",
]
_SEPARATORS = [" ", " ", " ", "\n", "", ", ", "  ", "\t"]

comment_text = st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPARATORS)),
                        min_size=1, max_size=10).map(lambda parts: "".join(w + s for w, s in parts))


def _both(text: str, bare: bool) -> tuple[object, object]:
    vis = unicodedata.normalize("NFC", text)
    sk = skeleton(vis)
    return grammar._parse_skeleton(sk, vis, bare), _safe_places(sk, vis, bare)


def _safe_places(sk, vis, bare):  # type: ignore[no-untyped-def]
    try:
        return grammar._parse_bounded(sk, vis, bare)
    except grammar._TooMany:
        return grammar._parse_skeleton(sk, vis, bare)  # the bound's answer, as the parser gives it


def _fast(text: str) -> bool:
    return not grammar._may_start(skeleton(unicodedata.normalize("NFC", text)).text)


@settings(max_examples=1000, deadline=None)
@given(comment_text, st.booleans())
def test_fast_path_reads_as_the_parser(text: str, bare: bool) -> None:
    fast, full = _both(text, bare)
    if _fast(text):
        assert full == NoAction(), (text, full)
        assert fast == NoAction()


@settings(max_examples=500, deadline=None)
@given(st.text(min_size=1, max_size=30), st.booleans())
def test_fast_path_on_any_text(text: str, bare: bool) -> None:
    if _fast(text):
        assert _both(text, bare) == (NoAction(), NoAction()), text


@settings(max_examples=500, deadline=None)
@given(comment_text, st.booleans())
def test_parse_comment_same_without_fast_path(text: str, bare: bool) -> None:
    """The whole reading (look-alike re-readings, the lazy-quote second reading) agrees with
    the fast path switched off."""
    fast = grammar.parse_comment(text, "markdown", bare=bare)
    saved = grammar._may_start
    grammar._may_start = lambda s: True  # every comment goes to the parser
    try:
        assert grammar.parse_comment(text, "markdown", bare=bare) == fast, text
    finally:
        grammar._may_start = saved


def test_common_chat_takes_the_fast_path() -> None:
    """Chat that names no tag, card, dice or action word skips the parser; chat with an action
    word ("all", "call") or a tag-like word does not, and is read by it."""
    for text in ("nice hand", "still here", "good game everyone", "well played"):
        assert _fast(text), text
    for text in ("good luck all", "HAND3 ROUND1 folds", "I call that luck", "7h 2s",
                 "dice52 dice52", "Cards printed by: X", "ROUND1 raise 20", "hand 3 was fun"):
        assert not _fast(text), text
    assert grammar.parse_comment("HAND3 ROUND1 folds", "markdown").kind == "fold"
