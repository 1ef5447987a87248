"""A director's command interrupted part-way and run again (issue 24): every table of one
tournament alike, whatever release ran the first attempt.

``tournament start`` makes one table per drawn table, each in its own transaction (a table on
e-mail mails its players their IDs as it is made), so a start can stop with some tables made.
Run again, it keeps those and makes the others. The tables it makes then take the settings and
the rules the first attempt gave the tables it made (the tables' own record: their settings,
their pinned ruleset), not this release's: a start interrupted under an older release (before
``private_asks``, say, or with an older bundled ruleset) and finished under this one gives a
tournament whose tables all read the same private messages and play the same rules.

Real parts: the director's commands through the CLI on the local forum; a crash is a forked
child dying at a crash point (``NOMICPOKER_CRASH_AT``, tests/kits/sweeps/crash.py), as a killed
process dies.
"""

from __future__ import annotations

import json
import os

import pytest
from sqlmodel import Session

from kits.servers.mail import dealer_config, start_servers
from kits.sweeps.crash import die_at
from kits.tables.tournament import STRUCTURE, rows, run
from nomicpoker.core.rules.validate import ruleset_from_content
from nomicpoker.core.tournament.seating import next_positions
from nomicpoker.shell import faults
from nomicpoker.shell.dealer.service import create_table
from nomicpoker.shell.storage import paths
from nomicpoker.shell.storage.rulesets import RulesetFiles, read_ruleset
from nomicpoker.shell.storage.store import open_engine
from nomicpoker.shell.tournament import director, moves

PLAYERS = "ann,bob,cy,dee,eve,fay,gus"


def _created(tmp_path, size: int = 3):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "spring.toml"
    path.write_text(STRUCTURE.format(size=size))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(path), "--players", PLAYERS, "--state", str(state))
    return state


def _tables(state) -> dict[str, tuple[dict, str]]:
    """Each table's settings as made, and the content hash of the ruleset it pinned."""
    out = {}
    for name, settings, pinned in rows(state, "SELECT t.name, t.settings, t.ruleset_hash FROM np_table t ORDER BY t.id"):
        out[name] = (json.loads(settings), pinned)
    assert all(h in {c for (c,) in rows(state, f"SELECT content_hash FROM np_ruleset WHERE table_name = '{n}'")}
               for n, (_s, h) in out.items())
    return out


