"""The public hand record holds the money: every step with the chips it put in, the forced
bets, the payouts; ``audit verify`` replays it through the rules and a tampered bet or payout
fails naming the item."""

from __future__ import annotations

import json

from sqlmodel import Session
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage import ledger

from kits.tables.game import HOSTILE, blognomic_game, roberts_game


def record(t, number):
    with Session(t.engine) as s:
        return ledger.hand_record(s, ledger.get_table(s, t.name), number)


def verify_file(tmp_path, rec):
    p = tmp_path / "rec.json"
    p.write_text(json.dumps(rec))
    return CliRunner().invoke(app, ["audit", "verify", "--record", str(p)])


def test_the_record_holds_every_step_and_the_money_adds_up(tmp_path):
    t = blognomic_game(tmp_path)
    rec = record(t, 1)
    words = [a["words"] for a in rec["actions"]]
    # Written here from the game script, not from the code: antes, the raise of 10 (chips
    # added under blognomic-2008), the call, bob's fold (his rejected check is no step),
    # three rounds of checks, two reveals.
    assert words[:3] == ["alice posts 5", f"{HOSTILE} posts 5", "bob posts 5"]
    assert words[3:6] == ["alice raises 10", f"{HOSTILE} calls 10", "bob folds"]
    assert words[6:12] == ["alice checks", f"{HOSTILE} checks"] * 3
    assert [w.split(" shows ")[0] for w in words[12:]] == ["alice", HOSTILE]
    chips = sum(a["chips"] for a in rec["actions"])
    assert chips == 5 * 3 + 10 * 2 == 35
    # Conservation: what went in came out (odd chips destroyed included), and the GNDT
    # money after hand 1 is the start minus the chips in plus the payouts.
    assert sum(rec["payouts"].values()) + rec["destroyed"] == chips
    start = {s["player"]: s["money"] for s in rec["seats"]}
    rec2 = record(t, 2)
    after1 = {s["player"]: s["money"] for s in rec2["seats"]}
    for p in start:
        put = sum(a["chips"] for a in rec["actions"] if a["player"] == p)
        assert after1[p] == start[p] - put + rec["payouts"].get(p, 0), p
    # Each accepted comment's step names it, with its time and its cause (the permalink).
    raise_step = rec["actions"][3]
    assert raise_step["comment_id"] and raise_step["at"] and raise_step["cause"].endswith(raise_step["comment_id"])
    # Hand 2: won uncontested; the winner is paid the whole pot.
    assert sum(rec2["payouts"].values()) == sum(a["chips"] for a in rec2["actions"])


def test_a_tampered_bet_or_payout_fails_naming_the_item(tmp_path):
    t = blognomic_game(tmp_path)
    rec = record(t, 1)
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 0, res.output
    assert "PASS T hand 1: action 4 (alice raise 10): 10 chips into the pot" in res.output
    assert "PASS T hand 1: payout" in res.output and "PASS T hand 1: destroyed" in res.output

    def tampered(change):
        bad = json.loads(json.dumps(rec))
        change(bad)
        res = verify_file(tmp_path, bad)
        assert res.exit_code == 1
        return [ln for ln in res.output.splitlines() if ln.startswith("FAIL")]

    winner = max(rec["payouts"], key=rec["payouts"].get)
    # the chips of a call
    failed = tampered(lambda r: r["actions"][4].__setitem__("chips", 12))
    assert failed == [f"FAIL T hand 1: action 5 ({HOSTILE} call): expected 10 chips into the pot, found 12"]
    # the amount of a raise: the replay puts in 12 where the record says 10
    failed = tampered(lambda r: r["actions"][3].__setitem__("amount", 12))
    assert any("action 4 (alice raise 12): expected 12 chips into the pot, found 10" in ln for ln in failed)
    # a payout
    failed = tampered(lambda r: r["payouts"].__setitem__(winner, r["payouts"][winner] + 1))
    assert any(f"payout {winner}: expected" in ln for ln in failed), failed
    # a step the rules refuse: bob checks before the flop
    failed = tampered(lambda r: r["actions"][5].__setitem__("event", "check"))
    assert any("action 6 (bob check): the rules refuse this step here: check_before_flop" in ln for ln in failed)
    # an ante
    failed = tampered(lambda r: r["actions"][0].__setitem__("chips", 4))
    assert any("forced bet alice: expected 5" in ln for ln in failed)


def test_a_roberts_hand_record_replays_its_blinds_raises_and_side_of_the_pot(tmp_path):
    t = roberts_game(tmp_path)
    rec = record(t, 1)
    posts = {a["player"]: a["chips"] for a in rec["actions"] if a["event"] == "post"}
    assert sorted(posts.values()) == [1, 2]
    assert any(w.endswith("raises to 6") for w in (a["words"] for a in rec["actions"]))
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 0, res.output
    assert sum(rec["payouts"].values()) == sum(a["chips"] for a in rec["actions"]) == 6 + 6 + 2 + 4 + 4
