"""Betting: who acts, what they may do, and what a fold, check, call, raise or all-in does.

The two rulesets read betting differently and every difference is a :class:`Ruleset`
parameter read here, never a branch on the ruleset's name:

- amounts: ``raise Z`` adds Z chips (``raise_amount = "added"``, the 2008 text's "deducts an
  amount from his Money ... and adds that amount to the Pot") or makes the player's round
  total Z (``"raise_to"``, Robert's Rules and PHH's ``cbr``);
- the minimum: more than the amount to call (``"more_than_call"``) or at least the size of
  the previous bet or raise, the first bet at least the minimum bet (``"previous_bet_or_raise"``);
- a short all-in reopening the betting (``short_all_in_reopens``; Robert's rules 3 and 4);
- checking in round 1 (``check_in_first_round``; "No Player may Check before the Flop").

Round end, for both: every player who can still act has acted since the last raise and
matched it (or folded). The raiser's own matched raise counts as done: read literally, "until
the last act by each Seated Player in that Round was either a Call or a Fold" never ends a
round whose last raise was called (DESIGN.md, Rulesets).
"""

from __future__ import annotations

from nomicpoker.core.poker.actions import AllIn, Call, Check, Fold, Muck, Raise, Timeout
from nomicpoker.core.poker.hand import (
    Hand, LegalActions, Rejection, Seat, evolve, evolve_with, reject, seat_index, seat_with,
)
from nomicpoker.core.poker.showdown import do_muck, needs_reveal, settle_if_done
from nomicpoker.core.poker.turn_reading import first_actor_facing_a_raise, not_your_turn

#: board size once the dealer has dealt for betting round r (index r; 5 = showdown)
BOARD_FOR_ROUND = (0, 0, 3, 4, 5, 5)


def put(seat: Seat, chips: int) -> Seat:
    """The seat after moving ``chips`` from its Money into the pot (direct construction:
    this is the hot path of replay, and ``dataclasses.replace`` is several times slower)."""
    return seat_with(seat, {"money": seat.money - chips, "round_bet": seat.round_bet + chips,
                            "total_bet": seat.total_bet + chips})


def full_raise(hand: Hand) -> int:
    """The smallest increment that is a full bet or raise: the previous bet or raise in the
    round, and never less than the minimum bet (Robert's no-limit rules 2 and 3).

    The minimum bet is the big blind; a hand without blinds (blognomic-2008 amended to
    ``min_raise = "previous_bet_or_raise"``, or a blindless table) has no bring-in, and
    then "the smallest chip that may be wagered" (Robert's no-limit rule 4) is one chip:
    a bet or raise of 0 is no bet, so the floor is 1 in every round."""
    m = hand.min_bet if hand.min_bet > 1 else 1
    return hand.last_raise if hand.last_raise > m else m


def may_raise(hand: Hand, i: int) -> bool:
    """Whether seat ``i`` may put in more than a call. With ``short_all_in_reopens`` off, a
    player who already acted since the last full raise may raise again only if what he now
    faces is itself a full raise: Robert's rule 4 reopens the betting "if the resulting wager
    size *to a player* qualifies as a raise", so several short all-ins reopen it for a player
    who acted before all of them but not for one who acted between them (rules 3 and 4).

    Such a player's ``round_bet`` is the bet he matched when he last acted (he called,
    checked or raised and still has Money), so ``high_bet - round_bet`` is what came since."""
    s = hand.seats[i]
    owe = hand.high_bet - s.round_bet
    if s.money <= owe:
        return False
    if hand.ruleset.return_uncalled and nobody_to_call(hand, i):
        return False
    if hand.ruleset.short_all_in_reopens or i not in hand.full_acted:
        return True
    return owe >= full_raise(hand)


