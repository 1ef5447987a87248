"""WRGPT's vacation at a tournament's table (issue 24, seed ``000_…``), through the real CLI on
the real local forum: a player on vacation or AWOL is dealt in, his antes and blinds are
posted, the dealer checks or folds for him, the vacation hand limit holds the table, and
``audit`` replays every table identically. The core rule is pinned in
tests/unit/fold/test_wrgpt_vacation_fold.py; here what ``hand start`` and ``poll`` make of it.

A tournament of three at one table of three: seats drawn, the first hand's button is the
player neither blind poster, and with Robert's dead button he is the big blind of hand 2."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from kits.tables.tournament import fold_around, rows, run, started

T = "spring-t1"


def _hand(state, number: int):
    thread, seats, positions = rows(state, f"SELECT thread, seats, positions FROM np_hand WHERE table_name = '{T}' "
                                           f"AND number = {number}")[0]
    return thread, [p for p, _m in json.loads(seats)], json.loads(positions)["blind_posters"]


def _to_act(state, number: int) -> str | None:
    cells = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{T}' AND hand = {number} "
                             "AND column = 'Turn' ORDER BY id"))
    turn = [p for p, v in cells.items() if v == "x"]
    return turn[0] if turn else None


def _actions(state, number: int, player: str) -> list[tuple[str, int]]:
    return [(e, a) for e, a in rows(state, f"SELECT event, amount FROM np_action WHERE table_name = '{T}' AND "
                                           f"hand = {number} AND player = '{player}' ORDER BY id")]


def _said(state) -> str:
    return "\n".join(b for (b,) in rows(state, f"SELECT body FROM np_outbox WHERE table_name = '{T}' ORDER BY id"))


def test_on_vacation_he_is_dealt_in_posts_his_blinds_and_bets_0(tmp_path):
    """"While you are on vacation, the dealer will post antes and blinds for you as necessary.
    When the action gets to you you will bet $0 at all times, ie. check or fold." Hand 1's
    button writes GONE: he is folded for at once. In hand 2 he is dealt in and his big blind
    posted (his seat is not empty: the blinds do not skip him), his option is checked, and he
    is folded facing a bet. The table hears of the vacation at the end of hand 1 and the status
    table shows ``V``. "there may be limits imposed on the number of hands that can be played
    per day while someone is on vacation": with 2 a day, hand 3 waits for the next day."""
    state = started(tmp_path, "ann,bob,cy", head="vacation_hands_per_day = 2\n")
    run("hand", "start", "--table", T, "--state", str(state))
    thread, dealt, posters = _hand(state, 1)
    [away] = [p for p in dealt if p not in posters]
    post = ("forum", "post", "--state", str(state), "--as")
    run(*post, away, thread, "GONE 13 Sep")
    run("poll", "--state", str(state))
    assert _actions(state, 1, away)[-1][0] == "fold"  # his turn came first: a $0 bet, i.e. a fold
    fold_around(state, T, 1)
    assert "On vacation: " + away + " (until 13 Sep)" in _said(state)
    run("hand", "start", "--table", T, "--state", str(state))
    thread, dealt, posters = _hand(state, 2)
    assert away in dealt and posters[1] == away
    assert ("post", 10) in _actions(state, 2, away)  # the level's big blind, posted for him
    for _ in range(2):  # the other two call; his option is checked for him
        who = _to_act(state, 2)
        assert who != away
        run(*post, who, thread, "HAND2 ROUND1 call")
        run("poll", "--state", str(state))
    assert _actions(state, 2, away)[-1][0] == "check"
    who = _to_act(state, 2)
    run(*post, who, thread, "HAND2 ROUND2 raise 20")
    run("poll", "--state", str(state))
    assert _actions(state, 2, away)[-1][0] == "fold"
    said = _said(state)
    assert f"{away} is away: the dealer checks for them" in said and f"{away} is away: the dealer folds" in said
    assert re.search(rf"\| V  {away} +\| +\d+ \| +\d+ \| 13 Sep \|", said)  # the status table's V and until-string
    run(*post, _to_act(state, 2), thread, "HAND2 ROUND2 fold")
    run("poll", "--state", str(state))
    held = run("hand", "start", "--table", T, "--state", str(state), code=1).output
    assert f"{away} on vacation: at most 2 a day while someone is on vacation" in held
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_awol_after_his_timeouts_he_is_still_dealt_in(tmp_path):
    """"If you miss your deadline you will be put on vacation and a $0 bet will be entered for
    you. In future hands your status line will show "AWOL"." With a one-hour deadline and
    ``max_timeouts = 1`` (a table of its own would sit him out after one), hand 1's first to
    act lets his deadline pass: folded, AWOL. Hand 2 deals him in all the same, as its big
    blind; the dealer checks for him; the status table says AWOL; audit is identical."""
    from nomicpoker.shell.cycle.deadlines import utcnow
    from nomicpoker.shell.jobs.poll import poll
    from nomicpoker.shell.storage.store import open_engine

    state = started(tmp_path, "ann,bob,cy")
    run("table", "set", "--table", T, "deadline_hours=1", "max_timeouts=1", "--state", str(state))
    run("hand", "start", "--table", T, "--state", str(state))
    _thread, dealt, posters = _hand(state, 1)
    [late] = [p for p in dealt if p not in posters]
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    later = utcnow() + timedelta(hours=2)
    assert poll(engine, state, now=lambda: later).ok
    engine.dispose()
    assert _actions(state, 1, late)[-1][0] == "fold"
    said = _said(state)
    assert "If you miss your deadline you will be put on vacation and a $0 bet will be entered for you." in said
    assert f"{late} is AWOL (1 timeout in a row)" in said
    assert "the tournament director may remove them from the tournament" in said
    fold_around(state, T, 1)
    run("hand", "start", "--table", T, "--state", str(state))
    thread, dealt, posters = _hand(state, 2)
    assert late in dealt and posters[1] == late  # not sat out: his seat posts the big blind
    post = ("forum", "post", "--state", str(state), "--as")
    for _ in range(2):
        run(*post, _to_act(state, 2), thread, "HAND2 ROUND1 call")
        run("poll", "--state", str(state))
    assert _actions(state, 2, late)[-1][0] == "check"
    assert re.search(rf"\|  ?[D ]?[> ] ?{late} +\| +\d+ \| +\d+ \| AWOL +\|", _said(state))
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_only_tournament_start_switches_wrgpt_vacation_or_private_asks_on(tmp_path):
    """The gates of a tournament's table (``wrgpt_vacation``, ``private_asks``; with
    ``tournament`` and ``start_on_vacation``) are set by ``tournament start`` alone: ``table
    create`` and ``table set`` refuse each (exit 2, nothing written), so a table of its own never
    folds by WRGPT's tournament rules; the tables ``start`` makes carry both."""
    state = tmp_path / "state"
    run("table", "create", "--name", "home", "--players", "ann,bob", "--state", str(state))
    for setting in ("wrgpt_vacation=yes", "private_asks=yes", "start_on_vacation=yes", "tournament=spring"):
        name = setting.partition("=")[0]
        res = run("table", "create", "--name", "other", "--players", "ann,bob", "--setting", setting,
                  "--state", str(state), code=2)
        assert "set by nomicpoker tournament start, not table create" in res.output
        res = run("table", "set", "--table", "home", setting, "--state", str(state), code=2)
        assert f"{name} is set by nomicpoker tournament start when it creates the table, not by table set" \
            in res.output
    assert rows(state, "SELECT name FROM np_table") == [("home",)]
    assert rows(state, "SELECT count(*) FROM np_dealer_event WHERE table_name = 'home'") == [(0,)]
    (tmp_path / "t").mkdir()
    made = started(tmp_path / "t", "ann,bob,cy")
    [(settings,)] = rows(made, f"SELECT settings FROM np_table WHERE name = '{T}'")
    assert json.loads(settings)["wrgpt_vacation"] is True and json.loads(settings)["private_asks"] is True
