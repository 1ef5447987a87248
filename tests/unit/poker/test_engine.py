"""The hand engine, one rule at a time, under both bundled rulesets.

Every expected number is worked by hand in the comment above its assertion (or quoted from
Robert's Rules' own example); none is read back from the engine.
"""

from __future__ import annotations

import pytest

from nomicpoker.core.poker.actions import (
    AllIn, Call, Check, DealBoard, DealHole, Fold, Muck, Raise, Reveal, Timeout,
)
from nomicpoker.core.poker.engine import Hand, legal_actions, need, start_hand, turn_column

from kits.references.engine import BLOG, RR, bcall, bcheck, bfold, blog3, braise, money, play, refused, rr3


# ------------------------------------------------------------------ blognomic-2008 rules

def test_every_seated_player_antes_and_the_pot_holds_the_antes():
    h = blog3(ante=5)
    # 3 players x 5 = 15 in the pot, 100 - 5 = 95 behind each
    assert h.pot == 15
    assert money(h) == {"alice": 95, "bob": 95, "carol": 95}
    assert need(h).kind == "action" and need(h).players == ("alice",)


def test_a_player_short_of_the_ante_antes_all_he_has():
    h = blog3(ante=5, stacks=(3, 100, 100))
    # alice has 3 < 5: she antes 3 and is all in; pot 3 + 5 + 5 = 13
    assert h.pot == 13 and h.seat("alice").money == 0 and h.seat("alice").all_in
    # the first to act is the first seated player after the button who can still act
    assert need(h).players == ("bob",)


def test_no_check_in_round_one_under_dealing_and_play():
    h = blog3()
    r = refused(h, bcheck("alice", 1), "check_before_flop")
    assert "No Player may Check before the Flop" in r.citation
    la = legal_actions(h)
    # first to act: raise any positive amount up to all 95, or fold; nothing to call
    assert (la.check, la.call, la.raise_min, la.raise_max) == (False, None, 1, 95)


def test_a_raise_must_add_more_than_the_amount_to_call():
    h = play(blog3(), braise("alice", 1, 10))
    # bob owes 10: a raise must add more than 10
    r = refused(h, braise("bob", 1, 10), "raise_not_more_than_call")
    assert "10" in r.message and "more than" in r.message
    assert legal_actions(h).raise_min == 11
    h = play(h, braise("bob", 1, 11))
    assert h.high_bet == 11 and h.seat("bob").money == 84  # 95 - 11


def test_raise_z_is_the_chips_added_and_a_call_is_the_highest_total_less_what_is_in():
    h = play(blog3(), braise("alice", 1, 10), braise("bob", 1, 25))
    # carol owes 25; alice has 10 in and owes 25 - 10 = 15
    h = play(h, bcall("carol", 1))
    refused(h, bcall("alice", 1, amount=25), "call_amount_mismatch")
    h = play(h, bcall("alice", 1, amount=15))
    assert money(h) == {"alice": 70, "bob": 70, "carol": 70}  # 95 - 25 each
    assert h.pot == 15 + 75


def test_the_round_ends_when_everyone_has_matched_the_last_raise_including_the_raiser():
    h = play(blog3(), braise("alice", 1, 10), bcall("bob", 1), bcall("carol", 1))
    # alice's matched raise counts as done: no more action, the flop is due
    assert need(h).kind == "board" and need(h).cards == 3
    assert h.round == 2 and h.to_act is None


def test_from_round_two_check_only_while_nobody_has_raised_first_actor_after_button():
    h = play(blog3(), braise("alice", 1, 10), bcall("bob", 1), bcall("carol", 1),
             DealBoard(("2c", "7d", "9h")))
    assert need(h).players == ("alice",)
    h = play(h, bcheck("alice", 2), braise("bob", 2, 5))
    refused(h, bcheck("carol", 2), "check_facing_raise")
    h = play(h, bfold("carol", 2), bfold("alice", 2))
    # bob alone: he wins the pot 15 + 30 + 5 = 50 uncontested, no reveal needed
    assert need(h).kind == "complete"
    assert h.result.uncontested and h.result.payouts == {"bob": 50}
    assert h.seat("bob").money == 85 - 5 + 50


