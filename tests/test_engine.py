"""The hand engine, one rule at a time, under both bundled rulesets.

Every expected number is worked by hand in the comment above its assertion (or quoted from
Robert's Rules' own example); none is read back from the engine.
"""

from __future__ import annotations

import pytest

from nomicpoker.actions import (
    AllIn, Call, Check, DealBoard, DealHole, Fold, Muck, Raise, Reveal, Timeout,
)
from nomicpoker.engine import Hand, Rejection, apply, legal_actions, need, start_hand, turn_column
from nomicpoker.rulesets import load_ruleset

BLOG = load_ruleset("blognomic-2008")
RR = load_ruleset("roberts-nlhe")


def play(hand: Hand, *events) -> Hand:
    """Apply events that must all be accepted."""
    for ev in events:
        r = apply(hand, ev)
        assert not isinstance(r, Rejection), (ev, r)
        hand = r
    return hand


def refused(hand: Hand, ev, code: str) -> Rejection:
    r = apply(hand, ev)
    assert isinstance(r, Rejection), (ev, r)
    assert r.code == code, r
    return r


def money(hand: Hand) -> dict[str, int]:
    return {s.name: s.money for s in hand.seats}


# Dealing and Play names every action's hand and round; these helpers fill them in.
def braise(p, rnd, z, hand=1):
    return Raise(p, hand, rnd, amount=z)


def bcall(p, rnd, hand=1, amount=None):
    return Call(p, hand, rnd, amount=amount)


def bcheck(p, rnd, hand=1):
    return Check(p, hand, rnd)


def bfold(p, rnd, hand=1):
    return Fold(p, hand, rnd)


def blog3(ante=5, stacks=(100, 100, 100)) -> Hand:
    # GNDT order alice, bob, carol; carol has the Button, so alice acts first.
    return start_hand(BLOG, 1, list(zip(("alice", "bob", "carol"), stacks)), "carol", ante=ante)


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

def rr3(stacks=(1000, 1000, 1000), blinds=(5, 10), **kw) -> Hand:
    # seats a, b, c; c has the button: a posts the small blind, b the big blind, c acts first
    return start_hand(RR, 1, list(zip("abc", stacks)), "c", blinds=blinds, **kw)


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


def test_the_fast_showdown_ranking_names_the_same_five_cards_as_best_hand():
    # the showdown ranks hands with the evaluator's table path; it must report exactly what
    # the reference best_hand reports (value, five cards, name) for any five-may-play hand
    import random

    from nomicpoker.cards import FULL_DECK
    from nomicpoker.evaluator import best_hand
    from nomicpoker.showdown import best_five

    rng = random.Random(20261121)
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 7)
        hole, board = tuple(cards[:2]), tuple(cards[2:])
        assert best_five(hole, board, 0) == best_hand(hole, board, 0)
    # a board that plays, and with a hole-card minimum the reference path is used
    board = ("As", "Ks", "Qs", "Js", "Ts")
    assert best_five(("2c", "3d"), board, 0) == best_hand(("2c", "3d"), board, 0)
    assert best_five(("2c", "3d"), board, 1) == best_hand(("2c", "3d"), board, 1)


def test_the_big_blind_keeps_its_option_after_a_short_all_in_but_a_limper_may_not_raise():
    # Robert's blind rule 3: the big blind's option to raise "is retained if someone goes
    # all-in with a wager of less than the minimum raise". Four seats, d on the button with
    # 15 chips: a small blind 5, b big blind 10, c first to act.
    h = start_hand(RR, 1, [("a", 500), ("b", 500), ("c", 500), ("d", 15)], "d",
                   blinds=(5, 10))
    # c limps for 10; d goes all in for 15 (5 more: short of the 10 a raise needs)
    h = play(h, Call("c"), AllIn("d"), Call("a"))
    la = legal_actions(h)
    assert la.player == "b" and la.raise_min == 25  # 15 + 10: the option is kept
    h = play(h, Call("b"))
    # c already acted (limped) and has faced only the short all-in: call or fold only
    la = legal_actions(h)
    assert la.player == "c" and la.call == 5 and la.raise_min is None


def test_a_timeout_at_showdown_mucks_and_the_other_hand_wins():
    h = start_hand(RR, 1, [("x", 100), ("y", 100)], "y", blinds=(5, 10))
    h = play(h, Call("y"), Check("x"), DealBoard(("2c", "7d", "9h")), Check("x"), Check("y"),
             DealBoard(("Jc",)), Check("x"), Check("y"), DealBoard(("4s",)), Check("x"),
             Check("y"), Reveal("x", ("3c", "3d")))
    assert need(h).players == ("y",)
    h = play(h, Timeout("y"))
    # y's deadline passed at showdown: y mucks, x takes the 20
    assert h.seat("y").mucked and h.result.payouts == {"x": 20}


