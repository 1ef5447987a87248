"""What the fold remembers for play over days (pure): settings in force, vacations, timeouts,
who sits out, players' start hours, a freeze, flood counters, reminders sent; and the
*alarms* it hands the shell (when each reminder and deadline of the current wait falls).

WHY alarms come out of the fold: the fold knows who is waited on, since when, under which
settings and whose own START hour; the moment is a pure function of those (and the time
zone database). The shell only compares alarms with its clock and records the ones that
have passed as dealer events (:mod:`nomicpoker.shell.cycle.deadlines`), which the fold then
replays. A reminder or timeout already recorded is no longer an alarm, so a repeated or
crashed poll never sends one twice.

Kept in :class:`nomicpoker.core.table.fold_state.TableState` (field ``days``), as everything the fold
remembers is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import asdict
from typing import Any, Mapping

from nomicpoker.core.table.fold_types import Alarm, Revision
from nomicpoker.core.table.office_hours import deadline, parse_moment, reminder_times, shown
from nomicpoker.core.table.table_settings import TableSettings, settings_from

#: the dealer event kind of a reminder sent
REMINDER = "reminder"
#: markers in the status table
VACATION_MARK = "V"


@dataclass
class DaysState:
    settings: TableSettings = field(default_factory=TableSettings)
    #: player -> until-string, for players on vacation (``GONE``); resigned players too
    vacation: dict[str, str] = field(default_factory=dict)
    resigned: set[str] = field(default_factory=set)
    #: player -> the hand running when they went (0: between hands)
    vacation_hand: dict[str, int] = field(default_factory=dict)
    #: vacations the table has been told of (at the end of a hand, as WRGPT does)
    announced: set[str] = field(default_factory=set)
    #: timed out and not acted since
    awol: set[str] = field(default_factory=set)
    #: timeouts in a row
    timeouts: dict[str, int] = field(default_factory=dict)
    #: player -> why they sit out later hands ("timeouts" until BACK, "dealer" until table seat)
    sitting_out: dict[str, str] = field(default_factory=dict)
    start_hour: dict[str, int] = field(default_factory=dict)
    pending_start: dict[str, int] = field(default_factory=dict)
    #: "" (running), "protest" or "pause"; who protested and with what text
    frozen: str = ""
    protester: str = ""
    #: comments archived while frozen, adjudicated in order when the freeze ends
    held: list[Revision] = field(default_factory=list)
    #: (hand, author) -> invalid comments since their last valid one; noticed floods
    invalid: dict[tuple[int, str], int] = field(default_factory=dict)
    flooded: set[tuple[int, str]] = field(default_factory=set)
    #: player -> (the wait's start, reminders sent in it)
    reminded: dict[str, tuple[str, int]] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready, for the fold's snapshot (:mod:`nomicpoker.core.table.snapshot`)."""
        return {
            "settings": self.settings.as_dict(), "vacation": dict(self.vacation),
            "resigned": sorted(self.resigned), "vacation_hand": dict(self.vacation_hand),
            "announced": sorted(self.announced), "awol": sorted(self.awol), "timeouts": dict(self.timeouts),
            "sitting_out": dict(self.sitting_out), "start_hour": dict(self.start_hour),
            "pending_start": dict(self.pending_start), "frozen": self.frozen, "protester": self.protester,
            "held": [asdict(r) for r in self.held],
            "invalid": [[h, a, n] for (h, a), n in self.invalid.items()],
            "flooded": sorted([h, a] for h, a in self.flooded),
            "reminded": {p: list(v) for p, v in self.reminded.items()},
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> "DaysState":
        return cls(
            settings=settings_from(d["settings"]), vacation=dict(d["vacation"]), resigned=set(d["resigned"]),
            vacation_hand={p: int(n) for p, n in d["vacation_hand"].items()}, announced=set(d["announced"]),
            awol=set(d["awol"]), timeouts={p: int(n) for p, n in d["timeouts"].items()},
            sitting_out=dict(d["sitting_out"]), start_hour={p: int(n) for p, n in d["start_hour"].items()},
            pending_start={p: int(n) for p, n in d["pending_start"].items()}, frozen=d["frozen"],
            protester=d["protester"], held=[Revision(**{**r, "dice": tuple(r["dice"])}) for r in d["held"]],
            invalid={(int(h), a): int(n) for h, a, n in d["invalid"]},
            flooded={(int(h), a) for h, a in d["flooded"]},
            reminded={p: (str(v[0]), int(v[1])) for p, v in d["reminded"].items()},
        )

    @classmethod
    def at_creation(cls, settings: TableSettings, players: "tuple[str, ...] | list[str]") -> "DaysState":
        """The state of a new table: with ``settings.start_on_vacation`` (a tournament's
        ``start_on_vacation``), every player on vacation, the table told (WRGPT: "Often, a new
        tournament or new round will start with everybody on vacation. ... Players then must
        send in a BACK command.")."""
        if not settings.start_on_vacation:
            return cls(settings=settings)
        return cls(settings=settings, vacation={p: "start" for p in players},
                   vacation_hand={p: 0 for p in players}, announced=set(players))

    def away(self, player: str, awol: bool = True) -> bool:
        """On vacation (or resigned), or AWOL after a timeout: the dealer acts for them at
        once. WRGPT: "If you miss your deadline you will be put on vacation and a $0 bet will
        be entered for you." (until ``BACK`` or an accepted action). ``awol=False``: a hand of
        edition 1 (``TableSettings.edition``), where a timed-out player got a new deadline at
        each later turn instead."""
        return player in self.vacation or (awol and player in self.awol)

    def due(self, player: str, since: str) -> str | None:
        """When ``player``'s deadline of a wait that began at ``since`` passes (ISO UTC)."""
        hours = self.settings.deadline_hours
        start = parse_moment(since)
        if not hours or start is None:
            return None
        cal = self.settings.calendar(self.start_hour.get(player))
        return deadline(start, hours, cal).isoformat(timespec="seconds")

    def due_text(self, player: str, since: str) -> str | None:
        """The deadline as a notice states it: UTC, and the table's time zone."""
        due = self.due(player, since)
        moment = parse_moment(due) if due else None
        return shown(moment, self.settings.tz) if moment else None

    def when(self, moment: str) -> str:
        """A recorded moment (ISO) as every notice states times, as reminders do
        (``2026-11-30 13:00 UTC (Mon 2026-11-30 13:00 Europe/London)``); the text itself
        when it is not a moment."""
        at = parse_moment(moment)
        return shown(at, self.settings.tz) if at is not None else moment

    def reminders_due(self, player: str, since: str) -> list[str]:
        hours = self.settings.deadline_hours
        start = parse_moment(since)
        if not hours or start is None or not self.settings.reminders:
            return []
        cal = self.settings.calendar(self.start_hour.get(player))
        return [t.isoformat(timespec="seconds")
                for t in reminder_times(start, hours, cal, self.settings.reminders)]

    def markers(self) -> tuple[dict[str, str], dict[str, str]]:
        """(name marker, status note) per player for the status table: ``V`` and the first six
        characters of the until-string for an announced vacation, ``AWOL`` after a timeout,
        ``away`` while sitting out."""
        marks: dict[str, str] = {}
        notes: dict[str, str] = {}
        for p in self.sitting_out:
            notes[p] = "away"
        for p in self.awol:
            notes[p] = "AWOL"
        for p, until in self.vacation.items():
            if p in self.announced:
                marks[p] = VACATION_MARK
                notes[p] = "resign" if p in self.resigned else (until[:6] or "gone")
        return marks, notes


def wait_alarms(days: DaysState, hand: int, waits: list[tuple[str, str]], timeout_kind: str) -> list[Alarm]:
    """The alarms of the players waited on: ``waits`` is ``(player, since)`` for each. Nothing
    while the table is frozen (no deadline runs) or has no deadline."""
    if days.frozen or not days.settings.deadline_hours:
        return []
    out: list[Alarm] = []
    for player, since in waits:
        due = days.due(player, since)
        if due is None:
            continue
        sent_since, sent = days.reminded.get(player, ("", 0))
        sent = sent if sent_since == since else 0
        for n, at in enumerate(days.reminders_due(player, since), start=1):
            if n > sent and at < due:
                out.append(Alarm(at, REMINDER, hand, player, n))
        out.append(Alarm(due, timeout_kind, hand, player))
    return out
