"""``nomicpoker demo``: the README's main command runs on a fresh state, twice, and verifies."""

from __future__ import annotations

from typer.testing import CliRunner

from nomicpoker.cli import app


def test_the_demo_plays_a_full_hand_and_its_hand_verifies(tmp_path):
    state = tmp_path / "state"
    run = CliRunner().invoke
    res = run(app, ["demo", "--state", str(state)])
    assert res.exit_code == 0, res.output
    out = res.output
    # the scripted rejections and the quoted action
    assert "`check_before_flop`" in out and "`not_your_turn`" in out
    assert "Quoting alice's joke does not act." in out
    for step in ("**Flop**", "**Turn**", "**River**", "betting is over", "Hand #1 is over",
                 "Shown hands:", "Secrets of this hand"):
        assert step in out, step
    assert "| **Total** | 400 |" in out  # Money is conserved: 4 x 100
    # the all-in on the flop: Dealing and Play keeps the hands hidden until the reveals, so the
    # payout recounts each player's chances before the turn and the river (issue 25)
    assert "The all-in, recounted now that every card is public:" in out
    assert "Chances before the turn, over all 1,176 turns and rivers from the Dealer's 49 cards" in out
    assert "Chances before the river, over all 48 rivers" in out
    assert out.index("**River**") < out.index("Chances before the turn")
    # the auditors' site: the hand page with the rejected check and its rule sentence
    page = (state / "site" / "demo" / "hand-1.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "check_before_flop" in page
    assert "No Player may Check before the Flop." in page
    # the summary opens the page, then the replayer (its data and its script), then the verdicts
    assert page.index('id="summary"') < page.index('id="replay"') < page.index('id="verdicts"')
    assert 'id="replay-data"' in page and (state / "site" / "replayer.js").exists()
    # the verdicts, in words
    assert "alice: rejected check_before_flop:" in out and "accepted: alice raises" in out
    assert "nomicpoker audit verify" in out
    res = run(app, ["audit", "verify", "--table", "demo", "--hand", "1", "--state", str(state)])
    assert res.exit_code == 0 and "FAIL" not in res.output, res.output
    res = run(app, ["audit", "--state", str(state)])
    assert res.exit_code == 0, res.output


def test_running_the_demo_twice_uses_a_fresh_table(tmp_path):
    state = tmp_path / "state"
    run = CliRunner().invoke
    assert run(app, ["demo", "--state", str(state)]).exit_code == 0
    res = run(app, ["demo", "--state", str(state)])
    assert res.exit_code == 0, res.output
    assert "--table demo-2" in res.output
    res = run(app, ["table", "list", "--state", str(state)])
    assert res.output.splitlines()[0].startswith("demo\t") and res.output.splitlines()[1].startswith("demo-2\t")


def test_the_demo_with_players_entropy_records_and_verifies_it(tmp_path):
    """``nomicpoker demo --entropy``: the Dealer commits, three players comment in the window
    (one stays silent), the hand is dealt from both and its record verifies the entropy."""
    import json

    state = tmp_path / "state"
    run = CliRunner().invoke
    res = run(app, ["demo", "--entropy", "--state", str(state)])
    assert res.exit_code == 0, res.output
    assert "the Dealer's commitments, fixed before any entropy for this hand exists" in res.output
    assert "Dealt from the commitments above mixed with players' entropy from 3 comments" in res.output
    res = run(app, ["audit", "export", "--table", "demo", "--hand", "1", "--state", str(state)])
    rec = json.loads(res.output)
    assert [c["author"] for c in rec["entropy"]["contributions"]] == ["alice", "bob", "carol"]
    assert rec["secrets"] is not None
    path = tmp_path / "hand-1.json"
    path.write_text(res.output)
    res = run(app, ["audit", "verify", "--record", str(path)])
    assert res.exit_code == 0 and "FAIL" not in res.output, res.output
    assert "PASS demo hand 1: entropy: mode players: 3 comments" in res.output
    assert "PASS demo hand 1: board card 5 (river)" in res.output
    res = run(app, ["audit", "verify", "--table", "demo", "--state", str(state)])
    assert res.exit_code == 0 and "entropy window complete" in res.output, res.output
    res = run(app, ["audit", "--state", str(state)])
    assert res.exit_code == 0, res.output
