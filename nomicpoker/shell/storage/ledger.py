"""The ledger (shell): read the fold's inputs from the store, store its new rows, and the views
auditors read (GNDT, change log, public hand records).

WHY "store only the new suffix": the fold is re-run over the whole table on every poll (see
:mod:`nomicpoker.core.fold.adjudicator`). Because the archive only grows at its end, the rows already
stored must be exactly the first rows the fold produces now; :func:`store_fold` checks that
and refuses (``StoreError('inconsistent')``) when it is not so, instead of writing a ledger
that would disagree with its own replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from collections import namedtuple
from types import SimpleNamespace

from sqlalchemy import insert
from sqlalchemy import select as core_select
from sqlmodel import Session, select

from nomicpoker.ports import Abilities
from nomicpoker.shell.storage import pinned, secrets_store
from nomicpoker.core.fairness import entropy
from nomicpoker.core.table.fold_types import DealerEvent, FoldResult, HandStart, Revision, TableConfig
from nomicpoker.core.words.gndt import GndtRow
from nomicpoker.core.table.roster import ROSTER_KINDS, roster as roster_after
from nomicpoker.core.table.table_settings import TableSettings, settings_from
from nomicpoker.shell.storage.store import (
    ActionRow, BoardRow, CommentRow, DealerEventRow, DeckRow, DiceRow, DrawRow, EntryRow, HandEndRow, HandRow,
    OutboxRow, RevealRow, StoreError, TableRow, VerdictRow, dumps, loads,
)
from nomicpoker.shell.storage.plain_sql import plain

RECORD_FORMAT = "nomicpoker-hand-record/1"

#: fold row kind -> model
MODELS: dict[str, type] = {
    "verdict": VerdictRow, "entry": EntryRow, "outbox": OutboxRow, "dice": DiceRow,
    "deck": DeckRow, "draw": DrawRow, "reveal": RevealRow, "board": BoardRow,
    "hand_end": HandEndRow, "action": ActionRow,
}
#: columns holding JSON text in the store (lists/dicts in fold rows)
JSON_COLUMNS = {"positions", "cards", "secrets", "payouts"}
#: kind -> whether its model has a JSON column (the others' rows are stored as they are)
_JSON_KINDS = {kind: bool(JSON_COLUMNS & set(m.__table__.columns.keys()))  # type: ignore[attr-defined]
               for kind, m in MODELS.items()}
#: columns the shell writes and the fold never does (the outbox's delivery state, row ids)
SHELL_COLUMNS = {"id", "table_name"}
OUTBOX_SHELL_COLUMNS = {"status", "remote_id", "sent_at"}


def get_table(session: Session, name: str) -> TableRow:
    row = session.exec(select(TableRow).where(TableRow.name == name)).first()
    if row is None:
        known = [t.name for t in session.exec(select(TableRow)).all()]
        hint = f" (tables: {', '.join(known)})" if known else " (no tables yet: nomicpoker table create)"
        raise StoreError("no_table", f"no table named {name!r}{hint}")
    return row


def table_row(session: Session, name: str) -> TableRow:
    """:func:`get_table`, read as plain columns and given as a row that is not in the
    session: for a caller that only reads it (the poll, at every table it works on: the ORM's
    query and identity map cost ~0.7 ms there; issue 24). Never change it and add it back."""
    t = TableRow.__table__  # type: ignore[attr-defined]
    row = session.connection().execute(core_select(t).where(t.c.name == name)).first()
    if row is None:
        return get_table(session, name)  # raises, naming the tables there are
    return TableRow(**row._mapping)


def forum_settings(row: TableRow) -> dict[str, Any]:
    """The table's forum config (JSON in ``np_table.forum_config``). A row someone edited
    into something else is ``StoreError('bad_config')`` naming the table, not a traceback."""
    try:
        value = loads(row.forum_config)
    except ValueError as exc:
        raise StoreError("bad_config", f"table {row.name} has a forum config that is not JSON "
                         f"({exc}): fix np_table.forum_config in the ledger") from exc
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise StoreError("bad_config", f"table {row.name} has a forum config that is not a JSON "
                         "object: fix np_table.forum_config in the ledger")
    return value


def table_abilities(row: TableRow) -> Abilities:
    """What the table's forum can do, as stored when the table was created
    (``np_table.abilities``; schema 0012 filled older tables from the adapter registry).
    WHY from the ledger: replay and ``audit`` fold under these, so they never import an
    adapter and a replay on a machine without the forum's adapter folds the same. A row edited
    into something that is not a JSON object is ``StoreError('bad_config')``."""
    try:
        value = loads(row.abilities or "{}")
    except ValueError as exc:
        raise StoreError("bad_config", f"table {row.name} has abilities that are not JSON "
                         f"({exc}): fix np_table.abilities in the ledger") from exc
    if not isinstance(value, dict):
        raise StoreError("bad_config", f"table {row.name} has abilities that are not a JSON "
                         "object: fix np_table.abilities in the ledger")
    try:
        return Abilities.from_mapping(value)
    except TypeError as exc:  # pragma: no cover - from_mapping drops unknown keys
        raise StoreError("bad_config", f"table {row.name}: np_table.abilities: {exc}") from exc


def table_settings(row: TableRow, ruleset_deadline: int | None) -> TableSettings:
    """The settings a table was created with: its stored settings, its ``deadline_hours``
    column (tables created before settings existed), else the ruleset's default deadline;
    edition 1 where none is stored."""
    values = dict(loads(row.settings or "{}") or {})
    # a table stored without an edition was created before editions existed: its hands were
    # played under edition 1, and replay gives what was posted (``TableSettings.edition``)
    values.setdefault("edition", 1)
    if row.deadline_hours is not None:
        values.setdefault("deadline_hours", row.deadline_hours)
    return settings_from(values, ruleset_deadline)


def forced_bets(session: Session, row: TableRow) -> tuple[int | None, tuple[int, ...]]:
    """The table's forced bets in force (``table create``, then each ``table set``): (ante or
    None, blinds or ()). Read from the rows, without a fold, for the CLI's hints."""
    values = dict(loads(row.settings or "{}") or {})
    for data in session.exec(select(DealerEventRow.data).where(  # one column: scalars, not rows
            DealerEventRow.table_name == row.name, DealerEventRow.kind == "settings")
            .order_by(DealerEventRow.id)).all():
        values.update(loads(data or "{}") or {})
    ante = values.get("ante")
    return (int(ante) if ante is not None else None), tuple(values.get("blinds") or ())


