"""Reading a player's e-mail to the Dealer the way the WRGPT dealer does (pure).

The WRGPT manual (seed ``000_…``) fixes the shape of a message to the dealer:

- the player is named by an ID token in the subject, ``ID=xxxxxx`` ("No spaces are allowed
  between the = sign and the ID"), never by the ``From:`` address;
- "All commands must start on column 1, and use only a single line. Only one command per
  message (except for SIG command.)" and "Syntax for bets and commands to the dealer are
  case in-sensitive": a bet is ``$x`` alone on its line, the advance commands are one line;
- table talk starts with ``TALK`` (on a line by itself, in column 1) and ends with ``SIG``
  or with any line that begins with two hyphens; what follows ``SIG`` is never read; talk
  lines are "truncated to 80 characters" and at most 31 are kept;
- the dealer "tries to suppress 'quoted' messages which often occur when people include the
  entire message they're replying to": lines starting with ``>`` and the ``On ... wrote:``
  line (possibly wrapped) that introduces them are skipped, and an Outlook-style
  ``-----Original Message-----`` ends the reading, as a ``-- `` signature separator does.

:func:`read_mail` returns the one command line and the talk; the adapter archives them as the
comment's text (the command first, the talk below it as a quotation, so no reader of the
archive ever takes a talk line for an action). Why here and not in the adapter: it is the
rule of how a message is read, the same for every mail server, and pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: the ID token: six lowercase letters or digits, as the manual assigns them
ID_TOKEN = re.compile(r"(?<![A-Za-z0-9])ID=([A-Za-z0-9]{6})(?![A-Za-z0-9])", re.IGNORECASE)
TALK_WIDTH = 80
TALK_LINES = 31

_WROTE_START = re.compile(r"^On\s.*", re.IGNORECASE)
_WROTE_END = re.compile(r"wrote:\s*$", re.IGNORECASE)
_ORIGINAL = re.compile(r"^-{2,}\s*(Original Message|Forwarded message)\s*-{2,}\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class MailReading:
    """One message as the Dealer reads it: ``command`` (the first line in column 1, ``""``
    if none), ``talk`` (the table talk lines), ``extra`` (further command-like lines, which
    the manual's "one command per message" ignores; kept so the Dealer can say so)."""

    command: str
    talk: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    def body(self) -> str:
        """The text archived for this message: the command, then the talk quoted."""
        parts = [self.command] if self.command else []
        if self.talk:
            parts.append("\n".join("> " + line if line else ">" for line in self.talk))
        return "\n\n".join(parts) + ("\n" if parts else "")


def ids_in(subject: str) -> tuple[str, ...]:
    """The distinct ID tokens in a subject, lowercased, in order."""
    out: list[str] = []
    for m in ID_TOKEN.finditer(subject or ""):
        token = m.group(1).lower()
        if token not in out:
            out.append(token)
    return tuple(out)


def _wrote_block(lines: list[str], i: int) -> int:
    """If an ``On ... wrote:`` attribution starts at line ``i`` (on one line, or wrapped
    over two as mail programs do), the number of lines it takes; else 0."""
    if not _WROTE_START.match(lines[i]):
        return 0
    if _WROTE_END.search(lines[i]):
        return 1
    if i + 1 < len(lines) and _WROTE_END.search(lines[i + 1]) and not lines[i + 1].startswith(">"):
        return 2
    return 0


def _word(line: str) -> str:
    return line.split(None, 1)[0].upper() if line.strip() else ""


def read_mail(text: str) -> MailReading:
    """Read a plain-text message body (see the module docstring)."""
    lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    command = ""
    talk: list[str] = []
    extra: list[str] = []
    in_talk = False
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        skip = _wrote_block(lines, i) if not in_talk else 0
        if skip:
            i += skip
            continue
        i += 1
        if line.startswith(">"):
            continue  # quoted reply text
        if _ORIGINAL.match(line.strip()) or line == "--" or lines[i - 1] == "-- ":
            break  # the quoted original or the signature: nothing below is read
        if line.startswith("--"):
            if in_talk:
                in_talk = False  # "Any line that begins with two hyphens also ends table talk"
                continue
            break
        word = _word(line)
        if word == "SIG" and not line[:1].isspace():
            break  # "SIG This line will not show up! Neither will this one."
        if word == "TALK" and not line[:1].isspace():
            in_talk = True
            rest = line.strip()[4:].strip()
            if rest:
                talk.append(rest[:TALK_WIDTH])
            continue
        if in_talk:
            talk.append(line[:TALK_WIDTH])
            continue
        if not line.strip() or line[:1].isspace():
            continue  # commands start in column 1
        if not command:
            command = line.strip()
        else:
            extra.append(line.strip())
    while talk and not talk[-1].strip():
        talk.pop()
    while talk and not talk[0].strip():
        talk.pop(0)
    return MailReading(command, tuple(talk[:TALK_LINES]), tuple(extra))
