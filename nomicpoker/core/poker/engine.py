"""The hand engine: a pure, immutable fold of events over a hand of hold'em.

The public names here are what the rest of nomicpoker codes against (ledger, render, poll,
PHH replay). The value types live in :mod:`nomicpoker.core.poker.hand` and are re-exported here; betting
is in :mod:`nomicpoker.core.poker.betting`, showdown and payout in :mod:`nomicpoker.core.poker.showdown`, pots in
:mod:`nomicpoker.core.poker.pots`. ``docs/engine.md`` lists every reading of the rule text.

A hand is created by :func:`start_hand` from the ruleset, the seats in GNDT order with their
Money, the button and the forced bets, and is advanced by :func:`apply` with player actions
and dealer events (:mod:`nomicpoker.core.poker.actions`). Each step returns the new :class:`Hand`, or a
:class:`Rejection` (code, message, rule sentence). Ordinary rule violations are values, not
exceptions; only programming errors (an event for a player who is not in the hand at all when
the caller promised it would be, etc.) raise.
"""


from __future__ import annotations


from typing import Callable, Sequence

from nomicpoker.core.poker.actions import (
    AllIn, Call, Check, DealBoard, DealHole, DealHoles, Event, Fold, FoldOut, Muck, Raise, Reveal, Timeout,
)
from nomicpoker.core.poker.betting import (
    BOARD_FOR_ROUND,
    do_all_in,
    do_call,
    do_check,
    do_fold,
    do_raise,
    do_timeout,
    end_round,
    _next,
    first_after_button,
    legal,
    next_actor,
)
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.hand import (
    Hand, LegalActions, Need, PotAward, Rejection, Result, Seat, ShownHand, evolve, make_seat,
    cards_in_play, new_hand, reject, seat_index, seat_with,
)
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.poker.showdown import do_muck, do_reveal, needs_reveal, settle, settle_if_done

__all__ = [
    "Hand", "LegalActions", "Need", "PotAward", "Rejection", "Result", "Seat", "ShownHand",
    "start_hand", "apply", "legal_actions", "need", "turn_column", "end_round", "settle",
    "settle_if_done",
]

_DECK = frozenset(FULL_DECK)