def test_first_to_act_in_later_rounds_skips_folded_players():
    h = play(blog3(), braise("alice", 1, 10), bcall("bob", 1), bcall("carol", 1),
             DealBoard(("2c", "7d", "9h")), bcheck("alice", 2), braise("bob", 2, 5),
             bcall("carol", 2), bfold("alice", 2), DealBoard(("Jc",)))
    # alice folded: the first seated player after the button who has not folded is bob
    assert need(h).players == ("bob",)


def test_actions_naming_another_hand_or_round_are_stale_and_a_missing_one_refused():
    h = start_hand(BLOG, 7, [("a", 50), ("b", 50)], "b", ante=1)
    refused(h, Raise("a", 6, 1, amount=5), "stale_hand")
    refused(h, Raise("a", 7, 2, amount=5), "stale_round")
    refused(h, Raise("a", amount=5), "missing_hand_round")
    play(h, Raise("a", 7, 1, amount=5))


def test_whole_pot_to_the_winner_without_side_pots_or_returned_bets():
    # alice 30, bob 100 heads-up, no ante. alice (first after the button bob) raises all 30;
    # bob raises 100 (all in; adds more than the 30 to call). Nobody can act: the board runs out.
    h = start_hand(BLOG, 1, [("alice", 30), ("bob", 100)], "bob")
    h = play(h, braise("alice", 1, 30), braise("bob", 1, 100))
    assert h.runout and need(h) .kind == "board"
    h = play(h, DealBoard(("2c", "7d", "9h")), DealBoard(("Jc",)), DealBoard(("4s",)),
             Reveal("alice", ("Ah", "As")), Reveal("bob", ("Kh", "Qd")))
    # the 2008 text: the winner takes the Pot, all 130, although bob's last 70 was uncalled
    assert h.result.payouts == {"alice": 130} and h.result.returned == {}
    assert money(h) == {"alice": 130, "bob": 0}


def test_a_tie_splits_rounding_down_and_the_odd_chip_leaves_the_game():
    h = blog3(ante=5)
    h = play(h, braise("alice", 1, 1), bcall("bob", 1), bfold("carol", 1),
             DealBoard(("As", "Ks", "Qs")), bcheck("alice", 2), bcheck("bob", 2),
             DealBoard(("Js",)), bcheck("alice", 3), bcheck("bob", 3),
             DealBoard(("2d",)), bcheck("alice", 4), bcheck("bob", 4),
             # own decks: both hold the Ts, both have a royal flush
             Reveal("alice", ("Ts", "3c")), Reveal("bob", ("Ts", "4c")))
    # pot 15 + 1 + 1 = 17; 17 // 2 = 8 each; 1 chip destroyed
    assert h.result.payouts == {"alice": 8, "bob": 8}
    assert h.result.destroyed == 1 and h.result.awards[0].remainder == 1
    assert sum(money(h).values()) + h.result.destroyed == 300


def _blog_showdown(board, alice, bob) -> Hand:
    h = start_hand(BLOG, 1, [("alice", 10), ("bob", 10)], "bob", ante=1)
    return play(h, braise("alice", 1, 1), bcall("bob", 1), DealBoard(board[:3]),
                bcheck("alice", 2), bcheck("bob", 2), DealBoard(board[3:4]), bcheck("alice", 3),
                bcheck("bob", 3), DealBoard(board[4:]), bcheck("alice", 4), bcheck("bob", 4),
                Reveal("alice", alice), Reveal("bob", bob))


def test_five_of_a_kind_beats_four_of_a_kind_with_cards_from_own_decks():
    h = _blog_showdown(("Ad", "Ac", "As", "2c", "3d"), ("As", "Ah"), ("Ks", "Kh"))
    # alice: As Ah + Ad Ac As = five aces; bob: four aces (board + none) with a king kicker
    assert h.result.shown[0].player == "alice"
    assert "Five" in h.result.shown[0].name
    assert h.result.payouts == {"alice": 4}


