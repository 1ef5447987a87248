"""The rail of a tournament whose forum is e-mail (its first table's mailbox), through the real
commands against the loopback mail servers the e-mail tests use (Dovecot, aiosmtpd): a rail
member with an address in the roster receives the nightly standings and the showdown of another
table (here on the local forum) by mail, once each."""

from __future__ import annotations

import json
import re

import pytest

from kits.servers.mail import dealer_config, start_servers
from kits.tables.tournament import STRUCTURE, rows, run
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path

ENTRANTS = ("ann", "bob", "cy", "dee")
USERS = {"dealer": "dealer-pw", "ann": "a-pw", "bob": "b-pw", "cy": "c-pw", "dee": "d-pw", "zoe": "z-pw"}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def _showdown_at_local_table(state, table):
    """A heads-up all-in to a showdown at ``table`` (the local forum), polled after each comment."""
    from kits.tables.bot import fixed_secrets
    from nomicpoker.shell.storage import secrets_store

    secrets_store.write(state, table, 1, fixed_secrets(f"rail-mail:{table}"))
    run("hand", "start", "--table", table, "--state", str(state))
    thread, button = rows(state, f"SELECT thread, button FROM np_hand WHERE table_name = '{table}'")[0]
    other = next(p for p in json.loads(rows(state, f"SELECT players FROM np_table WHERE name = '{table}'")[0][0])
                 if p != button)
    forum = LocalForum(forum_db_path(state))
    post = ("forum", "post", "--state", str(state), "--as")
    run(*post, button, thread, "HAND1 ROUND1 raise 1000")
    run(*post, other, thread, "HAND1 ROUND1 call")
    run("poll", "--state", str(state))
    for p in (other, button):
        msg = next(m for m in reversed(forum.inbox(p)) if "hand 1," in m.body)
        cards = re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body).group(1)
        run(*post, p, thread, f"HAND1 reveal {cards}")
        run("poll", "--state", str(state))


def test_an_email_rail_member_gets_the_standings_and_the_showdowns_by_mail(servers, tmp_path):
    """WRGPT: "Once on the rail, you will receive every showdown message from all other tables,
    as well as nightly "score" messages with the grand total tournament standings." (by mail)"""
    config = dealer_config(servers, tmp_path, ENTRANTS + ("zoe",), table="spring-t1")
    mail = tmp_path / "mail.json"
    mail.write_text(json.dumps({"kind": "email", **config}))
    structure = tmp_path / "spring.toml"
    structure.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(structure), "--players", ",".join(ENTRANTS),
        "--state", str(state))
    run("tournament", "start", "--name", "spring", "--forum", f"1={mail}", "--state", str(state))
    assert rows(state, "SELECT name, forum_kind FROM np_table ORDER BY name") == [
        ("spring-t1", "email"), ("spring-t2", "local")]
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state))
    [standings] = [m for m in servers.inbox("zoe") if "standings" in str(m["Subject"])]
    assert str(standings["Subject"]).startswith("Tournament spring: standings, day 1")
    assert "standings at the end of day 1" in standings.get_content()
    _showdown_at_local_table(state, "spring-t2")
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

    config = dealer_config(servers, tmp_path, ENTRANTS, table="spring-t1")
    mail = tmp_path / "mail.json"
    mail.write_text(json.dumps({"kind": "email", **config}))
    structure = tmp_path / "spring.toml"
    structure.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(structure), "--players", ",".join(ENTRANTS),
        "--state", str(state))
    run("tournament", "start", "--name", "spring", "--forum", f"1={mail}", "--state", str(state))
    secrets_store.write(state, "spring-t1", 1, fixed_secrets("rail-mail:seatlog"))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    who = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])[0]
    [welcome] = [m for m in servers.inbox(who) if "Your ID for poker table spring-t1" in str(m["Subject"])]
    pid = re.search(r"\(ID=([a-z0-9]{6})\)", str(welcome["Subject"])).group(1)
    servers.send(who, f"ID={pid}", "SEATLOG\n")
    run("poll", "--state", str(state))
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output.rstrip("\n")
    [answer] = [m for m in servers.inbox(who) if str(m["Subject"]).startswith("Tournament spring: SEATLOG")]
    body = answer.get_content()
    assert all(line.strip() in body for line in log.splitlines()[2:])  # every player's line of the draw
    others = [p for p in ENTRANTS if p != who]
    assert not any("SEATLOG" in str(m["Subject"]) for p in others for m in servers.inbox(p))
