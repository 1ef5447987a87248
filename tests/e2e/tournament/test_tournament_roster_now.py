"""A moved player's private messages reach his new table at the next poll (issue 24).

A poll skips the tables where nothing new can reach it (:mod:`nomicpoker.shell.cycle.moved`),
and what can reach a table includes the Dealer's inbox messages of its players. "Its players"
are the players seated there *now* (a tournament moves them between tables), not those the
table was created with: a player moved to the final table who asks for his SEATLOG there by
private message is answered at the next poll, and his old table (broken, still polled when
its thread moves) is not made to poll by him any more. Through the real CLI, the real local
forum and its inbox, the director's ``tournament advance``; ``audit`` replays every table
identically.
"""

from __future__ import annotations

import json
import re

from sqlmodel import Session

from kits.tables.tournament import STRUCTURE, fold_around, made, play_all_in, rows, run  # noqa: F401 (made: a fixture)
from nomicpoker.shell.cycle import moved
from nomicpoker.shell.cycle.forums import open_forum
from nomicpoker.shell.storage import paths
from nomicpoker.shell.storage.store import open_engine


def _settle(state) -> None:
    """Poll until a poll finds nothing anywhere (the Dealer's own posts archived)."""
    for _ in range(5):
        out = run("poll", "--state", str(state)).output
        if all(line.endswith(": nothing new") for line in out.strip().splitlines()):
            return
    raise AssertionError(f"the tables never settled: {out}")


def _tokens(state) -> dict[str, str | None]:
    """Each active table's token as the poll's look sees it (what decides the skip)."""
    engine = open_engine(paths.db_url(state))
    try:
        with Session(engine) as s:
            seen = moved.look(s, state, lambda kind, config: open_forum(kind, config, state))
        return {name: t.token for name, t in seen.tables.items()}
    finally:
        engine.dispose()


def _seatlog_answers(state, player: str) -> list[str]:
    from nomicpoker.adapters.local import LocalForum

    return [m.body for m in LocalForum(paths.forum_db_path(state)).inbox(player)
            if m.subject == "Tournament spring: SEATLOG"]


def test_a_moved_players_private_message_is_polled_at_his_new_table_and_not_his_old_one(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    play_all_in(state, "spring-t1")
    moving = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "the final table is made" in out
    _settle(state)
    before = _tokens(state)
    assert _settle(state) is None and _tokens(state) == before  # settled: every table would be skipped
    mover = moving[0]
    run("forum", "message", "--state", str(state), "--as", mover, "SEATLOG")
    after = _tokens(state)
    # the message can reach only the table he sits at now: that one takes the poll, his old
    # table (created with him, broken since) does not
    assert after["spring-t1"] != before["spring-t1"]
    assert after["spring-t2"] == before["spring-t2"]
    run("poll", "--state", str(state))
    [answer] = _seatlog_answers(state, mover)
    assert mover in answer
    assert rows(state, "SELECT table_name, author, status, canonical FROM np_verdict WHERE thread = '~private'") \
        == [("spring-t1", mover, "accepted", "SEATLOG")]
    _settle(state)
    assert len(_seatlog_answers(state, mover)) == 1
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_the_live_chat_listing_counts_the_seats_at_a_table_now(made):
    """The IRC listing channel's line of a table (``serve``): its seats are the players seated
    there now; the final table counts the players moved in (it was announced closed: only one
    of the players it was created with had chips), a broken table none."""
    from nomicpoker.shell.jobs.serve import listings

    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    play_all_in(state, "spring-t1")
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    engine = open_engine(paths.db_url(state))
    try:
        final, broken = listings(engine, ["spring-t1", "spring-t2"])
    finally:
        engine.dispose()
    # the final table: table 2's players joined table 1's (whose player out keeps his seat, as
    # at any table: the listing's seats are the roster's)
    created = {t: json.loads(rows(state, f"SELECT players FROM np_table WHERE name = '{t}'")[0][0])
               for t in ("spring-t1", "spring-t2")}
    assert (final.seats, final.open) == (len(created["spring-t1"]) + len(created["spring-t2"]), True)
    assert (broken.seats, broken.open) == (0, False)


def test_a_table_waiting_for_back_does_not_wait_for_a_disqualified_player(tmp_path):
    """Everybody on vacation at the start: a table starts once all its players wrote BACK. A
    player disqualified before its first hand is no longer one of them (his chips left the
    table): the table starts without his BACK."""
    path = tmp_path / "spring.toml"
    path.write_text("start_on_vacation = true\n" + STRUCTURE.format(size=3))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(path), "--players", "ann,bob,cy,dee,eve,fay", "--state",
        str(state))
    out = run("tournament", "start", "--name", "spring", "--state", str(state)).output
    threads = dict(re.findall(r"^(spring-t\d): thread (\S+) \(opened ", out, re.M))
    t1 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
    assert len(t1) == 3
    run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "collusion",
        "--state", str(state))
    for p in t1[1:]:
        run("forum", "post", "--state", str(state), "--as", p, threads["spring-t1"], "BACK")
    adv = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "moves from" not in adv  # two tables of 2 and 3: nobody moves
    assert f"waiting for BACK from {t1[0]}" not in adv
    assert f"next: nomicpoker hand start --table spring-t1 --thread {threads['spring-t1']} --state {state}" in adv
    run("hand", "start", "--table", "spring-t1", "--thread", threads["spring-t1"], "--state", str(state))
    run("poll", "--state", str(state))
    dealt = [p for p, _m in json.loads(rows(state, "SELECT seats FROM np_hand WHERE table_name = 'spring-t1'")[0][0])]
    assert t1[0] not in dealt and sorted(dealt) == sorted(t1[1:])
    assert "identical" in run("audit", "--state", str(state)).output


