"""One tournament table's button and blinds (Robert's dead button, WRGPT's missing small blind,
heads-up) and the seed's seat draw, SEATLOG and redraws, each checked against hand-worked
examples and an auditor's own recomputation."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.tournament.draw import Entrant, card_value, redraw, seat_draw, seat_log
from nomicpoker.core.tournament.seating import (Positions, SeatingError, TableSeats, after_hand, big_blind_due,
                                                dealt_in, drawn_table, next_positions, seats_due_for_big_blind,
                                                small_blind_posted)

ABCDE = ("A", "B", "C", "D", "E")


def table(seats, last=(1, 2, 3)) -> TableSeats:
    return TableSeats(1, tuple(seats), Positions(*last))


def last_to_act(t: TableSeats, pos: Positions) -> str:
    """The player with the last action after the first round: the first occupied seat found
    going counter-clockwise from the button's position, the button's own seat included."""
    s = pos.button
    for _ in range(t.size):
        if t.player_at(s) is not None:
            return t.player_at(s)
        s = (s - 2) % t.size + 1
    raise AssertionError


def test_the_blinds_move_one_seat_each_hand():
    t = table(ABCDE)  # last hand: button A (1), small blind B (2), big blind C (3)
    pos = next_positions(t)
    assert pos == Positions(button=2, small_blind=3, big_blind=4)
    assert small_blind_posted(t, pos) and dealt_in(t, pos) == ("C", "D", "E", "A", "B")


def test_with_the_big_blind_eliminated_there_is_no_small_blind():
    """WRGPT: "If the player with the big blind is eliminated there will be no small blind"."""
    t = table(ABCDE).without("C")  # C had the big blind last hand and is out
    pos = next_positions(t)
    assert pos.big_blind == 4 and t.player_at(4) == "D"  # D, due for it, posts the big blind
    assert pos.small_blind == 3 and not small_blind_posted(t, pos)  # in front of C's empty seat
    assert pos.button == 2 and t.player_at(2) == "B"


def test_the_dead_button():
    """Robert's: "Dead button – The big blind is posted by the player due for it, and the small
    blind and button are positioned accordingly, even if this means the small blind or the button
    is placed in front of an empty seat, giving the same player the privilege of last action on
    consecutive hands." B had the small blind and is eliminated: the button is placed in front of
    B's empty seat, and A, who had the button, has the last action again."""
    t = table(ABCDE)
    first = Positions(1, 2, 3)
    assert last_to_act(t, first) == "A"
    t = t.without("B")
    pos = next_positions(t)
    assert pos == Positions(button=2, small_blind=3, big_blind=4)  # D posts the big blind he is due
    assert t.player_at(pos.button) is None  # a dead button
    assert t.player_at(pos.small_blind) == "C" and t.player_at(pos.big_blind) == "D"
    assert last_to_act(t, pos) == "A"  # "the same player the privilege of last action on consecutive hands"
    nxt = next_positions(after_hand(t, pos))  # and then the button moves on to C
    assert nxt == Positions(button=3, small_blind=4, big_blind=5)


def test_heads_up_the_small_blind_is_on_the_button():
    """Robert's: "In heads-up play with two blinds, the small blind is on the button." """
    t = table(["A", None, "C", None, None], last=(1, 1, 3))
    pos = next_positions(t)
    assert pos == Positions(button=3, small_blind=3, big_blind=1)
    pos2 = next_positions(after_hand(t, pos))
    assert pos2 == Positions(button=1, small_blind=1, big_blind=3)  # the big blind alternates


def test_nobody_is_dealt_in_between_the_button_and_the_small_blind():
    """Robert's: "NO PLAYER MAY BE DEALT IN BETWEEN THE BUTTON OR SMALL BLIND. YOU MUST WAIT TILL
    THE BUTTON PASSES." E had the big blind in seat 5; the button goes to seat 3 and the small
    blind to seat 5: a player moved into seat 4 waits for the button to pass."""
    t = table(["A", "B", "C", None, "E", "F"], last=(2, 3, 5))
    pos = next_positions(t)
    assert pos == Positions(button=3, small_blind=5, big_blind=6)
    moved = t.with_seat(4, "X")
    assert "X" not in dealt_in(moved, next_positions(moved))
    later = after_hand(moved, next_positions(moved))
    assert "X" in dealt_in(later, next_positions(later))  # the next hand he is dealt in


