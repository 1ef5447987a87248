"""Exact all-in equity against independent enumerations: eval7 and pokerkit where they can
express the case (one shared deck, standard ranks), a brute force over the scalar evaluator
where they cannot (own decks with repeated cards, five of a kind, a hole card required),
the board-by-board path against the board classes, on chosen and generated positions, with
side pots."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.equity import EquityError, all_in_equity, exhaustive
from nomicpoker.core.poker.evaluator import best_hand, value7
from nomicpoker.core.poker.pots import build_pots


def reference(holes, board, pots, deck, value, board_size=5):
    """Every board listed in plain Python, each player valued by ``value(hole, board)``."""
    players = list(holes)
    seen = set(board) | ({c for h in holes.values() for c in h} if deck == "shared" else set())
    rest = [c for c in FULL_DECK if c not in seen]
    pots = pots or [(0, players)]
    wins = [Counter() for _ in pots]
    ties = [Counter() for _ in pots]
    shares = [defaultdict(Fraction) for _ in pots]
    n = 0
    for extra in combinations(rest, board_size - len(board)):
        n += 1
        full = tuple(board) + extra
        v = {p: value(holes[p], full) for p in players}
        for i, (_, eligible) in enumerate(pots):
            best = max(v[p] for p in eligible)
            won = [p for p in eligible if v[p] == best]
            for p in won:
                (wins if len(won) == 1 else ties)[i][p] += 1
                shares[i][p] += Fraction(1, len(won))
    return n, [({p: w[p] for p in e}, {p: t[p] for p in e}, {p: s[p] / n for p in e})
               for w, t, s, (_, e) in zip(wins, ties, shares, pots)]


def assert_same(eq, expected):
    n, pots = expected
    assert eq.boards == n
    assert len(eq.pots) == len(pots)
    for got, (wins, ties, shares) in zip(eq.pots, pots):
        assert dict(got.wins) == wins
        assert dict(got.ties) == ties
        assert dict(got.shares) == shares


def scalar(min_hole):
    if min_hole == 0:
        return lambda hole, board: value7(tuple(hole) + tuple(board))
    return lambda hole, board: best_hand(hole, board, min_hole).value


def eval7_value():
    eval7 = pytest.importorskip("eval7")
    cache = {c: eval7.Card(c) for c in FULL_DECK}
    return lambda hole, board: eval7.evaluate([cache[c] for c in (*hole, *board)])


# --------------------------------------------------------------------------- shared deck


def test_heads_up_before_the_flop_is_eval7_over_all_1712304_boards():
    """The benchmark's case, counted board by board by eval7 in a tight loop (~3 s)."""
    eval7 = pytest.importorskip("eval7")
    holes = {"alice": ("As", "Ks"), "bob": ("Qh", "Qd")}
    a = [eval7.Card(c) for c in holes["alice"]]
    b = [eval7.Card(c) for c in holes["bob"]]
    rest = [eval7.Card(c) for c in FULL_DECK if c not in holes["alice"] + holes["bob"]]
    evaluate = eval7.evaluate
    wins = ties = boards = 0
    for board in combinations(rest, 5):
        board = list(board)
        x, y = evaluate(a + board), evaluate(b + board)
        boards += 1
        wins += x > y
        ties += x == y
    eq = all_in_equity(holes)
    assert eq.boards == boards == 1712304 and eq.to_come == 5
    assert eq.pots[0].wins == {"alice": wins, "bob": boards - wins - ties}
    assert eq.pots[0].ties == {"alice": ties, "bob": ties}
    assert eq.pots[0].shares["alice"] == Fraction(2 * wins + ties, 2 * boards)


@pytest.mark.parametrize("holes, board", [
    ({"a": ("As", "Ks"), "b": ("Qh", "Qd"), "c": ("9s", "9c")}, ("2s", "7s", "Jc")),
    ({"a": ("Ah", "2h"), "b": ("Kd", "Kc"), "c": ("5h", "4h"), "d": ("Ts", "9s")}, ("3h", "6c", "Kh")),
    ({"a": ("7c", "7d"), "b": ("8h", "8s")}, ("7h", "8c", "2d", "2s")),  # quads, full houses
    ({"a": ("Ac", "5d"), "b": ("Ad", "5c")}, ("2h", "3h", "4h")),  # wheels: many ties
    ({"a": ("Td", "9d"), "b": ("As", "Ah"), "c": ("Kd", "Qc")}, ("Jd", "8d", "2d")),  # flushes
])
def test_multiway_after_the_flop_and_turn_is_eval7(holes, board):
    assert_same(all_in_equity(holes, board), reference(holes, board, None, "shared", eval7_value()))


