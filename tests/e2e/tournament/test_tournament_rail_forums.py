"""The rail's messages on each member's own forum (issue 24; WRGPT: "Once on the rail, you will
receive every showdown message from all other tables, as well as nightly "score" messages with
the grand total tournament standings."), through the real commands: table 1 by e-mail (the
loopback Dovecot and aiosmtpd), table 2 on the local forum.

Each member gets them where he plays: a player at the local table by the local forum's private
message, a player at the e-mail table by mail, a spectator on the forum of the table the
director named (``--forum``) or else the first table's; a moved player follows his table's
forum, an eliminated one keeps the forum he was last seated on until the director names
another. Once each, recorded before any message goes; ``audit`` identical."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from kits.servers.mail import start_servers
from kits.tables.tournament import email_forum, play_all_in, players_at, rows, run, started
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path

ENTRANTS = ("ann", "bob", "cy", "dee")
USERS = {"dealer": "dealer-pw", **{p: f"{p}-pw" for p in ENTRANTS + ("zoe", "yan")}}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def _mails(servers, who: str, what: str) -> list[str]:
    return [str(m["Subject"]) for m in servers.inbox(who) if what in str(m["Subject"])]


def _local(state, who: str, what: str) -> list[str]:
    return [m.subject for m in LocalForum(forum_db_path(state)).inbox(who) if what in (m.subject or "")]


def _started(servers, tmp_path):
    mail = email_forum(servers, tmp_path, ENTRANTS + ("zoe", "yan"))
    state = started(tmp_path, ENTRANTS, forums=(f"1={mail}",))
    assert rows(state, "SELECT name, forum_kind FROM np_table ORDER BY name") == [
        ("spring-t1", "email"), ("spring-t2", "local")]
    return state, players_at(state, "spring-t1"), players_at(state, "spring-t2")


def _standings(state, day: int):
    """The standings of tournament day ``day`` sent as cron would send them that night."""
    from nomicpoker.shell.storage.store import open_engine
    from nomicpoker.shell.tournament.rail import send_standings

    started = datetime.fromisoformat(rows(state, "SELECT started FROM np_tournament")[0][0])
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    try:
        return send_standings(engine, state, "spring", now=lambda: started + timedelta(days=day - 1, hours=23))
    finally:
        engine.dispose()


def test_each_member_of_the_rail_gets_the_showdowns_and_standings_on_his_own_forum(servers, tmp_path):
    state, at_mail, at_local = _started(servers, tmp_path)
    local_player, mail_player = at_local[0], at_mail[0]
    for who in (local_player, mail_player, "yan"):
        run("tournament", "rail", "--name", "spring", "--join", who, "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--join", "zoe", "--forum", "spring-t2",
              "--state", str(state)).output
    assert "zoe: on the forum of table spring-t2" in out

    play_all_in(state, "spring-t2")  # a showdown at the local table; poll sends it to the rail
    what = "showdown at spring-t2, hand 1"
    # the e-mail table's player, and the spectator on the first table's forum: by mail
    for who in (mail_player, "yan"):
        assert (len(_mails(servers, who, what)), _local(state, who, what)) == (1, []), who
    # the spectator the director put on the local forum: there, not by mail (the old code mailed him)
    assert (_local(state, "zoe", what), _mails(servers, "zoe", what)) == ([f"Tournament spring: {what}"], [])
    # the local table's own players saw it at their table
    assert not _local(state, local_player, what) and not _mails(servers, local_player, what)
    [via] = [json.loads(d)["via"] for (d,) in rows(state, "SELECT data FROM np_tournament_event "
                                                          "WHERE kind = 'rail_showdowns'") if "via" in json.loads(d)]
    assert via == {mail_player: "spring-t1", "yan": "spring-t1", "zoe": "spring-t2"}

    run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state))
    day1 = "standings, day 1"
    for who in (local_player, "zoe"):  # on the local forum (the old code mailed them both)
        assert (len(_local(state, who, day1)), _mails(servers, who, day1)) == (1, []), who
    for who in (mail_player, "yan"):
        assert (len(_mails(servers, who, day1)), _local(state, who, day1)) == (1, []), who
    run("poll", "--state", str(state))  # nothing twice
    assert len(_local(state, "zoe", what)) == 1 and len(_mails(servers, "yan", what)) == 1
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_a_moved_player_follows_his_table_and_an_eliminated_one_keeps_his_last(servers, tmp_path):
    """After the local table's all-in one of its players is out: the survivor moves to the final
    table (the e-mail table) and gets the next standings by mail there; the eliminated player
    gets them where he last sat (the local forum) until the director names another forum."""
    state, _at_mail, at_local = _started(servers, tmp_path)
    for who in at_local:
        run("tournament", "rail", "--name", "spring", "--join", who, "--state", str(state))
    money = play_all_in(state, "spring-t2")
    out_player = next((p for p in at_local if int(money.get(p, 0)) == 0), None)
    if out_player is None:
        pytest.skip("the fixed cards split the pot: nobody was eliminated")
    survivor = next(p for p in at_local if p != out_player)
    moved = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"{survivor} moves from table 2" in moved and "to table 1" in moved

    assert set(_standings(state, 2).sent) == set(at_local)
    day2 = "standings, day 2"
    assert (len(_mails(servers, survivor, day2)), _local(state, survivor, day2)) == (1, [])  # his new table's forum
    assert (len(_local(state, out_player, day2)), _mails(servers, out_player, day2)) == (1, [])  # where he last sat
    run("tournament", "rail", "--name", "spring", "--join", out_player, "--forum", "spring-t1", "--state", str(state))
    _standings(state, 3)
    day3 = "standings, day 3"
    assert (len(_mails(servers, out_player, day3)), _local(state, out_player, day3)) == (1, [])
    assert len(_mails(servers, survivor, day3)) == 1
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit


def test_a_forum_the_director_names_must_reach_him(servers, tmp_path):
    """``--forum`` names a table of the tournament, and an e-mail table only for a name its
    roster has an address for: refused otherwise (exit 1), nothing recorded; ``--forum`` goes
    with ``--join`` or ``--thread`` only (exit 2)."""
    state, _a, _b = _started(servers, tmp_path)
    before = rows(state, "SELECT count(*) FROM np_tournament_event")
    res = run("tournament", "rail", "--name", "spring", "--join", "zoe", "--forum", "spring-t9",
              "--state", str(state), code=1)
    assert "'spring-t9' is not a table of tournament spring (its tables: spring-t1, spring-t2)" in res.output
    res = run("tournament", "rail", "--name", "spring", "--join", "xavier", "--forum", "spring-t1",
              "--state", str(state), code=1)
    assert "table spring-t1 (email) cannot reach xavier" in res.output and "has no address for xavier" in res.output
    res = run("tournament", "rail", "--name", "spring", "--leave", "zoe", "--forum", "spring-t1",
              "--state", str(state), code=2)
    assert "--forum TABLE goes with --join NAME or --thread REF" in res.output
    assert rows(state, "SELECT count(*) FROM np_tournament_event") == before
