"""What an advance action does when the player's turn arrives: which arm fires, the concrete
action, and whether the advance action stays.

WHY separate from the reader (:mod:`nomicpoker.core.reading.advance`): the reader knows the words, this
module knows the table. It sees only :class:`View`, the player's view of the betting when the
action reaches him (the manual's "when the action reaches me"), so it is pure and testable
without a hand; :func:`view_of` builds the view from a hand for the fold.

Amounts, under each ruleset's own semantics (the conversion is stated in :func:`describe`):

- ``$x`` and ``MAKE $x``: under ``raise_amount = "added"`` (blognomic-2008, "raise Z" is the
  chips added) x is the chips the player puts in now, WRGPT's meaning ("if it is $200 to you
  and you want to raise $300 send in a $500 bet"); under ``"raise_to"`` (roberts-nlhe) x is the
  player's total for the round ("make it x").
- ``RAISE $x``: x more than the bet to call, under both ("RAISE $0" calls any bet).
- ``CALL $x``: call a bet to call of at most x (chips), else fold; ``CALL $0`` checks or folds.
- ``POT``: call, then raise the pot as it then stands (at least the smallest legal raise); all
  in if short. ``JAM``: all in (a call when a raise is not open).

Expiry ("advance bets expire immediately after your next bet"): a non-sticky action is
discarded after its first attempt whether or not it fired; a sticky one stays while it fires,
and is erased when an attempt fails. An outer sticky conditional (``IF/S/O:6 JAM``, "From now
until the end, when player 6 is out, jam") also stays when no arm matched; an arm made sticky
by its own ``/S`` keeps the action only when that arm fired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nomicpoker.core.reading.advance import Command, Compare, Condition, PlayerIn, Program, RoundIs

Act = Literal["fold", "check", "call", "raise", "all_in"]


@dataclass(frozen=True)
class View:
    """The betting as it stands when the action reaches the player.

    ``to_call`` is the chips a call needs (before capping at ``money``); ``round_bet`` what he
    has put in this round; ``high_bet`` the highest round total; ``pot`` every chip in the pot
    (bets of this round included); ``seats_in`` / ``seats_out`` the player numbers (from 1)
    still in / folded; ``raise_min`` / ``raise_max`` the smallest and largest legal new round
    total for a raise (``None`` when no raise is open); ``may_check`` whether a check is legal
    now (blognomic-2008 forbids it in round 1); ``raise_to`` the ruleset's amount semantics."""

    hand: int
    round: int
    pot: int
    to_call: int
    round_bet: int
    high_bet: int
    money: int
    seats_in: frozenset[int]
    seats_out: frozenset[int]
    may_check: bool
    raise_min: int | None
    raise_max: int | None
    raise_to: bool


@dataclass(frozen=True)
class Concrete:
    """The action that results: ``added`` chips this action, ``total`` the round total after it.
    ``amount`` is what the engine's ``raise`` takes under the ruleset (added or raise-to), the
    chips for a call or an all-in."""

    act: Act
    added: int = 0
    total: int = 0
    amount: int = 0
    raising: bool = False  # an all-in that puts in more than the bet to call


@dataclass(frozen=True)
class Outcome:
    """What happened at the turn. ``arm``: index of the IF that fired, ``-1`` the ELSE or a
    plain command, ``None`` nothing matched (or ``/H`` named another hand). ``action``: the
    concrete action, or ``None`` when nothing fires or the command failed (``failure`` says
    why: the player then acts himself). ``keep``: the advance action stays for later turns."""

    arm: int | None
    action: Concrete | None
    keep: bool
    failure: str = ""


def holds(c: Condition, v: View) -> bool:
    """Whether one condition holds for the view."""
    if isinstance(c, RoundIs):
        return v.round == c.round
    if isinstance(c, PlayerIn):
        return c.seat in (v.seats_in if c.inside else v.seats_out)
    assert isinstance(c, Compare)
    x = {"P": v.pot, "B": v.to_call, "N": len(v.seats_in)}[c.field]
    return {"=": x == c.value, "<": x < c.value, "<=": x <= c.value, ">": x > c.value,
            ">=": x >= c.value, "<>": x != c.value}[c.op]


def evaluate(p: Program, v: View) -> Outcome:
    """The outcome of advance action ``p`` at the player's turn (see the module docstring)."""
    if p.hand is not None and p.hand != v.hand:
        return Outcome(None, None, False, f"it was for hand {p.hand}; this is hand {v.hand}")
    arm: int | None = None
    cmd: Command | None = None
    for k, a in enumerate(p.arms):
        if all(holds(c, v) for c in a.conditions):
            arm, cmd = k, a.action
            break
    if cmd is None and p.otherwise is not None:
        arm, cmd = -1, p.otherwise
    if cmd is None:
        return Outcome(None, None, p.sticky, "no IF matched and there is no ELSE")
    action, failure = concrete(cmd, v)
    if action is None:
        return Outcome(arm, None, False, failure)
    sticky = p.sticky or cmd.sticky or cmd.kind == "fold"
    return Outcome(arm, action, sticky and action.act != "fold")