def table_config(session: Session, row: TableRow) -> TableConfig:
    """The fold's configuration of a table, with the ruleset it was created under as pinned
    in the ledger (never reloaded from its file: see :mod:`nomicpoker.shell.storage.pinned`), its
    settings for play over days, and what its forum can do as stored with it
    (:func:`table_abilities`: who rolls the dice, private messages, mentions, whether players
    read the thread)."""
    ruleset = pinned.ruleset(session, row, row.ruleset_hash)
    settings = table_settings(row, ruleset.deadline_hours)
    abilities = table_abilities(row)
    return TableConfig(
        name=row.name, players=tuple(loads(row.players)), money=row.money, dealer=row.dealer,
        ruleset=ruleset, ruleset_name=row.ruleset, issue_decks=row.issue_decks,
        forum_roller=abilities.dice != "bot", deadline_hours=settings.deadline_hours, settings=settings,
        private=abilities.private_send, mention=abilities.mention,
        players_see_thread=abilities.players_see_thread,
    )


def hand_rows(session: Session, table: str, numbers: Iterable[int] | None = None,
              after: int | None = None) -> list[HandRow]:
    """The table's hand-start rows in order; ``numbers``: only these hands, ``after``: only
    those numbered past it (a poll asks for the running hand, not for every hand played)."""
    q = select(HandRow).where(HandRow.table_name == table)
    if numbers is not None:
        q = q.where(HandRow.number.in_(sorted(set(numbers))))  # type: ignore[attr-defined]
    if after is not None:
        q = q.where(HandRow.number > after)
    return list(session.exec(q.order_by(HandRow.number)).all())


def last_threads(session: Session, table: str, count: int) -> list[str]:
    """The threads of the table's last ``count`` hands, oldest first (one query of one
    column: a poll asks this every run, and the table's hands only grow)."""
    session.flush()  # as an ORM query would (a hand started in this transaction)
    rows = plain(session, "SELECT thread FROM np_hand WHERE table_name = :t ORDER BY number DESC LIMIT :n",
                 {"t": table, "n": int(count)})
    return [thread for thread, in reversed(rows)]


