"""Standings across every table of a game (pure): WRGPT's ``SCORE`` and ``SCORE/L``.

WHY its own module: the manual's "total aggregate standings of all players" are a view over
many tables' GNDTs, which no single table's fold knows; the shell gathers each table's Money
and this module ranks and renders them, the same way for the ``nomicpoker score`` command
and anything that prints them later.

Ranking: by Money summed over every table the player sits at, most first. A player with no
Money left at any table is eliminated; "Normally, this listing will not include players who
have been eliminated" (``full`` lists them), and "eliminated players are ranked in reverse
order of elimination": the later the hand they went out in, the higher. Hand numbers are per
table, so across tables that order is by hand number, then name (ties in any order are
allowed by the manual: "tied players are ranked in an irrelevant order").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True)
class TableMoney:
    """One player's Money at one table, and the hand in which it reached 0 (if it did)."""

    table: str
    player: str
    money: int
    out_hand: int | None = None


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    money: int
    tables: tuple[str, ...]
    eliminated: bool
    out_hand: int | None


def standings(rows: Iterable[TableMoney], full: bool = False) -> tuple[Standing, ...]:
    """The ranked standings (eliminated players only with ``full``)."""
    money: dict[str, int] = {}
    tables: dict[str, list[str]] = {}
    out: dict[str, int] = {}
    for r in rows:
        money[r.player] = money.get(r.player, 0) + r.money
        tables.setdefault(r.player, []).append(r.table)
        if r.out_hand is not None:
            out[r.player] = max(out.get(r.player, 0), r.out_hand)
    alive = sorted((p for p in money if money[p] > 0), key=lambda p: (-money[p], p))
    gone = sorted((p for p in money if money[p] <= 0), key=lambda p: (-out.get(p, 0), p))
    ranked = alive + (gone if full else [])
    return tuple(Standing(k + 1, p, money[p], tuple(sorted(tables[p])), money[p] <= 0,
                          out.get(p) if money[p] <= 0 else None)
                 for k, p in enumerate(ranked))


def render(rows: tuple[Standing, ...], notes: Mapping[str, str] | None = None) -> str:
    """The standings as a fixed-width table in the WRGPT dealer's status-table style. Status:
    ``out hand N`` for an eliminated player, else the player's note at their tables
    (``notes``: ``AWOL`` after a timeout, ``away`` while sitting out, a vacation's until)."""
    name_w = max([len("Name")] + [len(r.player) for r in rows])
    tab_w = max([len("Tables")] + [len(", ".join(r.tables)) for r in rows])
    money_w = max([len("Bankroll")] + [len(str(r.money)) for r in rows])
    num_w = max(1, len(str(len(rows))))
    rule = f"+{'-' * num_w}+{'-' * (name_w + 2)}+{'-' * money_w}+{'-' * (tab_w + 2)}+{'-' * 12}+"
    out = [rule, f"|{'#':>{num_w}}| {'Name':<{name_w}} |{'Bankroll':>{money_w}}| "
                 f"{'Tables':<{tab_w}} | {'Status':<10} |", rule]
    for r in rows:
        status = ("out" + (f" hand {r.out_hand}" if r.out_hand else "")) if r.eliminated else \
            (notes or {}).get(r.player, "")
        out.append(f"|{r.rank:>{num_w}}| {r.player:<{name_w}} |{r.money:>{money_w}}| "
                   f"{', '.join(r.tables):<{tab_w}} | {status:<10} |")
    out.append(rule)
    return "\n".join(out) + "\n"
