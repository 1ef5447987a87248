"""The ledger's tables (SQLModel) and how to open the database (shell).

WHY these tables and not one blob: auditors read them. The split follows what is a fact
from outside and what is derived:

- **Inputs** (never rewritten by a replay): ``np_table`` (configuration), ``np_ruleset`` (the
  ruleset text each table runs or ran under, pinned by content hash), ``np_hand`` (the
  hand-start record: seats, Money, button, ante, commitments, the ruleset it is played under),
  ``np_comment`` (the raw comment archive, one row per revision, never updated in place),
  ``np_dealer_event`` (timeouts with their time, rule amendments).
- **Derived** (a deterministic fold over the inputs, rebuilt by ``nomicpoker audit``):
  ``np_verdict``, ``np_entry`` (the GNDT change log), ``np_outbox`` (dealer comments and
  private messages; ``status``/``remote_id``/``sent_at`` are the only shell-written fields),
  ``np_dice``, ``np_deck``, ``np_draw``, ``np_reveal``, ``np_board``, ``np_hand_end``,
  ``np_action`` (every step of a hand with the chips it moved).

Portability: only portable column types (integers, text, booleans); JSON is stored as text;
times are ISO-8601 UTC strings. SQLite gets WAL, a busy timeout and ``BEGIN IMMEDIATE`` for
every transaction (so two writers never deadlock half-way); other databases get none of that.
"""

from __future__ import annotations

import errno
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from sqlalchemy import Column, MetaData, String, Table, UniqueConstraint, event, inspect, select
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from nomicpoker.shell.storage.db_urls import PG_INSTALL, ledger_url, url_problem
from sqlmodel import Field, Session, SQLModel, create_engine

from nomicpoker.core.errors import CodedError


class StoreError(CodedError):
    """The ledger database cannot be opened or is inconsistent. ``code``: ``open``,
    ``no_table``, ``exists``, ``inconsistent``, ``no_ledger``, ``old_schema``,
    ``new_schema``, ``disk_full``, ``io_error``, ``locked``, ``read_only``, ``damaged``, ``conflict``."""


