"""Which tables moved (shell): a poll of many tables folds only those with new input.

A tournament of 1,000 players runs 112 tables at once, and a poll that lists, archives,
loads the snapshot of and sends for every one of them costs ~10 ms a table whether anything
happened there or not (issue 24: an idle poll of the whole tournament within 0.1 s CPU, a
poll with 100 new comments within 1 s). This room tells, with a few queries for all the
tables at once, which tables a poll must work on, and skips the rest:

- **The look** (:func:`look`): for each active table a *token*, a digest of everything its
  poll reads that can change: its ``np_table`` row; the last row id of each of its rows in the
  ledger (every table keyed by ``table_name``: the inputs, the derived rows, the published
  secrets), with the count where the database does not guard them; its snapshot row (id and
  MAC: the database drops the snapshot when any row it covers is edited or deleted in place,
  :func:`nomicpoker.shell.storage.store.snapshot_guards`); the threads it polls (its last two
  hands') with the forum's change mark of each (``Fingerprinted.marks``: a counter the local
  forum's triggers keep per thread); and the Dealer's inbox messages from its players (the
  only ones its poll can archive or answer, :mod:`~nomicpoker.shell.cycle.private_inbox`):
  the players seated there now, a tournament's moves counted (:func:`_seated`), not those it
  was created with.
  Plus one *common* digest of what any table's poll may read beyond its own rows: the list
  of tables (names, forums, active), the schema version, every other ledger table's size
  (the tournament's own tables aside: no poll reads them), this nomicpoker's code and the
  snapshot key. A table with outbox rows waiting (pending or held) always takes the poll.
- **The marks** (``<state>/poll_marks.json``): after the poll of a table, if its poll
  reported nothing new, resumed from its snapshot, sent nothing, and its token did not move
  while it ran, the token is recorded with the table's next clock event (the earliest alarm
  of its snapshot: a deadline, a reminder, a draw timeout: the *due-time index*). A table
  whose poll did anything has no mark, so the next poll works on it again (to archive the
  Dealer's own comments, say) until a poll of it finds nothing.
- **The skip** (:func:`skip`): a table is skipped when its mark is there, its token is the
  recorded one, the common digest is the recorded one, and its next clock event is not due.
  Then its poll would archive nothing, fold nothing, record no deadline and send nothing:
  the report says "nothing new", as the poll would have.

WHY a proof and not a heuristic (as :mod:`~nomicpoker.shell.cycle.idle`, whose reasoning
this extends from the whole ledger to one table): a table skipped that should have been
polled is a missed deadline or an unanswered player, and nothing would ever say so; a table
polled for nothing costs only its poll. So every doubt polls: no marks file, another ledger,
another code or key, a forum that cannot give marks (every forum but the local one today), a
forum factory other than the real adapters (tests' fakes), anything that cannot be read.

Replay is still the audit: a skipped table is not folded at all, and a table that moved is
folded by the same code (:mod:`~nomicpoker.shell.cycle.replay`) as before; ``audit`` replays
every table from nothing and compares.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from sqlalchemy import text
from sqlmodel import Session

MARKS = "poll_marks.json"
FORMAT = 1
#: ledger tables no poll reads (the tournament director's own records): left out of the
#: common digest, so a ``tournament advance`` does not make every table's next poll work
NOT_READ_BY_POLL = frozenset({"np_tournament", "np_tournament_event"})
#: tables keyed by ``table_name`` whose rows the database guards (an edit or a deletion
#: drops the snapshot): their last id is enough; any other also gives its count
GUARDED_KEYED = frozenset({"np_ruleset", "np_hand", "np_comment", "np_dealer_event", "np_verdict", "np_entry",
                           "np_outbox", "np_dice", "np_deck", "np_draw", "np_reveal", "np_board",
                           "np_hand_end", "np_action"})


@dataclass(frozen=True)
class TableLook:
    """One active table as :func:`look` saw it."""

    name: str
    #: the digest of what its poll reads (None: it cannot be told without polling it)
    token: str | None
    #: the threads its poll lists (its last two hands', oldest first)
    threads: tuple[str, ...]
    #: outbox rows pending or held: the poll must send or check them
    waiting: bool


@dataclass(frozen=True)
class Look:
    """The active tables in poll order, and the common digest."""

    tables: dict[str, TableLook]
    common: str


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = repr(part).encode("utf-8")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _ledger_tables(session: Session) -> tuple[list[str], list[tuple[str, bool]]]:
    """The ledger's tables keyed by ``table_name`` (but the snapshot's), and the others (with
    whether they have an ``id`` column), from the database's own catalogue."""
    from sqlalchemy import inspect

    insp = inspect(session.connection())
    keyed, other = [], []
    for name in sorted(insp.get_table_names()):
        if name in NOT_READ_BY_POLL or name in ("np_snapshot", "np_table"):
            continue
        columns = {c["name"] for c in insp.get_columns(name)}
        if "table_name" in columns:
            keyed.append(name)
        else:
            other.append((name, "id" in columns))
    return keyed, other


