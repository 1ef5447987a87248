"""A player's own tournament commands sent privately to the Dealer (issue 24): WRGPT's players
mailed the Dealer, and "At any time during the tournament, players can get a detailed report
about the starting seat assignment by using the SEATLOG command." ``SEATLOG``, ``RAIL`` and
``RAIL OFF`` in a private message (the local forum's inbox) are answered by private message as
in the thread, during a hand and between hands; at an e-mail table every mail is private, and
the answers go back by mail. Through the real CLI, the real local forum and the loopback mail
servers; ``audit`` replays every table identically."""

from __future__ import annotations


import pytest

from kits.servers.mail import start_servers
from kits.tables.tournament import email_forum, mail_id, made, players_at, rows, run, started  # noqa: F401 (made: a fixture)
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path


def _answers(state, player: str, asked: str) -> list[str]:
    return [m.body for m in LocalForum(forum_db_path(state)).inbox(player) if m.subject == f"Tournament spring: {asked}"]


def _rail(state) -> list[tuple[str, str]]:
    return rows(state, "SELECT kind, player FROM np_tournament_event WHERE kind IN ('rail_join', 'rail_leave') "
                       "ORDER BY id")


def test_seatlog_and_rail_by_private_message_on_the_local_forum(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    playing, waiting = players_at(state, "spring-t1")[0], players_at(state, "spring-t2")[0]
    message = ("forum", "message", "--state", str(state), "--as")
    # during his table's hand: SEATLOG, privately
    run(*message, playing, "SEATLOG")
    # between hands (his table has dealt none yet): RAIL, then RAIL OFF
    run(*message, waiting, "RAIL")
    run("poll", "--state", str(state))
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output.rstrip("\n")
    [answer] = _answers(state, playing, "SEATLOG")
    assert all(line.strip() in answer for line in log.splitlines()[2:])  # every player's line of the draw
    [joined] = _answers(state, waiting, "RAIL")
    assert joined.startswith(f"{waiting}, you are on the rail of tournament spring (Spring Open)")
    assert _rail(state) == [("rail_join", waiting)]
    run(*message, waiting, "RAIL OFF")
    run("poll", "--state", str(state))
    [left] = _answers(state, waiting, "RAIL OFF")
    assert left.startswith(f"{waiting}, you are off the rail of tournament spring")
    assert _rail(state) == [("rail_join", waiting), ("rail_leave", waiting)]
    # the verdicts: accepted, the hand untouched, nothing said in the threads
    assert sorted(rows(state, "SELECT table_name, status, canonical, hand FROM np_verdict WHERE thread = '~private'")) \
        == [("spring-t1", "accepted", "SEATLOG", 1), ("spring-t2", "accepted", "RAIL", None),
            ("spring-t2", "accepted", "RAIL OFF", None)]
    assert rows(state, "SELECT count(*) FROM np_hand_end") == [(0,)]
    assert not any("SEATLOG" in b or "rail" in b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE kind = "
                                                                       "'comment'"))
    run("poll", "--state", str(state))  # answered once
    assert len(_answers(state, playing, "SEATLOG")) == 1 and len(_answers(state, waiting, "RAIL")) == 1
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_a_private_message_at_a_table_of_its_own_reads_advance_actions_only(tmp_path):
    """A table outside any tournament reads private messages as before: SEATLOG there is not
    an advance action, and is answered so (nothing else changes for it)."""
    state = tmp_path / "state"
    run("table", "create", "--name", "T", "--players", "alice,bob", "--money", "100", "--ruleset", "roberts-nlhe",
        "--state", str(state))
    run("hand", "start", "--table", "T", "--blinds", "1,2", "--state", str(state))
    run("forum", "message", "--state", str(state), "--as", "alice", "SEATLOG")
    run("poll", "--state", str(state))
    assert rows(state, "SELECT status, code FROM np_verdict WHERE thread = '~private'") == [
        ("ignored", "private_not_advance")]


ENTRANTS = ("ann", "bob", "cy", "dee")


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", {"dealer": "dealer-pw", **{p: f"{p}-pw" for p in ENTRANTS}})


def test_rail_and_rail_off_by_mail_at_an_email_table(servers, tmp_path):
    """At an e-mail table every mail to the Dealer is private: RAIL and RAIL OFF, each alone in
    a mail with the player's ID, put him on the rail and take him off, confirmed by mail to him
    alone. (SEATLOG by mail: tests/e2e/tournament/test_tournament_rail_email.py.)"""
    mail = email_forum(servers, tmp_path, ENTRANTS)
    state = started(tmp_path, ENTRANTS, forums=(f"1={mail}",))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    who = players_at(state, "spring-t1")[0]
    pid = mail_id(servers, who, "spring-t1")
    servers.send(who, f"ID={pid}", "RAIL\n")
    run("poll", "--state", str(state))
    assert _rail(state) == [("rail_join", who)]
    servers.send(who, f"ID={pid}", "RAIL OFF\n")
    run("poll", "--state", str(state))
    assert _rail(state) == [("rail_join", who), ("rail_leave", who)]
    subjects = [str(m["Subject"]) for m in servers.inbox(who)]
    assert sum(s.startswith("Tournament spring: RAIL (") for s in subjects) == 1
    assert sum(s.startswith("Tournament spring: RAIL OFF") for s in subjects) == 1
    others = [p for p in ENTRANTS if p != who]
    assert not any("RAIL" in str(m["Subject"]) for p in others for m in servers.inbox(p))
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit
