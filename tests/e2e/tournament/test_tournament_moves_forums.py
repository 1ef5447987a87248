"""Players moved between tables on different forums (issue 24: "It works on every forum the
tables can live on (a tournament may mix the local forum, Reddit threads and e-mail tables)"),
through the real CLI and the real adapters against their loopback servers: the local forum,
an e-mail table on Dovecot and aiosmtpd, a Reddit thread on the fake API praw talks to.

Seven entrants, tables of three: table 1 on the local forum (3 players), table 2 by e-mail
(2), table 3 on Reddit (2). Each plays a hand (so each has a thread). One player of table 1 is
disqualified: the six left fit at two tables, so table 3 (highest-first) is broken, its first
player to table 1 and its second to table 2 (the tables with the fewest players; a tie goes to
the table broken later). Each move is announced in both tables' threads before the next hand,
the chips arrive as they left, the moved players act at their new tables on those tables'
forums, and ``audit`` replays every table identically with the chips conserved."""

from __future__ import annotations

import json
import re

import pytest

from kits.servers.mail import start_servers
from kits.servers.reddit import config_for, fake  # noqa: F401 (fake: a fixture)
from kits.tables.tournament import email_forum, fold_around, mail_id, players_at, rows, run, started

ENTRANTS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
USERS = {"dealer": "dealer-pw", **{p: f"{p}-pw" for p in ENTRANTS}}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def _turn(state, table: str, number: int) -> str:
    cells = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND hand = {number} "
                             "AND column = 'Turn' ORDER BY id"))
    [who] = [p for p, v in cells.items() if v == "x"]
    return who


def _dealt(state, table: str, number: int) -> list[str]:
    seats = rows(state, f"SELECT seats FROM np_hand WHERE table_name = '{table}' AND number = {number}")[0][0]
    return [p for p, _m in json.loads(seats)]


def _money(state, table: str) -> dict[str, int]:
    return {p: int(v) for p, v in rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND "
                                              "column = 'Money' ORDER BY id")}


def _played(servers, fake, tmp_path):  # noqa: F811 (fake: the fixture)
    """The three tables started, one hand played at each on its own forum."""
    mail = email_forum(servers, tmp_path, ENTRANTS, table="spring-t2")  # its roster has every entrant
    reddit = tmp_path / "reddit.json"
    reddit.write_text(json.dumps({"kind": "reddit", **config_for(fake, subreddit="nomic")}))
    state = started(tmp_path, ENTRANTS, forums=(f"2={mail}", f"3={reddit}"))
    assert rows(state, "SELECT name, forum_kind FROM np_table ORDER BY name") == [
        ("spring-t1", "local"), ("spring-t2", "email"), ("spring-t3", "reddit")]
    t1, t2, t3 = (players_at(state, f"spring-t{n}") for n in (1, 2, 3))
    assert (len(t1), len(t2), len(t3)) == (3, 2, 2)

    # a hand at each table, each on its own forum: whoever acts first folds
    for table in ("spring-t1", "spring-t2", "spring-t3"):
        run("hand", "start", "--table", table, "--state", str(state))
    fold_around(state, "spring-t1", 1)
    who = _turn(state, "spring-t2", 1)
    servers.send(who, f"ID={mail_id(servers, who, 'spring-t2')}", "FOLD\n")
    reddit_thread = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t3'")[0][0]
    fake.add(_turn(state, "spring-t3", 1), "HAND1 ROUND1 fold", parent=f"t3_{reddit_thread}")
    run("poll", "--state", str(state))
    assert rows(state, "SELECT table_name FROM np_hand_end ORDER BY table_name") == [
        ("spring-t1",), ("spring-t2",), ("spring-t3",)]
    chips = {**_money(state, "spring-t2"), **_money(state, "spring-t3")}

    return state, (t1, t2, t3), reddit_thread, chips


