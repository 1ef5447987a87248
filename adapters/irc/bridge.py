"""The IRC bridge: the dealer bot's live connection, run by ``nomicpoker serve``.

It does three things, in this order of importance:

1. **Logs every line** said in a table's channel (and to the Dealer by /msg) to the IRC log
   *before* anything else happens to it, so the poll cycle reads it as a comment with a
   stable id. A line the log has is never lost; a line said while no bridge is connected is
   never heard (IRC keeps no history: docs/irc.md says how a bouncer helps).
2. **Transmits the spool**: the Dealer's comments as PRIVMSGs to the channel, hole cards and
   decks as NOTICEs to the player's nick (RFC 2812: automatic replies are NOTICEs, which
   clients never answer automatically), story posts, one message per line, paced by
   ``burst``/``line_interval`` to stay under the network's flood limits. One I/O thread owns
   the connection (:meth:`IrcBridge._run`): between two paced lines it reads and logs what
   arrived, so reading never waits for a long message to go out (a TLS socket is never read
   and written from two threads); ``serve``'s thread only learns which tables have new lines
   (:meth:`IrcBridge.step`) and polls them. Progress is recorded
   per line, so after a crash only the line in flight may be sent twice (at least once,
   never silently dropped). A private message waits until its nick is in one of the bot's
   channels: a NOTICE to a nick that is not online would be lost.
3. **Answers ``@`` questions** at once (:mod:`nomicpoker.adapters.irc.commands`): ``@help``
   and ``@games`` privately, ``@status`` and mistakes in the channel; and announces the games
   in the listing channel in pokprot's ``newgame`` format.

Everything the fold decides comes from the poll cycle, never from here.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from datetime import datetime, timezone
from typing import Callable, Sequence

from nomicpoker.adapters.irc.forum import IrcCredentials, IrcSettings
from nomicpoker.adapters.irc.client import IrcConnection
from nomicpoker.adapters.irc.commands import AtAction, AtError, AtQuery, help_lines, read_command, usage
from nomicpoker.adapters.irc.log import IrcLog, LogLine
from nomicpoker.adapters.irc.wire import Message, command, split_text, strip_formatting
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.ports import ForumError, GameListing

#: answered usage mistakes in a row before the bot stops answering them: the tables' flood
#: threshold for invalid comments (``TableSettings.flood_threshold``)
FLOOD_THRESHOLD = TableSettings().flood_threshold
#: seconds the I/O thread waits for a line before it looks at the spool again
SPOOL_CHECK = 0.2
#: seconds between two heartbeats in the log (``forum check`` shows the last one)
HEARTBEAT_EVERY = 30.0


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def on_the_wire(text: str) -> list[str]:
    """The IRC lines for a spooled message (already in IRC's plain text: the outbox writes it
    in the ``irc`` dialect, :func:`nomicpoker.core.words.dialects.to_plain_text`): one message per
    line, long lines cut to fit (:func:`~nomicpoker.adapters.irc.wire.split_text`)."""
    return split_text(text)


def listing_line(listing: GameListing, channel: str) -> str:
    """One game in pokprot's listing format (seed 003): ``#chan UNIX-timestamp "user-defined
    string" nlcash num-seats SB BB ante minBB maxBB``. Every table here is a no-limit game
    played for the table's Money (``nlcash``); the buy-in is the fixed starting Money, so
    ``minBB`` = ``maxBB`` = Money / BB (0 where the ruleset has no blinds)."""
    described = f"{listing.table}: {listing.ruleset}, {listing.money} chips".replace('"', "'")
    bb = listing.big_blind
    buy_in = listing.money // bb if bb else 0
    return (f'{channel} {int(listing.started.timestamp())} "{described}" nlcash {listing.seats} '
            f"{listing.small_blind} {bb} {listing.ante} {buy_in} {buy_in}")


class IrcBridge:
    """One connection (one network, one nick) serving the tables in ``tables``."""

    def __init__(self, tables: Sequence[tuple[str, IrcSettings]], credentials: IrcCredentials,
                 clock: Callable[[], str] = _now, monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        if not tables:
            raise ForumError("config", "a bridge needs at least one table")
        first = tables[0][1]
        for name, s in tables:
            if (s.network, s.nick.lower(), s.log) != (first.network, first.nick.lower(), first.log):
                raise ForumError("config", f"table {name} is on another network or nick: it "
                                 "needs its own bridge")
        self.settings = first
        self.tables = tuple(name for name, _ in tables)
        self.channels = {s.channel.lower(): (name, s) for name, s in tables}
        self.listings = {s.listing.lower(): s.listing for _, s in tables if s.listing}
        self.credentials = credentials
        self.log = IrcLog(first.log, first.network)
        self.conn: IrcConnection | None = None
        self.present: dict[str, set[str]] = {}
        self.announced: dict[str, str] = {}
        self.games: list[str] = []
        self._clock, self._mono, self._sleep = clock, monotonic, sleep
        #: a seated player who changed nick: the current nick (lowercase) -> (the nick the
        #: bridge first knew, the current nick as written). NICK comes from the server, so the
        #: new nick is the same connection: its lines act for the seat, its NOTICEs go to it.
        self.renamed: dict[str, tuple[str, str]] = {}
        #: answered usage mistakes (an ``@`` line the bot cannot read) per author since their
        #: last readable ``@`` action: past the table's flood threshold they are not answered
        self.mistakes: dict[str, int] = {}
        self._tokens = float(first.burst)
        self._refilled = monotonic()
        self._beat = 0.0
        #: lines to send before the spool's: answers to @ questions, announcements (appended
        #: from any thread, sent by the I/O thread)
        self._direct: deque[str] = deque()
        self._touched: queue.Queue[set[str]] = queue.Queue()
        self._stopping = threading.Event()
        self._io: threading.Thread | None = None
        self._failed: ForumError | None = None

    # -- connection ---------------------------------------------------------------------------

    def start(self) -> None:
        """Connect, register and join (in the caller's thread), then hand the connection to
        the bridge's I/O thread, which alone reads and writes the socket from then on."""
        s = self.settings
        self.conn = IrcConnection(s.server, s.port, s.nick, tls=s.tls, tls_verify=s.tls_verify,
                                  password=self.credentials.server_password)
        self.present = {}
        for msg in self.conn.connect():
            self._handle(msg)
        if self.credentials.nickserv_password:
            self.conn.identify(s.nickserv, self.credentials.nickserv_password)
        joined = [s2.channel for _, s2 in self.channels.values()] + list(self.listings.values())
        touched: set[str] = set()
        for msg in self.conn.join(joined):
            touched |= self._handle(msg)
        self.announced = {}  # a new connection announces again
        self._heartbeat(force=True)
        self._failed = None
        self._stopping.clear()
        if touched:
            self._touched.put(touched)
        self._io = threading.Thread(target=self._run, name="irc-bridge-io", daemon=True)
        self._io.start()

    def close(self) -> None:
        self._stopping.set()
        if self._io is not None and self._io is not threading.current_thread():
            self._io.join(10)
        self._io = None
        if self.conn is not None:
            self.conn.close("the Dealer is leaving; the game resumes when it is back")
            self.conn = None

    @property
    def nick(self) -> str:
        return self.conn.nick if self.conn else self.settings.nick

    def _heartbeat(self, force: bool = False) -> None:
        if force or self._mono() - self._beat >= HEARTBEAT_EVERY:
            self.log.heartbeat(self.nick, self._clock())
            self._beat = self._mono()

    # -- the I/O thread: one loop that reads and writes ---------------------------------------

    def _run(self) -> None:
        """Read and log every line the moment it arrives, and send what is due, in one loop:
        a line is never waiting on the socket because a long message is going out at one line
        a second (the send is paced by the token bucket, not by sleeping). Only this thread
        touches the socket (a TLS socket must not be read and written from two threads)."""
        assert self.conn is not None
        try:
            while not self._stopping.is_set():
                wait = self._send_due()
                for msg in self.conn.read(SPOOL_CHECK if wait is None else min(SPOOL_CHECK, wait)):
                    touched = self._handle(msg)
                    if touched:
                        self._touched.put(touched)
                self._heartbeat()
        except ForumError as exc:
            self._failed = exc
        except Exception as exc:  # noqa: BLE001  (the serve loop reconnects; it must hear of it)
            self._failed = ForumError("network", f"the IRC bridge failed: {type(exc).__name__}: {exc}",
                                      retry=True)
        finally:
            self._touched.put(set())  # wake a waiting step

    def step(self, timeout: float) -> set[str]:
        """Wait up to ``timeout`` seconds for new lines (the I/O thread has logged them
        already); return the tables whose channel (or the Dealer's /msg) had one, as soon as
        there is one. ``ForumError('network')`` when the connection is gone."""
        if self.conn is None or self._io is None:
            raise ForumError("network", "the bridge is not connected", retry=True)
        touched: set[str] = set()
        try:
            touched |= self._touched.get(timeout=max(0.0, timeout))
            while True:
                touched |= self._touched.get_nowait()
        except queue.Empty:
            pass
        if self._failed is not None or not self._io.is_alive():
            failed = self._failed or ForumError("network", "the IRC bridge stopped", retry=True)
            self._io = None
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            raise failed
        return touched

    def _token_delay(self) -> float:
        """The token bucket (``burst`` lines at once, then one every ``line_interval``
        seconds): 0 and one token spent when a line may go now, else the seconds to wait."""
        interval = self.settings.line_interval
        if interval <= 0:
            return 0.0
        now = self._mono()
        self._tokens = min(float(self.settings.burst), self._tokens + (now - self._refilled) / interval)
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) * interval

    def _send_due(self) -> float | None:
        """Send every line that may go now; return the seconds until the next one may, or
        ``None`` when nothing waits."""
        assert self.conn is not None
        while True:
            item = self._next_line()
            if item is None:
                return None
            delay = self._token_delay()
            if delay > 0:
                return delay
            line, sent = item
            self.conn.send(line)
            if sent is not None:
                sent()

    def _next_line(self) -> tuple[str, Callable[[], None] | None] | None:
        """The next line to send: an answer or an announcement first, then the spool's next
        line (its progress recorded once it is sent)."""
        if self._direct:
            return self._direct.popleft(), None
        for row in self.log.pending():
            target = self.current_nick(row.target) if row.kind == "private" else row.target
            if row.kind == "private" and not self._online(target):
                continue  # waits until the player is here (JOIN/NAMES)
            lines = self._lines(row)
            if row.sent_lines >= len(lines):
                self.log.progress(row.id, len(lines), True)
                continue
            i = row.sent_lines
            verb = "NOTICE" if row.kind == "private" else "PRIVMSG"
            return (command(verb, target, lines[i]),
                    lambda rid=row.id, n=i + 1, last=i + 1 == len(lines): self.log.progress(rid, n, last))
        return None

    def transmit(self) -> None:
        """Send everything spooled that can go, pacing by sleeping: for a caller that runs no
        I/O thread (a one-off flush); ``serve`` never calls it."""
        while (wait := self._send_due()) is not None:
            self._sleep(wait)

    def _online(self, nick: str) -> bool:
        return any(nick.lower() in members for members in self.present.values())

    def seat_of(self, nick: str) -> str:
        """The nick a line from ``nick`` acts for: the seat's, after a nick change."""
        return self.renamed.get(nick.lower(), (nick, nick))[0]

    def current_nick(self, seat: str) -> str:
        """Where a private message to ``seat`` goes now (its player may have changed nick)."""
        return next((now for first, now in self.renamed.values() if first.lower() == seat.lower()), seat)

    @staticmethod
    def _lines(row: LogLine) -> list[str]:
        if row.kind == "private" and row.text != row.body:
            return on_the_wire(row.text)  # "[#poker] the message" (IrcForum.send_private)
        if row.kind == "private":
            subject = f"[{row.subject}] " if row.subject else ""
            lines = on_the_wire(row.body)
            return [subject + lines[0], *lines[1:]] if lines else ([subject.strip()] if subject else [])
        return on_the_wire(row.text if row.kind == "story" else row.body)

    # -- what the server says ---------------------------------------------------------------------

    def _handle(self, msg: Message) -> set[str]:
        cmd, p = msg.command, msg.params
        if cmd == "353" and len(p) >= 3:  # NAMES: = #chan :@op +voice nick
            members = self.present.setdefault(p[-2].lower(), set())
            members.update(n.lstrip("@+%~&!").lower() for n in p[-1].split())
        elif cmd == "JOIN" and p:
            self.present.setdefault(p[0].lower(), set()).add(msg.nick.lower())
        elif cmd == "PART" and p:
            self.present.get(p[0].lower(), set()).discard(msg.nick.lower())
        elif cmd == "KICK" and len(p) >= 2:
            self.present.get(p[0].lower(), set()).discard(p[1].lower())
        elif cmd == "QUIT":
            for members in self.present.values():
                members.discard(msg.nick.lower())
            self.renamed.pop(msg.nick.lower(), None)
        elif cmd == "NICK" and p:
            for members in self.present.values():
                if msg.nick.lower() in members:
                    members.discard(msg.nick.lower())
                    members.add(p[0].lower())
            if msg.nick.lower() == self.nick.lower() and self.conn:
                self.conn.nick = p[0]
            else:
                seat, _ = self.renamed.pop(msg.nick.lower(), (msg.nick, msg.nick))
                if seat.lower() != p[0].lower():
                    self.renamed[p[0].lower()] = (seat, p[0])
        elif cmd == "PRIVMSG" and len(p) >= 2 and msg.nick:
            return self._said(msg, p[0], p[1])
        return set()

    def _said(self, msg: Message, target: str, text: str) -> set[str]:
        if msg.nick.lower() == self.nick.lower():
            return set()
        nick = self.seat_of(msg.nick)
        if text.startswith("\x01"):  # CTCP: /me is chat, the rest (VERSION, PING) unanswered
            inner = text.strip("\x01")
            if not inner.upper().startswith("ACTION "):
                return set()
            text = f"* {nick} {inner[7:]}"
        when = msg.tag("time") or self._clock()
        plain = strip_formatting(text)
        cmd = read_command(plain)
        body = cmd.body if isinstance(cmd, AtAction) else plain
        private = target.lower() == self.nick.lower()
        where = target.lower()
        asked = isinstance(cmd, (AtQuery, AtError))
        if (private and not asked) or where in self.channels:
            logged = self.log.record_in(nick if private else self.channels[where][1].channel, nick,
                                        text, body, _iso(when), private=private,
                                        msgid=msg.tag("msgid"))
        else:
            logged = None  # the listing channel: questions only
        if isinstance(cmd, AtAction):
            self.mistakes.pop(nick.lower(), None)
        if isinstance(cmd, AtError):
            count = self.mistakes[nick.lower()] = self.mistakes.get(nick.lower(), 0) + 1
            if count > FLOOD_THRESHOLD + 1:
                cmd = None  # flood protection, as for the fold's rejections: no more answers
            elif count == FLOOD_THRESHOLD + 1:
                cmd = AtError(f"{cmd.message}. That is {count} mistakes in a row: further ones "
                              "are not answered until you send a command the Dealer can read")
        if isinstance(cmd, (AtQuery, AtError)):
            self._answer(cmd, msg.nick, None if private or where not in self.channels else target)
        if logged is None:
            return set()
        return set(self.tables) if private else {self.channels[where][0]}

    def _answer(self, cmd: AtQuery | AtError, nick: str, channel: str | None) -> None:
        """Answer a question: privately (``@help``, ``@games``, anything asked by /msg) or in
        the channel it was asked in (``@status``, a mistake), naming the asker. The lines
        join the I/O thread's queue, paced like every other line."""

        def say(lines: list[str], public: bool) -> None:
            for line in lines:
                if public and channel is not None:
                    self._direct.append(command("PRIVMSG", channel, f"{nick}: {line}"))
                else:
                    self._direct.append(command("NOTICE", nick, line))

        if isinstance(cmd, AtError):
            say([cmd.message], True)
        elif cmd.name == "help":
            one = usage(cmd.arg) if cmd.arg else None
            say([one] if one else help_lines(), False)
        elif cmd.name == "games":
            say(self.games or ["no games are running"], False)
        elif cmd.name == "status":
            latest = self.log.latest_out(channel) if channel else None
            if channel is None:
                say(["ask @status in the table's channel"], False)
            elif latest is None:
                say(["the Dealer has said nothing here yet"], True)
            else:
                for line in on_the_wire(latest.text if latest.kind == "story" else latest.body):
                    self._direct.append(command("PRIVMSG", channel, line))

    # -- the listing channel ----------------------------------------------------------------------

    def announce(self, listings: Sequence[GameListing]) -> None:
        """Announce each game whose listing changed since this connection last said it:
        ``newgame <listing>`` while it is open, ``endgame #chan UNIX-timestamp`` once nobody
        can play (pokprot: "games starting up, and games shutting down")."""
        by_table = {name: s for name, s in self.channels.values()}
        games: list[str] = []
        for listing in listings:
            s = by_table.get(listing.table)
            if s is None:
                continue
            line = listing_line(listing, s.channel)
            if listing.open:
                games.append(line)
            said = f"newgame {line}" if listing.open else f"endgame {s.channel} {int(listing.started.timestamp())}"
            if s.listing is None or self.announced.get(listing.table) == said or self.conn is None:
                continue
            if not listing.open and listing.table not in self.announced:
                self.announced[listing.table] = said  # never announced open: nothing to end
                continue
            self._direct.append(command("PRIVMSG", s.listing, said))
            self.announced[listing.table] = said
        self.games = games


def _iso(moment: str) -> str:
    """The server's ``time`` tag (``2026-11-23T14:00:00.000Z``) or our clock, as ISO UTC."""
    try:
        return datetime.fromisoformat(moment.replace("Z", "+00:00")).astimezone(timezone.utc).isoformat()
    except ValueError:
        return _now()
