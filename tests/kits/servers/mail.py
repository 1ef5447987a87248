"""Real mail servers on loopback for the e-mail adapter's tests: Dovecot (IMAP) and an
aiosmtpd SMTP server that delivers into Dovecot's maildirs.

WHY real servers: the adapter speaks IMAP through ``imaplib`` and SMTP through ``smtplib``;
only a real IMAP server answers SEARCH, FETCH, STORE and UID the way a Dealer's provider
will (flags, UIDVALIDITY, literals), and only a real SMTP server exercises the envelope,
AUTH and the TLS handshake. CI installs Dovecot from Debian (``scripts/ci_services.sh``);
without it the tests skip and say so.

Dovecot runs in the foreground (``dovecot -F``) with a configuration generated in a temporary
directory: passwd-file authentication, one maildir per user, plain IMAP on one free port and
IMAP over TLS (a self-signed certificate made with ``openssl``) on another, nothing outside
the directory. The SMTP server (aiosmtpd, in a thread) accepts mail for the configured
users' addresses and adds each message to the recipient's maildir with the stdlib
``mailbox.Maildir`` (write to ``tmp/``, rename into ``new/``), which is how a local delivery
agent hands mail to Dovecot; it requires AUTH (PLAIN/LOGIN) when given passwords.
"""

from __future__ import annotations

import logging
import mailbox
import os
import pwd
import re
import signal
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

SKIP_HINT = ("Dovecot is not installed: install it with scripts/ci_services.sh (Debian: apt-get "
             "install dovecot-imapd); CI installs it, so CI runs these tests")
DOMAIN = "poker.test"
_CERT: tuple[bytes, bytes] | None = None


def dovecot_binary() -> str | None:
    found = shutil.which("dovecot")
    if found:
        return found
    return "/usr/sbin/dovecot" if os.access("/usr/sbin/dovecot", os.X_OK) else None


def need_dovecot() -> str:
    """The dovecot binary, or skip the test with the reason."""
    binary = dovecot_binary()
    if binary is None:
        pytest.skip(SKIP_HINT)
    return binary


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, log: Path, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"dovecot exited ({proc.returncode}): "
                               f"{log.read_text(errors='replace') if log.exists() else ''}")
        with socket.socket() as s:
            s.settimeout(0.5)
            try:
                s.connect(("127.0.0.1", port))
                return
            except OSError:
                time.sleep(0.05)
    raise RuntimeError(f"dovecot did not listen on {port} within {seconds}s")


