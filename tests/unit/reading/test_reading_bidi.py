"""What readers see is what acts, also against reordering and look-alike tags (issue 10's
"look-alike letters are never silently read" family).

1. Explicit bidi controls ("Trojan Source", CVE-2021-42574): U+202E RIGHT-TO-LEFT OVERRIDE
   before ``02`` makes a browser show "raise 20" while the characters are ``0``, ``2``. Such an
   attempt is refused (code ``lookalike``), whatever the control and wherever it sits on the
   line; chat holding them stays chat; the reply quotes the attempt without the controls.
2. A look-alike digit in a HAND tag (``HAND\u0661``: ARABIC-INDIC DIGIT ONE, which TR39 maps to
   ``l``) used to make the tag invisible to the grammar, so ``ROUND1 fold`` after it acted in
   whatever hand was running, while readers see "HAND1".

Expected readings are what a reader of the rendered line sees, worked out by hand from the
Unicode Bidirectional Algorithm (UAX #9), not taken from the code.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, parse_comment
from nomicpoker.core.reading.markup import BIDI_CONTROLS

LRE, RLE, PDF, LRO, RLO = "\u202a\u202b\u202c\u202d\u202e"
LRI, RLI, FSI, PDI = "\u2066\u2067\u2068\u2069"


def refused(body: str) -> GrammarError:
    r = parse_comment(body)
    assert isinstance(r, GrammarError) and r.code == "lookalike", (body, r)
    return r


@pytest.mark.parametrize("body, shown", [
    # the override reverses "02": readers see "raise 20", the characters say 2
    (f"HAND1 ROUND1 raise {RLO}02", "raise 20"),
    (f"HAND1 ROUND1 raise {RLO}02{PDF}", "raise 20"),
    (f"HAND1 ROUND1 raise {RLI}{RLO}02{PDI}", "raise 20"),
    # "dlof" reversed reads "fold" on the page
    (f"HAND1 ROUND1 {RLO}dlof", "fold"),
    # the whole line reversed: readers see "dlof 1DNUOR 1DNAH", not an action
    (f"{RLO}HAND1 ROUND1 fold", "dlof 1DNUOR 1DNAH"),
    # a control inside a tag, and an embedding
    (f"HA{RLO}ND1 ROUND1 fold", ""),
    (f"HAND1 ROUND1 {RLE}raise 20{PDF}", ""),
    (f"HAND1 ROUND1 raise 20 {LRO}chips", ""),
])
def test_an_attempt_on_a_line_with_a_bidi_control_is_refused(body: str, shown: str) -> None:
    e = refused(body)
    assert "direction controls" in e.message and "U+" in e.message
    # the reply must not carry the control: it would reorder the Dealer's own line
    assert not any(c in e.message or c in e.text for c in BIDI_CONTROLS)


@pytest.mark.parametrize("control", list(BIDI_CONTROLS))
def test_every_explicit_control_is_named(control: str) -> None:
    e = refused(f"HAND1 ROUND1 raise {control}20")
    assert f"U+{ord(control):04X} {unicodedata.name(control)}" in e.message


@pytest.mark.parametrize("body", [
    f"\u05e9\u05dc\u05d5\u05dd {RLI}abc{PDI} nice hand",   # Hebrew chat with an isolate
    f"{RLO}gg all{PDF}",
    f"{LRE}well played{PDF}",
])
def test_chat_with_bidi_controls_stays_chat(body: str) -> None:
    assert isinstance(parse_comment(body), NoAction)


def test_a_control_on_another_line_does_not_touch_the_action() -> None:
    r = parse_comment(f"HAND1 ROUND1 raise 20\n\n{RLO}olleh")
    assert isinstance(r, Intent) and r.kind == "raise" and r.amount == 20


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c"])
def test_direction_marks_alone_are_invisible_and_do_not_reorder_digits(mark: str) -> None:
    # a mark is a single strong (or Arabic) character, not an override: in a left-to-right
    # line "raise 2<RLM>0" still shows "raise 20" (UAX #9: the European digits keep their
    # order), so the mark is dropped like any other invisible character
    r = parse_comment(f"HAND1 ROUND1 raise 2{mark}0")
    assert isinstance(r, Intent) and r.amount == 20


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(BIDI_CONTROLS)),
       st.sampled_from(["HAND1 ROUND1 raise 20", "HAND1 ROUND1 fold", "HAND2 ROUND3 call",
                        "HAND1 DICE52 DICE52", "ROUND1 check"]),
       st.data())
def test_a_bidi_control_anywhere_on_an_action_line_never_acts(control, line, data) -> None:
    at = data.draw(st.integers(0, len(line)))
    body = line[:at] + control + line[at:]
    assert not isinstance(parse_comment(body), Intent), ascii(body)


@pytest.mark.parametrize("body", [
    "HAND\u0661 ROUND1 fold",        # ARABIC-INDIC DIGIT ONE, TR39 prototype "l"
    "HAND\u06f1 ROUND1 fold",        # EXTENDED ARABIC-INDIC DIGIT ONE
    "HAND\u0661 ROUND\u0661 raise 20",
])
def test_a_look_alike_digit_in_a_hand_tag_is_refused_not_dropped(body: str) -> None:
    e = refused(body)
    assert "only looks like a plain letter or digit" in e.message


def test_an_untagged_action_after_plain_chat_still_acts() -> None:
    # the second reading applies to look-alikes only: ordinary words before ROUND1 are chat
    for body in ("Ok ROUND1 fold", "\u041f\u0440\u0438\u0432\u0435\u0442 ROUND1 fold"):
        r = parse_comment(body)
        assert isinstance(r, Intent) and r.kind == "fold" and r.hand is None, body
