"""Every kind of hand recorded as it happened (issue 21): each hand kind the suites produce is
exported to PHH (``phh export``, and the site's ``hand-<n>.phh``), loaded in PokerKit (an
independent implementation), played through, and its finishing stacks compared with the
public record's (each seat's starting Money, less the chips its steps put in, plus its
payout). Folds applied out of turn (a Hole Card Draw deadline, a vacation, the Dealer's ``hand
fold``) are written where PHH's turn reaches the player: before, a deadline fold-out was
written ``p2 f``, ``p1 f`` and PokerKit answered "Unable to repair the hand history". A voided
hand has no PHH file; its page says why, as do ``phh export`` and the table page."""

from __future__ import annotations

import json
import warnings
from datetime import timedelta

import pytest
from pokerkit import HandHistory
from sqlmodel import Session
from typer.testing import CliRunner

from kits.tables.bot import Table
from kits.tables.game import _to_act, advance_table, order_from_turn
from nomicpoker.cli import app
from nomicpoker.shell.storage import ledger

run = CliRunner().invoke


def _record(t: Table, n: int) -> dict:
    res = run(app, ["audit", "export", "--table", t.name, "--hand", str(n), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def _final(rec: dict) -> dict[str, int]:
    out = {s["player"]: s["money"] for s in rec["seats"]}
    for a in rec["actions"]:
        out[a["player"]] -= a["chips"]
    for p, v in (rec["payouts"] or {}).items():
        out[p] += v
    return out


def loads_in_pokerkit(t: Table, n: int) -> None:
    """The hand's PHH loads in PokerKit and finishes with the record's stacks.

    A hand PHH cannot express exactly (``_nomicpoker_exact = false``: blognomic-2008's own
    decks, no side pots, destroyed odd chips, at least one hole card playing) is compared as
    far as PokerKit can play it: every chip bet is the same, so a player who folded (or was
    folded out) finishes with the record's stack, the pot is shared among the players who
    reached the showdown with no chip made or lost but those the rules destroyed, and, when one
    player was left (nothing to rank, nothing to split), every stack is the record's; the PHH's
    own ``finishing_stacks`` are always the record's."""
    import tomllib

    rec = _record(t, n)
    assert rec["payouts"] is not None, "the hand has ended"
    res = run(app, ["phh", "export", "--table", t.name, "--hand", str(n), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    hh = HandHistory.loads(res.output)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "There is no reason for this player to fold"
        states = list(hh)
    final = dict(zip(hh.players, states[-1].stacks))
    ours = _final(rec)
    assert dict(zip(hh.players, hh.finishing_stacks)) == ours
    folded = {p for p, out in zip(hh.players, states[-1].statuses) if not out}
    if tomllib.loads(res.output)["_nomicpoker_exact"] or len(folded) == len(hh.players) - 1:
        assert final == ours, (res.output, final)
        return
    assert {p: final[p] for p in folded} == {p: ours[p] for p in folded}, (res.output, final)
    assert sum(final.values()) == sum(ours.values()) + int(rec.get("destroyed") or 0), (res.output, final)


def _ended(t: Table, n: int) -> bool:
    with Session(t.engine) as s:
        return any(e.hand == n for e in ledger.stored_rows(s, t.name, "hand_end"))


def finish(t: Table, n: int) -> None:
    """Check (or fold, where a check is refused) to the end, then reveal what was dealt."""
    for _ in range(40):
        if _ended(t, n):
            return
        try:
            who = _to_act(t)
        except StopIteration:  # the showdown: everyone still in shows the cards dealt to them
            for p in t.players:
                hole = [m.body for m in t.forum.inbox(p) if f"hand {n}," in m.body.split("\n", 1)[0]]
                if hole and not _ended(t, n):
                    t.act(p, f"HAND{n} reveal " + hole[-1].split("(")[1].split(")")[0])
            continue
        t.act(who, "check")
        if not _ended(t, n) and who in [p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x"]:
            t.act(who, "fold")
    raise AssertionError(f"hand {n} did not end")


def _started_at(t: Table):
    from datetime import datetime

    with Session(t.engine) as s:
        return datetime.fromisoformat(ledger.hand_rows(s, t.name)[-1].started_at)


def test_a_draw_deadline_that_folds_out_all_but_one(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)
    t.draw(1, who=("carol",))
    due = _started_at(t) + timedelta(hours=30)
    assert t.poll(now=lambda: due).ok
    loads_in_pokerkit(t, 1)


def test_a_draw_deadline_that_folds_out_the_second_to_act_before_the_first_acts(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)  # button carol: alice, bob, carol
    t.draw(1, who=("alice", "carol"))
    due = _started_at(t) + timedelta(hours=30)
    assert t.poll(now=lambda: due).ok  # bob folded out
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("carol", "HAND1 ROUND1 fold")
    loads_in_pokerkit(t, 1)


def test_a_betting_deadline_that_folds_the_player_to_act(tmp_path):
    """roberts-nlhe: the turn's deadline passes, and the Dealer folds the player facing the big
    blind at his own turn (written where it happened); the others play on to the showdown."""
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              deadline_hours=24)
    t.start(ante=0, blinds=(1, 2))
    late = _to_act(t)
    due = _started_at(t) + timedelta(hours=30)
    assert t.poll(now=lambda: due).ok
    with Session(t.engine) as s:
        steps = [(a.player, a.event, a.cause) for a in ledger.stored_rows(s, t.name, "action")]
    assert (late, "fold") in [(p, e) for p, e, _ in steps], steps
    finish(t, 1)
    loads_in_pokerkit(t, 1)


def test_the_dealers_hand_fold_mid_round_and_an_advance_action(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    t.forum.send_private_as(third, t.forum.dealer, "advance (T)", "CALL *")
    t.run()
    res = run(app, ["hand", "fold", "--table", "T", "--player", second, "--note", "asked to leave",
                    "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.run()
    t.act(first, "raise 6")  # third's advance action calls; second was folded out of turn
    finish(t, 1)
    loads_in_pokerkit(t, 1)


def test_a_vacation_and_a_protest(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    t.act(second, "GONE")  # on vacation: the dealer checks or folds for him at his turns
    t.act(third, "PROTEST the blinds were posted wrong")
    res = run(app, ["table", "resume", "--table", "T", "--note", "the blinds were right", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.run()
    t.act(first, "raise 6")
    t.act(_to_act(t), "fold")
    if not _ended(t, 1):
        t.act(_to_act(t), "fold")
    loads_in_pokerkit(t, 1)


def test_side_pots_at_the_showdown(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    first = _to_act(t)
    t.act(first, "raise 30")  # hand 1: the others fold; stacks now differ
    t.act(_to_act(t), "fold")
    t.act(_to_act(t), "fold")
    loads_in_pokerkit(t, 1)
    t.start(ante=0, blinds=(1, 2))
    for _ in range(3):  # everyone all in: a main pot and a side pot
        t.act(_to_act(t), "all in")
        if _ended(t, 2):
            break
    finish(t, 2)
    rec = _record(t, 2)
    assert len({s["money"] for s in rec["seats"]}) > 1  # stacks differ: a side pot
    loads_in_pokerkit(t, 2)


def test_a_hand_under_an_amended_ruleset(tmp_path):
    from kits.tables.game import _amended_hand

    t = _amended_hand(tmp_path)
    rec = _record(t, 1)
    assert rec["ruleset"] == "blognomic-p1"
    loads_in_pokerkit(t, 1)  # blognomic: not exact, marked so, and compared as far as it goes


def test_a_voided_hand_reads_as_voided_and_offers_no_phh_saying_why(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    res = run(app, ["hand", "void", "--table", "T", "--note", "a misdeal", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.run()
    res = run(app, ["phh", "export", "--table", "T", "--hand", "1", "--state", str(t.state)])
    assert res.exit_code == 1 and "voided" in res.output and "PHH cannot express" in res.output
    www = tmp_path / "www"
    assert run(app, ["site", "build", "--out", str(www), "--state", str(t.state)]).exit_code == 0
    page = (www / "T" / "hand-1.html").read_text()
    assert not (www / "T" / "hand-1.phh").exists() and "no PokerKit/PHH file: the Dealer voided" in page
    assert "Voided by the Dealer: a misdeal" in page
    assert "alice</bdi> got back 15" in page and "carol</bdi> got back 5" in page
    assert "No showdown: the Dealer voided the hand" in page and "everyone else folded" not in page
    assert "No community cards were dealt before the void" in page and "HAND1 ROUND1 raise 10" in page
    table = (www / "T" / "index.html").read_text()
    assert "voided by the Dealer: a misdeal" in table and "ended: <" not in table


@pytest.mark.parametrize("kind", ["blognomic", "roberts"])
def test_the_shared_games_load_in_pokerkit(tmp_path, kind):
    from kits.tables.game import blognomic_game, roberts_game

    t = blognomic_game(tmp_path) if kind == "blognomic" else roberts_game(tmp_path)
    with Session(t.engine) as s:
        numbers = [h.number for h in ledger.hand_rows(s, t.name)]
    for n in numbers:  # blognomic: marked inexact (own decks, chips added), compared as far as it goes
        loads_in_pokerkit(t, n)
