"""Everybody on vacation at the start (WRGPT, seed ``000_…``), through the real commands on the
real local forum: ``tournament start`` opens each table's thread, ``advance`` holds a table
until all its players wrote BACK there or its deadline passed, and the first ``hand start
--thread`` deals with whoever did not come back still on vacation."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from kits.tables.tournament import created, players_at, rows, run
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path


def _started(tmp_path):
    state = created(tmp_path, "ann,bob,cy,dee", head="start_on_vacation = true\n")
    return state, run("tournament", "start", "--name", "spring", "--state", str(state)).output


def test_a_new_tournament_starts_with_everybody_on_vacation(tmp_path):
    """WRGPT: "Often, a new tournament or new round will start with everybody on vacation. ...
    Players then must send in a BACK command. As soon as all players have done this, or when the
    standard timeout period has expired (whichever occurs first), the table will start." """
    state, out = _started(tmp_path)
    assert "next: nomicpoker hand start" not in out
    threads = dict(re.findall(r"^(spring-t\d): thread (\S+) \(opened ", out, re.M))
    assert sorted(threads) == ["spring-t1", "spring-t2"]
    assert out.rstrip().endswith(f"next: nomicpoker tournament advance --name spring --state {state}")
    forum = LocalForum(forum_db_path(state))
    t1 = players_at(state, "spring-t1")
    assert any(t1[0] in th.body and "Write BACK" in th.body for th in forum.threads())
    adv = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"spring-t1: everybody started on vacation: waiting for BACK from {', '.join(t1)} in thread " \
           f"{threads['spring-t1']}" in adv
    assert "next: nomicpoker hand start" not in adv
    post = ("forum", "post", "--state", str(state), "--as")
    run(*post, t1[0], threads["spring-t1"], "BACK")
    run(*post, t1[1], threads["spring-t1"], "back soon")  # chat, not the command
    adv = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"waiting for BACK from {t1[1]} in thread {threads['spring-t1']}" in adv
    run(*post, t1[1], threads["spring-t1"], "BACK")
    adv = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"next: nomicpoker hand start --table spring-t1 --thread {threads['spring-t1']} --state {state}" in adv
    assert "next: nomicpoker hand start --table spring-t2" not in adv
    run("hand", "start", "--table", "spring-t1", "--thread", threads["spring-t1"], "--state", str(state))
    run("poll", "--state", str(state))
    backs = rows(state, "SELECT author, status, canonical FROM np_verdict WHERE table_name = 'spring-t1' "
                        "AND canonical = 'BACK' ORDER BY seq")
    assert backs == [(t1[0], "accepted", "BACK"), (t1[1], "accepted", "BACK")]
    # both came back: nobody is acted for; the hand waits for the player to act
    assert rows(state, "SELECT count(*) FROM np_action WHERE table_name = 'spring-t1' AND event NOT IN ('post')") \
        == [(0,)]
    assert "identical" in run("audit", "--state", str(state)).output


def test_after_the_timeout_the_table_starts_with_the_absent_still_on_vacation(tmp_path):
    """"... or when the standard timeout period has expired (whichever occurs first), the table
    will start": past the table's deadline since its thread opened, ``advance`` lets it deal;
    the player who sent no BACK is dealt in on vacation and the dealer acts for him."""
    from nomicpoker.shell.storage.store import open_engine
    from nomicpoker.shell.tournament import vacation_start

    state, out = _started(tmp_path)
    threads = dict(re.findall(r"^(spring-t\d): thread (\S+) \(opened ", out, re.M))
    t2 = players_at(state, "spring-t2")
    run("table", "set", "--table", "spring-t2", "deadline_hours=24", "--state", str(state))  # its standard timeout
    run("forum", "post", "--state", str(state), "--as", t2[0], threads["spring-t2"], "BACK")
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    now = datetime.now(timezone.utc)
    [w] = [w for w in vacation_start.waiting(engine, state, "spring", now=lambda: now).values() if w.table == "spring-t2"]
    assert not w.ready and w.missing == (t2[1],) and w.until
    late = datetime.fromisoformat(w.until) + timedelta(seconds=1)
    [w] = [w for w in vacation_start.waiting(engine, state, "spring", now=lambda: late).values()
           if w.table == "spring-t2"]
    assert w.ready
    run("hand", "start", "--table", "spring-t2", "--thread", threads["spring-t2"], "--state", str(state))
    run("poll", "--state", str(state))
    # the one who came back calls (kept for his turn if it is not his yet); the other is acted for
    run("forum", "post", "--state", str(state), "--as", t2[0], threads["spring-t2"], "HAND1 ROUND1 call")
    run("poll", "--state", str(state))
    # the absent player is on vacation: the dealer acts for him at his turn
    said = "\n".join(b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE table_name = 'spring-t2'"))
    assert re.search(rf"{t2[1]} is away: the dealer (checks|folds) for them", said), said
    assert f"{t2[0]} is away" not in said