def test_the_sites_chip_chart_follows_the_players_moved_in_and_out(made):
    """The auditors' site charts each player's Money at a table after each hand: at the final
    table the players moved in are charted with the chips they brought (their GNDT Money), and
    at the broken table the players who left it drop to 0 once they left."""
    from nomicpoker.shell.audit.site_data import chip_counts, table_summary
    from nomicpoker.shell.storage import ledger

    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t2", "--state", str(state))
    fold_around(state, "spring-t2", 1)  # table 2's hand 1, then its players leave for the final table
    play_all_in(state, "spring-t1")  # table 1's hand 1: one player out
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 2)  # the final table's first hand
    gndt = {t: dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{t}' AND column = 'Money' "
                                "ORDER BY id")) for t in ("spring-t1", "spring-t2")}
    left = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    engine = open_engine(paths.db_url(state))
    try:
        with Session(engine) as s:
            final = ledger.get_table(s, "spring-t1")
            labels, series = chip_counts(s, final)
            broken_labels, broken = chip_counts(s, ledger.get_table(s, "spring-t2"))
            summaries = {t: table_summary(s, ledger.get_table(s, t))["players"] for t in ("spring-t1", "spring-t2")}
    finally:
        engine.dispose()
    assert labels == ["start", "hand 1", "hand 2"]
    charted = dict(series)
    assert sorted(charted) == sorted(gndt["spring-t1"])  # every player of its GNDT, the ones moved in too
    assert {p: v[-1] for p, v in charted.items()} == {p: int(m) for p, m in gndt["spring-t1"].items()}
    assert all(charted[p][:2] == [0, 0] for p in left)  # not at this table before the move
    # the broken table: its hand, then the moves that emptied it (a last point, as its GNDT says)
    assert broken_labels == ["start", "hand 1", "after the moves"]
    assert sorted(p for p, _v in broken) == sorted(left)
    assert sum(v[1] for _p, v in broken) == 2000 and all(v[0] == 1000 and v[2] == 0 for _p, v in broken)
    assert all(int(gndt["spring-t2"][p]) == 0 for p in left)
    assert summaries["spring-t2"] == [] and sorted(summaries["spring-t1"]) == sorted(gndt["spring-t1"])


def test_table_list_and_forum_check_read_the_players_seated_now(made):
    """``table list`` names the players seated at each table now, and ``forum check`` checks
    the seats of those players against the thread (a player moved in who has not commented
    there is named), not the players the table was created with."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    play_all_in(state, "spring-t1")
    moving = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    listed = {line.split("\t")[0]: line.split("\t")[3]
              for line in run("table", "list", "--state", str(state)).output.rstrip("\n").splitlines()}
    created = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
    assert sorted(listed["spring-t1"].split(", ")) == sorted(created + moving)
    assert listed["spring-t2"] == ""
    check = run("forum", "check", "--table", "spring-t1", "--state", str(state)).output
    for p in moving:  # they joined after the thread's hand: nobody of that name commented there
        assert f"seat {p!r} matches nobody who has commented on" in check, check
