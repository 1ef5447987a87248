"""Differential test: the roberts-nlhe engine against pokerkit (an independent implementation)
on random short-stacked no-limit hands, the cases the PHH corpus rarely holds.

At every decision both must agree on who acts, what a call costs and the raise range; at
the end, on every player's Money. Cards are dealt identically to both (a drawn permutation of
the deck), so the showdowns agree too. Seat mapping: pokerkit's player i is our seat i+1 after
the button (heads-up pokerkit itself has player 1, the button, post the small blind).

Documented divergences are left out, each at the line that does it: a short big blind (the
engine keeps the full big blind to match, Robert's no-limit rule 2), a raise nobody left could
call (pokerkit offers none), pokerkit's no-op check for a player facing only all-in opponents,
and split pots with two or more odd chips (Robert's odd-chip rule 4).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Fold, Raise, Reveal
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.engine import Rejection, apply, legal_actions, need, start_hand
from nomicpoker.shell.storage.rulesets import load_ruleset

pokerkit = pytest.importorskip("pokerkit")
A = pokerkit.Automation
AUTO = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
        A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING)
RR = load_ruleset("roberts-nlhe")


def ok(h, ev):
    r = apply(h, ev)
    assert not isinstance(r, Rejection), (ev, r)
    return r


@pytest.mark.filterwarnings("ignore:A card being dealt")  # pokerkit: we choose the cards
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_engine_and_pokerkit_agree_on_turns_calls_and_final_money(data):
    n = data.draw(st.integers(2, 4), label="players")
    sb = data.draw(st.integers(1, 4), label="sb")
    # sb < bb: with equal blinds pokerkit cannot tell heads-up which blind is the big one
    bb = data.draw(st.integers(sb + 1, 8), label="bb")
    ante = data.draw(st.sampled_from([0, 0, 1, 2]), label="ante")
    # pokerkit order: small blind first (heads-up: the big blind first, then the button)
    pk_stacks = tuple(data.draw(st.lists(st.integers(1, 40), min_size=n, max_size=n), label="stacks"))
    # A big blind short of the blind is left out: the engine reads Robert's no-limit rule 2
    # ("anyone who enters the pot is required to enter for the minimum bet") and keeps the bet
    # to match at the full big blind, where pokerkit lowers it (docs/engine.md)
    assume(pk_stacks[0 if n == 2 else 1] >= bb + ante)
    names = [f"p{i}" for i in range(n)]  # p{n-1} has the button: pokerkit player i is p{i}
    ours = start_hand(RR, 1, list(zip(names, pk_stacks)), names[-1], blinds=(sb, bb), ante=ante)
    # (heads-up pokerkit itself has player 0 post the big blind and player 1 the small one)
    pk = pokerkit.NoLimitTexasHoldem.create_state(AUTO, True, ante, (sb, bb), bb, pk_stacks, n)
    deck = data.draw(st.permutations(FULL_DECK), label="deck")
    holes = {p: (deck[2 * i], deck[2 * i + 1]) for i, p in enumerate(names)}
    board = list(deck[2 * n: 2 * n + 5])
    for i in range(n):
        pk.deal_hole("".join(holes[names[i]]))
    for _ in range(200):
        nd = need(ours)
        if nd.kind == "complete":
            break
        if nd.kind == "action":
            la = legal_actions(ours)
            assert pk.actor_index is not None, ("we ask for an action, pokerkit has none", la)
            assert names[pk.actor_index] == la.player
            pk_call = pk.checking_or_calling_amount
            assert (la.call or 0) == pk_call or (la.call is None and la.check and pk_call == 0), (la, pk_call)
            if la.raise_min is not None and pk.can_complete_bet_or_raise_to():
                # the same raise range (raise-to totals for the round)
                assert (la.raise_min, la.raise_max) == (
                    pk.min_completion_betting_or_raising_to_amount,
                    pk.max_completion_betting_or_raising_to_amount), la
            options = ["fold", "call"] if la.call is not None else ["check"]
            if la.raise_min is not None:
                options.append("raise")
            if la.all_in:
                options.append("all_in")
            if "raise" in options and not pk.can_complete_bet_or_raise_to(la.raise_min):
                # pokerkit offers no raise that nobody left could call; we offer one and give
                # its uncalled part back (documented divergence): do not draw it here
                options.remove("raise")
            choice = data.draw(st.sampled_from(options), label="action")
            p = la.player
            if choice == "fold":
                ours = ok(ours, Fold(p))
                pk.fold()
            elif choice in ("call", "check"):
                ours = ok(ours, Call(p) if choice == "call" else Check(p))
                pk.check_or_call()
            elif choice == "raise":
                to = data.draw(st.integers(la.raise_min, la.raise_max), label="raise to")
                ours = ok(ours, Raise(p, amount=to))
                assert pk.can_complete_bet_or_raise_to(to), (la, to)
                pk.complete_bet_or_raise_to(to)
            else:
                before = ours
                ours = ok(ours, AllIn(p))
                seat = next(s for s in before.seats if s.name == p)
                to = seat.round_bet + seat.money
                if pk.can_complete_bet_or_raise_to(to):
                    pk.complete_bet_or_raise_to(to)
                else:
                    pk.check_or_call()
        elif nd.kind == "board":
            while pk.actor_index is not None:
                # pokerkit still asks a player with nothing to call and nobody able to answer a
                # raise (every opponent all in) to check; we skip that no-op
                assert pk.checking_or_calling_amount == 0, "pokerkit has a real decision left"
                pk.check_or_call()
            cards = tuple(board[:nd.cards])
            del board[:nd.cards]
            ours = ok(ours, DealBoard(cards))
            assert pk.can_deal_board()
            pk.deal_board("".join(cards))
        else:  # showdown: everyone shows (pokerkit shows automatically)
            ours = ok(ours, Reveal(nd.players[0], holes[nd.players[0]]))
    else:
        raise AssertionError("the hand did not finish")
    event("showdown" if not ours.result.uncontested else "uncontested")
    assert not pk.status, "pokerkit's hand is still running"
    # Robert's odd-chip rule 4, "No player may receive more than one odd chip", which the engine
    # follows and pokerkit does not (it gives every odd chip of a pot to one player): a split
    # pot with two or more odd chips is the one place the final Money may differ
    if any(len(a.winners) > 1 and a.amount % len(a.winners) >= 2 for a in ours.result.awards):
        event("split with 2+ odd chips: Money not compared")
        return
    assert {s.name: s.money for s in ours.seats} == dict(zip(names, pk.stacks))
