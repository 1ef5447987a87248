"""Buttons and blinds at a tournament's table, through the real CLI: hand start deals from the
positions the tournament decides (Robert's dead button, WRGPT's "no small blind"), records
them with the hand, and audit replays them; the level in force and the tournament's holds
apply at hand start."""

from __future__ import annotations

import json

from kits.tables.tournament import drawn, fold_around, rows, run, started


def _one_table(tmp_path, players: str = "ann,bob,cy,dee"):
    state = started(tmp_path, players, 4)
    [t] = drawn(state).values()
    return state, t["seats"], t["button"]


def _hand(state, number: int) -> tuple[str, dict, list[tuple[str, int]]]:
    button, positions, seats = rows(state, "SELECT button, positions, seats FROM np_hand WHERE table_name = 'spring-t1' "
                                           f"AND number = {number}")[0]
    return button, json.loads(positions), [tuple(s) for s in json.loads(seats)]


def _posts(state, number: int) -> dict[str, int]:
    return {p: c for p, c in rows(state, "SELECT player, chips FROM np_action WHERE table_name = 'spring-t1' AND "
                                         f"hand = {number} AND event = 'post'")}


def _at(seats, b, k):  # the seat k places clockwise from seat b (4 seats)
    return (b - 1 + k) % 4 + 1


