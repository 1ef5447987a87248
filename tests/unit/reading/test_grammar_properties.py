"""Property tests for the comment grammar: it never crashes, canonical forms round-trip, and
presentation (emphasis, spacing, chat around it, invisible characters) never changes the
reading while quoting always removes it and look-alike letters are always flagged."""

from __future__ import annotations

import html
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, canonical, parse_comment

from kits.references.grammar import intents

FORMATS = ("markdown", "html", "text")

#: Chat that contains no action, no HAND tag, no card list.
safe_chat = st.sampled_from([
    "ok here goes", "good luck everyone", "nice hand!", "thinking about it...", "hmm",
    "well then", "I'll regret this", "c'mon river",
])


def plain(result: object) -> object:
    return replace(result, text="") if isinstance(result, Intent) else result


def as_body(text: str, fmt: str) -> str:
    return html.escape(text, quote=False) if fmt == "html" else text


# --- never raises ------------------------------------------------------------------------------

_FRAGMENTS = st.sampled_from([
    "HAND3", "hand #", "ROUND1", "round", "raise", "folds", "call", "check", "all", "in", "-",
    "DICE52", "reveal", "7h", "10♠", "of hearts", "cards", "Cards printed by:", "printed by",
    "20", "-5", "20.5", "1,000", "２０", ">", ">>", "\n", " ", ",", ":", "#", "**", "_", "~~",
    "<b>", "</b>", "<blockquote>", "</blockquote>", "<q>", "[quote]", "[/quote]", "[quote=bob]",
    "\u200b", "\u200d", "а", "ο", "ｒ", "\u0301", "&amp;", "&gt;", "<br>", "<p>", "`", "\\*",
    "[link](http://x)", "![img](y)", "9" * 30, "٢", "\ufe0f", "♥", "\r\n",
])


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(FORMATS))
def test_parse_comment_never_raises_on_arbitrary_unicode(body: str, fmt: str) -> None:
    assert isinstance(parse_comment(body, fmt), (Intent, GrammarError, NoAction))


@settings(max_examples=500, deadline=None)
@given(st.lists(_FRAGMENTS, max_size=25).map("".join), st.sampled_from(FORMATS))
def test_parse_comment_never_raises_on_action_shaped_markup_soup(body: str, fmt: str) -> None:
    r = parse_comment(body, fmt)
    assert isinstance(r, (Intent, GrammarError, NoAction))
    if isinstance(r, GrammarError):
        assert r.code and r.message


# --- round trips -------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(intents, st.sampled_from(FORMATS))
def test_canonical_form_of_any_intent_parses_back_to_it(intent: Intent, fmt: str) -> None:
    assert plain(parse_comment(as_body(canonical(intent), fmt), fmt)) == intent


@settings(max_examples=200, deadline=None)
@given(intents)
def test_every_accepted_intent_round_trips_through_its_canonical_form(intent: Intent) -> None:
    # Start from a comment as a player might write it (lower case, extra spaces), accept it,
    # then check the canonical form of what was accepted reads back the same.
    messy = "  ".join(canonical(intent).lower().split(" "))
    first = parse_comment(messy)
    assert isinstance(first, Intent)
    assert first.text
    assert plain(parse_comment(canonical(first))) == plain(first)


# --- presentation never changes the reading -----------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(intents, st.sampled_from(["**", "__", "*", "_"]))
def test_markdown_emphasis_around_an_action_changes_nothing(intent: Intent, mark: str) -> None:
    assert plain(parse_comment(f"{mark}{canonical(intent)}{mark}")) == intent


@settings(max_examples=100, deadline=None)
@given(intents, st.sampled_from(["`", "``", "~~"]))
def test_an_action_in_a_code_span_or_struck_out_never_acts(intent: Intent, mark: str) -> None:
    assert parse_comment(f"{mark}{canonical(intent)}{mark}") == NoAction()


@settings(max_examples=200, deadline=None)
@given(intents, st.sampled_from(["b", "strong", "em", "i", "u", "span"]), st.booleans())
def test_html_emphasis_around_each_word_changes_nothing(intent: Intent, tag: str,
                                                         per_word: bool) -> None:
    c = html.escape(canonical(intent), quote=False)
    if per_word:
        body = " ".join(f"<{tag}>{w}</{tag}>" for w in c.split(" "))
    else:
        body = f"<p><{tag}>{c}</{tag}></p>"
    assert plain(parse_comment(body, "html")) == intent


@settings(max_examples=200, deadline=None)
@given(intents, st.integers(min_value=1, max_value=4), st.sampled_from(FORMATS))
def test_extra_spaces_between_words_change_nothing(intent: Intent, n: int, fmt: str) -> None:
    body = (" " * n).join(canonical(intent).split(" "))
    assert plain(parse_comment(as_body(body, fmt), fmt)) == intent