def test_playing_the_board_is_not_allowed_under_dealing_and_play():
    # a royal flush on the board. alice must use a hole card: her best is A-K-Q-J + 3 = ace
    # high; bob's 9s makes K-Q-J-T-9 of spades, a straight flush.
    board = ("As", "Ks", "Qs", "Js", "Ts")
    h = _blog_showdown(board, ("2c", "3d"), ("9s", "2h"))
    assert h.result.payouts == {"bob": 4}
    # under Robert's rules both play the board and split (see the roberts test below)


# ------------------------------------------------------------------ roberts-nlhe rules



def test_blinds_are_posted_left_of_the_button_and_action_starts_left_of_the_big_blind():
    h = rr3()
    assert money(h) == {"a": 995, "b": 990, "c": 1000}
    assert need(h).players == ("c",)
    la = legal_actions(h)
    # c owes 10; the smallest raise is to 10 + 10 = 20 (raise-to amounts)
    assert (la.call, la.raise_min, la.raise_max, la.check) == (10, 20, 1000, False)


def test_the_big_blind_has_the_option_to_check_or_raise():
    h = play(rr3(), Call("c"), Call("a"))
    la = legal_actions(h)
    assert la.player == "b" and la.check and la.call is None and la.raise_min == 20
    h = play(h, Check("b"))
    assert need(h).kind == "board" and h.pot == 30


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop_only():
    h = start_hand(RR, 1, [("x", 500), ("y", 500)], "y", blinds=(5, 10))
    assert money(h) == {"x": 490, "y": 495}
    assert need(h).players == ("y",)
    h = play(h, Call("y"), Check("x"), DealBoard(("2c", "7d", "9h")))
    assert need(h).players == ("x",)


def test_a_raise_must_be_at_least_the_previous_bet_or_raise():
    h = play(rr3(), Call("c"), Call("a"), Check("b"), DealBoard(("2c", "7d", "9h")))
    # post-flop the smallest bet is the big blind
    r = refused(h, Raise("a", amount=9), "raise_too_small")
    assert "10" in r.message
    h = play(h, Raise("a", amount=100), Raise("b", amount=300))
    # b raised by 200: the next raise must be to at least 300 + 200 = 500
    refused(h, Raise("c", amount=450), "raise_too_small")
    assert legal_actions(h).raise_min == 500
    play(h, Raise("c", amount=500))


def test_a_short_all_in_does_not_reopen_the_betting_roberts_example():
    # Robert's no-limit rule 4's example: A bets 100, B raises to 200, C goes all in for
    # less than 300 total (250), A calls: B may not raise again. A could have.
    h = start_hand(RR, 1, [("A", 1000), ("B", 1000), ("C", 260), ("D", 1000)], "D",
                   blinds=(5, 10))
    # D has the button: A small blind, B big blind, C first to act pre-flop
    h = play(h, Call("C"), Fold("D"), Call("A"), Check("B"), DealBoard(("2c", "7d", "9h")),
             Raise("A", amount=100), Raise("B", amount=200), Raise("C", amount=250))
    la = legal_actions(h)
    assert la.player == "A" and la.raise_min == 350  # A faces B's full raise: may raise
    h = play(h, Call("A"))
    la = legal_actions(h)
    assert la.player == "B" and la.call == 50 and la.raise_min is None and la.all_in == 0
    refused(h, Raise("B", amount=400), "raise_not_reopened")
    refused(h, AllIn("B"), "raise_not_reopened")
    h = play(h, Call("B"))
    assert need(h).kind == "board"


def test_several_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    # after the flop: A bets 100, B calls, C all in for 150 (+50), D all in for 200 (+50):
    # the two shorts add up to 100, a full raise, so A (who already acted) may raise again.
    h = start_hand(RR, 1, [("A", 1000), ("B", 1000), ("C", 160), ("D", 210)], "D",
                   blinds=(5, 10))
    # D has the button: A small blind, B big blind, C first to act pre-flop
    h = play(h, Call("C"), Call("D"), Call("A"), Check("B"), DealBoard(("2c", "7d", "9h")))
    assert h.seat("C").money == 150 and h.seat("D").money == 200
    h = play(h, Raise("A", amount=100), Call("B"), AllIn("C"))
    assert legal_actions(h).player == "D"
    h = play(h, AllIn("D"))
    la = legal_actions(h)
    assert la.player == "A" and la.raise_min is not None