#: the catalogue, per database URL, for the life of the process (the schema of a running
#: ledger changes only by a migration, which changes ``alembic_version``: in the common digest)
_CATALOGUE: dict[str, tuple[list[str], list[tuple[str, bool]]]] = {}


def _catalogue(session: Session) -> tuple[str, list[str], list[tuple[str, bool]]]:
    u = session.get_bind().url
    # which database, as text that is always valid (a path that is not UTF-8 keeps its
    # surrogate escapes in repr; rendering the URL would fail on them)
    url = repr((u.drivername, u.host, u.port, u.database))
    if url not in _CATALOGUE:
        _CATALOGUE[url] = _ledger_tables(session)
    return (url, *_CATALOGUE[url])


def _table_rows(session: Session, keyed: list[str], active_only: bool) -> dict[str, Any]:
    """One row per table (in id order): the last id (and count) of each of its keyed rows,
    its snapshot's id and MAC, its outbox rows waiting, its last two hands' threads."""
    subqueries = []
    for n in keyed:
        count = "" if n in GUARDED_KEYED else f"|| ':' || (SELECT COUNT(*) FROM {_q(n)} x WHERE x.table_name = t.name)"
        subqueries.append(f"COALESCE((SELECT MAX(x.id) FROM {_q(n)} x WHERE x.table_name = t.name), 0) {count}")
    sql = (
        "SELECT t.name, "
        + "".join(f"{s} AS k{i}, " for i, s in enumerate(subqueries))
        + "(SELECT s.id || ':' || s.mac FROM np_snapshot s WHERE s.table_name = t.name) AS snap, "
        "(SELECT COUNT(*) FROM np_outbox o WHERE o.table_name = t.name AND o.status IN ('pending', 'held')) AS waiting, "
        "(SELECT h.thread FROM np_hand h WHERE h.table_name = t.name ORDER BY h.number DESC LIMIT 1) AS last, "
        "(SELECT h.thread FROM np_hand h WHERE h.table_name = t.name ORDER BY h.number DESC LIMIT 1 OFFSET 1) AS before "
        "FROM np_table t" + (" WHERE t.active = :yes" if active_only else "") + " ORDER BY t.id")
    params = {"yes": True} if active_only else {}
    return {r["name"]: r for r in session.connection().execute(text(sql), params).mappings().all()}


def _ledger_part(table: Mapping[str, Any], row: Mapping[str, Any], keyed: int) -> tuple:
    return (sorted(table.items()), [row[f"k{i}"] for i in range(keyed)], row["snap"])


def ledger_tokens(session: Session) -> dict[str, str]:
    """For every table (active or not), in id order, a digest of its rows in the ledger: its
    ``np_table`` row, the last id (and count) of each of its rows, its snapshot's id and MAC.
    Equal digests mean the table's rows are the same (what the auditors' site shows of it,
    :mod:`nomicpoker.shell.audit.site`); the database drops the snapshot on any edit in place."""
    _, keyed, _ = _catalogue(session)
    all_tables = session.connection().execute(text("SELECT * FROM np_table ORDER BY id")).mappings().all()
    rows = _table_rows(session, keyed, active_only=False)
    return {r["name"]: _digest(*_ledger_part(r, rows[r["name"]], len(keyed))) for r in all_tables}


