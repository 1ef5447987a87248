"""Test kit for the IRC adapter: a real ngIRCd on loopback, started by the tests, and a small
raw-socket IRC client for the players.

Why ngIRCd: Debian packages it (``scripts/ci_services.sh`` installs it), it runs in the
foreground (``-n``) from a config file of our own, needs no root, no database and no services,
and speaks plain RFC 2812 as the small networks a nomic plays on do. The server is given a
connection password (``Password``), so the tests play the way a private table's server is
set up (docs/irc.md), and ``MaxPenaltyTime = 0`` so the tests need not wait out its flood
penalties (the adapter's own pacing is a setting, ``line_interval``; tests set it to 0).

Why the players' client is not the adapter's: the tests must not check our client with
itself. :class:`Player` writes the protocol by hand (PASS/NICK/USER, PING/PONG, PRIVMSG), the
way any IRC client does, and records every line it receives.

Tests needing the server skip, saying why, when ``ngircd`` is not installed (CI installs it).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PASSWORD = "table-secret"


def ngircd_binary() -> str | None:
    """The ngircd executable (Debian puts it in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("ngircd") or next(
        (p for p in ("/usr/sbin/ngircd", "/usr/local/sbin/ngircd") if os.access(p, os.X_OK)), None)


needs_ngircd = pytest.mark.skipif(
    ngircd_binary() is None,
    reason="ngircd is not installed (apt-get install ngircd; scripts/ci_services.sh does it in CI)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Ircd:
    """A running ngIRCd: ``port`` on 127.0.0.1, connection password :data:`PASSWORD`."""

    port: int
    proc: subprocess.Popen
    conf: Path
    tls_port: int | None = None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 (openssl), for the TLS listener."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def start_ircd(tmp: Path, password: str = PASSWORD, tls: bool = False) -> Ircd:
    binary = ngircd_binary()
    if binary is None:
        pytest.skip("ngircd is not installed")
    tmp.mkdir(parents=True, exist_ok=True)
    motd = tmp / "motd"
    motd.write_text("test server\n")
    for _ in range(3):  # a port taken between choosing and binding: choose again
        port = free_port()
        tls_port = free_port() if tls else None
        ssl_section = ""
        if tls:
            cert, key = self_signed(tmp)
            ssl_section = f"[SSL]\nCertFile = {cert}\nKeyFile = {key}\nPorts = {tls_port}\n"
        conf = tmp / "ngircd.conf"
        conf.write_text(f"""[Global]
Name = irc.test
Info = nomicpoker test server
Listen = 127.0.0.1
Ports = {port}
Password = {password}
MotdFile = {motd}
PidFile = {tmp / 'ngircd.pid'}
ServerUID = {os.getuid()}
ServerGID = {os.getgid()}
[Limits]
MaxNickLength = 30
MaxConnectionsIP = 0
MaxPenaltyTime = 0
PingTimeout = 120
PongTimeout = 20
[Options]
DNS = no
Ident = no
PAM = no
""" + ssl_section)
        proc = subprocess.Popen([binary, "-n", "-f", str(conf)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                if tls_port:
                    socket.create_connection(("127.0.0.1", tls_port), timeout=0.5).close()
                return Ircd(port, proc, conf, tls_port)
            except OSError:
                time.sleep(0.05)
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
    pytest.fail("ngircd did not start listening")


@pytest.fixture
def ircd(tmp_path):
    needs = ngircd_binary()
    if needs is None:
        pytest.skip("ngircd is not installed (apt-get install ngircd; scripts/ci_services.sh)")
    server = start_ircd(tmp_path / "ircd")
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Player:
    """A player's IRC client, written by hand: every line received is kept in ``lines``."""

    nick: str
    port: int
    password: str | None = PASSWORD
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.buf = b""
        if self.password:
            self.send(f"PASS {self.password}")
        self.send(f"NICK {self.nick}")
        self.send(f"USER {self.nick} 0 * :{self.nick} the player")
        self.wait(lambda l: " 001 " in l, what="the welcome (001)")

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("utf-8") + b"\r\n")

    def say(self, target: str, text: str) -> None:
        self.send(f"PRIVMSG {target} :{text}")

    def join(self, channel: str) -> None:
        self.send(f"JOIN {channel}")
        self.wait(lambda l: f" 366 {self.nick} {channel} " in l, what=f"JOIN {channel}")

    def _read(self, timeout: float) -> bool:
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            return False
        if not data:
            raise ConnectionError(f"{self.nick}: the server closed the connection")
        self.buf += data
        while b"\r\n" in self.buf:
            raw, self.buf = self.buf.split(b"\r\n", 1)
            line = raw.decode("utf-8", "replace")
            if line.startswith("PING "):
                self.send("PONG " + line[5:])
                continue
            self.lines.append(line)
        return True

    def wait(self, pred, timeout: float = 20, what: str = "a line", start: int = 0) -> str:
        """The first line from index ``start`` that ``pred`` accepts, waiting for it."""
        deadline = time.monotonic() + timeout
        seen = start
        while True:
            for i in range(seen, len(self.lines)):
                if pred(self.lines[i]):
                    return self.lines[i]
            seen = len(self.lines)
            left = deadline - time.monotonic()
            if left <= 0:
                tail = "\n".join(self.lines[-15:])
                raise AssertionError(f"{self.nick} waited {timeout}s for {what}; last lines:\n{tail}")
            self._read(min(left, 0.5))

    def drain(self, seconds: float = 0.2) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._read(max(0.01, end - time.monotonic()))

    def texts(self, kind: str, target: str, start: int = 0) -> list[str]:
        """The texts of ``kind`` (PRIVMSG/NOTICE) lines to ``target`` received from ``start``."""
        out = []
        for line in self.lines[start:]:
            parts = line.split(" ", 3)
            if len(parts) == 4 and parts[1] == kind and parts[2] == target:
                out.append(parts[3][1:] if parts[3].startswith(":") else parts[3])
        return out

    def close(self) -> None:
        try:
            self.send("QUIT :bye")
        except OSError:
            pass
        self.sock.close()
