"""A small IRC client connection for the dealer bot: connect (TLS or not), register with the
server password, identify to NickServ, join channels, read and write lines.

Errors map to :class:`~nomicpoker.ports.ForumError` codes by a table (as the HTTP adapters map
statuses): a wrong server password or a nick taken is ``login_failed`` (the Dealer must fix the
setup), a channel the server refuses (banned, invite-only, key, full) is ``config``, a dropped
connection or timeout is ``network`` and retryable (the bridge reconnects).
"""

from __future__ import annotations

import select
import socket
import ssl
import time
from typing import Callable

from nomicpoker.adapters.irc.wire import Message, command, parse
from nomicpoker.ports import ForumError

#: numeric replies that end registration, and what they mean to the Dealer
_REGISTRATION_ERRORS = {
    "464": ("login_failed", "the server refused the password (set server_password: docs/irc.md)"),
    "465": ("login_failed", "the server has banned this connection"),
    "432": ("login_failed", "the server refused the nick as malformed"),
    "433": ("login_failed", "the nick is already in use (another bridge running? a ghost: "
            "ask NickServ to GHOST/RECOVER it)"),
    "436": ("login_failed", "nick collision"),
    "437": ("login_failed", "the nick is temporarily unavailable"),
}
_JOIN_ERRORS = {
    "403": "no such channel", "405": "joined too many channels", "471": "the channel is full",
    "473": "the channel is invite-only (+i): invite the bot", "474": "the bot is banned from it",
    "475": "it needs a key (+k)", "477": "it needs a registered nick (identify to NickServ)",
}
#: IRCv3 capabilities the bridge asks for when the server offers them: the time a line was
#: said (a bouncer's playback) and message ids (a replayed line is logged once).
WANTED_CAPS = ("server-time", "message-tags")


