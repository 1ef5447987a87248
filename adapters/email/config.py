"""The e-mail table's settings, secrets and roster (see :mod:`nomicpoker.adapters.email.forum`).

WHY three places: the forum config (stored in the ledger, shown by audits) holds only plain
values (servers, ports, TLS modes, the Dealer's address, the table it serves, file paths); the
passwords and the ID key come from the environment or an owner-only TOML file, as the other
adapters' secrets do; the players' e-mail addresses are personal data, so they sit in an
owner-only roster file too, never in the ledger or on the auditors' site.
"""

from __future__ import annotations

import hmac
import os
import base64
import hashlib
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from nomicpoker.ports import ForumError

ENV_PASSWORD = "NOMICPOKER_EMAIL_PASSWORD"
ENV_SMTP_PASSWORD = "NOMICPOKER_EMAIL_SMTP_PASSWORD"
ENV_ID_KEY = "NOMICPOKER_EMAIL_ID_KEY"
TLS_MODES = ("ssl", "starttls", "none")

CONFIG_KEYS = {
    "address", "table", "dealer", "roster", "credentials_file", "imap_host", "imap_port",
    "imap_tls", "imap_user", "mailbox", "smtp_host", "smtp_port", "smtp_tls", "smtp_user",
    "smtp_auth", "ca_file", "timeout",
}


@dataclass(frozen=True)
class MailSecrets:
    """Passwords and the ID key, kept out of ``repr`` so they cannot reach a log."""

    password: str = field(repr=False)
    smtp_password: str = field(repr=False)
    id_key: bytes = field(repr=False)
    source: str = ""


@dataclass(frozen=True)
class MailSettings:
    """The forum config of an e-mail table, checked."""

    address: str
    table: str
    roster: Path
    imap_host: str
    smtp_host: str
    dealer: str = "Dealer"
    imap_port: int = 993
    imap_tls: str = "ssl"
    imap_user: str = ""
    mailbox: str = "INBOX"
    smtp_port: int = 587
    smtp_tls: str = "starttls"
    smtp_user: str = ""
    smtp_auth: bool = True
    ca_file: str | None = None
    timeout: float = 30.0
    credentials_file: str | None = None

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


def _text(config: Mapping[str, object], key: str, default: str | None = None) -> str | None:
    value = config.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ForumError("config", f"email forum config key {key!r} must be a non-empty string")
    return value.strip()


def _port(config: Mapping[str, object], key: str, default: int) -> int:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
        raise ForumError("config", f"email forum config key {key!r} must be a port number (1-65535)")
    return value


def _tls(config: Mapping[str, object], key: str, default: str) -> str:
    value = _text(config, key, default) or default
    if value not in TLS_MODES:
        raise ForumError("config", f"email forum config key {key!r} must be one of {', '.join(TLS_MODES)}, "
                         f"not {value!r}")
    return value