def _accounts() -> tuple[str, str, int, int]:
    """login user, internal user, mail uid and gid for the generated configuration."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid()).pw_name
        return me, me, os.geteuid(), os.getegid()
    # Dovecot refuses to open mail as uid 0: as root, the maildirs belong to ``nobody``
    login = "dovenull" if _exists("dovenull") else "nobody"
    internal = "dovecot" if _exists("dovecot") else "nobody"
    mail = pwd.getpwnam("nobody")
    return login, internal, mail.pw_uid, mail.pw_gid


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
        return True
    except KeyError:
        return False


@dataclass
class MailServers:
    """Dovecot + the SMTP server; ``users`` maps a login (also the address's local part) to
    its password."""

    root: Path
    users: dict[str, str]
    imap_port: int = 0
    imaps_port: int = 0
    smtp_port: int = 0
    cert: Path | None = None
    proc: subprocess.Popen | None = None
    smtp: object | None = None
    delivered: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: (user, maildir key) in delivery order
    order: list[tuple[str, str]] = field(default_factory=list)

    def address(self, user: str) -> str:
        return f"{user}@{DOMAIN}"

    def maildir(self, user: str) -> mailbox.Maildir:
        path = self.root / "mail" / user / "Maildir"
        fresh = not path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        box = mailbox.Maildir(path, create=True)
        if fresh and os.geteuid() == 0:  # Dovecot opens it as the mail uid (see _accounts)
            _, _, uid, gid = _accounts()
            for p in (path.parent, path, path / "new", path / "cur", path / "tmp"):
                os.chown(p, uid, gid)
        return box

    def own(self, path: Path) -> None:
        """Hand a delivered file to the mail uid, readable: a delivery during a poll happens
        under the poll's owner-only umask, which a real delivery agent would not share."""
        path.chmod(0o644)
        if os.geteuid() == 0:
            _, _, uid, gid = _accounts()
            os.chown(path, uid, gid)

    # -- Dovecot ----------------------------------------------------------------------

    def _make_cert(self) -> None:
        """A self-signed certificate for 127.0.0.1, made once per test process (an RSA key
        takes a while) and copied into each server's directory."""
        global _CERT
        self.cert = self.root / "cert.pem"
        key = self.root / "key.pem"
        if _CERT is not None:
            self.cert.write_bytes(_CERT[0])
            key.write_bytes(_CERT[1])
            key.chmod(0o600)
            return
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                        "-keyout", str(key), "-out", str(self.cert)],
                       check=True, capture_output=True)
        key.chmod(0o600)
        _CERT = (self.cert.read_bytes(), key.read_bytes())

    def start_dovecot(self, binary: str) -> None:
        login, internal, uid, gid = _accounts()
        for d in ("run", "state", "mail"):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        self._make_cert()
        passwd = self.root / "passwd"
        passwd.write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in self.users.items()))
        for u in self.users:
            self.maildir(u)
        if os.geteuid() == 0:  # the login and mail processes must reach their directories
            for d in (self.root, self.root / "run", self.root / "mail"):
                d.chmod(0o755)
        self.imap_port, self.imaps_port = free_port(), free_port()
        conf = self.root / "dovecot.conf"
        conf.write_text(f"""
protocols = imap
listen = 127.0.0.1
base_dir = {self.root}/run
state_dir = {self.root}/state
log_path = {self.root}/dovecot.log
info_log_path = {self.root}/dovecot.log
default_login_user = {login}
default_internal_user = {internal}
first_valid_uid = {uid}
first_valid_gid = {gid}
mail_location = maildir:{self.root}/mail/%u/Maildir
auth_mechanisms = plain login
disable_plaintext_auth = no
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.root}/key.pem
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {passwd}
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {passwd}
  default_fields = uid={uid} gid={gid} home={self.root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
""")
        log = self.root / "dovecot.log"
        # its own process group, so stop() ends the master and every child it forked at once
        self.proc = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.root / "dovecot.stderr", "wb"),
                                     start_new_session=True)
        _wait_port(self.imap_port, self.proc, log)
        _wait_port(self.imaps_port, self.proc, log)

    # -- SMTP -------------------------------------------------------------------------

    def start_smtp(self) -> None:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        servers = self

        class Deliver:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                local, _, domain = address.partition("@")
                if domain.lower() != DOMAIN or local.lower() not in servers.users:
                    return "550 5.1.1 no such mailbox"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                data = envelope.original_content or envelope.content
                rcpts = tuple(a.partition("@")[0].lower() for a in envelope.rcpt_tos)
                for user in rcpts:
                    box = servers.maildir(user)
                    key = box.add(data)
                    servers.own(Path(box._path) / "new" / key)
                    servers.order.append((user, key))
                servers.delivered.append((envelope.mail_from, rcpts))
                return "250 delivered"

        def authenticate(server, session, envelope, mechanism, auth_data):
            if isinstance(auth_data, LoginPassword):
                user = auth_data.login.decode()
                ok = servers.users.get(user) == auth_data.password.decode()
                return AuthResult(success=ok, handled=False)
            return AuthResult(success=False, handled=False)

        import ssl
        import warnings

        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(str(self.cert), str(self.root / "key.pem"))
        self.smtp_port = free_port()
        with warnings.catch_warnings():  # AUTH without TLS: loopback only, and tested both ways
            warnings.simplefilter("ignore")
            logging.getLogger("mail.log").setLevel(logging.ERROR)
            controller = Controller(Deliver(), hostname="127.0.0.1", port=self.smtp_port,
                                    authenticator=authenticate, auth_required=True,
                                    auth_require_tls=False, tls_context=tls)
        controller.start()
        self.smtp = controller

    def config(self, table: str = "T", **extra: object) -> dict:
        """An e-mail forum config for the Dealer's mailbox on these servers (plain IMAP and
        SMTP on loopback; a test asks for TLS with ``imap_tls``/``smtp_tls`` and ``ca_file``)."""
        base: dict = {"address": self.address("dealer"), "table": table, "imap_host": "127.0.0.1",
                      "imap_port": self.imap_port, "imap_tls": "none", "smtp_host": "127.0.0.1",
                      "smtp_port": self.smtp_port, "smtp_tls": "none", "imap_user": "dealer",
                      "smtp_user": "dealer", "timeout": 20}
        base.update(extra)
        return base

    def send(self, user: str, subject: str, body: str, message_id: str | None = None,
             sender: str | None = None, headers: dict | None = None) -> str:
        """``user`` mails the Dealer through the SMTP server (as a player's mail program
        would); returns the Message-ID."""
        import smtplib
        from email.message import EmailMessage
        from email.utils import make_msgid

        msg = EmailMessage()
        msg["From"] = sender or self.address(user)
        msg["To"] = self.address("dealer")
        msg["Subject"] = subject
        msg["Message-ID"] = message_id or make_msgid(domain=DOMAIN)
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=20) as c:
            c.login(user, self.users[user])
            c.send_message(msg, from_addr=self.address(user), to_addrs=[self.address("dealer")])
        return msg["Message-ID"]

    def stop(self) -> None:
        if self.smtp is not None:
            self.smtp.stop()  # type: ignore[attr-defined]
            self.smtp = None
        if self.proc is not None:
            # Dovecot's own shutdown takes a second; the whole group is throwaway test state
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
            self.proc = None

    # -- what a test needs ------------------------------------------------------------

    def inbox(self, user: str) -> list:
        """The messages delivered to ``user``'s maildir, in delivery order, as ``email``
        messages (what the player's mail program would show)."""
        import email
        import email.policy

        md = self.maildir(user)
        keys = [k for u, k in self.order if u == user]
        return [email.message_from_bytes(md.get_bytes(k), policy=email.policy.default) for k in keys]