def test_the_player_due_for_the_big_blind_and_the_seats_due_for_it():
    t = table(["A", "B", "C", None, "E", None, None, "H"], last=(1, 2, 3))
    assert big_blind_due(t) == (5, "E")
    assert seats_due_for_big_blind(t) == (4, 6, 7)  # seat 4 would post it next hand, then 6, then 7


def test_a_hand_needs_two_players():
    with pytest.raises(SeatingError) as exc:
        next_positions(table(["A", None, None]))
    assert exc.value.code == "too_few"


def test_a_drawn_button_deals_the_first_hand_from_it():
    t = drawn_table(4, ("A", "B", None, "D", "E"), button=4)
    assert next_positions(t) == Positions(button=4, small_blind=5, big_blind=1)
    hu = drawn_table(4, ("A", None, "C"), button=3)
    assert next_positions(hu) == Positions(button=3, small_blind=3, big_blind=1)


# ----------------------------------------------------------------------------- the draw


def auditor_key(seed: str, purpose: str, item: str) -> str:
    return hashlib.sha256((seed + "\n" + purpose + "\n" + item).encode()).hexdigest()


def test_the_seat_draw_is_what_an_auditor_recomputes_from_the_seed():
    """The recipe of docs/tournaments.md, written out independently: order by key, deal round
    the tables, the high card by suit (spades, hearts, diamonds, clubs) takes the button."""
    seed = "a published seed"
    players = [f"player{i}" for i in range(23)]
    draw = seat_draw(seed, players, 9)
    order = sorted(players, key=lambda p: auditor_key(seed, "seats", p))
    assert [line.player for line in draw.log] == order
    assert len(draw.tables) == 3  # 23 players, 9 seats: 3 tables of 8, 8 and 7
    assert sorted(len(t.players()) for t in draw.tables) == [7, 8, 8]
    ranks, suits = "23456789TJQKA", "cdhs"
    for t in draw.tables:
        deck = sorted((r + s for r in ranks for s in "shdc"), key=lambda c: auditor_key(seed, f"button seats table {t.number}", c))
        cards = {p: deck[k] for k, p in enumerate(t.players())}
        best = max(cards, key=lambda p: (ranks.index(cards[p][0]), suits.index(cards[p][1])))
        assert next_positions(t).button == t.seat_of(best)
    for i, p in enumerate(order):
        assert draw.tables[i % 3].player_at(i // 3 + 1) == p


def test_high_card_by_suit():
    """Robert's: "Button position will be awarded to the player dealt the highest card by suit.
    (S,H,D,C)" """
    assert card_value("As") > card_value("Ah") > card_value("Ad") > card_value("Ac") > card_value("Ks")
    assert card_value("2s") > card_value("2h")


def test_every_player_is_seated_once_and_the_same_seed_draws_the_same():
    players = [f"p{i}" for i in range(50)]
    a, b = seat_draw("s", players, 9), seat_draw("s", list(reversed(players)), 9)
    assert a == b
    seated = [p for t in a.tables for p in t.players()]
    assert sorted(seated) == sorted(players)
    assert seat_draw("other", players, 9).tables != a.tables


def test_seatlog_reports_the_starting_seat_assignment():
    """WRGPT: "At any time during the tournament, players can get a detailed report about the
    starting seat assignment by using the SEATLOG command." """
    seed = "s3"
    draw = seat_draw(seed, ["ann", "bob", "cy", "dee"], 9)
    text = seat_log(draw, hashlib.sha256(seed.encode()).hexdigest(), seed)
    assert f"seed sha256 {hashlib.sha256(b's3').hexdigest()}, seed s3" in text
    for line in draw.log:
        row = next(r for r in text.splitlines() if f" {line.player} " in r)
        assert f"table {line.table:>3} seat {line.seat:>2}" in row and f"card {line.card}" in row
        assert auditor_key(seed, "seats", line.player)[:16] in row
    assert sum("BUTTON" in r for r in text.splitlines()) == 1
    hidden = seat_log(draw, "abc", None)
    assert "seed s3" not in hidden and "published when play starts" in hidden


def test_the_redraw_seats_by_cost_per_hand():
    """WRGPT: "Also periodically, seats are redrawn." "Within each table, players are assigned
    seats based on average cost per hand played so far. The player who has spent the least
    amount of money in blinds per hand becomes the big blind and the player who has spent the
    most becomes the button." "Players who are resigned will automatically draw the big blind." """
    costs = {"a": (30, 10), "b": (10, 10), "c": (50, 10), "d": (20, 5), "e": (0, 0)}
    entrants = [Entrant(p, paid, hands) for p, (paid, hands) in costs.items()]
    [t] = redraw("seed", 1, entrants, 9).tables
    pos = next_positions(t)
    # cost per hand: a 3, b 1, c 5, d 4, e 0 (no hand yet): e least, c most
    assert t.player_at(pos.big_blind) == "e" and t.player_at(pos.button) == "c"
    assert t.player_at(pos.small_blind) == "b"  # the second least
    resigned = [Entrant(p, paid, hands, resigned=(p == "c")) for p, (paid, hands) in costs.items()]
    [t2] = redraw("seed", 1, resigned, 9).tables
    pos2 = next_positions(t2)
    assert t2.player_at(pos2.big_blind) == "c" and t2.player_at(pos2.button) == "d"


def test_a_redraw_assigns_the_survivors_to_new_tables_at_random():
    """WRGPT: "At the end of each round, the pool of surviving players is randomly assigned to
    new tables, as before." The tables come from the seed's keys for that redraw."""
    entrants = [Entrant(f"p{i}", i, 10) for i in range(20)]
    d = redraw("seed", 2, entrants, 9)
    assert [len(t.players()) for t in d.tables] == [7, 7, 6]
    order = sorted((e.player for e in entrants), key=lambda p: auditor_key("seed", "redraw 2", p))
    for i, p in enumerate(order):
        assert p in d.tables[i % 3].players()


# ----------------------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 10), st.lists(st.tuples(st.booleans(), st.integers(0, 100)), min_size=1, max_size=60),
       st.integers(1, 10))
