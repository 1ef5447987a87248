"""Levels by hands or by days, the vacation rules, and places: WRGPT's and Robert's sentences,
each checked by a hand-worked example."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from nomicpoker.core.tournament.clock_rules import (day_number, level_changes, level_for, redraw_due,
                                                    table_may_start, vacation_limit_reached)
from nomicpoker.core.tournament.places import Elimination, format_standings, standings
from nomicpoker.core.tournament.structure import Level, Structure

LEVELS = (Level(1, 0, 10, 20), Level(2, 0, 20, 40), Level(3, 5, 30, 60))
BY_HANDS = Structure("t", "T", "roberts-nlhe", 1000, 9, "hands", 10, LEVELS)
BY_DAYS = replace(BY_HANDS, levels_by="days", level_length=2)
START = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)


def test_levels_by_hands():
    """WRGPT: "Antes and blinds go up periodically. They may go up either after each multiple of
    N hands, or after each multiple of N days." With N = 10: hands 1-10 at level 1, 11-20 at
    level 2, from hand 21 level 3, and the last level stays."""
    assert [level_for(BY_HANDS, hands_dealt=h).number for h in (0, 9, 10, 19, 20, 500)] == [1, 1, 2, 2, 3, 3]


def test_levels_by_days():
    """N = 2 days: days 1-2 at level 1, days 3-4 at level 2. Day 1 is the first 24 hours."""
    assert day_number(START, START) == 1
    assert day_number(START, START + timedelta(hours=23, minutes=59)) == 1
    assert day_number(START, START + timedelta(hours=24)) == 2
    assert day_number(START, START + timedelta(days=4, hours=1)) == 5
    days = [day_number(START, START + timedelta(days=d)) for d in range(6)]
    assert [level_for(BY_DAYS, day=d).number for d in days] == [1, 1, 2, 2, 3, 3]


def test_the_level_change_is_announced():
    """WRGPT: "This will be announced at the start of the tournament." and Robert's: "If there
    is a signal designating the end of a betting level, the new limits apply on the next deal." """
    assert level_changes(BY_HANDS, LEVELS[0], LEVELS[0]) is None
    assert level_changes(BY_HANDS, LEVELS[1], LEVELS[2]) == (
        "Level 3 from the next deal (blinds 30/60, ante 5): antes and blinds go up after each "
        "multiple of 10 hands.")


def test_seats_are_redrawn_periodically():
    """WRGPT: "Also periodically, seats are redrawn." Every 2 levels: before levels 3, 5, ..."""
    s = replace(BY_HANDS, redraw_every_levels=2, levels=LEVELS + (Level(4, 5, 40, 80), Level(5, 5, 50, 100)))
    steps = list(zip(s.levels, s.levels[1:]))
    assert [redraw_due(s, a, b) for a, b in steps] == [False, True, False, True]
    assert not any(redraw_due(BY_HANDS, a, b) for a, b in zip(LEVELS, LEVELS[1:]))


def test_the_vacation_hand_limit():
    """WRGPT: "In a given tournament, there may be limits imposed on the number of hands that can
    be played per day while someone is on vacation" """
    s = replace(BY_HANDS, vacation_hands_per_day=3)
    here = {"a": "here", "b": "here"}
    away = {"a": "here", "b": "vacation"}
    assert not vacation_limit_reached(s, 2, away)
    assert vacation_limit_reached(s, 3, away)
    assert not vacation_limit_reached(s, 50, here)
    assert not vacation_limit_reached(BY_HANDS, 50, away)  # no limit in the structure


def test_awol_and_resigned_players_are_not_protected():
    """WRGPT: "While AWOL, you are NOT protected by the rule that limits the number of hands per
    day while someone is on vacation." and a resignation "will be treated as a special sort of
    vacation with no limits on the number of hands that can be played per day." """
    s = replace(BY_HANDS, vacation_hands_per_day=3)
    assert not vacation_limit_reached(s, 10, {"a": "here", "b": "awol"})
    assert not vacation_limit_reached(s, 10, {"a": "here", "b": "resigned"})
    assert vacation_limit_reached(s, 10, {"a": "awol", "b": "vacation"})


def test_a_table_that_starts_with_everybody_on_vacation():
    """WRGPT: "Often, a new tournament or new round will start with everybody on vacation. ...
    As soon as all players have done this, or when the standard timeout period has expired
    (whichever occurs first), the table will start." """
    seated, hours = ["a", "b", "c"], timedelta(hours=4)
    assert not table_may_start(seated, ["a", "b"], START, START + timedelta(hours=1), hours)
    assert table_may_start(seated, ["a", "b", "c"], START, START + timedelta(hours=1), hours)
    assert table_may_start(seated, [], START, START + hours, hours)


def test_eliminated_players_are_ranked_in_reverse_order_of_elimination():
    """WRGPT: "eliminated players are ranked in reverse order of elimination." Five entrants:
    e out first (5th), then c (4th), then b (3rd); a and d still play, a with more chips."""
    rows = standings({"a": 700, "d": 300}, [Elimination("e", 3, 100), Elimination("c", 8, 50),
                                           Elimination("b", 12, 400)])
    assert [(r.place, r.player, r.out) for r in rows] == [(1, "a", False), (2, "d", False), (3, "b", True),
                                                          (4, "c", True), (5, "e", True)]


def test_players_out_on_the_same_hand_rank_by_their_starting_stacks():
    """Robert's: "If multiple players go broke on the same hand, the player starting the hand
    with the larger chip stack, at the start of the hand finishes in the higher ranking
    position." c started hand 9 with 80, b with 120: b is 3rd, c 4th."""
    rows = standings({"a": 500, "d": 100}, [Elimination("e", 2, 40), Elimination("c", 9, 80),
                                           Elimination("b", 9, 120)], payouts=[60, 30, 10])
    assert [(r.place, r.player, r.prize) for r in rows] == [(1, "a", 0), (2, "d", 0), (3, "b", 10),
                                                            (4, "c", 0), (5, "e", 0)]
    # a and d still play: their places (and prizes) are not final until one of them is out
    rows = standings({"a": 600}, [Elimination("e", 2, 40), Elimination("c", 9, 80), Elimination("b", 9, 120),
                                  Elimination("d", 11, 100)], payouts=[60, 30, 10])
    assert [(r.place, r.player, r.prize) for r in rows][:3] == [(1, "a", 60), (2, "d", 30), (3, "b", 10)]


def test_equal_stacks_out_on_one_hand_share_the_place_and_its_prizes():
    rows = standings({"a": 500}, [Elimination("c", 9, 80), Elimination("b", 9, 80)], payouts=[60, 31, 10])
    assert [(r.place, r.player, r.prize) for r in rows] == [(1, "a", 60), (2, "b", 21), (2, "c", 20)]
    assert sum(r.prize for r in rows) == 101  # nothing of the prizes is lost


def test_a_disqualified_player_takes_no_place():
    """Robert's: "Chips from a disqualified participant will be removed from play." """
    rows = standings({"a": 500, "b": 100}, [Elimination("x", 4, 300, disqualified=True),
                                           Elimination("c", 5, 10)], payouts=[10, 5, 1])
    assert [(r.place, r.player, r.prize) for r in rows] == [(1, "a", 0), (2, "b", 0), (3, "c", 1), (None, "x", 0)]
    assert format_standings(rows).splitlines()[-1] == "DQ x (disqualified)"
