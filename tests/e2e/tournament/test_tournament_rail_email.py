"""The rail of a tournament whose forum is e-mail (its first table's mailbox), through the real
commands against the loopback mail servers the e-mail tests use (Dovecot, aiosmtpd): a rail
member with an address in the roster receives the nightly standings and the showdown of another
table (here on the local forum) by mail, once each."""

from __future__ import annotations

import pytest

from kits.servers.mail import start_servers
from kits.tables.tournament import email_forum, mail_id, play_all_in, players_at, rows, run, started

ENTRANTS = ("ann", "bob", "cy", "dee")
USERS = {"dealer": "dealer-pw", "ann": "a-pw", "bob": "b-pw", "cy": "c-pw", "dee": "d-pw", "zoe": "z-pw"}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def test_an_email_rail_member_gets_the_standings_and_the_showdowns_by_mail(servers, tmp_path):
    """WRGPT: "Once on the rail, you will receive every showdown message from all other tables,
    as well as nightly "score" messages with the grand total tournament standings." (by mail)"""
    mail = email_forum(servers, tmp_path, ENTRANTS + ("zoe",))
    state = started(tmp_path, ENTRANTS, forums=(f"1={mail}",))
    assert rows(state, "SELECT name, forum_kind FROM np_table ORDER BY name") == [
        ("spring-t1", "email"), ("spring-t2", "local")]
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state))
    [standings] = [m for m in servers.inbox("zoe") if "standings" in str(m["Subject"])]
    assert str(standings["Subject"]).startswith("Tournament spring: standings, day 1")
    assert "standings at the end of day 1" in standings.get_content()
    play_all_in(state, "spring-t2")  # a heads-up all-in to a showdown at the local table
    [showdown] = [m for m in servers.inbox("zoe") if "showdown" in str(m["Subject"])]
    assert str(showdown["Subject"]).startswith("Tournament spring: showdown at spring-t2, hand 1")
    body = showdown.get_content()
    assert "the showdown of hand 1 at table spring-t2" in body and "Hand #1 is over." in body
    assert "**" not in body  # plain text, as the mail forum writes
    run("poll", "--state", str(state))
    assert len([m for m in servers.inbox("zoe") if "showdown" in str(m["Subject"])]) == 1


def test_a_players_seatlog_by_mail_at_an_email_table(servers, tmp_path):
    """WRGPT's SEATLOG mailed to the Dealer (with the player's ID) at an e-mail table: the seat
    log comes back to him alone, by mail."""
    from kits.tables.bot import fixed_secrets
    from nomicpoker.shell.storage import secrets_store

    mail = email_forum(servers, tmp_path, ENTRANTS)
    state = started(tmp_path, ENTRANTS, forums=(f"1={mail}",))
    secrets_store.write(state, "spring-t1", 1, fixed_secrets("rail-mail:seatlog"))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    who = players_at(state, "spring-t1")[0]
    pid = mail_id(servers, who, "spring-t1")
    servers.send(who, f"ID={pid}", "SEATLOG\n")
    run("poll", "--state", str(state))
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output.rstrip("\n")
    [answer] = [m for m in servers.inbox(who) if str(m["Subject"]).startswith("Tournament spring: SEATLOG")]
    body = answer.get_content()
    assert all(line.strip() in body for line in log.splitlines()[2:])  # every player's line of the draw
    others = [p for p in ENTRANTS if p != who]
    assert not any("SEATLOG" in str(m["Subject"]) for p in others for m in servers.inbox(p))
