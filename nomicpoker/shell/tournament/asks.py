"""The players' own tournament commands, answered (shell): ``SEATLOG``, ``RAIL`` and ``RAIL OFF``.

WRGPT: "At any time during the tournament, players can get a detailed report about the starting
seat assignment by using the SEATLOG command." The rail is an opt-in ("Once on the rail, you
will receive every showdown message from all other tables ...").

WHY here and not in the fold: the seat log and the rail are the tournament's, and a table's
fold knows only its own table. So the fold reads the command like any other player's command
(:mod:`nomicpoker.core.reading.player_commands`) and records an accepted verdict at a
tournament's table (or refuses it at a table of its own: ``not_a_tournament``); this room reads
those verdicts and answers them with the tournament's data:

- ``SEATLOG``: the seat log, the text of ``nomicpoker tournament seatlog``, to the player by
  private message (a reply in his table's thread where the forum has none);
- ``RAIL`` / ``RAIL OFF``: a ``rail_join`` / ``rail_leave`` event, as the director's
  ``tournament rail --join`` records it, confirmed to the player the same way.

Once each: a run records the verdicts it covers (a ``rail_asks`` event: up to which verdict of
each table, and what it answered, with the watermark the next run reads back:
:mod:`.watermarks`) in the same transaction as the rail's change, before any
message goes; a re-run answers nothing twice, a run that failed half-way leaves the rest of
its answers unsent rather than sent twice (the rail's change stands).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import select

from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.words.dialects import in_dialect, text_in_dialect
from nomicpoker.core.words.tags import reference_tag
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.forums import ForumFactory, declared_abilities, default_forum_factory
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import VerdictRow
from nomicpoker.shell.tournament import watermarks
from nomicpoker.shell.tournament.director import TournamentError, add_event, get, tables_of

#: the players' commands this room answers (the verdicts' canonical forms)
ASKS = ("SEATLOG", "RAIL", "RAIL OFF")


@dataclass(frozen=True)
class Answer:
    table: str
    player: str
    asked: str  # SEATLOG, RAIL, RAIL OFF
    thread: str
    forum_id: str


@dataclass(frozen=True)
class Asked:
    """What :func:`answer_asks` answered for one tournament."""

    tournament: str
    answers: tuple[Answer, ...] = ()


def _body(s, name: str, title: str, a: Answer, on: list[str]) -> str:  # type: ignore[no-untyped-def]
    from nomicpoker.shell.tournament.views import seatlog

    if a.asked == "SEATLOG":
        try:
            log = seatlog(s, name)
        except TournamentError as exc:
            return f"{a.player} asked for the SEATLOG of tournament {name} ({title}): {exc.message}\n"
        return (f"{a.player} asked for the SEATLOG of tournament {name} ({title}): the starting seat draw, "
                "which anyone can recompute from the published seed (docs/tournaments.md):\n\n"
                f"```\n{log}\n```\n")
    if a.asked == "RAIL":
        return (f"{a.player}, you are on the rail of tournament {name} ({title}): every showdown of the other "
                "tables and the nightly standings come to you. RAIL OFF takes you off it.\n")
    return f"{a.player}, you are off the rail of tournament {name} ({title}). RAIL puts you back on it.\n"


def answer_asks(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
                forum_factory: ForumFactory = default_forum_factory) -> Asked:
    """Answer the players' SEATLOG, RAIL and RAIL OFF at the tables of tournament ``name``
    (module docstring): recorded first, then sent; nothing twice."""
    from nomicpoker.shell.storage.store import transaction
    from nomicpoker.shell.tournament.rail import railbirds

    todo: list[tuple[Answer, str]] = []
    with transaction(engine) as s:
        row = get(s, name)
        if not row.started:
            return Asked(name)
        covered = watermarks.covered(s, name, "rail_asks")  # one row: the newest event's watermark
        upto: dict[str, int] = {}
        at = iso(now())
        names = tables_of(s, name)
        tops = dict(s.exec(select(VerdictRow.table_name, func.max(VerdictRow.seq))  # one query, not one a table
                           .where(VerdictRow.table_name.in_(names))  # type: ignore[attr-defined]
                           .group_by(VerdictRow.table_name)).all())
        for tname in names:
            top = tops.get(tname)
            if top is None or int(top) <= covered.get(tname, 0):
                continue
            upto[tname] = int(top)
            rows = s.exec(select(VerdictRow).where(
                VerdictRow.table_name == tname, VerdictRow.seq > covered.get(tname, 0),
                VerdictRow.status == "accepted", VerdictRow.revision == 1,
                VerdictRow.canonical.in_(ASKS)).order_by(VerdictRow.seq)).all()  # type: ignore[attr-defined]
            for v in rows:
                a = Answer(tname, v.author, v.canonical, v.thread, v.forum_id)
                on = railbirds(s, name)
                there = next((p for p in on if same_account(p, v.author)), None)
                if a.asked == "RAIL" and there is None:
                    add_event(s, name, "rail_join", at, player=v.author, note=f"RAIL at {tname}")
                elif a.asked == "RAIL OFF" and there is not None:
                    add_event(s, name, "rail_leave", at, player=there, note=f"RAIL OFF at {tname}")
                s.flush()
                todo.append((a, _body(s, name, row.title, a, railbirds(s, name))))
        if not upto:
            return Asked(name)
        add_event(s, name, "rail_asks", at, data={
            "upto": upto, "answered": [[a.table, a.forum_id, a.player, a.asked] for a, _b in todo],
            "covered": watermarks.advanced(covered, upto)})
        tables = {t: ledger.get_table(s, t) for t in {a.table for a, _b in todo}}
        configs = {t: (r.forum_kind, ledger.forum_settings(r)) for t, r in tables.items()}
    forums: dict[str, object] = {}
    for a, body in todo:
        kind, config = configs[a.table]
        forum = forums.get(a.table)
        if forum is None:
            forum = forums[a.table] = forum_factory(kind, config, state)
        if declared_abilities(kind, config).private_send:
            forum.send_private(a.player, f"Tournament {name}: {a.asked}",  # type: ignore[attr-defined]
                               text_in_dialect(body, forum.abilities.markup))  # type: ignore[attr-defined]
        else:  # a forum without private messages: a reply to the player's comment
            key = "-".join((a.table, "ask", re.sub(r"[^A-Za-z0-9._:-]", "", a.forum_id)[:40] or "0"))
            forum.post_comment(a.thread, in_dialect(f"{body}\n{reference_tag(key)}\n",  # type: ignore[attr-defined]
                                                    forum.abilities.markup), a.forum_id, tag=key)  # type: ignore[attr-defined]
    return Asked(name, tuple(a for a, _b in todo))


__all__ = ["ASKS", "Answer", "Asked", "answer_asks"]