def hand_starts(session: Session, table: str, state: Path | None,
                public: Mapping[int, Mapping[str, str]] | None = None,
                numbers: Iterable[int] | None = None, row: TableRow | None = None) -> list[HandStart]:
    """Hand-start records with their secrets: from the secrets folder (``state``), else for
    ended hands the published values (stored, or ``public``: hand -> hex secrets). Secrets that
    do not match the hand's commitments are refused. ``numbers``: only these hands. ``row``:
    the table's row, when the caller has it.

    The hand and hand-end rows are read as plain columns (no ORM object): the poll reads the
    running hand's start at every table it works on (issue 24)."""
    out = []
    rulesets = pinned.pinned_rulesets(session, row if row is not None and row.name == table
                                      else get_table(session, table))
    session.flush()  # as an ORM query would (a hand stored in this transaction)
    wanted = "" if numbers is None else sorted(set(numbers))
    params: dict[str, Any] = {"t": table, **{f"n{i}": int(n) for i, n in enumerate(wanted)}}
    only = "" if numbers is None else f" AND {{col}} IN ({', '.join(f':n{i}' for i in range(len(wanted))) or 'NULL'})"
    rows = [_HAND_ROW(*r) for r in plain(session, f"SELECT {_HAND_COLUMNS} FROM np_hand WHERE table_name = :t"
                                                  f"{only.format(col='number')} ORDER BY number", params)]
    published: dict[int, Any] = {}
    if numbers is None or rows:
        published = {hand: loads(secrets) for hand, secrets in plain(
            session, f"SELECT hand, secrets FROM np_hand_end WHERE table_name = :t{only.format(col='hand')} ORDER BY seq",
            params)}
    published.update(public or {})
    for h in rows:
        secret = None
        if state is not None:
            secret = secrets_store.load_or_none(state, table, h.number)
        if secret is None and h.number in published:
            # An auditor's copy of the ledger has no secrets folder: an ended hand's published
            # secrets serve, once they match the commitments posted at its start.
            secret = secrets_store.from_hex(dict(published[h.number]))
        if secret is not None and secret.commitments() != loads(h.commitments):
            raise StoreError("inconsistent", f"the secrets of table {table} hand {h.number} do not "
                             "match the commitments posted at its start")
        out.append(HandStart(
            number=h.number, thread=h.thread, button=h.button, ante=h.ante,
            blinds=tuple(loads(h.blinds)), seats=tuple((n, m) for n, m in loads(h.seats)),
            after=h.after, started_at=h.started_at, commitments=loads(h.commitments), secrets=secret,
            ruleset=_hand_ruleset(rulesets, table, h),
            entropy=entropy.from_json(loads(h.entropy)) if h.entropy else None,
            **_positions(h),
        ))
    return out


#: np_hand's columns, in order, as plain values (what :func:`hand_starts` reads)
_HAND_COLUMNS = ", ".join(f'"{c.name}"' for c in HandRow.__table__.columns)  # type: ignore[attr-defined]
_HAND_ROW = namedtuple("_HAND_ROW", [c.name for c in HandRow.__table__.columns])  # type: ignore[attr-defined]


def _positions(h: Any) -> dict[str, Any]:
    """A tournament hand's positions (``np_hand.positions``) as the HandStart fields."""
    if not h.positions:
        return {}
    pos = loads(h.positions)
    return {"blind_posters": tuple(pos.get("blind_posters", ())), "positions": pos}


def _hand_ruleset(rulesets: Mapping[str, Any], table: str, h: Any) -> Any:
    if h.ruleset_hash not in rulesets:
        raise StoreError("inconsistent", f"hand {h.number} of table {table} is recorded under ruleset "
                         f"{h.ruleset_hash[:12]}, which is not pinned to the table: run nomicpoker audit")
    return rulesets[h.ruleset_hash]


