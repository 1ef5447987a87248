"""Verify a public hand record: recompute every card and die from the published secrets.

The bot exports one JSON document per hand (``format: nomicpoker-hand-record/1``; schema in
docs/fair-dealing.md). :func:`verify_record` checks it item by item and returns one
:class:`Check` per item, so ``nomicpoker audit verify`` can print a pass/fail line for each
card, die, deck, draw and reveal and exit non-zero on any failure.

WHY pure and exception-free: an auditor runs this on a file somebody else produced. A
malformed record is a finding, not a crash: every missing key or bad value becomes a failing
check that names the key. Only :mod:`nomicpoker.core.fairness.dealing` is used to recompute, so an auditor
who trusts the documented construction (or re-implements it) trusts this.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from nomicpoker.core.poker.cards import CardError, parse_card
from nomicpoker.core.fairness import entropy as _entropy
from nomicpoker.core.fairness.dealing import (
    BOARD_STREETS, SECRET_NAMES, DealingError, board_cards, checksums_match, dice_pair_ok,
    hole_cards, issue_deck, normalise_checksum, roll, shared_holes,
)

RECORD_FORMAT = "nomicpoker-hand-record/1"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2})+$")


@dataclass(frozen=True)
class Check:
    """One verified item: a precise ``item`` name, pass/fail, and what was compared."""

    item: str
    ok: bool
    detail: str


def verify_summary(checks: Iterable[Check]) -> tuple[int, int]:
    """(passed, failed) counts."""
    oks = [c.ok for c in checks]
    return oks.count(True), oks.count(False)


def comment_order(comment_id: str) -> tuple[int, str]:
    """Sort key for forum comment ids: shorter first, then lexicographic.

    WHY: forums issue ids in increasing order, as decimal numbers (BlogNomic, the local
    forum) or base-36 strings (Reddit), never with leading zeros; for both, this key orders
    them as the forum issued them without parsing either alphabet.
    """
    return (len(comment_id), comment_id)


# --------------------------------------------------------------------------- helpers


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _missing(item: str, key: str, why: str = "missing") -> Check:
    return Check(item, False, f"key {key!r} {why}")


def _unchecked(item: str, shown: str, secret: str, finished: bool) -> Check:
    """A passing check for a value whose secret is not usable (yet): ``finished`` hands
    published a secret that failed its own check, running hands publish none."""
    why = f"not checkable: the {secret} secret is not usable" if finished else "checkable when the hand ends"
    return Check(item, True, f"{shown}: {why}")


def _cards(raw: Any) -> tuple[str, ...] | None:
    """A JSON list of card strings as cards, or None if it is not one (a finding, not a crash)."""
    try:
        return tuple(parse_card(c) for c in raw) if isinstance(raw, list) else None
    except (CardError, AttributeError, TypeError):
        return None


def _named(entry: Mapping[str, Any], key: str, i: int, checks: list[Check]) -> tuple[str, str] | None:
    """The ``player`` and ``comment_id`` of ``key[i]``, or None after a failing check naming
    the first that is missing."""
    player, cid = entry.get("player"), entry.get("comment_id")
    if not (isinstance(player, str) and player):
        checks.append(_missing(f"{key}[{i}]", f"{key}[{i}].player", "missing or invalid"))
        return None
    if not (isinstance(cid, str) and cid):
        checks.append(_missing(f"{key[:-1]} {player}", f"{key}[{i}].comment_id", "missing or invalid"))
        return None
    return player, cid


def _entries(record: Mapping[str, Any], key: str, checks: list[Check]) -> list[Mapping[str, Any]]:
    """The list under ``key``; a missing key, a non-list or a non-object entry is a failing check."""
    if key not in record:
        checks.append(_missing(key, key))
        return []
    raw = record[key]
    if not isinstance(raw, list):
        checks.append(Check(key, False, f"key {key!r} must be a list, found {type(raw).__name__}"))
        return []
    out = []
    for i, e in enumerate(raw):
        if isinstance(e, Mapping):
            out.append(e)
        else:
            checks.append(Check(f"{key}[{i}]", False, f"entry {i} of {key!r} is not an object"))
    return out


def _secrets(record: Mapping[str, Any], checks: list[Check]) -> dict[str, bytes] | None:
    """Check the commitments and return the published secrets (None while the hand runs)."""
    commitments = record.get("commitments")
    if not isinstance(commitments, Mapping):
        checks.append(_missing("commitments", "commitments", "missing or not an object"))
        commitments = {}
    if "secrets" not in record:
        checks.append(_missing("secrets", "secrets", "missing (it is null while the hand runs)"))
    secrets = record.get("secrets")
    if secrets is not None and not isinstance(secrets, Mapping):
        checks.append(Check("secrets", False, "key 'secrets' must be an object or null"))
        secrets = {}
    if secrets is None and "secrets" in record:
        checks.append(Check("secrets", True, "not published: the hand is not finished, so only "
                            "the commitments' format (and the public dice log) can be checked"))
    out: dict[str, bytes] = {}
    for name in SECRET_NAMES:
        item = f"commitment {name}"
        c = commitments.get(name)
        if not isinstance(c, str) or not _HEX64.match(c):
            checks.append(Check(item, False, f"key 'commitments.{name}' must be 64 lowercase hex "
                                f"digits (SHA-256), found {c!r}"))
            c = None
        if secrets is None:
            if c is not None:
                checks.append(Check(item, True, "well-formed SHA-256; the secret is not published yet"))
            continue
        s = secrets.get(name)
        if not isinstance(s, str) or not _HEX.match(s):
            checks.append(Check(f"secret {name}", False,
                                f"key 'secrets.{name}' must be hex bytes, found {s!r}"))
            continue
        raw = bytes.fromhex(s)
        out[name] = raw
        if c is None:
            continue
        found = hashlib.sha256(raw).hexdigest()
        if found == c:
            checks.append(Check(item, True, f"sha256(secret {name}) matches the commitment {c}"))
        else:
            checks.append(Check(item, False, f"expected commitment {c} (posted at hand start), "
                                f"found sha256(published secret {name}) = {found}"))
    return None if secrets is None else out


# --------------------------------------------------------------------------- sections


def _check_board(record: Mapping[str, Any], hand: int | None, secret: bytes | None,
                 finished: bool, checks: list[Check]) -> None:
    board = record.get("board")
    if not isinstance(board, list):
        checks.append(Check("board", False, f"key 'board' must be a list of cards, found {board!r}"))
        return
    expected = board_cards(secret, hand) if secret is not None and hand is not None else None
    for i, found in enumerate(board):
        street = BOARD_STREETS[i] if i < len(BOARD_STREETS) else None
        item = f"board card {i + 1}" + (f" ({street})" if street else "")
        if street is None:
            checks.append(Check(item, False, f"a board has at most 5 cards, found {found!r}"))
            continue
        try:
            card = parse_card(found) if isinstance(found, str) else None
        except CardError:
            card = None
        if card is None:
            checks.append(Check(item, False, f"key 'board[{i}]' is not a card: {found!r}"))
        elif expected is None:
            checks.append(_unchecked(item, card, "deck", finished))
        elif card == expected[i]:
            checks.append(Check(item, True, f"{card} recomputed from the deck secret"))
        else:
            checks.append(Check(item, False, f"expected {expected[i]}, found {card}"))


def _die_item(d: Mapping[str, Any], i: int) -> str:
    cid, idx = d.get("comment_id"), d.get("index")
    if isinstance(cid, str) and _is_int(idx):
        return f"die comment {cid} #{idx + 1}"
    return f"dice[{i}]"


def _check_dice(dice: Sequence[Mapping[str, Any]], secret: bytes | None, finished: bool,
                checks: list[Check]) -> list[Mapping[str, Any]]:
    """Check each die; return the well-formed entries (the dice log draws are checked against)."""
    good: list[Mapping[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for i, d in enumerate(dice):
        item = _die_item(d, i)
        bad = [k for k, ok in (("comment_id", isinstance(d.get("comment_id"), str) and d.get("comment_id")),
                               ("player", isinstance(d.get("player"), str) and d.get("player")),
                               ("index", _is_int(d.get("index")) and d.get("index") >= 0),
                               ("sides", _is_int(d.get("sides")) and 1 <= d.get("sides") <= 2**32),
                               ("result", _is_int(d.get("result"))),
                               ("source", d.get("source") in ("bot", "forum"))) if not ok]
        if bad:
            checks.append(Check(item, False, f"key {bad[0]!r} of dice[{i}] is missing or invalid: "
                                f"{d.get(bad[0])!r}"))
            continue
        key = (d["comment_id"], d["index"])
        if key in seen:
            checks.append(Check(item, False, "this die appears twice in the dice log"))
            continue
        seen.add(key)
        result, sides = d["result"], d["sides"]
        if not 1 <= result <= sides:
            checks.append(Check(item, False, f"result {result} is not in 1..{sides}"))
            continue
        good.append(d)
        if d["source"] == "forum":
            checks.append(Check(item, True, f"{result} (d{sides}) rolled by the forum's own roller: "
                                "recorded as given, not recomputable from the dice secret"))
        elif secret is None:
            checks.append(_unchecked(item, f"{result} (d{sides})", "dice", finished))
        else:
            expected = roll(secret, d["comment_id"], d["index"], sides)
            if expected == result:
                checks.append(Check(item, True, f"{result} (d{sides}) recomputed from the dice secret"))
            else:
                checks.append(Check(item, False, f"expected {expected}, found {result} (d{sides})"))
    return good


def _check_decks(decks: Sequence[Mapping[str, Any]], hand: int | None, secret: bytes | None,
                 finished: bool, checks: list[Check]) -> dict[str, Mapping[str, Any]]:
    """Check each deck entry; return player -> entry for the draws and reveals."""
    by_player: dict[str, Mapping[str, Any]] = {}
    for i, d in enumerate(decks):
        player = d.get("player")
        item = f"deck {player}" if isinstance(player, str) and player else f"decks[{i}]"
        if item != f"deck {player}":
            checks.append(_missing(item, f"decks[{i}].player", "missing or invalid"))
            continue
        if d.get("source") not in ("issued", "own"):
            checks.append(Check(item, False, f"key 'source' must be 'issued' or 'own', found {d.get('source')!r}"))
            continue
        if not isinstance(d.get("checksum"), str) or not normalise_checksum(d["checksum"]):
            checks.append(Check(item, False, f"key 'checksum' missing or empty: {d.get('checksum')!r}"))
            continue
        if player in by_player:
            checks.append(Check(item, False, "more than one deck recorded for this player in one hand"))
            continue
        by_player[player] = d
        if d["source"] == "own":
            checks.append(Check(item, True, "the player's own deck: only its stated checksum is known; "
                                "draws are checked against it, reveals cannot be checked"))
        elif secret is None or hand is None:
            checks.append(_unchecked(item, "issued deck", "decks", finished))
        else:
            expected = issue_deck(secret, hand, player).checksum
            if normalise_checksum(d["checksum"]) == normalise_checksum(expected):
                checks.append(Check(item, True, f"issued deck recomputed: {expected}"))
            else:
                checks.append(Check(item, False, f"expected {expected!r}, found {d['checksum']!r}"))
    return by_player


def _hole_pairs(player: str, dice: Sequence[Mapping[str, Any]], before: str) -> list[tuple[str, int, int]]:
    """The player's Hole Card Draws before comment ``before``: (comment id, die 1, die 2), in order.

    A Hole Card Draw is a comment of the player's with exactly two DICE52 dice.
    """
    by_comment: dict[str, list[Mapping[str, Any]]] = {}
    for d in dice:
        if d["player"] == player and d["sides"] == 52 and comment_order(d["comment_id"]) < comment_order(before):
            by_comment.setdefault(d["comment_id"], []).append(d)
    pairs = []
    for cid in sorted(by_comment, key=comment_order):
        ds = sorted(by_comment[cid], key=lambda d: d["index"])
        if len(ds) == 2:
            pairs.append((cid, ds[0]["result"], ds[1]["result"]))
    return pairs


def _check_draws(draws: Sequence[Mapping[str, Any]], dice: Sequence[Mapping[str, Any]],
                 decks: Mapping[str, Mapping[str, Any]], checks: list[Check]) -> dict[str, list[Mapping[str, Any]]]:
    """Check each draw statement against the dice log and the deck's checksum."""
    by_player: dict[str, list[Mapping[str, Any]]] = {}
    for i, d in enumerate(draws):
        named = _named(d, "draws", i, checks)
        if named is None:
            continue
        player, cid = named
        pos = d.get("positions")
        item = f"draw {player} (comment {cid})"
        if not (isinstance(pos, list) and len(pos) == 2 and all(_is_int(p) and 1 <= p <= 52 for p in pos)):
            checks.append(Check(item, False, f"key 'positions' must be two positions in 1..52, found {pos!r}"))
            continue
        if not isinstance(d.get("checksum"), str):
            checks.append(_missing(item, f"draws[{i}].checksum", "missing or not a string"))
            continue
        by_player.setdefault(player, []).append(d)
        problems: list[str] = []
        pairs = _hole_pairs(player, dice, cid)
        valid = [p for p in pairs if dice_pair_ok(p[1], p[2])]
        if not valid:
            problems.append(f"expected a Hole Card Draw with two different DICE52 results before "
                            f"comment {cid} in the dice log, found none")
        else:
            vcid, a, b = valid[-1]
            # The statement gives the two results; their order does not change the hole cards.
            if sorted(pos) != sorted((a, b)):
                problems.append(f"expected positions {a}, {b} (dice of comment {vcid}), found "
                                f"{pos[0]}, {pos[1]}")
            if len(valid) > 1:
                problems.append(f"drew again (comment {vcid}) after a valid draw in comment "
                                f"{valid[0][0]}: only identical results may be drawn again")
        deck = decks.get(player)
        if deck is None:
            problems.append(f"expected a deck recorded for {player}, found none")
        elif not checksums_match(d["checksum"], deck["checksum"]):
            problems.append(f"expected checksum {deck['checksum']!r}, found {d['checksum']!r}")
        if problems:
            checks.append(Check(item, False, "; ".join(problems)))
        else:
            checks.append(Check(item, True, f"positions {pos[0]}, {pos[1]} match the dice log and "
                                "the checksum matches the deck"))
    return by_player


