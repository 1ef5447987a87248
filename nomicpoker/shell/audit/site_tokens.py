"""Which hand pages of the auditors' site changed (shell: it reads the store).

A table whose rows moved (:func:`nomicpoker.shell.cycle.moved.ledger_tokens`) has its index
page written again, but a hand page (``hand-<n>.html``, ``.json``, ``.phh``) is written
again only when its *hand token* moved: a digest of the rows that page can be written from.
At the final table of a 1,000-player tournament that is one or two hand pages after a hand
ends instead of every hand's (issue 24: 106 files, 2.54 s CPU, before).

A hand's token covers, for that table:

- its ``np_table`` row (names, forum, money, settings: a change rewrites every page);
- the hand's ``np_hand`` row;
- whether it is the last hand (its page links to the next hand only if there is one);
- for every ledger table keyed by ``table_name`` (from the database's own catalogue, so a
  table added later is covered without a change here): with a ``hand`` column, the count and
  last id of the rows of that hand; with a ``thread`` column and no ``hand`` (the comment
  archive), those of the rows in that hand's thread; and in both cases those of the rows
  that belong to no hand of the table (no hand, or a thread that is no hand's), in every
  hand's token (but comments in a thread that is no hand's, see :data:`NO_HAND_LEFT_OUT`);
  the outbox not at all (the site never reads it); any other keyed table whole, in every hand's token.

WHY this is enough: a hand page is written (:func:`nomicpoker.shell.audit.site_data.hand_page`)
from the hand's rows, the comments its verdicts name (a verdict of hand n is a row of hand n,
and a comment row is never edited in place: an edit is a new revision, with a new verdict),
which hands have ended (their ``np_hand_end`` rows: the private messages withheld until then)
and the table's rulesets (whole, in every token). Every doubt counts for every hand: a page
written again for nothing costs only its rendering; a page not written again would be wrong.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

from sqlalchemy import inspect, text
from sqlmodel import Session

#: the ledger's tables the hand pages never read (the outbox, the snapshot: the fold's cache,
#: dropped on any edit in place of the rows it covers; the director's records) or read
#: through their own part of the token (the table row, the hand rows)
SKIP = frozenset({"np_table", "np_snapshot", "np_hand", "np_outbox", "np_tournament", "np_tournament_event"})
#: comment rows in a thread that is no hand's (the Dealer's private inbox) are in no token: a
#: hand page shows a comment only through a verdict of its hand, a row that comes after it
NO_HAND_LEFT_OUT = frozenset({"np_comment"})

_COLUMNS: dict[str, dict[str, frozenset[str]]] = {}


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _keyed(session: Session) -> dict[str, frozenset[str]]:
    """The ledger tables keyed by ``table_name`` with their columns (once per database)."""
    u = session.get_bind().url
    url = repr((u.drivername, u.host, u.port, u.database))
    if url not in _COLUMNS:
        insp = inspect(session.connection())
        out = {}
        for name in sorted(insp.get_table_names()):
            cols = frozenset(c["name"] for c in insp.get_columns(name))
            if "table_name" in cols and name not in SKIP:
                out[name] = cols
        _COLUMNS[url] = out
    return _COLUMNS[url]


def hand_tokens(session: Session) -> dict[str, dict[int, str]]:
    """For every table, a token per hand (see the module docstring), with one query per
    ledger table for all the tables at once."""
    conn = session.connection()
    tables = {r["name"]: sorted(r.items()) for r in conn.execute(text("SELECT * FROM np_table")).mappings()}
    hands: dict[str, dict[int, str]] = defaultdict(dict)  # table -> number -> thread
    hand_rows: dict[tuple[str, int], list[Any]] = {}
    for r in conn.execute(text("SELECT * FROM np_hand")).mappings():
        hands[r["table_name"]][int(r["number"])] = r["thread"]
        hand_rows[(r["table_name"], int(r["number"]))] = sorted(r.items())
    thread_hand = {(name, thread): n for name, by in hands.items() for n, thread in by.items()}
    per_hand: dict[tuple[str, int], list[Any]] = defaultdict(list)
    common: dict[str, list[Any]] = defaultdict(list)
    for name, cols in _keyed(session).items():
        last = "MAX(id)" if "id" in cols else "0"
        if "hand" in cols or "thread" in cols:
            by = "hand" if "hand" in cols else "thread"
            for table, key, count, top in conn.execute(text(
                    f"SELECT table_name, {by}, COUNT(*), {last} FROM {_q(name)} GROUP BY table_name, {by} "
                    f"ORDER BY table_name, {by}")):
                n = key if by == "hand" else thread_hand.get((table, key))
                if n is not None and n in hands.get(table, {}):
                    per_hand[(table, int(n))].append((name, count, top))
                elif name not in NO_HAND_LEFT_OUT:
                    common[table].append((name, by, key, count, top))
        else:
            for table, count, top in conn.execute(text(
                    f"SELECT table_name, COUNT(*), {last} FROM {_q(name)} GROUP BY table_name ORDER BY table_name")):
                common[table].append((name, count, top))
    out: dict[str, dict[int, str]] = {}
    for table, by in hands.items():
        shared, last = (tables.get(table), common.get(table, [])), max(by)
        out[table] = {n: _digest(shared, n == last, hand_rows[(table, n)], per_hand.get((table, n), []))
                      for n in by}
    return out


def _digest(*parts: object) -> str:
    data = repr(parts).encode("utf-8")
    return hashlib.sha256(data).hexdigest()
