"""IRC messages on the wire (RFC 1459/2812 with IRCv3 message tags): parse a line, write one,
and cut a long text into lines that fit.

Why our own ~100 lines and no client library (evaluated again for issues 27 and 28, with
pydle 1.2.0 and jaraco's ``irc`` 20.5.0 read against what the bridge must guarantee): the
dealer needs eight commands (PASS, CAP, NICK, USER, JOIN, PRIVMSG, NOTICE, PONG) and must control
exactly when a line counts as received (it is written to the log before anything else happens)
and when an outgoing line counts as sent (progress recorded per line).

- pydle (asyncio, no dependencies, IRCv3 tags) dispatches each incoming message as an asyncio
  task it keeps no reference to, and logs and swallows an exception raised by a handler: a
  failed write to the log would drop a heard line silently, the one thing the bridge must never
  do. It answers "nick in use" (433) by registering as ``dealerbot_`` where the Dealer must
  stop and say ``login_failed``, and reconnects on its own schedule. Using it would mean
  overriding its dispatch, its registration errors and its reconnection: most of what it does.
- ``irc`` brings ten dependencies (jaraco.collections, .text, .logging, .functools, .stream,
  tempora, pytz, more-itertools, importlib-resources, and theirs); its asyncio reactor keeps no
  channel members or nick changes (that is its select-based bot class), and CAP negotiation,
  the error table and the pacing would still be ours.

The bridge's design (one I/O thread that owns the socket, reads and logs between paced sends:
:mod:`nomicpoker.adapters.irc.bridge`) needs a blocking line reader and writer, which these
~350 lines (this module and :mod:`~nomicpoker.adapters.irc.client`) are. The players in the
tests use a separate, hand-written client (tests/kits/servers/ircd.py), so our client is never checked
against itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: RFC 1459: a message is at most 512 bytes with its CR LF. The server prefixes what it relays
#: with ``:nick!user@host``, so a PRIVMSG's text must leave room for that (up to ~100 bytes on
#: real networks): 400 bytes of text is what bots commonly send.
MAX_TEXT_BYTES = 400


@dataclass(frozen=True)
class Message:
    """One parsed line. ``source`` is the prefix without ``:`` (``nick!user@host`` or a server
    name), ``params`` includes the trailing parameter, ``tags`` the IRCv3 tags (unescaped)."""

    command: str
    params: tuple[str, ...] = ()
    source: str = ""
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def nick(self) -> str:
        """The sender's nick (the part of the prefix before ``!``)."""
        return self.source.split("!", 1)[0]

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None


_TAG_UNESCAPE = {":": ";", "s": " ", "\\": "\\", "r": "\r", "n": "\n"}


def _unescape_tag(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            out.append(_TAG_UNESCAPE.get(value[i + 1], value[i + 1]))
            i += 2
            continue
        if ch != "\\":
            out.append(ch)
        i += 1
    return "".join(out)


def parse(line: str) -> Message:
    """Parse one line (without CR LF). A malformed line gives a message with an empty command
    (ignored by the caller) rather than an exception: the server's lines are not ours to
    refuse."""
    rest = line.rstrip("\r\n")
    tags: list[tuple[str, str]] = []
    if rest.startswith("@"):
        raw, _, rest = rest.partition(" ")
        for item in raw[1:].split(";"):
            if item:
                key, _, value = item.partition("=")
                tags.append((key, _unescape_tag(value)))
        rest = rest.lstrip(" ")
    source = ""
    if rest.startswith(":"):
        source, _, rest = rest[1:].partition(" ")
        rest = rest.lstrip(" ")
    params: list[str] = []
    while rest:
        if rest.startswith(":"):
            params.append(rest[1:])
            break
        word, _, rest = rest.partition(" ")
        params.append(word)
        rest = rest.lstrip(" ")
    if not params:
        return Message("", (), source, tuple(tags))
    return Message(params[0].upper(), tuple(params[1:]), source, tuple(tags))


_FORMATTING = re.compile(r"\x03(?:[0-9]{1,2}(?:,[0-9]{1,2})?)?|\x04(?:[0-9A-Fa-f]{6}(?:,[0-9A-Fa-f]{6})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")


def strip_formatting(text: str) -> str:
    """``text`` without mIRC formatting codes (bold, colours, italics, reset...): a player who
    types a coloured ``call`` means ``call``."""
    return _FORMATTING.sub("", text)


def clean(text: str) -> str:
    """Text safe inside one IRC parameter: no CR, LF or NUL (a line break in a value would
    start a new command on the wire: an injection)."""
    return text.replace("\r", " ").replace("\n", " ").replace("\0", " ")


def command(cmd: str, *params: str) -> str:
    """A line to send: the last parameter is written as trailing (``:text``)."""
    if not params:
        return cmd
    *middle, last = [clean(p) for p in params]
    for p in middle:
        if not p or " " in p or p.startswith(":"):
            raise ValueError(f"IRC middle parameter {p!r} must be one word")
    return " ".join([cmd, *middle, ":" + last])


def split_text(text: str, limit: int = MAX_TEXT_BYTES) -> list[str]:
    """The lines of ``text`` as IRC can carry them: one message per line, empty lines dropped
    (IRC sends no empty message), a line longer than ``limit`` UTF-8 bytes cut at the last
    space before the limit (or inside a word that is itself too long, never inside a
    character)."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = line.replace("\0", " ").rstrip()
        while line:
            data = line.encode("utf-8")
            if len(data) <= limit:
                out.append(line)
                break
            cut = data[:limit].decode("utf-8", "ignore")
            space = cut.rfind(" ")
            if space > 0:
                cut = cut[:space]
            out.append(cut.rstrip())
            line = line[len(cut):].lstrip()
    return out
