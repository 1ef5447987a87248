"""The one reading of a comment revision (pure): which of its possible readings the fold acts on.

A comment's text can be read as several things at once: ``SCORE`` on its first line, an
advance action in WRGPT's language on its first line (``CALL $10``, ``IF/B=0 CHECK``), an
ordinary action of the grammar (``HAND3 ROUND1 raise 20``, ``call``), the players' commands on
lines of their own (``GONE``, ``PROTEST ...``), a coded error (a malformed attempt), or chat.
They used to be read by five functions in four modules and chosen by an if-chain in the fold;
here the text is read once (:class:`TextReading`: the visible text from
:func:`nomicpoker.core.reading.markup.read_visible`, then each reading of it, each made once,
when first asked) and :func:`read_revision` chooses the one the fold acts on, by the
precedence below, from the text and the few facts of the table it depends on
(:class:`Facts`). The fold then hands the revision to the handler of that reading's kind
(``_Folder.read_comment``'s table), as it does clock events.

**The precedence** (the first rule that applies wins; docs/comment-grammar.md says it for
players):

1. ``private``: a private message to the Dealer (the pseudo-thread ``~private``): only an
   advance action (or ``UNDO``) is read there, whatever else it says.
2. The protester's ``UNDO`` while the protest freezes the table goes to the commands (rule 5):
   it withdraws the protest, never an advance action, and is never ``SCORE``.
3. ``score``: ``SCORE`` or ``SCORE/L`` alone on the first visible line, from anyone.
4. The advance-action readings, only from a player still in a running hand (not folded, the
   hand not at its showdown) with a first line:

   - edition 2 (tables made since issue 22): an ordinary betting action of the grammar that is
     not written in WRGPT's own forms (``raise 6``, not ``RAISE $6``: see
     :func:`~nomicpoker.core.reading.advance.advance_only`), posted before its player's turn,
     for this hand and not for a past round, where advance actions are taken, is
     ``advance_hold`` (kept for the turn, applied then as if posted then), from edition 3
     after the comment's commands as in rule 5 (``commands_first``), unless it holds a
     ``PROTEST``, whose text is for the Dealer: then rule 5 (``command``); edition 2 keeps the
     action and reads no command line; at the turn it is the ordinary action (rule 5);
   - a first line that starts like WRGPT's language, where advance actions are not taken:
     ``advance_off`` when it can only be one (a conditional, a switch, an amount, two words),
     else rule 5 (``fold`` stays a word);
   - a line of that language that does not parse: ``advance_error``, unless the grammar reads
     the comment as an ordinary action or the error is not the language's own (then rule 5);
   - edition 1 (tables made before): at the player's turn an action the grammar reads goes
     the ordinary way (``RAISE $6`` is "raise to 6"), rule 5;
   - otherwise ``advance``: the program is kept (and tried at once at the player's turn).
5. The ordinary readings. A bare betting word (``call``) under a ruleset that reads bare
   actions is chat from someone not seated in the thread's hand. Then, where the author is one
   of the table's players and the comment holds commands: ``command`` when nothing else in it
   is to be read (it is otherwise chat, or it holds a ``PROTEST``, whose text is for the
   Dealer); else the commands are applied first and the comment goes on as below
   (``commands_first``). Then ``chat`` (the grammar reads nothing), ``error`` (the grammar's
   coded error), or ``action`` (an intent of the grammar: bet, dice, draw, reveal).

A new player command is one row of :mod:`nomicpoker.core.reading.player_commands`' grammar and
one handler (``Days._<kind>`` in :mod:`nomicpoker.core.fold.over_days`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Union

from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.advance import AdvanceError, Program, Undo, advance_only, looks_like_advance, parse
from nomicpoker.core.reading.markup import read_visible
from nomicpoker.core.reading.player_commands import Command, CommandResult, commands_in, hides_action

#: The kinds of action a ruleset without hand and round tags reads bare ("call", "raise 4").
BETTING = ("fold", "check", "call", "raise", "all_in")

#: ``SCORE`` (WRGPT's standings across every table) or ``SCORE/L`` (the eliminated too)
SCORE_COMMAND = re.compile(r"SCORE(/L)?", re.IGNORECASE)

Kind = Literal["private", "score", "advance", "advance_hold", "advance_off", "advance_error",
               "command", "chat", "error", "action"]
#: every kind :func:`read_revision` returns, in the order of the precedence
KINDS: tuple[Kind, ...] = ("private", "score", "advance_hold", "advance_off", "advance_error", "advance",
                           "command", "chat", "error", "action")


def first_line(body: str, body_format: str) -> str:
    """The first non-empty visible line of a comment or message: where an advance action and
    ``SCORE`` are written."""
    return _first_line(read_visible(body, body_format))


def _first_line(reading) -> str:
    if not reading.complete:
        return ""
    for line in reading.text.splitlines():
        if line.strip():
            return line.strip()
    return ""


class TextReading:
    """Every reading of one text (a body in its format, under a ruleset that does or does not
    read bare actions), each made once, when first asked: a pure function of the three, so
    the fold keeps one per body (``_Folder.text_of``). The visible text is read once."""

    def __init__(self, body: str, body_format: str, bare: bool, edition: int | None = None):
        self.body, self.body_format, self.bare = body, body_format, bare
        self.edition = edition  # the players' commands read in this edition (None: all of them)

    @cached_property
    def visible(self):
        """The visible, unquoted text (:func:`~nomicpoker.core.reading.markup.read_visible`)."""
        return read_visible(self.body, self.body_format)

    @cached_property
    def line(self) -> str:
        """The first visible line ("" when there is none, or the text cannot be read exactly)."""
        return _first_line(self.visible)

    @cached_property
    def score(self) -> bool | None:
        """``None``: not a SCORE command; else whether it is ``SCORE/L``."""
        m = SCORE_COMMAND.fullmatch(self.line)
        return None if m is None else bool(m.group(1))

    @cached_property
    def commands(self) -> tuple[CommandResult, ...]:
        """The players' commands, each on a line of its own (:mod:`~nomicpoker.core.reading.player_commands`)."""
        return commands_in(self.visible.text, self.edition)

    @cached_property
    def action(self) -> grammar.Result:
        """The comment grammar's reading (an intent, a coded error, or no action). Through
        :func:`grammar.parse_comment`, which finds the visible text already read (memoised)."""
        return grammar.parse_comment(self.body, self.body_format, bare=self.bare)

    @cached_property
    def looks_advance(self) -> bool:
        """The first line starts like WRGPT's advance-action language."""
        return bool(self.line) and looks_like_advance(self.line)

    @cached_property
    def program(self) -> Union[Program, Undo, AdvanceError, None]:
        """The first line as an advance action (its error if it does not parse; ``None`` when
        it does not start like one)."""
        if not self.looks_advance:
            return None
        try:
            return parse(self.line)
        except AdvanceError as e:
            return e

    @cached_property
    def advance_only(self) -> bool:
        """The first line is written in WRGPT's own forms (``$``, ``*``, a switch)."""
        return advance_only(self.line)

    def undoes(self) -> bool:
        """It holds the command ``UNDO``."""
        return any(isinstance(c, Command) and c.kind == "undo" for c in self.commands)