def test_a_start_interrupted_under_an_older_release_finishes_with_every_table_alike(tmp_path):
    """The first attempt, by an older release, made table 1 and stopped: its settings had no
    ``wrgpt_vacation`` and no ``private_asks`` (they came later), and it pinned an older text of
    the ruleset. This release's start keeps table 1 and makes tables 2 and 3 as table 1 was
    made: the same settings, the same pinned rules."""
    state = _created(tmp_path)
    engine = open_engine(paths.db_url(state))
    try:
        with Session(engine) as s:  # what the older release's start drew (the draw is the seed's)
            row = director.get(s, "spring")
            draw = director.draw_of(row, director.entrants(s, "spring"), director.seed_path(state, "spring")
                                    .read_text("ascii").strip())
        current = read_ruleset("roberts-nlhe")
        older_text = current.text.replace("\n", "\n\n", 1)  # an older wording of the same rules
        older = RulesetFiles(ruleset_from_content(current.toml, older_text, "older roberts-nlhe"), current.toml,
                             older_text, "roberts-nlhe")
        assert older.ruleset.content_hash != current.ruleset.content_hash
        first = draw.tables[0]
        create_table(engine, state, "spring-t1", list(first.players()), 1000, ruleset="roberts-nlhe",
                     button=first.player_at(next_positions(first).button),
                     settings={"tournament": "spring", "blinds": (5, 10)}, ruleset_files=older)
    finally:
        engine.dispose()
    out = run("tournament", "start", "--name", "spring", "--state", str(state)).output
    assert "spring-t1: made by the interrupted start, kept" in out
    made = _tables(state)
    assert sorted(made) == ["spring-t1", "spring-t2", "spring-t3"]
    assert "private_asks" not in made["spring-t1"][0] and "wrgpt_vacation" not in made["spring-t1"][0]
    assert made["spring-t2"] == made["spring-t3"] == made["spring-t1"]
    assert made["spring-t1"][1] == older.ruleset.content_hash
    # the tables read a private message alike: SEATLOG at table 3 is what it is at table 1
    # (advance actions only, as the older release's tables read them)
    run("hand", "start", "--table", "spring-t3", "--state", str(state))
    t3 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t3'")[0][0])
    run("forum", "message", "--state", str(state), "--as", t3[0], "SEATLOG")
    run("poll", "--state", str(state))
    assert rows(state, "SELECT status, code FROM np_verdict WHERE thread = '~private'") == [
        ("ignored", "private_not_advance")]
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_a_start_killed_at_each_crash_point_and_run_again_makes_the_same_tables(tmp_path):
    """This release's start killed at each of its crash points (every ledger commit, before and
    after), then run again: the same three tables, alike, each with its "table created" rows,
    the start recorded once, audit identical. (A kill between a table's row and its rows left
    a table that the start run again kept without them: audit differed.)"""
    reference = _created(tmp_path / "reference")
    trace = tmp_path / "trace"
    os.environ[faults.TRACE] = str(trace)
    try:
        faults.reset()
        engine = open_engine(paths.db_url(reference))
        director.start(engine, reference, "spring")
        engine.dispose()
    finally:
        del os.environ[faults.TRACE]
        faults.reset()
    points = len(trace.read_text().splitlines())
    assert points > 5, points
    want = _tables(reference)
    for k in range(1, points + 1):
        state = _created(tmp_path / f"k{k}")
        url = paths.db_url(state)
        code = die_at(k, url, lambda engine: director.start(engine, state, "spring"))
        assert code == faults.CRASH_EXIT, (k, code)
        if rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'start'") == [(1,)]:
            # killed after its last commit: the start is done, and says so when run again
            out = run("tournament", "start", "--name", "spring", "--state", str(state), code=1).output
            assert "error: tournament spring has already started" in out
        else:
            run("tournament", "start", "--name", "spring", "--state", str(state))
        assert _tables(state) == want, k
        assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'start'") == [(1,)]
        assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


# --------------------------------------------------------------------------- advance killed after an ID mail

ENTRANTS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
LATE = ("zed", "yan")


@pytest.fixture
def mail(tmp_path):
    users = {"dealer": "dealer-pw", **{p: f"{p}-pw" for p in ENTRANTS + LATE}}
    yield from start_servers(tmp_path / "mail", users)


def _mail_tournament(mail, tmp_path):
    """Seven entrants, tables of three: table 2 by e-mail (Dovecot and aiosmtpd on loopback),
    tables 1 and 3 on the local forum. A player of table 1 is disqualified: the six left fit
    at two tables, so table 3 is broken, one of its players to table 1 and one to table 2,
    who is mailed his ID there before the move is recorded."""
    config = tmp_path / "t2-mail.json"
    config.write_text(json.dumps({"kind": "email", **dealer_config(mail, tmp_path, ENTRANTS, table="spring-t2")}))
    structure = tmp_path / "spring.toml"
    structure.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(structure), "--players", ",".join(ENTRANTS), "--state", str(state))
    run("tournament", "start", "--name", "spring", "--forum", f"2={config}", "--state", str(state))
    t1, t3 = (json.loads(rows(state, f"SELECT players FROM np_table WHERE name = 'spring-t{n}'")[0][0]) for n in (1, 3))
    run("tournament", "disqualify", "--name", "spring", "--player", t1[0], "--note", "collusion",
        "--state", str(state))
    return state, t3


def _welcomes(mail, player: str, subject: str) -> list:
    return [m for m in mail.inbox(player) if subject in str(m["Subject"])]


