"""Conditional and joined orders, the rest of issue 10's ``check/fold`` family: a second
action joined by any punctuation or connective, or a condition right after the action, is
refused, never read as its first half; chat after a full stop, or without an action word, is
still chat."""

from __future__ import annotations

import pytest

from nomicpoker.core.reading.grammar import GrammarError, Intent, parse_comment


@pytest.mark.parametrize("join", [
    "/", " / ", "|", "\\", " -> ", " => ", " → ", " ⇒ ", ", otherwise ", " or else ", " and then ",
    "; later ", ", maybe ", " (", " [", " ~ ", ", but ", " else ",
])
@pytest.mark.parametrize("fmt", ["markdown", "html", "text"])
def test_two_actions_however_joined_are_ambiguous(join, fmt):
    r = parse_comment(f"HAND1 ROUND2 check{join}fold", fmt)
    assert isinstance(r, GrammarError) and r.code == "ambiguous", (join, fmt, r)


@pytest.mark.parametrize("tail", ["if nobody raised", ", if nobody raised", "unless bob bets",
                                  "(if it is still 20)", "provided nobody raised"])
def test_a_condition_after_the_action_is_refused_not_guessed(tail):
    r = parse_comment(f"HAND1 ROUND1 call {tail}", "markdown")
    assert isinstance(r, GrammarError) and r.code == "unparseable", (tail, r)
    assert "conditional" in r.message


@pytest.mark.parametrize("body,kind", [
    ("HAND1 ROUND1 folds gg everyone", "fold"), ("HAND1 ROUND1 call, good luck", "call"),
    ("HAND1 ROUND1 raise 20 (that's all)", "raise"), ("HAND1 ROUND1 call. If you fold I win", "call"),
    ("HAND1 ROUND1 call - gl", "call"), ("HAND1 ROUND1 call :)", "call"), ("HAND1 ROUND1 raise 20 <3", "raise"),
    ("HAND1 ROUND1 call, when in doubt", "call"), ("HAND1 ROUND1 check.\nfold is for cowards", "check"),
])
def test_chat_after_a_complete_action_is_still_chat(body, kind):
    r = parse_comment(body, "markdown")
    assert isinstance(r, Intent) and r.kind == kind, (body, r)