def test_side_pots_are_counted_per_pot_with_their_own_players():
    holes = {"short": ("As", "Ad"), "mid": ("Kh", "Ks"), "big": ("Qc", "Jc")}
    contributions = [20, 50, 80]  # short all in for 20, mid for 50, big covers
    pots = [(p.amount, [list(holes)[i] for i in p.eligible]) for p in build_pots(contributions, [True] * 3)]
    assert [(a, e) for a, e in pots] == [(60, ["short", "mid", "big"]), (60, ["mid", "big"]), (30, ["big"])]
    eq = all_in_equity(holes, ("2c", "7c", "Kc"), pots)
    assert_same(eq, reference(holes, ("2c", "7c", "Kc"), pots, "shared", eval7_value()))
    assert eq.pots[2].wins == {"big": eq.boards}  # the big stack's uncontested layer
    assert eq.pots[1].eligible == ("mid", "big")


def test_pokerkit_agrees_on_a_turn():
    pokerkit = pytest.importorskip("pokerkit")
    lookup = pokerkit.StandardHighHand

    def value(hole, board):
        h = lookup.from_game("".join(hole), "".join(board))
        return h

    holes = {"a": ("Ah", "Kh"), "b": ("Qs", "Qd"), "c": ("Th", "9h")}
    board = ("2h", "Qh", "5c", "Jd")
    n, pots = reference(holes, board, None, "shared", value)
    assert_same(all_in_equity(holes, board), (n, pots))


def test_a_folded_hand_is_unseen_so_its_cards_can_still_come():
    """Only the hands turned up are out of the deck: the chance as the table knows it."""
    eq = all_in_equity({"a": ("As", "Ks"), "b": ("Qh", "Qd")}, ("2c", "3c", "4c"))
    assert eq.boards == 45 * 44 // 2  # 52 - 3 board - 4 hole cards


# --------------------------------------------------------------------------- own decks


def test_own_decks_deal_the_board_from_the_dealers_full_deck_and_a_hole_card_may_repeat():
    holes = {"alice": ("As", "Ah"), "bob": ("As", "Kd")}  # both drew the ace of spades
    board = ("Ad", "7c", "2h")
    eq = all_in_equity(holes, board, deck="per_player", min_hole_cards=1)
    assert eq.boards == 49 * 48 // 2  # hole cards take nothing out of the Dealer's deck
    assert_same(eq, reference(holes, board, None, "per_player", scalar(1)))
    # alice makes five aces when the Dealer's deck gives the two aces left (As and Ac)
    five_aces = exhaustive(holes, ("Ad", "7c", "2h", "As"), deck="per_player", min_hole_cards=1)
    assert five_aces.pots[0].wins["alice"] == 48


def test_a_hole_card_is_required_under_dealing_and_play():
    holes = {"a": ("2c", "7d"), "b": ("3d", "8c")}
    board = ("As", "Ks", "Qs", "Js")
    with_board = all_in_equity(holes, board, deck="shared", min_hole_cards=0)
    assert with_board.pots[0].ties["a"] >= 1  # a river ten plays the royal flush for both
    need_one = all_in_equity(holes, board, deck="per_player", min_hole_cards=1)
    assert_same(need_one, reference(holes, board, None, "per_player", scalar(1)))
    assert_same(with_board, reference(holes, board, None, "shared", scalar(0)))


@pytest.mark.parametrize("holes, board", [
    ({"a": ("Kh", "Kd"), "b": ("Kh", "2c"), "c": ("9s", "8s")}, ("Ks", "Kc", "7s")),
    ({"a": ("Ah", "5h"), "b": ("Ah", "Qh"), "c": ("Ac", "Ad")}, ("2h", "9h", "Ah")),
    ({"a": ("Jh", "Th"), "b": ("Jc", "Ts")}, ("9h", "8h", "7d", "Jh")),
])
def test_own_decks_with_one_hole_card_required_are_the_scalar_brute_force(holes, board):
    for m in (0, 1):
        eq = all_in_equity(holes, board, deck="per_player", min_hole_cards=m)
        assert_same(eq, reference(holes, board, None, "per_player", scalar(m)))


def test_own_decks_before_the_flop_match_the_board_by_board_path():
    """2,598,960 boards from the Dealer's deck, a shared ace: classes against every board
    (~100 M five-card evaluations, ~6 s)."""
    holes = {"alice": ("As", "Ks"), "bob": ("As", "Qd")}
    fast = all_in_equity(holes, deck="per_player", min_hole_cards=1)
    slow = exhaustive(holes, deck="per_player", min_hole_cards=1, max_evaluations=10**9)
    assert fast.pots == slow.pots and fast.boards == slow.boards == 2598960


# --------------------------------------------------------------------------- generated


