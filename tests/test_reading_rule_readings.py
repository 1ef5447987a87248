"""A short reveal is a wrong count (not a false reveal, and not announced as one at the payout);
Dealer commands refuse out-of-range numbers with one line before anything is posted or written."""

from __future__ import annotations

import pytest

from nomicpoker.shell import service
from nomicpoker.shell.store import open_engine

from _bot_kit import Table


def _to_showdown(t: Table) -> None:
    t.act("carol", "HAND1 ROUND1 call")
    t.act("alice", "HAND1 ROUND1 call")
    t.act("bob", "HAND1 ROUND1 check")
    for r in (2, 3, 4):
        for p in ("alice", "bob", "carol"):
            t.act(p, f"HAND1 ROUND{r} check")


def test_revealing_one_real_hole_card_of_two_is_a_wrong_count_not_a_false_reveal(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="nlhe")
    t.start(ante=0, blinds=(1, 2))  # alice is dealt Jh Kh (see test_bot_roberts)
    t.new_dealer()
    _to_showdown(t)
    out = t.act("alice", "HAND1 reveal Jh")
    v = t.verdicts()[-1]
    assert v.code == "wrong_card_count" and "2 hole cards, not 1" in v.message
    assert len(out) == 1 and "false_reveal" not in out[0]
    t.act("alice", "HAND1 reveal Jh Kh")
    t.act("bob", "HAND1 reveal 4c 5s")
    pay = t.act("carol", "HAND1 reveal Th 3s")[-1]
    assert "false reveal" not in pay


def _engine(tmp_path):
    return open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")


@pytest.mark.parametrize("money", [0, -1, 10**12, 99999999999999999999])
def test_table_create_refuses_money_out_of_range(tmp_path, money):
    with pytest.raises(service.ServiceError) as e:
        service.create_table(_engine(tmp_path), tmp_path, "T", ["alice", "bob"], money)
    assert e.value.code == "bad_money" and "\n" not in str(e.value)


@pytest.mark.parametrize("hours", [0, 10**6, 99999999999999999999])
def test_table_create_refuses_deadline_out_of_range(tmp_path, hours):
    with pytest.raises(service.ServiceError) as e:
        service.create_table(_engine(tmp_path), tmp_path, "T", ["alice", "bob"], 100, deadline_hours=hours)
    assert e.value.code == "bad_deadline"


@pytest.mark.parametrize("ante,blinds,code", [
    (99999999999999999999, (), "bad_ante"), (-1, (), "bad_ante"),
    (0, (2, 1), "bad_blinds"), (0, (1, 99999999999999999999), "bad_blinds"),
])
def test_hand_start_refuses_numbers_out_of_range_before_posting_anything(tmp_path, ante, blinds, code):
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    before = list(t.forum.threads())
    with pytest.raises(service.ServiceError) as e:
        service.start_hand(t.engine, t.state, t.name, ante, blinds=blinds)
    assert e.value.code == code and "\n" not in str(e.value)
    assert list(t.forum.threads()) == before  # no story post announcing the refused start
    t.start(ante=0, blinds=(1, 2))  # and a correct start still works