def test_nobody_misses_the_big_blind(size, steps, button):
    """Robert's: "Each round every player must get an opportunity for the button, and meet the
    total amount of the blind obligations." Hands are dealt with players eliminated between
    them at random: the big blind always moves to the next player clockwise, so between two big
    blinds of one player, every other player seated all that time posted it once, and nobody
    posts it twice in a row while three or more play."""
    names = [f"p{i}" for i in range(size)]
    t = drawn_table(1, tuple(names), (button - 1) % size + 1)
    history: list[tuple[str, frozenset[str]]] = []  # (big blind, who was seated)
    for eliminate, pick in steps:
        if eliminate and len(t.players()) > 2:
            t = t.without(sorted(t.players())[pick % len(t.players())])
        pos = next_positions(t)
        bb = t.player_at(pos.big_blind)
        assert bb is not None and t.player_at(pos.button) != bb
        if history and len(t.players()) >= 3:
            assert history[-1][0] != bb
        history.append((bb, frozenset(t.players())))
        t = after_hand(t, pos)
    for i, (p, _) in enumerate(history):
        j = next((k for k in range(i + 1, len(history)) if history[k][0] == p), None)
        if j is None:
            continue
        always = frozenset.intersection(*(seated for _, seated in history[i:j + 1]))
        assert always - {p} <= {q for q, _ in history[i + 1:j]}
