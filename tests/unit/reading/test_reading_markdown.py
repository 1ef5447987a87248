"""Markdown is read as CommonMark reads it: an action acts exactly when a reader of the
rendered page sees it as the author's own (visible, not quoted, not struck out, not code).

The expected visibility is decided by how each comment is *built* here (the oracle), and
cross-checked against markdown-it-py's own token stream, never taken from nomicpoker's reader.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, canonical, parse_comment
from kits.references.grammar import intents

MD = MarkdownIt("commonmark", {"html": True}).enable(["strikethrough", "table"])


def plain(r: object) -> object:
    return replace(r, text="") if isinstance(r, Intent) else r


# --- the examples, and the rest of each family --------------------------------------

@pytest.mark.parametrize("body", [
    "- > HAND1 ROUND1 raise 30",                 # a quote inside a list item
    "1. > HAND1 ROUND1 raise 30",
    "- item\n  - > HAND1 ROUND1 raise 30",        # ... inside a nested list
    "* - > HAND1 ROUND1 raise 30",
    "> - HAND1 ROUND1 raise 30",                 # a list inside a quote
    ">     HAND1 ROUND1 raise 30",               # code inside a quote
    "hello\n\n<!--\nHAND1 ROUND1 raise 30",      # an unclosed HTML comment hides the rest
    "<!-- note\n\nHAND1 ROUND1 raise 30",
    "<blockquote>\n\nHAND1 ROUND1 raise 30\n\n</blockquote>",
    "<s>\n\nHAND1 ROUND1 raise 30\n\n</s>",
    "    HAND1 ROUND1 raise 30",                 # an indented code block
    "```\nHAND1 ROUND1 raise 30\n```",
    "```\nHAND1 ROUND1 raise 30",                # an unclosed fence runs to the end
    "~~~\nHAND1 ROUND1 raise 30\n~~~",
    "``HAND1 ROUND1 raise 30``",
    "<pre>HAND1 ROUND1 raise 30</pre>",
    "~~HAND1 ROUND1 raise 30~~",
    "<del>HAND1 ROUND1 raise 30</del>",
    "&gt; HAND1 ROUND1 raise 30",               # Reddit's entity-escaped quote
    "| a |\n|---|\n| > x |\n\n> HAND1 ROUND1 raise 30",
])
def test_what_the_page_shows_as_quoted_hidden_code_or_struck_never_acts(body: str) -> None:
    assert parse_comment(body, "markdown") == NoAction()


@pytest.mark.parametrize("body", [
    "a ~~b\n\nHAND1 ROUND1 raise 10\n\nc~~ d",     # stray ~~ in different paragraphs strike nothing
    "~~a\n\nHAND1 ROUND1 raise 10",
    "HAND1 ROUND1 raise 10\n\n~~",
    "hello <!-- HAND1 ROUND1 raise 10",         # inline "<!--" with no end is shown as text
    "[quote]HAND1 ROUND1 raise 5[/quote]\n\nHAND1 ROUND1 raise 10",
    "- HAND1 ROUND1 raise 10",                  # a list item is the author's own text
    "| table | x |\n|---|---|\n| HAND1 ROUND1 raise 10 | y |",
    "## HAND1 ROUND1 raise 10",
    "\\> HAND1 ROUND1 raise 10 is what I would do? no:\n\nHAND1 ROUND1 raise 10",
])
def test_what_the_page_shows_as_the_authors_own_acts(body: str) -> None:
    assert plain(parse_comment(body, "markdown")) == Intent("raise", hand=1, round=1, amount=10)


def test_an_escaped_quote_marker_looks_like_a_quote_and_does_not_act() -> None:
    # "\>" renders a literal ">" at the start of the line: readers take it for a quote.
    assert parse_comment("\\> HAND1 ROUND1 raise 10", "markdown") == NoAction()


# --- the corpus: every form, wrapped in everything that hides it ------------------------------

CORPUS = [
    "HAND3 ROUND1 raise 20", "Hand #3, Round 1: raises 20", "HAND3 ROUND1 folds", "HAND3 ROUND2 check",
    "HAND3 ROUND1 call", "HAND3 ROUND1 call 20", "HAND3 ROUND1 all in", "HAND#3 DICE52 DICE52",
    "Spikebrennan cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko",
    "HAND3 reveal 7h 2s", "7♥ 2♠", "reveal 7h 2s", "ROUND1 raise 20", "HAND3 ROUND1 raise 1,000",
    "my cards: 7h 2s", "HAND 3 ROUND 1 raise 20", "HAND3 7♥ 2♠",
]

HIDERS = {
    "quote": lambda c: f"> {c}",
    "nested quote": lambda c: f"> > {c}",
    "quote in a list": lambda c: f"- > {c}",
    "quote in a nested list": lambda c: f"- a\n\n  1. > {c}",
    "html comment": lambda c: f"<!-- {c} -->",
    "unclosed html comment": lambda c: f"<!--\n{c}",
    "code span": lambda c: f"`{c}`",
    "code block": lambda c: f"```\n{c}\n```",
    "indented code": lambda c: f"    {c}",
    "strikethrough": lambda c: f"~~{c}~~",
    "html strike": lambda c: f"<s>{c}</s>",
    "html quote": lambda c: f"<blockquote>{c}</blockquote>",
}


def _rendered_inside(body: str, needle_word: str) -> set[str]:
    """Where markdown-it puts the comment's words: the kinds of container around each text
    token holding ``needle_word`` (independent of nomicpoker's reader)."""
    where: set[str] = set()
    stack: list[str] = []
    for tok in MD.parse(body):
        if tok.type == "blockquote_open":
            stack.append("quote")
        elif tok.type == "blockquote_close":
            stack.pop()
        elif tok.type in ("code_block", "fence") and needle_word in tok.content:
            where.add("code")
        elif tok.type == "html_block" and needle_word in tok.content:
            where.add("html")
        elif tok.type == "inline":
            inner: list[str] = []
            for ch in tok.children or []:
                if ch.type == "s_open":
                    inner.append("strike")
                elif ch.type == "s_close":
                    inner.pop()
                elif ch.type == "code_inline" and needle_word in ch.content:
                    where.add("code")
                elif ch.type == "html_inline":
                    tag = ch.content.strip("<>/ ").split()[0].lower() if ch.content.strip("<>/ ") else ""
                    if tag in ("s", "del", "strike", "code", "q", "blockquote"):
                        if ch.content.startswith("</"):
                            inner.pop()
                        else:
                            inner.append(tag)
                elif ch.type == "text" and needle_word in ch.content:
                    where.add("+".join(stack + inner) or "visible")
    return where


@pytest.mark.parametrize("how", sorted(HIDERS))
@pytest.mark.parametrize("action", CORPUS)
def test_no_form_of_the_corpus_acts_when_the_page_hides_it(action: str, how: str) -> None:
    assert isinstance(parse_comment(action, "markdown"), Intent), action  # the form acts bare
    body = HIDERS[how](action)
    word = action.split()[-1]
    assert "visible" not in _rendered_inside(body, word), (body, _rendered_inside(body, word))
    assert parse_comment(body, "markdown") == NoAction(), body


# --- generated comments: acts exactly when visible and unquoted ------------------------------

_CHAT = ["nice hand", "good luck all", "hmm, tough spot", "gg", "thinking..."]


@st.composite
def _blocks(draw: st.DrawFn) -> tuple[str, list[tuple[Intent, bool]]]:
    """A comment of blank-line-separated blocks, each chat or an action, each maybe quoted,
    struck out, in a code span, emphasised, or nested in lists; with the oracle's answer
    (which actions a reader sees as the author's own)."""
    n = draw(st.integers(min_value=1, max_value=5))
    blocks: list[str] = []
    actions: list[tuple[Intent, bool]] = []
    for _ in range(n):
        if draw(st.booleans()):
            intent = draw(intents)
            text = canonical(intent)
        else:
            intent, text = None, draw(st.sampled_from(_CHAT))
        hide = draw(st.sampled_from(["none", "none", "quote", "strike", "code", "comment"]))
        if hide == "strike":
            text = f"~~{text}~~"
        elif hide == "code":
            text = f"`{text}`"
        elif hide == "comment":
            text = f"<!-- {text} -->"
        elif hide == "none" and intent is not None and intent.kind != "draw":
            mark = draw(st.sampled_from(["", "**", "*", "_", "__"]))
            text = f"{mark}{text}{mark}"
        depth = draw(st.integers(min_value=0, max_value=3))
        markers = "".join(draw(st.sampled_from(["- ", "* ", "1. "])) for _ in range(depth))
        body = markers + ("> " if hide == "quote" else "") + text  # "- * > x": nested lists
        blocks.append(body)
        if intent is not None:
            actions.append((intent, hide == "none"))
    return "\n\n".join(blocks), actions


@settings(max_examples=300, deadline=None)
@given(_blocks())
def test_an_action_acts_exactly_when_it_is_visible_and_unquoted(comment) -> None:  # type: ignore[no-untyped-def]
    body, actions = comment
    seen = {canonical(i): i for i, visible in actions if visible}
    r = parse_comment(body, "markdown")
    if not seen:
        assert r == NoAction(), body
    elif len(seen) == 1:
        assert plain(r) == next(iter(seen.values())), body
    else:
        assert isinstance(r, GrammarError) and r.code == "ambiguous", body