def start_hand(
    ruleset: Ruleset,
    number: int,
    players: Sequence[tuple[str, int]],
    button: str,
    ante: int | Sequence[int] = 0,
    blinds: Sequence[int] = (),
    big_blind_ante: int = 0,
    min_bet: int | None = None,
    dead_antes: bool = False,
    blind_posters: Sequence[str] | None = None,
) -> Hand:
    """Start hand ``number``: seats in GNDT order with their Money, the button player's name,
    antes (one amount for all, or per seat), blinds clockwise from the button (small, big,
    then straddles; heads-up the button posts the small blind), a big-blind ante, and the
    minimum bet (defaults to the big blind). Players short of a forced bet post what they have.

    Forced bets are posted antes first, then the big-blind ante, then blinds: a short stack
    antes before it blinds (as pokerkit and the TDA do). A big-blind ante is dead money: it
    goes to the main pot and buys no eligibility for side pots. With ``dead_antes`` every
    ante is dead money the same way (PHH's ``ante_trimming_status = false``, as pokerkit reads
    it); otherwise antes are live: they count towards what a player matched.

    ``blind_posters`` (a tournament table: Robert's dead button, "The big blind is posted by the
    player due for it, and the small blind and button are positioned accordingly") names who
    posts each blind, "" for a blind nobody posts (WRGPT: "If the player with the big blind is
    eliminated there will be no small blind"); ``button`` is then the player who acts last after
    the first round (the one before the button's seat, when the button is dead), and the first
    to act before the flop is the player after the big blind. Left out: the blinds go
    clockwise from the button, as always.

    A setup no hand can start from (fewer than two players, an unknown button, blinds under
    a ruleset without blinds) is a programming error and raises ``ValueError``.
    """
    n = len(players)
    if n < 2:
        raise ValueError(f"a hand needs at least two players, got {n}")
    names = [p[0] for p in players]
    index = {nm: i for i, nm in enumerate(names)}
    if len(index) != n:
        raise ValueError(f"duplicate player names: {names}")
    b = index.get(button)
    if b is None:
        raise ValueError(f"button {button!r} is not seated ({', '.join(names)})")
    if blinds and not ruleset.blinds:
        raise ValueError(f"ruleset {ruleset.name} has no blinds")
    if big_blind_ante and len(blinds) < 2:
        raise ValueError("a big-blind ante needs a big blind")
    antes = [ante] * n if isinstance(ante, int) else list(ante)
    if len(antes) != n:
        raise ValueError(f"{len(antes)} antes for {n} seats")
    money = [m for _, m in players]
    if min(money) < 0 or min(antes) < 0 or (blinds and min(blinds) < 0) or big_blind_ante < 0:
        raise ValueError("Money, antes and blinds must not be negative")
    round_bet = [0] * n
    dead = [0] * n
    total = [0] * n
    if max(antes) > 0:
        for i in range(n):
            a = antes[i] if antes[i] < money[i] else money[i]
            money[i] -= a
            total[i] = a
            if dead_antes:
                dead[i] = a
    first_blind = b if n == 2 else (b + 1) % n
    posters = [(first_blind + k) % n for k in range(len(blinds))]
    if blind_posters is not None:
        if len(blind_posters) != len(blinds) or any(p and p not in index for p in blind_posters):
            raise ValueError(f"blind posters {list(blind_posters)} do not fit blinds {list(blinds)} and seats {names}")
        posters = [index[p] if p else None for p in blind_posters]  # type: ignore[misc]
    if big_blind_ante:
        bb = posters[1] if len(posters) > 1 and posters[1] is not None else (first_blind + 1) % n
        a = min(big_blind_ante, money[bb])
        money[bb] -= a
        total[bb] += a
        dead[bb] = a
    for k, amount in enumerate(blinds):
        j = posters[k]
        if j is None:  # no small blind: its seat is empty
            continue
        a = amount if amount < money[j] else money[j]
        money[j] -= a
        round_bet[j] += a
        total[j] += a
    if min_bet is None:
        min_bet = blinds[1] if len(blinds) > 1 else (blinds[0] if blinds else 0)
    seats = tuple([make_seat(names[i], money[i], round_bet[i], total[i], False, (), None, False,
                             dead[i]) for i in range(n)])
    # A short blind does not lower the bet to call: "anyone who enters the pot is required
    # to enter for the minimum bet" (Robert's no-limit rule 2), so the bet to match is the
    # largest blind as set, not as posted.
    high = max(max(round_bet), max(blinds) if blinds else 0)
    if ruleset.first_to_act == "after_big_blind" and blinds:
        last = next(j for j in reversed(posters) if j is not None)
        start = (last + 1) % n
    else:
        start = (b + 1) % n
    j = _next(seats, frozenset(), high, start)
    hand = new_hand(ruleset=ruleset, number=number, seats=seats, button=b, round=1,
                    min_bet=min_bet, high_bet=high, index=index, to_act=j)
    if j is None:  # forced bets put everyone but one all in: no betting at all
        return end_round(hand)
    return hand


def _duplicate(hand: Hand, cards: tuple[str, ...]) -> str | None:
    """The first of ``cards`` already in play (board, dealt or shown hole cards, or earlier in
    ``cards``): with one shared deck no card can appear twice."""
    in_play = hand.in_play or cards_in_play(hand)
    for k, c in enumerate(cards):
        if c in in_play or c in cards[:k]:
            return c
    return None


