"""Snapshots (shell): store the fold's state in the ledger, and find it again only if it can
be trusted, so the poll folds only what is new.

A snapshot is the state (:func:`nomicpoker.core.table.snapshot.encode`) after the inputs it
*covers*: the archive up to a position, the hand starts and the dealer events up to a row, and
the number of derived rows stored. The ledger's row (``np_snapshot``, one per table) holds
what it covers, the current hand's alarms and the MAC; the state itself is kept in the
owner-only secrets folder (``secrets/<table>/snapshot/<mac>.json``,
:func:`nomicpoker.shell.storage.secrets_store.snapshot_dir`). WHY not in the ledger: the state of a
running hand holds what no copy of the ledger may hold before the hand ends, the hole cards
dealt from the shared deck (in the engine's log) and the advance actions players sent the
Dealer privately; the ledger is what backups copy and ``export public-db`` publishes. Named by
its MAC, the file of a snapshot whose transaction was rolled back (a ``--dry-run``, a failed
commit) never replaces the file of the one stored; the poll's :func:`load` (``prune``: the
table's owner, about to write its next snapshot) removes the others, a reader's never.
:func:`load` uses a snapshot only when all of these hold, and otherwise returns ``None`` with
the reason, so the caller replays from the first input:

- its state file is there, and the HMAC over the row and the state matches, keyed by
  ``snapshot.key`` in the state folder (owner-only, beside the hand secrets): a snapshot
  edited in the database or on disk, or copied from another installation, is ignored, as is
  one that does not decode;
- its *fingerprint* is the current one: the fold's code (every ``nomicpoker/core`` source
  file), the snapshot format, and the table's configuration and ruleset; so upgrading
  nomicpoker, or a ruleset change, makes the next poll fold from the start once;
- the inputs it covers are still there, no more and no fewer (a restored backup, a deleted
  or inserted row), and the derived rows stored are exactly as many as it counted.

``audit`` never reads a snapshot: it replays from zero and compares, so a poll that resumed
from one is checked by the same audit as any other.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlmodel import Session

from nomicpoker.core.table import snapshot
from nomicpoker.core.table.fold_state import TableState
from nomicpoker.core.table.fold_types import Alarm, CurrentHand, TableConfig
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.storage.ledger import MODELS
from nomicpoker.shell.storage.plain_sql import plain, plain_count
from nomicpoker.shell.storage.store import dumps

KEY_FILE = secrets_store.KEY_FILE
CORE_DIR = Path(__file__).resolve().parents[2] / "core"


@dataclass(frozen=True)
class Covers:
    """What a snapshot's state has folded: the archive up to ``archive_id`` (``comments``
    revisions), ``hands`` hand starts (numbers up to ``hand_max``), ``events`` dealer events
    (row ids up to ``event_id``), ``rows`` derived rows stored; ``last_key`` is the order key of the
    last input (:func:`nomicpoker.core.fold.adjudicator.input_stream`)."""

    archive_id: int
    comments: int
    hand_max: int
    hands: int
    event_id: int
    events: int
    rows: int
    last_key: tuple[int, ...]


@dataclass(frozen=True)
class Loaded:
    """A verified snapshot, and whether inputs arrived after it."""

    covers: Covers
    current: CurrentHand | None
    data_text: str
    sealed: tuple[str, ...]
    new_comments: bool
    new_hands: bool
    new_events: bool
    #: a SCORE request the last run left unanswered (read with ``sealed``, so an idle poll
    #: parses the state once, not again to ask this)
    score_pending: bool = False

    @property
    def anything_new(self) -> bool:
        return self.new_comments or self.new_hands or self.new_events

    def state_data(self) -> dict[str, Any]:
        return json.loads(self.data_text)


def _key(state: Path) -> bytes:
    """The installation's key (:func:`nomicpoker.shell.storage.secrets_store.installation_key`)."""
    return secrets_store.installation_key(state)


