"""The idle check (shell): answer ``nomicpoker poll`` with nothing new without the full poll.

A cron job polls every few minutes and almost every run finds nothing new; the full poll
costs what importing the database layer, the fold and the CLI costs (about 0.9 s CPU), most
of it before the first query. This room lets the console entry point (``nomicpoker/__main__``)
answer such a run with the standard ``sqlite3`` module alone, and only when it can prove the
full poll would have done nothing:

- **The marker.** A full poll of every active table (no ``--table``, no ``--dry-run``) that
  changed nothing records what it saw, after it is done, in ``<state>/idle.json``
  (:func:`settle`): a digest of the ledger (:func:`ledger_digest`), a digest of what the poll
  reads on each table's forum (``Fingerprinted.marks``: the hand threads it lists and the
  Dealer's private inbox), the tables and threads it polled, the earliest moment a clock
  event can become due (the alarms of each table's snapshot: deadlines, reminders, draw
  timeouts), the code that ran, and the snapshot key. Both digests are taken before the poll
  starts and again after it ends, under the run lock: the marker is written only if they
  did not move, every table resumed from its snapshot and reported "nothing new", nothing
  was posted, protested or rebuilt, so the marker describes exactly the state the poll read.
  Any other run removes it.
- **The check** (:func:`check`), under the same run lock: the same ledger, code and key, the
  ledger digest unchanged, no clock event due now, the forum digest unchanged. Then a full
  poll would archive nothing (the listings are those it archived), fold nothing new, record
  no deadline, send nothing (no outbox row is pending or held) and rebuild no site, so the
  answer is its report: "nothing new" for each table.

The ledger digest covers every table's row count and last row id, the whole of ``np_table``
(a table created, paused, resumed or set), ``np_snapshot`` (the fold's state and its alarms;
the database drops a table's snapshot when any row it covers is edited in place, see
:func:`nomicpoker.shell.storage.store.snapshot_guards`), the outbox rows per status, the schema
version and SQLite's own schema counter. Everything else defers to the full poll: no marker,
another ledger or state folder, a newer nomicpoker (any source file changed), a forum that
cannot be fingerprinted (every forum but the local one today), a non-SQLite ledger, a file
that cannot be read, another run holding the lock, crash-test points switched on.

WHY a proof and not a heuristic: a skipped poll that should have worked is a missed deadline
or an unanswered player, and nothing would ever say so. A wrong "defer" costs only the full
poll. So every doubt defers, and the check is written to be cheap, not clever.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

MARKER = "idle.json"
FORMAT = 1
#: the full poll's crash points (:mod:`nomicpoker.shell.faults`) must all be reached
FAULT_VARIABLES = ("NOMICPOKER_CRASH_AT", "NOMICPOKER_CRASH_TRACE")
#: why the last check in this process deferred to the full poll ("" when it did not run), for
#: the CLI's ``--verbose`` line
LAST = ""


class _Defer(Exception):
    """The full poll must run; the message says why (logged with ``--verbose``)."""


@dataclass(frozen=True)
class Polled:
    """One active table as the idle poll saw it: its forum and the threads it listed."""

    name: str
    kind: str
    config: dict[str, Any]
    threads: tuple[str, ...]


@dataclass(frozen=True)
class Seen:
    """What one look at the ledger and the forums found (see the module docstring)."""

    db: str
    code: str
    key: str
    ledger: str
    forum: str
    tables: tuple[Polled, ...]
    next_due: str | None


# --------------------------------------------------------------------------- digests


def _put(h: Any, *parts: object) -> None:
    data = repr(parts).encode("utf-8")
    h.update(len(data).to_bytes(8, "big"))
    h.update(data)


@lru_cache(maxsize=1)
def code_signature() -> str:
    """Which nomicpoker is running: its version, Python's, and every source file's name, size
    and modification time (a new release or an edited file defers once: the full poll then
    decides, e.g. a fold whose code changed replays from the start). Once per process: the
    code a process runs is the code it imported."""
    import nomicpoker
    from nomicpoker.shell.cycle.forums import adapters_folder

    h = hashlib.sha256()
    _put(h, nomicpoker.__version__, sys.version, FORMAT)
    for root in sorted({Path(nomicpoker.__file__).parent, adapters_folder()}):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".py", ".toml", ".txt", ".md")):
                    st = os.stat(os.path.join(dirpath, name))
                    _put(h, os.path.relpath(os.path.join(dirpath, name), root), st.st_size, st.st_mtime_ns)
    return h.hexdigest()


def key_signature(state: Path) -> str:
    """The snapshot key (a changed or missing key makes the full poll distrust every snapshot)."""
    try:
        return hashlib.sha256((state / "snapshot.key").read_bytes()).hexdigest()
    except FileNotFoundError:
        return "missing"


def connect(db: Path) -> sqlite3.Connection:
    """The ledger, read through the standard module (never created: ``mode=rw``)."""
    # as_uri() percent-encodes '#', '?' and '%' in the path, which a bare "file:" URI would
    # read as a fragment, a query or an escape (and then open or create another file)
    conn = sqlite3.connect(f"{Path(db).absolute().as_uri()}?mode=rw", uri=True, timeout=5,
                           isolation_level=None)
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


#: tables read whole: small, and changed in place by commands (np_table) or by the poll itself
FULL = ("np_table", "np_snapshot", "alembic_version", "sqlite_sequence")


def ledger_digest(conn: sqlite3.Connection) -> str:
    """A digest of what decides whether a poll has work (see the module docstring); one read
    transaction, so it is one state of the ledger."""
    h = hashlib.sha256()
    conn.execute("BEGIN")
    try:
        _put(h, conn.execute("PRAGMA schema_version").fetchone())
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for name in names:
            _put(h, name, conn.execute(f"SELECT COUNT(*), MAX(rowid) FROM {_q(name)}").fetchone())
        for name in FULL:
            if name in names:
                for row in conn.execute(f"SELECT * FROM {_q(name)} ORDER BY rowid"):
                    _put(h, name, row)
        if "np_outbox" in names:
            _put(h, conn.execute("SELECT status, COUNT(*) FROM np_outbox GROUP BY status ORDER BY status").fetchall())
    finally:
        conn.execute("COMMIT")
    return h.hexdigest()


def polled_tables(conn: sqlite3.Connection) -> tuple[tuple[Polled, ...], str | None]:
    """The active tables in poll order with the threads a poll lists (the last two hands'
    threads, as :func:`nomicpoker.shell.cycle.archive.threads_to_poll`), and the earliest alarm of
    their snapshots. Raises :class:`_Defer` for a table without a usable snapshot."""
    out: list[Polled] = []
    due: list[datetime] = []
    rows = conn.execute("SELECT name, forum_kind, forum_config FROM np_table WHERE active = 1 ORDER BY id").fetchall()
    for name, kind, config_text in rows:
        config = json.loads(config_text or "null") or {}
        if not isinstance(config, dict):
            raise _Defer(f"table {name}: forum config is not an object")
        recent = [r[0] for r in conn.execute(
            "SELECT thread FROM np_hand WHERE table_name = ? ORDER BY number DESC LIMIT 2", (name,))][::-1]
        threads = tuple(dict.fromkeys(recent))
        # Only the current hand (its alarms). The state is not parsed (137 KB at 150 hands): a
        # SCORE request left pending makes the full poll fold again, and whatever that stores
        # moves the ledger digest, so such a run is never recorded as idle.
        snap = conn.execute("SELECT current FROM np_snapshot WHERE table_name = ?", (name,)).fetchone()
        if snap is None:
            raise _Defer(f"table {name} has no snapshot")
        current = json.loads(snap[0])
        for alarm in (current or {}).get("alarms", ()):
            due.append(datetime.fromisoformat(alarm["at"]))
        out.append(Polled(name, kind, config, threads))
    first = min(due).astimezone(timezone.utc).isoformat() if due else None
    return tuple(out), first


def forum_digest(state: Path, tables: Sequence[Polled]) -> str:
    """A digest of what the poll reads on each table's forum (``Fingerprinted.marks``: the
    forums that declare ``fingerprint`` give both; :mod:`nomicpoker.shell.cycle.moved` skips
    one table on the same marks).

    Raises :class:`_Defer` where a forum cannot say without the full poll (its abilities do
    not declare ``fingerprint``); called by :func:`check` only once the ledger digest shows
    the tables are those a full poll fingerprinted, so it never opens a network forum."""
    from nomicpoker.shell.cycle.forums import declared_abilities, open_forum

    h = hashlib.sha256()
    forums: dict[str, tuple[Polled, list[str]]] = {}  # one read per forum file, not per table
    for t in tables:
        if not declared_abilities(t.kind, t.config).fingerprint:
            raise _Defer(f"table {t.name}: its forum cannot be checked without polling it")
        _put(h, t.name, t.kind, t.threads)
        first, threads = forums.setdefault(json.dumps([t.kind, t.config], sort_keys=True), (t, []))
        threads += [x for x in t.threads if x not in threads]
    for key, (first, threads) in forums.items():
        # the change marks, not the rows: as strong (a counter the forum's triggers move on
        # any edit or deletion, each thread's comment count and last id, the inbox's messages
        # by id and sender) and a few indexed reads per thread, where the rows were every
        # comment of every table's last two hands (a tournament's broken tables included)
        _put(h, key, open_forum(first.kind, first.config, state).marks(threads))
    return h.hexdigest()


def observe(state: Path, db: Path) -> Seen:
    """Look at the ledger and the forums now (:class:`_Defer` when that cannot be done)."""
    conn = connect(db)
    try:
        digest = ledger_digest(conn)
        tables, next_due = polled_tables(conn)
    finally:
        conn.close()
    return Seen(str(db), code_signature(), key_signature(state), digest, forum_digest(state, tables),
                tables, next_due)


# --------------------------------------------------------------------------- the full poll's side


def marker_path(state: Path) -> Path:
    return state / MARKER


def forget(state: Path) -> None:
    try:
        marker_path(state).unlink()
    except FileNotFoundError:
        pass


@dataclass
class Watch:
    """What a full poll saw before it started (``seen`` None: no marker will be written; why)."""

    state: Path
    db: Path | None
    seen: Seen | None
    why: str = ""


def watch(state: Path, db: Path | None) -> Watch:
    """Before a full poll of every active table (under the run lock): look, for :func:`settle`."""
    if db is None:
        return Watch(state, None, None, "the ledger is not an SQLite file")
    try:
        return Watch(state, db, observe(state, db))
    except _Defer as exc:
        return Watch(state, db, None, str(exc))
    except Exception as exc:  # noqa: BLE001 - a forum or ledger that cannot be read: no marker
        return Watch(state, db, None, f"cannot look: {type(exc).__name__}: {exc}")


def _idle_run(report: Any) -> str:
    """Why ``report`` (a :class:`nomicpoker.shell.jobs.poll.PollReport`) is not an idle run; ''."""
    if report.busy:
        return "another run held the lock"
    if report.site:
        return f"the site was {report.site.split(' ')[0].lower()}"
    for t in report.tables:
        if t.line() != f"{t.table}: nothing new" or t.queued or t.protests or t.would_post or t.error:
            return f"table {t.table} had work"
        if t.folded not in ("resumed", "unchanged"):  # unchanged: skipped, nothing new (shell/cycle/moved.py)
            return f"table {t.table} did not resume from its snapshot ({t.folded})"
    return ""


def settle(w: Watch, report: Any) -> str:
    """After the full poll: write the marker if the run was idle and nothing moved while it
    ran (see the module docstring), else remove it. Returns why not ('' when written); never
    raises (the poll's work is done and stored either way)."""
    try:
        why = w.why or _idle_run(report)
        if not why:
            assert w.seen is not None and w.db is not None
            after = observe(w.state, w.db)
            listed = {t.table: tuple(t.threads) for t in report.tables}
            if after != w.seen:
                why = "the ledger or a forum changed while the poll ran"
            elif listed != {t.name: t.threads for t in after.tables}:
                why = "the threads polled are not those the check would read"
        if why:
            forget(w.state)
            return why
        seen = w.seen
        assert seen is not None
        record = {"format": FORMAT, "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  **asdict(seen)}
        path = marker_path(w.state)
        tmp = path.with_name(MARKER + ".tmp")
        tmp.write_text(json.dumps(record, sort_keys=True), "utf-8")
        os.replace(tmp, path)
        return ""
    except Exception as exc:  # noqa: BLE001
        try:
            forget(w.state)
        except OSError:
            pass
        return f"cannot record: {type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- the check


def _load(state: Path) -> dict[str, Any]:
    try:
        record = json.loads(marker_path(state).read_text("utf-8"))
    except FileNotFoundError:
        raise _Defer("no idle full poll recorded yet") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise _Defer("the idle record is of another format")
    return record


def check(state: Path, db: Path, table: str | None = None,
          now: datetime | None = None) -> tuple[list[str] | None, str]:
    """The tables a full poll would report "nothing new" for (all active ones, or ``table``),
    or None, and why (for ``--verbose``). Call it holding the run lock."""
    try:
        if any(os.environ.get(v) is not None for v in FAULT_VARIABLES):
            raise _Defer("crash points are switched on")
        record = _load(state)
        if record.get("db") != str(db):
            raise _Defer("the idle record is of another ledger")
        if record.get("key") != key_signature(state):
            raise _Defer("the snapshot key changed")
        if record.get("code") != code_signature():
            raise _Defer("nomicpoker changed since the idle record")
        conn = connect(db)
        try:
            if ledger_digest(conn) != record.get("ledger"):
                raise _Defer("the ledger changed since the last full poll")
        finally:
            conn.close()
        moment = now or datetime.now(timezone.utc)
        due = record.get("next_due")
        if due is not None and datetime.fromisoformat(due) <= moment:
            raise _Defer(f"a clock event is due (at {due})")
        tables = tuple(Polled(t["name"], t["kind"], t["config"], tuple(t["threads"])) for t in record["tables"])
        if forum_digest(state, tables) != record.get("forum"):
            raise _Defer("a forum changed since the last full poll")
        names = [t.name for t in tables]
        if table is not None:
            if table not in names:
                raise _Defer(f"table {table} is not one the idle record covers")
            names = [table]
        return names, (f"nothing new since the full poll at {record.get('at')}"
                       + (f"; next clock event at {due}" if due else "; no clock event pending"))
    except _Defer as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - anything unusual: the full poll says what is wrong
        return None, f"{type(exc).__name__}: {exc}"



# --------------------------------------------------------------------------- the entry point's answer


def poll_params(state: Path, url: str, site: Path | None, table: str | None, settings: Any) -> dict[str, Any]:
    """What the full ``poll`` command read from its command line, resolved (the state and the
    log file absolute, the ledger URL and the site as the poll uses them), for
    :mod:`nomicpoker.shell.cycle.cli_memo`: :func:`answer` acts on exactly this."""
    return {"state": str(state), "db_url": url, "site": None if site is None else str(site), "table": table,
            "quiet": settings.quiet, "level": settings.level, "fmt": settings.fmt,
            "log_file": None if settings.log_file is None else os.path.abspath(settings.log_file)}


def answer(params: dict[str, Any]) -> bool:
    """Answer an idle ``poll`` whose options the CLI read before (:func:`poll_params`), as
    the full poll would (the same lines through the same logging setup, exit 0); False when
    the CLI must run (the reason is kept in :data:`LAST` for ``--verbose``)."""
    global LAST
    import fcntl

    from nomicpoker.shell import logs
    from nomicpoker.shell.storage import paths

    if os.environ.get("NOMICPOKER_BUSY_TIMEOUT") is not None:
        LAST = "NOMICPOKER_BUSY_TIMEOUT is set (the full poll reads and checks it)"
        return False
    st = Path(params["state"])
    path = paths.sqlite_url_path(params["db_url"])
    if path is None or str(path).startswith("file:") or not st.is_dir():
        LAST = "the ledger is not an SQLite file" if st.is_dir() else "no state directory"
        return False
    db = Path(os.path.abspath(path))
    site = None if params.get("site") is None else Path(params["site"])
    with paths.private_files(st):  # as the full poll: umask 077, the state made owner-only
        if not (db.is_file() and os.access(db, os.W_OK) and os.access(st, os.W_OK)):
            LAST = "the ledger or the state directory is not writable here"
            return False
        held: list[int] = []
        try:
            for lock in (paths.lock_path(st), paths.ledger_lock_path(db)):
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
                held.append(fd)
                try:  # the kernel lock the full poll's FileLock takes on the same file
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    LAST = "another run holds the lock"
                    return False
            names, why = check(st, db, params.get("table"))
            LAST = why
            if names is None:
                return False
            if site is not None and not (site / "index.html").exists():
                LAST = f"the site {site} is missing"
                return False
            log_file = params.get("log_file")
            settings = logs.Settings(level=params["level"], fmt=params["fmt"], quiet=bool(params["quiet"]),
                                     log_file=Path(log_file) if log_file else None)
            try:
                logs.configure(settings=settings)
            except (OSError, ValueError):
                return False  # the CLI says what is wrong with the log file
            log = logs.get("cli")
            log.debug("idle check: %s: the full poll is skipped", why)
            if not names:
                log.info("no active tables: nothing to do")
            for name in names:
                log.info("%s", f"{name}: nothing new")
            return True
        finally:
            for fd in held:
                os.close(fd)  # releases the lock
