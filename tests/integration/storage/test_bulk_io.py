"""Audit's bulk work: rows written with one DB-API ``executemany`` on SQLite
(:func:`nomicpoker.shell.storage.ledger.bulk_insert`) are the rows SQLAlchemy's Core ``INSERT`` writes,
byte for byte (model defaults, booleans, NULLs, text); and the paused garbage collector
(:mod:`nomicpoker.shell.cycle.collector`) is back on exactly when the last pause ends."""

from __future__ import annotations

import gc
import sqlite3
import threading

from sqlalchemy import insert
from sqlmodel import Session

from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.collector import paused_collector
from nomicpoker.shell.storage.store import CommentRow, OutboxRow, open_engine


def _rows() -> dict:
    outbox = [{"table_name": "T", "seq": i, "key": f"T-h1-{i:03d}", "hand": 1 if i % 2 else None,
               "kind": "comment", "thread": "t1", "reply_to": None if i % 3 else str(i),
               "recipient": "", "subject": "", "body": f"body é ♥ {i}\nline"} for i in range(1, 8)]
    comments = [{"table_name": "T", "thread": "t1", "forum_id": str(i), "revision": 1, "author": "bob",
                 "created": "2026-01-01T00:00:00Z", "edited": None, "body": "x" * i, "body_format": "markdown",
                 "sha256": "0" * 64, "deleted": bool(i % 2), "dice": "[]", "permalink": "",
                 "fetched_at": "2026-01-01T00:00:01Z"} for i in range(1, 6)]
    return {OutboxRow: outbox, CommentRow: comments}


def _dump(path) -> dict:
    with sqlite3.connect(path) as con:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in ("np_outbox", "np_comment")}


def test_bulk_insert_writes_what_core_insert_writes(tmp_path) -> None:
    core, bulk = tmp_path / "core.db", tmp_path / "bulk.db"
    for path, fast in ((core, False), (bulk, True)):
        engine = open_engine(f"sqlite:///{path}")
        with Session(engine) as s:
            for model, rows in _rows().items():
                table = model.__table__  # type: ignore[attr-defined]
                if fast:
                    ledger.bulk_insert(s, table, list(rows[0]), [tuple(r.values()) for r in rows])
                else:
                    s.execute(insert(table), rows)
            s.commit()
        engine.dispose()
    got = _dump(bulk)
    assert got == _dump(core)
    with sqlite3.connect(bulk) as con:
        assert {r for r, in con.execute("SELECT status FROM np_outbox")} == {"pending"}  # the default
        assert [r for r, in con.execute("SELECT deleted FROM np_comment ORDER BY id")] == [1, 0, 1, 0, 1]


def test_bulk_insert_of_nothing_writes_nothing(tmp_path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'l.db'}")
    with Session(engine) as s:
        ledger.bulk_insert(s, OutboxRow.__table__, ["seq"], [])  # type: ignore[attr-defined]
        s.commit()
    assert _dump(tmp_path / "l.db")["np_outbox"] == []


def test_collector_pauses_nest_and_restore() -> None:
    assert gc.isenabled()
    with paused_collector():
        assert not gc.isenabled()
        with paused_collector():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still runs
    assert gc.isenabled()


def test_collector_back_on_after_an_error_and_off_if_it_was_off() -> None:
    try:
        with paused_collector():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_collector():
            pass
        assert not gc.isenabled()  # someone else turned it off: left off
    finally:
        gc.enable()


def test_collector_concurrent_pauses() -> None:
    """Two threads' pauses overlap: the collector comes back only after both end."""
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with paused_collector():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=other)
    t.start()
    inside.wait(5)
    with paused_collector():
        pass
    assert not gc.isenabled()  # the other thread's pause still runs
    release.set()
    t.join(5)
    assert gc.isenabled()


def test_rows_of_one_kind_with_keys_in_another_order_or_missing(tmp_path) -> None:
    """The fold's rows of a kind come from several places; a row's values are taken by column
    name, and rows with other keys go through SQLAlchemy (which fills the model defaults)."""
    rows = [{"seq": 1, "hand": 1, "player": "alice", "column": "Money", "old": "100", "new": "95", "cause": "ante"},
            {"cause": "ante", "new": "95", "old": "100", "column": "Money", "player": "bob", "hand": 1, "seq": 2}]
    engine = open_engine(f"sqlite:///{tmp_path / 'l.db'}")
    with Session(engine) as s:
        ledger._insert(s, "entry", "T", rows)
        s.commit()
        got = ledger.stored_values(s, "T", "entry")
    assert [{k: r[k] for k in rows[0]} for r in got] == [rows[0], {k: rows[1][k] for k in rows[0]}]