def revisions(session: Session, table: str, after: int = 0,
              hashes: list[str] | None = None, state: Path | None = None, strict: bool = True,
              sealed: list[tuple[int, str]] | None = None) -> list[Revision]:
    """The archive in order (``after``: only the revisions past that position). ``hashes``: a
    list to which each revision's stored ``sha256`` is appended, in the same order (audit
    checks the bodies in the pass that reads them). A sealed revision (a private input,
    :mod:`nomicpoker.shell.storage.sealed_inputs`) is read with its text: published, else kept in
    ``state``'s secrets folder; ``strict`` False leaves one found in neither as its seal (audit
    on a copy), and ``sealed`` gets ``(archive id, stored body)`` of every sealed revision."""
    from nomicpoker.shell.storage.sealed_inputs import PREFIX, opened

    c = CommentRow.__table__.c  # type: ignore[attr-defined]
    # plain column tuples, not ORM objects: a table's whole archive is read by a full replay and
    # by audit, and a SQLModel object costs ~0.1 ms to build
    rows = session.execute(core_select(c.id, c.thread, c.forum_id, c.revision, c.author, c.created, c.body,
                                       c.body_format, c.deleted, c.dice, c.permalink, c.sha256)
                           .where(c.table_name == table, c.id > after).order_by(c.id)).all()
    if hashes is not None:
        hashes.extend(r[-1] for r in rows)
    held = [(int(r[0]), r[6]) for r in rows if r[6].startswith(PREFIX)]
    texts = opened(session, table, held, state, strict) if held else {}
    if sealed is not None:
        sealed.extend(held)
    return [Revision(archive_id=i, thread=thread, forum_id=forum_id, revision=revision, author=author,
                     created=created, body=texts[i][0] if i in texts else body, body_format=body_format,
                     deleted=deleted, dice=() if dice == "[]" else tuple(loads(dice)), permalink=permalink)
            for i, thread, forum_id, revision, author, created, body, body_format, deleted, dice, permalink, _
            in rows]


def dealer_events(session: Session, table: str, after_id: int = 0) -> list[DealerEvent]:
    """The recorded dealer events in order (``after_id``: only those past that row id)."""
    return [e for _, e in dealer_event_rows(session, table, after_id)]


def dealer_event_rows(session: Session, table: str, after_id: int = 0) -> list[tuple[int, DealerEvent]]:
    """``(row id, event)`` for the recorded dealer events past row ``after_id``, in order."""
    session.flush()  # as an ORM query would (an event recorded in this transaction)
    # plain columns (no ORM object per event): the poll reads the new ones at every table it works on
    rows = plain(session, "SELECT id, \"after\", hand, kind, player, at, ruleset_hash, note, data FROM np_dealer_event "
                          "WHERE table_name = :t AND id > :a ORDER BY id", {"t": table, "a": int(after_id)})
    return [(int(i), DealerEvent(after=after, hand=hand, kind=kind, player=player, at=at,
                                 ruleset_hash=ruleset_hash, note=note or "", data=loads(data or "{}") or {}))
            for i, after, hand, kind, player, at, ruleset_hash, note, data in rows]


def roster(session: Session, table: TableRow) -> list[str]:
    """The players seated at ``table`` now, in GNDT order: those it was created with, as the
    tournament's moves (``move_in``/``move_out`` dealer events, core/table/roster) changed them."""
    session.flush()  # as an ORM query would (a move recorded in this transaction)
    # plain columns: a poll reads the roster of each table it works on (its private messages)
    kinds = sorted(ROSTER_KINDS)
    marks = ", ".join(f":k{i}" for i in range(len(kinds)))
    moves = plain(session, f"SELECT \"after\", hand, kind, player, at, data FROM np_dealer_event "
                           f"WHERE table_name = :t AND kind IN ({marks}) ORDER BY id",
                  {"t": table.name, **{f"k{i}": k for i, k in enumerate(kinds)}})
    players = loads(table.players)
    if not moves:
        return players
    return list(roster_after(players, (DealerEvent(after=after, hand=hand, kind=kind, player=player, at=at,
                                                   data=loads(data or "{}") or {})
                                       for after, hand, kind, player, at, data in moves)))


def max_archive_id(session: Session, table: str) -> int:
    rows = session.exec(select(CommentRow.id).where(CommentRow.table_name == table)
                        .order_by(CommentRow.id.desc()).limit(1)).all()  # type: ignore[union-attr]
    return int(rows[0]) if rows else 0


