"""The chances paragraph of a run-out's street comment, and the pots it is counted for.

The layout is pinned on hand-made :class:`Equity` values (the counts are chosen, not
computed); the pots are checked against the settlement the engine makes at the showdown,
over generated all-ins under both rulesets (side pots, uncalled bets, dead antes)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from nomicpoker.core.poker.actions import AllIn, Call, DealBoard, Reveal
from nomicpoker.core.words.chances import chances, percent
from nomicpoker.core.poker.engine import Rejection, apply, legal_actions, need, start_hand
from nomicpoker.core.poker.equity import Equity, PotChances, contested_pots

from kits.references.engine import BLOG, RR


def test_percentages_round_half_up_and_never_claim_a_false_certainty():
    assert percent(0, 7) == "0%" and percent(7, 7) == "100%"
    assert percent(1, 8) == "12.50%" and percent(1, 3) == "33.33%" and percent(2, 3) == "66.67%"
    assert percent(1, 80000) == "<0.01%"  # 0.00125% is not nothing
    assert percent(79999, 80000) == ">99.99%"
    assert percent(1, 20000) == "0.01%"  # exactly half a hundredth rounds up
    assert percent(Fraction(1, 2)) == "50.00%"


def _eq(pots, boards=990, deck="shared", players=("alice", "bob")):
    holes = {"alice": ("As", "Ks"), "bob": ("Qh", "Qd"), "carol": ("Jc", "Tc")}
    return Equity(players=players, holes={p: holes[p] for p in players}, board=("2c", "7d", "9h"),
                  to_come=2, boards=boards, deck=deck, min_hole_cards=0, pots=tuple(pots))


def test_one_pot_gives_each_hand_its_wins_and_only_real_ties():
    pot = PotChances(0, ("alice", "bob"), {"alice": 300, "bob": 680}, {"alice": 10, "bob": 10},
                     {"alice": Fraction(305, 990), "bob": Fraction(685, 990)})
    assert chances(_eq([pot]), "turn") == (
        "Chances before the turn, over all 990 turns and rivers from the 45 unseen cards:\n"
        "- alice (A♠ K♠): wins 300 (30.30%), ties 10 (1.01%), share 30.81%\n"
        "- bob (Q♥ Q♦): wins 680 (68.69%), ties 10 (1.01%), share 69.19%")
    no_ties = PotChances(0, ("alice", "bob"), {"alice": 1176, "bob": 0}, {"alice": 0, "bob": 0},
                         {"alice": Fraction(1), "bob": Fraction(0)})
    assert chances(_eq([no_ties], boards=1176, deck="per_player"), "turn") == (
        "Chances before the turn, over all 1,176 turns and rivers from the Dealer's 49 cards left "
        "(hole cards come from the players' own decks):\n"
        "- alice (A♠ K♠): wins 1,176 (100%)\n"
        "- bob (Q♥ Q♦): wins 0 (0%)")


def test_side_pots_get_a_paragraph_each_named_as_the_payout_names_them():
    main = PotChances(90, ("alice", "bob", "carol"), {"alice": 500, "bob": 300, "carol": 160},
                      {"alice": 0, "bob": 30, "carol": 30},
                      {"alice": Fraction(500, 903), "bob": Fraction(315, 903), "carol": Fraction(175, 903)})
    side = PotChances(40, ("alice", "bob"), {"alice": 600, "bob": 303}, {"alice": 0, "bob": 0},
                      {"alice": Fraction(600, 903), "bob": Fraction(303, 903)})
    text = chances(_eq([main, side], boards=903, players=("alice", "bob", "carol")), "turn")
    assert text == (
        "Chances before the turn, over all 903 turns and rivers from the 43 unseen cards. "
        "Hands: alice A♠ K♠, bob Q♥ Q♦, carol J♣ 10♣.\n\n"
        "Main pot 90 (alice, bob, carol):\n"
        "- alice: wins 500 (55.37%)\n"
        "- bob: wins 300 (33.22%), ties 30 (3.32%), share 34.88%\n"
        "- carol: wins 160 (17.72%), ties 30 (3.32%), share 19.38%\n\n"
        "Side pot 1 40 (alice, bob):\n"
        "- alice: wins 600 (66.45%)\n"
        "- bob: wins 303 (33.55%)")


def test_player_names_are_escaped_like_every_dealer_comment():
    pot = PotChances(0, ("**x**", "bob"), {"**x**": 1, "bob": 0}, {"**x**": 0, "bob": 0},
                     {"**x**": Fraction(1), "bob": Fraction(0)})
    eq = Equity(players=("**x**", "bob"), holes={"**x**": ("As", "Ks"), "bob": ("Qh", "Qd")},
                board=("2c", "7d", "9h", "Jh"), to_come=1, boards=1, deck="shared", min_hole_cards=0,
                pots=(pot,))
    assert "- \\*\\*x\\*\\* (A♠ K♠): wins 1 (100%)" in chances(eq, "river")


# --------------------------------------------------------------------------- the pots


def _all_in_hand(ruleset, stacks, bb_ante):
    names = ("a", "b", "c", "d")[:len(stacks)]
    kw = {"blinds": (5, 10), "big_blind_ante": bb_ante} if ruleset is RR else {"ante": 5}
    hand = start_hand(ruleset, 1, list(zip(names, stacks)), names[-1], **kw)
    while hand.to_act is not None:
        la = legal_actions(hand)
        ev = AllIn(la.player, 1, hand.round) if la.all_in else Call(la.player, 1, hand.round)
        nxt = apply(hand, ev)
        if isinstance(nxt, Rejection):
            nxt = apply(hand, Call(la.player, 1, hand.round))
        assert not isinstance(nxt, Rejection), nxt
        hand = nxt
    return hand


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["RR", "BLOG"]), st.lists(st.integers(12, 400), min_size=2, max_size=4),
       st.sampled_from([0, 10]))
def test_the_pots_counted_are_the_pots_the_showdown_pays(which, stacks, bb_ante):
    ruleset = RR if which == "RR" else BLOG
    hand = _all_in_hand(ruleset, stacks, bb_ante if which == "RR" else 0)
    counted = contested_pots(hand)
    deck = ["As", "Kd", "Qh", "Jc", "9s", "2d", "3h", "4c", "5s", "6d", "7h", "8c", "Ts", "Th"]
    board = deck[:5]
    while need(hand).kind == "board":
        n = need(hand).cards
        hand = apply(hand, DealBoard(tuple(board[len(hand.board):len(hand.board) + n])))
    holes = iter(zip(deck[5::2], deck[6::2]))
    for s in hand.seats:
        if not s.folded:
            hand = apply(hand, Reveal(s.name, next(holes), 1))
            assert not isinstance(hand, Rejection), hand
    assert hand.result is not None
    assert counted == tuple((a.amount, a.eligible) for a in hand.result.awards)
