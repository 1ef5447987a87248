"""The hand secrets on disk (shell): generated at hand start, owner-only, published at the end.

WHY a separate store and not a ledger column: the ledger is what auditors read and what a
backup or an export copies around; a secret that sits in it before its hand ends could leak
the community cards or a player's hole cards. The secrets live in
``<state>/secrets/<table>/hand-<n>.json`` (directory 0700, file 0600) and nowhere else until
the hand ends; then the payout comment and the hand row publish them (hex).

Nothing in this module prints or logs a secret. :class:`~nomicpoker.core.fairness.dealing.HandSecrets` (a
core value, re-exported here) hides its bytes from ``repr`` so an accidental ``print(secrets)``
or a traceback shows only the commitments.
"""

from __future__ import annotations

import json
import os
import re
import secrets as _random
from pathlib import Path

from nomicpoker.core.fairness.dealing import SECRET_BYTES, SECRET_NAMES, HandSecrets
from nomicpoker.shell import faults
from nomicpoker.shell.storage.paths import secrets_dir
from nomicpoker.core.errors import CodedError

__all__ = ["HandSecrets", "SecretsError", "create", "from_hex", "generate", "installation_key", "load",
           "load_or_none", "message_path", "read_message", "secret_path", "snapshot_dir", "write",
           "write_message", "write_private"]

_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SecretsError(CodedError):
    """A hand's secrets are missing, unreadable or malformed. ``code``: ``missing``,
    ``exists``, ``corrupt``, ``bad_name``."""


def from_hex(values: dict[str, str]) -> HandSecrets:
    """Hand secrets from their published hex form (a secrets file, or an ended hand's record)."""
    try:
        raw = {name: bytes.fromhex(values[name]) for name in SECRET_NAMES}
    except (KeyError, ValueError, TypeError) as exc:
        raise SecretsError("corrupt", f"hand secrets must have hex deck, dice, decks ({exc})") from exc
    if any(len(v) != SECRET_BYTES for v in raw.values()):
        raise SecretsError("corrupt", f"each hand secret must be {SECRET_BYTES} bytes")
    return HandSecrets(**raw)


def generate() -> HandSecrets:
    """Fresh secrets for a new hand: the only randomness the Dealer uses (the core has none)."""
    return HandSecrets(**{name: _random.token_bytes(SECRET_BYTES) for name in SECRET_NAMES})


def secret_path(state: Path, table: str, hand: int) -> Path:
    if not _SAFE.match(table):
        raise SecretsError("bad_name", f"table name {table!r} cannot name a secrets folder")
    return secrets_dir(state) / table / f"hand-{int(hand)}.json"


def _private_dir(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o700)


def create(state: Path, table: str, hand: int, existing_ok: bool = False) -> HandSecrets:
    """Generate and store a hand's secrets (0600). With ``existing_ok`` an earlier attempt's
    secrets are reused, so a ``hand start`` that crashed after writing them can be re-run
    without changing the commitments."""
    path = secret_path(state, table, hand)
    if path.exists():
        if existing_ok:
            return load(state, table, hand)
        raise SecretsError("exists", f"secrets for table {table} hand {hand} already exist")
    return write(state, table, hand, generate())


def write(state: Path, table: str, hand: int, value: HandSecrets) -> HandSecrets:
    """Store ``value`` as the hand's secrets (0600 file in a 0700 folder), atomically."""
    path = secret_path(state, table, hand)
    _private_dir(secrets_dir(state))
    _private_dir(path.parent)
    data = json.dumps({"table": table, "hand": int(hand), **value.published()}, sort_keys=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    faults.point("before secrets file")
    os.replace(tmp, path)
    os.chmod(path, 0o600)
    faults.point("after secrets file")
    return value


def load(state: Path, table: str, hand: int) -> HandSecrets:
    path = secret_path(state, table, hand)
    try:
        data = json.loads(path.read_text("ascii"))
    except FileNotFoundError as exc:
        raise SecretsError("missing", f"no secrets for table {table} hand {hand} at {path}") from exc
    except (OSError, ValueError) as exc:
        raise SecretsError("corrupt", f"cannot read the secrets for table {table} hand {hand}: {exc}") from exc
    return from_hex(data)


def message_path(state: Path, table: str, key: str) -> Path:
    """Where the body of the private message with outbox ``key`` is kept (0600)."""
    if not _SAFE.match(key):
        raise SecretsError("bad_name", f"outbox key {key!r} cannot name a file")
    return secret_path(state, table, 0).parent / "messages" / f"{key}.txt"


def write_message(state: Path, table: str, key: str, body: str) -> None:
    """Keep a private message body for the sender (the ledger holds only its seal)."""
    write_private(state, message_path(state, table, key), body)


def write_private(state: Path, path: Path, text: str, sync: bool = True) -> None:
    """Write ``text`` to ``path`` under the secrets folder, owner-only (0600 in 0700 folders),
    atomically (a reader sees the old file or the new one). ``sync``: flush it to the disk
    first (a hand's messages; a snapshot, which a lost write only makes the next poll replay
    from the start, is not worth the wait)."""
    root = secrets_dir(state)
    _private_dir(root)
    for folder in reversed(path.parent.relative_to(root).parents[:-1]):
        _private_dir(root / folder)
    _private_dir(path.parent)
    tmp = path.with_suffix(".tmp")
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
        f.write(text.encode("utf-8"))
        if sync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)


def snapshot_dir(state: Path, table: str) -> Path:
    """Where the table's fold state (its snapshot, :mod:`nomicpoker.shell.storage.snapshots`) is kept:
    it holds the running hand's private data (the hole cards dealt, advance actions sent
    privately), so it sits with the secrets, not in the ledger."""
    return secret_path(state, table, 0).parent / "snapshot"


def read_message(state: Path, table: str, key: str) -> str:
    path = message_path(state, table, key)
    try:
        return path.read_text("utf-8")
    except FileNotFoundError as exc:
        raise SecretsError("missing", f"the private message {key} is not in {path.parent}: "
                           "run nomicpoker poll on the Dealer's machine (it writes it again)") from exc


#: the installation's key, in the state folder (owner-only): it keys the snapshots' MACs
#: (:mod:`nomicpoker.shell.storage.snapshots`) and derives the nonces of sealed private messages
#: (:mod:`nomicpoker.shell.storage.sealed_inputs`)
KEY_FILE = "snapshot.key"


def installation_key(state: Path) -> bytes:
    """The installation's key, made on first use (owner-only, like the secrets)."""
    path = state / KEY_FILE
    try:
        return path.read_bytes()
    except FileNotFoundError:
        state.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_bytes()
        with os.fdopen(fd, "wb") as f:
            f.write(_random.token_bytes(32))
        return path.read_bytes()


def load_or_none(state: Path, table: str, hand: int) -> HandSecrets | None:
    try:
        return load(state, table, hand)
    except SecretsError as exc:
        if exc.code == "missing":
            return None
        raise