def positions(max_players=4, board_sizes=(3, 4)):
    @st.composite
    def build(draw):
        deck = draw(st.sampled_from(["shared", "per_player"]))
        n = draw(st.integers(2, max_players))
        known = draw(st.sampled_from(board_sizes))
        if deck == "shared":
            cards = draw(st.permutations(FULL_DECK))
            holes = {f"p{i}": tuple(cards[2 * i:2 * i + 2]) for i in range(n)}
            board = tuple(cards[2 * n:2 * n + known])
        else:
            holes = {f"p{i}": tuple(draw(st.lists(st.sampled_from(FULL_DECK), min_size=2, max_size=2,
                                                  unique=True))) for i in range(n)}
            board = tuple(draw(st.lists(st.sampled_from(FULL_DECK), min_size=known, max_size=known,
                                        unique=True)))
        contributions = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
        side = draw(st.booleans())
        pots = [(p.amount, [f"p{i}" for i in p.eligible])
                for p in build_pots(contributions, [True] * n, 0, side)]
        return holes, board, pots, deck, draw(st.sampled_from([0, 1]))
    return build()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(board_sizes=(4,)))
def test_generated_turns_are_the_scalar_brute_force(position):
    holes, board, pots, deck, m = position
    eq = all_in_equity(holes, board, pots, deck=deck, min_hole_cards=m)
    assert_same(eq, reference(holes, board, pots, deck, scalar(m)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_players=3, board_sizes=(3,)))
def test_generated_flops_are_the_scalar_brute_force(position):
    holes, board, pots, deck, m = position
    eq = all_in_equity(holes, board, pots, deck=deck, min_hole_cards=m)
    value = scalar(0) if m == 0 else scalar(1)
    assert_same(eq, reference(holes, board, pots, deck, value))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_players=5, board_sizes=(0, 2, 3, 4, 5)))
def test_generated_positions_agree_with_the_board_by_board_path(position):
    holes, board, pots, deck, m = position
    if len(board) == 0:
        holes = dict(list(holes.items())[:2])
        pots = [(a, [p for p in e if p in holes]) for a, e in pots[:1]]
        pots = [(a, e) for a, e in pots if e]
    try:
        slow = exhaustive(holes, board, pots, deck=deck, min_hole_cards=m, max_evaluations=3 * 10**6)
    except EquityError as e:
        assert e.code == "too_many_boards"
        return
    fast = all_in_equity(holes, board, pots, deck=deck, min_hole_cards=m)
    assert fast == slow


def test_every_pot_is_shared_out_whole():
    eq = all_in_equity({"a": ("As", "Ks"), "b": ("Qh", "Qd"), "c": ("Jc", "Tc")}, ("2h", "3d", "9c"),
                       [(90, ["a", "b", "c"]), (40, ["a", "b"])])
    for pot in eq.pots:
        assert sum(pot.shares.values()) == 1
        tied = eq.boards - sum(pot.wins.values())  # boards on which two or more tie
        assert 2 * tied <= sum(pot.ties.values()) <= len(pot.eligible) * tied
    assert sum(eq.share(p) for p in eq.players) == 1


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("holes, board, deck, code", [
    ({"a": ("As", "Ks"), "b": ("As", "Qd")}, (), "shared", "duplicate_card"),
    ({"a": ("As", "Ks"), "b": ("Qh", "Qd")}, ("Ks", "2c", "3c"), "shared", "duplicate_card"),
    ({"a": ("As", "As"), "b": ("Qh", "Qd")}, (), "per_player", "duplicate_card"),
    ({"a": ("As", "Ks"), "b": ("Qh", "Qd")}, ("2c", "2c", "3c"), "per_player", "duplicate_card"),
    ({"a": ("As", "KS"), "b": ("Qh", "Qd")}, (), "shared", "bad_card"),
    ({"a": ("As", "Ks")}, (), "shared", "bad_players"),
    ({"a": ("As", "Ks"), "b": ("Qh", "Qd")}, ("2c", "3c", "4c", "5c", "6c", "7c"), "shared", "bad_board"),
])
def test_impossible_positions_are_refused_with_a_code(holes, board, deck, code):
    with pytest.raises(EquityError) as e:
        all_in_equity(holes, board, deck=deck)
    assert e.value.code == code


def test_a_pot_naming_someone_without_cards_is_refused():
    with pytest.raises(EquityError) as e:
        all_in_equity({"a": ("As", "Ks"), "b": ("Qh", "Qd")}, (), [(10, ["a", "zed"])])
    assert e.value.code == "bad_pot"


def test_a_case_only_the_slow_path_covers_is_refused_past_its_budget_not_left_running():
    """Four hole cards each, two required (a custom shared-deck ruleset): before the flop that
    would be 1.5 M boards x 120 hands a player; after the flop it is computed."""
    holes = {"a": ("As", "Ks", "Qs", "Js"), "b": ("Ah", "Kh", "Qh", "Jh")}
    with pytest.raises(EquityError) as e:
        all_in_equity(holes, min_hole_cards=2)
    assert e.value.code == "too_many_boards"
    eq = all_in_equity(holes, ("2c", "3d", "9s"), min_hole_cards=2)
    assert_same(eq, reference(holes, ("2c", "3d", "9s"), None, "shared", scalar(2)))
