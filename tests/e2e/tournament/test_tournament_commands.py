"""``nomicpoker tournament``: a tournament director's commands through the real CLI, on the
local forum: check, create, enter, start (the seed published, the seats drawn, the tables made
with the drawn button and the first level's blinds), show (structure, tables, standings),
seatlog (recomputed by an auditor), pause and resume (every table), disqualify; and every
refusal one line, a non-zero exit and nothing written."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3

import pytest

from kits.tables.tournament import STRUCTURE, made, play_all_in, players_at, rows, run, started  # noqa: F401 (made: a fixture)
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage.paths import forum_db_path


def auditor_key(seed: str, name: str) -> str:
    return hashlib.sha256(f"{seed}\nseats\n{name}".encode()).hexdigest()


def test_check_prints_the_structure_as_announced(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=9))
    out = run("tournament", "check", "--structure", str(path)).output
    assert "ok: tournament spring (Spring Open)" in out
    assert "antes and blinds go up after each multiple of 5 hands at each table:" in out
    assert "level 1: blinds 5/10" in out and "level 2: blinds 10/20, ante 1" in out
    assert "payouts: 1st 60, 2nd 30, 3rd 10" in out


def test_a_bad_structure_lists_every_problem_and_creates_nothing(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=2).replace("level_length = 5", "level_lenght = 5"))
    state = tmp_path / "state"
    res = run("tournament", "create", "--structure", str(path), "--players", "a,b", "--state", str(state), code=1)
    lines = res.output.strip().splitlines()
    assert f"error: {path}: table_size: must be a whole number from 3 to 23; got 2" in lines
    assert any(line.startswith(f"error: {path}: level_lenght: unknown key") and 'did you mean "level_length"' in line
               for line in lines)
    assert f"error: {path}: level_length: missing; how many hands (or days) each level lasts, e.g. level_length = 20" in lines
    assert not state.exists()  # nothing made: no state folder, no ledger


def test_a_structure_under_a_ruleset_without_blinds_takes_only_antes(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=9).replace('title = "Spring Open"', 'title = "x"\nruleset = "blognomic-2008"'))
    res = run("tournament", "check", "--structure", str(path), code=1)
    assert res.output.strip().splitlines() == [
        f"error: {path}: levels[1].big_blind: ruleset blognomic-2008 has no blinds: a level may set only an ante "
        "(level(s) 1, 2 set blinds)"]


def test_create_commits_to_a_seed_and_start_publishes_it(made):
    _path, state, res = made
    committed = re.search(r"seed committed: sha256 ([0-9a-f]{64})", res.output).group(1)
    assert rows(state, "SELECT seed, status FROM np_tournament") == [("", "registering")]
    assert "next: nomicpoker tournament start --name spring --state" in res.output
    out = run("tournament", "start", "--name", "spring", "--state", str(state)).output
    seed = re.search(r"seed ([0-9a-f]{64}) \(sha256 ([0-9a-f]{64})\)", out)
    assert seed.group(2) == committed == hashlib.sha256(seed.group(1).encode()).hexdigest()
    assert rows(state, "SELECT seed, status FROM np_tournament") == [(seed.group(1), "running")]


def test_start_draws_the_seats_from_the_seed_and_makes_the_tables(made):
    """An auditor's own recomputation: four players, tables of 3, so two tables of two; the
    players ordered by key alternate between the tables; the table's players are in seat order
    and the first hand's button is the drawn one, with the first level's blinds."""
    _path, state, _ = made
    out = run("tournament", "start", "--name", "spring", "--state", str(state)).output
    seed = rows(state, "SELECT seed FROM np_tournament")[0][0]
    order = sorted(["ann", "bob", "cy", "dee"], key=lambda p: auditor_key(seed, p))
    tables = dict(rows(state, "SELECT name, players FROM np_table"))
    assert set(tables) == {"spring-t1", "spring-t2"}
    import json
    assert json.loads(tables["spring-t1"]) == [order[0], order[2]]
    assert json.loads(tables["spring-t2"]) == [order[1], order[3]]
    assert "next: nomicpoker hand start --table spring-t1 --state" in out
    settings = dict(rows(state, "SELECT name, settings FROM np_table"))
    assert json.loads(settings["spring-t1"])["blinds"] == [5, 10]
    log = run("tournament", "seatlog", "--name", "spring", "--state", str(state)).output
    button = {line.split()[1] for line in log.splitlines() if line.endswith(("BUTTON", "")) and "BUTTON" in line}
    assert {b for (b,) in rows(state, "SELECT button FROM np_table")} == button
    for p in order:
        assert auditor_key(seed, p)[:16] in log


def test_a_started_tournament_cannot_start_again_or_take_an_entrant(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    res = run("tournament", "start", "--name", "spring", "--state", str(state), code=1)
    assert res.output.startswith("error: tournament spring has already started")
    res = run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state), code=1)
    assert "tournament spring has started and its structure allows no late entry (late_entry_levels = 0)" in res.output


def test_seatlog_before_the_start_says_when_the_seats_are_drawn(made):
    _path, state, _ = made
    res = run("tournament", "seatlog", "--name", "spring", "--state", str(state), code=1)
    assert res.output.startswith("error: tournament spring has not started: the seats are drawn by nomicpoker "
                                 "tournament start")


def test_a_seed_file_changed_after_the_commitment_is_refused(made):
    _path, state, _ = made
    seed_file = state / "secrets" / "_tournaments" / "spring.seed"
    assert oct(seed_file.stat().st_mode & 0o777) == "0o600"
    seed_file.write_text("0" * 64)
    res = run("tournament", "start", "--name", "spring", "--state", str(state), code=1)
    assert "does not match the commitment" in res.output
    assert rows(state, "SELECT count(*) FROM np_table") == [(0,)]


def test_enter_before_the_start_and_refusals(made):
    _path, state, _ = made
    assert "zed entered (5 entrant(s))" in run("tournament", "enter", "--name", "spring", "--player", "zed",
                                               "--state", str(state)).output
    res = run("tournament", "enter", "--name", "spring", "--player", "ANN", "--state", str(state), code=1)
    assert "player 'ANN' is entered twice 'ann'" in res.output or "'ANN' is entered twice" in res.output
    res = run("tournament", "show", "--name", "autumn", "--state", str(state), code=1)
    assert res.output.strip() == "error: no tournament 'autumn' (there are: spring)"


def test_show_and_standings_after_an_elimination_and_audit(made):
    """Table 1 plays a hand to an all-in showdown: the loser is out, placed 4th (WRGPT:
    "eliminated players are ranked in reverse order of elimination"), with no prize (3 paid)."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    t1 = players_at(state, "spring-t1")
    money = play_all_in(state, "spring-t1")  # heads-up: the button all in, the other calls, both reveal
    out = run("tournament", "show", "--name", "spring", "--state", str(state)).output
    standing = out.split("standings:\n", 1)[1].splitlines()
    loser = next(p for p, m in money.items() if m == "0")
    winner = next(p for p in t1 if p != loser)
    assert standing[-1] == f"  4. {loser} (out)"
    assert standing[0] == f"  1. {winner} (2000 chips)"
    assert "1 hand(s) dealt; level 1" in out
    audit = run("audit", "--state", str(state)).output
    assert "identical" in audit
    assert "tournament spring: the seat draw is the one its published seed gives" in audit


