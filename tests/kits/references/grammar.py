"""Hypothesis strategies for the comment grammar: every kind of :class:`Intent` a comment can
carry (tags, amounts, reveals, draws, dice), shared by tests/unit/reading/test_grammar_properties.py
and test_reading_markdown.py."""

from __future__ import annotations

from hypothesis import strategies as st

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.reading.grammar import Intent

hands = st.integers(min_value=0, max_value=10**6)
rounds = st.none() | st.integers(min_value=1, max_value=99)
amounts = st.integers(min_value=1, max_value=10**9)


@st.composite
def _tags(draw: st.DrawFn) -> tuple[int | None, int | None]:
    """HAND and ROUND tags of a betting action: the HAND tag may be forgotten only when a
    ROUND tag is there (the grammar reads it so the engine can reject it)."""
    hand = draw(st.none() | hands)
    rnd = draw(rounds) if hand is not None else draw(st.integers(min_value=1, max_value=99))
    return hand, rnd


tags = _tags()


def _tagged(kind: str) -> st.SearchStrategy[Intent]:
    return st.builds(lambda t: Intent(kind, hand=t[0], round=t[1]), tags)  # type: ignore


@st.composite
def _reveals(draw: st.DrawFn) -> Intent:
    hand = draw(st.none() | hands)
    rnd = draw(rounds) if hand is not None else None
    cards = draw(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=7))
    return Intent("reveal", hand=hand, round=rnd, cards=tuple(cards))


_CHECKSUM_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz .,'-"


@st.composite
def _draws(draw: st.DrawFn) -> Intent:
    hand = draw(st.none() | hands)
    rnd = draw(rounds) if hand is not None else None
    positions = draw(st.lists(st.integers(min_value=1, max_value=52), min_size=1, max_size=4))
    raw = draw(st.text(_CHECKSUM_ALPHABET, min_size=1, max_size=40))
    checksum = " ".join(raw.split()).strip(" .,;:!?'\"")
    if not checksum or checksum[0] in ".,-":
        checksum = ("Grimes Printing, " + checksum).strip(" .,;:!?'\"")
    return Intent("draw", hand=hand, round=rnd, positions=tuple(positions), checksum=checksum)


intents = st.one_of(
    st.builds(lambda t, a: Intent("raise", hand=t[0], round=t[1], amount=a), tags, amounts),
    st.builds(lambda t, a: Intent("call", hand=t[0], round=t[1], amount=a), tags,
              st.none() | st.integers(min_value=0, max_value=10**9)),
    _tagged("fold"), _tagged("check"), _tagged("all_in"),
    st.builds(lambda h, r, d: Intent("dice", hand=h, round=r, dice=tuple(d)), hands, rounds,
              st.lists(st.integers(min_value=2, max_value=1000), min_size=1, max_size=4)),
    _reveals(), _draws(),
)
