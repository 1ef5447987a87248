"""A tournament director's first trial of the tournament commands: every refusal one precise
line that writes nothing, names that look alike, a protest left to the director, and
docs/tournaments.md's walk and every --help example run as printed."""

from __future__ import annotations

import re

import pytest

from kits.tables.tournament import STRUCTURE, made, rows, run, runner, started  # noqa: F401 (made: a fixture)
from nomicpoker.cli import app


def test_disqualify_twice_says_he_is_out_already(made):
    """A second disqualification of one player said he was "not an entrant": it now says when
    and why he was disqualified, and writes nothing."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("tournament", "disqualify", "--name", "spring", "--player", "cy", "--note", "collusion", "--state", str(state))
    before = rows(state, "SELECT count(*) FROM np_tournament_event")
    for who in ("cy", "CY"):  # the same account, whatever its case
        res = run("tournament", "disqualify", "--name", "spring", "--player", who, "--note", "again",
                  "--state", str(state), code=1)
        assert re.fullmatch(r"error: cy was disqualified from tournament spring at \S+ \(collusion\): "
                            r"he is out already\n", res.output), res.output
    assert rows(state, "SELECT count(*) FROM np_tournament_event") == before


def test_the_rail_takes_one_account_once(made):
    """``Zoe`` is the account ``zoe`` (forum logins ignore case) and ``z\u043ee`` (a Cyrillic o)
    only looks like it: both were put on the rail beside ``zoe``, so the standings went twice to
    one reader, once to an impostor. ``--leave ZOE`` takes ``zoe`` off."""
    _path, state, _ = made
    run("tournament", "rail", "--name", "spring", "--join", "zoe", "--state", str(state))
    before = rows(state, "SELECT count(*) FROM np_tournament_event")
    res = run("tournament", "rail", "--name", "spring", "--join", "Zoe", "--state", str(state), code=1)
    assert res.output == "error: Zoe is already on the rail of tournament spring (as zoe)\n"
    res = run("tournament", "rail", "--name", "spring", "--join", "z\u043ee", "--state", str(state), code=1)
    assert res.output == ("error: z\u043ee looks like zoe, who is on the rail of tournament spring: "
                          "names on the rail must not look alike\n")
    assert rows(state, "SELECT count(*) FROM np_tournament_event") == before
    out = run("tournament", "rail", "--name", "spring", "--leave", "ZOE", "--state", str(state)).output
    assert out == "tournament spring: on the rail: nobody\n"


def test_a_tournament_named_like_another_is_refused(made):
    """Two tournaments ``Spring`` and ``spring`` (tables ``Spring-t1`` and ``spring-t1``) read as
    one on the page: the second is refused, and nothing is written."""
    path, state, _ = made
    before = rows(state, "SELECT count(*) FROM np_tournament")
    for other in ("Spring", "SPRING"):  # table names are ASCII: their look-alikes differ in case
        res = run("tournament", "create", "--structure", str(path), "--name", other, "--players", "x1,y1",
                  "--state", str(state), code=1)
        assert res.output == (f"error: tournament name {other!r} looks like tournament 'spring': "
                              "names must not look alike (nomicpoker tournament list)\n")
    assert rows(state, "SELECT count(*) FROM np_tournament") == before


def test_the_walk_in_docs_tournaments_runs_as_printed(tmp_path):
    """docs/tournaments.md's step by step, with its own structure file: every command runs as
    printed (exit 0), the state folder aside."""
    import shlex

    from _paths import ROOT

    doc = (ROOT / "docs" / "tournaments.md").read_text()
    (tmp_path / "spring.toml").write_text(re.search(r"```toml\n(.*?)```", doc, re.S).group(1))
    walk = re.search(r"## A tournament, step by step\n\n```sh\n(.*?)```", doc, re.S).group(1)
    state = str(tmp_path / "state")
    import os
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for line in walk.splitlines():
            argv = shlex.split(line.replace("/srv/poker/state", state), comments=True)
            assert argv[0] == "nomicpoker"
            res = runner.invoke(app, argv[1:])
            assert res.exit_code == 0, (line, res.output)
    finally:
        os.chdir(cwd)


def test_a_player_disqualified_before_the_start_cannot_enter_again(made):
    """``disqualify`` before the start, then ``enter`` of the same player took him back; the
    start seated him, and ``audit`` then called the ledger's own draw changed (it leaves out
    every player disqualified before the start). He is refused, and the audit stays identical."""
    _path, state, _ = made
    run("tournament", "disqualify", "--name", "spring", "--player", "cy", "--note", "collusion", "--state", str(state))
    before = rows(state, "SELECT count(*) FROM np_tournament_event")
    for who in ("cy", "Cy"):
        res = run("tournament", "enter", "--name", "spring", "--player", who, "--state", str(state), code=1)
        assert re.fullmatch(r"error: cy was disqualified from tournament spring at \S+ \(collusion\): "
                            r"he does not enter again\n", res.output), res.output
    assert rows(state, "SELECT count(*) FROM np_tournament_event") == before
    run("tournament", "start", "--name", "spring", "--state", str(state))
    out = run("audit", "--state", str(state)).output
    assert "tournament spring: the seat draw is the one its published seed gives" in out


def test_an_unknown_ruleset_is_named_by_the_file_and_its_key(tmp_path):
    """``ruleset = "nosuch"`` said ``error: nosuch: no bundled ruleset ...``: neither the file
    nor the key; it now reads as every other problem of a structure file."""
    path = tmp_path / "s.toml"
    path.write_text('ruleset = "nosuch"\n' + STRUCTURE.format(size=3))
    for cmd in (("check",), ("create", "--state", str(tmp_path / "state"))):
        res = run("tournament", *cmd, "--structure", str(path), code=1)
        assert res.output.startswith(f"error: {path}: ruleset: nosuch: no bundled ruleset of that name"), res.output
        assert len(res.output.splitlines()) == 1
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("dealer", ["", "  "])
def test_create_refuses_a_dealer_account_its_tables_would_refuse(tmp_path, dealer):
    """``create --dealer ''`` made a tournament that could never start: every ``start`` was
    refused by its tables' forum ("local forum config key 'dealer' must be a non-empty string")."""
    path = tmp_path / "spring.toml"
    path.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    res = run("tournament", "create", "--structure", str(path), "--players", "ann,bob", "--dealer", dealer,
              "--state", str(state), code=1)
    assert res.output == "error: --dealer: give the account the Dealer posts as (e.g. --dealer Dealer)\n"
    assert not (state / "ledger.db").exists() or rows(state, "SELECT count(*) FROM np_tournament") == [(0,)]