def test_players_move_between_the_local_forum_email_and_reddit(servers, fake, tmp_path):  # noqa: F811
    state, (t1, t2, t3), reddit_thread, chips = _played(servers, fake, tmp_path)
    # table 1 loses a player: table 3 is broken, one player to each other forum
    out_player = t1[0]
    run("tournament", "disqualify", "--name", "spring", "--player", out_player, "--note", "collusion",
        "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "table 3 is broken" in out
    [to_local] = re.findall(r"^(\w+) moves from table 3 seat \d to table 1 seat \d \(table 3 is broken\)$", out, re.M)
    [to_mail] = re.findall(r"^(\w+) moves from table 3 seat \d to table 2 seat \d \(table 3 is broken\)$", out, re.M)
    assert sorted((to_local, to_mail)) == sorted(t3)

    # announced in both threads: the Reddit thread the players leave, the local thread and the
    # e-mail table (a mail to each of its players) they join
    said_reddit = [c.body for c in fake.comments if c.link == reddit_thread]
    for who, where in ((to_local, "spring-t1"), (to_mail, "spring-t2")):
        left = f"{who} leaves this table for table {where} with {chips[who]} chips (table spring-t3 is broken"
        assert sum(left in b for b in said_reddit) == 1, [b for b in said_reddit if "leaves" in b]
    local = [b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE table_name = 'spring-t1'")]
    assert any(f"{to_local} joins this table from table spring-t3 with {chips[to_local]} chips" in b for b in local)
    for reader in t2 + [to_mail]:  # the e-mail table's thread is a mail to each of its players
        joined = [m for m in servers.inbox(reader) if f"{to_mail} joins this table from table spring-t3 with "
                  f"{chips[to_mail]} chips" in m.get_content()]
        assert len(joined) == 1, (reader, [str(m["Subject"]) for m in servers.inbox(reader)])
    # chips carried, not made: what left table 3 arrived
    assert _money(state, "spring-t1")[to_local] == chips[to_local]
    assert _money(state, "spring-t2")[to_mail] == chips[to_mail]
    assert _money(state, "spring-t3") == {to_local: 0, to_mail: 0}

    # the moved players' next actions, read on their new forums (each is dealt in once the
    # button has passed his seat: Robert's "NO PLAYER MAY BE DEALT IN BETWEEN THE BUTTON OR
    # SMALL BLIND")
    pid = mail_id(servers, to_mail, "spring-t2")  # his ID at the e-mail table, mailed with his move

    def by_mail(who, number):
        servers.send(who, f"ID={pid if who == to_mail else mail_id(servers, who, 'spring-t2')}", "FOLD\n")
        run("poll", "--state", str(state))

    def locally(who, number):
        thread = rows(state, f"SELECT thread FROM np_hand WHERE table_name = 'spring-t1' AND number = {number}")[0][0]
        run("forum", "post", "--state", str(state), "--as", who, thread, f"HAND{number} ROUND1 fold")
        run("poll", "--state", str(state))

    for table, player, act in (("spring-t2", to_mail, by_mail), ("spring-t1", to_local, locally)):
        acted = []
        for number in (2, 3, 4, 5):  # until his turn comes (the big blind wins when all fold to him)
            run("hand", "start", "--table", table, "--state", str(state))
            for _ in range(3):
                if rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {number}"):
                    break
                act(_turn(state, table, number), number)
            acted = rows(state, f"SELECT status, canonical FROM np_verdict WHERE table_name = '{table}' AND "
                                f"author = '{player}' AND hand = {number}")
            if acted:
                break
        assert player in _dealt(state, table, number)
        assert acted and acted[0][0] == "accepted", (table, player, acted)
    audit = run("audit", "--state", str(state)).output
    assert "the replay is identical to the ledger" in audit and "DIFFERS" not in audit
    assert "tournament spring: chips conserved" in audit


def test_a_move_the_email_table_cannot_take_is_refused_and_nothing_moves(servers, fake, tmp_path):  # noqa: F811
    """The e-mail table's roster has no address for the players who would join it: ``advance``
    says so (exit 1) and records nothing, and once the Dealer adds them it moves them."""
    state, (t1, t2, t3), _thread, _chips = _played(servers, fake, tmp_path)
    roster = tmp_path / "roster-spring-t2.toml"
    full = roster.read_text()
    roster.write_text("[players]\n" + "".join(f'{p} = "{servers.address(p)}"\n' for p in t2))
    run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "collusion", "--state", str(state))
    before = rows(state, "SELECT count(*) FROM np_dealer_event"), rows(state, "SELECT count(*) FROM np_tournament_event")
    res = run("tournament", "advance", "--name", "spring", "--state", str(state), code=1)
    assert re.fullmatch(rf"error: table spring-t2 \(email\) cannot seat [a-z, ]+: the roster {roster} has no address "
                        rf"for ({t3[0]}|{t3[1]}); nothing was moved\n", res.output), res.output
    assert (rows(state, "SELECT count(*) FROM np_dealer_event"),
            rows(state, "SELECT count(*) FROM np_tournament_event")) == before
    roster.write_text(full)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "table 3 is broken" in out


def test_a_move_refused_at_one_table_mails_no_welcome_to_another(servers, tmp_path):
    """Two e-mail tables take players from a broken local table at once; the second's roster has
    no address for them. ``advance`` refuses before anything is recorded, and mails nobody: the
    first table's welcome (his ID there) would be a mail about a table he never joined. Once
    the roster has them, each gets his welcome once."""
    configs = {n: email_forum(servers, tmp_path, ENTRANTS, table=f"spring-t{n}") for n in (1, 2)}
    state = started(tmp_path, ENTRANTS, forums=(f"1={configs[1]}", f"2={configs[2]}"))
    t1, t2, t3 = (players_at(state, f"spring-t{n}") for n in (1, 2, 3))
    roster = tmp_path / "roster-spring-t2.toml"
    full = roster.read_text()
    roster.write_text("[players]\n" + "".join(f'{p} = "{servers.address(p)}"\n' for p in t2))

    def welcomes(table):
        return {p: sum(f"Your ID for poker table {table}" in str(m["Subject"]) for m in servers.inbox(p)) for p in t3}

    run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "collusion", "--state", str(state))
    res = run("tournament", "advance", "--name", "spring", "--state", str(state), code=1)
    assert "error: table spring-t2 (email) cannot seat" in res.output and "nothing was moved" in res.output
    assert welcomes("spring-t1") == {p: 0 for p in t3}  # the old code mailed one of them his ID at table 1
    assert welcomes("spring-t2") == {p: 0 for p in t3}
    roster.write_text(full)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    [to_1] = re.findall(r"^(\w+) moves from table 3 seat \d to table 1 seat \d", out, re.M)
    [to_2] = re.findall(r"^(\w+) moves from table 3 seat \d to table 2 seat \d", out, re.M)
    assert welcomes("spring-t1") == {to_1: 1, to_2: 0}
    assert welcomes("spring-t2") == {to_1: 0, to_2: 1}