@settings(max_examples=200, deadline=None)
@given(intents, safe_chat, safe_chat, st.sampled_from(FORMATS))
def test_chat_on_lines_around_an_action_changes_nothing(intent: Intent, before: str, after: str,
                                                        fmt: str) -> None:
    sep = "<br>" if fmt == "html" else "\n\n"
    body = sep.join([as_body(before, fmt), as_body(canonical(intent), fmt), as_body(after, fmt)])
    assert plain(parse_comment(body, fmt)) == intent


@settings(max_examples=200, deadline=None)
@given(intents.filter(lambda i: i.hand is not None and i.kind != "draw"), safe_chat, safe_chat)
def test_chat_on_the_same_line_as_a_tagged_action_changes_nothing(intent: Intent, before: str,
                                                                  after: str) -> None:
    body = f"{before}: {canonical(intent)}. {after}"
    assert plain(parse_comment(body)) == intent


@settings(max_examples=200, deadline=None)
@given(intents, st.data())
def test_zero_width_characters_anywhere_change_nothing(intent: Intent, data: st.DataObject) -> None:
    c = canonical(intent)
    i = data.draw(st.integers(min_value=0, max_value=len(c)))
    zw = data.draw(st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]))
    assert plain(parse_comment(c[:i] + zw + c[i:])) == intent


@settings(max_examples=200, deadline=None)
@given(intents, st.booleans())
def test_the_same_action_repeated_counts_once(intent: Intent, signature: bool) -> None:
    body = f"{canonical(intent)}\n\n-- \n{canonical(intent)}" if signature else canonical(intent)
    assert plain(parse_comment(body)) == intent


# --- quotes never act -------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(intents, st.sampled_from(["md", "md-nested", "html", "bbcode", "bbcode-named", "text"]))
def test_a_quoted_action_never_acts(intent: Intent, how: str) -> None:
    c = canonical(intent)
    body, fmt = {
        "md": (f"> {c}\n\nnice one", "markdown"),
        "md-nested": (f">> {c}\n> agreed\n\nnice one", "markdown"),
        "html": (f"<blockquote><p>{html.escape(c, quote=False)}</p></blockquote><p>nice</p>",
                 "html"),
        "bbcode": (f"[quote]{c}[/quote] nice", "markdown"),
        "bbcode-named": (f'[quote="bob"]{c}[/quote]\nnice', "text"),
        "text": (f"> {c}\nnice", "text"),
    }[how]
    assert parse_comment(body, fmt) == NoAction()


# --- look-alikes are flagged, never read -------------------------------------------------------

_HOMOGLYPHS = {
    "a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "i": "і", "s": "ѕ",
    "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "H": "Н", "K": "К", "M": "М", "T": "Т",
    "N": "Ν", "D": "Ｄ", "R": "Ｒ", "l": "ӏ", "d": "ԁ",
}


@settings(max_examples=300, deadline=None)
@given(intents, st.data())
def test_a_single_lookalike_letter_anywhere_in_an_action_is_flagged(intent: Intent,
                                                                    data: st.DataObject) -> None:
    c = canonical(intent)
    spots = [i for i, ch in enumerate(c) if ch in _HOMOGLYPHS]
    i = data.draw(st.sampled_from(spots))
    fake = _HOMOGLYPHS[c[i]]
    r = parse_comment(c[:i] + fake + c[i + 1:])
    assert isinstance(r, GrammarError)
    assert r.code == "lookalike"
    assert f"U+{ord(fake):04X}" in r.message


# --- one comment, one action; chat never acts ---------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(intents, intents)
def test_two_different_actions_in_one_comment_are_ambiguous(a: Intent, b: Intent) -> None:
    r = parse_comment(f"{canonical(a)}\n\n{canonical(b)}")
    if a == b:
        assert plain(r) == a
    else:
        assert isinstance(r, GrammarError) and r.code == "ambiguous"


_CHAT_WORDS = st.sampled_from([
    "I", "will", "fold", "folds", "call", "calls", "me", "raise", "raises", "the", "stakes", "check",
    "this", "out", "all", "in", "hand", "3", "20", "nice", "pot", "bet", "dice", "next", "time",
    "was", "fun", "!", ",", ".", "?", "gg", "reveal", "my", "bluff", "Hand", "FOLD",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_CHAT_WORDS, max_size=30).map(" ".join))
def test_chat_with_action_words_but_no_tag_never_acts(body: str) -> None:
    # Only a HAND tag written as a tag (HAND3, Hand #3) or with a ROUND tag starts an action;
    # "hand 3 fold" in running text is English.
    assert parse_comment(body) == NoAction()