def test_short_all_ins_reopen_the_betting_only_for_players_they_fully_raise():
    # Robert's no-limit rule 4: several short all-ins reopen the betting "if the resulting
    # wager size *to a player* qualifies as a raise". After the flop (full raise = the bet,
    # 100): A bets 100, B all in for 150 (+50, short), C calls 150, D all in for 210 (+60,
    # short; the two shorts add up to 110). A last acted facing 100 and now faces 210: 110
    # more, a full raise, so A may raise. C last acted facing 150 and now faces 210: only 60
    # more, not a full raise, so C may call or fold but not raise.
    h = start_hand(RR, 1, [("A", 1000), ("B", 160), ("C", 1000), ("D", 220)], "D",
                   blinds=(5, 10))
    h = play(h, Call("C"), Call("D"), Call("A"), Check("B"), DealBoard(("2c", "7d", "9h")))
    h = play(h, Raise("A", amount=100), AllIn("B"), Call("C"), AllIn("D"))
    la = legal_actions(h)
    assert la.player == "A" and la.call == 110 and la.raise_min == 310
    h = play(h, Call("A"))
    la = legal_actions(h)
    assert la.player == "C" and la.call == 60 and la.raise_min is None and la.all_in == 0
    refused(h, Raise("C", amount=400), "raise_not_reopened")
    refused(h, AllIn("C"), "raise_not_reopened")
    h = play(h, Call("C"))
    assert need(h).kind == "board"


def test_dealing_several_hole_cards_at_once_equals_dealing_them_one_by_one():
    from nomicpoker.actions import DealHoles

    h = rr3()
    deals = (DealHole("a", ("Ah", "Kd")), DealHole("b", ("2c", "2d")), DealHole("c", ("9s", "8s")))
    one_by_one = play(h, *deals)
    at_once = play(h, DealHoles(deals))
    assert at_once == one_by_one and at_once.log == one_by_one.log == deals
    assert at_once.in_play == one_by_one.in_play == {"Ah", "Kd", "2c", "2d", "9s", "8s"}
    # all or none: a duplicate in the third deal refuses the whole batch with its reason
    bad = deals[:2] + (DealHole("c", ("9s", "Kd")),)
    r = refused(h, DealHoles(bad), "duplicate_card")
    assert "Kd" in r.message
    refused(h, DealHoles((deals[0], DealHole("a", ("3c", "4c")))), "already_dealt")


def test_the_turn_column_at_each_phase_of_a_dealing_and_play_hand():
    # alice 20, bob 100, carol 100; carol has the Button; ante 5 each.
    cols = ["alice", "bob", "carol", "dave"]  # dave plays in the game but sits out this hand
    h = blog3(ante=5, stacks=(20, 100, 100))
    assert turn_column(h, cols) == {"alice": "x", "bob": "-", "carol": "-", "dave": "o"}
    # alice raises all her 15: all in, still in the hand, so "-" from now on
    h = play(h, braise("alice", 1, 15), braise("bob", 1, 30))
    assert turn_column(h, cols) == {"alice": "-", "bob": "-", "carol": "x", "dave": "o"}
    h = play(h, bcall("carol", 1))
    # round 1 is over and the Flop is due: the Dealer acts, no player has the "x"
    assert need(h).kind == "board"
    assert turn_column(h, cols) == {"alice": "-", "bob": "-", "carol": "-", "dave": "o"}
    # round 2 starts with the first seated player after the Button who can still bet: bob
    h = play(h, DealBoard(("2c", "7d", "9h")))
    assert turn_column(h, cols) == {"alice": "-", "bob": "x", "carol": "-", "dave": "o"}
    h = play(h, bcheck("bob", 2), bfold("carol", 2))
    # carol folded ("o"); bob and all-in alice are left, nobody else can bet: the board runs
    # out and the two must reveal, nobody has the "x"
    assert turn_column(h, cols) == {"alice": "-", "bob": "-", "carol": "o", "dave": "o"}
    h = play(h, DealBoard(("Jc",)), DealBoard(("4s",)))
    assert need(h) .kind == "reveal"
    assert turn_column(h, cols) == {"alice": "-", "bob": "-", "carol": "o", "dave": "o"}
    h = play(h, Reveal("alice", ("Ah", "As"), 1), Reveal("bob", ("Kh", "Qd"), 1))
    assert need(h).kind == "complete"
    assert set(turn_column(h, cols).values()) == {"o"}


