"""Playing cards: one canonical form (``7h``) for every way players write a card.

Players in comment threads write cards as ``7h``, ``7H``, ``7♥``, ``Th``, ``10h``,
``7 of hearts``, ``Ten of Spades`` or ``Q♠``. Everything past the parser (engine, ledger,
evaluator, dealing) sees only the canonical two-character form: rank from
``23456789TJQKA`` and suit from ``shdc`` (``7h``, ``Ts``, ``Ac``). Keeping cards as short
strings makes them trivially serialisable into the ledger and comments; the evaluator maps
them to integers internally.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "shdc"
#: The 52 distinct cards in a fixed order (rank-major): 2s 2h 2d 2c 3s ... Ac.
#: This is the order the dealing functions shuffle, so it is part of the public
#: fair-dealing construction and must never change.
FULL_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

Card = str  # canonical form, e.g. "7h"

RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}
RANK_PLURALS = {r: n + ("es" if n == "Six" else "s") for r, n in RANK_NAMES.items()}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}

_RANK_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K",
    "ace": "A", "deuce": "2", "trey": "3",
    "10": "T",
}
_SUIT_WORDS = {
    "spade": "s", "spades": "s", "heart": "h", "hearts": "h",
    "diamond": "d", "diamonds": "d", "club": "c", "clubs": "c",
}
_SUIT_CHARS = {
    "s": "s", "h": "h", "d": "d", "c": "c",
    "♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c",
}
# Emoji presentation selector that often follows suit symbols ("♥️").
_VS16 = "\ufe0f"


@dataclass(frozen=True)
class CardError(ValueError):
    """A token that is not a card. ``code`` is stable for callers; ``token`` is quoted back."""

    token: str
    reason: str
    code: str = "bad_card"

    def __str__(self) -> str:
        return f"{self.token!r} is not a card: {self.reason}"


def _rank(text: str) -> str | None:
    t = text.strip().lower()
    if t in _RANK_WORDS:
        return _RANK_WORDS[t]
    if len(t) == 1 and t.upper() in RANKS:
        return t.upper()
    return None


_SHORT = re.compile(r"^(10|[2-9tjqka])([shdc♠♤♥♡♦♢♣♧])$", re.IGNORECASE)
_LONG = re.compile(r"^([a-z0-9]+)\s+of\s+([a-z]+)$", re.IGNORECASE)


def parse_card(token: str) -> Card:
    """Parse one card in any accepted spelling and return its canonical form.

    Raises :class:`CardError` naming the token when it is not a card.
    """
    raw = token
    t = token.strip().replace(_VS16, "")
    if not t:
        raise CardError(raw, "empty")
    m = _SHORT.match(t)
    if m:
        rank = _rank(m.group(1))
        suit = _SUIT_CHARS[m.group(2).lower()]
        if rank is not None:
            return rank + suit
    m = _LONG.match(t)
    if m:
        rank = _rank(m.group(1))
        suit = _SUIT_WORDS.get(m.group(2).lower())
        if rank is None:
            raise CardError(raw, f"unknown rank {m.group(1)!r}")
        if suit is None:
            raise CardError(raw, f"unknown suit {m.group(2)!r}")
        return rank + suit
    raise CardError(raw, "expected a rank (2-10, J, Q, K, A) and a suit (s, h, d, c, ♠♥♦♣ or a word)")


_TOKEN = re.compile(
    r"(?:[a-z0-9]+\s+of\s+[a-z]+)"  # seven of hearts (first: "Ace of" must not read as "Ac")
    r"|(?:(?:10|[2-9tjqka])\s*[shdc♠♤♥♡♦♢♣♧]\ufe0f?)",  # 7h, 10h, Q♠
    re.IGNORECASE,
)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a list of cards: ``"7h 2s"``, ``"7h2s"``, ``"AcKd"``, ``"7 of hearts, 2 of spades"``.

    Every non-separator character must belong to a card; leftovers raise :class:`CardError`
    naming the first unparseable piece, so ``"7h 2x"`` is an error, not ``("7h",)``.
    """
    cards: list[Card] = []
    pos = 0
    s = text
    sep = re.compile(r"[\s,;/&+]+|\band\b", re.IGNORECASE)
    while pos < len(s):
        m = sep.match(s, pos)
        if m and m.end() > pos:
            pos = m.end()
            continue
        m = _TOKEN.match(s, pos)
        if not m:
            rest = re.split(r"[\s,;]+", s[pos:].strip(), maxsplit=1)[0]
            raise CardError(rest, "not a card")
        cards.append(parse_card(re.sub(r"\s+", " ", m.group(0))))
        pos = m.end()
    return tuple(cards)


def rank_value(card: Card) -> int:
    """2..14 (ace high)."""
    return RANKS.index(card[0]) + 2


def card_name(card: Card) -> str:
    """``"7h"`` -> ``"Seven of Hearts"``."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]].capitalize()}"


def pretty(card: Card) -> str:
    """``"7h"`` -> ``"7♥"``, ``"Ts"`` -> ``"10♠"``: for dealer comments."""
    r = "10" if card[0] == "T" else card[0]
    return r + SUIT_SYMBOLS[card[1]]


def format_cards(cards: tuple[Card, ...] | list[Card], symbols: bool = True) -> str:
    return " ".join(pretty(c) if symbols else c for c in cards)
