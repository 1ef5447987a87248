"""The fold's state, in one place (pure): what the table fold remembers between two inputs.

:func:`nomicpoker.core.fold.adjudicator.fold_table` walks the inputs in order; everything it knows
between one input and the next lives here, in two plain values: :class:`TableState` (the
table: Money, the GNDT, the hands, what each comment was first read as, the row counters) and
one :class:`HandState` per hand. WHY one module: the poll resumes the fold from a stored copy
of this state (:mod:`nomicpoker.core.table.snapshot`) instead of replaying the whole table, so what
the fold remembers must be exactly what is here, no more (a field kept anywhere else would be
lost by a resume and the resumed fold would drift from the full replay ``audit`` runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.table_settings import CURRENT_EDITION
from nomicpoker.core.table.fold_types import DealerEvent, HandStart

#: derived row kinds, in the order the shell stores them
ROW_KINDS = ("verdict", "entry", "outbox", "dice", "deck", "draw", "reveal", "board", "hand_end", "action")


@dataclass
class HandState:
    """One hand as the fold knows it. ``decks`` and ``holes`` follow from the hand's secrets
    and ``hand`` (the engine's state) from its start record and its accepted events
    (``hand.log``), so a snapshot stores neither."""

    start: HandStart
    hand: Any  # engine.Hand
    phase: str = "draw"  # draw | betting | reveal | complete
    pairs: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # valid dice pairs
    decks: dict[str, Any] = field(default_factory=dict)  # player -> IssuedDeck (issued tables)
    own_checksums: dict[str, str] = field(default_factory=dict)
    draws: dict[str, tuple[int, ...]] = field(default_factory=dict)
    holes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # shared deck: dealt cards
    false_reveals: list[str] = field(default_factory=list)
    since: str = ""
    record: dict[str, Any] = field(default_factory=dict)
    noted: set[str] = field(default_factory=set)
    redraws: dict[str, str] = field(default_factory=dict)  # player -> last identical-dice draw time
    timed_out: dict[str, str] = field(default_factory=dict)  # player -> when the draw deadline folded them
    #: the public steps (action rows, :mod:`nomicpoker.core.words.hand_log`): how many the hand has,
    #: how many of ``hand.log``'s events are written, each player's total bet when last written,
    #: and the (comment id, time) of the step being applied now
    steps: int = 0
    logged: int = 0
    bets: dict[str, int] = field(default_factory=dict)
    step: tuple[str, str] = ("", "")
    #: advance actions waiting for their player's turn: player -> the action's canonical text
    #: (:mod:`nomicpoker.core.reading.advance`), read again when it is tried
    advance: dict[str, str] = field(default_factory=dict)
    #: players who asked for their cards to be shown at the end (``/R``, "reveal on fold");
    #: ``UNDO`` takes the wish back
    reveal_asked: set[str] = field(default_factory=set)
    #: advance actions sent privately this hand, ``[player, when, text]`` in arrival order:
    #: published in the thread when the hand ends (:mod:`nomicpoker.core.fold.advance_private`)
    private_advance: list[list[str]] = field(default_factory=list)
    #: table talk that came with a comment of this hand (WRGPT's ``TALK``, archived as a
    #: quotation under the command), ``[player, when, the command, the talk]`` in arrival
    #: order: shown with the action it came with in the payout ("all table talk is shown
    #: interspersed with action in the showdown messages")
    talk: list[list[str]] = field(default_factory=list)
    #: players who checked out of turn and may not bet or raise at their next turn (Robert's
    #: rule 7, ``Ruleset.no_raise_after_out_of_turn_check``); spent when they act
    no_raise: set[str] = field(default_factory=set)
    #: the edition of the Dealer's reading this hand is played under (``TableSettings.edition``
    #: when it started: a ``table set edition=...`` applies from the next hand)
    edition: int = CURRENT_EDITION


@dataclass
class TableState:
    """The table as the fold knows it after some prefix of its inputs."""

    seq: int = 0  # the last derived row's table-wide sequence number
    action_seq: int = 0  # the last action row's number (action rows count their own seq)
    money: dict[str, int] = field(default_factory=dict)
    gndt: dict[str, tuple[int, str, int]] = field(default_factory=dict)
    hands: dict[int, HandState] = field(default_factory=dict)
    by_thread: dict[str, int] = field(default_factory=dict)
    current: HandState | None = None
    #: hand (``None``: table-level) -> how many dealer messages it has queued (outbox keys)
    n_out: dict[int | None, int] = field(default_factory=dict)
    #: (thread, comment) -> "chat" | "action": how its first revision read
    first_kind: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (thread, comment) -> (status, canonical, code) of its first revision's verdict
    first_verdict: dict[tuple[str, str], tuple[str, str, str]] = field(default_factory=dict)
    #: rule amendments (``AMEND`` dealer events) recorded since the latest hand started: the
    #: next hand is played under the last one's ruleset and its first comment announces them
    amendments: list[DealerEvent] = field(default_factory=list)
    #: play over days: settings in force, vacations, timeouts, a freeze, floods, reminders
    days: DaysState = field(default_factory=DaysState)
    #: SCORE comments waiting for the standings (:mod:`nomicpoker.core.fold.score_fold`):
    #: ``[thread, comment id, author, "L" or "", hand number or "0"]``
    score_pending: list[list[str]] = field(default_factory=list)
    #: the players seated now, in GNDT order, once a tournament moved someone in or out
    #: (:mod:`nomicpoker.core.table.roster`); ``None``: the players the table was created with
    roster: list[str] | None = None
