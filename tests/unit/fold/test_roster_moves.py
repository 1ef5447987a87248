"""A table's roster changes between hands as dealer events (core/fold/roster_moves): Robert's
"players from the broken tables assigned to empty seats at other tables" and "the transfer of a
player as needed". The player's Money leaves one GNDT and comes onto the other; the change log
says why; a move while a hand runs, or carrying other chips than the player's, is refused."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.fold.fold_run import fold_stream, fold_table, input_stream
from nomicpoker.core.table import snapshot
from nomicpoker.core.table.fold_types import DealerEvent, FoldError
from nomicpoker.core.table.roster import roster

from kits.tables.fold import CONFIG, START

AT = "2026-01-01T00:00:00+00:00"
WHY = "to balance the tables (Robert's: the player due for the big blind will be automatically selected to move)"


def out(player: str, chips: int, hand: int = 0, after: int = 0) -> DealerEvent:
    return DealerEvent(after, hand, "move_out", player, AT, data={"chips": chips, "to": "spring-t2", "why": WHY})


def into(player: str, chips: int, new: list[str], hand: int = 0, after: int = 0) -> DealerEvent:
    return DealerEvent(after, hand, "move_in", player, AT,
                       data={"chips": chips, "from": "spring-t3", "seat": 4, "why": WHY, "roster": new})


def test_a_player_moves_out_and_another_in_between_hands():
    res = fold_table(CONFIG, [], [], [out("bob", 100), into("zed", 250, ["alice", "zed", "carol"])])
    assert res.gndt == {"alice": (100, "o", 0), "zed": (250, "o", 0), "carol": (100, "o", 0)}
    entries = [r for r in res.rows["entry"] if r["player"] in ("bob", "zed")]
    assert entries[-4] == {**entries[-4], "player": "bob", "column": "Money", "old": "100", "new": "0",
                           "cause": f"dealer: bob moved to table spring-t2 ({WHY})"}
    assert [(r["column"], r["old"], r["new"]) for r in entries[-3:]] == [("Money", "", "250"), ("Turn", "", "o"),
                                                                        ("Pot", "", "0")]
    assert entries[-1]["cause"] == f"dealer: zed moved from table spring-t3 to seat 4 ({WHY})"
    assert res.state.roster == ["alice", "zed", "carol"]


def test_the_moved_in_player_is_dealt_and_the_moved_out_one_is_not():
    """After the moves hand 1 is dealt to the new roster; the mover's comments at the old table
    are chat (he is no player there), his at the new one are read."""
    start = replace(START, seats=(("alice", 100), ("zed", 250), ("carol", 100)))
    res = fold_table(CONFIG, [start], [], [out("bob", 100), into("zed", 250, ["alice", "zed", "carol"])])
    assert set(res.gndt) == {"alice", "zed", "carol"}
    assert res.current.number == 1


def test_a_move_while_a_hand_runs_is_refused():
    with pytest.raises(FoldError) as exc:
        fold_table(CONFIG, [START], [], [out("bob", 100, hand=1)])
    assert exc.value.code == "bad_input" and "players move between hands only" in exc.value.message


@pytest.mark.parametrize("ev, says", [
    (out("bob", 99), "carries 99 chips but his Money here is 100"),
    (out("zed", 0), "who does not sit at this table"),
    (into("bob", 5, ["alice", "bob", "carol"]), "who already sits at this table"),
    (into("zed", 5, ["alice", "zed"]), "is not the table's players"),
    (DealerEvent(0, 0, "move_in", "zed", AT, data={"roster": ["alice", "bob", "carol", "zed"]}), "no chips count"),
])
def test_an_inconsistent_move_is_refused_never_guessed(ev, says):
    with pytest.raises(FoldError) as exc:
        fold_table(CONFIG, [], [], [ev])
    assert says in exc.value.message


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["alice", "bob", "carol", "dan", "eve"]), st.integers(0, 500)), max_size=12))
def test_moves_conserve_chips_and_seat_every_player_once(moves):
    """Any sequence of moves out and in: the table's chips change by exactly what moved, each
    player sits once, and a fold resumed from a snapshot after any prefix agrees."""
    events, seated, chips = [], list(CONFIG.players), {p: 100 for p in CONFIG.players}
    for p, n in moves:
        if p in seated and len(seated) > 1:
            events.append(out(p, chips.pop(p)))
            seated.remove(p)
        elif p not in seated:
            seated.append(p)
            chips[p] = n
            events.append(into(p, n, list(seated)))
    res = fold_table(CONFIG, [], [], events)
    assert res.state.roster in (None, seated)
    assert {p: m for p, (m, _t, _pot) in res.gndt.items()} == chips
    assert roster(CONFIG.players, events) == tuple(seated)
    stream = input_stream([], [], events)
    for cut in range(len(stream) + 1):
        head = fold_stream(CONFIG, None, stream[:cut])
        state = snapshot.decode(json.loads(json.dumps(snapshot.encode(head.state, CONFIG))), CONFIG, {})
        tail = fold_stream(CONFIG, state, stream[cut:])
        assert tail.gndt == res.gndt
        assert list(head.rows["entry"]) + list(tail.rows["entry"]) == list(res.rows["entry"])
