"""Fair dealing: turn committed secrets into community cards, dice and Trading Post decks.

Nobody should have to trust the Dealer's account. Every random thing the bot does in a hand
(community cards, dice on forums without a roller, decks issued to players) is a pure function
of three 32-byte secrets the shell draws at hand start with ``secrets.token_bytes(32)``:

- ``deck``  -> the community cards (:func:`board_cards`),
- ``dice``  -> the dice roller (:func:`roll`),
- ``decks`` -> the Trading Post decks issued to players (:func:`issue_deck`).

:class:`HandSecrets` holds the three as one value (the shell's
:mod:`nomicpoker.shell.storage.secrets_store` generates and keeps them).

The hand-start comment posts :func:`commitment` of each; the secrets themselves are published
when the hand ends, and anyone can then recompute everything (:mod:`nomicpoker.core.fairness.verify`, or the
few-line reference implementation in docs/fair-dealing.md).

WHY this module is pure and has no randomness of its own: the same secret must give the same
cards for the bot, for the replay audit and for an auditor's re-implementation in another
language. The byte-level construction below is public and must never change:

- A *stream* for ``(secret, label)`` is the sequence of blocks
  ``HMAC-SHA256(key=secret, msg=UTF-8(label) || uint32_be(counter))`` for counter 0, 1, 2, ...
- ``uniform(n)`` takes the next block, reads its first 4 bytes as a big-endian unsigned
  integer ``x`` and returns ``x % n`` if ``x < 2**32 - (2**32 % n)``; otherwise it rejects the
  block and takes the next one (rejection sampling: no modulo bias).
- :func:`shuffled` is Fisher–Yates: for ``i`` from ``len-1`` down to ``1``,
  ``j = uniform(i + 1)``, swap positions ``i`` and ``j``. It starts from
  :data:`nomicpoker.core.poker.cards.FULL_DECK` (2s 2h 2d 2c 3s ... Ac).
- Labels: ``board:<hand>``, ``deck:<hand>:<player>``, ``dice:<comment_id>:<index>:<sides>``
  (hand and numbers in decimal without leading zeros; player and comment id verbatim).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from nomicpoker.core.poker.cards import FULL_DECK, Card
from nomicpoker.core.fairness.printers import INITIALS, SURNAMES, TOWNS, TRADES

#: The three secrets of a hand, in the order they are posted and published.
SECRET_NAMES: tuple[str, ...] = ("deck", "dice", "decks")
#: Bytes per secret (the shell uses ``secrets.token_bytes(SECRET_BYTES)``).
SECRET_BYTES = 32
#: Hex digits of the digest quoted after the printer's name, e.g. ``(3fa2c1d0)``.
CHECKSUM_HEX_DIGITS = 8
CHECKSUM_PREFIX = "Cards printed by:"

_U32 = 1 << 32

#: Stable error codes of :class:`DealingError`.
ERROR_CODES: tuple[str, ...] = (
    "bad_secret", "bad_label", "bad_hand", "bad_player", "bad_comment_id", "bad_index",
    "bad_sides", "bad_deck", "bad_position",
)


@dataclass(frozen=True)
class DealingError(ValueError):
    """A dealing function was called with something it cannot deal from.

    ``code`` is stable (one of :data:`ERROR_CODES`) so the bot can map it to a rejection or a
    dealer message without parsing text; ``message`` says what was wrong, with the value.
    """

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


# --------------------------------------------------------------------------- primitives


def _check_secret(secret: bytes) -> bytes:
    if not isinstance(secret, (bytes, bytearray)) or len(secret) == 0:
        raise DealingError("bad_secret", "a secret must be non-empty bytes")
    return bytes(secret)


def _check_nonneg_int(value: object, code: str, what: str) -> int:
    # bool is an int in Python; True as a hand number is a bug upstream, not hand 1.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DealingError(code, f"{what} must be a non-negative integer, got {value!r}")
    return value


def commitment(secret: bytes) -> str:
    """Lowercase hex SHA-256 of the raw secret bytes: posted at hand start.

    WHY a plain hash suffices: the secret is 32 random bytes, so it cannot be guessed from
    its hash, and the Dealer cannot later publish a different secret with the same hash.
    """
    return hashlib.sha256(_check_secret(secret)).hexdigest()


@dataclass(frozen=True)
class HandSecrets:
    """The three 32-byte secrets of a hand. ``repr`` never shows them.

    WHY here and not in the secrets store: the table fold (core) carries a hand's secrets as
    an input, so their type must be core too. Generating them (randomness) and keeping them on
    disk (I/O) stay in the shell, :mod:`nomicpoker.shell.storage.secrets_store`.
    """

    deck: bytes = field(repr=False)
    dice: bytes = field(repr=False)
    decks: bytes = field(repr=False)

    def by_name(self) -> dict[str, bytes]:
        return {"deck": self.deck, "dice": self.dice, "decks": self.decks}

    def commitments(self) -> dict[str, str]:
        """The SHA-256 commitments posted at hand start (safe to publish at any time)."""
        return {name: commitment(value) for name, value in self.by_name().items()}

    def published(self) -> dict[str, str]:
        """The hex secrets, for the payout comment and the ledger once the hand has ended."""
        return {name: value.hex() for name, value in self.by_name().items()}


def _blocks(secret: bytes, label: str) -> Iterator[bytes]:
    """The HMAC-SHA256 stream for ``(secret, label)``: one 32-byte block per counter value."""
    key = _check_secret(secret)
    if not isinstance(label, str):
        raise DealingError("bad_label", f"a label must be a string, got {label!r}")
    prefix = label.encode("utf-8")
    counter = 0
    while True:
        # The counter is fixed-width, so label||counter never collides across labels.
        yield hmac.new(key, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1


def _uniform(blocks: Iterator[bytes], n: int) -> int:
    """An unbiased integer in ``0..n-1`` from the stream (rejection sampling)."""
    limit = _U32 - (_U32 % n)
    for block in blocks:
        x = int.from_bytes(block[:4], "big")
        if x < limit:
            return x % n
    raise AssertionError("unreachable: the stream is infinite")  # pragma: no cover


def shuffled(secret: bytes, label: str, cards: Sequence[Card] = FULL_DECK) -> tuple[Card, ...]:
    """The cards in the order Fisher–Yates puts them, driven by the ``(secret, label)`` stream.

    Different labels give independent shuffles from one secret, so one committed secret can
    serve every street or every player without any two draws being related.
    """
    deck = list(cards)
    blocks = _blocks(secret, label)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform(blocks, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


# --------------------------------------------------------------------------- community cards

#: Street of each community card by dealing position (1-based).
BOARD_STREETS: tuple[str, ...] = ("flop", "flop", "flop", "turn", "river")


def board_cards(deck_secret: bytes, hand: int) -> tuple[Card, ...]:
    """The whole shuffled deck for the hand's community cards, in dealing order.

    The flop is the first three cards, the turn the fourth, the river the fifth. Returning the
    whole deck (not five) lets a table with burn cards or a shared deck take more later without
    changing how the first five are made.
    """
    _check_nonneg_int(hand, "bad_hand", "hand")
    return shuffled(deck_secret, f"board:{hand}")


def deal_order(seats: Sequence[str], button: str) -> tuple[str, ...]:
    """The seats in dealing order: the first seat after the button (GNDT order) first, the
    button last, as a dealer deals round a table."""
    names = tuple(seats)
    if button not in names:
        raise DealingError("bad_player", f"the button {button!r} is not one of the seats {names!r}")
    i = names.index(button)
    return names[i + 1:] + names[:i + 1]


def shared_holes(deck_secret: bytes, hand: int, order: Sequence[str], per_player: int = 2
                 ) -> dict[str, tuple[Card, ...]]:
    """Hole cards from the dealer's one shared deck (``roberts-nlhe``): the same shuffle as
    :func:`board_cards`, whose cards 1–5 stay the board; then, one card at a time round the
    table in ``order`` (:func:`deal_order`), the ``i``-th player (0-based) of ``n`` gets cards
    ``6 + i``, ``6 + n + i``, ... (1-based).

    WHY after the board rather than before it, as a real dealer deals: any fixed assignment of
    positions in a uniformly shuffled deck is equally fair, and this one keeps "the board is
    cards 1–5" true for every ruleset, so the verifier and the reference implementation need
    no second rule for the board."""
    names = tuple(order)
    if len(set(names)) != len(names) or not all(isinstance(p, str) and p for p in names):
        raise DealingError("bad_player", f"players must be distinct non-empty names, got {names!r}")
    n = len(names)
    if len(BOARD_STREETS) + per_player * n > len(FULL_DECK):
        raise DealingError("bad_position", f"{n} players x {per_player} hole cards and a board of "
                           f"{len(BOARD_STREETS)} do not fit in one deck of {len(FULL_DECK)}")
    deck = board_cards(deck_secret, hand)
    first = len(BOARD_STREETS)
    return {p: tuple(deck[first + i + k * n] for k in range(per_player)) for i, p in enumerate(names)}


# --------------------------------------------------------------------------- dice


def roll(dice_secret: bytes, comment_id: str, index: int, sides: int) -> int:
    """The result (1..sides) of the ``index``-th die (0-based) named in comment ``comment_id``.

    WHY keyed by the comment id: the forum assigns the id, so neither the player nor the
    Dealer picks which part of the stream a die reads, and re-polling the same comment always
    gives the same result (the bot's dice log is a cache, not a source of truth).
    """
    if not isinstance(comment_id, str) or not comment_id:
        raise DealingError("bad_comment_id", f"a comment id must be a non-empty string, got {comment_id!r}")
    _check_nonneg_int(index, "bad_index", "die index")
    if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= _U32:
        raise DealingError("bad_sides", f"a die needs 1..2**32 sides, got {sides!r}")
    return _uniform(_blocks(dice_secret, f"dice:{comment_id}:{index}:{sides}"), sides) + 1


def dice_pair_ok(a: int, b: int) -> bool:
    """Is a Hole Card Draw ``a, b`` usable? The rule: identical results are drawn again."""
    return a != b


# --------------------------------------------------------------------------- Trading Post decks


@dataclass(frozen=True)
class IssuedDeck:
    """A Trading Post deck issued to one player for one hand (sent to them privately).

    ``cards[0]`` is position 1. ``digest`` is the hex SHA-256 of the canonical deck text
    (:func:`deck_text`); ``checksum`` is the full ``Cards printed by: ...`` line.
    """

    player: str
    hand: int
    cards: tuple[Card, ...]
    digest: str
    checksum: str


def _check_deck(cards: Sequence[Card]) -> tuple[Card, ...]:
    deck = tuple(cards)
    if len(deck) != 52 or len(set(deck)) != 52 or not set(deck) <= set(FULL_DECK):
        raise DealingError(
            "bad_deck", "a Trading Post deck is the 52 distinct cards in canonical form (e.g. 7h)"
        )
    return deck


def deck_text(cards: Sequence[Card]) -> str:
    """The canonical text of a deck: its 52 cards in position order joined by single spaces.

    This (ASCII) text is what :func:`deck_digest` hashes, e.g. ``"7h 2s Kd ... Ac"``.
    """
    return " ".join(_check_deck(cards))


def deck_digest(cards: Sequence[Card]) -> str:
    """Lowercase hex SHA-256 of :func:`deck_text`."""
    return hashlib.sha256(deck_text(cards).encode("ascii")).hexdigest()


def _checksum_from_digest(digest: str) -> str:
    d = bytes.fromhex(digest)
    printer = f"{INITIALS[d[4] % 16]}. {INITIALS[d[5] % 16]}. {SURNAMES[d[6] % 64]} {TRADES[d[7] % 16]}"
    return f"{CHECKSUM_PREFIX} {printer}, {TOWNS[d[8] % 64]} ({digest[:CHECKSUM_HEX_DIGITS]})"


def deck_checksum(cards: Sequence[Card]) -> str:
    """The ``Cards printed by: <Printer>, <Town> (<hex>)`` line for a 52-card deck.

    The hex is the first 8 digits of the deck digest (digest bytes 0-3); the printer and town
    come from bytes 4-8, so the name and the hex carry different bits and together identify
    the deck with about 52 bits. Any change to the deck (even swapping two cards) changes it.
    """
    return _checksum_from_digest(deck_digest(cards))


def issue_deck(decks_secret: bytes, hand: int, player: str) -> IssuedDeck:
    """The deck the Trading Post issues to ``player`` for ``hand``.

    WHY per (hand, player) labels: the rule gives every Seated Player a *new* deck each hand,
    and no player's deck may tell them anything about another's.
    """
    _check_nonneg_int(hand, "bad_hand", "hand")
    if not isinstance(player, str) or not player:
        raise DealingError("bad_player", f"a player must be a non-empty name, got {player!r}")
    cards = shuffled(decks_secret, f"deck:{hand}:{player}")
    digest = deck_digest(cards)
    return IssuedDeck(player=player, hand=hand, cards=cards, digest=digest,
                      checksum=_checksum_from_digest(digest))


def hole_cards(deck: Sequence[Card], positions: Sequence[int]) -> tuple[Card, ...]:
    """The cards at 1-based ``positions`` of ``deck`` ("cards 14, 26" -> deck[13], deck[25])."""
    cards = tuple(deck)
    out: list[Card] = []
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= len(cards):
            raise DealingError("bad_position", f"position {p!r} is not in 1..{len(cards)}")
        out.append(cards[p - 1])
    return tuple(out)


# --------------------------------------------------------------------------- checksum matching

_LEAD = re.compile(r"^.*?\bprinted\s+by\b\s*:?", re.IGNORECASE | re.DOTALL)
_HEX_TAIL = re.compile(r"[\s(\[]*\b([0-9a-fA-F]{%d})\b[\s)\].,;:!]*$" % CHECKSUM_HEX_DIGITS)


def normalise_checksum(text: str) -> str:
    """Canonical form of a stated checksum: ``"<name letters> <hex>"`` or ``"<name letters>"``.

    Tolerated: case, spacing (``JJ Grimes`` = ``J. J. Grimes``), punctuation, ``&`` written as
    ``and``, a leading ``Cards printed by:`` (and anything before it, such as ``alice cards
    14, 26,``), brackets around the hex. The name part keeps only letters and digits; the hex
    suffix, when present, is kept separately after one space so :func:`checksums_match` can
    tell whether it was given.
    """
    t = _LEAD.sub("", text.strip(), count=1).strip()
    hex_part = ""
    m = _HEX_TAIL.search(t)
    if m:
        hex_part = m.group(1).lower()
        t = t[: m.start()]
    name = re.sub(r"&", "and", t.casefold())
    name = re.sub(r"[^0-9a-z]", "", name)
    return f"{name} {hex_part}" if hex_part else name


def checksums_match(stated: str, expected: str) -> bool:
    """Does a player's stated checksum name the expected deck?

    Both are normalised. If both carry the hex suffix, name and hex must match. If either
    lacks it (the 2008 example "Cards printed by: J. J. Grimes Printing, Elko" has none), the
    names alone must match. WHY that is safe: the checksum only says *which* deck the player
    is drawing from; for an issued deck the cards are fixed by the committed ``decks`` secret
    whatever the player writes, and the name alone still separates two decks with odds of
    about one in a million.
    """
    s, e = normalise_checksum(stated), normalise_checksum(expected)
    s_name, _, s_hex = s.partition(" ")
    e_name, _, e_hex = e.partition(" ")
    if not s_name or s_name != e_name:
        return False
    return s_hex == e_hex or not s_hex or not e_hex


# --------------------------------------------------------------------------- rendering


def draw_statement(player: str, positions: Sequence[int], checksum: str) -> str:
    """The Hole Card Draw statement the rule asks for: ``alice cards 14, 26, Cards printed by: ...``."""
    return f"{player} cards {', '.join(str(p) for p in positions)}, {checksum}"