def look(session: Session, state: Path, opener: Callable[[str, dict], Any] | None) -> Look:
    """Look at the ledger (in ``session``'s transaction) and the tables' forums, for
    :func:`skip` and :func:`record`. ``opener(kind, config)`` opens a forum to read its marks
    (None: no forum is read, every token is None)."""
    from nomicpoker.shell.cycle import idle

    url, keyed, other = _catalogue(session)
    conn = session.connection()
    all_tables = conn.execute(text("SELECT * FROM np_table ORDER BY id")).mappings().all()
    version = conn.execute(text("SELECT version_num FROM alembic_version")).all() \
        if "alembic_version" in {n for n, _ in other} else []
    sizes = [(n, tuple(conn.execute(text(f"SELECT COUNT(*){', MAX(id)' if has_id else ''} FROM {_q(n)}")).one()))
             for n, has_id in other if n != "alembic_version"]
    common = _digest(url, idle.code_signature(), idle.key_signature(state), tuple(version), sizes,
                     [(r["id"], r["name"], r["active"], r["created"], r["forum_kind"], r["forum_config"])
                      for r in all_tables])
    rows = _table_rows(session, keyed, active_only=True)
    seated: dict[str, set[str]] | None = None  # read once, and only when an inbox has messages
    by_forum: dict[str, list[dict]] = {}
    for r in all_tables:
        if r["name"] in rows:
            by_forum.setdefault(json.dumps([r["forum_kind"], r["forum_config"]]), []).append(dict(r))
    out: dict[str, TableLook] = {}
    for key, members in by_forum.items():
        marks = _forum_marks(members, rows, opener)
        for r in members:
            row = rows[r["name"]]
            threads = tuple(dict.fromkeys(t for t in (row["before"], row["last"]) if t is not None))
            token = None
            if marks is not None:
                thread_marks, inbox_mark, inbox = marks
                if inbox and seated is None:
                    seated = _seated(conn, all_tables)
                players = seated[r["name"]] if seated is not None else set()
                mine = tuple(m for m, sender in inbox if sender.lower() in players)
                token = _digest(*_ledger_part(r, row, len(keyed)),
                                [(t, thread_marks.get(t)) for t in threads], inbox_mark, mine)
            out[r["name"]] = TableLook(r["name"], token, threads, bool(row["waiting"]))
    ordered = {r["name"]: out[r["name"]] for r in all_tables if r["name"] in out}
    return Look(ordered, common)


