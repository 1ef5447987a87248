"""Players moving between a tournament's tables, through the real CLI on the local forum:
``tournament advance`` breaks tables in the pre-set order, balances them and makes the final
table (Robert's Rules, tournament section), each move a dealer event of both tables' ledgers,
posted in their threads, with the chips carried from one GNDT to the other; ``audit`` replays
every table identically and checks the tournament's chips are conserved."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kits.tables.tournament import (  # noqa: F401 (made: a fixture)
    drawn, fold_around, made, play_all_in, players_at, rows, run, started)


def _roster(state, table: str) -> list[str]:
    """The players of ``table``'s GNDT now (the change log's latest Money per player, those
    moved out at 0 left out), read straight from the rows, not through the code under test."""
    money = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND column = 'Money' "
                             "ORDER BY id"))
    gone = {p for (p,) in rows(state, f"SELECT player FROM np_dealer_event WHERE table_name = '{table}' AND "
                                      "kind = 'move_out'")}
    back = {p for (p,) in rows(state, f"SELECT player FROM np_dealer_event WHERE table_name = '{table}' AND "
                                      "kind = 'move_in'")}
    return [p for p in money if p not in gone or p in back]


def test_the_final_table_is_merged_after_an_elimination(made):
    """Four players at two tables of two (tables of 3): table 1 plays an all-in, one player is
    out; the three left fit at one table, so "the final table merge": table 2 (highest-first,
    broken first) moves into table 1, the last of the breaking order, seats drawn afresh.
    Each move is posted in both threads and written in both change logs with its reason, the
    chips arrive as they left, audit replays every table identically and the chips are
    conserved; a second advance moves nobody."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    money = play_all_in(state, "spring-t1")
    loser = next(p for p, m in money.items() if m == "0")
    t2 = players_at(state, "spring-t2")
    before = {p: 1000 for p in t2}
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "the final table is made: seats and button drawn afresh" in out
    assert "table 2 is broken" in out
    for p in t2:
        assert f"{p} moves from table 2 seat" in out and "to table 1 seat" in out
    outs = rows(state, "SELECT player, data FROM np_dealer_event WHERE table_name = 'spring-t2' AND kind = 'move_out'")
    assert sorted(p for p, _ in outs) == sorted(t2)
    assert all(json.loads(d)["chips"] == before[p] and json.loads(d)["to"] == "spring-t1" for p, d in outs)
    ins = rows(state, "SELECT player, data FROM np_dealer_event WHERE table_name = 'spring-t1' AND kind = 'move_in'")
    assert {p: json.loads(d)["chips"] for p, d in ins if p in t2} == before
    live = sorted(p for p in _roster(state, "spring-t1")
                  if dict(rows(state, "SELECT player, new FROM np_entry WHERE table_name = 'spring-t1' AND "
                                      "column = 'Money' ORDER BY id"))[p] != "0")
    assert len(live) == 3 and loser not in live
    assert _roster(state, "spring-t2") == [] or all(
        p not in t2 for p in _roster(state, "spring-t2"))
    causes = [c for (c,) in rows(state, "SELECT cause FROM np_entry WHERE table_name = 'spring-t2' AND "
                                        "column = 'Money' AND new = '0'")]
    assert causes and all(c.startswith("dealer: ") and "moved to table spring-t1 (the final table" in c for c in causes)
    posts = [b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE table_name = 'spring-t1'")]
    assert any("joins this table from table spring-t2" in b and "from the next hand" in b for b in posts)
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit
    assert "tournament spring: chips conserved: 4000 at its tables, 4 x 1000 at the start" in audit
    again = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "moves from" not in again
    show = run("tournament", "show", "--name", "spring", "--state", str(state)).output
    assert "table 2 (spring-t2): ; 0 hand(s) dealt" in show
    assert f"  4. {loser} (out)" in show


def test_balancing_moves_the_player_due_for_the_big_blind_into_the_seat_due_for_it(tmp_path):
    """Robert's: "if a player is needed to move from a table to balance tables, the player due
    for the big blind will be automatically selected to move, and will be given the earliest
    seat due for the big blind if more than one seat is open." Six players at two tables of
    three; two at table 1 are disqualified (their seats empty): table 2 gives its player due
    for the big blind (the third seat clockwise from the drawn button), and he takes table 1's
    first empty seat clockwise from the seat due for its first big blind."""
    state = started(tmp_path, "ann,bob,cy,dee,eve,fay")
    start = drawn(state)
    t1, t2 = start[1], start[2]
    keep = t1["seats"][0]
    for p in t1["seats"][1:]:
        run("tournament", "disqualify", "--name", "spring", "--player", p, "--note", "test", "--state", str(state))
    # table 2, seats 1..3 all taken: small blind the seat after the button, big blind the next
    b2 = t2["button"]
    due = t2["seats"][(b2 + 1) % 3]
    # table 1's first big blind is due at the third seat clockwise from its button: the open
    # seats from there clockwise, the first of them
    b1 = t1["button"]
    first_bb = (b1 + 1) % 3 + 1
    open_seats = [s for s in ((first_bb - 1 + k) % 3 + 1 for k in range(3)) if t1["seats"][s - 1] != keep]
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"{due} moves from table 2 seat {(b2 + 1) % 3 + 1} to table 1 seat {open_seats[0]} (to balance the tables)" in out
    assert _roster(state, "spring-t1")[-1] == due or due in _roster(state, "spring-t1")
    cause = rows(state, f"SELECT cause FROM np_entry WHERE table_name = 'spring-t2' AND player = '{due}' AND column = 'Money' AND new = '0'")
    assert "the player due for the big blind will be automatically selected to move" in cause[0][0]
    audit = run("audit", "--state", str(state)).output
    assert ("chips conserved: 4000 at its tables, 6 x 1000 at the start less 2000 removed from play (disqualified); "
            "3 move(s)") in audit
    # his private messages (advance actions) now go to his new table, not the one he left
    from sqlmodel import Session, select

    from nomicpoker.ports import PrivateMessage
    from nomicpoker.shell.cycle.private_inbox import for_table, rosters
    from nomicpoker.shell.storage.store import TableRow, open_engine

    msg = PrivateMessage(id="1", sender=due, recipient="Dealer", subject="advance", body="CALL *", created=None)
    with Session(open_engine(f"sqlite:///{state / 'ledger.db'}")) as s:
        tables = list(s.exec(select(TableRow)).all())
        assert [t.name for t in tables if for_table(msg, t, tables, rosters(s))] == ["spring-t1"]
    again = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "moves from" not in again


def test_a_move_waits_for_a_hand_to_end(made):
    """Only between hands: a table playing a hand keeps its players; advance says the move
    waits, records nothing, and makes it once the hand has ended."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    t1 = players_at(state, "spring-t1")
    run("hand", "start", "--table", "spring-t2", "--state", str(state))
    run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "test", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "waits for a hand to end" in out
    assert "next: nomicpoker hand start --table spring-t1" not in out
    assert rows(state, "SELECT COUNT(*) FROM np_dealer_event WHERE kind = 'move_in'") == [(0,)]  # only the DQ's chips out
    res = run("hand", "start", "--table", "spring-t1", "--state", str(state), code=1)
    assert "table spring-t1 waits for a move between hands" in res.output
    fold_around(state, "spring-t2", 1)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "the final table is made" in out and "waits for a hand to end" not in out


def test_played_to_one_winner_places_in_reverse_order_of_elimination(made):
    """WRGPT: "eliminated players are ranked in reverse order of elimination": all-in hands at
    table 1, advance after each (the final table made after the first elimination) until one
    player has every chip; the tournament is over, show names the winner and the places."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    out_order: list[str] = []
    out_hands: list[set[str]] = []  # who went out on each hand that eliminated someone
    for _ in range(12):
        money = play_all_in(state, "spring-t1")
        busted = [p for p, m in money.items() if m == "0" and p not in out_order]
        out_order += busted
        if busted:
            out_hands.append(set(busted))
        adv = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
        if "is over" in adv:
            break
    winner = adv.split("is over: ", 1)[1].split(" wins", 1)[0]
    assert len(out_order) == 3 and winner not in out_order
    show = run("tournament", "show", "--name", "spring", "--state", str(state)).output
    assert "spring: Spring Open; finished" in show
    assert f"the tournament is over: {winner} wins with all 4000 chips" in show
    standing = show.split("standings:\n", 1)[1].splitlines()
    assert standing[0].startswith(f"  1. {winner} (4000 chips)")
    # the last one out is 2nd, the first one out 4th: players out on one hand share their places
    # (ranked among themselves by stacks), so each place is one of its hand's players
    placed = [line.split(". ", 1)[1].split(" ", 1)[0] for line in standing[1:4]]
    assert [next(i for i, hand in enumerate(out_hands) if p in hand) for p in placed] == \
        sorted((i for i, hand in enumerate(out_hands) for _p in hand), reverse=True), (placed, out_hands)
    again = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"tournament spring is over: {winner} wins" in again
    assert "chips conserved: 4000" in run("audit", "--state", str(state)).output


def test_seats_are_redrawn_by_cost_per_hand(tmp_path):
    """WRGPT: "Also periodically, seats are redrawn." and "Within each table, players are
    assigned seats based on average cost per hand played so far. The player who has spent the
    least amount of money in blinds per hand becomes the big blind and the player who has spent
    the most becomes the button." Levels of one hand, a redraw every level: after each table's
    first hand, a table that reached level 2 waits for the other; then advance redraws, and each
    table's next hand puts its cheapest player on the big blind and its costliest on the button."""
    state = started(tmp_path, "ann,bob,cy,dee,eve,fay", edits=(("level_length = 5", "level_length = 1\nredraw_every_levels = 1"),))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    res = run("hand", "start", "--table", "spring-t1", "--state", str(state), code=1)
    assert "table spring-t1 has reached the level of redraw 1" in res.output
    run("hand", "start", "--table", "spring-t2", "--state", str(state))
    fold_around(state, "spring-t2", 1)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "redraw 1: the seats are redrawn" in out
    cost = {}
    for (p, c) in rows(state, "SELECT player, SUM(chips) FROM np_action WHERE event = 'post' GROUP BY player"):
        cost[p] = c
    for t in ("spring-t1", "spring-t2"):
        run("hand", "start", "--table", t, "--state", str(state))
        button, positions, seats = rows(state, f"SELECT button, positions, seats FROM np_hand WHERE table_name = '{t}' "
                                               "AND number = 2")[0]
        dealt = [p for p, _m in json.loads(seats)]
        pos = json.loads(positions)
        costs = {p: cost.get(p, 0) for p in dealt}
        big = pos["blind_posters"][1]
        assert costs[big] == min(costs.values())
        assert costs[button] == max(costs.values())
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "chips conserved: 6000" in audit


def test_a_lone_table_is_not_held_for_a_redraw_it_never_gets(tmp_path):
    """WRGPT: "Also periodically, seats are redrawn." A redraw draws the players of every table
    in play afresh into the tables; once one table is left (the final table, or a tournament
    that fits at one table) there is nothing to redraw between tables, and ``advance`` makes
    none: its hands go on at the levels past the redraw's. (Found by the 1,000-player bench:
    the final table reached a redraw level and ``hand start`` refused it forever, "has reached
    the level of redraw 1", while ``advance`` never made that redraw.)"""
    state = started(tmp_path, "ann,bob,cy", edits=(("level_length = 5", "level_length = 1\nredraw_every_levels = 1"),))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "redraw" not in out and "waits for a move or a redraw" not in out
    assert "next: nomicpoker hand start --table spring-t1" in out
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    assert rows(state, "SELECT number FROM np_hand WHERE table_name = 'spring-t1' ORDER BY number") == [(1,), (2,)]
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_a_player_whose_first_move_waits_is_not_moved_on_from_a_table_he_never_reached(tmp_path):
    """Robert's: "As players are eliminated, tables are broken in a pre-set order, with players
    from the broken tables assigned to empty seats at other tables". Two tables break at once
    (16 players at four tables of 4, disqualifications leave 1, 1, 1 and 4): one of table 4's
    players is seated at table 3, then table 3 is broken too and he moves on. Table 4 plays a hand, so its moves wait; his move on from table 3 must wait with them
    (he is not there yet). Found by the 200-player bench: ``advance`` moved him out of table 3,
    where he never sat, and the fold refused the event ("move_out of p.., who does not sit at
    this table")."""
    players = [f"p{i}" for i in range(16)]
    state = started(tmp_path, players, 4)
    seats = {n: [p for p in t["seats"] if p] for n, t in drawn(state).items()}
    assert sorted(map(len, seats.values())) == [4, 4, 4, 4]

    def dq(table: int, keep: int) -> None:
        for p in seats[table][keep:]:
            run("tournament", "disqualify", "--name", "spring", "--player", p, "--note", "t", "--state", str(state))

    run("hand", "start", "--table", "spring-t4", "--state", str(state))
    for table in (1, 2, 3):
        dq(table, 1)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "waits for a hand to end" in out and "to table 3 seat" in out  # one of table 4's is bound for table 3
    made_now = [line for line in out.splitlines() if " moves from table " in line and not line.startswith("waits")]
    assert any(line.startswith(f"{seats[3][0]} moves from table 3") for line in made_now)  # table 3's own moves now
    for p in seats[4]:  # neither from table 4 (playing) nor on from table 3, where he is not yet
        assert not any(line.startswith(f"{p} moves") for line in made_now), out
    assert "table 4 is broken" not in out.splitlines() and "table 3 is broken" not in out.splitlines()
    fold_around(state, "spring-t4", 1)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert all(f"{p} moves from table 4" in out for p in seats[4])
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 9), min_size=1, max_size=6, unique=True))
def test_after_any_eliminations_every_player_sits_once_and_tables_differ_by_one(tmp_path_factory, out):
    """Ten players at tables of four (4, 3, 3): any of them disqualified (his seat empty), then
    advance: every player in play sits at exactly one table, in one seat, the tables in play
    differ by at most one player and are as few as can seat everyone, and audit finds the
    chips conserved and every table's replay identical."""
    tmp = tmp_path_factory.mktemp("t")
    players = [f"p{i}" for i in range(10)]
    state = started(tmp, players, 4)
    for i in out:
        run("tournament", "disqualify", "--name", "spring", "--player", players[i], "--note", "t", "--state", str(state))
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    left = [p for i, p in enumerate(players) if i not in out]
    show = run("tournament", "show", "--name", "spring", "--state", str(state)).output
    tables = [line.split(": ", 1)[1].split(";")[0] for line in show.splitlines() if line.startswith("table ")]
    seated = [[e.split(" ")[0] for e in t.split(", ") if e] for t in tables]
    assert sorted(p for t in seated for p in t) == sorted(left)
    sizes = [len(t) for t in seated if t]
    assert max(sizes) - min(sizes) <= 1 and len(sizes) == -(-len(left) // 4)
    rosters = {}
    for (t,) in rows(state, "SELECT name FROM np_table"):
        money = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{t}' AND column = 'Money' ORDER BY id"))
        rosters[t] = {p for p, m in money.items() if m != "0" and p in left}
    assert sorted(p for r in rosters.values() for p in r) == sorted(left)  # once each, chips and all
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit
    assert f"chips conserved: {1000 * len(left)} at its tables, 10 x 1000 at the start" in audit


def test_a_late_entrant_takes_the_seat_due_for_the_big_blind_at_the_emptiest_table(tmp_path):
    """``late_entry_levels = 1``: after the start, ``tournament enter`` seats the entrant with the
    starting chips at the table with the fewest players, in its seat earliest due for the big
    blind (a move_in at that table, no move_out anywhere); audit counts his chips in. Once a
    table deals level 2, late entry is closed."""
    state = started(tmp_path, "ann,bob,cy,dee,eve", edits=(("level_length = 5", "level_length = 1\nlate_entry_levels = 1"),))
    tables = drawn(state)
    small = min(tables.values(), key=lambda t: (sum(p is not None for p in t["seats"]), -t["number"]))
    b = small["button"]  # two players: the first hand's big blind is the one who is not the button
    out = run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state)).output
    empty = [s for s in range(1, 4) if small["seats"][s - 1] is None]
    # seats due for the big blind: clockwise from the seat after the last big blind (heads-up, the
    # drawn button's table had its "last" big blind on the button's seat)
    due = [s for s in ((b + k - 1) % 3 + 1 for k in range(1, 4)) if s in empty]
    assert f"zed enters late at table {small['number']} seat {due[0]} with 1000 chips" in out
    assert rows(state, f"SELECT player FROM np_dealer_event WHERE kind = 'move_in' AND table_name = '{small['table']}'") == [("zed",)]
    assert rows(state, "SELECT COUNT(*) FROM np_dealer_event WHERE kind = 'move_out'") == [(0,)]
    assert "chips conserved: 6000 at its tables, 6 x 1000 at the start" in run("audit", "--state", str(state)).output
    run("hand", "start", "--table", small["table"], "--state", str(state))
    fold_around(state, small["table"], 1)
    res = run("tournament", "enter", "--name", "spring", "--player", "yan", "--state", str(state), code=1)
    assert "late entry to tournament spring closed when level 1 ended (a table deals level 2)" in res.output