def test_no_small_blind_when_the_big_blind_is_eliminated(tmp_path):
    """WRGPT: "If the player with the big blind is eliminated there will be no small blind".
    Hand 1 (button b, blinds b+1 and b+2) folds to the big blind; its player is then out
    (disqualified: his seat is empty). Hand 2: the big blind moves on to the next seat, b+3;
    the small blind's seat, b+2, is empty: nobody posts it; the button is b+1."""
    state, seats, b = _one_table(tmp_path)
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    button1, pos1, _ = _hand(state, 1)
    assert button1 == seats[b - 1] and pos1 == {"button": b, "small_blind": _at(seats, b, 1),
                                                "big_blind": _at(seats, b, 2),
                                                "blind_posters": [seats[_at(seats, b, 1) - 1], seats[_at(seats, b, 2) - 1]]}
    fold_around(state, "spring-t1", 1)
    bb1 = seats[_at(seats, b, 2) - 1]
    run("tournament", "disqualify", "--name", "spring", "--player", bb1, "--note", "test", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    button2, pos2, dealt = _hand(state, 2)
    bb2 = seats[_at(seats, b, 3) - 1]
    assert pos2 == {"button": _at(seats, b, 1), "small_blind": _at(seats, b, 2), "big_blind": _at(seats, b, 3),
                    "blind_posters": ["", bb2]}
    assert bb1 not in [p for p, _ in dealt]
    assert _posts(state, 2) == {bb2: 10}  # level 1: blinds 5/10; no small blind posted
    assert button2 == seats[_at(seats, b, 1) - 1]  # the button's seat is occupied: he acts last
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit
    fold_around(state, "spring-t1", 2)  # the public record replays the missing small blind too
    verify = run("audit", "verify", "--table", "spring-t1", "--hand", "2", "--state", str(state)).output
    assert f"PASS spring-t1 hand 2: forced bet {bb2}: 10 chips (ante and blinds)" in verify
    assert "verify: all items passed (1 hand record(s))" in verify


def test_the_dead_button(tmp_path):
    """Robert's: "The big blind is posted by the player due for it, and the small blind and
    button are positioned accordingly, even if this means the small blind or the button is
    placed in front of an empty seat, giving the same player the privilege of last action on
    consecutive hands." Hand 1's small blind (seat b+1) is out before hand 2: the big blind
    goes to b+3, the small blind to b+2, the button to b+1, an empty seat; the player on seat
    b, hand 1's button, acts last again."""
    state, seats, b = _one_table(tmp_path)
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    sb1 = seats[_at(seats, b, 1) - 1]
    run("tournament", "disqualify", "--name", "spring", "--player", sb1, "--note", "test", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    button2, pos2, _dealt = _hand(state, 2)
    sb2, bb2 = seats[_at(seats, b, 2) - 1], seats[_at(seats, b, 3) - 1]
    assert pos2 == {"button": _at(seats, b, 1), "small_blind": _at(seats, b, 2), "big_blind": _at(seats, b, 3),
                    "blind_posters": [sb2, bb2]}
    assert _posts(state, 2) == {sb2: 5, bb2: 10}
    assert button2 == seats[b - 1]  # last action on consecutive hands
    # preflop the player after the big blind acts first: hand 1's button, on seat b
    cells = dict(rows(state, "SELECT player, new FROM np_entry WHERE table_name = 'spring-t1' AND hand = 2 "
                             "AND column = 'Turn' ORDER BY id"))
    assert [p for p, v in cells.items() if v == "x"] == [seats[b - 1]]
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_hand_start_refuses_a_paused_tournament_and_takes_the_level(tmp_path):
    """A paused tournament deals no hand; --blinds other than the level's are refused; each
    with one line, exit 1 and nothing written."""
    state, _seats, _b = _one_table(tmp_path)
    run("tournament", "pause", "--name", "spring", "--note", "lunch", "--state", str(state))
    res = run("hand", "start", "--table", "spring-t1", "--state", str(state), code=1)
    assert "tournament spring is paused: no hand is dealt at its tables until nomicpoker tournament resume" in res.output
    run("tournament", "resume", "--name", "spring", "--note", "back", "--state", str(state))
    res = run("hand", "start", "--table", "spring-t1", "--blinds", "50,100", "--state", str(state), code=1)
    assert "plays level 1: blinds 5/10 of tournament spring: its forced bets are the level's" in res.output
    assert rows(state, "SELECT COUNT(*) FROM np_hand") == [(0,)]


def test_hand_start_holds_a_table_at_the_vacation_hand_limit(tmp_path):
    """WRGPT: "there may be limits imposed on the number of hands that can be played per day
    while someone is on vacation": with a limit of 1, after hand 1 in which a player went on
    vacation, hand start at that table is refused for the day (one line, exit 1, no hand)."""
    state = started(tmp_path, "ann,bob,cy", size=4, edits=(("payouts", "vacation_hands_per_day = 1\npayouts"),))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    thread, button = rows(state, "SELECT thread, button FROM np_hand WHERE table_name = 'spring-t1'")[0]
    other = next(p for p in ("ann", "bob", "cy") if p != button)
    run("forum", "post", "--state", str(state), "--as", other, thread, "GONE 13 Sep")
    run("poll", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    res = run("hand", "start", "--table", "spring-t1", "--state", str(state), code=1)
    assert (f"table spring-t1 deals no more hands today: 1 hand(s) dealt today (day 1) and {other} on vacation: "
            "at most 1 a day while someone is on vacation; the next hand on day 2") in res.output
    assert rows(state, "SELECT COUNT(*) FROM np_hand") == [(1,)]


def test_hand_start_takes_the_level_in_force(tmp_path):
    """Robert's: "the new limits apply on the next deal." Levels of one hand: hand 2 is dealt at
    level 2 without a tournament advance: hand start records the level as the table's forced
    bets first (a dealer event, announced in the thread) and deals with them."""
    state = started(tmp_path, "ann,bob,cy", size=4, edits=(("level_length = 5", "level_length = 1"),))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    ante, blinds = rows(state, "SELECT ante, blinds FROM np_hand WHERE table_name = 'spring-t1' AND number = 2")[0]
    assert (ante, json.loads(blinds)) == (1, [10, 20])
    posts = [b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE table_name = 'spring-t1' AND hand = 1")]
    assert any("Level 2 from the next deal (blinds 10/20, ante 1)" in b for b in posts)
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_hand_start_waits_for_a_move(tmp_path):
    """Players move between hands: a table a balancing move waits for deals no hand until
    tournament advance made the move."""
    state = started(tmp_path, "ann,bob,cy,dee,eve,fay")
    t1 = drawn(state)[1]
    for p in t1["seats"][1:]:
        run("tournament", "disqualify", "--name", "spring", "--player", p, "--note", "test", "--state", str(state))
    res = run("hand", "start", "--table", "spring-t2", "--state", str(state), code=1)
    assert "table spring-t2 waits for a move between hands" in res.output
    assert "run nomicpoker tournament advance --name spring first" in res.output
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t2", "--state", str(state))
