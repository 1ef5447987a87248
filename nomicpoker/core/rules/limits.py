"""The largest numbers a Dealer may set, in one place for every command that sets them.

WHY one module: ``table create``, ``hand start``, ``table amend``, ``table set`` and the
ruleset loader (``rules check``, a custom ruleset file) all take numbers from the Dealer; a
bound checked by one of them and not the others lets the same bad value in by another door
(issue 10: ``--money 99999999999999999999`` was refused by ``table create`` while a ruleset
file's ``deadline_hours = 99999999999999999999`` loaded and overflowed the clock later).
Each bound says what breaks beyond it.
"""

from __future__ import annotations

#: Chips: what the grammar reads as an amount (12 digits), far inside the ledger's integers.
MAX_CHIPS = 10**12 - 1
#: Hours: ten years; datetime arithmetic overflows past ~10^8 hours.
MAX_HOURS = 24 * 366 * 10
#: Hole cards: the most cards one reveal names (the grammar reads at most 8, so a hand of
#: more could never be shown).
MAX_HOLE_CARDS = 8
#: A showdown hand has five cards, so it cannot be made to use more than five hole cards.
MAX_MIN_HOLE_CARDS = 5
#: Reminders before one deadline: each is a comment in the thread; more than one an hour of
#: a day-long deadline is noise, and the count drives a loop.
MAX_REMINDERS = 24
#: Timeouts in a row before a player sits out, and invalid comments before flood protection:
#: beyond these the setting means "never", which the Dealer should say by a large sane value.
MAX_TIMEOUTS = 1000
MAX_FLOOD_THRESHOLD = 1000
#: Cards in one shared deck, and the board dealt from it before the hole cards.
DECK_SIZE = 52
BOARD_SIZE = 5


def shared_deck_fits(players: int, hole_cards: int) -> bool:
    """Whether ``players`` hands of ``hole_cards`` and the board fit one shared deck."""
    return BOARD_SIZE + players * hole_cards <= DECK_SIZE


__all__ = ["MAX_CHIPS", "MAX_HOURS", "MAX_HOLE_CARDS", "MAX_MIN_HOLE_CARDS", "MAX_REMINDERS",
           "MAX_TIMEOUTS", "MAX_FLOOD_THRESHOLD", "DECK_SIZE", "BOARD_SIZE", "shared_deck_fits"]
