"""The hand engine: a pure, immutable fold of events over a hand of hold'em.

CONTRACT STUB — the public names and fields below are what the rest of nomicpoker codes
against (ledger, render, poll, PHH replay). The implementation fills the bodies and may add
fields or helpers, but must not rename or remove what is here.

A hand is created by :func:`start_hand` from the ruleset, the seats in GNDT order with their
Money, the button and the forced bets, and is advanced by :func:`apply` with player actions
and dealer events (:mod:`nomicpoker.actions`). Each step returns the new :class:`Hand`, or a
:class:`Rejection` (code, message, rule sentence). Ordinary rule violations are values, not
exceptions; only programming errors (an event for a player who is not in the hand at all when
the caller promised it would be, etc.) raise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping, Sequence

from .actions import Event
from .cards import Card
from .ruleset import Ruleset


@dataclass(frozen=True)
class Rejection:
    """Why an event was refused: a stable ``code`` (see ``ruleset.REJECTION_CODES``), a human
    ``message`` with the numbers that matter, and the rule sentence it rests on."""

    code: str
    message: str
    citation: str = ""


@dataclass(frozen=True)
class Seat:
    """One player's state within a hand."""

    name: str
    money: int  # Money still behind (not in the pot)
    round_bet: int = 0  # chips put in during the current betting round
    total_bet: int = 0  # chips put in during the hand (antes and blinds included)
    folded: bool = False
    hole: tuple[Card, ...] = ()
    revealed: tuple[Card, ...] | None = None
    mucked: bool = False

    @property
    def all_in(self) -> bool:
        return self.money == 0 and not self.folded and self.total_bet > 0


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do now (the ``valid_actions`` idea of the bot server seed).

    ``call`` is the chips a call adds (``None`` when there is nothing to call or calling is
    not allowed); ``raise_min``/``raise_max`` are in the ruleset's ``raise_amount`` semantics
    (``None`` when no raise is possible); ``all_in`` is the chips an all-in adds (0 = none).
    """

    player: str
    fold: bool
    check: bool
    call: int | None
    raise_min: int | None
    raise_max: int | None
    all_in: int


@dataclass(frozen=True)
class Need:
    """What the hand waits for next.

    - ``action``: ``players[0]`` must act (see :func:`legal_actions`).
    - ``board``: the dealer must deal ``cards`` community cards.
    - ``reveal``: ``players`` must reveal (or muck) their hole cards.
    - ``complete``: the hand is over; ``hand.result`` holds the payout.
    """

    kind: Literal["action", "board", "reveal", "complete"]
    players: tuple[str, ...] = ()
    cards: int = 0


@dataclass(frozen=True)
class ShownHand:
    player: str
    hole: tuple[Card, ...]
    best_five: tuple[Card, ...]
    name: str  # "Full House, Kings over Fours"
    value: int  # evaluator's totally ordered value


@dataclass(frozen=True)
class PotAward:
    """One pot (main or side) and how it was split."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: Mapping[str, int]
    remainder: int = 0  # odd chips destroyed (odd_chips = "destroy")


@dataclass(frozen=True)
class Result:
    awards: tuple[PotAward, ...]
    returned: Mapping[str, int]  # uncalled bets returned, per player
    destroyed: int  # total removed from the game by odd-chip rounding
    payouts: Mapping[str, int]  # total each player receives (awards + returned)
    shown: tuple[ShownHand, ...]  # every revealed hand, best first
    uncontested: bool  # one player left; nobody had to show


@dataclass(frozen=True)
class Hand:
    ruleset: Ruleset
    number: int
    seats: tuple[Seat, ...]  # GNDT order
    button: int  # index into seats
    round: int  # 1..4 betting rounds (round 1 before the flop); 5 after the river's betting
    board: tuple[Card, ...] = ()
    to_act: int | None = None  # index into seats of the player to act, if betting
    result: Result | None = None
    log: tuple[Event, ...] = ()  # accepted events, in order
    # Implementation state (betting bookkeeping) goes below; keep it derived where possible.
    extra: Mapping[str, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def pot(self) -> int:
        """Chips in the middle (sum of total bets not yet paid out)."""
        if self.result is not None:
            return 0
        return sum(s.total_bet for s in self.seats)

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)


def start_hand(
    ruleset: Ruleset,
    number: int,
    players: Sequence[tuple[str, int]],
    button: str,
    ante: int | Sequence[int] = 0,
    blinds: Sequence[int] = (),
    big_blind_ante: int = 0,
    min_bet: int | None = None,
) -> Hand:
    """Start hand ``number``: seats in GNDT order with their Money, the button player's name,
    antes (one amount for all, or per seat), blinds clockwise from the button (small, big;
    heads-up the button posts the small blind), a big-blind ante, and the minimum bet
    (defaults to the big blind). Players short of a forced bet post what they have."""
    raise NotImplementedError


def apply(hand: Hand, event: Event) -> Hand | Rejection:
    """Advance the hand by one event, or refuse it with a :class:`Rejection`."""
    raise NotImplementedError


def legal_actions(hand: Hand) -> LegalActions | None:
    """The legal actions of the player to act, or ``None`` when nobody is to act."""
    raise NotImplementedError


def need(hand: Hand) -> Need:
    """What the hand waits for next."""
    raise NotImplementedError


def turn_column(hand: Hand, players: Sequence[str]) -> dict[str, str]:
    """The GNDT Turn column for every player of the table: ``x`` for the one seated player to
    act, ``-`` for other seated players still in the hand, ``o`` for everyone else (not seated
    or folded)."""
    raise NotImplementedError
