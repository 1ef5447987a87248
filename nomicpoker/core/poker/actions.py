"""Events that advance a hand: player actions and dealer events. Pure values.

The grammar turns a comment into one of the player actions below (with ``player`` set to the
comment's author by the shell); PHH replay turns ``p3 cbr 300`` into one; the dealer's own
events (cards dealt, reveals, timeouts) are values too, so a hand is a fold over a list of
events and can be replayed exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from nomicpoker.core.poker.cards import Card


@dataclass(frozen=True)
class _PlayerAction:
    player: str
    #: The hand and round the comment names (``HAND3 ROUND1``); ``None`` when not stated.
    #: The engine rejects a stated hand/round that is not the current one (``stale_hand`` /
    #: ``stale_round``) and, when the ruleset requires them, a missing one.
    hand: int | None = None
    round: int | None = None


@dataclass(frozen=True)
class Fold(_PlayerAction):
    pass


@dataclass(frozen=True)
class Check(_PlayerAction):
    pass


@dataclass(frozen=True)
class Call(_PlayerAction):
    #: The amount the player stated, if any. A stated amount that differs from the amount to
    #: call is rejected (``call_amount_mismatch``), never silently corrected.
    amount: int | None = None


@dataclass(frozen=True)
class Raise(_PlayerAction):
    #: In the ruleset's semantics: chips added by this action (``raise_amount = "added"``) or
    #: the player's new total for the round (``"raise_to"``). A bet is a raise from zero.
    amount: int = 0


@dataclass(frozen=True)
class AllIn(_PlayerAction):
    """Put in all remaining Money: a call for less, a call, or a raise, as the amount makes it."""

    #: The amount the player stated ("all in for 20"), if any: like a call's, a stated amount
    #: that is not the player's remaining Money is rejected, never silently corrected.
    amount: int | None = None


@dataclass(frozen=True)
class DealHole:
    """The dealer records a player's hole cards (known to the dealer; optional in Dealing and
    Play, where the cards come from the player's own deck and are known at reveal)."""

    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DealHoles:
    """Several :class:`DealHole` events at once (the dealer deals every hand before the
    betting). The engine applies them in order, all or none: the new hand, its log included,
    is the one the single deals give one after another, and a refusal is the first deal's.
    Why: one step instead of six for the most frequent dealer act of PHH replay."""

    deals: tuple[DealHole, ...]


@dataclass(frozen=True)
class DealBoard:
    """Community cards: the flop (3), the turn (1) or the river (1)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Reveal:
    """A player shows their hole cards at showdown.

    ``barred``: shown by the dealer for a player away at a tournament's table, who "cannot win
    a contested hand while on vacation" (WRGPT): the cards win only a pot that no contender
    without the bar still contests (a side pot only players away reach), never one beside a
    player who may win it (:func:`nomicpoker.core.poker.showdown.settle`). Its public step is
    ``reveal_away``."""

    player: str
    cards: tuple[Card, ...]
    hand: int | None = None
    barred: bool = False


@dataclass(frozen=True)
class Muck:
    """A player at showdown concedes without showing (or failed to reveal in time)."""

    player: str


@dataclass(frozen=True)
class Timeout:
    """The player's deadline passed (or they are on vacation): the dealer acts for them.

    ``action`` is the ruleset's ``deadline_action``: ``"check_or_fold"`` (check if that is
    legal, otherwise fold: the WRGPT dealer's "$0 bet", the bot server's auto-check when a
    fold is not needed, Robert's Rules' dead hand only "when facing a bet or raise") or
    ``"fold"`` (always fold, even when checking is free: the bot server's "auto-folds").
    A vacation always checks or folds, whatever the deadline action (the WRGPT manual)."""

    player: str
    action: str = "check_or_fold"


@dataclass(frozen=True)
class FoldOut:
    """The dealer folds a player out of the hand, out of turn: a Hole Card Draw not made by
    its deadline. The player's chips stay in the pot; whoever owes the next action still owes
    it (the next player still in, when it was this player)."""

    player: str


PlayerAction = Union[Fold, Check, Call, Raise, AllIn]
DealerEvent = Union[DealHole, DealHoles, DealBoard, Reveal, Muck, Timeout, FoldOut]
Event = Union[Fold, Check, Call, Raise, AllIn, DealHole, DealHoles, DealBoard, Reveal, Muck, Timeout,
              FoldOut]