def _killed_after_the_id_mail(mail, state, t3: list[str]) -> str:
    """``tournament advance`` killed at its crash points in turn, from the first, until one
    kill comes after a welcome to table 2 went out (the first such point: right after the
    mail); returns who got it. Nothing was recorded."""
    url = paths.db_url(state)
    for k in range(1, 60):
        code = die_at(k, url, lambda engine: moves.carry_out(engine, state, "spring"))
        assert code == faults.CRASH_EXIT, (k, code)
        welcomed = [p for p in t3 if _welcomes(mail, p, "Your ID for poker table spring-t2")]
        if welcomed:
            assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'moves'") == [(0,)]
            assert rows(state, "SELECT count(*) FROM np_dealer_event WHERE kind = 'move_in'") == [(0,)]
            [who] = welcomed
            return who
    raise AssertionError("no welcome was mailed")


def test_advance_killed_after_an_id_mail_makes_the_same_moves_when_run_again(mail, tmp_path):
    state, t3 = _mail_tournament(mail, tmp_path)
    mover = _killed_after_the_id_mail(mail, state, t3)
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"{mover} moves from table 3 seat" in out and "to table 2 seat" in out
    assert len(_welcomes(mail, mover, "Your ID for poker table spring-t2")) == 1  # not mailed again
    assert not _welcomes(mail, mover, "Not moved")
    assert rows(state, f"SELECT count(*) FROM np_dealer_event WHERE table_name = 'spring-t2' AND kind = 'move_in' "
                       f"AND player = '{mover}'") == [(1,)]
    assert not list((state / "pending").glob("_tournament-*"))
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_advance_killed_after_an_id_mail_corrects_the_welcome_when_the_moves_change(mail, tmp_path):
    """The director disqualifies the player the killed run welcomed to table 2 before running
    advance again: the moves are not those any more (the other player of table 3 moves, the
    welcomed one nowhere). He is told once, by mail, that the move was not made."""
    state, t3 = _mail_tournament(mail, tmp_path)
    mover = _killed_after_the_id_mail(mail, state, t3)
    run("tournament", "disqualify", "--name", "spring", "--player", mover, "--note", "no show",
        "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"{mover} moves" not in out
    [note] = _welcomes(mail, mover, "Not moved to poker table spring-t2")
    assert f"{mover}, the Dealer mailed you your ID for poker table spring-t2 for a move" in note.get_content()
    assert "you were not moved to table spring-t2" in note.get_content()
    assert rows(state, f"SELECT count(*) FROM np_dealer_event WHERE player = '{mover}' AND kind = 'move_in'") \
        == [(0,)]
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    assert len(_welcomes(mail, mover, "Not moved to poker table spring-t2")) == 1  # once
    assert not list((state / "pending").glob("_tournament-*"))
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_advance_killed_after_recording_its_moves_leaves_nothing_pending(mail, tmp_path):
    """Killed after the moves' transaction committed, before the kept moves were removed: the
    next run sees them recorded, removes them, and moves nobody again or corrects nothing."""
    state, t3 = _mail_tournament(mail, tmp_path)
    url = paths.db_url(state)
    for k in range(1, 200):
        code = die_at(k, url, lambda engine: moves.carry_out(engine, state, "spring"))
        assert code == faults.CRASH_EXIT, (k, code)
        if rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'moves'") == [(1,)]:
            break
    assert list((state / "pending").glob("_tournament-*"))  # killed before it was removed
    [mover] = [p for p in t3 if _welcomes(mail, p, "Your ID for poker table spring-t2")]
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "moves from" not in out
    assert not list((state / "pending").glob("_tournament-*"))
    assert len(_welcomes(mail, mover, "Your ID for poker table spring-t2")) == 1
    assert not _welcomes(mail, mover, "Not moved")
    assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'moves'") == [(1,)]
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def _late_entry_tournament(mail, tmp_path):
    """Five entrants at tables of three (late entry until level 1 ends): table 1 (three players)
    on the local forum, table 2 (two) by e-mail, where a late entrant is seated (the table with
    the fewest players) and mailed his ID before his entry is recorded."""
    config = tmp_path / "t2-mail.json"
    config.write_text(json.dumps({"kind": "email", **dealer_config(mail, tmp_path, ENTRANTS + LATE,
                                                                   table="spring-t2")}))
    structure = tmp_path / "spring.toml"
    structure.write_text(STRUCTURE.format(size=3).replace("level_length = 5", "level_length = 5\nlate_entry_levels = 1"))
    state = tmp_path / "state"
    run("tournament", "create", "--structure", str(structure), "--players", ",".join(ENTRANTS[:5]), "--state",
        str(state))
    run("tournament", "start", "--name", "spring", "--forum", f"2={config}", "--state", str(state))
    assert len(json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])) == 2
    return state


