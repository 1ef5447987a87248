"""Every hint the CLI prints is a command that works at that moment (issue 22): the demo's
first suggested command posted an action to hand 1, which was over ("rejected hand_over"),
and init's hint dropped the ``--state`` it was given. Here a table's life is driven by its
hints alone: each ``next:`` line (and the demo's "Next, try:" list) is run exactly as printed
through the real CLI, must exit 0 and do what it says, and the hints it prints are run in
turn."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from nomicpoker.cli import app

runner = CliRunner()


def hints(output: str) -> list[str]:
    """The commands an output suggests: its ``next:`` lines and the demo's "Next, try:" list."""
    out, listing = [], False
    for line in output.splitlines():
        if line.startswith("next: "):
            out.append(line.removeprefix("next: "))
        elif line.strip() == "Next, try:":
            listing = True
        elif listing and line.startswith("  nomicpoker "):
            out.append(line.strip())
        else:
            listing = False
    return out


def run(hint: str):
    argv = shlex.split(hint, comments=True)
    assert argv[:1] == ["nomicpoker"], hint
    res = runner.invoke(app, argv[1:])
    assert res.exit_code == 0, (hint, res.output)
    return res


def verdicts(state: Path) -> list[tuple[str, str, str]]:
    con = sqlite3.connect(state / "ledger.db")
    try:
        return con.execute("SELECT author, status, code FROM np_verdict ORDER BY id").fetchall()
    finally:
        con.close()


def kind(hint: str) -> str:
    """The command a hint runs, without its options and arguments (``hand start``)."""
    words = []
    for w in shlex.split(hint, comments=True)[1:]:
        if w.startswith("-") or not w.isalpha():
            break
        words.append(w)
    return " ".join(words)


def follow(first: str, state: Path, limit: int = 30) -> list[str]:
    """Run ``first`` and every hint printed after it, in order; return the commands run. A
    comment posted by a hint must be accepted by the poll that follows it."""
    queue, done = [first], []
    while queue and len(done) < limit:
        hint = queue.pop(0)
        before = len(verdicts(state)) if (state / "ledger.db").exists() else 0
        res = run(hint)
        done.append(hint)
        if " poll" in hint and done[-2:-1] and " forum post " in done[-2]:
            new = verdicts(state)[before:]
            assert new and all(status == "accepted" for _, status, _ in new), (done[-2], new)
        queue += hints(res.output)
    return done


def test_init_and_a_tables_life_run_on_their_hints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "my state"  # a space: each hint must quote it
    done = follow(f"nomicpoker init --state {shlex.quote(str(state))}", state)
    assert [kind(h) for h in done] == ["init", "table create", "hand start", "forum post", "poll"], done
    assert all(str(state) in shlex.split(h) for h in done[1:]), done


def test_the_demo_and_the_hand_after_it_run_on_their_hints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "demo state"
    done = follow(f"nomicpoker demo --state {shlex.quote(str(state))}", state)
    assert [kind(h) for h in done] == ["demo", "forum show", "verdicts", "ledger", "audit", "audit export",
                                       "audit verify", "phh export", "hand start", "forum post", "poll"], done
    assert (tmp_path / "hand-1.json").is_file() and (tmp_path / "hand-1.phh").is_file()
    audited = runner.invoke(app, ["audit", "--state", str(state)])
    assert audited.exit_code == 0 and "identical" in audited.output, audited.output
    con = sqlite3.connect(state / "ledger.db")
    try:
        assert [n for (n,) in con.execute("SELECT number FROM np_hand ORDER BY number")] == [1, 2]
    finally:
        con.close()


def test_a_roberts_table_hints_an_action_of_the_player_to_act(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "state"
    create = (f"nomicpoker table create --name R --players alice,bob,carol --ruleset roberts-nlhe "
              f"--blinds 1,2 --state {shlex.quote(str(state))}")
    done = follow(create, state)
    assert [kind(h) for h in done] == ["table create", "hand start", "forum post", "poll"], done
    assert "ROUND1 call" in done[2], done
