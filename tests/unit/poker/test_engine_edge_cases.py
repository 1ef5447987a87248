"""The hand engine: edge cases found by review and by the differential test against pokerkit
(short blinds, short all-ins, runouts, the Turn column through a hand, FoldOut, own-deck
reveals). Every expected number is worked by hand in the comment above its assertion."""

from __future__ import annotations

import pytest

from nomicpoker.core.poker.actions import (
    AllIn, Call, Check, DealBoard, DealHole, Fold, Raise, Reveal, Timeout,
)
from nomicpoker.core.poker.engine import Rejection, apply, legal_actions, need, start_hand, turn_column

from kits.references.engine import BLOG, RR, bcall, bcheck, bfold, blog3, braise, money, play, refused, rr3


def test_the_fast_showdown_ranking_names_the_same_five_cards_as_best_hand():
    # the showdown ranks hands with the evaluator's table path; it must report exactly what
    # the reference best_hand reports (value, five cards, name) for any five-may-play hand
    import random

    from nomicpoker.core.poker.cards import FULL_DECK
    from nomicpoker.core.poker.evaluator import best_hand
    from nomicpoker.core.poker.showdown import best_five

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
    from nomicpoker.core.poker.actions import DealHoles

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
    from nomicpoker.core.poker.actions import FoldOut
    h = apply(_three_handed(), FoldOut("bob"))
    assert h.seats[h.to_act].name == "alice"
    assert h.seat("bob").folded and h.seat("bob").money == 95 and h.pot == 15


def test_folding_out_the_player_to_act_passes_the_turn_to_the_next_player_still_in():
    from nomicpoker.core.poker.actions import FoldOut
    h = apply(_three_handed(), FoldOut("alice"))
    assert h.seats[h.to_act].name == "bob"


def test_folding_out_all_but_one_pays_the_whole_pot_to_the_last_player():
    from nomicpoker.core.poker.actions import FoldOut
    h = apply(apply(_three_handed(), FoldOut("alice")), FoldOut("bob"))
    assert h.result is not None and h.result.uncontested
    assert {s.name: s.money for s in h.seats} == {"alice": 95, "bob": 95, "carol": 110}


def test_folding_out_twice_or_a_stranger_is_refused():
    from nomicpoker.core.poker.actions import FoldOut
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
