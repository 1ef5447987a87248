"""What a comment asks for, as values: the grammar's results, their canonical spelling and the
engine events they become.

WHY a module of its own: :mod:`nomicpoker.core.reading.grammar` is about *reading* text (markup, look-alikes,
the forms "in substantially the form" allows); these values are what the rest of the bot
consumes (the fold, the ledger's verdicts, the round-trip property tests). Keeping them apart
keeps the parser small and lets readers of the fold find the shapes without the regexes.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from nomicpoker.core.poker import actions

__all__ = ["Kind", "Intent", "GrammarError", "NoAction", "Result", "FORMS", "canonical", "to_action"]

Kind = Literal["fold", "check", "call", "raise", "all_in", "dice", "draw", "reveal"]


@dataclass(frozen=True)
class Intent:
    """A well-formed action as the comment states it. Nothing here is checked against the
    table (turn, amounts, hand number): that is the engine's and the dealer's job."""

    kind: Kind
    hand: int | None = None
    round: int | None = None
    #: raise: chips stated; call and all in: the amount stated (optional; the engine rejects a
    #: mismatch)
    amount: int | None = None
    #: hole-card draw: the sides of each die requested ("DICE52 DICE52" -> (52, 52))
    dice: tuple[int, ...] = ()
    #: draw statement: the deck positions stated ("cards 14, 26" -> (14, 26))
    positions: tuple[int, ...] = ()
    #: draw statement: the deck's "Cards printed by:" checksum, whitespace collapsed
    checksum: str | None = None
    #: reveal: canonical cards ("7h", "Ts")
    cards: tuple[str, ...] = ()
    #: the visible source text that matched, for quoting back
    text: str = ""
    #: what stands before the action on its line ("bob:" in "bob: HAND1 ROUND1 folds"), so the
    #: Dealer can tell an action posted *for* another player; not part of what the action is
    subject: str = field(default="", compare=False)


@dataclass(frozen=True)
class GrammarError:
    """An attempt that does not parse. ``code`` is stable (see ``ruleset.REJECTION_CODES``);
    ``message`` says what was wrong and what was expected; ``text`` is the offending fragment."""

    code: str
    message: str
    text: str = ""


@dataclass(frozen=True)
class NoAction:
    """Ordinary chat: nothing in the comment looks like an attempt to act."""


Result = Union[Intent, GrammarError, NoAction]

#: What each kind of action should look like, for error messages.
FORMS: dict[str, str] = {
    "raise": '"HANDx ROUNDy raise Z" with Z a whole number of chips',
    "call": '"HANDx ROUNDy call" (or "HANDx ROUNDy call Z" with Z the amount to call)',
    "check": '"HANDx ROUNDy check"',
    "fold": '"HANDx ROUNDy folds"',
    "all_in": '"HANDx ROUNDy all in" (or "HANDx ROUNDy all in Z" with Z all your Money)',
    "reveal": '"HANDx reveal 7h 2s" (cards like 7h, Ts, 10♠ or "7 of hearts")',
    "dice": '"HAND#X DICE52 DICE52"',
    "draw": '"cards 14, 26, Cards printed by: <printer>, <town>"',
}


def canonical(intent: Intent) -> str:
    """The standard spelling of an intent; ``parse_comment(canonical(i))`` gives ``i`` back
    (apart from ``text``) for every intent the grammar can produce."""
    tag = ""
    if intent.hand is not None:
        tag = f"HAND#{intent.hand}" if intent.kind == "dice" else f"HAND{intent.hand}"
    if intent.round is not None:
        tag = f"{tag} ROUND{intent.round}".strip()
    k = intent.kind
    if k == "raise":
        body = f"raise {intent.amount}"
    elif k == "call":
        body = "call" if intent.amount is None else f"call {intent.amount}"
    elif k == "fold":
        body = "folds"
    elif k == "check":
        body = "check"
    elif k == "all_in":
        body = "all in" if intent.amount is None else f"all in {intent.amount}"
    elif k == "dice":
        body = " ".join(f"DICE{n}" for n in intent.dice)
    elif k == "reveal":
        body = "reveal " + " ".join(intent.cards)
    else:
        body = (f"cards {', '.join(str(n) for n in intent.positions)}, "
                f"Cards printed by: {intent.checksum}")
    return f"{tag} {body}".strip()


def to_action(intent: Intent, player: str
              ) -> actions.Fold | actions.Check | actions.Call | actions.Raise | actions.AllIn \
        | actions.Reveal:
    """The engine event for a player action. Dice rolls and draw statements are the dealer's
    business (they set up hole cards), not the engine's: they raise ``ValueError``."""
    k, h, r = intent.kind, intent.hand, intent.round
    if k == "fold":
        return actions.Fold(player, h, r)
    if k == "check":
        return actions.Check(player, h, r)
    if k == "call":
        return actions.Call(player, h, r, amount=intent.amount)
    if k == "raise":
        return actions.Raise(player, h, r, amount=intent.amount or 0)
    if k == "all_in":
        return actions.AllIn(player, h, r, amount=intent.amount)
    if k == "reveal":
        return actions.Reveal(player, intent.cards, hand=h)
    raise ValueError(f"{k!r} is handled by the dealer, not the hand engine")
