"""The first-actor reading stated in the rejections that rest on it (issue 10): an action out of
turn is told who is to act, who began the round, and the sentence that decides who acts first;
the first actor refused a raise below the call is told how the Raise proviso's exemption for
"the first to act in that Round" is read. Expected sentences are copied from the seeds' rule
texts, not from the code."""

from __future__ import annotations

import pytest

from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Fold, Raise
from nomicpoker.core.poker.engine import Rejection, apply, start_hand

from kits.tables.bot import Table
from kits.references.engine import BLOG, RR, braise, play

BLOG_FIRST = "Play begins with the Seated Player listed in the GNDT after the Button Player."
BLOG_TURN = ("The one Seated Player whose turn it is to play shall have an entry of “x” and all "
             "other Seated Players shall have an entry of “-”.")
RR_FIRST = "Action is initiated on the first betting round by the first player to the left of the blinds."
RR_LATER = "On all subsequent betting rounds, the action begins with the first active player to the left of the button."
FLOP, TURN, RIVER = ("2c", "3d", "4h"), ("5s",), ("9c",)


def _blog(n=4):
    names = ["alice", "bob", "carol", "dave"][:n]
    return start_hand(BLOG, 1, [(p, 100) for p in names], names[-1])  # alice first after the Button


def _out_of_turn(h, ev) -> Rejection:
    r = apply(h, ev)
    assert isinstance(r, Rejection) and r.code == "not_your_turn", r
    return r


def test_out_of_turn_before_anyone_acts_names_the_first_actor_and_quotes_who_begins():
    h = _blog()
    r = _out_of_turn(h, braise("carol", 1, 5))
    assert "it is alice's turn" in r.message and "not carol's" in r.message
    assert "alice is first to act" in r.message and "after the Button (dave)" in r.message
    assert r.citation.split("\n\n") == [BLOG_FIRST, BLOG_TURN]


@pytest.mark.parametrize("rnd", [1, 2, 3, 4])
def test_out_of_turn_mid_round_names_who_acted_first_and_who_is_to_act_in_every_round(rnd):
    h = _blog()
    for r in range(1, rnd):
        h = play(h, braise("alice", r, 1), Call("bob", 1, r), Call("carol", 1, r), Call("dave", 1, r))
        h = play(h, DealBoard({1: FLOP, 2: TURN, 3: RIVER}[r]))
    h = play(h, braise("alice", rnd, 3))
    r = _out_of_turn(h, Fold("dave", 1, rnd))
    assert f"it is bob's turn in hand 1 round {rnd}, not dave's" in r.message
    assert "alice acted first" in r.message
    assert r.citation.split("\n\n")[0] == BLOG_FIRST


def test_a_folded_first_seat_moves_the_first_actor_and_the_reply_says_who_began():
    h = _blog()
    h = play(h, Fold("alice", 1, 1), braise("bob", 1, 2), Call("carol", 1, 1), Call("dave", 1, 1),
             DealBoard(FLOP))
    r = _out_of_turn(h, Check("carol", 1, 2))
    assert "it is bob's turn" in r.message and "bob is first to act" in r.message
    assert "who has not folded" in r.message


def test_roberts_first_round_and_later_rounds_quote_their_own_first_actor_sentence():
    h = start_hand(RR, 1, [("a", 100), ("b", 100), ("c", 100), ("d", 100)], "d", blinds=(1, 2))
    r = _out_of_turn(h, Call("a"))  # a small blind, b big blind: c acts first
    assert "it is c's turn" in r.message and "after the blinds" in r.message
    assert r.citation.split("\n\n")[0] == RR_FIRST
    h = play(h, Call("c"), Call("d"), Call("a"), Check("b"), DealBoard(FLOP))
    r = _out_of_turn(h, Check("c"))
    assert "it is a's turn" in r.message and "after the Button (d)" in r.message
    assert r.citation.split("\n\n")[0] == RR_LATER
    assert "Deliberately acting out of turn will not be tolerated." in r.citation


def test_the_first_actor_facing_a_later_raise_is_told_how_the_proviso_is_read():
    h = _blog(3)  # alice first to act, button carol
    h = play(h, braise("alice", 1, 5), braise("bob", 1, 20))  # bob adds 20: 15 more than 5
    r = apply(h, braise("carol", 1, 15))  # carol owes 20: an ordinary refusal
    assert isinstance(r, Rejection) and r.code == "raise_not_more_than_call"
    assert "first to act" not in r.message
    h = play(h, Call("carol", 1, 1))
    r = apply(h, braise("alice", 1, 10))  # alice owes 15 and was first to act
    assert isinstance(r, Rejection) and r.code == "raise_not_more_than_call"
    assert "alice must add more than 15 to raise; 10 is not enough" in r.message
    assert "first to act in round 1" in r.message and "proviso" in r.message
    assert "not the first to act in that Round" in r.citation
    assert not isinstance(apply(h, braise("alice", 1, 16)), Rejection)


def test_an_all_in_below_the_call_is_still_a_call_for_the_first_actor():
    h = _blog(3)
    h = play(h, braise("alice", 1, 5), braise("bob", 1, 20), Call("carol", 1, 1))
    assert not isinstance(apply(h, AllIn("alice", 1, 1)), Rejection)


def test_the_dealer_reply_to_an_out_of_turn_action_quotes_the_first_actor_sentence(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start()
    t.draw(1)  # button carol: alice acts first
    t.new_dealer()
    out = t.act("carol", "HAND1 ROUND1 raise 5")
    v = t.verdicts()[-1]
    assert v.status == "rejected" and v.code == "not_your_turn"
    assert len(out) == 1 and "it is alice's turn" in out[0] and "alice is first to act" in out[0]
    assert "> Play begins with the Seated Player listed in the GNDT after the Button Player." in out[0]