@dataclass(frozen=True)
class Facts:
    """What the choice of a reading depends on besides the text, as the fold sees it when the
    revision comes (pure values). ``in_hand``: the author is seated in the thread's running
    hand, not folded, the hand not at its showdown or over; ``seated``: the author has a seat
    in the thread's hand at all; ``player``: the author is one of the table's players."""

    private: bool = False
    undoes_protest: bool = False
    in_hand: bool = False
    seated: bool = False
    player: bool = False
    edition: int = 3
    my_turn: bool = False
    advance_on: bool = False
    number: int | None = None
    round: int = 0


@dataclass(frozen=True)
class Reading:
    """The one reading of a revision: its ``kind`` (see the module doc), the text's readings,
    the facts it was chosen on, and, for the ordinary kinds, the grammar's reading after the bare-word rule (``action``)
    and whether the comment's commands are applied first (``commands_first``)."""

    kind: Kind
    text: TextReading
    facts: Facts
    action: grammar.Result = grammar.NoAction()
    commands_first: bool = False


def read_revision(text: TextReading, facts: Facts) -> Reading:
    """The one reading of a revision whose text is ``text``, by the precedence of the module
    doc (the fold dispatches on its ``kind``)."""
    if facts.private:
        return Reading("private", text, facts)
    if not facts.undoes_protest:
        if text.score is not None:
            return Reading("score", text, facts)
        if facts.in_hand and text.line:
            kind = _advance_kind(text, facts)
            if kind == "advance_hold" and facts.edition >= 3:  # the commands first, as at the turn (rule 5)
                return Reading(kind, text, facts, text.action, bool(text.commands) and facts.player)
            if kind is not None:
                return Reading(kind, text, facts)
    return _ordinary(text, facts)


def _advance_kind(t: TextReading, f: Facts) -> Kind | None:
    """Rule 4: the advance reading of a player in a running hand, or None (rule 5)."""
    normal = t.action
    if f.edition >= 2:
        said = isinstance(normal, grammar.Intent) and normal.kind in BETTING
        if said and not t.advance_only:
            assert isinstance(normal, grammar.Intent)
            if (f.my_turn or not f.advance_on or normal.hand not in (None, f.number)
                    or (normal.round or f.round) < f.round):
                return None
            if f.edition >= 3 and f.player and hides_action(t.commands):
                return None  # a PROTEST: its text is for the Dealer (rule 5), as at the turn
            return "advance_hold"
    if not t.looks_advance:
        return None
    if not f.advance_on:
        return "advance_off" if _only_advance(t) else None
    if isinstance(t.program, AdvanceError):
        if isinstance(normal, grammar.Intent) or not t.program.code.startswith("advance_"):
            return None  # an ordinary action ("call", "HAND1 ROUND1 fold"): not the language's
        return "advance_error"
    if f.edition < 2 and f.my_turn and isinstance(normal, grammar.Intent):
        return None  # edition 1: in turn, an action the grammar reads acts as it always did
    return "advance"


def _only_advance(t: TextReading) -> bool:
    """Where advance actions are off: the first line can only be one (a conditional, a switch,
    an amount, ``CALL *``), not a lone word such as "fold", which stays chat under a ruleset
    that wants "HANDx ROUNDy folds"."""
    line = t.line
    if isinstance(t.program, AdvanceError):
        return line.upper().startswith("IF/")
    return not (len(line.split()) < 2 and "/" not in line and not line.startswith("$"))


def _ordinary(t: TextReading, f: Facts) -> Reading:
    """Rule 5: commands, chat, a coded error, or an action."""
    action = t.action
    if (t.bare and isinstance(action, grammar.Intent) and action.hand is None and action.round is None
            and action.kind in BETTING and not f.seated):
        action = grammar.NoAction()  # "call" from someone not at the table is just a word
    chat = isinstance(action, grammar.NoAction)
    commands = bool(t.commands) and f.player
    if commands and (chat or hides_action(t.commands)):
        return Reading("command", t, f, action, True)
    kind: Kind = "chat" if chat else "error" if isinstance(action, grammar.GrammarError) else "action"
    return Reading(kind, t, f, action, commands)
