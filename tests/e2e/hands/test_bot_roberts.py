"""The bot deals a roberts-nlhe table (one shared deck, blinds): hole cards from the dealer's
committed deck, sent privately; blinds from ``hand start --blinds``; reveals checked against
the dealt cards without leaking them; the hand verifies from its public record.

Fixed secrets ("nlhe:1") deal, as the players read in their inboxes and the thread shows:
alice J♥ K♥, bob 4♣ 5♠, carol 10♥ 3♠; board J♦ 4♦ A♣ A♠ 7♥. Worked out by hand: alice has
two pair, aces and jacks (A A J J K); bob aces and fours (A A 4 4 J); carol one pair of aces
(A A J 10 7). Alice wins.
"""

from __future__ import annotations

import json

from sqlmodel import Session

from nomicpoker.shell.storage import ledger
from nomicpoker.core.fairness.verify import verify_record

from kits.tables.bot import Table
from kits.references.fair_dealing import REF


def record(t: Table, number: int) -> dict:
    with Session(t.engine) as s:
        return ledger.hand_record(s, ledger.get_table(s, t.name), number)


def test_a_roberts_nlhe_hand_is_dealt_from_the_committed_deck_and_verifies(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="nlhe")
    t.start(ante=0, blinds=(1, 2))  # button carol: alice posts 1, bob 2; pot 3
    story = next(th for th in t.forum.threads() if th.ref == t.thread)
    assert "Ante: 0. Blinds: 1/2. Seated: alice, bob, carol." in story.body
    start, notice = t.new_dealer()
    assert "Blinds 1/2: collected from 3 seated players, the pot is 3." in start
    assert "DICE52" not in start and "sent to them privately" in start
    assert "the community cards and every hole card" in start
    # Three-handed, the button acts first before the flop: carol, 2 to call.
    assert "**carol** to act, 2 to call. Pot: 3." in notice
    # The premises above, recomputed independently from the committed deck secret by the
    # reference implementation in docs/fair-dealing.md (one shared deck: board first, then one
    # card at a time from the first after the button, alice, round to the button, carol).
    ref_holes = REF["holes"](t.hands[1].deck, 1, ["alice", "bob", "carol"])
    assert ref_holes == {"alice": ["Jh", "Kh"], "bob": ["4c", "5s"], "carol": ["Th", "3s"]}
    assert REF["board"](t.hands[1].deck, 1) == ["Jd", "4d", "Ac", "As", "7h"]
    hole = {p: t.forum.inbox(p)[0].body for p in t.players}
    assert "alice: J♥ K♥ (Jh Kh)" in hole["alice"] and "bob: 4♣ 5♠ (4c 5s)" in hole["bob"]
    assert "carol: 10♥ 3♠ (Th 3s)" in hole["carol"]
    for body in t.dealer_bodies():  # nobody's hole cards in the thread
        assert "Jh Kh" not in body and "J♥ K♥" not in body

    # A Hole Card Draw has no place here.
    out = t.act("carol", "HAND#1 DICE52 DICE52")
    assert len(out) == 1 and "`already_dealt`" in out[0]

    t.act("carol", "HAND1 ROUND1 call")    # carol 2: pot 5
    t.act("alice", "HAND1 ROUND1 call")    # alice 1 more: pot 6
    out = t.act("bob", "HAND1 ROUND1 check")  # the big blind's option: check; the flop
    assert out[0].startswith("bob checks. **Flop**: J♦ 4♦ A♣")
    for r, street in ((2, "Turn"), (3, "River"), (4, None)):
        t.act("alice", f"HAND1 ROUND{r} check")  # first after the button
        t.act("bob", f"HAND1 ROUND{r} check")
        out = t.act("carol", f"HAND1 ROUND{r} check")
        if street:
            assert f"carol checks. **{street}**" in out[0]
    call = out[0]
    assert "betting is over" in call and "board J♦ 4♦ A♣ A♠ 7♥, pot 6" in call

    # A false reveal is refused without naming the cards dealt.
    out = t.act("bob", "HAND1 reveal As Ad")
    assert len(out) == 1 and "`false_reveal`" in out[0]
    assert "4c" not in out[0] and "4♣" not in out[0] and "5♠" not in out[0]
    t.act("alice", "HAND1 reveal Jh Kh")
    t.act("bob", "HAND1 reveal 4c 5s")
    out = t.act("carol", "HAND1 reveal Th 3s")
    pay = out[-1]
    assert "Two Pair, Aces and Jacks" in pay and "Two Pair, Aces and Fours" in pay
    assert "Pot 6: alice wins 6." in pay
    assert "bob was dealt 4♣ 5♠ (a false reveal was rejected)." in pay  # told once it is over
    assert t.money() == {"alice": 104, "bob": 98, "carol": 98}

    rec = record(t, 1)
    assert rec["deal_order"] == ["alice", "bob", "carol"]
    checks = verify_record(rec)
    assert all(c.ok for c in checks), [c for c in checks if not c.ok]
    assert sum(c.item.startswith("reveal ") for c in checks) == 3
    bad = json.loads(json.dumps(rec))
    bad["reveals"][0]["cards"] = ["Ah", "Kh"]
    failed = [c for c in verify_record(bad) if not c.ok]
    assert len(failed) == 1 and failed[0].item == "reveal alice" and "expected Jh Kh" in failed[0].detail

    from nomicpoker.shell.audit.audit import audit
    assert audit(t.engine, t.state)[1] == []


def test_blinds_are_refused_where_they_do_not_fit_and_nothing_starts(tmp_path):
    import pytest

    from nomicpoker.shell.dealer import service

    t = Table(tmp_path, players=("alice", "bob"))  # blognomic-2008: antes only
    for blinds, needle in (((1, 2), "has no blinds"), ((0, 2), "positive")):
        with pytest.raises(service.ServiceError) as e:
            service.start_hand(t.engine, t.state, t.name, 5, blinds=blinds)
        assert needle in e.value.message
    r = Table(tmp_path / "r", players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    with pytest.raises(service.ServiceError) as e:
        service.start_hand(r.engine, r.state, r.name, 0, blinds=(1, 2, 4))
    assert "small and the big blind" in e.value.message
    with Session(t.engine) as s:
        assert ledger.hand_rows(s, t.name) == []
    with Session(r.engine) as s:
        assert ledger.hand_rows(s, r.name) == []
