"""The IRC forum: a table plays in an IRC channel, as pokprot (seed ``003_…``) plays poker.

The Forum port over IRC, through the IRC log (:mod:`nomicpoker.adapters.irc.log`): a hand's
"thread" is the stretch of the table's channel from its story post on (``#poker/7``); its
"comments" are the lines said there, one line one comment, each with the stable id the log gave
it when the bridge received it; the Dealer's comments are spooled to the log and transmitted by
the bridge (``nomicpoker serve``, :mod:`nomicpoker.adapters.irc.bridge`), the hole cards as
private NOTICEs to the player's nick. This adapter itself never opens a connection: the poll
cycle, ``hand start`` and ``audit`` work on the log only, from any process, and a poll run
while the bridge is down queues its messages until it is back.

Poll model (docs/irc.md): IRC keeps no history, so something must be connected to hear a line.
``nomicpoker serve`` is that: it archives every line to the log at once, then runs the poll
cycle for that table, so a player's action is answered within a second; it also polls every
table on a timer for deadlines. What is said while the bridge is down is lost to it (IRC does
not replay), so run it under a supervisor, or behind a bouncer that replays (the log dedupes by
the server's IRCv3 ``msgid`` when there is one).

Config keys (docs/irc.md): ``server`` (required), ``port`` (default 6697 with TLS, else 6667),
``tls`` (default true), ``tls_verify`` (default true), ``channel`` (required: the table's
channel), ``listing`` (the channel where games are announced in pokprot's ``newgame`` format),
``nick`` (the Dealer's nick, default ``dealerbot``), ``nickserv`` (the services nick to
identify to, default ``NickServ``), ``credentials_file`` (owner-only TOML with
``server_password`` and/or ``nickserv_password``; default the environment variables
``NOMICPOKER_IRC_SERVER_PASSWORD`` / ``NOMICPOKER_IRC_NICKSERV_PASSWORD``), ``log`` (the log
file, default ``<state>/irc-log.db``), ``line_interval`` (seconds between lines after a burst,
default 1), ``burst`` (lines sent at once before pacing, default 4).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping

from nomicpoker.adapters.irc.log import IrcLog, parse_thread_ref
from nomicpoker.adapters.irc.wire import split_text
from nomicpoker.ports import Abilities, ForumError, PrivateMessage, RemoteComment, tag_key

#: seconds after which ``forum check`` calls the bridge's last heartbeat stale (it beats every 30)
STALE_AFTER = 120

CONFIG_KEYS = frozenset({"server", "port", "tls", "tls_verify", "channel", "listing", "nick",
                         "nickserv", "credentials_file", "log", "line_interval", "burst"})
#: RFC 2812 channel names: a prefix, then anything but space, comma, BEL and colon.
_CHANNEL = re.compile(r"^[#&][^\s,\x07:]{1,49}$")
#: RFC 2812 nicks, with the length real networks allow.
_NICK = re.compile(r"^[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,29}$")
#: :data:`_NICK` in words, for a refusal
NICK_RULE = ("a letter or one of [ ] \\ ` _ ^ { | } first, then letters, digits, - and those, at "
             "most 30 characters in all (RFC 2812; no spaces, dots, commas or accents)")
_CASEMAP = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")


def nick_key(nick: str) -> str:
    """A nick as an IRC server compares it (RFC 1459 case mapping, the default of ngIRCd,
    InspIRCd and most networks): letters without case, and ``[]\\~`` the same as ``{}|^``."""
    return nick.translate(_CASEMAP)

#: a table tag opening a private line: ``(alpha)`` or ``[alpha]`` (the forms a subject names a
#: table with, shell/cycle/private_inbox.names_table), then the message
_TAG = re.compile(r"^\s*(\([^()\s]+\)|\[[^\[\]\s]+\])\s*(\S.*)$", re.DOTALL)


def split_table_tag(line: str) -> tuple[str, str]:
    """``(alpha) CALL *`` -> ``("(alpha)", "CALL *")``: the tag as the message's subject and
    the rest as its body; a line without a tag (or with nothing after it) is all body."""
    m = _TAG.match(line)
    return (m.group(1), m.group(2)) if m else ("", line)


#: IRC as the Dealer meets it: plain text, one line per message; private NOTICEs the Dealer
#: can read back from its own spool; story posts it opens itself (a line in the channel that
#: starts the hand's thread) and finds again by tag; no edits, no moderation, no dice roller;
#: a nick is highlighted by writing it first (``alice: your turn``); players may /msg the
#: Dealer (private advance actions); a live chat, heard only while ``nomicpoker serve`` runs.
IRC_ABILITIES = Abilities(dice="bot", private_send=True, private_read=True, markup="irc",
                          edits_visible=False, moderation=False, min_post_interval=0.0,
                          max_comment_length=None, display_names=False, create_thread=True,
                          find_thread=True, login=True, mention="{name}:", private_inbox=True,
                          live=True)


def irc_config_keys() -> set[str]:
    return set(CONFIG_KEYS)


@dataclass(frozen=True)
class IrcSettings:
    """A table's IRC config, checked."""

    server: str
    port: int
    tls: bool
    tls_verify: bool
    channel: str
    listing: str | None
    nick: str
    nickserv: str
    credentials_file: str | None
    log: Path
    line_interval: float
    burst: int

    @property
    def network(self) -> str:
        return f"{self.server}:{self.port}"