def test_a_small_blind_left_alone_with_a_short_big_blind_has_nothing_to_decide():
    # blinds 5/10; b has only 3 and posts it all in. c folds: a (small blind, 5 in) is left
    # alone against b's all-in 3. Nobody could answer a bet and a has put in more than b can
    # match, so a has no decision (pokerkit agrees): the board runs out and they show down
    # for 3 + 3 = 6; a's other 2 were never called and go back to him.
    h = start_hand(RR, 1, [("a", 1000), ("b", 3), ("c", 1000)], "c", blinds=(5, 10))
    h = play(h, Fold("c"))
    assert legal_actions(h) is None and need(h).kind == "board"
    h = play(h, DealBoard(("Kh", "9s", "4c")), DealBoard(("3d",)), DealBoard(("Jh",)),
             Reveal("a", ("As", "Ad")), Reveal("b", ("2c", "7d")))
    # a's pair of aces beats b's king high: a wins the 6 and gets his uncalled 2 back
    assert h.result.returned == {"a": 2}
    assert [(p.amount, p.winners) for p in h.result.awards] == [(6, ("a",))]
    assert money(h) == {"a": 1003, "b": 0, "c": 1000}


def test_a_short_all_in_opening_bet_may_be_raised_only_by_players_yet_to_act():
    # Robert's no-limit rule 3: "A player who has already acted and is not facing a
    # full-size wager may not subsequently raise an all-in bet that is less than the minimum
    # bet". After the flop (minimum bet 10): A checks, B bets all in for 5. C has not acted:
    # he may raise, to at least 5 + 10 = 15 (rule 2's example). A checked: call or fold only.
    h = start_hand(RR, 1, [("A", 1000), ("B", 15), ("C", 1000)], "C", blinds=(5, 10))
    h = play(h, Call("C"), Call("A"), Check("B"), DealBoard(("2c", "7d", "9h")),
             Check("A"), AllIn("B"))
    la = legal_actions(h)
    assert (la.player, la.call, la.raise_min) == ("C", 5, 15)
    h = play(h, Call("C"))
    la = legal_actions(h)
    assert (la.player, la.call, la.raise_min, la.all_in) == ("A", 5, None, 0)
    refused(h, Raise("A", amount=20), "raise_not_reopened")


def test_no_raise_when_every_opponent_is_all_in_under_roberts_rules():
    # c (button, 300) shoves, a folds, b (big blind, 1000) faces 300: nobody could call a
    # raise (c is all in, a folded), and under Robert's Rules the unmatched part of any bet
    # goes back, so b may only call (290 more) or fold; pokerkit offers no raise here either.
    h = start_hand(RR, 1, [("a", 1000), ("b", 1000), ("c", 300)], "c", blinds=(5, 10))
    h = play(h, AllIn("c"), Fold("a"))
    la = legal_actions(h)
    assert (la.player, la.call, la.raise_min, la.raise_max, la.all_in) == ("b", 290, None, None, 0)
    refused(h, Raise("b", amount=600), "raise_nobody_to_call")
    refused(h, AllIn("b"), "raise_nobody_to_call")
    h = play(h, Call("b"))
    assert h.runout


def test_dealing_and_play_lets_a_player_raise_an_all_in_opponent_as_the_text_does():
    # The 2008 text puts no condition on a Raise but "more than the amount needed to Call",
    # and the winner takes the whole Pot, so the engine allows it (a pure loss for the raiser
    # when the all-in player wins). alice (10) raises all in; bob may raise 50.
    h = start_hand(BLOG, 1, [("alice", 10), ("bob", 100)], "bob")
    h = play(h, braise("alice", 1, 10))
    la = legal_actions(h)
    assert (la.player, la.call, la.raise_min, la.raise_max) == ("bob", 10, 11, 100)
    play(h, braise("bob", 1, 50))


def test_the_uncalled_part_of_a_bet_comes_back_before_the_side_pots_are_built():
    # blinds 5/10, d has the button. Everyone puts in 10 pre-flop. Flop: a all in for 50,
    # b raises to 300, c calls all in for 100 (less than the call), d folds.
    # Put in: a 60, b 310, c 110, d 10. Nobody matched b above c's 110: 200 back to b.
    # Main pot: 3 x 60 + d's 10 = 190 (a, b, c); side pot: 2 x 50 = 100 (b, c).
    h = start_hand(RR, 1, [("a", 60), ("b", 1000), ("c", 110), ("d", 1000)], "d",
                   blinds=(5, 10))
    h = play(h, Call("c"), Call("d"), Call("a"), Check("b"), DealBoard(("2c", "7d", "9h")),
             AllIn("a"), Raise("b", amount=300), AllIn("c"), Fold("d"))
    h = play(h, DealBoard(("Jc",)), DealBoard(("4s",)), Reveal("a", ("Ah", "As")),
             Reveal("b", ("Kh", "Kd")), Reveal("c", ("Qh", "Qd")))
    assert h.result.returned == {"b": 200}
    assert [(p.amount, p.eligible, p.winners) for p in h.result.awards] == [
        (190, ("a", "b", "c"), ("a",)), (100, ("b", "c"), ("b",))]
    # a's aces take the main pot, b's kings the side pot: b 1000 - 310 + 200 + 100 = 990
    assert money(h) == {"a": 190, "b": 990, "c": 0, "d": 990}