def test_a_short_blind_posts_what_it_has_and_the_minimum_bet_stays_the_big_blind():
    h = start_hand(RR, 1, [("a", 1000), ("b", 4), ("c", 1000)], "c", blinds=(5, 10))
    assert h.seat("b").money == 0 and h.seat("b").round_bet == 4
    la = legal_actions(h)
    # c must call the full big blind, 10, and raise to at least 20
    assert (la.player, la.call, la.raise_min) == ("c", 10, 20)


def test_antes_and_a_big_blind_ante_the_big_blind_pays_the_whole_tables_ante():
    h = rr3(big_blind_ante=30)
    # b (big blind) pays 30 + 10; pot 5 + 40 = 45
    assert money(h) == {"a": 995, "b": 960, "c": 1000} and h.pot == 45
    h2 = rr3(ante=3)
    # everyone antes 3 then blinds: pot 9 + 15 = 24
    assert money(h2) == {"a": 992, "b": 987, "c": 997} and h2.pot == 24


def test_the_big_blind_ante_is_dead_money_in_the_main_pot():
    # a 1000, b 100 (pays the BBA 30 and the blind 10 -> 60 behind), c 1000.
    # c shoves, a folds, b calls all in for 60 more. b's live chips: 10 + 60 = 70.
    h = rr3(stacks=(1000, 100, 1000), big_blind_ante=30)
    h = play(h, AllIn("c"), Fold("a"), Call("b"))
    h = play(h, DealBoard(("2c", "7d", "9h")), DealBoard(("Jc",)), DealBoard(("4s",)),
             Reveal("b", ("Ah", "As")), Reveal("c", ("Kh", "Qd")))
    # main pot: 70 (b) + 70 (c) + 5 (a's dead small blind) + 30 (the BB ante) = 175 to b;
    # c's uncalled 1000 - 70 = 930 comes back to c
    assert h.result.payouts == {"b": 175, "c": 930}
    assert h.result.returned == {"c": 930}
    assert money(h) == {"a": 995, "b": 175, "c": 930}


def test_uncalled_bets_are_returned_under_roberts_rules():
    h = start_hand(RR, 1, [("x", 1000), ("y", 200)], "x", blinds=(5, 10))
    # x (button, small blind) shoves 1000; y calls all in for 200 in total
    h = play(h, AllIn("x"), Call("y"))
    assert h.runout
    h = play(h, DealBoard(("2c", "7d", "9h")), DealBoard(("Jc",)), DealBoard(("4s",)),
             Reveal("x", ("Kh", "Qd")), Reveal("y", ("Ah", "As")))
    # x's 800 above y's 200 was never called: returned; y wins 400
    assert h.result.returned == {"x": 800}
    assert money(h) == {"x": 800, "y": 400}


def test_side_pots_go_to_the_best_hand_among_those_eligible():
    h = rr3(stacks=(100, 300, 300))
    h = play(h, AllIn("c"), AllIn("a"), Call("b"))
    h = play(h, DealBoard(("2c", "7d", "9h")), DealBoard(("Jc",)), DealBoard(("4s",)),
             Reveal("a", ("Ah", "As")), Reveal("b", ("Kh", "Kd")), Reveal("c", ("Qh", "Qd")))
    # main pot 3 x 100 = 300 to a (aces); side pot 2 x 200 = 400 to b (kings)
    assert [(p.amount, p.winners) for p in h.result.awards] == [(300, ("a",)), (400, ("b",))]
    assert money(h) == {"a": 300, "b": 400, "c": 0}