@dataclass(frozen=True)
class IrcCredentials:
    server_password: str | None
    nickserv_password: str | None


def _bad(key: str, what: str) -> ForumError:
    return ForumError("config", f"irc forum config key {key!r} must be {what}")


def settings_from(config: Mapping[str, object], state: Path) -> IrcSettings:
    """Check every key (``ForumError('config')`` names the bad one); nothing is opened."""
    unknown = sorted(set(config) - CONFIG_KEYS)
    if unknown:
        raise ForumError("config", f"unknown irc forum config key {unknown[0]!r} "
                         f"(known: {', '.join(sorted(CONFIG_KEYS))})")

    def text(key: str, default: str | None = None) -> str | None:
        value = config.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise _bad(key, "a non-empty string")
        return value.strip()

    def flag(key: str, default: bool) -> bool:
        value = config.get(key, default)
        if not isinstance(value, bool):
            raise _bad(key, "true or false")
        return value

    def number(key: str, default: float, low: float, high: float) -> float:
        value = config.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise _bad(key, f"a number from {low:g} to {high:g}")
        return float(value)

    server = text("server")
    if server is None:
        raise ForumError("config", "irc forum config needs 'server' (the IRC server's host name)")
    channel = text("channel")
    if channel is None or not _CHANNEL.match(channel):
        raise _bad("channel", "the table's channel, e.g. \"#poker\" (no spaces or commas)")
    listing = text("listing")
    if listing is not None and (not _CHANNEL.match(listing) or listing.lower() == channel.lower()):
        raise _bad("listing", "a channel other than the table's, e.g. \"#gamelist\"")
    nick = text("nick", "dealerbot") or "dealerbot"
    if not _NICK.match(nick):
        raise _bad("nick", "an IRC nick (a letter first; letters, digits, -_[]\\`^{|}; at most 30)")
    nickserv = text("nickserv", "NickServ") or "NickServ"
    if not _NICK.match(nickserv):
        raise _bad("nickserv", "the services' nick, e.g. NickServ")
    tls = flag("tls", True)
    port = number("port", 6697 if tls else 6667, 1, 65535)
    if port != int(port):
        raise _bad("port", "a whole number")
    log = text("log")
    return IrcSettings(
        server=server, port=int(port), tls=tls, tls_verify=flag("tls_verify", True),
        channel=channel, listing=listing, nick=nick, nickserv=nickserv,
        credentials_file=text("credentials_file"),
        log=Path(log).expanduser() if log else state / "irc-log.db",
        line_interval=number("line_interval", 1.0, 0, 60), burst=int(number("burst", 4, 1, 100)))


