"""The rail's showdowns through the real commands on the real local forum (WRGPT, seed
``000_…``): a spectator and the players of the other tables on the rail receive each showdown
of a table once, by private message; the table's own players do not (they saw it); a hand
everyone else folded is no showdown; a run repeated sends nothing twice, and a run that failed
half-way leaves the rest unsent rather than sends twice."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from kits.tables.tournament import made, players_at, rows, run, started  # noqa: F401 (made: a fixture)
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path


def _hand(state, table):
    """Start the next hand of ``table`` (cards fixed by position); its thread and button."""
    from kits.tables.bot import fixed_secrets
    from nomicpoker.shell.storage import secrets_store

    n = len(rows(state, f"SELECT number FROM np_hand WHERE table_name = '{table}'")) + 1
    secrets_store.write(state, table, n, fixed_secrets(f"rail:{table}:{n}"))
    run("hand", "start", "--table", table, "--state", str(state))
    thread, button = rows(state, f"SELECT thread, button FROM np_hand WHERE table_name = '{table}' "
                                 f"AND number = {n}")[0]
    return n, thread, button


def _showdown(state, table, last_poll=None):
    """Play a hand of ``table`` heads-up to an all-in showdown, polling after each comment
    (``last_poll``: how the last one is polled; default the real ``nomicpoker poll``)."""
    forum = LocalForum(forum_db_path(state))
    n, thread, button = _hand(state, table)
    other = next(p for p in players_at(state, table) if p != button)
    post = ("forum", "post", "--state", str(state), "--as")
    run(*post, button, thread, f"HAND{n} ROUND1 raise 1000")
    run(*post, other, thread, f"HAND{n} ROUND1 call")
    run("poll", "--state", str(state))
    for p in (other, button):
        msg = next(m for m in reversed(forum.inbox(p)) if f"hand {n}," in m.body)
        cards = re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body).group(1)
        run(*post, p, thread, f"HAND{n} reveal {cards}")
        if p == button and last_poll is not None:
            last_poll()
        else:
            run("poll", "--state", str(state))
    return n


def _showdowns(forum, who):
    return [m for m in forum.inbox(who) if "showdown" in m.subject]


def test_the_rail_receives_every_showdown_from_all_other_tables_once(made):
    """WRGPT: "Once on the rail, you will receive every showdown message from all other tables,
    as well as nightly "score" messages with the grand total tournament standings." (the
    showdowns: the standings are tests/e2e/tournament/test_tournament_commands.py's)"""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    t1, t2 = players_at(state, "spring-t1"), players_at(state, "spring-t2")
    for who in ("zoe", t1[0], t2[0]):
        run("tournament", "rail", "--name", "spring", "--join", who, "--state", str(state))
    forum = LocalForum(forum_db_path(state))
    n = _showdown(state, "spring-t1")
    payout = next(c.body for c in forum.list_comments(
        rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t1'")[0][0]) if f"**Hand #{n} is over.**" in c.body)
    for who in ("zoe", t2[0]):
        [msg] = _showdowns(forum, who)
        assert msg.subject == f"Tournament spring: showdown at spring-t1, hand {n}"
        assert msg.body.startswith(f"Tournament spring (Spring Open): the showdown of hand {n} at table spring-t1.")
        body = payout.rsplit("`[np:", 1)[0].strip()  # the dealer's showdown text, without its tag
        assert body in msg.body and "Shown hands:" in msg.body
        assert "[np:" not in msg.body
    assert _showdowns(forum, t1[0]) == []  # he sat at that table: he saw it
    assert _showdowns(forum, t1[1]) == []  # not on the rail
    # run again: nothing is sent twice (the poll and the director's command alike)
    run("poll", "--state", str(state))
    again = run("tournament", "rail", "--name", "spring", "--send-showdowns", "--state", str(state)).output
    assert again.strip() == "tournament spring: no showdown to send"
    assert len(_showdowns(forum, "zoe")) == 1
    assert "identical" in run("audit", "--state", str(state)).output


def test_a_hand_everyone_else_folded_is_no_showdown(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    forum = LocalForum(forum_db_path(state))
    n, thread, button = _hand(state, "spring-t2")
    run("forum", "post", "--state", str(state), "--as", button, thread, f"HAND{n} ROUND1 fold")
    run("poll", "--state", str(state))
    assert any(f"**Hand #{n} is over.**" in c.body for c in forum.list_comments(thread))
    assert _showdowns(forum, "zoe") == []
    _showdown(state, "spring-t2")  # the next hand's showdown is sent; the folded one never is
    [msg] = _showdowns(forum, "zoe")
    assert msg.subject == "Tournament spring: showdown at spring-t2, hand 2"


def test_a_send_that_failed_half_way_sends_the_rest_never_twice(made):
    """The hands are recorded before any message goes: a forum that fails after the first
    message leaves the others unsent, and the next run does not send the first again."""
    from nomicpoker.ports import ForumError
    from nomicpoker.shell.storage.store import open_engine
    from nomicpoker.shell.tournament import rail

    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    for who in ("zoe", "yan"):
        run("tournament", "rail", "--name", "spring", "--join", who, "--state", str(state))
    # a showdown whose rail messages are not sent by the poll: the rail is sent by hand below
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    sent: list[str] = []

    class Failing:
        def __init__(self, forum):
            self.forum, self.abilities = forum, forum.abilities

        def send_private(self, user, subject, body):
            if sent:
                raise ForumError("network", "the forum went away")
            sent.append(user)
            return self.forum.send_private(user, subject, body)

    real = LocalForum(forum_db_path(state))
    from nomicpoker.shell.jobs.poll import poll

    # the hand's last reveal polled by the shell's poll alone (the tables, not the rail)
    n = _showdown(state, "spring-t1", last_poll=lambda: poll(engine, state))
    assert _showdowns(real, "zoe") == []
    with pytest.raises(ForumError):
        rail.send_showdowns(engine, state, "spring", forum_factory=lambda k, c, s: Failing(real))
    assert sent == ["zoe"]
    assert rail.send_showdowns(engine, state, "spring").sent == ()  # recorded: never sent twice
    run("poll", "--state", str(state))
    assert len(_showdowns(real, "zoe")) == 1
    assert _showdowns(real, "yan") == []  # left unsent: the record says it went
    [recorded] = rows(state, "SELECT data FROM np_tournament_event WHERE kind = 'rail_showdowns'")
    assert json.loads(recorded[0])["sent"] == [["spring-t1", n, ["zoe", "yan"]]]


def test_a_players_seatlog_in_his_tables_thread(made):
    """WRGPT: "At any time during the tournament, players can get a detailed report about the
    starting seat assignment by using the SEATLOG command." A player's SEATLOG in his table's
    thread: the text of ``nomicpoker tournament seatlog``, to him by private message, once."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    n, thread, button = _hand(state, "spring-t1")
    forum = LocalForum(forum_db_path(state))
    run("forum", "post", "--state", str(state), "--as", button, thread, "SEATLOG")
    run("poll", "--state", str(state))
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output.rstrip("\n")
    [msg] = [m for m in forum.inbox(button) if m.subject == "Tournament spring: SEATLOG"]
    assert f"```\n{log}\n```" in msg.body
    assert rows(state, "SELECT status, canonical FROM np_verdict WHERE table_name = 'spring-t1' "
                       "AND canonical = 'SEATLOG'") == [("accepted", "SEATLOG")]
    run("poll", "--state", str(state))
    assert len([m for m in forum.inbox(button) if m.subject == "Tournament spring: SEATLOG"]) == 1
    assert "identical" in run("audit", "--state", str(state)).output


def test_rail_and_rail_off_by_the_players_own_command(made):
    """WRGPT's rail, joined and left by the player's own ``RAIL`` / ``RAIL OFF`` in his table's
    thread: he is on the rail as if the director had put him there, and gets the next showdown
    of another table; a RAIL OFF takes him off; each is confirmed to him privately."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    n, thread, button = _hand(state, "spring-t1")
    forum = LocalForum(forum_db_path(state))
    post = ("forum", "post", "--state", str(state), "--as")
    run(*post, button, thread, "RAIL")
    run("poll", "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state)).output
    assert out.strip() == f"tournament spring: on the rail: {button}, zoe"
    [ok] = [m for m in forum.inbox(button) if m.subject == "Tournament spring: RAIL"]
    assert ok.body.startswith(f"{button}, you are on the rail of tournament spring (Spring Open)")
    _showdown(state, "spring-t2")
    [sd] = _showdowns(forum, button)
    assert "spring-t2" in sd.subject
    run(*post, button, thread, "RAIL OFF")
    run("poll", "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--leave", "zoe", "--state", str(state)).output
    assert out.strip() == "tournament spring: on the rail: nobody"
    assert [m.subject for m in forum.inbox(button) if m.subject.startswith("Tournament spring: RAIL")] == \
        ["Tournament spring: RAIL", "Tournament spring: RAIL OFF"]


def test_seatlog_at_a_table_of_its_own_is_refused(tmp_path):
    """Not a tournament's table: the command is refused with its reason (not taken for chat)."""
    state = tmp_path / "state"
    run("table", "create", "--name", "home", "--players", "ann,bob", "--state", str(state))
    run("hand", "start", "--table", "home", "--ante", "1", "--state", str(state))
    thread = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'home'")[0][0]
    run("forum", "post", "--state", str(state), "--as", "ann", thread, "SEATLOG")
    run("poll", "--state", str(state))
    assert rows(state, "SELECT status, code, message FROM np_verdict WHERE table_name = 'home' AND author = 'ann'") \
        == [("rejected", "not_a_tournament", "SEATLOG is a tournament's command, and table home is not a "
                                             "tournament's table")]


def test_a_table_is_a_tournaments_only_by_its_start(tmp_path):
    """``tournament`` and ``start_on_vacation`` are set by ``tournament start``: table create and
    table set refuse them (a table of its own would take SEATLOG that nobody answers)."""
    state = tmp_path / "state"
    res = run("table", "create", "--name", "home", "--players", "ann,bob", "--setting", "tournament=spring",
              "--state", str(state), code=2)
    assert "set by nomicpoker tournament start, not table create" in res.output
    run("table", "create", "--name", "home", "--players", "ann,bob", "--state", str(state))
    res = run("table", "set", "--table", "home", "tournament=spring", "--state", str(state), code=2)
    assert "tournament is set by nomicpoker tournament start when it creates the table, not by table set" \
        in res.output


def _four_tables(tmp_path):
    """A tournament of twelve at four tables of three, started, zoe on the rail: a showdown at
    each of three tables leaves two players at each (no table broken, none to balance)."""
    state = started(tmp_path, ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kim", "lee"))
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    return state


def _showdown_of_three(state, table):
    """A hand of ``table`` (three seated): the button moves all in, the next folds, the last
    calls, both reveal; the real poll after each comment."""
    forum = LocalForum(forum_db_path(state))
    n, thread, button = _hand(state, table)
    post = ("forum", "post", "--state", str(state), "--as")
    acted = [button]
    run(*post, button, thread, f"HAND{n} ROUND1 raise 1000")
    run("poll", "--state", str(state))
    for word in ("fold", "call"):
        cells = dict(rows(state, f"SELECT player, new FROM np_entry WHERE table_name = '{table}' AND hand = {n} "
                                 "AND column = 'Turn' ORDER BY id"))
        [who] = [p for p, v in cells.items() if v == "x"]
        run(*post, who, thread, f"HAND{n} ROUND1 {word}")
        run("poll", "--state", str(state))
        acted.append(who)
    for p in (acted[2], button):
        msg = next(m for m in reversed(forum.inbox(p)) if f"hand {n}," in m.body)
        cards = re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body).group(1)
        run(*post, p, thread, f"HAND{n} reveal {cards}")
        run("poll", "--state", str(state))
    assert rows(state, f"SELECT 1 FROM np_hand_end WHERE table_name = '{table}' AND hand = {n}")
    return n


def test_a_poll_reads_the_newest_watermark_not_every_rail_event(tmp_path):
    """Each run's event carries the rail's watermark (``covered``: every table's last hand
    handled), and a run reads only the newest event: the older ``rail_showdowns`` and
    ``rail_asks`` events made unreadable, the next showdown still goes once, and nothing older
    goes again. Folding every event at every poll (the cost grew with the tournament) would
    fail here on the first unreadable one."""
    state = _four_tables(tmp_path)
    forum = LocalForum(forum_db_path(state))
    first = _showdown_of_three(state, "spring-t1")
    second = _showdown_of_three(state, "spring-t2")
    marks = rows(state, "SELECT seq, kind, data FROM np_tournament_event WHERE kind IN ('rail_showdowns', 'rail_asks') "
                        "ORDER BY seq")
    shows = [(q, json.loads(d)) for q, k, d in marks if k == "rail_showdowns"]
    assert len(shows) == 2 and shows[-1][1]["covered"] == {"spring-t1": first, "spring-t2": second}
    newest = {k: max(q for q, kk, _d in marks if kk == k) for k in ("rail_showdowns", "rail_asks")}
    con = sqlite3.connect(state / "ledger.db")
    with con:
        con.execute("UPDATE np_tournament_event SET data = 'not JSON: never read again' WHERE kind IN "
                    "('rail_showdowns', 'rail_asks') AND seq NOT IN (?, ?)", tuple(newest.values()))
    con.close()
    third = _showdown_of_three(state, "spring-t3")
    assert sorted(m.subject for m in _showdowns(forum, "zoe")) == sorted(
        f"Tournament spring: showdown at {t}, hand {n}"
        for t, n in (("spring-t1", first), ("spring-t2", second), ("spring-t3", third)))
    last = json.loads(rows(state, "SELECT data FROM np_tournament_event WHERE kind = 'rail_showdowns' "
                                  "ORDER BY seq DESC LIMIT 1")[0][0])
    assert last["upto"] == {"spring-t3": third} and last["sent"] == [["spring-t3", third, ["zoe"]]]
    assert last["covered"] == {"spring-t1": first, "spring-t2": second, "spring-t3": third}


def test_rail_events_from_before_the_watermark_are_folded_once(tmp_path):
    """A ledger whose rail events carry no watermark (an older release's): the run folds them as
    before, sends nothing twice, and its own event carries the watermark from then on."""
    state = _four_tables(tmp_path)
    forum = LocalForum(forum_db_path(state))
    first = _showdown_of_three(state, "spring-t1")
    con = sqlite3.connect(state / "ledger.db")
    with con:
        con.execute("UPDATE np_tournament_event SET data = json_remove(data, '$.covered') "
                    "WHERE kind IN ('rail_showdowns', 'rail_asks')")
    con.close()
    run("poll", "--state", str(state))
    assert len(_showdowns(forum, "zoe")) == 1
    second = _showdown_of_three(state, "spring-t2")
    assert [m.subject for m in _showdowns(forum, "zoe")] == [
        f"Tournament spring: showdown at spring-t1, hand {first}", f"Tournament spring: showdown at spring-t2, hand {second}"]
    last = json.loads(rows(state, "SELECT data FROM np_tournament_event WHERE kind = 'rail_showdowns' "
                                  "ORDER BY seq DESC LIMIT 1")[0][0])
    assert last["covered"] == {"spring-t1": first, "spring-t2": second}
