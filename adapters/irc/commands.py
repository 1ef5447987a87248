"""The dealer bot's ``@`` commands, read in GNU style as pokprot describes (seed ``003_…``):
"All channel interaction with bots is done as though we were interacting with shell programs
taking GNU-style options", ``@somecommand requiredA requiredB -s 10 --optional abc``.

A line that starts with ``@`` and a letter is a command:

- **actions**, which the fold adjudicates like any comment: ``@fold``, ``@check``, ``@call``,
  ``@allin``, ``@raise AMOUNT`` (or ``--amount N``), ``@reveal CARD CARD``; each takes
  ``--hand N``/``-H N`` and ``--round N``/``-r N`` to name the hand and the round as the
  grammar's ``HANDx ROUNDy`` does. The line is read into the grammar's own words
  (``@raise 20 --hand 3 --round 2`` is ``HAND3 ROUND2 raise 20``); the IRC log keeps both.
  ``@cards`` (or ``@what``) asks for one's state again (the table command ``WHAT``: the hole
  cards come privately).
- **questions** the bot answers at once without the fold: ``@help [COMMAND]``, ``@status``
  (the Dealer's latest word in this channel again), ``@games`` (the running games, in
  pokprot's ``newgame`` listing format, privately: pokprot sends that list by XDCC, which the
  bot does not serve).

Anything else starting with ``@`` (an unknown command, a missing amount, a bad option) is
answered with one line saying what is wrong and ``try @help``; the line itself stays chat for
the fold. Lines without ``@`` are read by the grammar as they are (``call``, ``raise 20``,
``HAND1 ROUND1 raise 20``).

Pure: text in, values out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

_COMMAND = re.compile(r"^@([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?$", re.S)
_NUMBER = re.compile(r"^[0-9]{1,12}$")


@dataclass(frozen=True)
class AtAction:
    """An action command, in the grammar's words (``body``)."""

    body: str


@dataclass(frozen=True)
class AtQuery:
    """A question the bot answers itself: ``help``, ``status`` or ``games``."""

    name: str
    arg: str = ""


@dataclass(frozen=True)
class AtError:
    """An ``@`` line the bot cannot read; ``message`` is its one-line answer."""

    message: str


AtResult = Union[AtAction, AtQuery, AtError]

#: command -> (positional arguments it takes: (min, max), its usage line)
ACTIONS: dict[str, tuple[tuple[int, int], str]] = {
    "fold": ((0, 0), "@fold [--hand N] [--round N]"),
    "check": ((0, 0), "@check [--hand N] [--round N]"),
    "call": ((0, 0), "@call [--hand N] [--round N]"),
    "allin": ((0, 0), "@allin [--hand N] [--round N]   (all in)"),
    "raise": ((0, 1), "@raise AMOUNT [--hand N] [--round N]   (or --amount AMOUNT)"),
    "reveal": ((2, 7), "@reveal CARD CARD [--hand N]   (e.g. @reveal Jh Kh)"),
    "cards": ((0, 0), "@cards   (your state again; your hole cards come privately)"),
}
ALIASES = {"all-in": "allin", "what": "cards"}
QUERIES: dict[str, str] = {
    "help": "@help [COMMAND]   (this list, or one command's usage)",
    "status": "@status   (the Dealer's latest message in this channel again)",
    "games": "@games   (the running games in pokprot's newgame format, privately)",
}
_OPTIONS = {"--hand": "hand", "-H": "hand", "--round": "round", "-r": "round",
            "--amount": "amount", "-a": "amount"}


def usage(name: str) -> str | None:
    name = ALIASES.get(name.lower(), name.lower())
    if name in ACTIONS:
        return ACTIONS[name][1]
    return QUERIES.get(name)


def help_lines() -> list[str]:
    """What ``@help`` answers: every command's usage, and that plain words work too."""
    return (["Dealer commands (GNU style, pokprot): " + ", ".join(
        "@" + n for n in (*ACTIONS, *QUERIES))]
            + [usage(n) or "" for n in (*ACTIONS, *QUERIES)]
            + ["Plain lines work too: call, check, fold, raise 20, all in, reveal Jh Kh."])


def read_command(line: str) -> AtResult | None:
    """Read one channel line; ``None`` when it is not an ``@`` command."""
    m = _COMMAND.match(line.strip())
    if m is None:
        return None
    name = m.group(1).lower()
    name = ALIASES.get(name, name)
    words = (m.group(2) or "").split()
    if name in QUERIES:
        if name == "help":
            return AtQuery("help", words[0].lstrip("@") if words else "")
        if words:
            return AtError(f"@{name} takes no arguments; try @help {name}")
        return AtQuery(name)
    if name not in ACTIONS:
        return AtError(f"unknown command @{m.group(1)}; try @help")
    if "--help" in words:
        return AtQuery("help", name)
    return _action(name, words)


def _action(name: str, words: list[str]) -> AtResult:
    (least, most), use = ACTIONS[name]
    options: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    only_positional = False
    while i < len(words):
        word = words[i]
        if only_positional or not word.startswith("-") or word == "-":
            positional.append(word)
            i += 1
            continue
        if word == "--":
            only_positional = True
            i += 1
            continue
        key, eq, value = word.partition("=")
        if key not in _OPTIONS or (key.startswith("--") is False and eq):
            return AtError(f"@{name}: unknown option {key}; usage: {use}")
        if not eq:
            if i + 1 >= len(words):
                return AtError(f"@{name}: option {key} needs a value; usage: {use}")
            value = words[i + 1]
            i += 1
        i += 1
        what = _OPTIONS[key]
        if what == "amount" and name != "raise":
            return AtError(f"@{name} takes no amount; usage: {use}")
        if what == "round" and name in ("reveal", "cards"):
            return AtError(f"@{name} takes no round; usage: {use}")
        if what == "hand" and name == "cards":
            return AtError(f"@{name} takes no hand; usage: {use}")
        if not _NUMBER.match(value):
            return AtError(f"@{name}: {key} needs a whole number, not {value!r}; usage: {use}")
        if what in options:
            return AtError(f"@{name}: {key} given twice; usage: {use}")
        options[what] = value
    if name == "raise":
        if "amount" in options and positional:
            return AtError(f"@raise: give the amount once; usage: {use}")
        if positional:
            options["amount"] = positional.pop(0)
        if "amount" not in options:
            return AtError(f"@raise: missing AMOUNT; usage: {use}")
        if not _NUMBER.match(options["amount"]):
            return AtError(f"@raise: AMOUNT must be a whole number, not {options['amount']!r}; usage: {use}")
    if not least <= len(positional) <= most:
        if len(positional) > most:
            return AtError(f"@{name}: unexpected {' '.join(positional[most:])!r}; usage: {use}")
        return AtError(f"@{name}: missing arguments; usage: {use}")
    if name == "cards":
        return AtAction("WHAT")
    prefix = []
    if "hand" in options:
        prefix.append(f"HAND{int(options['hand'])}")
    if "round" in options:
        if "hand" not in options:
            return AtError(f"@{name}: --round needs --hand too (HANDx ROUNDy); usage: {use}")
        prefix.append(f"ROUND{int(options['round'])}")
    word = {"allin": "all in"}.get(name, name)
    if name == "raise":
        word = f"raise {int(options['amount'])}"
    if name == "reveal":
        word = "reveal " + " ".join(positional)
    return AtAction(" ".join([*prefix, word]))
