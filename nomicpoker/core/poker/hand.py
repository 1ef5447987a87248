"""The values a hand is made of: seats, the hand itself, rejections, legal actions, results.

Why separate from :mod:`nomicpoker.core.poker.engine`: the betting and showdown modules need these types
and the engine needs those modules; keeping the values here breaks the cycle. Everything is
re-exported by :mod:`nomicpoker.core.poker.engine`, which is where callers import them from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping

from nomicpoker.core.poker.actions import Event
from nomicpoker.core.poker.cards import Card
from nomicpoker.core.rules.ruleset import Ruleset


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
    #: chips of ``total_bet`` that are dead money (a big-blind or dead ante): they go to the main pot
    #: but buy no eligibility for side pots (pokerkit and the TDA treat a BB ante this way).
    dead: int = 0

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
    #: the minimum opening bet (the big blind unless stated); also the smallest full raise
    min_bet: int = 0
    #: the highest ``round_bet`` at the table this round (what a call matches)
    high_bet: int = 0
    #: the largest bet or raise increment this round (Robert's "size of the previous bet or
    #: raise"); a full raise must be at least ``max(last_raise, min_bet)``
    last_raise: int = 0
    #: seats that have acted since the last increase of ``high_bet`` (round-end test)
    acted: frozenset[int] = frozenset()
    #: seats that have acted since the last *full* raise: with ``short_all_in_reopens`` off
    #: such a seat may raise again only when what it faces is a full raise (Robert's rule 4)
    full_acted: frozenset[int] = frozenset()
    #: betting is over for the hand (at most one player can still bet): the board runs out
    runout: bool = False
    #: the last seat to bet or raise in the current (or, at showdown, the final) round
    aggressor: int | None = None
    #: seats in the order they mucked at showdown (a pot all of whose contenders mucked goes
    #: to the last of them to concede)
    mucks: tuple[int, ...] = ()
    #: seats shown with a bar (``Reveal.barred``: a player away at a tournament's table): they
    #: win only a pot no contender without the bar contests
    barred: tuple[int, ...] = ()
    #: every card dealt or shown so far (board, hole cards, reveals): with one shared deck a
    #: new card must not be in it
    in_play: frozenset[Card] = frozenset()
    #: player name -> seat index (derived from ``seats``; kept so lookups are O(1))
    index: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def pot(self) -> int:
        """Chips in the middle (sum of total bets not yet paid out)."""
        if self.result is not None:
            return 0
        return sum(s.total_bet for s in self.seats)

    def seat(self, name: str) -> Seat:
        """The seat of ``name``, who must be in the hand (``KeyError`` if not: a caller's bug);
        :meth:`find_seat` for a name that may not be."""
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def find_seat(self, name: str) -> Seat | None:
        """The seat of ``name``, or ``None`` when ``name`` is not in this hand (a stranger's
        private message, a ``WHAT`` from a player sitting out)."""
        return next((s for s in self.seats if s.name == name), None)


def reject(hand: Hand, code: str, message: str) -> Rejection:
    """A rejection quoting the ruleset's sentence for ``code``."""
    return Rejection(code, message, hand.ruleset.cite(code))


def cards_in_play(hand: Hand) -> frozenset[str]:
    """``hand.in_play``, recomputed from the board and seats when it is empty (a Hand built
    directly rather than by ``start_hand`` and the dealing events)."""
    if hand.in_play:
        return hand.in_play
    seen = set(hand.board)
    for s in hand.seats:
        seen.update(s.hole)
        seen.update(s.revealed or ())
    return frozenset(seen)


def seat_index(hand: Hand, name: str) -> int | None:
    """The seat index of ``name``, ``None`` when not seated in this hand."""
    if hand.index:
        return hand.index.get(name)
    for i, s in enumerate(hand.seats):
        if s.name == name:
            return i
    return None


def make_seat(name: str, money: int, round_bet: int, total_bet: int, folded: bool,
              hole: tuple[Card, ...], revealed: tuple[Card, ...] | None, mucked: bool,
              dead: int, _new=object.__new__, _set=object.__setattr__) -> Seat:
    """``Seat(...)`` with every field positional, built without the frozen ``__init__``
    (which sets each field through ``object.__setattr__``): several times faster, and seats
    are rebuilt on every bet of every replayed hand. The value is identical (same class,
    same field dict; equality and hashing are the dataclass's)."""
    s = _new(Seat)
    _set(s, "__dict__", {"name": name, "money": money, "round_bet": round_bet,
                         "total_bet": total_bet, "folded": folded, "hole": hole,
                         "revealed": revealed, "mucked": mucked, "dead": dead})
    return s


def value_of(cls: type, fields: dict[str, object], _new=object.__new__,
             _set=object.__setattr__):
    """``cls(**fields)`` for a frozen dataclass without ``__post_init__``, given *every*
    field: the frozen ``__init__`` sets each field through ``object.__setattr__`` and costs a
    microsecond or more; this sets the field dict in one step (same class, same value)."""
    v = _new(cls)
    _set(v, "__dict__", fields)
    return v


def seat_with(seat: Seat, changes: dict[str, object], _new=object.__new__,
              _set=object.__setattr__) -> Seat:
    """``dataclasses.replace(seat, **changes)`` by copying the field dict (as :func:`evolve`
    does for a Hand): a fold, a bet, a deal change one to three fields of a nine-field seat."""
    d = seat.__dict__.copy()
    d.update(changes)
    s = _new(Seat)
    _set(s, "__dict__", d)
    return s


def evolve(hand: Hand, **changes: object) -> Hand:
    """``dataclasses.replace`` for :class:`Hand`, without re-running ``__init__`` (see
    :func:`evolve_with`)."""
    return evolve_with(hand, changes)


def evolve_with(hand: Hand, changes: dict[str, object], _new=object.__new__,
                _set=object.__setattr__) -> Hand:
    """The hand with ``changes`` (field -> value), by copying its field dict.

    Why: replay applies tens of thousands of events per second and ``replace`` (which
    rebuilds every field through ``__init__``) was 40% of the time. A Hand has no
    ``__post_init__`` and no validation in ``__init__``, so a copy of the field dict with the
    changed fields gives the identical value; the result is as frozen as any. The betting
    path passes its dict of changes directly (no keyword packing).
    """
    d = hand.__dict__.copy()
    d.update(changes)
    new = _new(Hand)
    _set(new, "__dict__", d)
    return new


def _defaults() -> dict[str, object]:
    from dataclasses import MISSING, fields

    out: dict[str, object] = {}
    for f in fields(Hand):
        if f.default is not MISSING:
            out[f.name] = f.default
    return out


_HAND_DEFAULTS = _defaults()


def new_hand(_new=object.__new__, _set=object.__setattr__, **fields: object) -> Hand:
    """``Hand(**fields)`` without the frozen ``__init__`` (a Hand has two dozen fields and
    replay starts thousands of hands a second). Defaults as declared; ``extra`` and
    ``index`` get fresh empty dicts unless given."""
    d = dict(_HAND_DEFAULTS)
    d["extra"] = {}
    d["index"] = {}
    d.update(fields)
    h = _new(Hand)
    _set(h, "__dict__", d)
    return h
