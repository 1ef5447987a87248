"""Mentions never turn one's own action into an attempt to act for another player; the tag
variants players write get an answer; roberts-nlhe's bare actions act as its ruleset says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nomicpoker.core.reading.grammar import GrammarError, Intent, NoAction, parse_comment

from kits.tables.bot import Table


def rr_table(tmp_path, **settings) -> Table:
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="nlhe", settings={"reminders": 0, **settings})
    t.start(ante=0, blinds=(1, 2))  # button carol acts first: 2 to call
    t.new_dealer()
    return t


@pytest.mark.parametrize("body", [
    "HAND1 ROUND1 call. Your move, bob!",
    "HAND1 ROUND1 call\n\nbob, you are next",
    "bob bet big last time. HAND1 ROUND1 call",
    "Sorry bob! HAND1 ROUND1 call",
    "HAND1 ROUND1 call (bob: good luck)",
    "carol: HAND1 ROUND1 call",                  # the author's own name is fine
    "@carol HAND1 ROUND1 call",
])
def test_mentioning_another_player_never_turns_ones_own_action_into_acting_for_them(tmp_path, body):
    t = rr_table(tmp_path)
    out = t.act("carol", body)
    v = t.verdicts()[-1]
    assert v.status == "accepted", (body, v.code, v.message)
    assert not any("cannot act for" in o for o in out)


@pytest.mark.parametrize("body", ["bob: HAND1 ROUND1 call", "Bob - HAND1 ROUND1 call",
                                  "for bob: HAND1 ROUND1 call", "on behalf of @bob HAND1 ROUND1 call",
                                  "b\u043eb: HAND1 ROUND1 call"])
def test_naming_another_player_as_whose_action_it_is_is_refused(tmp_path, body):
    t = rr_table(tmp_path)
    t.act("carol", body)
    v = t.verdicts()[-1]
    assert v.status == "rejected" and v.code == "not_player_action", body
    assert "cannot act for bob" in v.message


@pytest.mark.parametrize("body", ["HAND1 R1 raise 10", "HAND-1 ROUND-1 raise 10", "HAND1 RND1 raise 10",
                                  "HAND1 Rd. 1 raise 10", "Hand: 1, Round: 1, raise 10", "HAND_1 ROUND_1 raise 10"])
def test_tag_variants_read_as_the_tags(body: str) -> None:
    assert replace(parse_comment(body), text="") == Intent("raise", hand=1, round=1, amount=10)


@pytest.mark.parametrize("body", ["HAND1 I raise 10", "HAND1 RUND1 raise 10", "HAND1 now call",
                                  "HAND#1 Rnd one call"])
def test_an_action_word_right_after_a_hand_tag_in_the_wrong_shape_is_answered(body: str) -> None:
    r = parse_comment(body)
    assert isinstance(r, GrammarError) and r.code == "unparseable", (body, r)
    assert "HANDx ROUNDy raise Z" in r.message


@pytest.mark.parametrize("body", ["HAND1 was fun, I fold next time", "hand 1 I raise", "in hand 3 I called"])
def test_a_hand_tag_in_chat_with_an_action_word_far_behind_stays_chat(body: str) -> None:
    assert parse_comment(body) == NoAction()


# --- roberts-nlhe: "An action need not name its hand and round" --------------------------------

def test_bare_actions_act_under_roberts_nlhe(tmp_path):
    t = rr_table(tmp_path)
    t.act("carol", "call")
    t.act("alice", "I call.")
    out = t.act("bob", "raise 4")
    assert [v.status for v in t.verdicts()[-3:]] == ["accepted"] * 3
    assert any("bob raises 4" in o or "raise" in o for o in out)


def test_a_bare_action_out_of_turn_is_answered_and_chat_with_action_words_is_not(tmp_path):
    t = rr_table(tmp_path, advance_actions=False)
    out = t.act("alice", "fold")
    v = t.verdicts()[-1]
    assert v.status == "rejected" and v.code == "not_your_turn" and out
    t.act("alice", "I call bullshit on that raise")
    assert t.verdicts()[-1].status == "chat"


def test_a_bare_fold_out_of_turn_is_an_advance_action_where_the_table_takes_them(tmp_path):
    t = rr_table(tmp_path)  # roberts-nlhe: advance actions on by default (issue 14)
    out = t.act("alice", "fold")
    v = t.verdicts()[-1]
    # kept for alice's turn with the meaning it has there (issue 22: one reading whatever the
    # turn), not WRGPT's FOLD (check when free)
    assert v.status == "accepted" and v.canonical == "folds" and any("advance action" in b for b in out)
    t.act("alice", "I call bullshit on that raise")
    assert t.verdicts()[-1].status == "chat"


def test_a_bare_word_from_someone_not_at_the_table_is_chat(tmp_path):
    from nomicpoker.shell.jobs.demo import Player
    t = rr_table(tmp_path)
    Player("zed", t.forum, t.thread).say("call")
    t.run()
    assert t.verdicts()[-1].status == "chat"
    assert t.new_dealer() == []


def test_bare_actions_are_chat_under_blognomic(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start()
    t.new_dealer()
    t.act("alice", "fold")
    assert t.verdicts()[-1].status == "chat"
