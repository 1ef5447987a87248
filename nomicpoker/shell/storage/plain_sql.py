"""Plain SQL (shell): the poll's small queries, without SQLAlchemy's statement machinery.

The poll runs a dozen small queries at every table it works on (its snapshot row and counts,
its pinned rulesets, its running hand, its new dealer events, its archive of a thread, its
outbox), and SQLAlchemy's compiling, caching and result processing cost more than SQLite's
answer (~0.1 ms a statement; issue 24). These run them on the connection of the caller's
transaction: on SQLite through the driver's own cursor, elsewhere through SQLAlchemy.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text as sql_text
from sqlalchemy.engine import Connection
from sqlmodel import Session


def plain(where: "Session | Connection", sql: str, params: dict[str, Any] | None = None) -> list[tuple]:
    """The rows of ``sql`` (named ``:parameters``) as plain tuples, in the transaction of
    ``where`` (a session, which is not flushed here, or a connection).

    WHY: the poll runs a dozen small queries at every table it works on, and SQLAlchemy's
    statement machinery costs more than SQLite's answer (~0.1 ms a statement; issue 24). On
    SQLite they go through the driver's own cursor on the same connection (the columns read
    this way are integers and text, which sqlite3 returns as SQLAlchemy does; not the
    booleans of ``np_table``); elsewhere through SQLAlchemy."""
    conn = where.connection() if isinstance(where, Session) else where
    if conn.dialect.name == "sqlite":
        cur = conn.connection.cursor()
        try:
            cur.execute(sql, params or {})
            return cur.fetchall()
        finally:
            cur.close()
    return [tuple(r) for r in conn.execute(sql_text(sql), params or {}).all()]


def plain_count(where: "Session | Connection", sql: str, params: dict[str, Any] | None = None) -> int:
    """:func:`plain` for a statement that changes rows: how many it changed."""
    conn = where.connection() if isinstance(where, Session) else where
    if conn.dialect.name == "sqlite":
        cur = conn.connection.cursor()
        try:
            cur.execute(sql, params or {})
            return cur.rowcount
        finally:
            cur.close()
    return conn.execute(sql_text(sql), params or {}).rowcount