def load_credentials(path: str | None, environ: Mapping[str, str] | None = None) -> IrcCredentials:
    """The passwords, from an owner-only TOML file or the environment; never from the table's
    config (which the ledger and audits show)."""
    env = os.environ if environ is None else environ
    if path is None:
        return IrcCredentials(env.get("NOMICPOKER_IRC_SERVER_PASSWORD") or None,
                              env.get("NOMICPOKER_IRC_NICKSERV_PASSWORD") or None)
    file = Path(path).expanduser()
    try:
        mode = file.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ForumError("config", f"credentials file {file} is readable by group or others "
                             f"(mode {stat.S_IMODE(mode):o}); run: chmod 600 {file}")
        data = tomllib.loads(file.read_text("utf-8"))
    except OSError as exc:
        raise ForumError("config", f"credentials file {file}: {exc.strerror}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ForumError("config", f"credentials file {file} is not readable TOML") from exc
    extra = sorted(set(data) - {"server_password", "nickserv_password"})
    if extra or any(not isinstance(v, str) for v in data.values()):
        raise ForumError("config", f"credentials file {file} holds only the strings "
                         "server_password and nickserv_password")
    return IrcCredentials(data.get("server_password") or None, data.get("nickserv_password") or None)


def _utc(moment: str) -> datetime:
    return datetime.fromisoformat(moment).astimezone(timezone.utc)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class IrcForum:
    """The Forum protocol on the IRC log of one table's channel."""

    name = "irc"
    abilities = IRC_ABILITIES

    def __init__(self, settings: IrcSettings, clock=_now):
        self.settings = settings
        self.log = IrcLog(settings.log, settings.network)
        self._clock = clock

    @classmethod
    def from_config(cls, config: Mapping[str, object], state: Path) -> "IrcForum":
        settings = settings_from(config, state)
        if settings.credentials_file:
            load_credentials(settings.credentials_file)  # refuse a readable file now
        return cls(settings)

    @property
    def dealer(self) -> str:
        return self.settings.nick

    def _thread_id(self, thread: str) -> int:
        channel, _ = parse_thread_ref(thread)
        if channel.lower() != self.settings.channel.lower():
            raise ForumError("not_found", f"thread {thread!r} is not in this table's channel "
                             f"{self.settings.channel}")
        return self.log.thread(thread).id

    def list_comments(self, thread: str) -> list[RemoteComment]:
        """The thread's lines, oldest first: players' lines as the bridge received them (an
        ``@`` command in the grammar's words), the Dealer's as spooled."""
        tid = self._thread_id(thread)
        return [RemoteComment(id=str(line.id), author=line.author, created=_utc(line.created),
                              body=line.body, body_format="text",
                              permalink=f"line at {_utc(line.created).strftime('%H:%M UTC')}")
                for line in self.log.thread_lines(tid)]

    def post_comment(self, thread: str, body: str, reply_to: str | None = None, *,
                     tag: str | None = None) -> str:
        """Spool ``body`` for the channel (the bridge sends it, one message per line)."""
        tid = self._thread_id(thread)
        if not split_text(body):
            raise ForumError("comment_refused", "an empty message is not sent")
        return str(self.log.record_out(self.settings.channel, "channel", self.dealer, body,
                                       self._clock(), thread_id=tid))

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        if not tag or not tag_key(tag):
            raise ForumError("config", "find_comment_with needs a non-empty tag")
        found = self.log.find_out(tag, self._thread_id(thread))
        return None if found is None else str(found)

    def create_thread(self, title: str, body: str) -> str:
        """Open the hand's thread in the channel: its story post is spooled as a title line
        and the body, and the channel's lines from now on belong to it."""
        story = f"*** {title} ***\n{body}"
        made = self.log.open_thread(self.settings.channel, title, body, self.dealer,
                                    self._clock(), story)
        return made.ref

    def find_thread_with(self, tag: str) -> str | None:
        from nomicpoker.ports import carries_tag

        for t in self.log.threads(self.settings.channel):
            if t.author == self.dealer and carries_tag(t.body, tag):
                return t.ref
        return None

    def send_private(self, user: str, subject: str, body: str) -> str:
        """Spool a private message to ``user``'s nick (sent as NOTICEs when they are online)."""
        user = user.strip()
        if not _NICK.match(user):
            raise ForumError("comment_refused", f"{user!r} is not an IRC nick: a private message "
                             "goes to a player's nick", permanent=True)
        # the NOTICE says which table (its channel) and the message; the subject is kept for
        # the read-back only (a NOTICE has none, and the body already says what it is)
        shown = f"[{self.settings.channel}] {body.lstrip()}"
        return f"p{self.log.record_out(user, 'private', self.dealer, body, self._clock(), subject=subject, text=shown)}"

    def sent_private(self, user: str) -> list[PrivateMessage]:
        return [PrivateMessage(id=f"p{m.id}", sender=m.author, recipient=m.target,
                               subject=m.subject, body=m.body, created=_utc(m.created))
                for m in self.log.private_out(user)]

    def received_private(self) -> list[PrivateMessage]:
        """What players said to the Dealer by /msg while the bridge was listening, oldest
        first. An IRC line has no subject: a table tag at its start, ``(alpha) CALL *`` or
        ``[alpha] CALL *``, is taken as the subject (:func:`split_table_tag`), which the shell
        routes as it routes a subject on the other forums; a line without one goes to the
        sender's only table (at several, the shell answers which tables and how to tag)."""
        out = []
        for m in self.log.private_in():
            subject, body = split_table_tag(m.body)
            out.append(PrivateMessage(id=f"q{m.id}", sender=m.author, recipient=self.dealer, subject=subject,
                                      body=body, created=_utc(m.created)))
        return out

    def mark_read(self, ids) -> int:
        """Nothing to mark: the log keeps every line (``abilities.mark_read`` is false)."""
        return 0

    def enrol(self, table: str, players) -> list[str]:
        """Players are known by their nicks (``abilities.player_ids`` is false), so every seat
        must be one: a seat no IRC server would let anyone take could never act. Refused with
        ``ForumError('bad_players')`` naming the first such seat: not a nick (:data:`_NICK`,
        RFC 2812's grammar with the 30 characters modern servers allow), or the same nick as
        another seat or the Dealer's under RFC 1459 case mapping (``[bob]`` is ``{bob}``)."""
        seen = {nick_key(self.dealer): f"the Dealer's nick {self.dealer!r}"}
        for p in players:
            if not _NICK.fullmatch(p):  # fullmatch: "$" alone lets a final newline through
                raise ForumError("bad_players", f"player {p!r} is not an IRC nick: {NICK_RULE}")
            key = nick_key(p)
            if key in seen:
                raise ForumError("bad_players", f"player {p!r} is the same IRC nick as {seen[key]} "
                                 "(IRC compares nicks without case, and [ ] \\ ~ as { } | ^)")
            seen[key] = f"player {p!r}"
        return []

    def _bridge_row(self) -> tuple[str, bool, str]:
        """Whether ``serve`` is alive: it writes a heartbeat every 30 seconds while connected.
        Never run is not a failure (a new table: start it next); a heartbeat older than
        :data:`STALE_AFTER` seconds is (nothing hears the channel)."""
        beat = self.log.last_heartbeat()
        what = "bridge (nomicpoker serve)"
        if beat is None:
            return (what, True, "not run for this network yet: start nomicpoker serve (docs/irc.md)")
        age = (datetime.fromisoformat(self._clock()) - datetime.fromisoformat(beat[1])).total_seconds()
        if age > STALE_AFTER:
            return (what, False, f"last seen {beat[1]} as {beat[0]}, {int(age)} s ago: nomicpoker "
                    "serve is not running, so nobody hears the channel (lines said now are lost)")
        return (what, True, f"connected as {beat[0]} (last seen {int(age)} s ago)")

    def check(self) -> list[tuple[str, bool, str]]:
        """The log opens; the bridge's last sign of life; the server answers on its port. No
        registration: that would take the Dealer's nick from a running bridge."""
        import socket

        rows: list[tuple[str, bool, str]] = [
            ("IRC log", True, f"{self.log.path} ({len(self.log.threads(self.settings.channel))} "
                              f"threads in {self.settings.channel})")]
        rows.append(self._bridge_row())
        try:
            socket.create_connection((self.settings.server, self.settings.port), timeout=10).close()
            rows.append(("IRC server", True, f"{self.settings.network} accepts connections"
                         f"{' (TLS)' if self.settings.tls else ''}"))
        except OSError as exc:
            rows.append(("IRC server", False, f"{self.settings.network}: {exc}"))
        return rows