def test_disqualify_during_a_hand_does_not_promise_that_a_fold_ends_it(tmp_path):
    """The refusal said "disqualify between hands (or fold him out first: hand fold ...)"; at a
    table of three, the player folded out, the hand plays on and disqualify was refused again
    with the same advice. It now says to disqualify him once the hand ends, the fold being only
    a way to take him out of it now."""
    state = started(tmp_path, "ann,bob,cy")
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    want = ("error: bob's table spring-t1 is playing a hand: disqualify him once it ends (to take him out of "
            "this hand now: nomicpoker hand fold --table spring-t1 --player bob --note ...)\n")
    res = run("tournament", "disqualify", "--name", "spring", "--player", "bob", "--note", "x",
              "--state", str(state), code=1)
    assert res.output == want
    run("hand", "fold", "--table", "spring-t1", "--player", "bob", "--note", "collusion", "--state", str(state))
    res = run("tournament", "disqualify", "--name", "spring", "--player", "bob", "--note", "x",
              "--state", str(state), code=1)
    assert res.output == want  # the hand plays on between ann and cy
    assert rows(state, "SELECT count(*) FROM np_tournament_event WHERE kind = 'disqualify'") == [(0,)]


def test_every_help_example_runs(tmp_path):
    """Each ``tournament`` command's ``--help`` example, run in the order a director would, on
    the structure of docs/tournaments.md: each exits 0 (the disqualify example named mallory,
    whom no example entered)."""
    import os
    import shlex

    from _paths import ROOT

    doc = (ROOT / "docs" / "tournaments.md").read_text()
    (tmp_path / "spring.toml").write_text(re.search(r"```toml\n(.*?)```", doc, re.S).group(1))
    state = str(tmp_path / "state")
    order = ("check", "create", "list", "enter", "start", "show", "seatlog", "advance", "disqualify", "pause",
             "resume", "rail")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for cmd in order:
            helped = run("tournament", cmd, "--help").output
            examples = [ln.strip() for ln in helped.split("Example")[1].splitlines()[1:] if ln.strip()]
            assert examples, cmd
            for line in examples:
                argv = shlex.split(line.replace("/srv/poker/state", state))
                res = runner.invoke(app, argv[1:])
                assert res.exit_code == 0, (line, res.output)
    finally:
        os.chdir(cwd)