def start_servers(root: Path, users: dict[str, str]) -> Iterator[MailServers]:
    """Start both servers under ``root`` (as root: in a fresh directory under the system's
    temporary directory instead, because Dovecot's auth and mail processes run as other users
    and pytest's directories are private to root); stop them and remove that directory after."""
    import tempfile

    binary = need_dovecot()
    made = None
    if os.geteuid() == 0:
        made = Path(tempfile.mkdtemp(prefix="np-mail-"))
        made.chmod(0o755)
        root = made
    servers = MailServers(root, dict(users))
    try:
        servers.start_dovecot(binary)
        servers.start_smtp()
        yield servers
    finally:
        servers.stop()
        if made is not None and not os.environ.get("NP_KEEP_MAIL_DIR"):
            shutil.rmtree(made, ignore_errors=True)


ID_KEY = "k" * 8 + "test-id-key-0123456789"


def dealer_config(servers: MailServers, tmp: Path, players: tuple[str, ...], table: str = "T",
                  **extra: object) -> dict:
    """The Dealer's side on these servers: an owner-only roster (each player at their own
    address) and an owner-only credentials file, and the forum config naming them."""
    roster = tmp / f"roster-{table}.toml"
    roster.write_text("[players]\n" + "".join(f'{p} = "{servers.address(p)}"\n' for p in players))
    roster.chmod(0o600)
    creds = tmp / "mail-credentials.toml"
    creds.write_text(f'password = "{servers.users["dealer"]}"\nid_key = "{ID_KEY}"\n')
    creds.chmod(0o600)
    return servers.config(table, roster=str(roster), credentials_file=str(creds), **extra)


