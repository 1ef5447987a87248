"""The players' commands for play over days: GONE, BACK, GONE RESIGN, PROTEST, UNDO, WHAT,
START (pure).

They come from the WRGPT dealer manual (seed ``000_…``), where "all commands must start on
column 1, and use only a single line". Here a command is a line of the comment's visible
text (quotes and markup stripped, :func:`nomicpoker.core.reading.markup.visible_text`) that starts
with the command word in capitals, as the manual writes them:

- ``GONE <until>``: on vacation; the until-string is a courtesy, not interpreted (its first
  six characters show in the status table). ``GONE RESIGN``: a vacation for good.
- ``BACK``: back from vacation (or from sitting out after timeouts).
- ``PROTEST <text>``: freezes the table until the Dealer resolves it; the text (the rest of
  that line and the lines after it) goes to the Dealer, not to the table.
- ``UNDO``: withdraws the author's protest.
- ``WHAT``: the author's state again (publicly what is public; privately their cards).
- ``START h``: the author's start of day, a whole hour 0-23, from the next hand.
- ``SEATLOG``: at a tournament's table, WRGPT's "detailed report about the starting seat
  assignment", sent to the author (docs/tournaments.md).
- ``RAIL`` / ``RAIL OFF``: at a tournament's table, the author joins the rail (every showdown
  of the other tables and the nightly standings) or leaves it.

WHY capitals and a line of its own: forum chat says "back soon" and "what?" all the time; a
command must be unmistakable. WHY a module apart from :mod:`nomicpoker.core.reading.grammar`: the
grammar reads betting actions "in substantially the form" the rule gives; these are the
table's own administrative words, read exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Literal, Union

from nomicpoker.core.reading import markup

CommandKind = Literal["gone", "resign", "back", "protest", "undo", "what", "start", "seatlog", "rail"]

_END = re.compile(r"^[\s.!]*$")


@dataclass(frozen=True)
class Command:
    """One command as written. ``arg``: the until-string (GONE), the protest text (PROTEST),
    the hour (START, as text); ``text``: the command line as written, for quoting."""

    kind: CommandKind
    arg: str = ""
    text: str = ""

    @property
    def canonical(self) -> str:
        word = {"resign": "GONE RESIGN"}.get(self.kind, self.kind.upper())
        if self.kind == "protest":
            return "PROTEST"
        return f"{word} {self.arg}".strip() if self.kind in ("gone", "start", "rail") else word


@dataclass(frozen=True)
class CommandError:
    """A command word with an argument it cannot take (``START 6:30``)."""

    code: str
    message: str
    text: str = ""


CommandResult = Union[Command, CommandError]


def read_commands(body: str, body_format: str = "markdown") -> tuple[CommandResult, ...]:
    """The commands in a comment, in order (empty: none). A PROTEST takes the rest of the
    comment as its text, so nothing after it is read as a command."""
    return commands_in(markup.visible_text(body, body_format))


def _gone(rest: str, shown: str, after: str) -> CommandResult:
    until = " ".join(rest.split())
    return Command("resign", "", shown) if until.upper() == "RESIGN" else Command("gone", until, shown)


def _protest(rest: str, shown: str, after: str) -> CommandResult:
    return Command("protest", "\n".join([rest.strip(), after]).strip(), shown)


def _start(rest: str, shown: str, after: str) -> CommandResult:
    hour = rest.strip().rstrip(".!")
    if not re.fullmatch(r"[0-9]{1,2}", hour) or int(hour) > 23:
        return CommandError("bad_start", f"START takes a whole hour from 0 to 23 (START 12), "
                            f"not {hour or 'nothing'!r}", shown)
    return Command("start", str(int(hour)), shown)


def _rail(rest: str, shown: str, after: str) -> CommandResult | None:
    """``RAIL`` (join) or ``RAIL OFF`` (leave); anything else after the word makes the line chat."""
    word = rest.strip().rstrip(".!").strip()
    if not word:
        return Command("rail", "", shown)
    return Command("rail", "OFF", shown) if word.upper() == "OFF" else None


def _alone(kind: CommandKind):
    """A command that takes nothing after it (BACK, UNDO, WHAT): anything else on its line
    (but spaces, dots and exclamation marks) makes the line chat."""
    return lambda rest, shown, after: Command(kind, "", shown) if _END.match(rest) else None


#: The commands' grammar, one row each: the word as the manual writes it (capitals, at the
#: start of a line), and how the rest of its line (and, for PROTEST, the lines after it,
#: ``after``) becomes the command, an error, or nothing (``None``: the line is chat). A new
#: command is one row here and one handler in the fold (``Days._<kind>``,
#: :mod:`nomicpoker.core.fold.over_days`).
ROWS: dict[str, Callable[[str, str, str], "CommandResult | None"]] = {
    "GONE": _gone, "BACK": _alone("back"), "PROTEST": _protest, "UNDO": _alone("undo"),
    "WHAT": _alone("what"), "START": _start, "SEATLOG": _alone("seatlog"), "RAIL": _rail,
}
#: a PROTEST takes the rest of the comment as its text: nothing after it is read as a command
#: the edition of the Dealer's reading (``TableSettings.edition``) a row is read from; a row not
#: named here is read in every edition. WHY: before edition 3 a line ``SEATLOG`` or ``RAIL`` was
#: chat, and a table keeps the edition its hands were played under, so its ledger replays as it
#: was played (core/fold/editions.py).
SINCE: dict[str, int] = {"SEATLOG": 3, "RAIL": 3}
_LAST = {"PROTEST"}
_LINE = re.compile(r"^[^\S\n]*(" + "|".join(ROWS) + r")(?![A-Za-z0-9_])(.*)$")


def commands_in(text: str, edition: int | None = None) -> tuple[CommandResult, ...]:
    """:func:`read_commands` of a comment's visible text, already read (the one reading of a
    revision, :mod:`nomicpoker.core.reading.comment_reading`, reads the text once); under
    ``edition`` only the rows read in that edition (:data:`SINCE`; None: every row)."""
    lines = text.splitlines()
    out: list[CommandResult] = []
    for i, line in enumerate(lines):
        m = _LINE.match(line)
        if not m:
            continue
        word, rest = m.group(1), m.group(2)
        if edition is not None and edition < SINCE.get(word, 0):
            continue  # not a command in this edition: the line is the comment's text
        after = "\n".join(ln.rstrip() for ln in lines[i + 1:]) if word in _LAST else ""
        found = ROWS[word](rest, line.strip(), after)
        if found is not None:
            out.append(found)
        if word in _LAST:
            break
    return tuple(out)


def hides_action(results: tuple[CommandResult, ...]) -> bool:
    """Whether the comment's betting action (if any) must not be read: a PROTEST's text is for
    the Dealer, and may well mention an action it is complaining about."""
    return any(isinstance(r, Command) and r.kind == "protest" for r in results)