def _check_reveals(reveals: Sequence[Mapping[str, Any]], hand: int | None, secret: bytes | None,
                   finished: bool, decks: Mapping[str, Mapping[str, Any]],
                   draws: Mapping[str, list[Mapping[str, Any]]], checks: list[Check]) -> None:
    for i, r in enumerate(reveals):
        named = _named(r, "reveals", i, checks)
        if named is None:
            continue
        player, cid = named
        item, cards = f"reveal {player}", r.get("cards")
        found = _cards(cards)
        if not found:
            checks.append(Check(item, False, f"key 'cards' must be a list of cards, found {cards!r}"))
            continue
        earlier = [d for d in draws.get(player, []) if comment_order(d["comment_id"]) < comment_order(cid)]
        deck = decks.get(player)
        if not earlier:
            checks.append(Check(item, False, f"expected a draw by {player} before comment {cid}, found none"))
        elif deck is None:
            checks.append(Check(item, False, f"expected a deck recorded for {player}, found none"))
        elif deck["source"] == "own":
            checks.append(Check(item, True, f"{' '.join(found)}: the player's own deck; the cards "
                                "cannot be checked (only its checksum is known)"))
        elif secret is None or hand is None:
            checks.append(_unchecked(item, " ".join(found), "decks", finished))
        else:
            pos = max(earlier, key=lambda d: comment_order(d["comment_id"]))["positions"]
            expected = hole_cards(issue_deck(secret, hand, player).cards, pos)
            # A player may reveal their hole cards in either order.
            if sorted(found) == sorted(expected):
                checks.append(Check(item, True, f"{' '.join(found)} are positions {pos[0]}, {pos[1]} "
                                    "of the issued deck"))
            else:
                checks.append(Check(item, False, f"expected {' '.join(expected)} (positions "
                                    f"{pos[0]}, {pos[1]}), found {' '.join(found)}"))


