"""Where a tournament's tables live (shell): the issue's "It works on every forum the tables can
live on (a tournament may mix the local forum, Reddit threads and e-mail tables), and a table's
thread or channel is opened by the bot where the forum allows and asked of the Dealer where it
does not (BlogNomic story posts)."

``tournament start --forum TABLES=FILE`` (repeatable) puts the tables ``TABLES`` (``3``, ``2-5``
or ``all``) on the forum a configuration file describes: the same file as ``table create
--forum-config`` (its ``kind`` and keys, no credentials: docs/forums.md). The tables not named
stay on the tournament's forum (the local one). :func:`plan` checks everything before the first
table is made, so a refused start leaves nothing: every range within the draw's tables and
named once, each configuration opened by its adapter (a bad key is named now, not at the third
table), and a configuration that names its table (an e-mail mailbox serves one) naming that one.
From then on each table keeps its forum in the ledger (``np_table.forum_kind``/``forum_config``),
as any table does, and the poll, ``hand start`` and the rail open it through the composition
root (:func:`nomicpoker.shell.cycle.forums.forum_for`).

Where a table's forum cannot open a thread (``Abilities.create_thread`` false: a blog, where the
Dealer writes the story post), ``start`` says so for that table and the ``hand start`` it
prints asks for the post (``--thread URL``), as ``table create`` does for such a table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from nomicpoker.shell.cycle.forums import ForumFactory, declared_abilities, default_forum_factory
from nomicpoker.shell.tournament.director import TournamentError

_RANGE = re.compile(r"^\s*(?:(all)|(\d+)(?:\s*-\s*(\d+))?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class TableForum:
    """One ``--forum`` given: the tables it names (as written), its kind and configuration."""

    tables: str
    kind: str
    config: Mapping[str, object]
    source: str = ""  # the file, for messages


def numbers(spec: str, count: int) -> list[int]:
    """The table numbers ``spec`` names (``3``, ``2-5``, ``all``) among ``count`` tables."""
    m = _RANGE.match(spec)
    if not m:
        raise TournamentError("bad_forum", f"--forum {spec}=...: name the tables as 3, 2-5 or all")
    if m.group(1):
        return list(range(1, count + 1))
    low = int(m.group(2))
    high = int(m.group(3) or low)
    if low < 1 or high < low:
        raise TournamentError("bad_forum", f"--forum {spec}=...: a range goes up from table 1 (e.g. 2-5)")
    if high > count:
        raise TournamentError("bad_forum", f"--forum {spec}=...: the draw makes {count} table(s), so there is "
                              f"no table {high}")
    return list(range(low, high + 1))


def plan(given: Sequence[TableForum], count: int, table_names: Sequence[str], state: Path,
         ruleset: str = "", forum_factory: ForumFactory = default_forum_factory) -> dict[int, tuple[str, dict]]:
    """Table number -> (kind, config) for the tables the ``--forum``s name (module docstring);
    everything checked before any table is made, and a forum without private messages refused
    for a ``ruleset`` that deals the hole cards (they go to each player privately)."""
    from nomicpoker.shell.storage.rulesets import read_ruleset

    shared = bool(ruleset) and read_ruleset(ruleset).ruleset.deck == "shared"
    out: dict[int, tuple[str, dict]] = {}
    where: dict[int, str] = {}
    for g in given:
        if shared and not declared_abilities(g.kind, g.config).private_send:  # ForumError for an unknown kind
            raise TournamentError("bad_forum", f"--forum {g.tables}={g.source or g.kind}: the {g.kind} forum has "
                                  f"no private messages, and ruleset {ruleset} deals each player's hole cards "
                                  "privately: choose a forum with private messages, or a ruleset where "
                                  "players bring their own decks (blognomic-2008)")
        forum_factory(g.kind, dict(g.config), state)  # ForumError('config') names a bad key now
        for n in numbers(g.tables, count):
            if n in out:
                raise TournamentError("bad_forum", f"table {n} is named by two --forum options ({where[n]} and "
                                      f"{g.tables}): name each table once")
            named = g.config.get("table")
            if named is not None and named != table_names[n - 1]:
                raise TournamentError("bad_forum", f"--forum {g.tables}={g.source or g.kind}: the configuration "
                                      f"serves table {named!r}, and table {n} is {table_names[n - 1]} (a "
                                      "mailbox serves one table: give each its own file)")
            out[n] = (g.kind, dict(g.config))
            where[n] = g.tables
    return out


def asks_for_threads(kind: str, config: Mapping[str, object]) -> bool:
    """Whether the Dealer must post this forum's threads himself (a blog's story posts)."""
    return not declared_abilities(kind, config).create_thread


__all__ = ["TableForum", "asks_for_threads", "numbers", "plan"]
