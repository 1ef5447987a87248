"""Players' entropy and the public beacon, mixed into a hand's committed secrets (pure).

WHY: a commitment stops the Dealer from changing a card once the hand runs, but not from
*choosing* its secret before committing (at a ``roberts-nlhe`` table the Dealer knows the
seating, and could search for a secret that deals a friend two aces). So, when a table asks
for it (the ``entropy`` setting), the hand's three secrets are committed **before** any
entropy for the hand exists, the players then post what they like during an *entropy
window*, and the cards, dice and issued decks are dealt from the committed secrets mixed with
everything posted in the window (and, with ``players+beacon``, with a drand quicknet round
that nobody knows until the window has closed). Nobody can aim a card: the players do not
know the secret, the Dealer fixed it before their entropy existed, and with the beacon not
even a Dealer colluding with the last player to post knows the deal before it is fixed. A
silent player contributes nothing and delays nothing: the window closes at the time the
commitment comment announced, whoever posted.

The construction is public and must never change (docs/fair-dealing.md, "Players' entropy",
has it byte by byte with a worked example)::

    lp(b)          = uint32_be(len(b)) || b
    leaf(c)        = SHA-256("nomicpoker/entropy/comment/1" || lp(id) || lp(author) || lp(text))
    window         = SHA-256("nomicpoker/entropy/window/1" || uint32_be(n) || leaf_1 || ... || leaf_n)
    beacon_part    = 0x00                                        (mode "players")
                   = 0x01 || uint64_be(round) || randomness      (mode "players+beacon")
    mixed[name]    = HMAC-SHA256(key = secret[name], msg = "nomicpoker/entropy/mix/1" || lp(name)
                                 || lp(decimal hand) || window || beacon_part)

Strings are UTF-8; the comments are sorted by forum order (:func:`comment_order`); ``name`` is
``deck``, ``dice`` or ``decks``. Everything :mod:`nomicpoker.core.fairness.dealing` does then runs on
the mixed secrets unchanged, so the board, the dice and the decks keep their documented
construction. The committed (unmixed) secrets are what the hand-start comment commits to and
the payout publishes.

No I/O, no clock: times are ISO-8601 text given by the caller, the beacon round is given, and
its BLS signature is checked by :func:`verify_beacon` (drand-verify's pure pairing code).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

from nomicpoker.core.fairness.dealing import SECRET_NAMES, HandSecrets
from nomicpoker.core.errors import CodedError

#: The table setting's values: no entropy (hands as before), the players' comments, the
#: players' comments and a drand quicknet round.
MODES: tuple[str, ...] = ("off", "players", "players+beacon")
#: Format tag of the ``entropy`` object in a hand record.
FORMAT = "nomicpoker-entropy/1"

_COMMENT_TAG = b"nomicpoker/entropy/comment/1"
_WINDOW_TAG = b"nomicpoker/entropy/window/1"
_MIX_TAG = b"nomicpoker/entropy/mix/1"
_HEX = re.compile(r"^[0-9a-f]*$")


class EntropyError(CodedError):
    """Entropy that cannot be used. ``code``: ``bad_mode``, ``bad_time``, ``bad_beacon``,
    ``bad_record``."""


@dataclass(frozen=True)
class Chain:
    """A drand chain as its ``/info`` document describes it."""

    name: str
    hash: str
    public_key: str
    genesis: int  # unix seconds of round 1
    period: int  # seconds between rounds
    scheme: str


#: drand's quicknet on the League of Entropy mainnet: unchained, BLS signatures on G1 with the
#: RFC 9380 hash to curve, a round every 3 seconds. The values are the chain's own ``/info``.
QUICKNET = Chain(
    name="quicknet",
    hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    public_key="83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5"
               "776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4b"
               "c09e76eae8991ef5ece45a",
    genesis=1692803367,
    period=3,
    scheme="bls-unchained-g1-rfc9380",
)


def comment_order(comment_id: str) -> tuple[int, str]:
    """Forum order of comment ids: shorter first, then lexicographic (decimal and base-36
    ids alike; the same key as :func:`nomicpoker.core.fairness.verify.comment_order`)."""
    return (len(comment_id), comment_id)


def _lp(text: str) -> bytes:
    raw = text.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


@dataclass(frozen=True)
class Contribution:
    """One comment posted in the entropy window: its forum id, its author and its text as
    archived (the first revision: a later edit changes nothing)."""

    comment_id: str
    author: str
    text: str

    def leaf(self) -> bytes:
        return hashlib.sha256(_COMMENT_TAG + _lp(self.comment_id) + _lp(self.author) + _lp(self.text)).digest()


def window_digest(contributions: Iterable[Contribution]) -> bytes:
    """SHA-256 over the contributions' leaves in forum order (an empty window has one too)."""
    ordered = sorted(contributions, key=lambda c: comment_order(c.comment_id))
    h = hashlib.sha256(_WINDOW_TAG + len(ordered).to_bytes(4, "big"))
    for c in ordered:
        h.update(c.leaf())
    return h.digest()