def _check_shared_reveals(record: Mapping[str, Any], reveals: Sequence[Mapping[str, Any]],
                          hand: int | None, secret: bytes | None, finished: bool,
                          checks: list[Check]) -> None:
    """One shared deck: each reveal must be the hole cards :func:`shared_holes` deals that
    player from the deck secret in the recorded dealing order."""
    order = record.get("deal_order")
    if not (isinstance(order, list) and order and all(isinstance(p, str) and p for p in order)
            and len(set(order)) == len(order)):
        checks.append(Check("deal_order", False, f"key 'deal_order' must list distinct players, found {order!r}"))
        return
    holes = shared_holes(secret, hand, order) if secret is not None and hand is not None else None
    for i, r in enumerate(reveals):
        player, cards = r.get("player"), r.get("cards")
        item = f"reveal {player}" if isinstance(player, str) and player else f"reveals[{i}]"
        found = _cards(cards)
        if not found:
            checks.append(Check(item, False, f"key 'cards' must be a list of cards, found {cards!r}"))
        elif player not in order:
            checks.append(Check(item, False, f"expected a player of the deal {order!r}, found {player!r}"))
        elif holes is None:
            checks.append(_unchecked(item, " ".join(found), "deck", finished))
        elif sorted(found) == sorted(holes[player]):
            checks.append(Check(item, True, f"{' '.join(found)} are the hole cards dealt from the deck "
                                f"secret (seat {order.index(player) + 1} of {len(order)} in dealing order)"))
        else:
            checks.append(Check(item, False, f"expected {' '.join(holes[player])} (dealt from the deck "
                                f"secret), found {' '.join(found)}"))


