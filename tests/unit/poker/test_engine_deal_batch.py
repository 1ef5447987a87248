"""Dealing hole cards in one batch (``DealHoles``: how replay deals a hand) is all-or-none
and equals dealing them one at a time: the same Hand when every deal is good, and else the
refusal of the first deal at fault, with its code and message, whatever is wrong with it
(a repeated card inside the batch or against the cards in play, a wrong count, a bad card,
an unknown player, a player dealt twice), under a shared deck and under per-player decks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.poker.actions import DealHole, DealHoles
from nomicpoker.core.poker.engine import Rejection, apply

from kits.references.engine import blog3, rr3

POOL = ["Ah", "Kd", "2c", "2d", "9s", "8s", "Qh", "1x"]
PLAYERS = ["a", "b", "c", "z"]  # seats a b c (the Dealing and Play hand: alice bob carol); z never sits
deal = st.builds(DealHole, st.sampled_from(PLAYERS),
                 st.lists(st.sampled_from(POOL), min_size=1, max_size=3).map(tuple))


def _one_by_one(hand, deals):
    for d in deals:
        r = apply(hand, d)
        if isinstance(r, Rejection):
            return r
        hand = r
    return hand


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["shared", "per_player"]), st.lists(deal, min_size=1, max_size=5),
       st.booleans())
def test_a_batch_is_its_deals_one_by_one(deck, deals, predealt):
    h = rr3() if deck == "shared" else blog3()
    assert h.ruleset.deck == deck
    if deck == "per_player":
        names = {"a": "alice", "b": "bob", "c": "carol", "z": "zed"}
        deals = [DealHole(names[d.player], d.cards) for d in deals]
    if predealt:  # one seat already holds cards, one of them in the pool
        h = apply(h, DealHole(h.seats[1].name, ("Ah", "3c", "4c")[:h.ruleset.hole_cards]))
        assert not isinstance(h, Rejection)
    want = _one_by_one(h, deals)
    got = apply(h, DealHoles(tuple(deals)))
    if isinstance(want, Rejection):
        assert isinstance(got, Rejection)
        assert (got.code, got.message) == (want.code, want.message)
    else:
        assert got == want
        assert got.in_play == want.in_play and got.log == want.log


def test_the_batch_refusal_names_the_first_deal_at_fault():
    h = rr3()
    # the second deal repeats a card of the first; the third is also bad (wrong count):
    # the refusal is the second's, as dealing them singly gives
    r = apply(h, DealHoles((DealHole("a", ("Ah", "Kd")), DealHole("b", ("Kd", "2c")),
                            DealHole("c", ("9s",)))))
    assert isinstance(r, Rejection) and r.code == "duplicate_card" and "Kd" in r.message