@dataclass(frozen=True)
class BeaconRound:
    """A drand round as published: its number, randomness (SHA-256 of the signature) and the
    BLS signature, hex."""

    round: int
    randomness: str
    signature: str


def parse_time(text: str) -> datetime:
    """An ISO-8601 moment with a zone (``2023-09-15T11:00:00+00:00`` or ``...Z``), as UTC."""
    if not isinstance(text, str):
        raise EntropyError("bad_time", f"a time must be ISO-8601 text, got {text!r}")
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise EntropyError("bad_time", f"{text!r} is not an ISO-8601 time") from exc
    if moment.tzinfo is None:
        raise EntropyError("bad_time", f"{text!r} has no time zone (write it in UTC, e.g. 2026-11-28T09:00:00+00:00)")
    return moment.astimezone(timezone.utc)


def round_time(round_number: int, chain: Chain = QUICKNET) -> int:
    """Unix seconds at which ``round_number`` is published (round 1 at genesis)."""
    return chain.genesis + (round_number - 1) * chain.period


def round_due_after(close_at: str, chain: Chain = QUICKNET) -> int:
    """The first round published strictly after the window closes: nobody, the Dealer
    included, can know its randomness while anything can still enter the window."""
    t = parse_time(close_at).timestamp()
    if t < chain.genesis:
        return 1
    return int((t - chain.genesis) // chain.period) + 2


@dataclass(frozen=True)
class Entropy:
    """What one hand's deal mixed in, as the public record carries it.

    ``opened_by`` is the forum id of the Dealer's commitment comment (the window is the
    comments after it in ``thread``, by anyone but the Dealer, posted before ``close_at``);
    ``beacon`` is the drand round due just after ``close_at`` (``players+beacon``)."""

    mode: str
    thread: str
    opened_by: str
    close_at: str
    contributions: tuple[Contribution, ...] = ()
    beacon: BeaconRound | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES or self.mode == "off":
            raise EntropyError("bad_mode", f"entropy mode {self.mode!r}: players or players+beacon")
        parse_time(self.close_at)

    def window(self) -> bytes:
        return window_digest(self.contributions)

    def beacon_part(self) -> bytes:
        if self.mode == "players":
            return b"\x00"
        if self.beacon is None:
            raise EntropyError("bad_beacon", "mode players+beacon needs the beacon round")
        rnd = bytes.fromhex(self.beacon.randomness)
        if len(rnd) != 32:
            raise EntropyError("bad_beacon", "a beacon's randomness is 32 bytes")
        return b"\x01" + self.beacon.round.to_bytes(8, "big") + rnd

    def describe(self) -> str:
        """One line for the hand-start comment and ``audit verify``."""
        n = len(self.contributions)
        who = ", ".join(f"{c.comment_id} ({c.author})" for c in
                        sorted(self.contributions, key=lambda c: comment_order(c.comment_id)))
        words = f"{n} comment{'s' if n != 1 else ''}" + (f": {who}" if who else "")
        line = f"players' entropy from {words}; window digest {self.window().hex()}"
        if self.beacon is not None:
            line += f"; drand {QUICKNET.name} round {self.beacon.round}"
        return line

    def as_json(self) -> dict[str, Any]:
        ordered = sorted(self.contributions, key=lambda c: comment_order(c.comment_id))
        return {
            "format": FORMAT, "mode": self.mode, "thread": self.thread, "opened_by": self.opened_by,
            "close_at": self.close_at,
            "contributions": [{"comment_id": c.comment_id, "author": c.author, "text": c.text,
                               "sha256": c.leaf().hex()} for c in ordered],
            "window": self.window().hex(),
            "beacon": None if self.beacon is None else {
                "chain": QUICKNET.hash, "round": self.beacon.round,
                "randomness": self.beacon.randomness, "signature": self.beacon.signature},
        }


def from_json(data: Mapping[str, Any]) -> Entropy:
    """The :class:`Entropy` of a hand record's (or a hand row's) ``entropy`` object. Only the
    ids, authors and texts are read: the stated hashes are what :mod:`verify` compares."""
    try:
        beacon = data.get("beacon")
        return Entropy(
            mode=data["mode"], thread=str(data["thread"]), opened_by=str(data["opened_by"]),
            close_at=data["close_at"],
            contributions=tuple(Contribution(str(c["comment_id"]), str(c["author"]), str(c["text"]))
                                for c in data.get("contributions") or ()),
            beacon=None if not beacon else BeaconRound(int(beacon["round"]), str(beacon["randomness"]),
                                                       str(beacon["signature"])),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EntropyError("bad_record", f"the entropy object is malformed ({exc!r})") from exc


def mix(secrets: HandSecrets, hand: int, entropy: Entropy | None) -> HandSecrets:
    """The secrets the hand is dealt from: the committed ones with ``entropy`` mixed in, each
    under its own name (``None``: the committed secrets, as hands dealt before entropy)."""
    if entropy is None:
        return secrets
    raw = secrets.by_name()
    return HandSecrets(**{name: mix_one(raw[name], name, hand, entropy) for name in SECRET_NAMES})


def mix_one(secret: bytes, name: str, hand: int, entropy: Entropy) -> bytes:
    """One secret mixed under its name (``deck``, ``dice`` or ``decks``): see :func:`mix`."""
    tail = _lp(str(int(hand))) + entropy.window() + entropy.beacon_part()
    return hmac.new(secret, _MIX_TAG + _lp(name) + tail, hashlib.sha256).digest()


def record_secret(record: Mapping[str, Any], name: str) -> bytes:
    """The secret ``name`` a published hand record's cards are dealt from: its published
    secret, mixed with the record's ``entropy`` when it has one (readers of a record that
    recompute cards, the PHH export among them, use this rather than the bare secret)."""
    raw = bytes.fromhex(record["secrets"][name])
    data = record.get("entropy")
    return raw if not data else mix_one(raw, name, int(record["hand"]), from_json(data))


@dataclass(frozen=True)
class Posted:
    """A comment as the archive holds it, for :func:`select_window`."""

    comment_id: str
    revision: int
    author: str
    created: str
    text: str


def select_window(posted: Sequence[Posted], opened_by: str, close_at: str,
                  is_dealer) -> tuple[Contribution, ...]:
    """The contributions of a window: each comment after the commitment comment ``opened_by``
    (forum order), by anyone the predicate ``is_dealer`` does not name, created before
    ``close_at``, with the text of its first revision as archived."""
    close = parse_time(close_at)
    first: dict[str, Posted] = {}
    for p in posted:
        if comment_order(p.comment_id) <= comment_order(opened_by) or is_dealer(p.author):
            continue
        if p.comment_id not in first or p.revision < first[p.comment_id].revision:
            first[p.comment_id] = p
    out = [Contribution(p.comment_id, p.author, p.text) for p in first.values()
           if parse_time(p.created) < close]
    return tuple(sorted(out, key=lambda c: comment_order(c.comment_id)))


def verify_beacon(beacon: BeaconRound, chain: Chain = QUICKNET) -> str | None:
    """Why ``beacon`` is not a round of ``chain`` (``None``: its BLS signature verifies under
    the chain's public key and its randomness is SHA-256 of the signature).

    WHY drand-verify: it checks exactly quicknet's scheme (BLS12-381, signatures on G1, RFC
    9380 hash to curve with drand's DST, the round as a big-endian uint64 hashed with SHA-256)
    in compiled Rust from noislabs' maintained crate, in microseconds."""
    if not (isinstance(beacon.signature, str) and _HEX.match(beacon.signature) and len(beacon.signature) == 96):
        return f"signature must be 48 bytes of lowercase hex, found {beacon.signature!r}"
    if not (isinstance(beacon.randomness, str) and _HEX.match(beacon.randomness) and len(beacon.randomness) == 64):
        return f"randomness must be 32 bytes of lowercase hex, found {beacon.randomness!r}"
    expected = hashlib.sha256(bytes.fromhex(beacon.signature)).hexdigest()
    if expected != beacon.randomness:
        return f"randomness {beacon.randomness} is not SHA-256 of the signature ({expected})"
    import drand_verify  # third-party pure code (pairings): no I/O

    try:
        drand_verify.verify_bls_unchained_g1_rfc9380(beacon.round, beacon.signature, chain.public_key)
    except ValueError:
        return f"the BLS signature of round {beacon.round} does not verify under the {chain.name} public key"
    return None
