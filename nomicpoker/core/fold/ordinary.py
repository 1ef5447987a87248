"""The ordinary readings of a comment in the fold (pure): players' commands, chat, the
grammar's coded error, and an action (a bet, the dice, a draw statement, a reveal).

WHY a module of its own: the fold hands each revision to the handler of its one reading's
kind (:mod:`nomicpoker.core.reading.comment_reading` chooses it; ``_Folder.on_reading`` is the
table); the advance readings are handled in :mod:`.advance_fold`, ``SCORE`` in
:mod:`.score_fold`, these here. What they need from the fold is declared in
:class:`OrdinaryHost`.
"""

from __future__ import annotations

from typing import Any, Protocol

from nomicpoker.core.fold.whose import other_player_named
from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.reading.lookalike import describe_char, first_lookalike
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import Revision, TableConfig


class OrdinaryHost(Protocol):
    """What the ordinary readings' handlers use of the fold."""

    c: TableConfig
    st: TableState
    days: Any  # nomicpoker.core.fold.over_days.Days: the players' commands
    draw_phase: Any  # nomicpoker.core.fold.draws.DrawPhase: dice and draw statements

    def give_verdict(self, rev: Revision, hand: int | None, status: str, code: str = "",
                     message: str = "", citation: str = "", canonical: str = "") -> None: ...

    def reject(self, rev: Revision, hand: int | None, code: str, message: str,
               cite_as: str | None = None, hint: str | None = None, cite: str = "") -> None: ...

    def bet(self, rev: Revision, h: HandState, intent: Any) -> None: ...

    def reveal(self, rev: Revision, h: HandState, intent: Any) -> None: ...


class Ordinary:
    """The handlers of the ``command``, ``chat``, ``error`` and ``action`` readings."""

    def __init__(self, host: OrdinaryHost):
        self.host = host

    def _commands(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> bool:
        """Apply the comment's players' commands where they come first (True: nothing else
        in it is read)."""
        return reading.commands_first and self.host.days.commands(
            rev, h, number, isinstance(reading.action, grammar.NoAction), reading.text.commands)

    def commands_only(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        """``command``: only commands (or a PROTEST, whose text is for the Dealer)."""
        self._commands(rev, reading, h, number)

    def chat(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        """``chat``: the grammar reads nothing that acts."""
        self.host.st.first_kind[(rev.thread, rev.forum_id)] = "chat"
        self.host.give_verdict(rev, number, "chat")

    def error(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        """``error``: the grammar's coded error (after the comment's commands)."""
        if self._commands(rev, reading, h, number):
            return
        self.host.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        if h is None:
            self.host.give_verdict(rev, None, "ignored", "no_hand", "posted before any hand in this thread")
            return
        parsed = reading.action
        assert isinstance(parsed, grammar.GrammarError)
        self.host.reject(rev, number, parsed.code, parsed.message)

    def act(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        """``action``: an intent of the grammar (after the comment's commands): who may act,
        in which hand, then the bet, the dice, the draw or the reveal."""
        f = self.host
        if self._commands(rev, reading, h, number):
            return
        f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        if h is None:
            f.give_verdict(rev, None, "ignored", "no_hand", "posted before any hand in this thread")
            return
        intent = reading.action
        assert isinstance(intent, grammar.Intent)
        if h.phase == "complete":
            f.reject(rev, number, "hand_over", "no hand is running in this thread"
                     + (f": hand {number} is over" if number else ""))
            return
        seated = [s.name for s in h.hand.seats]
        if rev.author not in seated:
            like = f.c.lookalike_seat(rev.author)
            why = ""
            if like is not None:
                ch = first_lookalike(rev.author)
                why = (f": the account only looks like {like}"
                       + (f" (it contains {describe_char(ch)})" if ch else "")
                       + "; accounts are compared exactly, apart from the case of plain letters")
            f.reject(rev, number, "not_seated", f"{rev.author} is not a Seated Player in hand "
                     f"{number} (seated: {', '.join(seated)}){why}")
            return
        named = getattr(intent, "player", None) or other_player_named(rev, intent, seated)
        if named and named != rev.author:
            # The rule has each player post their own comment: the draw, the reveal, the bet.
            cite_as = {"dice": "deck", "draw": "draw_mismatch", "reveal": "reveal_not_allowed"}.get(
                intent.kind, "unparseable")
            f.reject(rev, number, "not_player_action",
                     f"{rev.author} cannot act for {named}: a player acts only in their own comment",
                     cite_as=cite_as)
            return
        if intent.hand is not None and intent.hand != number:
            if intent.kind in ("dice", "draw", "reveal"):
                f.reject(rev, number, "stale_hand", f"this is hand {number}, not hand {intent.hand}")
                return
        {"dice": f.draw_phase.dice, "draw": f.draw_phase.draw,
         "reveal": f.reveal}.get(intent.kind, f.bet)(rev, h, intent)