def flags(servers: MailServers, user: str = "dealer") -> list[set[str]]:
    """Each message's IMAP flags in ``user``'s INBOX, in UID order (read over IMAP, which is
    where the adapter keeps them)."""
    import imaplib
    import re as _re

    conn = imaplib.IMAP4("127.0.0.1", servers.imap_port, timeout=20)
    try:
        conn.login(user, servers.users[user])
        conn.select("INBOX")
        typ, data = conn.uid("FETCH", "1:*", "(UID FLAGS)")
        out = []
        for line in data:
            if not line:
                continue
            m = _re.search(rb"FLAGS \(([^)]*)\)", line if isinstance(line, bytes) else line[0])
            if m:
                out.append(set(m.group(1).decode().split()))
        return out
    finally:
        conn.logout()


PLAYERS = ("alice", "bob", "carol")
USERS = {"dealer": "dealer-pw", "alice": "a-pw", "bob": "b-pw", "carol": "c-pw"}


class MailTable:
    """A roberts-nlhe table T of alice, bob and carol (100 each, no reminders) on the e-mail
    forum of ``servers``; each player reads their own mailbox."""

    def __init__(self, servers, tmp_path, settings: dict | None = None):
        from nomicpoker.shell.dealer import service
        from nomicpoker.shell.storage.store import open_engine

        self.m = servers
        self.state = tmp_path / "state"
        self.state.mkdir()
        self.engine = open_engine(f"sqlite:///{self.state / 'ledger.db'}")
        self.cfg = dealer_config(servers, tmp_path, PLAYERS)
        service.create_table(self.engine, self.state, "T", list(PLAYERS), 100, ruleset="roberts-nlhe",
                             forum="email", forum_config=self.cfg,
                             settings={"reminders": 0, **(settings or {})})
        self.read = {p: 0 for p in PLAYERS}

    def deal(self, seed: str = "nlhe:1", number: int = 1):
        """Start hand ``number`` with the fixed secrets of ``seed`` (tests/kits/tables/bot.py: "nlhe:1"
        deals alice J♥ K♥, bob 4♣ 5♠, carol 10♥ 3♠), blinds 1/2."""
        from kits.tables.bot import fixed_secrets
        from nomicpoker.shell.storage import secrets_store
        from nomicpoker.shell.dealer import service

        secrets_store.write(self.state, "T", number, fixed_secrets(seed))
        started = service.start_hand(self.engine, self.state, "T", 0, blinds=(1, 2))
        assert not started.report.error, started.report.error
        return started

    def ids(self) -> dict[str, str]:
        """Each player's ID, as the player reads it in the welcome mail."""
        out = {}
        for p in PLAYERS:
            welcome = [m for m in self.m.inbox(p) if "Your ID for poker table T" in m["Subject"]]
            assert len(welcome) == 1, [m["Subject"] for m in self.m.inbox(p)]
            out[p] = re.search(r"\(ID=([a-z0-9]{6})\)", welcome[0]["Subject"]).group(1)
        return out

    def poll(self):
        from nomicpoker.shell.jobs import poll as poll_mod

        report = poll_mod.poll(self.engine, self.state)
        assert report.ok, [t.error for t in report.tables]
        return report

    def new_mail(self, player: str) -> list:
        box = self.m.inbox(player)
        new = box[self.read[player]:]
        self.read[player] = len(box)
        return new

    def bet(self, player: str, body: str, subject: str | None = None) -> None:
        """``player`` mails the Dealer (their ID in the subject), and the Dealer polls."""
        self.m.send(player, subject or f"ID={self.ids()[player]}", body)
        self.poll()


