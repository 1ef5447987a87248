"""Where each member of the rail gets its messages (shell): the forum of the table he plays at.

A tournament may mix forums (the local one, Reddit threads, e-mail tables, a blog); WRGPT's
railbird received the showdowns and the nightly standings by mail, where he played. So each
member of the rail is reached through the forum of one table of the tournament, his *rail
table*:

- a player of the tournament: the table he sits at now (his seat at the start, then each
  move's destination: a moved player follows his table's forum), or, once he is out
  (eliminated or disqualified), the table he was last seated at, unless the director named
  another (below);
- a spectator (never seated): the table the director named when he put him on the rail
  (``tournament rail --join zoe --forum spring-t2``), else the tournament's first table (as
  before this was built);
- the director may name a table for a player too: it is used once he is out of play.

On a forum with private messages each gets his own (an e-mail table: a mail to the address its
roster gives him); on one without (a blog) the message goes once, as a comment in that forum's
rail thread (``tournament rail --thread URL --forum TABLE``; without ``--forum``, the first
table's forum).

Pure reading of the ledger: :mod:`.rail` records and sends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import Session, select

from nomicpoker.core.table.fold_types import same_account
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import TableRow, loads
from nomicpoker.shell.tournament.director import TournamentError, events, tables_of


@dataclass(frozen=True)
class RailForum:
    """One forum the rail's messages go on: the table whose forum it is, its kind and config."""

    table: str
    kind: str
    config: dict

    @property
    def key(self) -> str:
        """Tables on one forum (a blog's, Reddit's subreddit, the local forum) share it; an
        e-mail table's mailbox is its own."""
        return self.kind + "\n" + json.dumps(self.config, sort_keys=True, default=str)


def _rows(s: Session, name: str) -> dict[str, TableRow]:
    names = tables_of(s, name)
    rows = {t.name: t for t in s.exec(select(TableRow).where(TableRow.name.in_(names))).all()}  # type: ignore[attr-defined]
    return {n: rows[n] for n in names if n in rows}


def forum_of(row: TableRow) -> RailForum:
    return RailForum(row.name, row.forum_kind, ledger.forum_settings(row))


def last_tables(s: Session, name: str) -> dict[str, str]:
    """Each player's table now, or the last one he sat at: the start's draw, then every move
    (balancing, breaking, the final table, a redraw, a late entry), from the tournament's events."""
    number_to_table: dict[int, str] = {}
    out: dict[str, str] = {}
    for ev in events(s, name, ("start", "moves")):
        data = loads(ev.data)
        if ev.kind == "start":
            for t in data["tables"]:
                number_to_table[t["number"]] = t["table"]
                for p in t["seats"]:
                    if p:
                        out[p] = t["table"]
        elif ev.kind == "moves":
            for mv in data["moves"]:
                if mv["to_table"] in number_to_table:
                    out[mv["player"]] = number_to_table[mv["to_table"]]
    return out


def named_tables(s: Session, name: str) -> dict[str, str]:
    """The table the director named for a member of the rail (the last ``rail_join`` with a
    ``forum``), by the name he is on the rail as."""
    out: dict[str, str] = {}
    for ev in events(s, name, "rail_join"):
        table = loads(ev.data).get("forum")
        if table:
            out[ev.player] = table
    return out


def rail_tables(s: Session, name: str, on: list[str]) -> dict[str, RailForum]:
    """Each member of the rail ``on`` and the forum his messages go on (module docstring)."""
    rows = _rows(s, name)
    if not rows:
        return {}
    first = next(iter(rows))
    seated = last_tables(s, name)
    named = named_tables(s, name)
    in_play: set[str] | None = None
    out: dict[str, RailForum] = {}
    for who in on:
        player = next((p for p in seated if same_account(p, who)), None)
        table = seated.get(player) if player is not None else None
        if who in named and named[who] in rows and player is not None:
            if in_play is None:  # read only when the director named a table for a player
                from nomicpoker.shell.tournament.seatmap import seat_map

                in_play = set(seat_map(s, name).players())
            if player not in in_play:
                table = named[who]
        elif table is None:
            table = named.get(who) if named.get(who) in rows else first
        out[who] = forum_of(rows[table or first])
    return out


def groups(members: dict[str, RailForum], to: tuple[str, ...] | list[str]) -> list[tuple[RailForum, list[str]]]:
    """The members ``to`` grouped by the forum their messages go on, in the order of ``to``."""
    out: dict[str, tuple[RailForum, list[str]]] = {}
    for who in to:
        f = members[who]
        out.setdefault(f.key, (f, []))[1].append(who)
    return list(out.values())


def thread_for(s: Session, name: str, forum: RailForum) -> str | None:
    """The rail's thread on ``forum`` (a forum without private messages): the last one the
    director gave for a table on that forum (``--thread URL --forum TABLE``; without ``--forum``
    the first table's)."""
    rows = _rows(s, name)
    if not rows:
        return None
    first = next(iter(rows))
    found = None
    for ev in events(s, name, "rail_thread"):
        table = loads(ev.data).get("forum") or first
        if table in rows and forum_of(rows[table]).key == forum.key:
            found = ev.note
    return found


def check_table(s: Session, name: str, table: str) -> TableRow:
    """``table`` as a table of tournament ``name`` (``--forum TABLE``), or a refusal naming them."""
    rows = _rows(s, name)
    if table not in rows:
        raise TournamentError("bad_table", f"rail: {table!r} is not a table of tournament {name} "
                              f"(its tables: {', '.join(rows) or 'none yet: it has not started'})")
    return rows[table]


__all__ = ["RailForum", "check_table", "forum_of", "groups", "last_tables", "named_tables", "rail_tables",
           "thread_for"]
