"""Showdown: reveals, mucks, and settling the pots.

Who must show, and in what order: every player who has not folded once the betting is over
("each such Seated Player must post a comment to the GNDT that reveals his Hole Cards");
Robert's showdown rule 8 orders them (the last aggressor of the final round first, else the
first player after the button). Reveals are accepted in any order (comments arrive as they
arrive) and, when the betting closed early because players are all in, before the board is
complete (Robert's rule 27: "All hands will be turned faceup whenever a player is all-in and
betting action is complete"). A muck concedes every pot the player could win. A *barred* reveal (a player away at a
tournament's table, shown by the dealer) wins only a pot that no contender without the bar
still contests.

Settling reads the ruleset: uncalled bets returned or not, side pots or one pot, the hole-card
minimum passed to the evaluator, and the odd-chip policy (:mod:`nomicpoker.core.poker.pots`).
"""

from __future__ import annotations


from nomicpoker.core.poker.actions import Muck, Reveal
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.hand import (
    Hand, PotAward, Rejection, Result, ShownHand, cards_in_play, evolve, make_seat, reject,
    seat_index, seat_with, value_of,
)
from nomicpoker.core.poker.evaluator import HandValue, best_hand, evaluate5, first_best
from nomicpoker.core.poker.pots import build_pots, split, uncalled

_DECK = frozenset(FULL_DECK)


def showdown_open(hand: Hand) -> bool:
    """Reveals are allowed once the betting is over for good: at showdown, or while the
    board runs out because at most one player can still bet."""
    return hand.result is None and (hand.round >= 5 or hand.runout)


def show_order(hand: Hand) -> tuple[int, ...]:
    """Live seats in showdown order: the last aggressor of the final round first (when
    ``showdown_order = "last_aggressor"``), otherwise the first live seat after the button;
    then clockwise."""
    n = len(hand.seats)
    if hand.ruleset.showdown_order == "last_aggressor" and hand.aggressor is not None and hand.round >= 5:
        start = hand.aggressor
    else:
        start = (hand.button + 1) % n
    order = []
    for k in range(n):
        j = (start + k) % n
        if not hand.seats[j].folded:
            order.append(j)
    return tuple(order)


def needs_reveal(hand: Hand) -> tuple[str, ...]:
    """Names still to reveal or muck, in showdown order (empty unless reveals are open)."""
    if not showdown_open(hand):
        return ()
    return tuple(hand.seats[j].name for j in show_order(hand)
                 if hand.seats[j].revealed is None and not hand.seats[j].mucked)


def _check_reveal(hand: Hand, player: str, stated_hand: int | None) -> int | Rejection:
    i = seat_index(hand, player)
    if i is None:
        return reject(hand, "not_seated", f"{player} is not seated in hand {hand.number}")
    if stated_hand is not None and stated_hand != hand.number:
        return reject(hand, "stale_hand", f"this is hand {hand.number}, not hand {stated_hand}")
    s = hand.seats[i]
    if s.folded:
        return reject(hand, "reveal_not_allowed", f"{player} folded and has no hand to show")
    if not showdown_open(hand):
        return reject(hand, "reveal_not_allowed",
                      f"the betting in hand {hand.number} is not over: hole cards are shown "
                      "after the last round")
    if s.revealed is not None or s.mucked:
        return reject(hand, "already_revealed",
                      f"{player} has already {'shown' if s.revealed is not None else 'mucked'}")
    return i


