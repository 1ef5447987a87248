"""Breaking and balancing tables as Robert's Rules say, the final table merge and a late
entrant's seat, by hand-worked examples and by properties over random tournaments."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.tournament.balance import Move, rebalance, seat_late_entrant
from nomicpoker.core.tournament.draw import seat_draw
from nomicpoker.core.tournament.seating import (Positions, TableSeats, after_hand, big_blind_due, next_positions)


def T(number, seats, last=(1, 2, 3)) -> TableSeats:
    return TableSeats(number, tuple(seats), Positions(*last))


def test_the_player_due_for_the_big_blind_moves_into_the_seat_due_for_it():
    """Robert's: "if a player is needed to move from a table to balance tables, the player due
    for the big blind will be automatically selected to move, and will be given the earliest
    seat due for the big blind if more than one seat is open."

    Table 1 (six players) had the big blind in seat 3: D in seat 4 is due for it. Table 2 (four
    players) had it in seat 2; its open seats 5 and 6 come, in that order, after seats 3 and 4:
    seat 5 is the earliest due for the big blind."""
    t1 = T(1, ["A", "B", "C", "D", "E", "F"], last=(1, 2, 3))
    t2 = T(2, ["P", "Q", "R", "S", None, None], last=(6, 1, 2))
    plan = rebalance([t1, t2], (2, 1), "seed", "1")
    assert plan.moves == (Move("D", 1, 4, 2, 5, "balance"),)
    new1, new2 = plan.tables
    assert new1.players() == ("A", "B", "C", "E", "F") and new2.player_at(5) == "D"
    # D posts the big blind at table 2 after R and S did, and E is due for it at table 1 now
    assert big_blind_due(new1) == (5, "E")


def test_seat_due_first_is_the_one_right_after_the_last_big_blind():
    t1 = T(1, ["A", "B", "C", "D", "E", "F", "G"], last=(1, 2, 3))
    t2 = T(2, ["P", None, "R", None, "T", None, None], last=(1, 3, 5))
    plan = rebalance([t1, t2], (1, 2), "seed", "1")
    # table 2's last big blind was seat 5: seat 6 is due first; D moves there and posts it next
    assert plan.moves[0] == Move("D", 1, 4, 2, 6, "balance")
    assert next_positions(plan.tables[1]).big_blind == 6


def test_tables_are_broken_in_a_pre_set_order():
    """Robert's: "As players are eliminated, tables are broken in a pre-set order, with players
    from the broken tables assigned to empty seats at other tables."

    Three tables of 4 seats, 8 players left: they fit at two tables, so the first table of the
    breaking order (table 2) is broken, not the emptiest (table 3)."""
    t1 = T(1, ["A", "B", "C", None])
    t2 = T(2, ["D", "E", "F", None])
    t3 = T(3, ["G", "H", None, None])
    plan = rebalance([t1, t2, t3], (2, 1, 3), "seed", "1")
    assert plan.broken == (2,)
    assert [t.number for t in plan.tables] == [1, 3]
    assert {m.player for m in plan.moves if m.reason == "break"} == {"D", "E", "F"}
    assert all(m.to_table in (1, 3) for m in plan.moves)
    assert sorted(len(t.players()) for t in plan.tables) == [4, 4]
    # each went into an empty seat: nobody already seated was displaced
    assert set(plan.tables[0].players()) >= {"A", "B", "C"} and set(plan.tables[1].players()) >= {"G", "H"}


def test_the_seating_order_from_a_broken_table_is_drawn():
    """Robert's: "Drawing a card is used to determine things like who gets the button in a new
    game, or seating order coming from a broken game." Another draw, another order."""
    tables = [T(1, ["A", "B", None, None, None, None]), T(2, ["C", "D", "E", None, None, None]),
              T(3, ["F", "G", "H", "I", None, None])]
    orders = {tuple(m.player for m in rebalance(tables, (3, 2, 1), "seed", str(e)).moves) for e in range(12)}
    assert len(orders) > 1