# --------------------------------------------------------------------------- storing the fold


def _stored_form(kind: str, row: Mapping[str, Any]) -> Mapping[str, Any]:
    if not _JSON_KINDS[kind]:  # verdicts, entries, outbox: stored as the fold made them
        return row
    return {k: (dumps(v) if k in JSON_COLUMNS else v) for k, v in row.items()}


def row_values(obj: Any) -> dict[str, Any]:
    """A stored row's fold-comparable values (shell columns dropped)."""
    drop = SHELL_COLUMNS | (OUTBOX_SHELL_COLUMNS if isinstance(obj, OutboxRow) else set())
    return {k: v for k, v in obj.model_dump().items() if k not in drop}


def stored_values(session: Session, table: str, kind: str) -> list[dict[str, Any]]:
    """:func:`row_values` of every stored row of ``kind``, in order, read as plain columns
    (no ORM object per row: audit and a full replay compare thousands)."""
    names, rows = stored_tuples(session, table, kind)
    return [dict(zip(names, r)) for r in rows]


def stored_tuples(session: Session, table: str, kind: str) -> tuple[list[str], list[tuple]]:
    """The column names and the rows of :func:`stored_values` as tuples (audit compares two
    ledgers' rows as tuples, and builds a dict only for a row that differs)."""
    t = MODELS[kind].__table__  # type: ignore[attr-defined]
    drop = SHELL_COLUMNS | (OUTBOX_SHELL_COLUMNS if kind == "outbox" else set())
    cols = [col for col in t.columns if col.name not in drop]
    rows = session.execute(core_select(*cols).where(t.c.table_name == table).order_by(t.c.seq)).all()
    return [col.name for col in cols], [tuple(r) for r in rows]