def test_resume_leaves_a_players_protest_open(made):
    """A table frozen by a player's ``PROTEST`` is skipped by ``tournament pause``; ``tournament
    resume`` then resumed it too, ending the protest in the director's name ("tournament spring
    resumed: morning") though he never ruled on it. Resume takes only the tables paused, and
    says which protest is left for ``table resume``."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    thread = rows(state, "SELECT thread FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    button = rows(state, "SELECT button FROM np_hand WHERE table_name = 'spring-t1'")[0][0]
    run("forum", "post", "--state", str(state), "--as", button, thread, "PROTEST the dealer misdealt")
    run("poll", "--state", str(state))
    out = run("tournament", "pause", "--name", "spring", "--note", "night", "--state", str(state)).output
    assert out == "tournament spring paused: spring-t2\n"
    out = run("tournament", "resume", "--name", "spring", "--note", "morning", "--state", str(state)).output
    assert out == ("tournament spring resumed: spring-t2\n"
                   "spring-t1: a protest is open: the table stays frozen until you rule on it "
                   "(nomicpoker table resume --table spring-t1 --note ...)\n")
    assert rows(state, "SELECT table_name, kind FROM np_dealer_event WHERE kind IN ('pause', 'resume') "
                       "ORDER BY id") == [("spring-t2", "pause"), ("spring-t2", "resume")]


def test_check_announces_every_key_set_and_what_is_not_applied_yet(tmp_path):
    """``late_entry_levels``, ``redraw_every_levels`` and ``start_on_vacation`` passed ``check``
    and were left out of the structure "as announced", though none is carried out at the tables
    yet (docs/tournaments.md, Not built yet): a director who set them was told nothing."""
    path = tmp_path / "s.toml"
    path.write_text("late_entry_levels = 1\nredraw_every_levels = 2\nstart_on_vacation = true\n"
                    + STRUCTURE.format(size=3))
    out = run("tournament", "check", "--structure", str(path)).output
    assert "late entry until level 1 ends (tournament enter seats a late entrant at the table with the fewest players)\n" in out
    assert "seats redrawn when every 2 levels end (once every table has reached the level, by tournament advance)\n" in out
    assert ("everybody starts on vacation: a table starts when all its players have sent BACK in its thread, "
            "or when its deadline has passed\n") in out
    plain = tmp_path / "plain.toml"
    plain.write_text(STRUCTURE.format(size=3))
    out = run("tournament", "check", "--structure", str(plain)).output
    assert "late entry" not in out and "redrawn" not in out and "starts on vacation" not in out


@pytest.mark.parametrize("extra,message", [
    (("--name", "x y"), "error: tournament name 'x y': use letters, digits, '-' and '_' (max 34: its tables are "
                        "named x y-t1, ...)\n"),
    (("--players", "a 1,b1"), "error: player name 'a 1' is not allowed (no spaces or commas, at most 40)\n"),
    (("--players", "alice,Alice"), "error: player 'Alice' is entered twice 'alice': seats must not look alike\n"),
    (("--players", "bob,Dealer"), "error: player name 'Dealer' is not allowed: it is the Dealer's account "
                                  "'Dealer'\n"),
])
def test_a_refused_create_makes_no_state_folder(tmp_path, extra, message):
    """A create refused for its --name or its --players made the state folder and an empty
    ledger all the same (the checks ran once the ledger was open): nothing is made now."""
    path = tmp_path / "spring.toml"
    path.write_text(STRUCTURE.format(size=3))
    state = tmp_path / "state"
    args = {"--players": "ann,bob", **dict([extra])}
    res = run("tournament", "create", "--structure", str(path), *[x for kv in args.items() for x in kv],
              "--state", str(state), code=1)
    assert res.output == message
    assert not state.exists()


@pytest.mark.parametrize("args,code", [
    (("rail", "--name", "spring"), 2),
    (("rail", "--name", "spring", "--join", "zoe", "--leave", "zoe"), 2),
    (("show", "--name", "nope"), 1),
])
def test_refusals_exit_as_the_doc_says(made, args, code):
    """docs/tournaments.md: a refusal exits 1, a mistake in the command line itself 2; one line
    each, nothing written."""
    _path, state, _ = made
    before = rows(state, "SELECT count(*) FROM np_tournament_event")
    res = run("tournament", *args, "--state", str(state), code=code)
    assert len(res.output.strip().splitlines()) == 1 and res.output.startswith("error: ")
    assert rows(state, "SELECT count(*) FROM np_tournament_event") == before


def test_disqualify_names_the_entrant_not_the_spelling_typed(made):
    """``disqualify --player CY`` disqualifies the account ``cy`` (forum logins ignore case) and
    recorded ``cy``, but printed "CY disqualified"."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    out = run("tournament", "disqualify", "--name", "spring", "--player", "CY", "--note", "collusion",
              "--state", str(state)).output
    assert out.startswith("tournament spring: cy disqualified; he sits out at spring-t")
    assert rows(state, "SELECT player FROM np_tournament_event WHERE kind = 'disqualify'") == [("cy",)]


def test_advance_suggests_no_hand_start_where_one_player_can_be_dealt_in(made):
    """A table of two where one is disqualified (unseated): ``advance`` counted the players with
    chips, printed ``next: nomicpoker hand start --table ...`` for it, and that ``hand start``
    was refused ("only 1 player(s) can be dealt in"). It now says why no hand is dealt there."""
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    import json
    t2 = json.loads(rows(state, "SELECT players FROM np_table WHERE name = 'spring-t2'")[0][0])
    run("tournament", "disqualify", "--name", "spring", "--player", t2[0], "--note", "collusion", "--state", str(state))
    out = run("tournament", "advance", "--name", "spring", "--state", str(state)).output
    assert "spring-t2: fewer than two players can be dealt in (with chips, not sitting out): no hand to deal\n" in out
    assert "next: nomicpoker hand start --table spring-t2" not in out
    assert "next: nomicpoker hand start --table spring-t1" in out
    run("hand", "start", "--table", "spring-t2", "--state", str(state), code=1)  # as advance says
