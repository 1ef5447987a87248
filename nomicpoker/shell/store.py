"""The ledger's tables (SQLModel) and how to open the database (shell).

WHY these tables and not one blob: auditors read them. The split follows what is a fact
from outside and what is derived:

- **Inputs** (never rewritten by a replay): ``np_table`` (configuration), ``np_hand`` (the
  hand-start record: seats, Money, button, ante, commitments), ``np_comment`` (the raw comment
  archive, one row per revision, never updated in place), ``np_dealer_event`` (timeouts with
  their time).
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

import json
from contextlib import contextmanager
from typing import Any, Iterator, Optional

from sqlalchemy import UniqueConstraint, event
from sqlalchemy.engine import make_url
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Field, Session, SQLModel, create_engine

from nomicpoker.core.errors import CodedError


class StoreError(CodedError):
    """The ledger database cannot be opened or is inconsistent. ``code``: ``open``,
    ``no_table``, ``exists``, ``inconsistent``."""


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
    active: bool = True
    created: str


class HandRow(SQLModel, table=True):
    """The hand-start record (an input: what the Dealer decided when the hand began)."""

    __tablename__ = "np_hand"
    __table_args__ = (UniqueConstraint("table_name", "number"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    number: int
    thread: str
    ruleset_hash: str
    button: str
    ante: int = 0
    blinds: str = "[]"  # JSON list
    seats: str  # JSON [[name, money], ...] in GNDT order
    after: int = 0  # archive position (np_comment.id) the hand starts after
    started_at: str
    commitments: str  # JSON {deck, dice, decks}


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
    """A dealer event that is not a comment (a deadline expiry), recorded with its time so
    the replay is deterministic."""

    __tablename__ = "np_dealer_event"
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    hand: int
    after: int  # archive position it happened after
    kind: str  # "timeout" (betting, reveal) | "draw_timeout" (no Hole Card Draw in time)
    player: str
    at: str


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
    status: str = "pending"  # pending | sent   (shell)
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
    (:mod:`nomicpoker.core.hand_log`). ``seq`` counts action rows only."""

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


#: Derived models, in the order audit compares them, with the fields it ignores.
DERIVED: tuple[type[SQLModel], ...] = (
    VerdictRow, EntryRow, OutboxRow, DiceRow, DeckRow, DrawRow, RevealRow, BoardRow, HandEndRow,
    ActionRow,
)
SHELL_FIELDS = {"id", "status", "remote_id", "sent_at"}


# --------------------------------------------------------------------------- opening


def _sqlite_setup(engine: Engine) -> None:
    """WAL, a busy timeout and ``BEGIN IMMEDIATE``: the pysqlite recipe from the SQLAlchemy
    docs (let SQLAlchemy, not the driver, emit BEGIN)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):  # type: ignore[no-untyped-def]
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def shown_url(url: str) -> str:
    """The URL for messages, with any password masked (a --db URL may carry one)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unparseable URL is shown as given, minus userinfo
        return url.split("@")[-1] if "@" in url else url


def open_engine(url: str, create: bool = True) -> Engine:
    """Open the ledger database at ``url`` (any SQLAlchemy URL) and create missing tables."""
    try:
        if url.startswith("sqlite"):
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                from pathlib import Path

                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"timeout": 30})
            _sqlite_setup(engine)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        if create:
            SQLModel.metadata.create_all(engine, tables=[m.__table__ for m in ALL_MODELS])  # type: ignore[attr-defined]
    except ImportError as exc:
        raise StoreError("open", f"cannot open the ledger database {shown_url(url)!r}: its driver is not "
                         f"installed ({exc.name or exc}); pip install it") from exc
    except (SQLAlchemyError, OSError, ValueError) as exc:
        raise StoreError("open", f"cannot open the ledger database {shown_url(url)!r}: "
                         f"{str(exc).replace(url, shown_url(url))}") from exc
    return engine


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back everything on any error."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


ALL_MODELS: tuple[type[SQLModel], ...] = (TableRow, HandRow, CommentRow, DealerEventRow) + DERIVED