def bulk_insert(session: Session, table: Any, columns: list[str], rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order) into ``table`` (a SQLAlchemy Table) in the
    session's transaction. On SQLite, one DB-API ``executemany`` with the tuples as they are
    (the ledger's columns are integers, text and booleans, which sqlite3 binds as SQLAlchemy
    does: a bool as 0/1); elsewhere a Core ``INSERT``.

    WHY: audit writes a whole table's inputs and derived rows (~35,000 rows at 15,900
    revisions) into its scratch database, and SQLAlchemy's per-row parameter processing cost
    ~10 µs a row, a quarter of an audit."""
    if not rows:
        return
    conn = session.connection()
    defaults = [c for c in table.columns if c.name not in columns and c.default is not None]
    if conn.dialect.name == "sqlite" and all(c.default.is_scalar for c in defaults):
        if defaults:  # what SQLAlchemy fills in from the model (the outbox's "pending")
            columns = [*columns, *(c.name for c in defaults)]
            tail = tuple(c.default.arg for c in defaults)
            rows = [r + tail for r in rows]
        cols = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" * len(columns))
        cur = conn.connection.cursor()
        try:
            cur.executemany(f'INSERT INTO "{table.name}" ({cols}) VALUES ({marks})', rows)
        finally:
            cur.close()
        return
    conn.execute(insert(table), [dict(zip(columns, r)) for r in rows])


def _insert(session: Session, kind: str, table: str, rows: list[dict[str, Any]]) -> list[Any]:
    """Insert stored-form ``rows`` of ``kind`` in one statement (a SQLModel object costs
    ~0.2 ms to build and flush); return them as attribute views (no row ids: no caller needs
    them; read the rows back for those)."""
    if not rows:
        return []
    columns = list(rows[0])
    n = len(columns)
    if any(len(r) != n for r in rows):  # not every row of the kind has the same keys
        full = [{"table_name": table, **r} for r in rows]
        session.execute(insert(MODELS[kind].__table__), full)  # type: ignore[attr-defined]
        return [SimpleNamespace(**r) for r in full]
    try:  # the same number of keys and each one found: the same keys (by name, in any order)
        values = [(table, *(r[c] for c in columns)) for r in rows]
    except KeyError:
        full = [{"table_name": table, **r} for r in rows]
        session.execute(insert(MODELS[kind].__table__), full)  # type: ignore[attr-defined]
        return [SimpleNamespace(**r) for r in full]
    bulk_insert(session, MODELS[kind].__table__, ["table_name", *columns], values)  # type: ignore[attr-defined]
    return [SimpleNamespace(table_name=table, **r) for r in rows]


def stored_rows(session: Session, table: str, kind: str) -> list[Any]:
    model = MODELS[kind]
    return list(session.exec(select(model).where(model.table_name == table).order_by(model.seq)).all())


#: Columns that hold the dealer's wording rather than the adjudication. A newer nomicpoker may
#: word a rejection or a dealer comment differently; what was already posted stays as posted,
#: so the poll cycle does not compare these columns of rows it already stored (``audit``
#: still compares every byte, and names wording differences as such).
WORDING_COLUMNS: dict[str, frozenset[str]] = {
    "outbox": frozenset({"body", "subject"}),
    "verdict": frozenset({"message", "citation"}),
}


def _adjudication(kind: str, values: Mapping[str, Any]) -> dict[str, Any]:
    drop = WORDING_COLUMNS.get(kind, frozenset())
    return {k: v for k, v in values.items() if k not in drop}


def store_fold(session: Session, table: str, result: FoldResult) -> dict[str, list[Any]]:
    """Insert the rows the store does not have yet; return them per kind. Raises
    ``StoreError('inconsistent')`` naming the first stored row whose adjudication (every
    column but the wording, see :data:`WORDING_COLUMNS`) differs from the replay, so upgrading
    nomicpoker in the middle of a hand does not stop the table."""
    session.flush()  # ORM rows added before (the archive) go first
    added: dict[str, list[Any]] = {}
    for kind in MODELS:
        new = [_stored_form(kind, r) for r in result.rows.get(kind, ())]
        old = stored_values(session, table, kind)
        if len(old) > len(new):
            raise StoreError("inconsistent", f"the ledger has {len(old)} {kind} rows but the replay "
                             f"gives {len(new)}: run nomicpoker audit")
        for have, want in zip(old, new):
            if _adjudication(kind, have) != _adjudication(kind, want):
                raise StoreError("inconsistent", f"{kind} row seq {have['seq']} differs from the replay: "
                                 "run nomicpoker audit")
        added[kind] = _insert(session, kind, table, new[len(old):])
    return added


def store_new(session: Session, table: str, result: FoldResult) -> dict[str, list[Any]]:
    """Insert every row of ``result`` (a fold resumed from a verified snapshot: its rows are
    exactly the ones after those stored); return them per kind."""
    session.flush()  # ORM rows added before (the archive) go first
    return {kind: _insert(session, kind, table, [_stored_form(kind, r) for r in result.rows.get(kind, ())])
            for kind in MODELS}


# --------------------------------------------------------------------------- views


def gndt(session: Session, table: TableRow) -> list[GndtRow]:
    """The GNDT now, from the change log: each cell's latest value."""
    cells: dict[tuple[str, str], str] = {}
    for e in stored_rows(session, table.name, "entry"):
        cells[(e.player, e.column)] = e.new
    rows = []
    for p in roster(session, table):
        rows.append(GndtRow(player=p, money=int(cells.get((p, "Money"), table.money)),
                            turn=cells.get((p, "Turn"), "o"), pot=int(cells.get((p, "Pot"), 0))))
    return rows


def change_log(session: Session, table: str) -> list[tuple[str, str, str, str, str]]:
    return [(e.player, e.column, e.old, e.new, e.cause) for e in stored_rows(session, table, "entry")]


def current_money(session: Session, table: TableRow) -> dict[str, int]:
    return {r.player: r.money + r.pot for r in gndt(session, table)}


