"""A *barred* reveal at the showdown (``Reveal.barred``: the dealer shows the cards of a player
away at a tournament's table, who "cannot win a contested hand while on vacation", WRGPT,
seed ``000_…``), settled pot by pot: a barred hand wins no pot a contender without the bar
still contests, and the pots only barred players contest go by their cards. Without a barred
reveal nothing changes (the other engine tests).

One hand of roberts-nlhe, four seats, blinds 5/10, button ``c``: ``p`` (small blind, 10
chips), ``a`` (big blind, 30), ``b`` (60) and ``c`` (100). ``b`` goes all in for 60, ``c``
calls, ``p`` goes all in for 10, ``a`` for 30. Worked by hand: the main pot is 4 x 10 = 40
(p, a, b, c), side pot 1 is 3 x 20 = 60 (a, b, c), side pot 2 is 2 x 30 = 60 (b, c); nothing is
uncalled. Board 2c 7d 9h Jc 4s; p holds 3c 3d (a pair of threes), a As Ah (aces), b Ks Kh
(kings), c Qs Qh (queens). Each pot's winner among the barred is cross-checked with treys."""

from __future__ import annotations

from nomicpoker.core.poker.actions import AllIn, Call, DealBoard, Muck, Reveal
from nomicpoker.core.poker.engine import start_hand

from kits.references.engine import RR, play

BOARD = ("2c", "7d", "9h", "Jc", "4s")
HOLES = {"p": ("3c", "3d"), "a": ("As", "Ah"), "b": ("Ks", "Kh"), "c": ("Qs", "Qh")}


def _showdown():
    h = start_hand(RR, 1, [("p", 10), ("a", 30), ("b", 60), ("c", 100)], "c", blinds=(5, 10))
    return play(h, AllIn("b"), Call("c"), AllIn("p"), AllIn("a"),
                DealBoard(BOARD[:3]), DealBoard(BOARD[3:4]), DealBoard(BOARD[4:]))


def _treys_best(players) -> set[str]:
    """The best hands among ``players`` by treys (an independent evaluator)."""
    from treys import Card, Evaluator

    ev = Evaluator()
    rank = {p: ev.evaluate([Card.new(c) for c in BOARD], [Card.new(c) for c in HOLES[p]]) for p in players}
    return {p for p, r in rank.items() if r == min(rank.values())}


def _pots(h):
    return [(a.amount, a.eligible, a.winners) for a in h.result.awards]


def test_the_pots_a_player_present_contests_are_his_and_the_rest_go_by_the_barred_cards():
    # p is here; a, b and c are away: the dealer shows their cards with the bar
    h = play(_showdown(), Reveal("a", HOLES["a"], barred=True), Reveal("b", HOLES["b"], barred=True),
             Reveal("c", HOLES["c"], barred=True), Reveal("p", HOLES["p"]))
    main, side1, side2 = _pots(h)
    # the main pot: p contests it, so it is his, though every barred hand beats his threes
    assert main == (40, ("p", "a", "b", "c"), ("p",))
    # side pot 1 (a, b, c) and side pot 2 (b, c): nobody without the bar is in them, the cards decide
    assert side1[:2] == (60, ("a", "b", "c")) and set(side1[2]) == _treys_best("abc") == {"a"}
    assert side2[:2] == (60, ("b", "c")) and set(side2[2]) == _treys_best("bc") == {"b"}
    assert {s.name: s.money for s in h.seats} == {"p": 40, "a": 60, "b": 60, "c": 40}  # 200 in, 200 out


def test_a_contender_without_the_bar_in_every_pot_takes_them_all_by_the_cards_among_the_unbarred():
    # c is here (queens), p too; a and b are away: every pot has c in it
    h = play(_showdown(), Reveal("a", HOLES["a"], barred=True), Reveal("b", HOLES["b"], barred=True),
             Reveal("c", HOLES["c"]), Reveal("p", HOLES["p"]))
    # the main pot among p and c (queens beat threes), the side pots to c, the only one unbarred
    assert [w for _a, _e, w in _pots(h)] == [("c",), ("c",), ("c",)]
    assert {s.name: s.money for s in h.seats} == {"p": 0, "a": 0, "b": 0, "c": 200}


def test_a_pot_whose_unbarred_contender_mucked_goes_by_the_barred_cards():
    # p concedes (mucks): the main pot is then contested by barred hands only
    h = play(_showdown(), Reveal("a", HOLES["a"], barred=True), Reveal("b", HOLES["b"], barred=True),
             Reveal("c", HOLES["c"], barred=True), Muck("p"))
    assert [w for _a, _e, w in _pots(h)] == [("a",), ("a",), ("b",)]


def test_without_a_bar_the_cards_decide_every_pot_as_ever():
    h = play(_showdown(), *(Reveal(p, HOLES[p]) for p in "abcp"))
    assert [w for _a, _e, w in _pots(h)] == [("a",), ("a",), ("b",)]
    assert h.barred == () and play(_showdown(), Reveal("a", HOLES["a"], barred=True)).barred == (1,)


def test_the_public_record_says_reveal_away_and_the_money_check_replays_it():
    """The public steps of a barred reveal are ``reveal_away`` (hand_log), which the auditors'
    money check (core/fairness/money) replays with the bar: the payouts it recomputes are the
    dealer's. Read as a plain ``reveal`` the check would pay the main pot to ``a``'s aces."""
    from nomicpoker.core.fairness.money import verify_money
    from nomicpoker.core.words.hand_log import forced_bets, steps

    start = start_hand(RR, 1, [("p", 10), ("a", 30), ("b", 60), ("c", 100)], "c", blinds=(5, 10))
    h, actions = start, forced_bets(start)
    for ev in (AllIn("b"), Call("c"), AllIn("p"), AllIn("a"), DealBoard(BOARD[:3]), DealBoard(BOARD[3:4]),
               DealBoard(BOARD[4:]), Reveal("a", HOLES["a"], barred=True), Reveal("b", HOLES["b"], barred=True),
               Reveal("c", HOLES["c"], barred=True), Reveal("p", HOLES["p"])):  # one step at a time, as the fold logs
        before = h
        h = play(h, ev)
        actions += steps(h, len(before.log), {s.name: s.total_bet for s in before.seats})
    assert [a["event"] for a in actions if a["player"] == "a"][-1] == "reveal_away"
    record = {"hand": 1, "seats": [{"player": s.name, "money": s.money + s.total_bet} for s in start.seats],
              "button": "c",
              "ante": 0, "blinds": [5, 10], "actions": actions, "board": list(BOARD),
              "payouts": dict(h.result.payouts), "destroyed": 0}
    checks = verify_money(record, RR)
    assert checks and all(c.ok for c in checks), [c for c in checks if not c.ok]
    plain = [{**a, "event": "reveal"} if a["event"] == "reveal_away" else a for a in actions]
    assert not all(c.ok for c in verify_money({**record, "actions": plain}, RR))
