"""Recompute the money of a hand from its public record: every bet, every payout.

:mod:`nomicpoker.core.fairness.verify` recomputes the cards and dice from the published secrets; this
module does the same for the money. It starts the hand from the record's seats, button,
ante and blinds under the record's ruleset, applies each recorded step (``actions``) through
the engine, dealing the recorded board when the engine asks for it, and compares:

- each step's ``chips`` (what it put into the pot) with what the engine says the step puts in
  (the forced bets, ``post``, with the antes and blinds the engine posts);
- a step the engine refuses (a raise too small, an action out of turn) is a failing item;
- once the hand ended: each player's payout and the chips destroyed by odd-chip rounding.

WHY the engine and not arithmetic on the record: a record whose numbers add up can still be
wrong (a raise below the minimum, a pot paid to the wrong player). Replaying the rules is the
only check that says the money follows them. Pure and exception-free, like ``verify``.
"""

from __future__ import annotations

from typing import Any, Mapping

from nomicpoker.core.poker.actions import AllIn, Call, Check as CheckAction, Fold, FoldOut, Muck, Raise, Reveal
from nomicpoker.core.poker.cards import CardError, parse_card
from nomicpoker.core.poker.engine import Rejection, apply, need, start_hand
from nomicpoker.core.poker.actions import DealBoard
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.fairness.verify import Check

_PLAYER_EVENTS = {"fold": Fold, "check": CheckAction, "call": Call, "raise": Raise, "all_in": AllIn,
                  "fold_out": FoldOut, "muck": Muck}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _label(i: int, a: Mapping[str, Any]) -> str:
    n = a.get("n", i + 1)
    bits = [str(a.get("player", "?")), str(a.get("event", "?"))]
    if _int(a.get("amount")) and a.get("event") == "raise":
        bits.append(str(a["amount"]))
    return f"action {n} ({' '.join(bits)})"


def event_of(a: Mapping[str, Any], hand: Any) -> Any | str:
    """The engine event of a recorded step (naming the hand's current hand and round, as
    the accepted comment did), or why it is malformed."""
    p, ev = a.get("player"), a.get("event")
    if not (isinstance(p, str) and p):
        return "key 'player' missing or invalid"
    if ev in ("reveal", "reveal_away"):
        try:
            cards = tuple(parse_card(c) for c in a.get("cards") or ())
        except (CardError, TypeError, AttributeError):
            return f"key 'cards' is not a list of cards: {a.get('cards')!r}"
        return Reveal(player=p, cards=cards, hand=hand.number, barred=ev == "reveal_away")
    cls = _PLAYER_EVENTS.get(ev)  # type: ignore[arg-type]
    if cls is None:
        return f"unknown event {ev!r}"
    if cls is Raise:
        if not _int(a.get("amount")):
            return f"a raise needs an integer 'amount', found {a.get('amount')!r}"
        return Raise(player=p, amount=a["amount"], hand=hand.number, round=hand.round)
    if cls in (FoldOut, Muck):
        return cls(player=p)
    return cls(player=p, hand=hand.number, round=hand.round)


def deal_recorded(hand: Any, board: list[str], dealt: int) -> tuple[Any, int, str]:
    """Deal the recorded board cards the engine asks for now: (hand, dealt, problem)."""
    while True:
        nd = need(hand)
        if nd.kind != "board":
            return hand, dealt, ""
        cards = board[dealt:dealt + nd.cards]
        if len(cards) < nd.cards:
            return hand, dealt, "waits for board cards the record does not have"
        r = apply(hand, DealBoard(cards=tuple(cards)))
        if isinstance(r, Rejection):
            return hand, dealt, f"the engine refuses the board cards {' '.join(cards)}: {r.message}"
        hand, dealt = r, dealt + nd.cards


def start_from_record(record: Mapping[str, Any], ruleset: Ruleset, checks: list[Check]) -> Any | None:
    seats, button, ante, blinds = (record.get(k) for k in ("seats", "button", "ante", "blinds"))
    if not (isinstance(seats, list) and seats and all(
            isinstance(s, Mapping) and isinstance(s.get("player"), str) and _int(s.get("money"))
            for s in seats)):
        checks.append(Check("seats", False, f"key 'seats' must list {{player, money}}, found {seats!r}"))
        return None
    if not (_int(ante) and isinstance(blinds, list) and all(_int(b) for b in blinds)):
        checks.append(Check("forced bets", False, f"keys 'ante' and 'blinds' must be integers, found "
                            f"{ante!r} and {blinds!r}"))
        return None
    positions = record.get("positions") or {}
    posters = positions.get("blind_posters") if isinstance(positions, Mapping) else None
    if posters is not None and not (isinstance(posters, list) and all(isinstance(p, str) for p in posters)):
        checks.append(Check("seats", False, f"key 'positions' must name the blind posters, found {positions!r}"))
        return None
    try:
        return start_hand(ruleset, record.get("hand") if _int(record.get("hand")) else 0,
                          [(s["player"], s["money"]) for s in seats], button, ante=ante, blinds=tuple(blinds),
                          blind_posters=posters)
    except (ValueError, TypeError) as e:
        checks.append(Check("seats", False, f"the hand cannot start from the recorded seats: {e}"))
        return None