def _seated(conn: Any, all_tables: Iterable[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Who sits at each table now (lower case): the players it was created with, as a
    tournament's moves changed them (``move_in`` / ``move_out``, core/table/roster), read for
    every table in one query. The Dealer's inbox messages that can reach a table are those of
    these players (:func:`~nomicpoker.shell.cycle.private_inbox.archive_private` reads the same
    roster): a player moved to a table must make it take the poll when he writes to the Dealer,
    and no longer the table he left.

    WHY a set and not :func:`~nomicpoker.shell.storage.ledger.roster`: only membership counts
    here, and a ``move_in`` adds its player to the roster it names (the fold refuses any other),
    so the set needs neither the events' JSON nor a query per table; and :func:`look` reads it
    only when a forum's inbox holds messages. Its cost grows with the ledger's dealer events
    (one scan): 2.7 ms CPU at 2,000, 7.3 ms at 30,000, with 1,890 moves over 112 tables
    (docs/benchmarks.md, "Tournaments"; the idle poll's target is 100 ms)."""
    from nomicpoker.core.table.roster import MOVE_IN, ROSTER_KINDS

    seated = {r["name"]: {p.lower() for p in json.loads(r["players"] or "[]")} for r in all_tables}
    kinds = sorted(ROSTER_KINDS)
    marks = ", ".join(f":k{i}" for i in range(len(kinds)))
    for name, kind, player in conn.execute(
            text(f"SELECT table_name, kind, player FROM np_dealer_event WHERE kind IN ({marks}) ORDER BY id"),
            {f"k{i}": k for i, k in enumerate(kinds)}):
        players = seated.get(name)
        if players is None:
            continue
        if kind == MOVE_IN:
            players.add(player.lower())
        else:
            players.discard(player.lower())
    return seated


def _forum_marks(members: list[dict], rows: Mapping[str, Any], opener: Callable[[str, dict], Any] | None):
    """One forum's marks for the threads its tables poll, or None when it cannot give them."""
    if opener is None:
        return None
    from nomicpoker.shell.cycle.forums import declared_abilities

    first = members[0]
    try:
        config = json.loads(first["forum_config"] or "null") or {}
        if not isinstance(config, dict) or not declared_abilities(first["forum_kind"], config).fingerprint:
            return None
        threads = [t for r in members for t in (rows[r["name"]]["before"], rows[r["name"]]["last"]) if t is not None]
        return opener(first["forum_kind"], config).marks(threads)
    except Exception:  # noqa: BLE001 - a forum that cannot say: its tables take the poll
        return None


# --------------------------------------------------------------------------- the marks file


def _path(state: Path) -> Path:
    return state / MARKS


def load(state: Path) -> dict[str, Any]:
    """The recorded marks ({} when there are none or they cannot be read)."""
    try:
        data = json.loads(_path(state).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("tables"), dict):
        return {}
    return data


def skip(marks: Mapping[str, Any], seen: Look, name: str, now: datetime) -> bool:
    """Whether ``name``'s poll would do nothing (see the module docstring)."""
    t = seen.tables.get(name)
    if t is None or t.token is None or t.waiting or marks.get("common") != seen.common:
        return False
    mark = marks["tables"].get(name)
    if not isinstance(mark, dict) or mark.get("token") != t.token:
        return False
    due = mark.get("next_due")
    return due is None or datetime.fromisoformat(due) > now


def next_due(session: Session, name: str) -> str | None:
    """The earliest alarm of ``name``'s snapshot (its current hand's deadlines, reminders and
    timeouts), as the idle check reads it; "now" when the snapshot is missing (the next poll
    must replay it)."""
    row = session.connection().execute(text("SELECT current FROM np_snapshot WHERE table_name = :t"),
                                       {"t": name}).first()
    if row is None:
        return datetime.min.replace(tzinfo=timezone.utc).isoformat()
    alarms = [datetime.fromisoformat(a["at"]) for a in (json.loads(row[0]) or {}).get("alarms", ())]
    return min(alarms).astimezone(timezone.utc).isoformat() if alarms else None


def record(state: Path, marks: Mapping[str, Any], before: Look, after: Look,
           quiet: Iterable[str], skipped: Iterable[str], due: Mapping[str, str | None]) -> None:
    """Write the marks after a poll: the skipped tables keep theirs; a polled table in
    ``quiet`` (its poll found nothing and did nothing) whose token did not move gets one with
    its next clock event ``due[name]``; every other table has none. If the common digest
    moved while the poll ran, no table keeps a mark. Never raises (the poll is done)."""
    try:
        tables: dict[str, Any] = {}
        if before.common == after.common:
            kept = marks.get("tables", {}) if marks.get("common") == before.common else {}
            for name in skipped:
                if name in kept and name in after.tables and after.tables[name].token == before.tables[name].token:
                    tables[name] = kept[name]
            for name in quiet:
                b, a = before.tables.get(name), after.tables.get(name)
                if b is not None and a is not None and b.token is not None and b.token == a.token \
                        and not a.waiting and name in due:
                    tables[name] = {"token": a.token, "next_due": due[name]}
        path = _path(state)
        tmp = path.with_name(MARKS + ".tmp")
        tmp.write_text(json.dumps({"format": FORMAT, "common": after.common, "tables": tables}, sort_keys=True),
                       "utf-8")
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - no marks: the next poll polls every table
        forget(state)


def forget(state: Path) -> None:
    try:
        _path(state).unlink()
    except OSError:
        pass
