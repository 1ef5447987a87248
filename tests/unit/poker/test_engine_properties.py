"""Property tests: random legal play under both rulesets keeps the books and always ends.

The actions are drawn from what :func:`legal_actions` offers (every kind, and raise amounts
anywhere between the minimum and the maximum), so these also pin that everything the engine
lists as legal is accepted, and that the amounts just outside the listed range are refused.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Fold, Muck, Raise, Reveal, Timeout
from nomicpoker.core.poker.betting import can_raise
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.engine import Hand, Rejection, apply, legal_actions, need, start_hand, turn_column
from nomicpoker.shell.storage.rulesets import load_ruleset

BLOG = load_ruleset("blognomic-2008")
RR = load_ruleset("roberts-nlhe")

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _start(data, rs, blinds: bool = True) -> Hand:
    n = data.draw(st.integers(2, 6), label="players")
    names = [f"p{i}" for i in range(n)]
    if rs.blinds and blinds:
        stacks = data.draw(st.lists(st.integers(1, 400), min_size=n, max_size=n), label="stacks")
        sb = data.draw(st.integers(1, 10))
        bb = data.draw(st.integers(sb, 20))
        ante = data.draw(st.integers(0, 3))
        bba = data.draw(st.sampled_from([0, 0, bb]))
        kw = dict(ante=ante, blinds=(sb, bb), big_blind_ante=bba)
    else:
        # small stacks: the 2008 minimum raise is one chip, so rounds can be long
        stacks = data.draw(st.lists(st.integers(1, 60), min_size=n, max_size=n), label="stacks")
        kw = dict(ante=data.draw(st.integers(0, 5)))
    button = names[data.draw(st.integers(0, n - 1))]
    return start_hand(rs, 1, list(zip(names, stacks)), button, **kw)


def _tag(rs, h: Hand) -> dict:
    return {"hand": h.number, "round": h.round} if rs.require_hand_and_round else {}


def _cards(data, rs, h: Hand, k: int) -> tuple[str, ...]:
    if rs.deck == "per_player":  # own decks: repeats across decks allowed, not in one deck
        return tuple(data.draw(st.lists(st.sampled_from(FULL_DECK), min_size=k, max_size=k, unique=True)))
    used = set(h.board)
    for s in h.seats:
        used.update(s.hole)
        used.update(s.revealed or ())
    free = [c for c in FULL_DECK if c not in used]
    return tuple(data.draw(st.permutations(free))[:k])


def _refused(h: Hand, ev) -> bool:
    return isinstance(apply(h, ev), Rejection)


def _play(data, rs, blinds: bool = True) -> None:
    h = _start(data, rs, blinds)
    total = sum(s.money for s in h.seats) + h.pot
    for _ in range(3000):
        assert all(s.money >= 0 for s in h.seats)
        nd = need(h)
        col = turn_column(h, [s.name for s in h.seats])
        assert list(col.values()).count("x") == (1 if nd.kind == "action" else 0)
        if nd.kind == "complete":
            r = h.result
            assert sum(s.money for s in h.seats) + r.destroyed == total
            assert sum(r.payouts.values()) == pot_before - r.destroyed
            event("uncontested" if r.uncontested else f"showdown, {len(r.awards)} pot(s)")
            assert set(col.values()) == {"o"}
            return
        assert sum(s.money for s in h.seats) + h.pot == total
        pot_before = h.pot
        if nd.kind == "action":
            la = legal_actions(h)
            p = la.player
            tag = _tag(rs, h)
            options = [Fold(p, **tag), Timeout(p)]
            if la.check:
                options.append(Check(p, **tag))
            else:
                assert _refused(h, Check(p, **tag))
            if la.call is not None:
                options.append(Call(p, amount=la.call, **tag))
                assert _refused(h, Call(p, amount=la.call + 1, **tag))
            else:
                assert _refused(h, Call(p, **tag))
            if la.raise_min is not None:
                s = next(x for x in h.seats if x.name == p)
                added = la.raise_min if rs.raise_amount == "added" else la.raise_min - s.round_bet
                # a raise always adds more than the call, unless it is the whole stack
                assert added > h.high_bet - s.round_bet or added == s.money, (la, h.high_bet)
                assert added >= 1
                amt = data.draw(st.integers(la.raise_min, la.raise_max), label="raise")
                options += [Raise(p, amount=amt, **tag), Raise(p, amount=la.raise_min, **tag),
                            Raise(p, amount=la.raise_max, **tag)]
                assert _refused(h, Raise(p, amount=la.raise_min - 1, **tag))
                assert _refused(h, Raise(p, amount=la.raise_max + 1, **tag))
            else:
                assert la.raise_max is None
            # what the turn notice offers is exactly what the engine accepts (issue 23: one
            # source of legality): any amount, in range or not, offered or not
            s = next(x for x in h.seats if x.name == p)
            top = s.round_bet + s.money + 3
            for amt in data.draw(st.lists(st.integers(-2, top), min_size=3, max_size=3), label="amounts"):
                offered = la.raise_min is not None and la.raise_min <= amt <= la.raise_max
                assert can_raise(h, Raise(p, amount=amt, **tag)) == offered == (not _refused(h, Raise(p, amount=amt, **tag))), \
                    (amt, la)
            if la.all_in:
                options.append(AllIn(p, **tag))
            # weight towards calls and checks so hands reach the showdown
            ev = data.draw(st.sampled_from(options + options[2:] * 2), label="action")
        elif nd.kind == "board":
            if h.runout and data.draw(st.booleans(), label="reveal early"):
                live = [s for s in h.seats if not s.folded and s.revealed is None and not s.mucked]
                if live:
                    ev = Reveal(live[0].name, _cards(data, rs, h, 2))
                    h2 = apply(h, ev)
                    assert not isinstance(h2, Rejection), (ev, h2)
                    h = h2
                    continue
            ev = DealBoard(_cards(data, rs, h, nd.cards))
        else:
            p = data.draw(st.sampled_from(nd.players), label="shower")
            if data.draw(st.integers(0, 4), label="muck") == 0:
                ev = Muck(p)
            else:
                ev = Reveal(p, _cards(data, rs, h, 2))
        h2 = apply(h, ev)
        assert not isinstance(h2, Rejection), (ev, h2)
        h = h2
    raise AssertionError("the hand did not finish in 3000 events")


@SETTINGS
@given(st.data())
def test_random_legal_play_under_roberts_rules_conserves_chips_and_finishes(data):
    _play(data, RR)


@SETTINGS
@given(st.data())
def test_random_legal_play_under_dealing_and_play_conserves_chips_and_finishes(data):
    _play(data, BLOG)


@SETTINGS
@given(st.data())
def test_random_play_under_dealing_and_play_amended_to_a_minimum_raise_never_offers_a_raise_of_0(data):
    """issue 10: blognomic-2008 amended to ``min_raise = "previous_bet_or_raise"`` has no blinds,
    so no bring-in: the legal actions offered a raise of 0 that the engine refused. The
    smallest bet is one chip in every round (Robert's no-limit rule 4, the smallest chip)."""
    _play(data, replace(BLOG, min_raise="previous_bet_or_raise"))


@SETTINGS
@given(st.data())
def test_random_play_under_roberts_rules_without_blinds_never_offers_a_raise_of_0(data):
    _play(data, RR, blinds=False)