def hand_record(session: Session, table: TableRow, number: int) -> dict[str, Any]:
    """The public hand record (``nomicpoker-hand-record/1``) from the stored rows: what
    ``audit export`` writes and ``audit verify`` checks. Secrets only once the hand ended.
    It carries the ruleset the hand was played under in full (``ruleset_files``: the TOML and
    the rule text as pinned, whose content hash is ``ruleset_hash``), so ``audit verify
    --record`` replays it with nothing else installed, an amended ruleset included."""
    hand = next((h for h in hand_rows(session, table.name) if h.number == number), None)
    if hand is None:
        raise StoreError("no_table", f"table {table.name} has no hand {number}")
    def of(kind: str) -> list[Any]:
        return [r for r in stored_rows(session, table.name, kind) if r.hand == number]
    ends = of("hand_end")
    board: list[str] = []
    for b in of("board"):
        board += loads(b.cards)
    return {
        "format": RECORD_FORMAT,
        "table": table.name,
        "hand": number,
        "ruleset": hand.ruleset or pinned.ruleset(session, table, hand.ruleset_hash).name,
        "ruleset_hash": hand.ruleset_hash,
        "ruleset_files": pinned.files(session, table, hand.ruleset_hash),
        "commitments": loads(hand.commitments),
        **({"entropy": loads(hand.entropy)} if hand.entropy else {}),
        **({"positions": loads(hand.positions)} if hand.positions else {}),
        "secrets": loads(ends[0].secrets) if ends else None,
        "board": board,
        "dice": [{"comment_id": d.comment_id, "player": d.player, "index": d.index, "sides": d.sides,
                  "result": d.result, "source": d.source} for d in of("dice")],
        "decks": [{"player": d.player, "source": d.source, "checksum": d.checksum} for d in of("deck")],
        "draws": [{"player": d.player, "comment_id": d.comment_id, "positions": loads(d.positions),
                   "checksum": d.checksum} for d in of("draw")],
        "reveals": [{"player": r.player, "comment_id": r.comment_id, "cards": loads(r.cards)}
                    for r in of("reveal")],
        **_deal_order(session, table, hand),
        **_money(session, table, hand, of("action"), ends[0] if ends else None),
        **_void(session, table, number, bool(ends)),
    }


def voided(session: Session, table: str) -> dict[int, str]:
    """Hand number -> the Dealer's note, for every hand the Dealer voided (``hand void``)."""
    return {int(h): note or "" for h, note in session.exec(select(DealerEventRow.hand, DealerEventRow.note).where(
        DealerEventRow.table_name == table, DealerEventRow.kind == "void")).all()}


def _void(session: Session, table: TableRow, number: int, ended: bool) -> dict[str, Any]:
    """``{"void": note}`` for a hand the Dealer voided (``hand void``: every chip went back,
    nothing was paid), else nothing: without it ``audit verify`` could not tell a void from a
    record whose steps stop short of paying out."""
    if not ended:
        return {}
    notes = session.exec(select(DealerEventRow.note).where(
        DealerEventRow.table_name == table.name, DealerEventRow.hand == number,
        DealerEventRow.kind == "void")).all()
    return {"void": notes[0]} if notes else {}


def _money(session: Session, table: TableRow, hand: HandRow, actions: list[Any], end: Any) -> dict[str, Any]:
    """The money of the hand: the seats as it began, the forced bets, every step with the
    chips it put in (and in words), and once it ended the payouts and destroyed chips. What
    :mod:`nomicpoker.core.fairness.money` recomputes."""
    from nomicpoker.core.words.hand_log import words

    raise_to = pinned.ruleset(session, table, hand.ruleset_hash).raise_amount == "raise_to"
    steps = [{"n": a.n, "player": a.player, "event": a.event, "amount": a.amount,
              "cards": loads(a.cards), "chips": a.chips, "comment_id": a.comment_id, "at": a.at,
              "cause": a.cause} for a in actions]
    for st in steps:
        st["words"] = words(st, raise_to)
    return {
        "seats": [{"player": p, "money": m} for p, m in loads(hand.seats)],
        "button": hand.button,
        "ante": hand.ante,
        "blinds": loads(hand.blinds),
        "actions": steps,
        "payouts": loads(end.payouts) if end is not None else None,
        "destroyed": end.destroyed if end is not None else None,
    }


def _deal_order(session: Session, table: TableRow, hand: HandRow) -> dict[str, Any]:
    """``{"deal_order": [...]}`` for a one-shared-deck ruleset (the seats from the first after
    the button): what verify needs to recompute each hole card; ``{}`` otherwise."""
    from nomicpoker.core.fairness.dealing import deal_order

    if pinned.ruleset(session, table, hand.ruleset_hash).deck != "shared":
        return {}
    return {"deal_order": list(deal_order([p for p, _ in loads(hand.seats)], hand.button))}
