"""The office-hours calendar against the WRGPT manual's own examples and hand-worked cases.

Every expected moment below is worked out by hand from the manual's wording (seed ``000_…``):
office hours run from the start of day for the length of day, Monday to Friday, in the
table's time zone. 23 November 2026 is a Monday.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from nomicpoker.core.table.office_hours import (
    Calendar, CalendarError, add_office_hours, deadline, reminder_times, shown,
)
from nomicpoker.core.table.table_settings import SettingsError, TableSettings, settings_from

NY = ZoneInfo("America/New_York")


def ny(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=NY)


WRGPT = Calendar(tz="America/New_York", day_start=9, day_length=9, weekends_off=True)


@pytest.mark.parametrize("bet, due", [
    (ny(24, 11, 15), ny(24, 17, 15)),  # "a bet on Tuesday, 11:15 AM ... till Tuesday, 5:15 PM"
    (ny(27, 8, 22), ny(27, 15, 0)),    # "Friday, 8:22 AM ... till Friday, 3:00 PM"
    (ny(28, 16, 20), ny(30, 15, 0)),   # "Saturday, 4:20 PM ... till Monday, 3:00 PM"
])
def test_the_manuals_nine_am_examples(bet, due):
    assert deadline(bet, 6, WRGPT) == due.astimezone(timezone.utc)


def test_the_manuals_evening_start_runs_over_the_weekend_into_monday_night():
    # "18:00 starting time and a six hour timeout with a 9 hour length of day: after a bet on
    # Friday, 8:15 PM you have till Monday, 2:15 AM" (3 h 45 on Friday, 2 h 15 on Monday).
    cal = Calendar(tz="America/New_York", day_start=18, day_length=9, weekends_off=True)
    assert deadline(ny(27, 20, 15), 6, cal) == ny(30, 2, 15).astimezone(timezone.utc)


def test_a_deadline_spanning_days_carries_the_rest_to_the_next_office_day():
    # Thursday 16:00, 4 office hours, day 9-18: 2 h on Thursday, 2 h on Friday from 9:00.
    assert deadline(ny(26, 16), 4, WRGPT) == ny(27, 11).astimezone(timezone.utc)
    # Friday 17:30, 4 h: half an hour Friday, 3.5 h on Monday from 9:00 -> 12:30.
    assert deadline(ny(27, 17, 30), 4, WRGPT) == ny(30, 12, 30).astimezone(timezone.utc)


def test_weekends_count_when_they_are_not_off():
    cal = Calendar(tz="America/New_York", day_start=9, day_length=9, weekends_off=False)
    assert deadline(ny(28, 16, 20), 6, cal) == ny(29, 13, 20).astimezone(timezone.utc)  # 1 h 40 Sat, 4 h 20 Sun


def test_the_cap_runs_the_clock_regardless():
    cal = Calendar(tz="America/New_York", day_start=9, day_length=9, weekends_off=True, cap_hours=24)
    # Friday 17:00 + 4 office hours would be Monday 12:00; 24 wall-clock hours come first.
    assert deadline(ny(27, 17), 4, cal) == ny(28, 17).astimezone(timezone.utc)


def test_the_wall_clock_calendar_is_plain_hours():
    start = datetime(2026, 11, 27, 23, 30, tzinfo=timezone.utc)
    assert deadline(start, 50, Calendar()) == start + timedelta(hours=50)


def test_an_office_hour_is_an_hour_of_the_local_clock_across_a_dst_change():
    # US clocks go back at 2:00 on Sunday 1 November 2026. Friday 30 October 16:00 EDT with 4
    # office hours 9-18: 2 h Friday, 2 h Monday 2 November from 9:00 EST: 11:00 EST, which is
    # 16:00 UTC (under the summer offset it would have been 15:00 UTC).
    due = deadline(ny(30, 16, month=10), 4, WRGPT)
    assert due == datetime(2026, 11, 2, 16, 0, tzinfo=timezone.utc)


def test_a_players_own_start_of_day():
    # START 12 with a 9-hour day: a bet on Tuesday at 10:00 waits for noon, 6 h -> 18:00.
    assert deadline(ny(24, 10), 6, WRGPT.starting(12)) == ny(24, 18).astimezone(timezone.utc)


def test_one_reminder_comes_halfway_through_the_office_hours():
    # Friday 17:00, 4 office hours: 1 h Friday, 3 h Monday -> due Monday 12:00; halfway (2 office
    # hours) is Monday 10:00, not the wall-clock middle on Sunday.
    (r,) = reminder_times(ny(27, 17), 4, WRGPT, 1)
    assert r == ny(30, 10).astimezone(timezone.utc)
    two = reminder_times(ny(24, 9), 6, WRGPT, 2)
    assert two == [ny(24, 11).astimezone(timezone.utc), ny(24, 13).astimezone(timezone.utc)]


def test_a_moment_is_shown_in_utc_and_the_tables_zone():
    assert shown(ny(27, 15)) == "2026-11-27 20:00 UTC"
    assert shown(ny(27, 15), "America/New_York") == "2026-11-27 20:00 UTC (Fri 2026-11-27 15:00 America/New_York)"


@pytest.mark.parametrize("kwargs, code", [
    ({"tz": "Mars/Olympus"}, "bad_timezone"),
    ({"day_start": 24}, "bad_office_hours"),
    ({"day_length": 0}, "bad_office_hours"),
    ({"cap_hours": 0}, "bad_office_hours"),
])
def test_a_bad_calendar_is_a_coded_error(kwargs, code):
    with pytest.raises(CalendarError) as err:
        Calendar(**kwargs)
    assert err.value.code == code


def test_settings_take_the_rulesets_default_deadline_unless_the_table_sets_one():
    assert settings_from({}, 48).deadline_hours == 48
    assert settings_from({"deadline_hours": None}, 48).deadline_hours is None
    assert settings_from({"deadline_hours": 4}, None).deadline_hours == 4
    assert settings_from({}, None).reminders == 1 and settings_from({}, None).max_timeouts == 3
    with pytest.raises(SettingsError):
        settings_from({"deadline": 4})
    with pytest.raises(SettingsError):
        TableSettings(reminders=-1)
    with pytest.raises(CalendarError):
        settings_from({"tz": "Nowhere/Town"})