def settings_from(config: Mapping[str, object]) -> MailSettings:
    """Check the config keys; ``ForumError('config')`` names the first bad one."""
    unknown = sorted(set(config) - CONFIG_KEYS)
    if unknown:
        raise ForumError("config", f"unknown email forum config key {unknown[0]!r} "
                         f"(known: {', '.join(sorted(CONFIG_KEYS))})")
    for key in ("address", "table", "roster", "imap_host", "smtp_host"):
        if key not in config:
            raise ForumError("config", f"the email forum needs the config key {key!r} (docs/email.md)")
    address = _text(config, "address") or ""
    if "@" not in address or any(c.isspace() for c in address):
        raise ForumError("config", f"email forum config key 'address' must be an e-mail address, not {address!r}")
    imap_tls, smtp_tls = _tls(config, "imap_tls", "ssl"), _tls(config, "smtp_tls", "starttls")
    smtp_auth = config.get("smtp_auth", True)
    if not isinstance(smtp_auth, bool):
        raise ForumError("config", "email forum config key 'smtp_auth' must be true or false")
    timeout = config.get("timeout", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ForumError("config", "email forum config key 'timeout' must be a number of seconds > 0")
    imap_user = _text(config, "imap_user", address) or address
    return MailSettings(
        address=address, table=_text(config, "table") or "", roster=Path(_text(config, "roster") or "").expanduser(),
        imap_host=_text(config, "imap_host") or "", smtp_host=_text(config, "smtp_host") or "",
        dealer=_text(config, "dealer", "Dealer") or "Dealer",
        imap_port=_port(config, "imap_port", 993 if imap_tls == "ssl" else 143), imap_tls=imap_tls,
        imap_user=imap_user, mailbox=_text(config, "mailbox", "INBOX") or "INBOX",
        smtp_port=_port(config, "smtp_port", {"ssl": 465, "starttls": 587, "none": 25}[smtp_tls]),
        smtp_tls=smtp_tls, smtp_user=_text(config, "smtp_user", imap_user) or imap_user,
        smtp_auth=smtp_auth, ca_file=_text(config, "ca_file"), timeout=float(timeout),
        credentials_file=_text(config, "credentials_file"))


def _owner_only_toml(path: Path, what: str) -> dict:
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise ForumError("config", f"{what} {path}: {exc.strerror}") from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ForumError("config", f"{what} {path} is readable by group or others "
                         f"(mode {stat.S_IMODE(mode):o}); run: chmod 600 {path}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ForumError("config", f"{what} {path} is not readable TOML: {exc}") from exc


def load_secrets(settings: MailSettings, environ: Mapping[str, str] | None = None) -> MailSecrets:
    """From the owner-only ``credentials_file`` if configured, else the environment."""
    env = os.environ if environ is None else environ
    if settings.credentials_file:
        path = Path(settings.credentials_file).expanduser()
        data = _owner_only_toml(path, "credentials file")
        password, smtp_password, key = data.get("password"), data.get("smtp_password"), data.get("id_key")
        source = str(path)
    else:
        password, smtp_password, key = env.get(ENV_PASSWORD), env.get(ENV_SMTP_PASSWORD), env.get(ENV_ID_KEY)
        source = "environment"
    if not isinstance(password, str) or not password:
        raise ForumError("config", f"no mailbox password: set {ENV_PASSWORD} or 'password' in the "
                         "forum config's credentials_file")
    if not isinstance(key, str) or len(key.strip()) < 16:
        raise ForumError("config", f"no ID key (16 characters or more): set {ENV_ID_KEY} or 'id_key' in "
                         "the credentials_file (make one with: python3 -c \"import secrets; "
                         "print(secrets.token_hex(32))\"); players' IDs are derived from it")
    if smtp_password is not None and not isinstance(smtp_password, str):
        raise ForumError("config", "smtp_password must be a string")
    return MailSecrets(password, smtp_password or password, key.strip().encode("utf-8"), source)


def load_roster(path: Path) -> dict[str, tuple[str, ...]]:
    """Player name -> addresses, from the owner-only roster TOML (``[players] alice =
    "alice@example.org"``; several addresses separated by commas, as WRGPT's ADDR)."""
    data = _owner_only_toml(path, "roster file")
    players = data.get("players")
    if not isinstance(players, dict) or not players:
        raise ForumError("config", f"roster file {path} needs a [players] table: name = \"address\"")
    out: dict[str, tuple[str, ...]] = {}
    for name, value in players.items():
        if not isinstance(value, str):
            raise ForumError("config", f"roster file {path}: the address of {name!r} must be a string")
        addresses = tuple(a.strip() for a in value.split(",") if a.strip())
        if not addresses or any("@" not in a or any(c.isspace() for c in a) for a in addresses):
            raise ForumError("config", f"roster file {path}: {name!r} has no valid address ({value!r})")
        out[str(name)] = addresses
    return out


def player_id(key: bytes, table: str, player: str) -> str:
    """A player's six-character ID at ``table``: derived from the secret key, so nothing is
    stored and only the Dealer can compute it; lowercase letters and digits, as WRGPT's."""
    mac = hmac.new(key, f"id\n{table.lower()}\n{player.lower()}".encode("utf-8"), hashlib.sha256).digest()
    return base64.b32encode(mac).decode("ascii").lower()[:6]


def copy_seal(key: bytes, *parts: str) -> str:
    """The seal on the Dealer's own copy of a message it sent: a player who forges the
    Dealer's From: and headers cannot make the Dealer believe it has already posted."""
    return hmac.new(key, ("copy\n" + "\n".join(parts)).encode("utf-8"), hashlib.sha256).hexdigest()[:40]
