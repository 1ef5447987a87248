"""Levels by hands or by days, and the vacation rules of a tournament (core).

WRGPT: "Antes and blinds go up periodically. They may go up either after each multiple of N
hands, or after each multiple of N days. This will be announced at the start of the
tournament." Robert's: "If there is a signal designating the end of a betting level, the new
limits apply on the next deal." So the level is read for the next deal at a table:

- by hands: from the hands already dealt at that table (hand ``N + 1`` is the first of level 2);
- by days: from the tournament day of the deal; day 1 is the first 24 hours from the start
  (``day_number``), so level 2 starts with day ``N + 1``.

Past the last level the last one stays. The clock is the shell's: these functions are given
the times.

Vacations: "In a given tournament, there may be limits imposed on the number of hands that can
be played per day while someone is on vacation, to avoid the situation where a small number of
people quickly eliminate a vacationed player by making him use up all his money in antes and
blinds." "While AWOL, you are NOT protected by the rule that limits the number of hands per day
while someone is on vacation." A resignation is "a special sort of vacation with no limits on
the number of hands that can be played per day." And "Often, a new tournament or new round will
start with everybody on vacation. ... As soon as all players have done this, or when the
standard timeout period has expired (whichever occurs first), the table will start."
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, Mapping, Sequence

from nomicpoker.core.tournament.structure import Level, Structure

Away = Literal["here", "vacation", "awol", "resigned"]

DAY = timedelta(days=1)


def day_number(start: datetime, at: datetime) -> int:
    """The tournament day ``at`` falls on: 1 for the first 24 hours from ``start``."""
    if at < start:
        return 1
    return (at - start) // DAY + 1


def level_for(structure: Structure, hands_dealt: int = 0, day: int = 1) -> Level:
    """The level of the next deal: ``hands_dealt`` at this table (levels by hands) or the
    tournament ``day`` of the deal (levels by days)."""
    done = hands_dealt if structure.levels_by == "hands" else max(day, 1) - 1
    index = min(done // structure.level_length, len(structure.levels) - 1)
    return structure.levels[index]


def level_changes(structure: Structure, before: Level, after: Level) -> str | None:
    """The announcement of a level change for the next deal, or None (no change)."""
    if before == after:
        return None
    unit = "hands" if structure.levels_by == "hands" else "days"
    return (f"Level {after.number} from the next deal ({after.describe().split(': ', 1)[1]}): antes and "
            f"blinds go up after each multiple of {structure.level_length} {unit}.")


def redraw_due(structure: Structure, before: Level, after: Level) -> bool:
    """WRGPT: "Also periodically, seats are redrawn." Here when every ``redraw_every_levels``
    levels end: the deal that starts level ``k * N + 1`` is dealt after a redraw."""
    n = structure.redraw_every_levels
    return bool(n) and after.number > before.number and (after.number - 1) // n > (before.number - 1) // n


def vacation_protects(away: Mapping[str, Away]) -> bool:
    """Whether the vacation hand limit applies: someone is on vacation proper (AWOL players
    and resigned ones are not protected)."""
    return any(state == "vacation" for state in away.values())


def vacation_limit_reached(structure: Structure, hands_today: int, away: Mapping[str, Away]) -> bool:
    """True when the table may deal no more hands today: a limit is set, a seated player is
    on vacation (not AWOL, not resigned), and ``hands_today`` (the hands dealt at this table
    this tournament day) has reached it."""
    limit = structure.vacation_hands_per_day
    return limit is not None and vacation_protects(away) and hands_today >= limit


def table_may_start(seated: Sequence[str], back: Sequence[str], opened: datetime, now: datetime,
                    timeout: timedelta) -> bool:
    """A table that starts with everybody on vacation starts "As soon as all players have done
    this [sent BACK], or when the standard timeout period has expired (whichever occurs first)"."""
    return set(seated) <= set(back) or now >= opened + timeout


__all__ = ["Away", "day_number", "level_changes", "level_for", "redraw_due", "table_may_start", "vacation_limit_reached",
           "vacation_protects"]