def _entry_killed_after_the_id_mail(mail, state) -> None:
    url = paths.db_url(state)
    for k in range(1, 60):
        code = die_at(k, url, lambda engine: moves.enter_late(engine, state, "spring", "zed"))
        assert code == faults.CRASH_EXIT, (k, code)
        if _welcomes(mail, "zed", "Your ID for poker table spring-t2"):
            assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'enter' AND player = 'zed'") \
                == [(0,)]
            return
    raise AssertionError("no welcome was mailed")


def test_a_late_entry_killed_after_the_id_mail_is_seated_there_when_run_again(mail, tmp_path):
    state = _late_entry_tournament(mail, tmp_path)
    _entry_killed_after_the_id_mail(mail, state)
    out = run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state)).output
    assert "zed enters late at table 2 seat" in out
    assert len(_welcomes(mail, "zed", "Your ID for poker table spring-t2")) == 1
    assert not _welcomes(mail, "zed", "Not seated")
    assert not list((state / "pending").glob("_tournament-*"))
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_a_late_entry_killed_after_the_id_mail_and_refused_since_corrects_the_welcome(mail, tmp_path):
    """Before zed's entry is run again, yan enters and takes the last free seat (table 2's):
    zed's entry is refused now (every table full), and he is told once that he was not seated
    at table 2."""
    state = _late_entry_tournament(mail, tmp_path)
    _entry_killed_after_the_id_mail(mail, state)
    out = run("tournament", "enter", "--name", "spring", "--player", "yan", "--state", str(state)).output
    assert "yan enters late at table 2 seat" in out
    refused = run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state), code=1).output
    assert refused.startswith("error: ")
    [note] = _welcomes(mail, "zed", "Not seated at poker table spring-t2")
    assert "zed, the Dealer mailed you your ID for poker table spring-t2 for your late entry" in note.get_content()
    assert "you were not seated at table spring-t2; you sit at no table of the tournament now" in note.get_content()
    run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state), code=1)
    assert len(_welcomes(mail, "zed", "Not seated at poker table spring-t2")) == 1  # once
    assert not list((state / "pending").glob("_tournament-*"))
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


# --------------------------------------------------------------------------- the kept moves between the kill and the re-run

def _pending(state):
    return list((state / "pending").glob("_tournament-*.json"))


