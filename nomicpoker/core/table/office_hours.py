"""Office hours: when a deadline of N hours falls, the WRGPT way (seed ``000_…``).

A player has a number of *office hours* to act. Office hours run from the start of day for
the length of day, Monday to Friday, in the table's time zone ("All calculations are done in
the host machine timezone": for us, the table's). The manual's examples, with a 9 AM start,
a 9-hour day and a 6-hour deadline:

- a bet on Tuesday 11:15 gives until Tuesday 17:15;
- a bet on Friday 8:22 gives until Friday 15:00 (the clock starts at 9:00);
- a bet on Saturday 16:20 gives until Monday 15:00;

and with an 18:00 start and a 9-hour day, a bet on Friday 20:15 gives until Monday 2:15:
Friday's day runs 18:00 to 3:00, its Saturday part is off, and the hours of a weekday are
those ``h`` with ``(h - start) mod 24 < length``, so Monday 0:00 to 3:00 (the tail of
Sunday's day) is office time. WRGPT 26 added a cap: "Timeouts can never be more than 24
hours", so past the cap (wall-clock hours from the start) the clock runs regardless.

A table without office hours has a day of 24 hours and no weekends off: its deadline is the
plain wall clock.

WHY walk whole days in wall time: a day's office windows are at most two intervals of the
local clock, so a deadline across a weekend costs a handful of steps, and a DST change is
handled by the time zone database (an office hour is an hour of the local clock; the day the
clocks change has one more or one less).

Pure: times in, times out. The time zone database is read-only reference data.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nomicpoker.core.errors import CodedError

#: a deadline's search gives up after this many days (a calendar always has office time, so
#: this only bounds absurd lengths)
_MAX_DAYS = 3660


class CalendarError(CodedError):
    """A calendar setting that cannot be used (``bad_timezone``, ``bad_office_hours``)."""


@dataclass(frozen=True)
class Calendar:
    """When the clock of a deadline runs.

    ``day_start``: the hour (0-23) office hours begin; ``day_length``: how many (1-24);
    ``weekends_off``: Saturday and Sunday (local) have none; ``cap_hours``: wall-clock hours
    after which a deadline passes whatever the office hours say (``None``: no cap);
    ``tz``: an IANA zone name (``Europe/London``)."""

    tz: str = "UTC"
    day_start: int = 0
    day_length: int = 24
    weekends_off: bool = False
    cap_hours: int | None = None

    def __post_init__(self) -> None:
        zone(self.tz)
        if not 0 <= self.day_start <= 23:
            raise CalendarError("bad_office_hours", f"start of day {self.day_start}: a whole hour 0-23")
        if not 1 <= self.day_length <= 24:
            raise CalendarError("bad_office_hours", f"length of day {self.day_length}: 1-24 hours")
        if self.cap_hours is not None and self.cap_hours < 1:
            raise CalendarError("bad_office_hours", f"cap {self.cap_hours}: at least 1 hour")

    @property
    def wall_clock(self) -> bool:
        """Every hour is an office hour."""
        return self.day_length == 24 and not self.weekends_off

    def starting(self, hour: int | None) -> "Calendar":
        """This calendar with a player's own start of day (``START h``)."""
        if hour is None or hour == self.day_start:
            return self
        return Calendar(self.tz, hour, self.day_length, self.weekends_off, self.cap_hours)


def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name``; a coded error naming it when it is unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise CalendarError("bad_timezone", f"time zone {name!r} is unknown (use an IANA name such "
                            "as UTC, Europe/London or America/New_York)") from exc


def _windows(cal: Calendar, day: date, tz: ZoneInfo) -> list[tuple[datetime, datetime]]:
    """The office windows of one local date, as aware UTC intervals in order."""
    if cal.weekends_off and day.weekday() >= 5:
        return []
    if cal.day_length >= 24:
        spans = [(0, 24)]
    elif cal.day_start + cal.day_length <= 24:
        spans = [(cal.day_start, cal.day_start + cal.day_length)]
    else:
        spans = [(0, cal.day_start + cal.day_length - 24), (cal.day_start, 24)]

    def at(hour: int) -> datetime:
        d = day + timedelta(days=hour // 24)
        return datetime.combine(d, time(hour % 24), tzinfo=tz).astimezone(timezone.utc)

    return [(at(a), at(b)) for a, b in spans]


def add_office_hours(start: datetime, hours: float, cal: Calendar) -> datetime:
    """The moment ``hours`` office hours after ``start`` (aware), in UTC, before the cap."""
    tz = zone(cal.tz)
    start = start.astimezone(timezone.utc)
    left = timedelta(hours=hours)
    if cal.wall_clock or left <= timedelta(0):
        return start + left
    day = start.astimezone(tz).date() - timedelta(days=1)  # yesterday's window may run past midnight
    for _ in range(_MAX_DAYS):
        for a, b in _windows(cal, day, tz):
            a = max(a, start)
            if b <= a:
                continue
            if b - a >= left:
                return a + left
            left -= b - a
        day += timedelta(days=1)
    raise CalendarError("bad_office_hours", f"no {hours} office hours within {_MAX_DAYS} days")


def deadline(start: datetime, hours: float, cal: Calendar) -> datetime:
    """When a deadline of ``hours`` office hours from ``start`` passes: the office-hours
    moment, or the cap (wall-clock hours from ``start``) if that comes first."""
    due = add_office_hours(start, hours, cal)
    if cal.cap_hours is not None:
        due = min(due, start.astimezone(timezone.utc) + timedelta(hours=cal.cap_hours))
    return due


def reminder_times(start: datetime, hours: float, cal: Calendar, count: int) -> list[datetime]:
    """``count`` reminder moments spread evenly over the office hours before the deadline
    (one reminder: halfway). Under a cap that comes first, evenly over the wall clock."""
    due = deadline(start, hours, cal)
    out = []
    for k in range(1, count + 1):
        at = add_office_hours(start, hours * k / (count + 1), cal)
        if at >= due:
            at = start.astimezone(timezone.utc) + (due - start.astimezone(timezone.utc)) * k / (count + 1)
        out.append(at)
    return out


def parse_moment(text: str) -> datetime | None:
    """An ISO time from the archive or a record, as aware UTC (``None`` when it is not one)."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def shown(moment: datetime, tz: str = "UTC") -> str:
    """A moment as a turn notice states it: ``2026-11-27 15:00 UTC``, and in the table's time
    zone too when that is not UTC (``2026-11-27 15:00 UTC (Fri 10:00 America/New_York)``)."""
    utc = moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    if tz in ("UTC", "Etc/UTC"):
        return utc
    local = moment.astimezone(zone(tz))
    return f"{utc} ({local.strftime('%a %Y-%m-%d %H:%M')} {tz})"