def dumps(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, so equal values are equal text (audit compares
    text)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


# --------------------------------------------------------------------------- inputs


class TableRow(SQLModel, table=True):
    __tablename__ = "np_table"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    ruleset: str  # bundled name or a path
    ruleset_hash: str
    forum_kind: str
    forum_config: str = "{}"  # JSON, never credentials
    dealer: str = "Dealer"
    players: str  # JSON list, GNDT order
    money: int  # starting Money of every player
    button: str  # the button of the first hand
    issue_decks: bool = True
    deadline_hours: Optional[int] = None
    #: JSON: the table's settings for play over days at creation (core/table/table_settings.py);
    #: later changes are ``settings`` dealer events
    settings: str = "{}"
    abilities: str = "{}"  # JSON Abilities at creation (schema 0012); replay reads it, never an adapter
    active: bool = True
    created: str


class RulesetRow(SQLModel, table=True):
    """A ruleset pinned to a table: the TOML and the rule text exactly as they were when the
    table was created or an amendment applied, and their content hash.

    WHY stored and not reloaded from the file each run: a new nomicpoker release (a corrected
    bundled ruleset) or an edit of a Dealer's copy would otherwise change the rules of a game
    in progress, or stop it. Hands name the hash they are played under (``np_hand``)."""

    __tablename__ = "np_ruleset"
    __table_args__ = (UniqueConstraint("table_name", "content_hash"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    content_hash: str
    name: str  # the ruleset's own name (its TOML ``name``)
    toml: str  # ruleset.toml, verbatim
    text: str  # the rule text it cites, verbatim
    origin: str  # where it was read from: a bundled name or a path
    pinned_at: str


class HandRow(SQLModel, table=True):
    """The hand-start record (an input: what the Dealer decided when the hand began)."""

    __tablename__ = "np_hand"
    __table_args__ = (UniqueConstraint("table_name", "number"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    number: int
    thread: str
    ruleset_hash: str  # the pinned ruleset (np_ruleset) the hand is played under
    ruleset: str = ""  # its name ("" in hands recorded before rulesets were pinned)
    button: str
    ante: int = 0
    blinds: str = "[]"  # JSON list
    seats: str  # JSON [[name, money], ...] in GNDT order
    after: int = 0  # archive position (np_comment.id) the hand starts after
    started_at: str
    commitments: str  # JSON {deck, dice, decks}
    #: JSON: the players' entropy and beacon round mixed into the deal (core/fairness/entropy.py's
    #: ``Entropy.as_json``), or "" for a hand dealt from the committed secrets alone (0010)
    entropy: str = ""
    positions: str = ""  # JSON: a tournament hand's button/blind seats and blind posters (0013); "": clockwise


class CommentRow(SQLModel, table=True):
    """One revision of one forum comment. An edit or a deletion is a new row."""

    __tablename__ = "np_comment"
    __table_args__ = (UniqueConstraint("table_name", "thread", "forum_id", "revision"),)
    id: Optional[int] = Field(default=None, primary_key=True)  # the archive position
    table_name: str = Field(index=True)
    thread: str
    forum_id: str
    revision: int
    author: str
    created: str
    edited: Optional[str] = None
    body: str
    body_format: str = "markdown"
    sha256: str
    deleted: bool = False
    dice: str = "[]"  # JSON list of the forum roller's results
    permalink: str = ""
    fetched_at: str  # shell clock: when the archive saw it (never used by the fold)


class DealerEventRow(SQLModel, table=True):
    """A dealer event that is not a comment (a deadline expiry, a rule amendment), recorded
    with its time so the replay is deterministic."""

    __tablename__ = "np_dealer_event"
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    hand: int
    after: int  # archive position it happened after
    kind: str  # timeout | draw_timeout | stalled | amend | reminder | settings | pause | resume | void | fold | seat | unseat | score | internal_error | move_out | move_in
    player: str
    at: str
    ruleset_hash: str = ""  # amend: the pinned ruleset that applies from the next hand
    note: str = ""  # amend: the Dealer's note (which proposal); a control: the Dealer's reason
    data: str = "{}"  # JSON: a reminder's number, the settings changed


# --------------------------------------------------------------------------- derived


class _Derived(SQLModel):
    """The columns every derived row has: its table and its place (``seq``) in the fold's
    output, by which audit lines live and replayed rows up."""

    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    seq: int


class VerdictRow(_Derived, table=True):
    __tablename__ = "np_verdict"
    hand: Optional[int] = None
    thread: str
    forum_id: str
    revision: int
    author: str
    status: str  # accepted | rejected | chat | noted | ignored
    code: str = ""
    message: str = ""
    citation: str = ""
    canonical: str = ""


class EntryRow(_Derived, table=True):
    """One change of one GNDT cell: the change log."""

    __tablename__ = "np_entry"
    hand: Optional[int] = None
    player: str
    column: str  # Money | Turn | Pot
    old: str
    new: str
    cause: str


class OutboxRow(_Derived, table=True):
    __tablename__ = "np_outbox"
    key: str = Field(index=True, unique=True)  # the reference tag key
    hand: Optional[int] = None
    kind: str  # comment | private
    thread: str = ""
    reply_to: Optional[str] = None
    recipient: str = ""
    subject: str = ""
    body: str
    status: str = "pending"  # pending | sent | held | parked   (shell; see shell/cycle/outbox.py)
    remote_id: Optional[str] = None  # (shell)
    sent_at: Optional[str] = None  # (shell)


class DiceRow(_Derived, table=True):
    __tablename__ = "np_dice"
    hand: int
    comment_id: str
    player: str
    index: int
    sides: int
    result: int
    source: str  # bot | forum


class DeckRow(_Derived, table=True):
    __tablename__ = "np_deck"
    hand: int
    player: str
    source: str  # issued | own
    checksum: str


class DrawRow(_Derived, table=True):
    __tablename__ = "np_draw"
    hand: int
    player: str
    comment_id: str
    positions: str  # JSON list
    checksum: str


class RevealRow(_Derived, table=True):
    __tablename__ = "np_reveal"
    hand: int
    player: str
    comment_id: str
    cards: str  # JSON list


class BoardRow(_Derived, table=True):
    __tablename__ = "np_board"
    hand: int
    street: str  # flop | turn | river
    cards: str  # JSON list


class HandEndRow(_Derived, table=True):
    """A hand's end: its result and the published secrets (only ever written after the end)."""

    __tablename__ = "np_hand_end"
    hand: int
    secrets: str  # JSON {deck, dice, decks} hex
    payouts: str  # JSON {player: amount}
    destroyed: int = 0


class ActionRow(_Derived, table=True):
    """One public step of a hand, in engine order: a forced bet (``post``), a player's
    action, a timeout's check or fold, a fold-out, a reveal or a muck, with the chips it put
    into the pot. With the hand-start record and ``np_hand_end`` it is the money of the hand
    (:mod:`nomicpoker.core.words.hand_log`). ``seq`` counts action rows only."""

    __tablename__ = "np_action"
    hand: int
    n: int  # the step's number within its hand, from 1
    player: str
    event: str  # post | fold | check | call | raise | all_in | reveal | muck | fold_out
    amount: Optional[int] = None  # the amount as stated (raise: in the ruleset's semantics)
    cards: str = "[]"  # JSON list (reveal)
    chips: int = 0  # chips this step put into the pot
    comment_id: str = ""  # the comment that made it ("" for a dealer event)
    at: str = ""  # the comment's time or the dealer event's
    cause: str = ""  # as in the change log: the comment's permalink or the dealer event


class SnapshotRow(SQLModel, table=True):
    """The fold's state after the inputs it covers, so the poll folds only what is new
    (:mod:`nomicpoker.shell.storage.snapshots`). A cache, neither input nor derived row: ``audit``
    never reads it, and deleting it only makes the next poll fold from the start. The state
    itself is not here: it holds a running hand's private data (hole cards, advance actions
    sent privately), so it is kept in the owner-only secrets folder, named by ``mac``."""

    __tablename__ = "np_snapshot"
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True, unique=True)
    fingerprint: str  # the fold's code, the snapshot format and the table's configuration
    covers: str  # JSON: the input positions and counts folded, the derived rows stored
    current: str  # JSON: the current hand as the fold left it (for the deadlines)
    state: str = ""  # always "" (schema 0008 on): the state is in secrets/<table>/snapshot/<mac>.json
    mac: str  # HMAC-SHA256 of all the above, keyed by the state folder's snapshot.key


#: Derived models, in the order audit compares them, with the fields it ignores.
DERIVED: tuple[type[SQLModel], ...] = (
    VerdictRow, EntryRow, OutboxRow, DiceRow, DeckRow, DrawRow, RevealRow, BoardRow, HandEndRow, ActionRow)
SHELL_FIELDS = {"id", "status", "remote_id", "sent_at"}


# --------------------------------------------------------------------------- opening

#: The schema revisions this release knows, oldest first (Alembic revision ids under
#: ``nomicpoker/shell/storage/migrations/versions``; a test checks the two agree). A ledger at an
#: older one needs ``nomicpoker db upgrade``; one at a revision not listed was written by a
#: newer nomicpoker.
SCHEMA_REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010", "0011", "0012", "0013")
SCHEMA_HEAD = SCHEMA_REVISIONS[-1]

#: Alembic's own bookkeeping table, declared here so a fresh ledger is stamped without
#: importing Alembic (it is only needed to upgrade).
_VERSIONS = MetaData()
VERSION_TABLE = Table("alembic_version", _VERSIONS,
                      Column("version_num", String(32), primary_key=True, nullable=False))

#: Seconds a writer waits for another process's lock on an SQLite ledger before giving up
#: (``NOMICPOKER_BUSY_TIMEOUT`` overrides it).
BUSY_TIMEOUT = 30.0


def metadata() -> MetaData:
    """The ledger's tables (every model above), for ``create_all`` and Alembic."""
    return SQLModel.metadata


def _busy_timeout() -> float:
    """``NOMICPOKER_BUSY_TIMEOUT`` in seconds (default :data:`BUSY_TIMEOUT`). A value that is
    not a number from 0 to 86,400 is refused (``StoreError`` ``bad_config``: one line, exit 1),
    not silently replaced by the default: a Dealer who set it means it."""
    raw = os.environ.get("NOMICPOKER_BUSY_TIMEOUT")
    if raw is None or not raw.strip():
        return BUSY_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= 86_400:
        raise StoreError("bad_config", f"NOMICPOKER_BUSY_TIMEOUT={raw!r}: expected seconds, a number "
                         "from 0 to 86400 (default 30)")
    return value


def _sqlite_setup(engine: Engine, readonly: bool = False) -> None:
    """WAL, a busy timeout and ``BEGIN IMMEDIATE``: the pysqlite recipe from the SQLAlchemy
    docs (let SQLAlchemy, not the driver, emit BEGIN). A read-only ledger gets a plain BEGIN
    and no journal change (both would need to write)."""
    timeout_ms = int(_busy_timeout() * 1000)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={timeout_ms}")
        if not readonly:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):  # type: ignore[no-untyped-def]
        conn.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")


def snapshot_guards(dialect: str = "sqlite") -> list[str]:
    """Triggers that drop a table's snapshot (``np_snapshot``) when a row it covers is changed
    or deleted in place: an input (pinned ruleset, archive, hand start, dealer event) or a derived row (the
    outbox's delivery columns excepted). The ledger only ever appends such rows, so any
    change is an edit from outside, and the next poll must replay from the start, compare
    with what is stored and refuse (``StoreError('inconsistent')``) as it did before
    snapshots. WHY in the database: it costs nothing per poll, where re-reading every stored
    row to compare would cost what snapshots save. For SQLite (``dialect`` "sqlite") and
    PostgreSQL ("postgresql": one PL/pgSQL function, a row trigger per table and event); none
    for another database (``nomicpoker audit`` still finds such an edit)."""
    shell_written = {"status", "remote_id", "sent_at"}
    statements = []
    if dialect == "postgresql":
        statements.append(
            "CREATE OR REPLACE FUNCTION np_guard_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN DELETE FROM np_snapshot WHERE table_name = OLD.table_name; RETURN NULL; END $$")
    elif dialect != "sqlite":
        return []
    for model in GUARDED:
        name = model.__tablename__  # type: ignore[attr-defined]
        columns = [c for c in model.model_fields if c not in shell_written | {"id"}]
        quoted = ", ".join(f'"{c}"' for c in columns)
        for op in ("update", "delete"):
            if dialect == "sqlite":
                when = ("UPDATE OF " + ", ".join(columns) if name == "np_outbox" else "UPDATE") \
                    if op == "update" else "DELETE"
                statements.append(
                    f"CREATE TRIGGER IF NOT EXISTS np_guard_{name}_{op} AFTER {when} ON {name} "
                    "BEGIN DELETE FROM np_snapshot WHERE table_name = OLD.table_name; END")
            else:
                when = (f"UPDATE OF {quoted}" if name == "np_outbox" else "UPDATE") if op == "update" else "DELETE"
                statements.append(f"DROP TRIGGER IF EXISTS np_guard_{name}_{op} ON {name}")
                statements.append(f"CREATE TRIGGER np_guard_{name}_{op} AFTER {when} ON {name} "
                                  "FOR EACH ROW EXECUTE FUNCTION np_guard_snapshot()")
    return statements


#: The tables whose rows a snapshot covers (the inputs, then the derived rows).
GUARDED = (RulesetRow, HandRow, CommentRow, DealerEventRow) + DERIVED


def shown_url(url: str) -> str:
    """The URL for messages, with any password masked (a --db URL may carry one)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unparseable URL is shown as given, minus userinfo
        return url.split("@")[-1] if "@" in url else url


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL; None for another database or an in-memory one. Parsed as
    SQLAlchemy parses it (the path percent-decoded, a ``?`` starting options), so a path
    written with :func:`nomicpoker.shell.storage.paths.sqlite_url` comes back whatever it holds."""
    if not url.startswith("sqlite"):
        return None
    try:
        path = make_url(url).database or ""
    except Exception:  # noqa: BLE001 - create_engine refuses it with its own message
        return None
    return Path(path) if path and path != ":memory:" else None


def readonly_url(path: Path, mode: str) -> URL:
    """The URL opening the SQLite file ``path`` read-only through an SQLite URI
    (``file:...?mode=ro`` or ``immutable=1``). Two encodings nest: SQLite decodes the URI's
    path (``Path.as_uri`` percent-encodes ``?``, ``#`` and ``%`` there), and SQLAlchemy
    decodes its URL's database part (``URL.create`` keeps the URI as given)."""
    key, value = mode.split("=", 1)
    return URL.create("sqlite", database=Path(os.path.abspath(path)).as_uri(), query={key: value, "uri": "true"})


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def open_engine(url: str, create: bool = True, check: bool = True) -> Engine:
    """Open the ledger database at ``url`` (any SQLAlchemy URL).

    ``create``: a database without the ledger's tables gets them (and the current schema
    version); otherwise such a database is refused (``no_ledger``): a missing, 0-byte or
    in-memory ledger must not pass for a game with no tables. ``check``: refuse a ledger whose
    schema version is not this release's (``old_schema``: run ``nomicpoker db upgrade``;
    ``new_schema``: upgrade nomicpoker). An SQLite file this process cannot write (an
    auditor's read-only copy) is opened read-only."""
    url = ledger_url(url)
    shown = shown_url(url)
    bad = url_problem(url, shown)
    if bad:
        raise StoreError("bad_url", bad)
    path = sqlite_path(url)
    readonly = False
    try:
        if url.startswith("sqlite"):
            if path is not None:
                if not create and not path.exists():
                    raise StoreError("no_ledger", f"no ledger at {path}: run nomicpoker init (or pass "
                                     "--state DIR / --db URL for the game's ledger)")
                if not create and path.stat().st_size == 0:  # refused before SQLite writes a header
                    raise StoreError("no_ledger", f"the ledger {path} is an empty (0-byte) file, not a "
                                     "nomicpoker ledger: restore it from a backup, or pass --state/--db "
                                     "for the right one (nomicpoker init makes a new one)")
                if create:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    if not path.exists():  # owner-only from the start (SQLite gives -wal, -shm its mode)
                        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
                readonly = path.exists() and not _writable(path)
            elif not create:
                raise StoreError("no_ledger", f"{shown} is an empty in-memory database, not a ledger: "
                                 "pass --db with the game's ledger")
            if readonly:
                wal = Path(f"{path}-wal")
                mode = "mode=ro" if wal.exists() and wal.stat().st_size else "immutable=1"
                engine = create_engine(readonly_url(path, mode), connect_args={"timeout": _busy_timeout()})
            else:
                engine = create_engine(url, connect_args={"timeout": _busy_timeout()})
            _sqlite_setup(engine, readonly)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        if create or check:
            _prepare(engine, shown, create and not readonly, check)
    except ImportError as exc:
        install = PG_INSTALL if url.startswith("postgresql") else f"pip install {exc.name or 'it'}"
        raise StoreError("open", f"cannot open the ledger database {shown!r}: its driver is not "
                         f"installed ({exc.name or exc}): {install}") from exc
    except (SQLAlchemyError, OSError, ValueError) as exc:
        raise StoreError(*describe(exc, url)) from exc
    return engine


def _prepare(engine: Engine, shown: str, create: bool, check: bool) -> None:
    """Create a fresh ledger, or check an existing one's schema version."""
    with engine.begin() as conn:
        names = set(inspect(conn).get_table_names())
        if "np_table" not in names:
            if not create:
                what = "an empty file" if names == set() else "a database without nomicpoker's tables"
                raise StoreError("no_ledger", f"the ledger {shown} is {what}, not a nomicpoker ledger: "
                                 "restore it from a backup, or pass --state/--db for the right one "
                                 "(nomicpoker init makes a new one)")
            metadata().create_all(conn, tables=[m.__table__ for m in ALL_MODELS])  # type: ignore[attr-defined]
            for sql in snapshot_guards(conn.dialect.name):
                conn.exec_driver_sql(sql)
            _VERSIONS.create_all(conn)
            conn.execute(VERSION_TABLE.delete())
            conn.execute(VERSION_TABLE.insert().values(version_num=SCHEMA_HEAD))
            return
        if check:
            check_version(schema_version(conn, names), shown)


def schema_version(conn: Connection, names: set[str] | None = None) -> str | None:
    """The ledger's schema revision; None for a ledger made before versions (0.1.0)."""
    names = names if names is not None else set(inspect(conn).get_table_names())
    if "alembic_version" not in names:
        return None
    rows = [r[0] for r in conn.execute(select(VERSION_TABLE.c.version_num))]
    return rows[0] if len(rows) == 1 else None


def check_version(version: str | None, shown: str) -> None:
    if version == SCHEMA_HEAD:
        return
    if version is None or version in SCHEMA_REVISIONS:
        raise StoreError("old_schema", f"the ledger {shown} has schema version "
                         f"{version or 'none (nomicpoker 0.1.0)'} and this nomicpoker needs "
                         f"{SCHEMA_HEAD}: back it up, then run nomicpoker db upgrade")
    raise StoreError("new_schema", f"the ledger {shown} has schema version {version}, newer than this "
                     f"nomicpoker knows ({SCHEMA_HEAD}): upgrade nomicpoker (pip install -U nomicpoker)")


def describe(exc: BaseException, url: str = "") -> tuple[str, str]:
    """(code, one line) for a database or file error: what a Dealer can act on, never a
    traceback. Disk full, a locked or damaged file and a read-only one each get their own."""
    shown = shown_url(url) if url else "the ledger"
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).splitlines()[0] if str(orig) else type(orig).__name__
    if url:
        text = text.replace(url, shown)
    low = text.lower()
    if isinstance(orig, OSError) and orig.errno == errno.ENOSPC or "disk is full" in low \
            or "no space left" in low:
        return "disk_full", (f"the disk holding {shown} is full ({text}): nothing was stored; free "
                             "some space and run the command again")
    if "locked" in low or "lock timeout" in low:
        return "locked", (f"{shown} is locked by another process (waited {_busy_timeout():g} s): "
                          "nothing was stored; run the command again when it has finished")
    if "readonly" in low or "read-only" in low or "permission denied" in low or "unable to open" in low:
        return "read_only", (f"cannot write {shown} ({text}): the state directory or the database "
                             "is read-only for this user; the readers (ledger, audit, table "
                             "show/list, verdicts, score, the exports) work on a read-only copy")
    if "disk i/o error" in low:
        return "io_error", (f"writing {shown} failed ({text}: the disk may be full, over a file size "
                            "limit, or failing): nothing was stored; check the free space and the "
                            "disk, then run the command again")
    if "malformed" in low or "not a database" in low:
        return "damaged", (f"{shown} is damaged ({text}): nothing was stored; restore it from a "
                           "backup (or try: sqlite3 FILE .recover), then nomicpoker audit")
    if "unique" in low or "duplicate key" in low or "integrity" in low:
        return "conflict", (f"another run wrote the same rows to {shown} at the same time ({text}): "
                            "nothing of this run was stored; the next run goes on")
    return "open", f"cannot use the ledger database {shown}: {text}"


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back everything on any error."""
    from nomicpoker.shell import faults

    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            faults.point("before commit")
            session.commit()
            faults.point("after commit")
        except BaseException:
            session.rollback()
            raise


from nomicpoker.shell.storage.unsealed import UnsealedRow  # noqa: E402 (a model of its own module)
from nomicpoker.shell.storage.tournament_rows import TOURNAMENT_MODELS  # noqa: E402 (likewise)

#: Input models: what ``audit`` copies and replays from.
INPUTS: tuple[type[SQLModel], ...] = (TableRow, RulesetRow, HandRow, CommentRow, DealerEventRow)
ALL_MODELS: tuple[type[SQLModel], ...] = INPUTS + DERIVED + (SnapshotRow, UnsealedRow) + TOURNAMENT_MODELS