def nobody_to_call(hand: Hand, i: int) -> bool:
    """No other player in the hand has Money left to call a raise by seat ``i``.

    With ``return_uncalled`` (Robert's Rules) such a raise would come straight back, so it is
    no raise at all and is not offered (pokerkit does the same); the player calls or folds.
    Without it (the 2008 text: "the winner adds to his Money ... the Pot") nothing forbids
    the raise, and the engine allows it."""
    for j, s in enumerate(hand.seats):
        if j != i and not s.folded and s.money > 0:
            return False
    return True


def min_raise_to(hand: Hand) -> int:
    """The smallest new round total that is a raise (or a bet) under the ruleset: one chip
    more than the bet with ``min_raise = "more_than_call"`` (the 2008 text), else the bet
    plus a full raise (:func:`full_raise`). Before the all-in cap of :func:`raise_bounds`."""
    if hand.ruleset.min_raise == "more_than_call":
        return hand.high_bet + 1
    return hand.high_bet + full_raise(hand)


def raise_bounds(hand: Hand, i: int) -> tuple[int, int]:
    """Smallest and largest legal new round total for a raise by seat ``i`` (callers check
    :func:`may_raise` first). The smallest is capped at all-in: a player who cannot make a
    full raise may still go all-in for less (Robert's rule 3, "except for an all-in wager").

    The one statement of the raise's range: what the turn notice offers (:func:`legal`) and
    what :func:`verify_raise` accepts both come from here (a property test checks that every
    amount offered is accepted and every other refused)."""
    s = hand.seats[i]
    cap = s.round_bet + s.money
    low = min_raise_to(hand)
    return (low if low < cap else cap), cap


def legal(hand: Hand) -> LegalActions | None:
    """What the player to act may do now (for the turn notice and the deadline), or None when
    nobody is to act. Raise bounds are in the ruleset's own amounts (added or raise-to)."""
    i = hand.to_act
    if i is None or hand.result is not None:
        return None
    rs = hand.ruleset
    s = hand.seats[i]
    owe = hand.high_bet - s.round_bet
    check = owe <= 0 and (hand.round > 1 or rs.check_in_first_round)
    call: int | None = None
    if owe > 0 and (s.money >= owe or rs.all_in_for_less):
        call = owe if owe < s.money else s.money
    rmin = rmax = None
    all_in = 0
    if may_raise(hand, i):
        lo, hi = raise_bounds(hand, i)
        if rs.raise_amount == "added":
            lo, hi = lo - s.round_bet, hi - s.round_bet
        rmin, rmax = lo, hi
        all_in = s.money
    elif call is not None and call == s.money:
        all_in = s.money
    return LegalActions(s.name, True, check, call, rmin, rmax, all_in)


def _next(seats: tuple[Seat, ...], acted: frozenset[int], high: int, start: int) -> int | None:
    """The first seat from ``start`` (inclusive, clockwise) still owing an action this round
    (not folded, Money behind, and not acted since the last raise or not matched it), or
    ``None`` when the round is over. A lone player who can still bet, facing only all-in
    players, has nobody to bet against: once he has matched the most any of them put in this
    round the round is over for him, even when that is less than the nominal bet (a big blind
    all in for less than the small blind: the small blind has nothing left to decide, and
    the part of his blind above the all-in comes back as uncalled)."""
    n = len(seats)
    can = 0
    last = -1
    pending = None
    for k in range(n):
        j = (start + k) % n
        s = seats[j]
        if s.folded or s.money <= 0:
            continue
        can += 1
        last = j
        if pending is None and (j not in acted or s.round_bet < high):
            pending = j
    if can == 0:
        return None
    if can == 1:
        facing = max((s.round_bet for i, s in enumerate(seats) if i != last and not s.folded), default=0)
        if seats[last].round_bet >= min(high, facing):
            return None
    return pending


def next_actor(hand: Hand, start: int) -> int | None:
    """:func:`_next` for a hand: who acts next from ``start``, ``None`` if the round is over."""
    return _next(hand.seats, hand.acted, hand.high_bet, start)