def _deal_board(hand: Hand, ev: DealBoard) -> Hand | Rejection:
    missing = BOARD_FOR_ROUND[hand.round] - len(hand.board)
    if hand.to_act is not None or missing <= 0:
        why = (f"{hand.seats[hand.to_act].name} is to act" if hand.to_act is not None
               else "the board is complete" if len(hand.board) >= 5 else "the players are still to show")
        return reject(hand, "board_not_due", f"no board cards are due in hand {hand.number}: {why}")
    cards = tuple(ev.cards)
    if len(cards) != missing:
        return reject(hand, "wrong_card_count",
                      f"{missing} board card{'s' if missing > 1 else ''} due, not {len(cards)}")
    if not _DECK.issuperset(cards):
        bad = next(c for c in cards if c not in _DECK)
        return reject(hand, "bad_card", f"{bad!r} is not a card")
    in_play = hand.in_play or cards_in_play(hand)
    if hand.ruleset.deck == "shared" and (not in_play.isdisjoint(cards)
                                          or len(set(cards)) != len(cards)):
        dup = _duplicate(hand, cards)
        return reject(hand, "duplicate_card", f"{dup} is already in play (one shared deck)")
    board = hand.board + cards
    in_play = in_play.union(cards)
    if hand.runout:
        h = evolve(hand, board=board, log=hand.log + (ev,), in_play=in_play,
                   round=5 if len(board) >= 5 else hand.round + 1)
        return settle_if_done(h)
    # dealing changes nobody's bets: the next actor can be found before the one evolve
    j = next_actor(hand, first_after_button(hand))
    h = evolve(hand, board=board, log=hand.log + (ev,), in_play=in_play, to_act=j)
    return end_round(h) if j is None else h


def _hole_refusal(hand: Hand, seat: Seat | None, ev: DealHole, cards: tuple[str, ...],
                  in_play: frozenset[str]) -> Rejection | None:
    """Why ``ev`` (cards ``cards``, for ``seat`` as it is now) cannot be dealt, given the
    cards already in play; ``None`` when it can."""
    if seat is None:
        return reject(hand, "not_seated", f"{ev.player} is not seated in hand {hand.number}")
    if len(cards) != hand.ruleset.hole_cards:
        return reject(hand, "wrong_card_count",
                      f"{ev.player} gets {hand.ruleset.hole_cards} hole cards, not {len(cards)}")
    if seat.hole:
        return reject(hand, "already_dealt", f"{ev.player} already has hole cards")
    if not _DECK.issuperset(cards):
        bad = next(c for c in cards if c not in _DECK)
        return reject(hand, "bad_card", f"{bad!r} is not a card")
    # one set test on the common path (no card seen before), then name the culprit
    if hand.ruleset.deck == "shared" and (not in_play.isdisjoint(cards)
                                          or len(set(cards)) != len(cards)):
        dup = next(c for k, c in enumerate(cards) if c in in_play or c in cards[:k])
        return reject(hand, "duplicate_card", f"{dup} is already in play (one shared deck)")
    return None


def _deal_hole(hand: Hand, ev: DealHole) -> Hand | Rejection:
    return _deal_holes(hand, DealHoles((ev,)))


def _deal_holes(hand: Hand, ev: DealHoles) -> Hand | Rejection:
    """Every deal of ``ev`` in order, checked against the cards dealt before it (all or
    none); one new Hand, whose log records the single :class:`DealHole` events.

    The common case is checked per batch, not per deal: each seat's own conditions in the
    loop, then one test that no card of the batch repeats or is already in play (replay
    deals six to nine hands at once). When that fails, :func:`_deal_holes_one_by_one` finds
    the first deal at fault and refuses it as dealing them singly would."""
    seats = list(hand.seats)
    in_play = hand.in_play or cards_in_play(hand)
    want = hand.ruleset.hole_cards
    dealt: list[str] = []
    for d in ev.deals:
        i = seat_index(hand, d.player)
        cards = tuple(d.cards)
        s = None if i is None else seats[i]
        if s is None or s.hole or len(cards) != want or not _DECK.issuperset(cards):
            return _deal_holes_one_by_one(hand, ev)
        seats[i] = seat_with(s, {"hole": cards})
        dealt += cards
    if hand.ruleset.deck == "shared" and (not in_play.isdisjoint(dealt) or len(set(dealt)) != len(dealt)):
        return _deal_holes_one_by_one(hand, ev)
    return evolve(hand, seats=tuple(seats), log=hand.log + tuple(ev.deals), in_play=in_play.union(dealt))