def test_a_poll_between_the_kill_and_the_rerun_keeps_the_moves_as_planned(mail, tmp_path):
    """The killed advance mailed X his ID for table 2. Before the director runs it again,
    cron's polls answer a player's SEATLOG (a ``rail_asks`` tournament event: any poll with a
    verdict records one) until a plan numbered by the tournament's next event would draw other
    moves. The seats have not changed: the re-run draws by the number the killed run kept, makes
    its moves (X to table 2, no "Not moved" mail, no second ID mail), and records that number."""
    state, t3 = _mail_tournament(mail, tmp_path)
    mover = _killed_after_the_id_mail(mail, state, t3)
    pending = json.loads(next(iter(_pending(state))).read_text())
    t1 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
    asker = next(p for p in t1 if p not in [e for (e,) in rows(
        state, "SELECT player FROM np_tournament_event WHERE kind = 'disqualify'")])
    engine = open_engine(paths.db_url(state))
    try:
        for i in range(8):  # polls that answer a SEATLOG, as cron's would, until the plan differs
            run("forum", "message", "--state", str(state), "--as", asker, "SEATLOG")
            run("poll", "--state", str(state))
            with Session(engine) as s:
                _m, plan, _e, _r = moves.plan_for(s, "spring")
            key = [[mv.player, mv.from_table, mv.from_seat, mv.to_table, mv.to_seat] for mv in plan.moves]
            if key != pending["moves"]:
                break
        else:
            pytest.skip("eight polls' events left the draw as it was")
        assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'rail_asks'")[0][0] >= 1
    finally:
        engine.dispose()
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    assert not _welcomes(mail, mover, "Not moved to poker table spring-t2"), (pending["moves"], key)
    assert len(_welcomes(mail, mover, "Your ID for poker table spring-t2")) == 1  # not mailed again
    assert rows(state, f"SELECT count(*) FROM np_dealer_event WHERE table_name = 'spring-t2' AND kind = 'move_in' "
                       f"AND player = '{mover}'") == [(1,)]
    [(data,)] = rows(state, "SELECT data FROM np_tournament_event WHERE kind = 'moves'")
    recorded = json.loads(data)
    assert [[mv["player"], mv["from_table"], mv["from_seat"], mv["to_table"], mv["to_seat"]]
            for mv in recorded["moves"]] == pending["moves"]
    assert recorded["event"] == pending["event"]  # the killed run's draw, named as it was then
    assert not _pending(state)
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_advance_killed_corrects_no_welcome_it_did_not_mail(mail, tmp_path):
    """Both players of table 3 hold an ID for table 2 from before (as a player moved back to a
    table he sat at does): the advance killed once its moves are kept mailed nobody (``enrol``
    sends each ID once), and its file lists nobody to correct. The plan changes (the mover is
    disqualified): the re-run must not tell him "the Dealer mailed you your ID ... for a move":
    no such mail went."""
    state, t3 = _mail_tournament(mail, tmp_path)
    engine = open_engine(paths.db_url(state))
    try:
        from nomicpoker.shell.cycle import forums
        from nomicpoker.shell.storage import ledger
        with Session(engine) as s:
            t2 = ledger.get_table(s, "spring-t2")
        forums.forum_for(t2, state).enrol("spring-t2", list(t3))  # both hold an ID for t2 from before
    finally:
        engine.dispose()
    before = {p: len(_welcomes(mail, p, "Your ID for poker table spring-t2")) for p in t3}
    url = paths.db_url(state)
    for k in range(1, 60):  # killed at the first point where the moves are pending
        code = die_at(k, url, lambda engine: moves.carry_out(engine, state, "spring"))
        assert code == faults.CRASH_EXIT, (k, code)
        if _pending(state):
            break
    [f] = _pending(state)
    kept = json.loads(f.read_text())
    [mover] = [mv[0] for mv in kept["moves"] if mv[3] == 2]
    assert kept["arriving"] == {"spring-t2": []}  # nobody this run mails
    assert {p: len(_welcomes(mail, p, "Your ID for poker table spring-t2")) for p in t3} == before  # none sent
    run("tournament", "disqualify", "--name", "spring", "--player", mover, "--note", "no show",
        "--state", str(state))
    run("tournament", "advance", "--name", "spring", "--state", str(state))
    assert not _welcomes(mail, mover, "Not moved to poker table spring-t2")
    assert not _pending(state)