def first_after_button(hand: Hand) -> int:
    """The seat after the Button, where each round's search for the first to act starts."""
    return (hand.button + 1) % len(hand.seats)


def continue_betting(hand: Hand, after: int, ev, changes: dict[str, object],
                     folded: bool = False) -> Hand:
    """Record seat ``after``'s accepted action ``ev`` (``changes``: at least its new
    ``seats``, ``acted`` and ``full_acted``), then move to the next actor, or end the round
    (and perhaps the hand). One evolve on the common path: this is the inner loop of replay.

    Only a fold (``folded``) can leave one player: a hand with one player left is settled at
    once, so any other action finds at least two."""
    seats: tuple[Seat, ...] = changes["seats"]  # type: ignore[assignment]
    changes["log"] = hand.log + (ev,)
    if folded and [s.folded for s in seats].count(False) <= 1:
        changes["to_act"] = None
        return settle_if_done(evolve_with(hand, changes))
    high: int = changes.get("high_bet", hand.high_bet)  # type: ignore[assignment]
    j = _next(seats, changes["acted"], high, (after + 1) % len(seats))  # type: ignore[arg-type]
    changes["to_act"] = j
    h = evolve_with(hand, changes)
    return end_round(h) if j is None else h


def _check_turn(hand: Hand, ev) -> int | Rejection:
    """Common checks for a player action: seated, current hand and round, betting open, turn."""
    i = hand.index.get(ev.player) if hand.index else seat_index(hand, ev.player)
    if i == hand.to_act and i is not None and ev.hand is None and ev.round is None \
            and not hand.ruleset.require_hand_and_round:
        return i  # the common case in replay: nothing stated, right player
    if i is None:
        return reject(hand, "not_seated", f"{ev.player} is not seated in hand {hand.number}")
    if ev.hand is not None and ev.hand != hand.number:
        return reject(hand, "stale_hand", f"this is hand {hand.number}, not hand {ev.hand}")
    if ev.round is not None and ev.round != hand.round:
        return reject(hand, "stale_round",
                      f"hand {hand.number} is in round {hand.round}, not round {ev.round}")
    if hand.ruleset.require_hand_and_round and (ev.hand is None or ev.round is None):
        return reject(hand, "missing_hand_round",
                      f"an action must name its hand and round (HAND{hand.number} ROUND{hand.round})")
    if hand.to_act is None:
        return reject(hand, "betting_closed",
                      f"no betting is open in hand {hand.number} now")
    if hand.to_act != i:
        return not_your_turn(hand, ev.player)
    return i


def _with_seat(hand: Hand, i: int, seat: Seat) -> tuple[Seat, ...]:
    seats = list(hand.seats)
    seats[i] = seat
    return tuple(seats)


def _acted(hand: Hand, i: int, ev, seat: Seat | None = None, folded: bool = False) -> Hand:
    """Seat ``i`` folded, checked or called (now ``seat``, unchanged if None): it has acted
    since the last raise, and that raise was a full one for it (no raise of its own)."""
    seats = hand.seats if seat is None else _with_seat(hand, i, seat)
    return continue_betting(hand, i, ev, {"seats": seats, "acted": hand.acted.union((i,)),
                                          "full_acted": hand.full_acted.union((i,))}, folded)


def _short_of_call(hand: Hand, s: Seat, owe: int) -> Rejection | None:
    """A call for less than ``owe`` is all in for less: allowed only by ``all_in_for_less``."""
    if s.money < owe and not hand.ruleset.all_in_for_less:
        return reject(hand, "insufficient_money",
                      f"{s.name} has {s.money}, less than the {owe} needed to call")
    return None


def do_fold(hand: Hand, ev: Fold) -> Hand | Rejection:
    i = _check_turn(hand, ev)
    if isinstance(i, Rejection):
        return i
    return _acted(hand, i, ev, seat_with(hand.seats[i], {"folded": True}), folded=True)


