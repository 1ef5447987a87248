"""Pots: side pots by contribution level, uncalled bets, and splitting with odd chips."""

from __future__ import annotations

from nomicpoker.core.poker.pots import Pot, build_pots, split, uncalled


def test_each_all_in_level_makes_a_pot_for_those_who_reached_it():
    # contributions 100 / 300 / 300 / 50 (the last folded): levels 50, 100, 300.
    # main: 50 x 4 + 50 x 3 (from 100 and both 300s) = 350, eligible 0, 1, 2
    # side: 200 x 2 = 400, eligible 1, 2
    pots = build_pots([100, 300, 300, 50], [True, True, True, False])
    assert pots == (Pot(350, (0, 1, 2)), Pot(400, (1, 2)))


def test_folded_chips_above_every_live_player_join_the_pot_below():
    # a folded player put in 500, the live ones 100 and 200:
    # 0-100: 300 (eligible 1, 2); 100-200: 200 (eligible 2); 200-500: 300 folded only -> joins
    pots = build_pots([500, 100, 200], [False, True, True])
    assert pots == (Pot(300, (1, 2)), Pot(500, (2,)))


def test_dead_money_goes_to_the_main_pot():
    assert build_pots([100, 50], [True, True], dead=30) == (Pot(130, (0, 1)), Pot(50, (0,)))


def test_a_player_all_in_on_dead_money_alone_contests_the_dead_money():
    # seat 2 went all in on a dead ante (nothing live); seats 0 and 1 put in 2 each: the
    # 13 dead chips are a pot for all three, the 4 live chips a pot for 0 and 1 (pokerkit's
    # pots for untrimmed antes)
    assert build_pots([2, 2, 0], [True, True, True], dead=13) == (Pot(13, (0, 1, 2)), Pot(4, (0, 1)))
    # folded, he contests nothing: the dead money joins the main pot
    assert build_pots([2, 2, 0], [True, True, False], dead=13) == (Pot(17, (0, 1)),)


def test_without_side_pots_everything_is_one_pot_for_every_live_player():
    assert build_pots([100, 300, 50], [True, True, False], side_pots=False) == (
        Pot(450, (0, 1)),)


def test_the_uncalled_part_is_the_top_contribution_above_the_second():
    assert uncalled([100, 300, 250]) == (1, 50)
    assert uncalled([300, 300, 10]) == (None, 0)
    assert uncalled([0, 0]) == (None, 0)


def test_destroy_rounds_each_share_down_and_reports_the_remainder():
    shares, gone = split(17, [0, 1], "destroy", lambda i: i)
    assert shares == {0: 8, 1: 8} and gone == 1


def test_odd_chips_go_one_each_clockwise_from_the_button():
    # 3 winners, 11 chips: 3 each and 2 odd chips to the first two clockwise
    # (key: distance from the button; seat 2 is closest, then 0, then 1)
    order = {2: 0, 0: 1, 1: 2}
    shares, gone = split(11, [0, 1, 2], "first_left_of_button", order.__getitem__)
    assert shares == {2: 4, 0: 4, 1: 3} and gone == 0