def verify_money(record: Mapping[str, Any], ruleset: Ruleset) -> list[Check]:
    """Every money check of a hand record (see the module docstring)."""
    checks: list[Check] = []
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, Mapping) for a in actions):
        return [Check("actions", False, f"key 'actions' must be a list of steps, found {type(actions).__name__}")]
    hand = start_from_record(record, ruleset, checks)
    if hand is None:
        return checks
    board = record.get("board") if isinstance(record.get("board"), list) else []
    posts = {s.name: s.total_bet for s in hand.seats if s.total_bet}
    recorded_posts = {a.get("player"): a.get("chips") for a in actions if a.get("event") == "post"}
    for name in sorted(set(posts) | set(recorded_posts), key=str):
        item = f"forced bet {name}"
        want, found = posts.get(name, 0), recorded_posts.get(name, 0)
        checks.append(Check(item, want == found, f"{found} chips (ante and blinds)" if want == found
                            else f"expected {want} chips from the ante and blinds, found {found}"))
    dealt = 0
    for i, a in enumerate(actions):
        if a.get("event") == "post":
            continue
        item = _label(i, a)
        hand, dealt, problem = deal_recorded(hand, board, dealt)
        if problem:
            checks.append(Check(item, False, f"before this step the hand {problem}"))
            return checks
        ev = event_of(a, hand)
        if isinstance(ev, str):
            checks.append(Check(item, False, ev))
            return checks
        try:
            before = hand.seat(ev.player).total_bet
        except KeyError:
            checks.append(Check(item, False, f"{ev.player!r} is not seated in this hand"))
            return checks
        r = apply(hand, ev)
        if isinstance(r, Rejection):
            checks.append(Check(item, False, f"the rules refuse this step here: {r.code}: {r.message}"))
            return checks
        hand = r
        chips = hand.seat(ev.player).total_bet - before
        found = a.get("chips")
        if found == chips:
            checks.append(Check(item, True, f"{chips} chips into the pot, as the rules give"))
        else:
            checks.append(Check(item, False, f"expected {chips} chips into the pot, found {found!r}"))
    hand, dealt, _problem = deal_recorded(hand, board, dealt)
    _check_result(record, hand, checks)
    return checks


def _check_result(record: Mapping[str, Any], hand: Any, checks: list[Check]) -> None:
    payouts, destroyed = record.get("payouts"), record.get("destroyed")
    if hand.result is None:
        if isinstance(record.get("void"), str):  # the Dealer voided it: every chip goes back
            ok = not payouts and not destroyed
            checks.append(Check("payouts", ok, f"none: the hand is void ({record['void']}), every chip "
                                "goes back to where it was at the start" if ok
                                else f"the hand is void, but the record pays out {payouts!r}"))
            return
        if payouts is None:
            checks.append(Check("payouts", True, "none yet: the hand is still running"))
        else:
            checks.append(Check("payouts", False, "the record pays the hand out, but its steps do "
                                "not finish it"))
        return
    if not isinstance(payouts, Mapping):
        checks.append(Check("payouts", False, f"the steps finish the hand, but key 'payouts' is {payouts!r}"))
        return
    want = {k: v for k, v in hand.result.payouts.items() if v}
    for name in sorted(set(want) | set(payouts), key=str):
        exp, found = want.get(name, 0), payouts.get(name, 0)
        checks.append(Check(f"payout {name}", exp == found, f"{found} chips" if exp == found
                            else f"expected {exp} chips, found {found!r}"))
    exp = hand.result.destroyed
    checks.append(Check("destroyed", destroyed == exp, f"{exp} odd chips left the game" if destroyed == exp
                        else f"expected {exp} odd chips destroyed, found {destroyed!r}"))


def replay(record: Mapping[str, Any], ruleset: Ruleset) -> Any | None:
    """The engine's hand after every recorded step and board card (the shown hands' names,
    the pots and their winners are in its ``result``), or None when the record does not
    replay (``verify_money`` says why)."""
    checks: list[Check] = []
    hand = start_from_record(record, ruleset, checks)
    actions = record.get("actions")
    if hand is None or not isinstance(actions, list):
        return None
    board = record.get("board") if isinstance(record.get("board"), list) else []
    dealt = 0
    for a in actions:
        if not isinstance(a, Mapping) or a.get("event") == "post":
            continue
        hand, dealt, problem = deal_recorded(hand, board, dealt)
        ev = event_of(a, hand)
        if problem or isinstance(ev, str):
            return None
        r = apply(hand, ev)
        if isinstance(r, Rejection):
            return None
        hand = r
    hand, dealt, _ = deal_recorded(hand, board, dealt)
    return hand
