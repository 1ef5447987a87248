"""A short reveal is a wrong count (not a false reveal, and not announced as one at the payout);
Dealer commands refuse out-of-range numbers with one line before anything is posted or written."""

from __future__ import annotations

import pytest

from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import Table


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


def test_amended_minimum_raise_without_blinds_opens_every_round_at_one_chip():
    """blognomic-2008 amended to min_raise = "previous_bet_or_raise" has no blinds and so no
    bring-in: the smallest bet of every round is one chip ("The smallest chip that may be
    wagered", Robert's no-limit rule 4), never 0; after a bet of 7 the smallest raise adds 7
    over the call (rule 3, "at least the size of the previous bet or raise")."""
    from dataclasses import replace

    from nomicpoker.core.poker.actions import Call, Check, DealBoard, Raise
    from nomicpoker.core.poker.engine import Rejection, apply, legal_actions, start_hand
    from nomicpoker.shell.storage.rulesets import load_ruleset

    rs = replace(load_ruleset("blognomic-2008"), min_raise="previous_bet_or_raise")
    h = start_hand(rs, 1, [("alice", 100), ("bob", 100), ("carol", 100)], "carol")
    boards = {2: ("2c", "3d", "4h"), 3: ("5s",), 4: ("9c",)}
    for rnd in (1, 2, 3, 4):
        if rnd > 1:
            h = apply(h, DealBoard(boards[rnd]))
        la = legal_actions(h)
        assert (la.player, la.raise_min) == ("alice", 1), rnd
        assert isinstance(apply(h, Raise("alice", 1, rnd, amount=0)), Rejection)
        h = apply(h, Raise("alice", 1, rnd, amount=7))
        la = legal_actions(h)
        assert (la.player, la.call, la.raise_min) == ("bob", 7, 14), rnd  # 7 to call + 7 more
        r = apply(h, Raise("bob", 1, rnd, amount=13))
        assert isinstance(r, Rejection) and r.code == "raise_too_small"
        h = apply(h, Call("bob", 1, rnd))
        h = apply(h, Call("carol", 1, rnd))
        assert not isinstance(h, Rejection)
    assert h.round == 5