def test_audit_finds_a_draw_changed_in_the_ledger(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    con = sqlite3.connect(state / "ledger.db")
    data = con.execute("SELECT data FROM np_tournament_event WHERE kind = 'start'").fetchone()[0]
    import json
    doc = json.loads(data)
    t = doc["tables"][0]
    t["seats"] = list(reversed(t["seats"]))
    con.execute("UPDATE np_tournament_event SET data = ? WHERE kind = 'start'", (json.dumps(doc),))
    con.commit()
    con.close()
    res = run("audit", "--state", str(state), code=1)
    assert "tournament spring: DIFFERS: the draw recorded at the start of spring is not the one its seed gives" in res.output
    res = run("tournament", "seatlog", "--name", "spring", "--state", str(state), code=1)
    assert "is not the one its seed gives" in res.output


def test_pause_and_resume_every_table(made):
    _path, state, _ = made
    res = run("tournament", "pause", "--name", "spring", "--note", "x", "--state", str(state), code=1)
    assert res.output.strip() == "error: tournament spring is registering: only a running tournament can be paused"
    run("tournament", "start", "--name", "spring", "--state", str(state))
    out = run("tournament", "pause", "--name", "spring", "--note", "the forum is down", "--state", str(state)).output
    assert out.strip() == "tournament spring paused: spring-t1, spring-t2"
    kinds = rows(state, "SELECT table_name, kind, note FROM np_dealer_event ORDER BY id")
    assert ("spring-t1", "pause", "tournament spring paused: the forum is down") in kinds
    assert ("spring-t2", "pause", "tournament spring paused: the forum is down") in kinds
    out = run("tournament", "resume", "--name", "spring", "--note", "back up", "--state", str(state)).output
    assert out.strip() == "tournament spring resumed: spring-t1, spring-t2"
    assert rows(state, "SELECT status FROM np_tournament") == [("running",)]
    assert [k for _n, k in rows(state, "SELECT seq, kind FROM np_tournament_event")][-2:] == ["pause", "resume"]


def test_disqualify(made):
    """Robert's: "Chips from a disqualified participant will be removed from play." He sits out
    at his table from the next hand and takes no place."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    res = run("tournament", "disqualify", "--name", "spring", "--player", "nobody", "--note", "x",
              "--state", str(state), code=1)
    assert res.output.strip() == "error: 'nobody' is not an entrant of tournament spring still in play"
    out = run("tournament", "disqualify", "--name", "spring", "--player", "cy", "--note", "collusion",
              "--state", str(state)).output
    assert "cy disqualified; he sits out at spring-t" in out
    assert ("unseat", "cy") in rows(state, "SELECT kind, player FROM np_dealer_event")
    [(table, data)] = rows(state, "SELECT table_name, data FROM np_dealer_event WHERE kind = 'move_out'")
    assert json.loads(data)["chips"] == 1000 and json.loads(data)["to"] == ""
    cause = rows(state, f"SELECT cause FROM np_entry WHERE table_name = '{table}' AND player = 'cy' AND column = 'Money' "
                        "ORDER BY id DESC LIMIT 1")[0][0]
    assert cause.startswith("dealer: cy's chips removed from play (disqualified from tournament spring: collusion")
    assert 'Robert\'s: "Chips from a disqualified participant will be removed from play."' in cause
    assert "less 1000 removed from play (disqualified)" in run("audit", "--state", str(state)).output
    show = run("tournament", "show", "--name", "spring", "--state", str(state)).output
    assert show.rstrip().endswith("DQ cy (disqualified)")
    assert "disqualify cy: collusion" in show


def test_disqualify_waits_for_the_hand_to_end(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    import json
    t1 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    res = run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "x",
              "--state", str(state), code=1)
    assert "is playing a hand: disqualify him once it ends" in res.output
    assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'disqualify'") == [(0,)]


def test_levels_go_up_between_hands_announced_in_the_thread(tmp_path):
    """WRGPT: "Antes and blinds go up periodically. They may go up either after each multiple of
    N hands, or after each multiple of N days." Robert's: "If there is a signal designating the
    end of a betting level, the new limits apply on the next deal." With N = 1 hand: after hand
    1 at table 1, `tournament advance` sets level 2 there (announced in its thread, replayed by
    audit), and hand 2 is dealt with blinds 10/20 and ante 1; table 2, no hand dealt, stays."""
    state = started(tmp_path, "ann,bob,cy,dee", edits=(("level_length = 5", "level_length = 1"),))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "spring-t1: level 1, as it is" in out and "spring-t2: level 1, as it is" in out
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "spring-t1: a hand is running: its level is applied once it ends" in out
    thread = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    button = rows(state, "SELECT button FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    run("forum", "post", "--state", str(state), "--as", button, thread, "HAND1 ROUND1 fold")
    run("poll", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "spring-t1: Level 2 from the next deal (blinds 10/20, ante 1): antes and blinds go up after each " \
           "multiple of 1 hands. (posted in its thread)" in out
    assert "spring-t2: level 1, as it is" in out
    posted = [b for (b,) in rows(state, "SELECT body FROM np_outbox WHERE table_name = 'spring-t1' ORDER BY id")]
    assert any("tournament spring: Level 2 from the next deal" in b for b in posted)
    again = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "spring-t1: level 2, as it is" in again  # run again: nothing more
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    import json
    ante, blinds = rows(state, "SELECT ante, blinds FROM np_hand WHERE table_name = 'spring-t1' AND number = 2")[0]
    assert (ante, json.loads(blinds)) == (1, [10, 20])
    assert "identical" in run("audit", "--state", str(state)).output


@pytest.mark.parametrize("players,message", [
    ("ann,bob,rnike,mike", "player 'mike' is too like 'rnike': seats must not look alike"),
    ("ann,bob,\u212aevan,kevan", "player 'kevan' is too like '\u212aevan': seats must not look alike"),
    ("ann,bob,Ann", "player 'Ann' is entered twice 'ann': seats must not look alike"),
    ("ann,bob,dealer", "player name 'dealer' is not allowed: it is the Dealer's account 'Dealer'"),
    ("ann,bob,DeaIer", "player name 'DeaIer' is not allowed: it looks like the Dealer's account 'Dealer'"),
])
def test_entrants_that_look_alike_are_refused(tmp_path, players, message):
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=9))
    state = tmp_path / "state"
    res = run("tournament", "create", "--structure", str(path), "--players", players, "--state", str(state), code=1)
    assert res.output.strip() == f"error: {message}"
    assert not state.exists()  # refused before a ledger is made


def test_the_vacation_hand_limit_holds_a_table_for_the_day(tmp_path):
    """WRGPT: "In a given tournament, there may be limits imposed on the number of hands that can
    be played per day while someone is on vacation". With a limit of 1: after hand 1, in which
    a player at table 1 went on vacation (GONE), `tournament advance` holds table 1 for the day
    (no hand start suggested) and still suggests table 2's."""
    state = started(tmp_path, "ann,bob,cy,dee", edits=(("payouts", "vacation_hands_per_day = 1\npayouts"),))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    thread = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    button = rows(state, "SELECT button FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    import json
    other = next(p for p in json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
                 if p != button)
    run("forum", "post", "--state", str(state), "--as", other, thread, "GONE 13 Sep")
    run("forum", "post", "--state", str(state), "--as", button, thread, "HAND1 ROUND1 fold")
    run("poll", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert (f"spring-t1: no hand today: 1 hand(s) dealt today (day 1) and {other} on vacation: at most 1 a day "
            "while someone is on vacation; the next hand on day 2") in out
    assert "next: nomicpoker hand start --table spring-t1" not in out
    assert "next: nomicpoker hand start --table spring-t2" in out


def test_list_and_a_tournament_created_without_entrants(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=9))
    state = tmp_path / "state"
    out = run("tournament", "create", "--structure", str(path), "--state", str(state)).output
    assert "0 entrant(s)" in out and "next:" not in out  # no hint with a name to make up
    assert "to enter players: nomicpoker tournament enter --name spring --player <name>" in out
    run("tournament", "enter", "--name", "spring", "--player", "ann", "--state", str(state))
    res = run("tournament", "enter", "--name", "spring", "--player", "Dealer", "--state", str(state), code=1)
    assert res.output.strip() == "error: player name 'Dealer' is not allowed: it is the Dealer's account 'Dealer'"
    res = run("tournament", "start", "--name", "spring", "--state", str(state), code=1)
    assert res.output.strip() == ("error: tournament spring has 1 entrant(s): it needs two "
                                  "(nomicpoker tournament enter --name spring --player NAME)")
    run("tournament", "enter", "--name", "spring", "--player", "bob", "--state", str(state))
    run("tournament", "start", "--name", "spring", "--state", str(state))
    assert run("tournament", "list", "--state", str(state)).output == \
        "spring\trunning\t2 entrant(s)\t1 table(s)\tSpring Open\n"


def test_the_rail_gets_the_nightly_standings_once_a_day(made):
    """WRGPT: "Once on the rail, you will receive every showdown message from all other tables,
    as well as nightly "score" messages with the grand total tournament standings." (the
    standings part)"""
    _path, state, _ = made
    res = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state), code=1)
    assert res.output.strip() == "error: tournament spring has not started: the rail's standings begin with play"
    assert "on the rail: zoe" in run("tournament", "rail", "--name", "spring", "--join", "zoe",
                                     "--state", str(state)).output
    assert "on the rail: zoe, ann" in run("tournament", "rail", "--name", "spring", "--join", "ann",
                                          "--state", str(state)).output
    res = run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state), code=1)
    assert res.output.strip() == "error: zoe is already on the rail of tournament spring"
    assert "on the rail: ann" in run("tournament", "rail", "--name", "spring", "--leave", "zoe",
                                     "--state", str(state)).output
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    res = run("tournament", "rail", "--name", "spring", "--state", str(state), code=2)
    assert "give one of --join NAME, --leave NAME, --send-standings, --send-showdowns or --thread REF" in res.output
    run("tournament", "start", "--name", "spring", "--state", str(state))
    out = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state)).output
    assert out.strip() == "tournament spring: standings of day 1 sent to 2 on the rail: ann, zoe"
    forum = LocalForum(forum_db_path(state))
    for who in ("ann", "zoe"):
        [msg] = [m for m in forum.inbox(who) if "standings" in m.body]
        assert "standings at the end of day 1" in msg.body
        assert all(f". {p} (1000 chips)" in msg.body for p in ("ann", "bob", "cy", "dee"))
    again = run("tournament", "rail", "--name", "spring", "--send-standings", "--state", str(state)).output
    assert again.strip() == "tournament spring: the standings of day 1 were already sent: nothing sent"
    assert len([m for m in forum.inbox("zoe") if "standings" in m.body]) == 1


def test_a_tournament_on_either_ledger(tmp_path, ledger_url):
    """The tournament's tables and events on SQLite and (``-m postgres``) PostgreSQL: created,
    started, shown, its draw checked by seatlog and audit."""
    path = tmp_path / "s.toml"
    path.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    db = ("--db", ledger_url)
    run("tournament", "create", "--structure", str(path), "--players", "ann,bob,cy,dee", "--state", str(state), *db)
    out = run("tournament", "start", "--name", "spring", "--state", str(state), *db).output
    assert "4 players at 2 table(s)" in out
    assert "SEATLOG: seats;" in run("tournament", "seatlog", "--name", "spring", "--state", str(state), *db).output
    show = run("tournament", "show", "--name", "spring", "--state", str(state), *db).output
    assert "table 2 (spring-t2):" in show and "  4. " in show
    assert "spring\trunning\t4 entrant(s)\t2 table(s)" in run("tournament", "list", "--state", str(state), *db).output
    audit = run("audit", "--state", str(state), *db).output
    assert "tournament spring: the seat draw is the one its published seed gives" in audit

