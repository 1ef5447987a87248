"""A tournament's structure (core): the values a structure file sets, once validated
(:mod:`.structure_file` builds them from the file's bytes).

WHY a value and not the parsed TOML: every later step (the draw, the levels, the breaking order,
the payouts) reads one frozen object whose fields already obey the rules the validator checked,
so none of them re-checks a type or a range.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LevelsBy = Literal["hands", "days"]

#: the breaking orders a structure may name instead of a list of table numbers
BREAKING_NAMES: tuple[str, ...] = ("highest-first", "lowest-first")
#: the most seats a tournament table may have (a shared 52-card deck deals 2 hole cards to 23
#: players and a board of 5; the table's ruleset may allow fewer, checked when it starts)
MAX_TABLE_SIZE = 23
#: the fewest: with tables of 3 or more, a balanced draw or break never leaves a player alone at
#: a table (with tables of 2, three players would make a table of one)
MIN_TABLE_SIZE = 3


@dataclass(frozen=True)
class Level:
    """One level of forced bets: the ante every dealt-in player pays and the two blinds
    (``0, 0``: no blinds, for rulesets that have none)."""

    number: int
    ante: int
    small_blind: int
    big_blind: int

    def describe(self) -> str:
        parts = [f"blinds {self.small_blind}/{self.big_blind}"] if self.big_blind else []
        parts += [f"ante {self.ante}"] if self.ante or not parts else []
        return f"level {self.number}: " + ", ".join(parts)


@dataclass(frozen=True)
class Structure:
    """A validated structure file.

    - ``levels_by``/``level_length``: "Antes and blinds go up periodically. They may go up
      either after each multiple of N hands, or after each multiple of N days." (WRGPT); N is
      ``level_length``; hands are counted per table, days from the tournament's start.
    - ``breaking_order``: "highest-first", "lowest-first" or the table numbers in the order
      they are broken (Robert's: "tables are broken in a pre-set order").
    - ``vacation_hands_per_day``: None for no limit (WRGPT: "there may be limits imposed on the
      number of hands that can be played per day while someone is on vacation").
    - ``start_on_vacation``: every player starts on vacation and the table starts when all
      have said BACK or the timeout passed (WRGPT).
    - ``redraw_every_levels``: 0 never; N: the seats are redrawn when every N levels end.
    - ``late_entry_levels``: 0 no late entry; N: a late entrant may join until level N ends.
    - ``payouts``: the prize of 1st, 2nd, ... place (empty: places only).
    """

    name: str
    title: str
    ruleset: str
    starting_money: int
    table_size: int
    levels_by: LevelsBy
    level_length: int
    levels: tuple[Level, ...]
    breaking_order: str | tuple[int, ...] = "highest-first"
    vacation_hands_per_day: int | None = None
    start_on_vacation: bool = False
    redraw_every_levels: int = 0
    late_entry_levels: int = 0
    payouts: tuple[int, ...] = ()

    def break_order(self, tables: int) -> tuple[int, ...]:
        """The table numbers 1..``tables`` in the order they are broken (the last one left is
        the final table); :meth:`order_problem` first, for a list."""
        if self.breaking_order == "lowest-first":
            return tuple(range(1, tables + 1))
        if self.breaking_order == "highest-first":
            return tuple(range(tables, 0, -1))
        return tuple(self.breaking_order)

    def order_problem(self, tables: int) -> str | None:
        """Why the breaking order cannot serve ``tables`` tables (None: it can). A list must
        name every table of the draw exactly once: a pre-set order that leaves a table out is
        no order at all."""
        if isinstance(self.breaking_order, str):
            return None
        if sorted(self.breaking_order) != list(range(1, tables + 1)):
            return (f"breaking_order = {list(self.breaking_order)} but the draw makes {tables} "
                    f"table(s): name each of 1..{tables} once, or use \"highest-first\"")
        return None


__all__ = ["BREAKING_NAMES", "Level", "LevelsBy", "MAX_TABLE_SIZE", "MIN_TABLE_SIZE", "Structure"]
