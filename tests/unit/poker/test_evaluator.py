"""Pins the multiset hand evaluator: categories, ordering, names, duplicates, hole cards.

Expected values are derived by hand from the poker rules (and, for the documented value
encoding, from docs/evaluator.md: ``category << 20`` then five 4-bit ranks 2..14), never
read back from the code. External libraries are compared in test_evaluator_crosscheck.py.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from nomicpoker.core.poker.cards import FULL_DECK, RANKS, SUITS
from nomicpoker.core.poker.evaluator import (
    CATEGORY_NAMES,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    EvaluatorError,
    HandValue,
    best_hand,
    category_of,
    evaluate5,
    value7,
)

R = {r: i + 2 for i, r in enumerate(RANKS)}  # "A" -> 14


def encoded(category: int, *ranks: str) -> int:
    """The documented encoding, written out independently: category, then rank nibbles."""
    digits = [R[r] for r in ranks] + [0] * (5 - len(ranks))
    v = category
    for d in digits:
        v = v * 16 + d
    return v


def ev(text: str) -> HandValue:
    return evaluate5(text.split())


# --- exhaustive 5-card enumeration -------------------------------------------------

@pytest.fixture(scope="module")
def all_five_card_values() -> list[int]:
    return list(map(value7, combinations(FULL_DECK, 5)))


def test_exhaustive_category_counts_match_the_known_frequencies(all_five_card_values):
    counts = Counter(v >> 20 for v in all_five_card_values)
    assert len(all_five_card_values) == 2_598_960
    assert counts == {
        STRAIGHT_FLUSH: 40, FOUR_OF_A_KIND: 624, FULL_HOUSE: 3_744, FLUSH: 5_108,
        STRAIGHT: 10_200, THREE_OF_A_KIND: 54_912, TWO_PAIR: 123_552,
        ONE_PAIR: 1_098_240, HIGH_CARD: 1_302_540,
    }


def test_exhaustive_distinct_values_per_category_total_7462(all_five_card_values):
    distinct = set(all_five_card_values)
    per_cat = Counter(v >> 20 for v in distinct)
    # 10 straight flushes, 13*12 quads and full houses, C(13,5)-10 flushes and high cards,
    # 10 straights, 13*C(12,2) trips and two pair, 13*C(12,3) one pair.
    assert per_cat == {
        STRAIGHT_FLUSH: 10, FOUR_OF_A_KIND: 156, FULL_HOUSE: 156, FLUSH: 1_277,
        STRAIGHT: 10, THREE_OF_A_KIND: 858, TWO_PAIR: 858, ONE_PAIR: 2_860, HIGH_CARD: 1_277,
    }
    assert len(distinct) == 7_462


def test_exhaustive_has_exactly_four_royal_flushes(all_five_card_values):
    royal = encoded(STRAIGHT_FLUSH, "A")
    assert sum(1 for v in all_five_card_values if v == royal) == 4


def test_reference_path_agrees_with_table_path_on_every_rank_multiset():
    """evaluate5 (direct classification) vs value7 (tables) on all 6,188 rank multisets,
    each once with mixed suits and once all of one suit (repeats make it a true multiset)."""
    for combo in combinations_with_replacement(RANKS, 5):
        mixed = [r + SUITS[i % 4] for i, r in enumerate(combo)]
        if len(set(combo)) == 5 and len({c[1] for c in mixed}) == 1:  # pragma: no cover
            mixed[0] = mixed[0][0] + "d"
        suited = [r + "h" for r in combo]
        for hand in (mixed, suited):
            assert evaluate5(hand).value == value7(hand), hand


# --- categories and ordering (hand-derived) ------------------------------------------

@pytest.mark.parametrize("hand, category, value", [
    ("Ah Kh Qh Jh Th", STRAIGHT_FLUSH, encoded(STRAIGHT_FLUSH, "A")),
    ("5d 4d 3d 2d Ad", STRAIGHT_FLUSH, encoded(STRAIGHT_FLUSH, "5")),
    ("9c 9d 9h 9s 2c", FOUR_OF_A_KIND, encoded(FOUR_OF_A_KIND, "9", "2")),
    ("Kc Kd Ks 4h 4c", FULL_HOUSE, encoded(FULL_HOUSE, "K", "4")),
    ("2s 7s 9s Js Qs", FLUSH, encoded(FLUSH, "Q", "J", "9", "7", "2")),
    ("Ts Jd Qc Kh Ah", STRAIGHT, encoded(STRAIGHT, "A")),
    ("As 2d 3c 4h 5h", STRAIGHT, encoded(STRAIGHT, "5")),
    ("6s 6d 6c Ah 2h", THREE_OF_A_KIND, encoded(THREE_OF_A_KIND, "6", "A", "2")),
    ("Qs Qd Jc Jh 3h", TWO_PAIR, encoded(TWO_PAIR, "Q", "J", "3")),
    ("Js Jd 9c 5h 3h", ONE_PAIR, encoded(ONE_PAIR, "J", "9", "5", "3")),
    ("As Jd 9c 5h 3h", HIGH_CARD, encoded(HIGH_CARD, "A", "J", "9", "5", "3")),
])
def test_standard_hands_get_the_hand_derived_category_and_value(hand, category, value):
    hv = ev(hand)
    assert hv.category == category
    assert hv.value == value
    assert category_of(hv.value) == category
    assert value7(hand.split()) == value


def test_wheel_is_the_lowest_straight_and_does_not_wrap():
    wheel = ev("As 2d 3c 4h 5h").value
    six_high = ev("2d 3c 4h 5h 6s").value
    trip_aces = ev("As Ad Ac Kh Qh").value
    assert trip_aces < wheel < six_high
    assert ev("Qs Kd Ac 2h 3h").category == HIGH_CARD  # no K-A-2 wraparound
    assert ev("5h 4h 3h 2h Ah").value < ev("6h 5h 4h 3h 2h").value
    assert ev("5h 4h 3h 2h Ah").value > ev("As Ad Ac Ah Kd").value  # wheel SF > quad aces


def test_category_order_is_the_poker_order_with_five_of_a_kind_on_top():
    ladder = [
        "As Jd 9c 5h 3h", "2s 2d 3c 4h 5h", "2s 2d 3c 3h 4h", "2s 2d 2c 3h 4h",
        "As 2d 3c 4h 5h", "2s 3s 4s 5s 7s", "2s 2d 2c 3h 3d", "2s 2d 2c 2h 3d",
        "As 2s 3s 4s 5s", "2s 2s 2s 2s 2s",
    ]
    values = [ev(h).value for h in ladder]
    assert [category_of(v) for v in values] == list(range(10))
    assert values == sorted(values)
    # the lowest hand of each category beats the highest of the one below
    highest_below = ["Ks Qd Jc 9h 7h", "As Ad Kc Qh Jh", "As Ad Kc Kh Qh", "As Ad Ac Kh Qh",
                     "As Kd Qc Jh Th", "As Ks Qs Js 9s", "As Ad Ac Kh Kd", "As Ad Ac Ah Kd",
                     "As Ks Qs Js Ts"]
    for lo, hi in zip(ladder[1:], highest_below):
        assert ev(lo).value > ev(hi).value, (lo, hi)


def test_tie_iff_equal_values_across_suits():
    assert ev("As Kd Qc Jh 9h").value == ev("Ad Ks Qh Jc 9d").value
    assert ev("As Kd Qc Jh 9h").value > ev("As Kd Qc Jh 8h").value
    assert ev("Qs Qd Jc Jh 3h").value > ev("Qs Qd Jc Jh 2h").value  # kicker counts
    assert ev("Qs Qd 4c 4h Ah").value < ev("Qs Qd 5c 5h 2h").value  # second pair first


# --- multisets: duplicate cards --------------------------------------------------------

def test_hole_AsAh_with_board_AdAcAs2c3d_is_five_aces():
    hv = best_hand(["As", "Ah"], ["Ad", "Ac", "As", "2c", "3d"])
    assert hv.category == FIVE_OF_A_KIND
    assert hv.value == encoded(FIVE_OF_A_KIND, "A")
    assert sorted(hv.cards) == sorted(["As", "Ah", "Ad", "Ac", "As"])
    assert hv.name == "Five of a Kind, Aces"
    assert value7(["As", "Ah", "Ad", "Ac", "As", "2c", "3d"]) == hv.value


def test_duplicate_ace_of_hearts_makes_a_multiset_flush_not_a_pair():
    hv = best_hand(["Ah", "Kh"], ["Ah", "9h", "5h", "2c", "3d"])
    assert hv.category == FLUSH
    assert hv.value == encoded(FLUSH, "A", "A", "K", "9", "5")
    assert hv.cards == ("Ah", "Ah", "Kh", "9h", "5h")
    assert hv.name == "Flush, Ace high"
    # flushes compare rank by rank: A-A-K-9-5 beats A-K-Q-J-9
    assert hv.value > ev("Ah Kh Qh Jh 9h").value


def test_duplicate_king_of_spades_makes_four_kings():
    hv = best_hand(["Ks", "Ks"], ["Kd", "Kh", "2c", "3d", "4h"])
    assert hv.category == FOUR_OF_A_KIND
    assert hv.value == encoded(FOUR_OF_A_KIND, "K", "4")
    assert hv.name == "Four of a Kind, Kings"
    assert hv.cards[:4] == ("Ks", "Ks", "Kd", "Kh") and hv.cards[4] == "4h"


def test_five_copies_of_one_card_are_five_of_a_kind():
    hv = evaluate5(["As"] * 5)
    assert hv.category == FIVE_OF_A_KIND
    assert hv.name == "Five of a Kind, Aces"
    assert value7(["As"] * 5) == hv.value == encoded(FIVE_OF_A_KIND, "A")
    assert evaluate5(["2c"] * 5).value < hv.value


def test_full_house_that_is_also_a_flush_plays_as_full_house():
    hv = ev("Ah Ah Ah Kh Kh")
    assert hv.category == FULL_HOUSE
    assert hv.name == "Full House, Aces over Kings"


def test_quads_that_are_also_a_flush_play_as_quads():
    assert ev("Ah Ah Ah Ah Kh").category == FOUR_OF_A_KIND


def test_trips_or_pairs_that_are_also_a_flush_play_as_flush():
    assert ev("Ah Ah Ah Kh Qh").category == FLUSH
    assert ev("Ah Ah Kh Kh Qh").category == FLUSH
    assert ev("Ah Ah Kh Qh Jh").value == encoded(FLUSH, "A", "A", "K", "Q", "J")
    # a paired flush still loses to every full house
    assert ev("Ah Ah Ah Kh Qh").value < ev("2c 2d 2h 3s 3c").value


def test_duplicates_never_make_a_straight():
    assert ev("As Kd Qs Js Jh").category == ONE_PAIR
    assert ev("As Ks Qs Js Js").category == FLUSH  # suited: a flush, still not a straight flush


def test_five_of_a_kind_beats_a_royal_flush_when_both_are_available():
    cards = ["Ah", "Kh", "Qh", "Jh", "Th", "As", "As", "As", "As"]  # nine cards
    hv = best_hand(cards, ())
    assert hv.category == FIVE_OF_A_KIND
    assert value7(cards) == hv.value
    assert ev("As As As As As").value > ev("Ah Kh Qh Jh Th").value


def test_each_card_instance_is_used_at_most_once():
    # one As on the board and one in the hole: a pair, never trips
    hv = best_hand(["As", "7d"], ["As", "Kc", "9h", "4s", "2d"])
    assert hv.category == ONE_PAIR
    assert sorted(hv.cards).count("As") == 2
    # three instances of As: trips
    assert best_hand(["As", "As"], ["As", "Kc", "9h"]).category == THREE_OF_A_KIND


def test_value7_equals_best_hand_on_random_multisets_with_heavy_repeats():
    rng = random.Random(20261121)
    pools = [FULL_DECK, FULL_DECK[:12], [c for c in FULL_DECK if c[1] == "h"], FULL_DECK[-16:]]
    for _ in range(6_000):
        pool = rng.choice(pools)
        cards = [rng.choice(pool) for _ in range(rng.randint(5, 7))]
        assert value7(cards) == best_hand(cards, ()).value, cards


# --- min_hole_cards -------------------------------------------------------------------

ROYAL_BOARD = ["As", "Ks", "Qs", "Js", "Ts"]


def test_board_royal_flush_plays_the_board_when_allowed():
    hv = best_hand(["2c", "7d"], ROYAL_BOARD, min_hole_cards=0)
    assert hv.name == "Royal Flush"
    assert sorted(hv.cards) == sorted(ROYAL_BOARD)


def test_board_royal_flush_with_one_hole_card_required_is_ace_high():
    # Using 7d (better than 2c) with the four best board cards: A K Q J 7, no pair,
    # no straight, no flush.
    hv = best_hand(["2c", "7d"], ROYAL_BOARD, min_hole_cards=1)
    assert hv.category == HIGH_CARD
    assert hv.value == encoded(HIGH_CARD, "A", "K", "Q", "J", "7")
    assert hv.name == "High Card, Ace"
    assert "7d" in hv.cards


def test_one_hole_card_required_can_still_make_a_straight_flush():
    # 9s with Ts Js Qs Ks: king-high straight flush, the best hand that uses a hole card.
    hv = best_hand(["9s", "2c"], ROYAL_BOARD, min_hole_cards=1)
    assert hv.value == encoded(STRAIGHT_FLUSH, "K")
    assert hv.name == "Straight Flush, King high"
    assert hv.cards == ("Ks", "Qs", "Js", "Ts", "9s")


def test_two_hole_cards_required_uses_both():
    hv = best_hand(["9s", "2c"], ROYAL_BOARD, min_hole_cards=2)
    assert hv.value == encoded(HIGH_CARD, "A", "K", "Q", "9", "2")


def test_min_hole_cards_matches_brute_force_over_subsets():
    rng = random.Random(7)
    for _ in range(1_500):
        hole = [rng.choice(FULL_DECK) for _ in range(2)]
        board = [rng.choice(FULL_DECK) for _ in range(rng.randint(3, 5))]
        allc = hole + board
        for k in (0, 1, 2):
            expected = max(
                value7([allc[i] for i in idx])
                for idx in combinations(range(len(allc)), 5)
                if sum(1 for i in idx if i < 2) >= k
            )
            assert best_hand(hole, board, k).value == expected, (hole, board, k)


# --- names and display order ---------------------------------------------------------

@pytest.mark.parametrize("hand, name", [
    ("As As As As As", "Five of a Kind, Aces"),
    ("6h 6h 6d 6c 6s", "Five of a Kind, Sixes"),
    ("Ah Kh Qh Jh Th", "Royal Flush"),
    ("9h Kh Qh Jh Th", "Straight Flush, King high"),
    ("Ad 2d 3d 4d 5d", "Straight Flush, Five high"),
    ("Kc Kd Kh Ks 2c", "Four of a Kind, Kings"),
    ("Kc Kd Ks 4h 4c", "Full House, Kings over Fours"),
    ("4c 4d 4s Kh Kc", "Full House, Fours over Kings"),
    ("As 9s 7s 4s 2s", "Flush, Ace high"),
    ("As 2d 3c 4h 5h", "Straight, Five high"),
    ("Ts Jd Qc Kh Ah", "Straight, Ace high"),
    ("6s 6d 6c Ah 2h", "Three of a Kind, Sixes"),
    ("Qs Qd Jc Jh 3h", "Two Pair, Queens and Jacks"),
    ("Js Jd 9c 5h 3h", "Pair of Jacks"),
    ("As Jd 9c 5h 3h", "High Card, Ace"),
    ("7s 5d 4c 3h 2h", "High Card, Seven"),
])
def test_hand_names_follow_the_documented_scheme(hand, name):
    assert ev(hand).name == name


def test_category_names_are_in_category_order():
    assert CATEGORY_NAMES[HIGH_CARD] == "High Card"
    assert CATEGORY_NAMES[TWO_PAIR] == "Two Pair"
    assert CATEGORY_NAMES[FIVE_OF_A_KIND] == "Five of a Kind"
    assert len(CATEGORY_NAMES) == 10


def test_cards_are_ordered_for_display():
    assert ev("4h Kc 4c Kd Ks").cards == ("Kc", "Kd", "Ks", "4h", "4c")
    assert ev("3h Qs Jc Qd Jh").cards == ("Qs", "Qd", "Jc", "Jh", "3h")
    assert ev("3c Ah 4h 2d 5s").cards == ("5s", "4h", "3c", "2d", "Ah")  # wheel: ace low
    assert ev("2s 9s As 7s 4s").cards == ("As", "9s", "7s", "4s", "2s")


# --- errors -----------------------------------------------------------------------------

def test_too_few_cards_is_an_error_with_a_stable_code():
    with pytest.raises(EvaluatorError) as e:
        best_hand(["As", "Kd"], ["2c", "3d"])
    assert e.value.code == "too_few_cards"
    with pytest.raises(EvaluatorError) as e:
        value7(["As", "Kd", "2c", "3d"])
    assert e.value.code == "too_few_cards"


def test_more_hole_cards_required_than_held_is_too_few_cards():
    with pytest.raises(EvaluatorError) as e:
        best_hand(["As"], ROYAL_BOARD, min_hole_cards=2)
    assert e.value.code == "too_few_cards"


@pytest.mark.parametrize("bad", ["7H", "1s", "10h", "", "Xx", "7♥"])
def test_non_canonical_cards_are_bad_card(bad):
    for call in (
        lambda: best_hand(["As", bad], ROYAL_BOARD[:4]),
        lambda: evaluate5(["As", "Kd", "2c", "3d", bad]),
        lambda: value7(["As", "Kd", "2c", "3d", bad]),
    ):
        with pytest.raises(EvaluatorError) as e:
            call()
        assert e.value.code == "bad_card"
        assert repr(bad) in str(e.value)


def test_evaluate5_needs_exactly_five():
    with pytest.raises(EvaluatorError) as e:
        evaluate5(ROYAL_BOARD + ["2c"])
    assert e.value.code == "not_five_cards"


def test_min_hole_cards_out_of_range_is_rejected():
    with pytest.raises(EvaluatorError) as e:
        best_hand(["As", "Kd"], ROYAL_BOARD, min_hole_cards=-1)
    assert e.value.code == "bad_min_hole_cards"


def test_documented_value_example_full_house_kings_over_fours():
    # docs/evaluator.md: 6<<20 | 13<<16 | 4<<12 = 6,291,456 + 851,968 + 16,384
    assert ev("Kc Kd Ks 4h 4c").value == 7_159_808


# --- properties (hypothesis) -----------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

card_st = st.sampled_from(FULL_DECK)
multiset_st = st.lists(card_st, min_size=5, max_size=7)


@settings(max_examples=300, deadline=None)
@given(multiset_st, st.randoms(use_true_random=False))
def test_value_ignores_card_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert value7(shuffled) == value7(cards)


@settings(max_examples=300, deadline=None)
@given(multiset_st, st.permutations(SUITS))
def test_value_ignores_which_suit_is_which(cards, perm):
    relabel = dict(zip(SUITS, perm))
    assert value7([c[0] + relabel[c[1]] for c in cards]) == value7(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(card_st, min_size=5, max_size=6), card_st)
def test_an_extra_card_never_makes_the_hand_worse(cards, extra):
    assert value7(cards + [extra]) >= value7(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(card_st, min_size=2, max_size=2), st.lists(card_st, min_size=3, max_size=5))
def test_requiring_more_hole_cards_never_helps(hole, board):
    v0, v1, v2 = (best_hand(hole, board, k) for k in (0, 1, 2))
    assert v0.value >= v1.value >= v2.value
    assert Counter(hole) - Counter(v2.cards) == Counter()  # both hole cards played
    assert any(c in hole for c in v1.cards)
    for hv in (v0, v1, v2):
        assert evaluate5(hv.cards).value == hv.value  # the reported cards make the value
        assert Counter(hv.cards) - Counter(hole + board) == Counter()  # only cards held