def do_reveal(hand: Hand, ev: Reveal) -> Hand | Rejection:
    i = _check_reveal(hand, ev.player, ev.hand)
    if isinstance(i, Rejection):
        return i
    s = hand.seats[i]
    cards = tuple(ev.cards)
    want = hand.ruleset.hole_cards
    if len(cards) != want:
        return reject(hand, "wrong_card_count",
                      f"{ev.player} must show {want} hole cards, not {len(cards)}")
    for c in cards:
        if c not in _DECK:
            return reject(hand, "bad_card", f"{c!r} is not a card")
    if not s.hole and hand.ruleset.deck == "per_player" and len(set(cards)) < len(cards):
        # The hole cards are positions of the player's own deck, which holds each card once;
        # unchecked otherwise, a repeated card would be a free pocket pair.
        return reject(hand, "false_reveal",
                      f"{ev.player}'s hole cards are different positions of one deck, which holds "
                      f"each card once: {' '.join(cards)} cannot be them")
    if s.hole and sorted(s.hole) != sorted(cards):
        return reject(hand, "false_reveal",
                      f"{ev.player} was dealt {' '.join(s.hole)}, not {' '.join(cards)}")
    if not s.hole and hand.ruleset.deck == "shared":
        in_play = cards_in_play(hand)
        for k, c in enumerate(cards):
            if c in in_play or c in cards[:k]:
                return reject(hand, "duplicate_card", f"{c} is already in play (one shared deck)")
    seat = make_seat(s.name, s.money, s.round_bet, s.total_bet, s.folded, s.hole or cards, cards,
                False, s.dead)
    seats = list(hand.seats)
    seats[i] = seat
    barred = {"barred": hand.barred + (i,)} if ev.barred else {}
    return settle_if_done(evolve(hand, seats=tuple(seats), log=hand.log + (ev,),
                                 in_play=cards_in_play(hand).union(cards), **barred))


def do_muck(hand: Hand, ev: Muck) -> Hand | Rejection:
    i = _check_reveal(hand, ev.player, None)
    if isinstance(i, Rejection):
        return i
    s = hand.seats[i]
    seat = make_seat(s.name, s.money, s.round_bet, s.total_bet, s.folded, s.hole, None, True, s.dead)
    seats = list(hand.seats)
    seats[i] = seat
    h = evolve(hand, seats=tuple(seats), log=hand.log + (ev,), mucks=hand.mucks + (i,))
    return settle_if_done(h)


def best_five(hole: tuple[str, ...], board: tuple[str, ...], min_hole_cards: int) -> HandValue:
    """:func:`nomicpoker.core.poker.evaluator.best_hand`, faster when any five may play.

    Why: ``best_hand`` (the evaluator's reference path) classifies all 21 subsets of seven
    cards and was a third of PHH replay time. With ``min_hole_cards = 0`` the table path
    :func:`~nomicpoker.core.poker.evaluator.first_best` finds the first subset in the same
    enumeration order with the best value, which is the one ``best_hand`` reports, from the
    five-card table alone, so the result is identical (a test pins it).
    """
    cards = tuple(hole) + tuple(board)
    if min_hole_cards == 0 and 5 <= len(cards) <= 7:
        _, idx = first_best(cards)
        return evaluate5([cards[i] for i in idx])
    return best_hand(hole, board, min_hole_cards)


def settle_if_done(hand: Hand) -> Hand:
    """Settle when nothing more can change the outcome: one player left (uncontested), or the
    board complete and every live player shown or mucked."""
    if hand.result is not None:
        return hand
    live = [s for s in hand.seats if not s.folded]
    if len(live) <= 1:
        return settle(hand)
    if hand.round >= 5 and all(s.revealed is not None or s.mucked for s in live):
        return settle(hand)
    return hand


def pots_at_showdown(hand: Hand) -> list:
    """The pots :func:`settle` will pay, as it builds them (the uncalled bet returned first,
    under ``return_uncalled``): the fold asks which pots a player is eligible for before it
    shows or mucks for a player away."""
    contrib = [s.total_bet - s.dead for s in hand.seats]
    if hand.ruleset.return_uncalled:
        top, extra = uncalled(contrib)
        if top is not None:
            contrib[top] -= extra
    return build_pots(contrib, [not s.folded for s in hand.seats], sum(s.dead for s in hand.seats),
                      hand.ruleset.side_pots)