def _deal_holes_one_by_one(hand: Hand, ev: DealHoles) -> Hand | Rejection:
    """:func:`_deal_holes` checking each deal against the seats and cards as the deals
    before it left them: the refusal of the first deal at fault (or, if none is, the same
    Hand the batch path gives)."""
    seats = list(hand.seats)
    in_play = hand.in_play or cards_in_play(hand)
    for d in ev.deals:
        i = seat_index(hand, d.player)
        cards = tuple(d.cards)
        s = None if i is None else seats[i]
        why = _hole_refusal(hand, s, d, cards, in_play)
        if why is not None:
            return why
        assert i is not None and s is not None
        seats[i] = seat_with(s, {"hole": cards})
        in_play = in_play.union(cards)
    return evolve(hand, seats=tuple(seats), log=hand.log + tuple(ev.deals), in_play=in_play)


def _fold_out(hand: Hand, ev: FoldOut) -> Hand | Rejection:
    """Fold ``ev.player`` out of turn (see :class:`FoldOut`). WHY not a :class:`Fold`: a fold is
    a betting action taken in turn; this is the dealer's, at any moment, for a player who is
    not acting at all. The seat folds, its chips stay in; a lone player left wins at once;
    otherwise the player who owed the action still owes it (the next one still in, when it
    was this player), and a round that nobody else owed anything in ends."""
    i = seat_index(hand, ev.player)
    if i is None:
        return reject(hand, "not_seated", f"{ev.player} is not seated in hand {hand.number}")
    if hand.seats[i].folded:
        return reject(hand, "not_seated", f"{ev.player} has already folded in hand {hand.number}")
    seats = list(hand.seats)
    seats[i] = seat_with(seats[i], {"folded": True})
    h = evolve(hand, seats=tuple(seats), log=hand.log + (ev,))
    if [s.folded for s in seats].count(False) <= 1:
        return settle_if_done(evolve(h, to_act=None))
    if hand.to_act is None:  # between rounds or nobody can bet: nothing owed changes
        return h
    j = next_actor(h, hand.to_act if hand.to_act != i else (i + 1) % len(seats))
    return end_round(h) if j is None else evolve(h, to_act=j)


_HANDLERS: dict[type, Callable[[Hand, Event], Hand | Rejection]] = {
    Fold: do_fold, Check: do_check, Call: do_call, Raise: do_raise, AllIn: do_all_in,
    Timeout: do_timeout, DealBoard: _deal_board, DealHole: _deal_hole, DealHoles: _deal_holes,
    Reveal: do_reveal, Muck: do_muck, FoldOut: _fold_out,
}


def apply(hand: Hand, event: Event) -> Hand | Rejection:
    """Advance the hand by one event, or refuse it with a :class:`Rejection`."""
    if hand.result is not None:
        return reject(hand, "hand_over", f"hand {hand.number} is over")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not an event: {event!r}")
    return handler(hand, event)


def legal_actions(hand: Hand) -> LegalActions | None:
    """The legal actions of the player to act, or ``None`` when nobody is to act."""
    return legal(hand)


def need(hand: Hand) -> Need:
    """What the hand waits for next. While the board runs out (players all in) reveals are
    accepted too; ``need`` reports the board first because the hand cannot settle without it."""
    if hand.result is not None:
        return Need("complete")
    if hand.to_act is not None:
        return Need("action", (hand.seats[hand.to_act].name,))
    missing = BOARD_FOR_ROUND[hand.round] - len(hand.board)
    if missing > 0:
        return Need("board", cards=missing)
    return Need("reveal", needs_reveal(hand))


def turn_column(hand: Hand, players: Sequence[str]) -> dict[str, str]:
    """The GNDT Turn column for every player of the table: ``x`` for the one seated player to
    act, ``-`` for other seated players still in the hand, ``o`` for everyone else (not seated
    or folded, and everyone once the hand is complete)."""
    col: dict[str, str] = {}
    done = hand.result is not None
    actor = hand.seats[hand.to_act].name if hand.to_act is not None else None
    for p in players:
        i = seat_index(hand, p)
        if done or i is None or hand.seats[i].folded:
            col[p] = "o"
        elif p == actor:
            col[p] = "x"
        else:
            col[p] = "-"
    return col