# --------------------------------------------------------------------------- entropy


def _check_entropy(data: Any, checks: list[Check]) -> "_entropy.Entropy | None":
    """Check the ``entropy`` object (players' comments, the window digest, the beacon round)
    and return the entropy every card is dealt with, or None (then nothing is recomputed:
    a malformed entropy object is a failing item, and every card is unchecked with it)."""
    if not isinstance(data, Mapping):
        checks.append(Check("entropy", False, f"key 'entropy' must be an object, found {data!r}"))
        return None
    try:
        e = _entropy.from_json(data)
    except _entropy.EntropyError as exc:
        checks.append(Check("entropy", False, exc.message))
        return None
    n = len(e.contributions)
    checks.append(Check("entropy", True, f"mode {e.mode}: {n} comment{'s' if n != 1 else ''} posted in "
                        f"thread {e.thread} after the commitment comment {e.opened_by} and before "
                        f"{e.close_at}, mixed into the deck, dice and decks secrets"))
    stated = {str(c.get("comment_id")): c.get("sha256") for c in data.get("contributions") or ()
              if isinstance(c, Mapping)}
    for c in e.contributions:
        item = f"entropy comment {c.comment_id} ({c.author})"
        found = c.leaf().hex()
        if stated.get(c.comment_id) == found:
            checks.append(Check(item, True, f"sha256 {found} of its id, author and text as archived"))
        else:
            checks.append(Check(item, False, f"expected sha256 {stated.get(c.comment_id)} (published with "
                                f"the deal), found {found} from the text recorded: the comment's text "
                                f"is not the text that was dealt with"))
    window = e.window().hex()
    if data.get("window") == window:
        checks.append(Check("entropy window", True, f"digest {window} over the {n} comments in forum order"))
    else:
        checks.append(Check("entropy window", False, f"expected {data.get('window')!r} (published with the "
                            f"deal), found {window} from the comments recorded"))
    if e.mode == "players+beacon":
        item = "beacon round"
        if e.beacon is None:
            checks.append(Check(item, False, "mode players+beacon needs key 'entropy.beacon'"))
            return None
        item = f"beacon round {e.beacon.round}"
        due = _entropy.round_due_after(e.close_at)
        why = _entropy.verify_beacon(e.beacon)
        if e.beacon.round != due:
            checks.append(Check(item, False, f"expected round {due} (the first drand "
                                f"{_entropy.QUICKNET.name} round after the window closed at "
                                f"{e.close_at}), found round {e.beacon.round}"))
        elif why is not None:
            checks.append(Check(item, False, why))
        else:
            checks.append(Check(item, True, f"drand {_entropy.QUICKNET.name} round due after {e.close_at}; "
                                f"its BLS signature verifies, randomness {e.beacon.randomness}"))
    elif data.get("beacon"):
        checks.append(Check("beacon round", False, "mode players carries no beacon round"))
    return e