def test_odd_chips_go_to_the_first_winner_left_of_the_button_each_pot_separately():
    # seats a, b, c, d; d has the button. Antes 1 each make the pot odd.
    h = start_hand(RR, 1, list(zip("abcd", (100, 100, 100, 100))), "d", ante=1,
                   blinds=(5, 10))
    h = play(h, Fold("c"), Fold("d"), Call("a"), Check("b"),
             DealBoard(("As", "Ks", "Qs")), Check("a"), Check("b"), DealBoard(("Js",)),
             Check("a"), Check("b"), DealBoard(("Ts",)), Check("a"), Check("b"),
             Reveal("a", ("2c", "3d")), Reveal("b", ("4c", "5d")))
    # both play the royal flush on the board: pot 4 + 10 + 10 = 24 is even: 12 each
    assert h.result.payouts == {"a": 12, "b": 12}
    h = start_hand(RR, 1, list(zip("abcd", (100, 100, 100, 100))), "d",
                   ante=(1, 1, 1, 0), blinds=(5, 10))
    h = play(h, Fold("c"), Fold("d"), Call("a"), Check("b"),
             DealBoard(("As", "Ks", "Qs")), Check("a"), Check("b"), DealBoard(("Js",)),
             Check("a"), Check("b"), DealBoard(("Ts",)), Check("a"), Check("b"),
             Reveal("b", ("4c", "5d")), Reveal("a", ("2c", "3d")))
    # pot 3 + 10 + 10 = 23: 11 each and the odd chip to a, first clockwise from the button d
    assert h.result.payouts == {"a": 12, "b": 11} and h.result.destroyed == 0


def test_the_odd_chip_of_each_side_pot_is_awarded_separately():
    # a 51 (antes 1), b 100, c 100; c has the button. c shoves, a and b call all in.
    # Contributions 51 / 100 / 100: main pot 3 x 51 = 153, side pot 2 x 49 = 98.
    h = rr3(stacks=(51, 100, 100), ante=(1, 0, 0))
    h = play(h, AllIn("c"), AllIn("a"), Call("b"),
             DealBoard(("As", "Ks", "Qs")), DealBoard(("Js",)), DealBoard(("2h",)),
             Reveal("a", ("Th", "3d")), Reveal("b", ("Tc", "4d")), Reveal("c", ("7c", "8c")))
    # a and b both have the ace-high straight, c only ace high. Main pot 153 splits 76/76
    # with the odd chip to a (first clockwise from the button c); b alone wins the side 98.
    assert [(p.amount, p.winners, dict(p.shares)) for p in h.result.awards] == [
        (153, ("a", "b"), {"a": 77, "b": 76}), (98, ("b",), {"b": 98})]
    assert money(h) == {"a": 77, "b": 174, "c": 0}


def test_playing_the_board_is_allowed_under_roberts_rules():
    h = play(start_hand(RR, 1, [("x", 100), ("y", 100)], "y", blinds=(5, 10)),
             Call("y"), Check("x"), DealBoard(("As", "Ks", "Qs")), Check("x"), Check("y"),
             DealBoard(("Js",)), Check("x"), Check("y"), DealBoard(("Ts",)), Check("x"),
             Check("y"), Reveal("x", ("2c", "3d")), Reveal("y", ("9s", "2h")))
    # the board's royal flush beats y's K-high straight flush: both play it, split 20
    assert h.result.payouts == {"x": 10, "y": 10}


def test_showdown_order_last_aggressor_first_else_first_after_the_button():
    h = play(rr3(), Call("c"), Call("a"), Check("b"), DealBoard(("2c", "7d", "9h")),
             Check("a"), Check("b"), Check("c"), DealBoard(("Jc",)), Check("a"), Check("b"),
             Check("c"), DealBoard(("4s",)))
    checked = play(h, Check("a"), Check("b"), Check("c"))
    assert need(checked).kind == "reveal" and need(checked).players == ("a", "b", "c")
    bet = play(h, Check("a"), Raise("b", amount=50), Call("c"), Call("a"))
    assert need(bet).players == ("b", "c", "a")
    # blognomic reads "after_button" regardless of aggression
    assert BLOG.showdown_order == "after_button"


def test_a_muck_concedes_and_the_last_player_showing_wins():
    h = play(rr3(), Call("c"), Call("a"), Check("b"), DealBoard(("2c", "7d", "9h")),
             Check("a"), Check("b"), Check("c"), DealBoard(("Jc",)), Check("a"), Check("b"),
             Check("c"), DealBoard(("4s",)), Check("a"), Check("b"), Check("c"))
    h = play(h, Reveal("a", ("3c", "3d")), Muck("b"))
    assert need(h).players == ("c",)
    h = play(h, Muck("c"))
    assert h.result.payouts == {"a": 30}