def do_check(hand: Hand, ev: Check) -> Hand | Rejection:
    i = _check_turn(hand, ev)
    if isinstance(i, Rejection):
        return i
    s = hand.seats[i]
    if hand.round == 1 and not hand.ruleset.check_in_first_round:
        return reject(hand, "check_before_flop",
                      f"{s.name} may not check in round 1: raise or fold")
    owe = hand.high_bet - s.round_bet
    if owe > 0:
        return reject(hand, "check_facing_raise",
                      f"{s.name} may not check: the bet is {hand.high_bet} and {s.name} has put in "
                      f"{s.round_bet} this round ({owe} to call)")
    return _acted(hand, i, ev)


def do_call(hand: Hand, ev: Call) -> Hand | Rejection:
    i = _check_turn(hand, ev)
    if isinstance(i, Rejection):
        return i
    s = hand.seats[i]
    owe = hand.high_bet - s.round_bet
    if owe <= 0:
        return reject(hand, "call_nothing_to_call",
                      f"{s.name} has nothing to call: check instead")
    short = _short_of_call(hand, s, owe)
    if short is not None:
        return short
    chips = owe if owe < s.money else s.money
    if ev.amount is not None and ev.amount != chips:
        return reject(hand, "call_amount_mismatch",
                      f"the amount to call for {s.name} is {chips}, not {ev.amount}")
    return _acted(hand, i, ev, put(s, chips))


def _raise_to(hand: Hand, i: int, total: int, ev) -> Hand:
    """Seat ``i`` makes its round total ``total`` (> high bet): bookkeeping for full and
    short raises (Robert's rules 3 and 4, see :func:`may_raise`)."""
    s = hand.seats[i]
    inc = total - hand.high_bet
    full = full_raise(hand)
    last_raise = hand.last_raise
    full_acted = hand.full_acted
    if inc >= full:
        last_raise = inc
        full_acted = frozenset((i,))
    else:  # an all-in short of a full raise: whom it reopens for is decided by may_raise
        full_acted = full_acted.union((i,))
    seat = put(s, total - s.round_bet)
    return continue_betting(hand, i, ev, {"seats": _with_seat(hand, i, seat),
                                          "acted": frozenset((i,)), "full_acted": full_acted,
                                          "high_bet": total, "last_raise": last_raise,
                                          "aggressor": i})


def _no_raise(hand: Hand, i: int, owe: int) -> Rejection:
    """Why seat ``i``, who has more than the ``owe`` to call, may not raise (see
    :func:`may_raise`)."""
    name = hand.seats[i].name
    if hand.ruleset.return_uncalled and nobody_to_call(hand, i):
        return reject(hand, "raise_nobody_to_call",
                      f"every other player in hand {hand.number} is all in: nobody could call a "
                      f"raise; {name} may call {owe} or fold")
    return reject(hand, "raise_not_reopened",
                  f"{name} already acted and faces only {owe} more since, short of a full "
                  f"raise ({full_raise(hand)}): call {owe} or fold")