def test_the_final_table_merge():
    """When the players left fit at one table, the tables still in play are merged into the
    final table (the last of the breaking order) and its seats and button are drawn afresh."""
    t1 = T(1, ["A", "B", None, None, None])
    t2 = T(2, ["C", None, "D", None, None])
    t3 = T(3, ["E", None, None, None, None])
    plan = rebalance([t1, t2, t3], (3, 2, 1), "seed", "7")
    assert plan.final and [t.number for t in plan.tables] == [1]
    assert sorted(plan.tables[0].players()) == ["A", "B", "C", "D", "E"]
    assert set(plan.broken) == {2, 3}
    assert {m.reason for m in plan.moves} == {"final"} and len(plan.moves) == 5
    again = seat_draw("seed", ["A", "B", "C", "D", "E"], 5, "final 7", first_table=1)
    assert plan.tables[0] == again.tables[0]


def test_balanced_tables_are_left_alone():
    t1 = T(1, ["A", "B", "C", None])
    t2 = T(2, ["D", "E", None, None])
    plan = rebalance([t1, t2], (2, 1), "seed", "1")
    assert plan.moves == () and plan.tables == (t1, t2)


def test_a_late_entrant_takes_the_seat_due_for_the_big_blind_at_the_emptiest_table():
    """Robert's: "A new player assumes the position of the available seat and is dealt right
    into the game, except when seated between the button and the small blind." """
    t1 = T(1, ["A", "B", "C", None, None], last=(1, 2, 3))
    t2 = T(2, ["D", "E", None, None, None], last=(5, 1, 2))
    tables, move = seat_late_entrant([t1, t2], "Z", (2, 1))
    assert move == Move("Z", 0, 0, 2, 3, "late_entry")
    assert tables[1].player_at(3) == "Z" and next_positions(tables[1]).big_blind == 3


# ------------------------------------------------------------------------------ properties


@st.composite
def tournaments(draw):
    size = draw(st.integers(3, 10))
    n = draw(st.integers(2, 60))
    players = [f"p{i}" for i in range(n)]
    seed = draw(st.text(min_size=1, max_size=8))
    busts = draw(st.lists(st.integers(0, 10**6), max_size=n - 1))
    order = draw(st.permutations(range(1, -(-n // size) + 1)))
    return size, players, seed, busts, order


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_every_player_is_seated_once_and_tables_never_differ_by_more_than_one(case):
    """Eliminate players one at a time (a hand at each table between) and rebalance after
    each: every survivor is seated exactly once, no table is over its size, the tables differ
    by at most one player and there are as few tables as can seat everyone."""
    size, players, seed, busts, order = case
    tables = list(seat_draw(seed, players, size).tables)
    alive = set(players)
    for step, pick in enumerate(busts):
        if len(alive) <= 2:
            break
        victim = sorted(alive)[pick % len(alive)]
        alive.discard(victim)
        tables = [t.without(victim) if victim in t.players() else t for t in tables]
        plan = rebalance(tables, order, seed, str(step))
        tables = [after_hand(t, next_positions(t)) if len(t.players()) >= 2 else t for t in plan.tables]
        seated = [p for t in tables for p in t.players()]
        assert sorted(seated) == sorted(alive)
        counts = [len(t.players()) for t in tables]
        assert max(counts) - min(counts) <= 1 and max(counts) <= size and min(counts) >= 2
        assert len(tables) == -(-len(alive) // size)
        for m in plan.moves:  # a move lands in the seat it names
            assert any(t.number == m.to_table and t.player_at(m.to_seat) == m.player for t in tables) or \
                m.player not in alive


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_a_balancing_move_takes_the_player_due_for_the_big_blind(case):
    size, players, seed, busts, order = case
    tables = list(seat_draw(seed, players, size).tables)
    alive = set(players)
    for step, pick in enumerate(busts):
        if len(alive) <= 2:
            break
        victim = sorted(alive)[pick % len(alive)]
        alive.discard(victim)
        tables = [t.without(victim) if victim in t.players() else t for t in tables]
        before = {t.number: t for t in tables}
        plan = rebalance(tables, order, seed, str(step))
        if not plan.broken:
            for m in plan.moves:
                assert m.reason == "balance"
                src = before[m.from_table]
                assert big_blind_due(src) == (m.from_seat, m.player)
                before[m.from_table] = src.without(m.player)
                before[m.to_table] = before[m.to_table].with_seat(m.to_seat, m.player)
        tables = list(plan.tables)