# --------------------------------------------------------------------------- FoldOut


def _three_handed():
    # blognomic-2008, ante 5 each from 100; button carol, so alice acts first in round 1.
    return start_hand(BLOG, 1, [("alice", 100), ("bob", 100), ("carol", 100)], "carol", ante=5)


def test_folding_out_a_player_who_is_not_to_act_keeps_the_turn_and_the_ante_in_the_pot():
    from nomicpoker.actions import FoldOut
    h = apply(_three_handed(), FoldOut("bob"))
    assert h.seats[h.to_act].name == "alice"
    assert h.seat("bob").folded and h.seat("bob").money == 95 and h.pot == 15


def test_folding_out_the_player_to_act_passes_the_turn_to_the_next_player_still_in():
    from nomicpoker.actions import FoldOut
    h = apply(_three_handed(), FoldOut("alice"))
    assert h.seats[h.to_act].name == "bob"


def test_folding_out_all_but_one_pays_the_whole_pot_to_the_last_player():
    from nomicpoker.actions import FoldOut
    h = apply(apply(_three_handed(), FoldOut("alice")), FoldOut("bob"))
    assert h.result is not None and h.result.uncontested
    assert {s.name: s.money for s in h.seats} == {"alice": 95, "bob": 95, "carol": 110}


def test_folding_out_twice_or_a_stranger_is_refused():
    from nomicpoker.actions import FoldOut
    h = apply(_three_handed(), FoldOut("bob"))
    again = apply(h, FoldOut("bob"))
    assert isinstance(again, Rejection) and again.code == "not_seated"
    assert apply(h, FoldOut("zed")).code == "not_seated"


# ------------------------------------------------------------------ short blinds heads-up

def _pokerkit_needs_an_action(stacks: tuple[int, int]) -> bool:
    """pokerkit's no-limit hold'em, blinds 5/10, heads-up (player 1 is the button and posts
    the small blind): does anyone have an action to take before the board?"""
    pokerkit = pytest.importorskip("pokerkit")
    A = pokerkit.Automation
    auto = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
            A.HOLE_DEALING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING,
            A.CHIPS_PULLING)
    st = pokerkit.NoLimitTexasHoldem.create_state(auto, True, 0, (5, 10), 10, stacks, 2)
    return st.actor_index is not None


def test_heads_up_a_big_blind_covering_a_short_small_blind_has_nothing_to_do():
    # b (button) posts the small blind all in for 3; a's big blind of 10 already covers it:
    # nobody has a decision, the board runs out (pokerkit: no actor either).
    assert not _pokerkit_needs_an_action((100, 3))
    h = start_hand(RR, 1, [("a", 100), ("b", 3)], "b", blinds=(5, 10))
    assert need(h).kind == "board"


def test_heads_up_a_small_blind_covering_a_short_big_blind_has_nothing_to_do():
    assert not _pokerkit_needs_an_action((3, 100))  # pokerkit: a (3) big blind, b the button
    h = start_hand(RR, 1, [("a", 3), ("b", 100)], "b", blinds=(5, 10))
    # a is all in for 3; b has 5 in: the 2 above a's 3 are uncalled and go back at the end
    assert need(h).kind == "board"


def test_a_reveal_of_the_same_card_twice_is_refused_under_own_decks():
    h = start_hand(BLOG, 1, [("alice", 10), ("bob", 10)], "bob", ante=1)
    h = play(h, braise("alice", 1, 1), bcall("bob", 1), DealBoard(("2c", "3d", "4h")),
             bcheck("alice", 2), bcheck("bob", 2), DealBoard(("5s",)), bcheck("alice", 3),
             bcheck("bob", 3), DealBoard(("Kd",)), bcheck("alice", 4), bcheck("bob", 4))
    r = apply(h, Reveal("alice", ("7h", "7h")))
    assert isinstance(r, Rejection), "two copies of one card from one deck were accepted"
    # the board may repeat a hole card (another deck): that stays allowed
    play(h, Reveal("alice", ("Kd", "7h")))
