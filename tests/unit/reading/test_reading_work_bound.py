"""The reading is bounded by the size of its input, never by how adversarial it is (issue 10):
a run of look-alike letters costs what one look-alike costs, and every family of hostile
comments (long look-alike runs, look-alikes alternating with Latin letters, combining marks,
deep nesting, huge numbers, many tokens, many lines) is read within a fixed budget of Python
steps. Counted, not timed: ``sys.settrace`` counts the Python lines executed (the reader's,
markdown-it-py's, everything), so the bound holds on any machine; wall time lives in
scripts/fuzz_comments.py and docs/benchmarks.md.

The run-based skeleton is also checked against the per-character one it replaced
(tests/kits/references/lookalike_skeleton.py)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.reading.grammar import parse_comment
from nomicpoker.core.reading.lookalike import orig_span, skeleton

from kits.references.lookalike_skeleton import reference_skeleton, reference_spots


def lines_executed(fn, *args) -> int:
    """Python lines executed by ``fn(*args)`` (every module: the reader and its parsers)."""
    count = 0

    def tracer(frame, event, arg):  # noqa: ARG001
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    parse_comment("warm up: HAND1 ROUND1 r\u0430ise 5", "markdown")  # tables built outside the count
    sys.settrace(tracer)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return count


CYR_A, CYR_O, PALOCHKA, CHEROKEE_A, ACUTE = "\u0430", "\u043e", "\u04cf", "\u13aa", "\u0301"

#: Each family at about the largest size read in full (10,000 characters).
FAMILIES = {
    "long look-alike run": lambda n: "HAND1 ROUND1 raise 10\n\n" + (CYR_A * n),
    "mixed-script run": lambda n: ("A" + CYR_A + "\u0251\u03b1\u2c6d" + CHEROKEE_A) * (n // 6),
    "look-alikes inside Latin words": lambda n: ("f" + CYR_O + PALOCHKA + "d ") * (n // 5),
    "look-alike commands": lambda n: ("r" + CYR_A + "ise f" + CYR_O + "ld ") * (n // 11),
    "combining marks": lambda n: ("e" + ACUTE) * (n // 2),
    "huge number": lambda n: "HAND1 ROUND1 raise " + "9" * n,
    "many tags": lambda n: "HAND1 " * (n // 6),
    "many lines": lambda n: "HAND1 ROUND1 raise 5\n" * (n // 21),
    "deep quotes": lambda n: "> " * (n // 2) + "HAND1 ROUND1 call",
    "deep lists": lambda n: "- " * (n // 2) + "HAND1 ROUND1 call",
    "brackets": lambda n: "[" * n,
    "cards": lambda n: "7h " * (n // 3),
    "bbcode strikes": lambda n: "[s]" * (n // 3 - 7) + "HAND#3 DICE52 DICE52",
    "bbcode quotes": lambda n: "[quote=bob]" * (n // 11) + "x",
    "html paragraphs": lambda n: "<p>a</p>" * (n // 8 - 3) + "HAND1 ROUND1 call",
    "html line breaks": lambda n: "<br>" * (n // 4 - 5) + "HAND1 ROUND1 call",
    "unclosed html tags": lambda n: "<a " * (n // 3),
}
#: The budget: Python lines per comment of at most 10,000 characters, whatever it holds
#: (a plain 200-character action takes ~2,000).
BUDGET = 60_000


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("fmt", ["markdown", "html", "text"])
def test_every_hostile_family_is_read_within_a_fixed_budget_of_steps(family, fmt):
    body = FAMILIES[family](9_950)
    assert 9_000 <= len(body) <= 10_000  # read in full (past 10,000 characters nothing is)
    used = lines_executed(parse_comment, body, fmt)
    assert used <= BUDGET, (family, fmt, used)


@pytest.mark.parametrize("make", [
    lambda n: CYR_A * n, lambda n: (CHEROKEE_A + "\u0391\u03b1") * (n // 3),
    lambda n: "HAND1 ROUND1 f" + CYR_O * n + "ld", lambda n: "x" + ACUTE * n,
])
def test_a_run_of_lookalikes_costs_the_same_whatever_its_length(make):
    """Python work per run, not per character: 100 look-alikes in a row and 9,000 in a row
    cost the same number of steps to skeletonise."""
    short, long_ = lines_executed(skeleton, make(100)), lines_executed(skeleton, make(9_000))
    assert long_ == short, (short, long_)


_TEXT = st.text(st.sampled_from(list("raise fold HAND1 ROUND2 lIo0 \n.") + [
    CYR_A, CYR_O, PALOCHKA, CHEROKEE_A, ACUTE, "\u0300", "\u0338", "\u00e9", "\u3000", "\u00a0",
    "\uff12", "\uff03", "\u2160", "\U0001d7cf", "\u0661", "\u0131", "\x00", "\x02", "\x01",
    "\u017f", "\ufb01", "\u212a", "\u0307", "\U000e0100"]), max_size=60)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_the_run_based_skeleton_agrees_with_the_per_character_one(visible):
    text, origin, flagged = reference_skeleton(visible)
    sk = skeleton(visible)
    assert sk.text == text
    assert [sk.to_visible(j) for j in range(len(text))] == list(origin)
    assert sk.flagged == flagged
    assert sorted(sk.ambiguous_spots()) == reference_spots(visible)
    for a in range(len(text) + 1):
        for b in range(a, len(text) + 1):
            va = origin[a] if a < len(origin) else len(visible)
            vb = origin[b] if b < len(origin) else len(visible)
            assert orig_span(sk, a, b) == ((va, max(va, vb)) if text else (0, 0))
            first = min((i for i in flagged if va <= i < max(va, vb)), default=None)
            assert sk.first_flagged(va, max(va, vb)) == first