def test_the_turn_column_marks_the_actor_the_others_in_the_hand_and_everyone_else():
    h = play(rr3(), Fold("c"))
    assert turn_column(h, ["a", "b", "c", "zed"]) == {"a": "x", "b": "-", "c": "o", "zed": "o"}
    h = play(h, Fold("a"))
    assert turn_column(h, ["a", "b", "c"]) == {"a": "o", "b": "o", "c": "o"}


def test_a_timeout_checks_when_it_can_and_folds_otherwise():
    h = play(rr3(), Timeout("c"))
    assert h.seat("c").folded  # c owed 10: fold
    h = play(h, Call("a"), Timeout("b"))
    assert not h.seat("b").folded and need(h).kind == "board"  # b could check


def test_reveals_wait_for_the_end_of_betting_but_may_precede_an_all_in_runout():
    h = rr3()
    refused(h, Reveal("a", ("Ah", "As")), "reveal_not_allowed")
    h = play(h, AllIn("c"), Call("a"), Fold("b"))
    assert h.runout and need(h) == need(h) and need(h).cards == 3
    h = play(h, Reveal("a", ("Ah", "As")), DealBoard(("2c", "7d", "9h")))
    refused(h, Reveal("a", ("Ah", "As")), "already_revealed")
    refused(h, Reveal("c", ("Kh",)), "wrong_card_count")
    refused(h, DealBoard(("2c",)), "duplicate_card")
    refused(h, DealBoard(("3c", "4c")), "wrong_card_count")
    h = play(h, Reveal("c", ("Kh", "Kd")), DealBoard(("Jc",)), DealBoard(("4s",)))
    assert need(h).kind == "complete" and h.result.payouts == {"a": 2010}


def test_a_reveal_must_match_the_cards_the_dealer_dealt():
    h = play(rr3(), DealHole("a", ("Ah", "As")), AllIn("c"), Call("a"), Fold("b"))
    refused(h, Reveal("a", ("Ah", "Ad")), "false_reveal")


def test_turn_errors_not_seated_not_your_turn_nothing_to_call_and_hand_over():
    h = rr3()
    refused(h, Call("zed"), "not_seated")
    r = refused(h, Call("a"), "not_your_turn")
    assert "c" in r.message
    h = play(h, Call("c"), Call("a"))
    refused(h, Call("b"), "call_nothing_to_call")
    refused(h, Raise("b", amount=5000), "raise_too_large")
    h = play(h, Fold("b"), DealBoard(("2c", "7d", "9h")), Raise("a", amount=50), Fold("c"))
    refused(h, Check("a"), "hand_over")
    refused(h, DealBoard(("Jc",)), "hand_over")


def test_a_player_who_cannot_cover_the_call_may_call_all_in_for_less():
    h = start_hand(RR, 1, [("x", 1000), ("y", 40)], "x", blinds=(5, 10))
    h = play(h, Raise("x", amount=200))
    la = legal_actions(h)
    # y has 30 behind and owes 190: a call is all 30; no raise possible
    assert (la.call, la.raise_min, la.all_in) == (30, None, 30)
    refused(h, Raise("y", amount=250), "insufficient_money")


def test_the_board_is_due_three_then_one_then_one():
    h = play(rr3(), Call("c"), Call("a"), Check("b"))
    assert need(h).cards == 3
    refused(h, DealBoard(("2c",)), "wrong_card_count")
    h = play(h, DealBoard(("2c", "7d", "9h")))
    refused(h, DealBoard(("Jc",)), "board_not_due")
    h = play(h, Check("a"), Check("b"), Check("c"))
    assert need(h).cards == 1


def test_start_hand_refuses_blinds_under_a_ruleset_without_them():
    with pytest.raises(ValueError):
        start_hand(BLOG, 1, [("a", 10), ("b", 10)], "b", blinds=(1, 2))
    with pytest.raises(ValueError):
        start_hand(RR, 1, [("a", 10), ("b", 10)], "nobody", blinds=(1, 2))