def verify_raise(hand: Hand, ev: Raise) -> tuple[int, int] | Rejection:
    """Whether ``ev`` is a legal raise now: (its seat, its new round total), or the coded
    rejection saying why not (PokerKit's ``verify_*`` pattern, with the refusal as a value:
    :func:`can_raise` asks it, :func:`do_raise` acts on it). The range is
    :func:`raise_bounds`, the one the turn notice offers."""
    i = _check_turn(hand, ev)
    if isinstance(i, Rejection):
        return i
    rs = hand.ruleset
    s = hand.seats[i]
    owe = hand.high_bet - s.round_bet
    added = ev.amount if rs.raise_amount == "added" else ev.amount - s.round_bet
    total = s.round_bet + added
    if s.money <= owe:
        return reject(hand, "insufficient_money",
                      f"{s.name} has {s.money}, not more than the {owe} needed to call: "
                      f"{s.name} can only call (all in) or fold")
    if not may_raise(hand, i):
        return _no_raise(hand, i, owe)
    low, cap = raise_bounds(hand, i)
    if total > cap:
        return reject(hand, "raise_too_large",
                      f"{s.name} has only {s.money}; a raise of {ev.amount} needs {added}")
    if total < low:
        if rs.min_raise == "more_than_call":
            explained = first_actor_facing_a_raise(hand, s.name, owe, added)
            if explained is not None:
                return explained
            return reject(hand, "raise_not_more_than_call",
                          f"{s.name} must add more than {owe} to raise; {added} is not enough")
        smallest = min_raise_to(hand)  # named uncapped, as the rule states it
        what = "raise" if hand.high_bet else "bet"
        return reject(hand, "raise_too_small",
                      f"the smallest {what} for {s.name} is to {smallest} in all "
                      f"({smallest - s.round_bet} added); {ev.amount} is too small")
    return i, total


def can_raise(hand: Hand, ev: Raise) -> bool:
    """Would :func:`do_raise` accept ``ev`` now?"""
    return not isinstance(verify_raise(hand, ev), Rejection)


def do_raise(hand: Hand, ev: Raise) -> Hand | Rejection:
    """Verify the raise (:func:`verify_raise`), then make it."""
    verified = verify_raise(hand, ev)
    if isinstance(verified, Rejection):
        return verified
    i, total = verified
    return _raise_to(hand, i, total, ev)


def do_all_in(hand: Hand, ev: AllIn) -> Hand | Rejection:
    i = _check_turn(hand, ev)
    if isinstance(i, Rejection):
        return i
    s = hand.seats[i]
    if ev.amount is not None and ev.amount != s.money:
        return reject(hand, "call_amount_mismatch",
                      f"all in for {s.name} is {s.money}, not {ev.amount}")
    owe = hand.high_bet - s.round_bet
    if s.money <= owe:
        short = _short_of_call(hand, s, owe)
        return short if short is not None else _acted(hand, i, ev, put(s, s.money))
    if not may_raise(hand, i):
        return _no_raise(hand, i, owe)
    return _raise_to(hand, i, s.round_bet + s.money, ev)


def do_timeout(hand: Hand, ev: Timeout) -> Hand | Rejection:
    """The deadline passed: the dealer acts for the player as ``ev.action`` says (the ruleset's
    ``deadline_action``): ``check_or_fold`` checks if that is legal, otherwise folds (the WRGPT
    dealer and the bot server in the seeds); ``fold`` always folds. At a showdown the player
    mucks either way."""
    la = legal(hand)
    if la is not None and la.player == ev.player:
        if la.check and ev.action != "fold":
            return do_check(hand, Check(ev.player, hand.number, hand.round))
        return do_fold(hand, Fold(ev.player, hand.number, hand.round))
    if ev.player in needs_reveal(hand):
        return do_muck(hand, Muck(ev.player))
    i = seat_index(hand, ev.player)
    if i is None:
        return reject(hand, "not_seated", f"{ev.player} is not seated in hand {hand.number}")
    return reject(hand, "not_your_turn", f"{ev.player} has nothing to do in hand {hand.number} now")


def end_round(hand: Hand) -> Hand:
    """The betting round is over: after the river go to showdown, else wait for the next
    board cards. When at most one player can still bet, betting is closed for the hand
    (``runout``) and the board runs out without more rounds of betting."""
    if hand.round >= 4:
        return settle_if_done(evolve(hand, round=5, to_act=None))
    seats = tuple([seat_with(s, {"round_bet": 0}) if s.round_bet else s for s in hand.seats])
    can = [not s.folded and s.money > 0 for s in seats].count(True)
    return evolve(hand, seats=seats, round=hand.round + 1, to_act=None, high_bet=0,
                   last_raise=0, acted=frozenset(), full_acted=frozenset(),
                   runout=can <= 1, aggressor=None)