# --------------------------------------------------------------------------- entry point


def verify_record(record: Mapping[str, Any]) -> list[Check]:
    """Every check of a public hand record, in order: format, commitments, board, dice, decks,
    draws, reveals. Never raises on malformed input: problems are failing checks."""
    if not isinstance(record, Mapping):
        return [Check("record", False, f"a hand record must be a JSON object, found {type(record).__name__}")]
    checks: list[Check] = []
    fmt = record.get("format")
    if fmt == RECORD_FORMAT:
        checks.append(Check("format", True, RECORD_FORMAT))
    else:
        checks.append(Check("format", False, f"expected {RECORD_FORMAT!r}, found {fmt!r}"))
    hand = record.get("hand")
    if not (_is_int(hand) and hand >= 0):
        checks.append(Check("hand", False, f"key 'hand' must be a non-negative integer, found {hand!r}"))
        hand = None
    for key in ("table", "ruleset"):
        if not (isinstance(record.get(key), str) and record.get(key)):
            checks.append(_missing(key, key, "missing or not a non-empty string"))
    rh = record.get("ruleset_hash")
    if not (isinstance(rh, str) and _HEX.match(rh)):
        checks.append(Check("ruleset_hash", False, f"key 'ruleset_hash' must be hex, found {rh!r}"))

    try:
        secrets = _secrets(record, checks)
        finished = secrets is not None
        secrets = secrets or {}
        if "entropy" in record:
            mixed_in = _check_entropy(record["entropy"], checks)
            # Every card, die and deck below is dealt from the committed secrets with the
            # window's entropy (and the beacon round) mixed in, never from the bare secrets.
            secrets = ({} if mixed_in is None or hand is None else
                       {n: _entropy.mix_one(s, n, hand, mixed_in) for n, s in secrets.items()})
        _check_board(record, hand, secrets.get("deck"), finished, checks)
        dice = _check_dice(_entries(record, "dice", checks), secrets.get("dice"), finished, checks)
        decks = _check_decks(_entries(record, "decks", checks), hand, secrets.get("decks"), finished, checks)
        draws = _check_draws(_entries(record, "draws", checks), dice, decks, checks)
        if "deal_order" in record:  # one shared deck (roberts-nlhe): no draws, no decks
            _check_shared_reveals(record, _entries(record, "reveals", checks), hand,
                                  secrets.get("deck"), finished, checks)
        else:
            _check_reveals(_entries(record, "reveals", checks), hand, secrets.get("decks"), finished,
                           decks, draws, checks)
    except (DealingError, CardError, TypeError, ValueError, KeyError) as e:  # pragma: no cover
        # Defence in depth: the checks above validate first, but an auditor's tool must
        # still answer with a finding rather than a traceback.
        checks.append(Check("record", False, f"could not be checked: {e}"))
    return checks
