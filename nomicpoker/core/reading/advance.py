"""Advance and conditional actions: the WRGPT dealer's command language, read into values.

WHY its own module: WRGPT's manual (seed ``000_…``) calls advance bets the feature that makes a
days-long game move (a player says now what he will do when his turn comes). The language is
small but exact, so it is read here once into frozen values; what an action *does* when the
turn arrives is :mod:`nomicpoker.core.reading.advance_eval`.

The commands (the manual's list, with the meanings the WRGPT dealer gives them):

- ``$x`` — a bet of x in turn; no switches, and never inside IF/ELSE ("The simple form "$x" is
  not allowed as an action guarded by IF or ELSE");
- ``CALL $x`` call any bet up to x, else fold (``CALL $0`` checks or folds); ``CALL *`` call
  anything; ``MAKE $x`` (alias ``BET $x``) make the bet x; ``RAISE $x`` raise x (``RAISE $0``
  calls anything); ``POT`` bet or call-and-raise the pot; ``JAM`` the most allowed; ``FOLD``
  fold at the earliest chance (it is ``CALL/S $0``); ``CHECK`` (it is ``MAKE $0``); ``UNDO``
  withdraws the advance action and the intent to reveal;
- switches on a command: ``/S`` sticky for the hand, ``/H=N`` only in hand N, ``/Q`` no
  confirmation, ``/R`` reveal on fold (``/Q`` is not allowed on ``UNDO``; no switch is);
- ``IF/<conditions> <action> … ELSE <action>``: at most 8 IF arms; conditions ``/P`` (pot),
  ``/B`` (bet to call) and ``/N`` (players in, me included) compared with ``= < <= > >= <>``,
  ``/I:n`` (player n in), ``/O:n`` (player n out), ``/F=1..4`` (betting round). ``/S`` on the
  first IF makes the whole action sticky; on an action (or a later IF) it makes that arm
  sticky. ``/H``, ``/Q`` and ``/R`` anywhere are promoted to the whole action.

Keywords are read case-insensitively (forum players type ``call *`` as readily as ``CALL *``);
a malformed command is an :class:`AdvanceError` whose message quotes the offending token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from nomicpoker.core.errors import CodedError

#: "There is a maximum of 8 IF lines per advance action."
MAX_ARMS = 8

Kind = Literal["bet", "call_upto", "call_any", "make", "raise", "pot", "jam", "fold", "check"]
Field = Literal["P", "B", "N"]
Op = Literal["=", "<", "<=", ">", ">=", "<>"]


class AdvanceError(CodedError):
    """A malformed advance action: a stable code and one line quoting what was wrong."""


@dataclass(frozen=True)
class Command:
    """One action (no conditions). ``amount`` is the ``$x`` of ``$x``, ``CALL $x``,
    ``MAKE $x`` and ``RAISE $x`` (``None`` for the others, and for ``CALL *``)."""

    kind: Kind
    amount: int | None = None
    sticky: bool = False

    def text(self) -> str:
        """The command as a player would write it (canonical form, for confirmations)."""
        if self.kind == "bet":
            return f"${self.amount}"
        word = {"call_upto": "CALL", "call_any": "CALL", "make": "MAKE", "raise": "RAISE",
                "pot": "POT", "jam": "JAM", "fold": "FOLD", "check": "CHECK"}[self.kind]
        word += "/S" if self.sticky else ""
        if self.kind == "call_any":
            return word + " *"
        return word if self.amount is None else f"{word} ${self.amount}"


@dataclass(frozen=True)
class Compare:
    """``/P``, ``/B`` or ``/N`` compared with a number."""

    field: Field
    op: Op
    value: int


@dataclass(frozen=True)
class PlayerIn:
    """``/I:n`` (``inside``) or ``/O:n`` (not ``inside``): player number n (the seat number in
    the status table, from 1) is in the pot, or folded."""

    seat: int
    inside: bool


@dataclass(frozen=True)
class RoundIs:
    """``/F=n``: the betting round is n (1 pre-flop, 2 flop, 3 turn, 4 river)."""

    round: int


Condition = Compare | PlayerIn | RoundIs


@dataclass(frozen=True)
class Arm:
    """``IF/<conditions> <action>``: the action fires when every condition holds."""

    conditions: tuple[Condition, ...]
    action: Command


@dataclass(frozen=True)
class Program:
    """A whole advance action. A plain command is a program with no arms and ``otherwise``
    set; ``sticky`` is the outer ``/S`` (a plain ``X/S``, or ``/S`` on the first IF)."""

    arms: tuple[Arm, ...] = ()
    otherwise: Command | None = None
    sticky: bool = False
    hand: int | None = None
    quiet: bool = False
    reveal: bool = False

    @property
    def conditional(self) -> bool:
        return bool(self.arms)

    def text(self) -> str:
        """A canonical rendering (the confirmation quotes it back)."""
        out = []
        for k, arm in enumerate(self.arms):
            head = "IF" + ("/S" if k == 0 and self.sticky else "")
            head += "".join("/" + _cond_text(c) for c in arm.conditions)
            out.append(f"{head} {arm.action.text()}")
        if self.otherwise is not None:
            cmd = self.otherwise.text()
            if not self.arms and self.sticky and self.otherwise.kind != "fold" \
                    and not self.otherwise.sticky:
                cmd = _with_switch(cmd, "/S")
            out.append(("ELSE " if self.arms else "") + cmd)
        flags = (f"/H={self.hand}" if self.hand is not None else "") + \
            ("/Q" if self.quiet else "") + ("/R" if self.reveal else "")
        if flags and out:
            out[0] = _with_switch(out[0], flags)
        return " ".join(out)


@dataclass(frozen=True)
class Undo:
    """``UNDO``: withdraw the advance action (and the intent to reveal)."""


def _cond_text(c: Condition) -> str:
    if isinstance(c, Compare):
        return f"{c.field}{c.op}{c.value}"
    if isinstance(c, PlayerIn):
        return f"{'I' if c.inside else 'O'}:{c.seat}"
    return f"F={c.round}"


def _with_switch(cmd: str, sw: str) -> str:
    head, sep, rest = cmd.partition(" ")
    return head + sw + sep + rest


_WORDS = {"CALL", "MAKE", "BET", "RAISE", "POT", "JAM", "FOLD", "CHECK", "UNDO"}
_AMOUNT = re.compile(r"\$?([0-9]{1,12})")
_COMPARE = re.compile(r"([PBN])(<=|>=|<>|=|<|>)\$?([0-9]{1,12})")
_MEMBER = re.compile(r"([IO]):([0-9]{1,3})")
_ROUND = re.compile(r"F=([0-9]{1,12})")  # bounded: int() of a 5,000-digit comment raises
_HAND = re.compile(r"H=([0-9]{1,9})")


def looks_like_advance(text: str) -> bool:
    """Whether ``text`` starts like a command of this language (so a reader can tell an
    advance action from table chat): ``$digits``, ``IF/…``, or one of the keywords, alone or
    with a switch."""
    head = text.strip().split(None, 1)[0] if text.strip() else ""
    word = head.split("/", 1)[0].upper()
    if word == "IF":
        return head.upper().startswith("IF/")
    # any digits here (\d: ٣, ３, 𝟑): "$٣٠" is meant as a bet and is refused as one
    # (advance_bad_amount); the amounts themselves are read from ASCII digits only ([0-9]:
    # int() reads '٣' as 3, which would be a guess)
    return word in _WORDS or bool(re.fullmatch(r"\$\d{1,12}", head))


def advance_only(text: str) -> bool:
    """Whether ``text`` is written in WRGPT's language rather than the ordinary grammar's:
    it starts like a command of this language (:func:`looks_like_advance`) and carries what
    only this language writes, a ``$`` amount (``RAISE $6``, ``CALL $0``, ``$20``), ``*``
    (``CALL *``) or a switch or condition (``FOLD/S``, ``IF/B=0 POT``).

    WHY: one text has one reading whatever the turn (docs/comment-grammar.md). ``RAISE $6`` is
    the advance action ("raise 6 over the bet to call") before one's turn and at it, while
    ``raise 6`` and ``call 10``, which the ordinary grammar reads ("raise to 6", "call, the
    amount to call being 10"), keep the ordinary meaning at every turn. A line the ordinary
    grammar does not read at all (``POT``, ``JAM``, ``MAKE 20``) is this language's anyway."""
    return looks_like_advance(text) and bool(re.search(r"[$*/]", text))


def parse(text: str) -> Program | Undo:
    """Read one advance action (whitespace, including newlines, separates tokens).

    Raises :class:`AdvanceError` naming what is wrong; never returns a partial program."""
    tokens = text.split()
    if not tokens:
        raise AdvanceError("advance_empty", "an advance action needs a command")
    if re.fullmatch(r"\$[0-9]{1,12}", tokens[0]):
        if len(tokens) > 1:
            raise AdvanceError("advance_bet_extra",
                               f"nothing may follow a plain bet {tokens[0]!r}: "
                               f"{' '.join(tokens[1:])!r}")
        return Program(otherwise=Command("bet", int(tokens[0][1:])))
    if tokens[0].startswith("$"):
        raise AdvanceError("advance_bad_amount", f"{tokens[0]!r} is not an amount like $100")
    if tokens[0].upper().split("/", 1)[0] == "UNDO":
        if tokens[0].upper() != "UNDO":
            raise AdvanceError("advance_undo_switch",
                               f"UNDO takes no switches (the manual: \"the /Q switch is not "
                               f"allowed on UNDO\"): {tokens[0]!r}")
        if len(tokens) > 1:
            raise AdvanceError("advance_undo_extra",
                               f"nothing may follow UNDO: {' '.join(tokens[1:])!r}")
        return Undo()
    return _Reader(tokens).program()


class _Reader:
    """A one-pass reader over the tokens (private: :func:`parse` is the entry)."""

    def __init__(self, tokens: list[str]):
        self.tokens = tokens
        self.pos = 0
        self.hand: int | None = None
        self.quiet = False
        self.reveal = False

    def take(self) -> str | None:
        if self.pos >= len(self.tokens):
            return None
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def program(self) -> Program:
        first = self.tokens[0].upper()
        if not first.startswith("IF/") and first.split("/", 1)[0] != "ELSE":
            cmd, sticky = self.command(guarded=False)
            if self.pos < len(self.tokens):
                raise AdvanceError("advance_extra",
                                   f"unexpected {' '.join(self.tokens[self.pos:])!r} after "
                                   f"{cmd.text()}")
            return self._done((), Command(cmd.kind, cmd.amount), sticky or cmd.sticky)
        arms: list[Arm] = []
        outer_sticky = False
        otherwise: Command | None = None
        while (tok := self.take()) is not None:
            up = tok.upper()
            if up.startswith("IF/") or up == "IF":
                if otherwise is not None:
                    raise AdvanceError("advance_after_else",
                                       f"ELSE must be the last part; found {tok!r} after it")
                if len(arms) == MAX_ARMS:
                    raise AdvanceError("advance_too_many_ifs",
                                       f"at most {MAX_ARMS} IF parts per advance action "
                                       f"(a ninth starts at {tok!r})")
                conds, sticky = self.conditions(tok)
                if sticky and not arms:
                    outer_sticky = True
                cmd, csticky = self.command(guarded=True)
                arms.append(Arm(conds, Command(cmd.kind, cmd.amount,
                                               cmd.sticky or csticky or (sticky and bool(arms)))))
            elif up.split("/", 1)[0] == "ELSE":
                if otherwise is not None:
                    raise AdvanceError("advance_two_else", "only one ELSE per advance action")
                if not arms:
                    raise AdvanceError("advance_else_first", "ELSE needs an IF before it")
                for sw in tok.split("/")[1:]:
                    if self._outer_switch(sw) is None:
                        raise AdvanceError("advance_bad_switch",
                                           f"{'/' + sw!r} is not allowed on ELSE")
                cmd, csticky = self.command(guarded=True)
                otherwise = Command(cmd.kind, cmd.amount, cmd.sticky or csticky)
            else:
                raise AdvanceError("advance_expected_if",
                                   f"expected IF/… or ELSE, found {tok!r}")
        return self._done(tuple(arms), otherwise, outer_sticky)

    def _done(self, arms: tuple[Arm, ...], otherwise: Command | None, sticky: bool) -> Program:
        if otherwise is not None and otherwise.kind == "fold":
            otherwise = Command("fold")
        return Program(arms, otherwise, sticky or (not arms and otherwise is not None
                                                  and otherwise.kind == "fold"),
                       self.hand, self.quiet, self.reveal)

    def _outer_switch(self, sw: str) -> bool | None:
        """Apply a promoted switch (/H=N, /Q, /R); ``None`` if ``sw`` is not one."""
        up = sw.upper()
        if up == "Q":
            self.quiet = True
        elif up == "R":
            self.reveal = True
        elif m := _HAND.fullmatch(up):
            n = int(m.group(1))
            if self.hand is not None and self.hand != n:
                raise AdvanceError("advance_two_hands",
                                   f"/H={self.hand} and /H={n} name different hands")
            self.hand = n
        elif up.startswith("H"):
            raise AdvanceError("advance_bad_switch", f"{'/' + sw!r} must be /H=<hand number>")
        else:
            return None
        return True

    def conditions(self, tok: str) -> tuple[tuple[Condition, ...], bool]:
        parts = tok.split("/")[1:]
        conds: list[Condition] = []
        sticky = False
        for sw in parts:
            up = sw.upper()
            if up == "S":
                sticky = True
            elif self._outer_switch(sw):
                pass
            elif m := _COMPARE.fullmatch(up):
                conds.append(Compare(m.group(1), m.group(2), int(m.group(3))))  # type: ignore[arg-type]
            elif m := _MEMBER.fullmatch(up):
                seat = int(m.group(2))
                if seat < 1:
                    raise AdvanceError("advance_bad_player",
                                       f"player numbers start at 1: {'/' + sw!r}")
                conds.append(PlayerIn(seat, m.group(1) == "I"))
            elif m := _ROUND.fullmatch(up):
                r = int(m.group(1))
                if not 1 <= r <= 4:
                    raise AdvanceError("advance_bad_round",
                                       f"{'/' + sw!r}: the betting round is 1 (pre-flop) to 4 "
                                       f"(river)")
                conds.append(RoundIs(r))
            elif re.fullmatch(r"[IO]=[0-9]+", up):
                raise AdvanceError("advance_bad_condition",
                                   f"{'/' + sw!r}: players in or out use ':' (/I:3, /O:2)")
            else:
                raise AdvanceError("advance_bad_condition",
                                   f"{'/' + sw!r} is not a condition (/P, /B, /N with = < <= > "
                                   f">= <>, /I:n, /O:n, /F=1..4) in {tok!r}")
        if not conds:
            raise AdvanceError("advance_if_without_condition",
                               f"{tok!r} has no condition (e.g. IF/B=0)")
        return tuple(conds), sticky

    def command(self, guarded: bool) -> tuple[Command, bool]:
        """The next action; returns it and whether it carried /S."""
        tok = self.take()
        if tok is None:
            raise AdvanceError("advance_missing_action",
                               "an IF or ELSE needs an action after it" if guarded
                               else "an advance action needs a command")
        if re.fullmatch(r"\$[0-9]{1,12}", tok):
            raise AdvanceError("advance_bare_amount_in_if",
                               f"the simple form {tok!r} is not allowed after IF or ELSE "
                               f"(write MAKE {tok})")
        word, *switches = tok.split("/")
        word = word.upper()
        if word not in _WORDS or word == "UNDO":
            what = "UNDO may not be guarded by IF or ELSE" if word == "UNDO" \
                else f"{tok!r} is not an advance command (CALL, MAKE, RAISE, POT, JAM, FOLD, CHECK)"
            raise AdvanceError("advance_unknown_command", what)
        sticky = False
        for sw in switches:
            if sw.upper() == "S":
                sticky = True
            elif self._outer_switch(sw) is None:
                raise AdvanceError("advance_bad_switch",
                                   f"{'/' + sw!r} is not a switch of {word} (/S, /H=N, /Q, /R)")
        if word in ("CALL", "MAKE", "BET", "RAISE"):
            arg = self.take()
            if arg is None:
                raise AdvanceError("advance_missing_amount",
                                   f"{word} needs an amount, like {word} $100"
                                   + (" or CALL *" if word == "CALL" else ""))
            if word == "CALL" and arg == "*":
                return Command("call_any", None, sticky), sticky
            m = _AMOUNT.fullmatch(arg)
            if m is None:
                raise AdvanceError("advance_bad_amount",
                                   f"{word} {arg!r}: the amount must be like $100")
            kind = {"CALL": "call_upto", "MAKE": "make", "BET": "make", "RAISE": "raise"}[word]
            return Command(kind, int(m.group(1)), sticky), sticky  # type: ignore[arg-type]
        kind = word.lower()
        return Command(kind, None, sticky), sticky  # type: ignore[arg-type]