def _uncontested(hand: Hand, w: int) -> Hand:
    """Everyone but seat ``w`` folded: ``w`` takes every pot, whatever its layers, and nobody
    shows; an uncalled bet still goes back to its owner first (under ``return_uncalled``),
    even one who folded: a short all-in winner can win from each player only what he
    matched. (A path of its own because most hands end this way.)"""
    seats = list(hand.seats)
    contrib = [s.total_bet - s.dead for s in seats]
    top, extra = uncalled(contrib) if hand.ruleset.return_uncalled else (None, 0)
    amount = hand.pot - extra
    name = seats[w].name
    payouts = {name: amount}
    returned: dict[str, int] = {}
    if top is not None:
        returned[seats[top].name] = extra
        payouts[seats[top].name] = payouts.get(seats[top].name, 0) + extra
    for i in (w,) if top is None or top == w else (w, top):
        s = seats[i]
        seats[i] = seat_with(s, {"money": s.money + payouts[s.name]})
    award = value_of(PotAward, {"amount": amount, "eligible": (name,), "winners": (name,),
                                "shares": {name: amount}, "remainder": 0})
    result = value_of(Result, {"awards": (award,), "returned": returned, "destroyed": 0,
                               "payouts": payouts, "shown": (), "uncontested": True})
    return evolve(hand, seats=tuple(seats), result=result, to_act=None)


def settle(hand: Hand) -> Hand:
    """Pay the hand out: the new :class:`Hand` has ``result`` set and every seat's ``money``
    is its finishing Money (so Money + pot + destroyed is conserved across the hand)."""
    live = [not s.folded for s in hand.seats]
    if live.count(True) == 1:
        return _uncontested(hand, live.index(True))
    rs = hand.ruleset
    seats = hand.seats
    n = len(seats)
    contrib = [s.total_bet - s.dead for s in seats]
    dead = sum([s.dead for s in seats])
    returned: dict[str, int] = {}
    top = None
    extra = 0
    if rs.return_uncalled:
        top, extra = uncalled(contrib)
        if top is not None:
            contrib[top] -= extra
            returned[seats[top].name] = extra
    contenders = {i for i in range(n) if live[i] and not seats[i].mucked}
    values: dict[int, int] = {}
    shown: list[ShownHand] = []
    for i in range(n):
        s = seats[i]
        if live[i] and s.revealed is not None and len(s.revealed) + len(hand.board) >= 5:
            hv = best_five(s.revealed, hand.board, rs.min_hole_cards)
            values[i] = hv.value
            shown.append(ShownHand(s.name, s.revealed, hv.cards, hv.name, hv.value))
    btn = hand.button

    def clockwise(i: int) -> int:
        return (i - btn - 1) % n

    shown.sort(key=lambda h: (-h.value, clockwise(seat_index(hand, h.player) or 0)))
    awards = []
    gains = [0] * n
    destroyed = 0
    pots = build_pots(contrib, live, dead, rs.side_pots)
    for pot in pots:
        elig = [i for i in pot.eligible if i in contenders]
        free = [i for i in elig if i not in hand.barred]
        if free and hand.barred:  # a barred show wins only a pot no one without the bar contests
            elig = free
        if not elig:  # everyone who could win it mucked: the last to concede keeps it
            last = [i for i in hand.mucks if i in pot.eligible]
            elig = [last[-1]] if last else list(pot.eligible)
        if len(elig) == 1:
            winners = elig
        else:
            best = max(values[i] for i in elig)
            winners = [i for i in elig if values[i] == best]
        shares, gone = split(pot.amount, winners, rs.odd_chips, clockwise)
        destroyed += gone
        for i, v in shares.items():
            gains[i] += v
        awards.append(PotAward(pot.amount, tuple(seats[i].name for i in pot.eligible),
                               tuple(seats[i].name for i in winners),
                               {seats[i].name: v for i, v in shares.items()}, gone))
    payouts: dict[str, int] = {}
    new_seats = []
    for i, s in enumerate(seats):
        got = gains[i] + returned.get(s.name, 0)
        if got:
            payouts[s.name] = got
            s = make_seat(s.name, s.money + got, s.round_bet, s.total_bet, s.folded, s.hole,
                          s.revealed, s.mucked, s.dead)
        new_seats.append(s)
    result = Result(tuple(awards), returned, destroyed, payouts, tuple(shown), False)
    return evolve(hand, seats=tuple(new_seats), result=result, to_act=None)
