"""Standings across tables (WRGPT's SCORE): the pure ranking, and ``nomicpoker score`` over a
game with two tables."""

from __future__ import annotations

from typer.testing import CliRunner

from kits.tables.game import HOSTILE, blognomic_game, roberts_game
from nomicpoker.cli import app
from nomicpoker.core.words.standings import TableMoney, render, standings


def test_money_is_summed_over_tables_and_ranked_most_first():
    rows = [TableMoney("A", "ann", 50), TableMoney("B", "ann", 70), TableMoney("A", "bo", 100),
            TableMoney("B", "cy", 0, out_hand=3), TableMoney("A", "di", 0, out_hand=7)]
    got = standings(rows)
    assert [(s.player, s.money, s.tables) for s in got] == [("ann", 120, ("A", "B")),
                                                             ("bo", 100, ("A",))]
    # "SCORE/L": eliminated players too, "in reverse order of elimination" (di went out later)
    full = standings(rows, full=True)
    assert [s.player for s in full] == ["ann", "bo", "di", "cy"]
    assert [s.rank for s in full] == [1, 2, 3, 4]
    text = render(full)
    assert "out hand 7" in text and text.splitlines()[0].startswith("+-")
    assert len({len(line) for line in text.splitlines()}) == 1  # a fixed-width table


def test_score_command_over_two_tables(tmp_path):
    t = blognomic_game(tmp_path)
    r = roberts_game(tmp_path)
    want: dict[str, int] = {}
    for table in (t, r):
        for p, (money, _turn, pot) in table.gndt().items():
            want[p] = want.get(p, 0) + money + pot
    res = CliRunner().invoke(app, ["score", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.output.splitlines() if ln.startswith("|") and "Name" not in ln]
    got = [(ln.split("|")[2].strip(), int(ln.split("|")[3])) for ln in lines]
    assert sorted(got) == sorted((p, m) for p, m in want.items() if m > 0)
    assert [m for _p, m in got] == sorted((m for _p, m in got), reverse=True)
    assert HOSTILE in res.output  # names printed as text


def _score_rows(body: str) -> list[tuple[str, int]]:
    lines = [ln for ln in body.splitlines() if ln.startswith("|") and "Name" not in ln]
    return [(ln.split("|")[2].strip(), int(ln.split("|")[3])) for ln in lines]


def test_a_score_comment_is_answered_with_every_tables_standings_and_audits_identical(tmp_path):
    from kits.tables.bot import Table
    from nomicpoker.shell.audit.audit import audit

    other = roberts_game(tmp_path, name="R")  # a finished hand at another table of the game
    t = Table(tmp_path, name="S", players=("alice", "bob", "erin"), ruleset="roberts-nlhe",
              issue_decks=False, settings={"reminders": 0})
    t.start(ante=0, blinds=(1, 2))
    t.new_dealer()
    said = t.act("erin", "score")
    answer = [b for b in said if "asked for the SCORE" in b]
    assert len(answer) == 1, said
    want: dict[str, int] = {}
    for table in (other, t):
        for p, (money, _turn, pot) in table.gndt().items():
            want[p] = want.get(p, 0) + money + pot
    got = _score_rows(answer[0])
    assert sorted(got) == sorted((p, m) for p, m in want.items() if m > 0)
    assert [c for c in t.comments() if c.author == "Dealer"][-1].parent_id is not None  # a reply
    t.run()
    assert t.new_dealer() == []  # answered once
    said = t.act("alice", "SCORE/L")
    assert any("SCORE/L" in b for b in said), said
    assert audit(t.engine, t.state)[1] == []