def test_a_correction_names_the_table_the_run_moves_him_to_not_the_one_it_breaks(mail, tmp_path):
    """The killed run welcomed X to table 2 (table 3 broken: its first player drawn to table 1,
    X to table 2). The other player of table 3 is disqualified before the re-run: X, alone at
    table 3, is drawn first now and moved to table 1, table 3 broken. His correction names
    table 1, not "you play on at table spring-t3" (the table this very run breaks)."""
    state, t3 = _mail_tournament(mail, tmp_path)
    mover = _killed_after_the_id_mail(mail, state, t3)
    [other] = [p for p in t3 if p != mover]
    run("tournament", "disqualify", "--name", "spring", "--player", other, "--note", "no show", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert f"{mover} moves from table 3 seat" in out
    assert "to table 1 seat" in out.split(f"{mover} moves from", 1)[1].split("\n")[0]
    [note] = _welcomes(mail, mover, "Not moved to poker table spring-t2")
    text = note.get_content()
    assert "you were not moved to table spring-t2; you are moved to table spring-t1 instead" in text
    assert "spring-t3" not in text
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def test_a_late_entry_corrected_names_the_table_he_is_seated_at_instead(mail, tmp_path):
    """zed's entry was killed after his welcome to table 2; two players of table 1 are
    disqualified before it is run again: table 1 (one player) has the fewest now, and zed is
    seated there. His correction says so, not "you sit at no table of the tournament now"."""
    state = _late_entry_tournament(mail, tmp_path)
    _entry_killed_after_the_id_mail(mail, state)
    t1 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t1'")[0][0])
    for p in t1[:2]:
        run("tournament", "disqualify", "--name", "spring", "--player", p, "--note", "no show", "--state", str(state))
    out = run("tournament", "enter", "--name", "spring", "--player", "zed", "--state", str(state)).output
    assert "zed enters late at table 1 seat" in out
    [note] = _welcomes(mail, "zed", "Not seated at poker table spring-t2")
    text = note.get_content()
    assert "you were not seated at table spring-t2; you are seated at table spring-t1 instead" in text
    assert "no table" not in text
    assert not _pending(state)


@pytest.mark.parametrize(("content", "problem"), [
    ('{"arriving": {"spring-t2": ["%s"]}, "moves": []}', "it has no 'at', 'recorded'"),
    ('{"at": "2030-01-01T00:00:00+00:00", "recorded": "x", "moves": [], "arriving": {"spring-t2": ["%s"]}}',
     "its \"recorded\" ('x') is not a count of moves events"),
    ('{"at": "2030-01-01T00:00:00+00:00", "recorded": 0, "moves": [["%s", 3]], "arriving": {}}',
     "its \"moves\" are not [player, from table, from seat, to table, to seat] lists"),
    ('{"at": "2030-01-01T00:00:00+00:00", "recorded": 0, "moves": [], "arriving": {"spring-t2": ["%s"', "it is not JSON"),
])
def test_a_malformed_pending_file_is_a_clear_error_through_the_cli(mail, tmp_path, content, problem):
    """A pending file of another shape (hand-edited, cut short): ``advance`` stops before
    anything is moved or mailed, with a message naming the file, what is wrong and what to do,
    and exits 1; the file is left for the director (not silently ignored: the welcome it stands
    for would never be corrected)."""
    state, t3 = _mail_tournament(mail, tmp_path)
    (state / "pending").mkdir(exist_ok=True)
    t2 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    kept = state / "pending" / "_tournament-spring.moves.json"
    kept.write_text(content % t2[0])
    out = run("tournament", "advance", "--name", "spring", "--state", str(state), code=1).output
    assert out.startswith("error: ")
    assert f"the pending file {kept} is not one this release can read: {problem}" in out
    assert "Restore it if it was edited; else delete it and run the command again" in out
    assert "Traceback" not in out
    assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'moves'") == [(0,)]
    assert not any(_welcomes(mail, p, "Your ID for poker table spring-t2") for p in t3)
    assert kept.exists()
    kept.unlink()  # the director's way out: the moves are made
    assert "moves from table 3" in run("tournament", "advance", "--name", "spring", "--state", str(state)).output


def test_a_pending_file_cut_short_before_it_was_complete_is_removed(mail, tmp_path):
    """Killed while the moves were being kept (the ``.tmp`` written, not yet renamed): no ID
    mail went after it, so the next run removes the leftover, even one with nothing to move."""
    state, t3 = _mail_tournament(mail, tmp_path)
    assert "moves from table 3" in run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    leftover = state / "pending" / "_tournament-spring.moves.tmp"
    leftover.write_text('{"at": "2030-01-01T00:0')
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "moves from" not in out
    assert not leftover.exists()
    assert not list((state / "pending").glob("_tournament-*"))