class IrcConnection:
    """One registered connection. ``read`` answers PINGs itself and returns the rest."""

    def __init__(self, host: str, port: int, nick: str, tls: bool = True, tls_verify: bool = True,
                 password: str | None = None, timeout: float = 30.0,
                 clock: Callable[[], float] = time.monotonic):
        self.host, self.port, self.nick = host, port, nick
        self.tls, self.tls_verify, self.password = tls, tls_verify, password
        self.timeout = timeout
        self.caps: set[str] = set()
        self._clock = clock
        self._buf = b""
        self._pending: list[Message] = []
        self.sock: socket.socket | None = None

    # -- connecting ---------------------------------------------------------------------------

    def connect(self) -> list[Message]:
        """Open and register; return what the server said before the welcome was complete."""
        try:
            raw = socket.create_connection((self.host, self.port), timeout=self.timeout)
        except OSError as exc:
            raise ForumError("network", f"cannot reach IRC server {self.host}:{self.port}: {exc}",
                             retry=True) from exc
        if self.tls:
            context = ssl.create_default_context()
            if not self.tls_verify:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            try:
                raw = context.wrap_socket(raw, server_hostname=self.host)
            except (ssl.SSLError, OSError) as exc:
                raw.close()
                raise ForumError("network", f"TLS with {self.host}:{self.port} failed: {exc}",
                                 retry=True) from exc
        self.sock = raw
        self.send("CAP LS 302")
        if self.password:
            self.send(command("PASS", self.password))
        self.send(f"NICK {self.nick}")
        self.send(command("USER", self.nick, "0", "*", "nomicpoker dealer bot"))
        early: list[Message] = []
        deadline = self._clock() + self.timeout
        cap_done = False
        while True:
            left = deadline - self._clock()
            if left <= 0:
                self.close()
                raise ForumError("network", f"{self.host}:{self.port} did not welcome the bot "
                                 f"within {self.timeout:g}s", retry=True)
            for msg in self.read(min(left, 1.0)):
                if msg.command == "CAP" and len(msg.params) >= 3 and msg.params[1] == "LS":
                    if msg.params[2] == "*" and len(msg.params) > 3:
                        self.caps.update(w.split("=")[0] for w in msg.params[3].split())
                        continue
                    self.caps.update(w.split("=")[0] for w in msg.params[-1].split())
                    wanted = [c for c in WANTED_CAPS if c in self.caps]
                    if wanted:
                        self.send(command("CAP", "REQ", " ".join(wanted)))
                    else:
                        self.send("CAP END")
                        cap_done = True
                elif msg.command == "CAP" and len(msg.params) >= 2 and msg.params[1] in ("ACK", "NAK"):
                    self.caps = set(msg.params[-1].split()) if msg.params[1] == "ACK" else set()
                    self.send("CAP END")
                    cap_done = True
                elif msg.command in _REGISTRATION_ERRORS:
                    code, why = _REGISTRATION_ERRORS[msg.command]
                    self.close()
                    raise ForumError(code, f"{self.host}:{self.port} as {self.nick}: {why}")
                elif msg.command == "ERROR":
                    self.close()
                    text = msg.params[-1] if msg.params else ""
                    code = "login_failed" if "password" in text.lower() or "access denied" in text.lower() else "network"
                    raise ForumError(code, f"{self.host}:{self.port} closed the link: {text}",
                                     retry=code == "network")
                elif msg.command == "001":
                    if not cap_done:
                        self.caps = set()  # a server without CAP ignored our LS
                    self.nick = msg.params[0] if msg.params else self.nick
                    return early
                else:
                    early.append(msg)

    def identify(self, nickserv: str, password: str) -> None:
        """Identify the Dealer's nick to the network's services, the way most networks take it."""
        self.send(command("PRIVMSG", nickserv, f"IDENTIFY {password}"))

    def join(self, channels: list[str]) -> list[Message]:
        """Join each channel; ``config`` error naming the channel when the server refuses."""
        for channel in channels:
            self.send(command("JOIN", channel))
        waiting = {c.lower() for c in channels}
        other: list[Message] = []
        deadline = self._clock() + self.timeout
        while waiting:
            if self._clock() > deadline:
                raise ForumError("network", f"no answer to JOIN {', '.join(sorted(waiting))}", retry=True)
            for msg in self.read(1.0):
                if msg.command == "366" and len(msg.params) >= 2:
                    waiting.discard(msg.params[1].lower())
                    other.append(msg)
                elif msg.command in _JOIN_ERRORS and len(msg.params) >= 2 and msg.params[1].lower() in waiting:
                    raise ForumError("config", f"cannot join {msg.params[1]} on {self.host}: "
                                     f"{_JOIN_ERRORS[msg.command]}")
                else:
                    other.append(msg)
        return other

    # -- lines ---------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        if self.sock is None:
            raise ForumError("network", "not connected to IRC", retry=True)
        if "\r" in line or "\n" in line:
            raise ValueError("one IRC line at a time")
        try:
            self.sock.sendall(line.encode("utf-8") + b"\r\n")
        except OSError as exc:
            self.close()
            raise ForumError("network", f"lost the IRC connection while sending: {exc}", retry=True) from exc

    def read(self, timeout: float) -> list[Message]:
        """The messages that arrive within ``timeout`` seconds (at least one wait for data);
        PINGs are answered here."""
        if self.sock is None:
            raise ForumError("network", "not connected to IRC", retry=True)
        out, self._pending = self._pending, []
        if out:
            return out
        pending = getattr(self.sock, "pending", lambda: 0)()
        if not pending:
            ready, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
            if not ready:
                return []
        try:
            data = self.sock.recv(65536)
        except (ssl.SSLWantReadError, BlockingIOError):
            return []
        except OSError as exc:
            self.close()
            raise ForumError("network", f"lost the IRC connection: {exc}", retry=True) from exc
        if not data:
            self.close()
            raise ForumError("network", f"{self.host}:{self.port} closed the connection", retry=True)
        self._buf += data
        messages: list[Message] = []
        while b"\n" in self._buf:
            raw, self._buf = self._buf.split(b"\n", 1)
            msg = parse(raw.decode("utf-8", "replace"))
            if msg.command == "PING":
                self.send(command("PONG", *(msg.params or ("",))))
            elif msg.command:
                messages.append(msg)
        return messages

    def close(self, reason: str | None = None) -> None:
        if self.sock is None:
            return
        if reason is not None:
            try:
                self.sock.sendall(command("QUIT", reason).encode("utf-8") + b"\r\n")
            except OSError:
                pass
        try:
            self.sock.close()
        finally:
            self.sock = None