def _check_or_fold(v: View) -> Concrete:
    return Concrete("check", 0, v.round_bet) if v.may_check and v.to_call <= 0 \
        else Concrete("fold", 0, v.round_bet)


def _call(v: View) -> Concrete | None:
    """Call (all in for less when short), or check when nothing is owed; ``None`` when
    neither is legal (blognomic-2008's round 1 with nothing to call: raise or fold)."""
    if v.to_call <= 0:
        return Concrete("check", 0, v.round_bet) if v.may_check else None
    if v.money <= v.to_call:
        return Concrete("all_in", v.money, v.round_bet + v.money, v.money)
    return Concrete("call", v.to_call, v.round_bet + v.to_call, v.to_call)


def _to_total(total: int, v: View) -> tuple[Concrete | None, str]:
    """Put the player's round total at ``total``: a call, a raise, or all in."""
    cap = v.round_bet + v.money
    if total >= cap:
        total = cap
    if total < v.high_bet and total < cap:
        said = f"a round total of {total}" if v.raise_to else f"{total - v.round_bet} chips"
        return None, f"{said} is less than the {v.to_call} to call"
    if total <= v.high_bet:
        return _call(v), ""
    if total == cap:
        if v.raise_min is None:
            return _call(v), ""
        return Concrete("all_in", v.money, cap, v.money, True), ""
    if v.raise_min is None or v.raise_max is None:
        return None, "no raise is open to you now"
    if total < v.raise_min:
        return None, (f"a round total of {total} is short of the smallest raise "
                      f"(to {v.raise_min}, adding {v.raise_min - v.round_bet})")
    added = total - v.round_bet
    return Concrete("raise", added, total, total if v.raise_to else added), ""


def concrete(cmd: Command, v: View) -> tuple[Concrete | None, str]:
    """The concrete action for one command, or ``None`` and why it failed."""
    k = cmd.kind
    if k == "fold":  # "Keep betting $0, ie. fold at the earliest opportunity"
        return _check_or_fold(v), ""
    if k == "call_any" or (k == "raise" and cmd.amount == 0):
        c = _call(v)
        return c, "" if c is not None else "nothing to call and no check in this round"
    if k == "call_upto":
        assert cmd.amount is not None
        if v.to_call <= 0:
            return _check_or_fold(v), ""
        return (_call(v) if v.to_call <= cmd.amount else Concrete("fold", 0, v.round_bet)), ""
    if k == "check" or (k in ("make", "bet") and cmd.amount == 0):
        if v.to_call <= 0 and v.may_check:
            return Concrete("check", 0, v.round_bet), ""
        if k == "bet":  # "$0 ... will check or fold, whatever the case may be"
            return Concrete("fold", 0, v.round_bet), ""
        return None, (f"there is {v.to_call} to call" if v.to_call > 0
                      else "no check is allowed in this round")
    if k in ("make", "bet"):
        assert cmd.amount is not None
        total = cmd.amount if v.raise_to else v.round_bet + cmd.amount
        return _to_total(total, v)
    if k == "raise":
        assert cmd.amount is not None
        return _to_total(v.high_bet + cmd.amount, v)
    if k in ("pot", "jam") and v.raise_min is None:
        c = _call(v)  # "the maximum amount allowed" when no raise is open: a call
        return c, "" if c is not None else "nothing to call and no raise open"
    if k == "pot":
        after_call = v.pot + max(v.to_call, 0)
        total = v.high_bet + after_call
        if v.raise_min is not None and total < v.raise_min:
            total = v.raise_min
        return _to_total(total, v)
    assert k == "jam"
    return _to_total(v.round_bet + v.money, v)


def describe(a: Concrete, raise_to: bool) -> str:
    """The dealer's words for the action ("calls 20", "raises to 60 (adds 40)")."""
    if a.act == "fold":
        return "folds"
    if a.act == "check":
        return "checks"
    if a.act == "call":
        return f"calls {a.added}"
    tail = " and is all in" if a.act == "all_in" else ""
    if a.act == "call" or (a.act == "all_in" and not a.raising):
        return f"calls {a.added}{tail}"
    if raise_to:
        return f"raises to {a.total} (adds {a.added}){tail}"
    return f"raises {a.added} (to {a.total} this round){tail}"


def view_of(hand, i: int) -> View:
    """The view of seat ``i`` (the player to act) of ``hand`` (a core ``Hand``)."""
    from nomicpoker.core.poker.betting import legal, may_raise, raise_bounds

    s = hand.seats[i]
    la = legal(hand)
    rmin = rmax = None
    if la is not None and la.player == s.name and may_raise(hand, i):
        rmin, rmax = raise_bounds(hand, i)
    return View(
        hand=hand.number, round=hand.round, pot=hand.pot,
        to_call=max(hand.high_bet - s.round_bet, 0), round_bet=s.round_bet,
        high_bet=hand.high_bet, money=s.money,
        seats_in=frozenset(k + 1 for k, t in enumerate(hand.seats) if not t.folded),
        seats_out=frozenset(k + 1 for k, t in enumerate(hand.seats) if t.folded),
        may_check=bool(la is not None and la.check), raise_min=rmin, raise_max=rmax,
        raise_to=hand.ruleset.raise_amount == "raise_to")