@lru_cache(maxsize=1)
def _code_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(CORE_DIR.rglob("*.py")):  # every package of the core, by its place in it
        h.update(path.relative_to(CORE_DIR).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def fingerprint(cfg: TableConfig) -> str:
    """What a snapshot is only valid for: this fold's code and format, this configuration."""
    return hashlib.sha256(dumps([
        snapshot.FORMAT, _code_digest(), cfg.ruleset.content_hash, cfg.name, list(cfg.players), cfg.money,
        cfg.dealer, cfg.ruleset_name, cfg.issue_decks, cfg.forum_roller, cfg.deadline_hours,
    ]).encode()).hexdigest()


def _mac(key: bytes, table: str, fp: str, covers: str, current: str, state: str) -> str:
    m = hmac.new(key, digestmod=hashlib.sha256)
    for part in (table, fp, covers, current, state):
        m.update(len(part.encode()).to_bytes(8, "big"))
        m.update(part.encode())
    return m.hexdigest()


def _counts(session: Session, table: str, archive_id: int, hand_max: int, event_id: int) -> tuple[int, ...]:
    """In one query: revisions up to ``archive_id`` and the last position; hand starts up to
    ``hand_max`` and the last number; events up to ``event_id`` and the last id; derived rows."""
    derived = " + ".join(f"(SELECT COUNT(*) FROM {m.__tablename__} WHERE table_name = :t)"
                         for m in MODELS.values())
    row = plain(
        session,
        "SELECT (SELECT COUNT(*) FROM np_comment WHERE table_name = :t AND id <= :a),"
        " (SELECT COALESCE(MAX(id), 0) FROM np_comment WHERE table_name = :t),"
        " (SELECT COUNT(*) FROM np_hand WHERE table_name = :t AND number <= :h),"
        " (SELECT COALESCE(MAX(number), 0) FROM np_hand WHERE table_name = :t),"
        " (SELECT COUNT(*) FROM np_dealer_event WHERE table_name = :t AND id <= :e),"
        " (SELECT COALESCE(MAX(id), 0) FROM np_dealer_event WHERE table_name = :t),"
        f" ({derived})", {"t": table, "a": archive_id, "h": hand_max, "e": event_id})[0]
    return tuple(int(x) for x in row)


def _current_out(cur: CurrentHand | None) -> str:
    return dumps(asdict(cur) if cur is not None else None)


def _current_in(text_: str) -> CurrentHand | None:
    d = json.loads(text_)
    if d is None:
        return None
    d["waiting"] = tuple(d["waiting"])
    d["draw_clock"] = tuple(tuple(x) for x in d["draw_clock"])
    d["alarms"] = tuple(Alarm(**a) for a in d.get("alarms", ()))
    return CurrentHand(**d)


def state_path(state: Path, table: str, mac: str) -> Path:
    """The file holding the state of the snapshot whose MAC is ``mac``."""
    if len(mac) != 64 or any(ch not in "0123456789abcdef" for ch in mac):
        raise ValueError("not a snapshot MAC")
    return secrets_store.snapshot_dir(state, table) / f"{mac}.json"


def _read_state(state: Path, table: str, mac: str) -> str | None:
    try:
        return state_path(state, table, mac).read_text("utf-8")
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _prune(state: Path, table: str, keep: str) -> None:
    """Remove the state files of snapshots that are not the stored one (replaced, or never
    committed); a folder this process cannot change is left as it is."""
    folder = secrets_store.snapshot_dir(state, table)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name != f"{keep}.json":
            try:
                os.unlink(folder / name)
            except OSError:
                pass


_ROW = "SELECT fingerprint, covers, current, mac FROM np_snapshot WHERE table_name = :t"


@dataclass(frozen=True)
class _Row:
    fingerprint: str
    covers: str
    current: str
    mac: str


def _row(session: Session, table: str) -> Any:
    """The table's ``np_snapshot`` row as plain columns (``fingerprint``, ``covers``,
    ``current``, ``mac``), or None. WHY not the ORM: the poll reads and writes it at every
    table it works on, and an ORM object and its flush cost ~1.5 ms of a table's poll (issue
    24); nothing else reads the row as an object
    (:class:`nomicpoker.shell.storage.store.SnapshotRow` is its schema)."""
    session.flush()  # a query through the ORM would autoflush first; so does this one
    rows = plain(session, _ROW, {"t": table})
    return _Row(*rows[0]) if rows else None


def load(session: Session, table: str, cfg: TableConfig, state: Path,
         prune: bool = False) -> tuple[Loaded | None, str]:
    """The table's snapshot if it can be trusted (see the module), else ``None``; and why not.

    ``prune``: also remove the table's other state files (replaced, or never committed). Only
    the caller that owns the table and writes its next snapshot may ask it (the poll, under the
    table's lock: :func:`nomicpoker.shell.cycle.replay.adjudicate`). WHY never a reader (``hand
    start``'s :mod:`~nomicpoker.shell.dealer.fold_now`): the row it reads is the committed one,
    and on a shared PostgreSQL ledger a poll may have written the file of its next snapshot
    without having committed the row yet; removing that file made the table's next poll replay
    from its first input (time, never a wrong answer)."""
    row = _row(session, table)
    if row is None:
        return None, "no snapshot"
    data_text = _read_state(state, table, row.mac)
    if data_text is None:
        return None, "snapshot state not in the secrets folder"
    if prune:
        _prune(state, table, row.mac)
    want = _mac(_key(state), table, row.fingerprint, row.covers, row.current, data_text)
    if not hmac.compare_digest(want, row.mac):
        return None, "snapshot signature does not match"
    if row.fingerprint != fingerprint(cfg):
        return None, "snapshot made by other code or for another configuration"
    try:
        c = json.loads(row.covers)
        covers = Covers(**{**c, "last_key": tuple(c["last_key"])})
        current = _current_in(row.current)
        data = json.loads(data_text)
        sealed = tuple(data.get("sealed", ()))
        score_pending = bool(data.get("score_pending"))
    except (ValueError, TypeError, KeyError) as exc:
        return None, f"snapshot does not decode: {exc!r}"
    n_comments, last_comment, n_hands, last_hand, n_events, last_event, n_rows = _counts(
        session, table, covers.archive_id, covers.hand_max, covers.event_id)
    if (n_comments, n_hands, n_events, n_rows) != (covers.comments, covers.hands, covers.events, covers.rows):
        return None, "the ledger is not the one the snapshot covers"
    return Loaded(covers, current, data_text, sealed, last_comment > covers.archive_id,
                  last_hand > covers.hand_max, last_event > covers.event_id, score_pending), ""


def state_text(data: Any) -> str:
    """The fold's state as JSON text, keeping the order of every mapping's keys (not
    :func:`~nomicpoker.shell.storage.store.dumps`, which sorts them).

    WHY: the fold's dicts remember the order things happened in, and some of it reaches the
    posts ("On vacation: carol (until Friday), bob (until Thursday)" names the players in the
    order they went). A resumed fold must have the order a replay from the first comment has,
    or ``audit`` finds the live post worded differently from its replay (found by the
    1,000-player tournament benchmark). The text is still a function of the state alone, so
    the same state is the same file and the same MAC."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def save(session: Session, table: str, cfg: TableConfig, state_dir: Path, fold_state: TableState,
         current: CurrentHand | None, last_key: tuple[int, ...], sealed: tuple[str, ...] = ()) -> None:
    """Store ``fold_state`` as the table's snapshot, covering every input in the ledger now
    (call it after storing the rows of a fold of all of them). A state that cannot be stored
    (:class:`~nomicpoker.core.table.snapshot.SnapshotError`) removes the old snapshot instead."""
    session.flush()  # the rows this fold stored are counted below
    try:
        data = state_text(snapshot.encode(fold_state, cfg, sealed))
    except snapshot.SnapshotError:
        plain_count(session, "DELETE FROM np_snapshot WHERE table_name = :t", {"t": table})
        return
    big = 2 ** 62
    n_comments, last_comment, n_hands, last_hand, n_events, last_event, n_rows = _counts(
        session, table, big, big, big)
    covers = dumps(asdict(Covers(last_comment, n_comments, last_hand, n_hands, last_event, n_events,
                                 n_rows, tuple(last_key))))
    current_text = _current_out(current)
    fp = fingerprint(cfg)
    mac = _mac(_key(state_dir), table, fp, covers, current_text, data)
    path = state_path(state_dir, table, mac)
    if _read_state(state_dir, table, mac) != data:
        secrets_store.write_private(state_dir, path, data, sync=False)
    values = {"t": table, "fp": fp, "covers": covers, "current": current_text, "mac": mac}
    if not plain_count(session, "UPDATE np_snapshot SET fingerprint = :fp, covers = :covers, current = :current, "
                                "state = '', mac = :mac WHERE table_name = :t", values):
        plain_count(session, "INSERT INTO np_snapshot (table_name, fingerprint, covers, current, state, mac) "
                             "VALUES (:t, :fp, :covers, :current, '', :mac)", values)
