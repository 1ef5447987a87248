"""PHH as PokerKit writes it: hands PokerKit plays and writes replay through our engine.

The independent reference is PokerKit itself (a test-only dependency): it plays random hands
(tests/kits/references/pokerkit_hands.py), writes them with its own PHH writer, and its finishing stacks are
what our replay must reach. Where PokerKit departs from Robert's Rules the engine keeps to the
rules, and the hand must be explained by the rule it turns on (the kit finds the first action
the two treat differently); a hand nothing explains fails the test with its seed.
"""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("pokerkit")

from kits.references import pokerkit_hands as kit  # noqa: E402  (tests/ is on sys.path: pyproject.toml)
from nomicpoker.core.phh.phh import parse_phh, replay  # noqa: E402
from nomicpoker.shell.storage.rulesets import load_ruleset  # noqa: E402

RR = load_ruleset("roberts-nlhe")


def test_random_pokerkit_hands_match_or_depart_by_a_named_rule():
    # a few hundred hands from one seed: every one matches its finishing stacks or is
    # explained by the rule it turns on; each departure is seen at least once (so the
    # classifier is exercised, not idle)
    counts = kit.explained_census("ci", 300)
    assert counts["matched"] >= 250
    assert set(counts) == {"matched", *kit.DEPARTURES}, counts


def test_the_quoted_rule_sentences_are_the_rulesets_own_words():
    text = kit._rule_sentences()
    for rule, sentence in kit.DEPARTURES.values():
        assert re.sub(r"\s+", " ", sentence) in text, (rule, sentence)


def test_the_classifier_fails_a_hand_that_neither_matches_nor_departs_by_rule():
    # adversarial: a hand that matched, with one chip moved between two recorded stacks, is
    # unexplained: no rule turns on it (an odd-chip-sized difference between players who tied
    # for nothing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = next(g for g in (kit.generate("adv", i) for i in range(50))
                 if kit.classify(g).kind == "matched")
    fs = re.search(r"finishing_stacks = \[(.*)\]", g.text)
    stacks = [int(x) for x in fs.group(1).split(", ")]
    i = next(k for k, s in enumerate(stacks) if s > 0)
    j = (i + 1) % len(stacks)
    stacks[i] -= 1
    stacks[j] += 1
    bad = g.text.replace(fs.group(0), f"finishing_stacks = [{', '.join(map(str, stacks))}]")
    v = kit.classify(kit.Generated(bad, g.views, g.antes, g.label))
    assert v.kind == "unexplained", v


# --- the redundant check PokerKit records (hands written by PokerKit 0.7.7) ------------

EXACT_BIG_BLIND_CALL = """variant = 'NT'
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [50, 50, 2]
actions = ['d dh p1 AcAd', 'd dh p2 KhKs', 'd dh p3 7c2d', 'p3 cc', 'p1 f', 'p2 cc', 'p3 sm 7c2d', 'p2 sm KhKs', 'd db 2c3c4h', 'd db 9s', 'd db Td']
finishing_stacks = [49, 53, 0]
"""
# p3 (the button) calls all in for exactly the big blind, p1 folds his small blind: p2, the
# big blind, has matched the only other player left, who is all in. PokerKit still asks him
# and records 'p2 cc'; the engine has closed the betting. p2's kings win 2 + 2 + 1 = 5.


def test_the_big_blinds_check_after_an_all_in_call_of_exactly_the_blind_replays():
    o = replay(parse_phh(EXACT_BIG_BLIND_CALL), RR)
    assert o.status == "matched", o
    assert o.got == (49, 53, 0)


def test_a_check_is_skipped_only_when_the_player_has_nothing_to_decide():
    # the same hand, with a check nobody asked for: after the round closed with two players
    # holding chips (p1 called instead of folding), p1's extra check is refused
    text = EXACT_BIG_BLIND_CALL.replace("'p1 f', 'p2 cc',", "'p1 cc', 'p2 cc', 'p1 cc',")
    o = replay(parse_phh(text), RR)
    assert o.status == "error" and o.action_index == 6, o
    assert "betting_closed" in o.reason
    # a folded player's check is refused too, even when the one player left with chips
    # would have nothing to decide
    text = EXACT_BIG_BLIND_CALL.replace("'p2 cc',", "'p1 cc',")
    o = replay(parse_phh(text), RR)
    assert o.status == "error" and o.action_index == 5, o


# --- antes: ante_trimming_status = false means dead antes (PokerKit's reading) ---------

DEAD_ANTES = """variant = 'NT'
ante_trimming_status = false
antes = [5, 5, 5]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 3]
actions = ['d dh p1 KcKd', 'd dh p2 QhQs', 'd dh p3 AcAd', 'p1 cc', 'p2 cc', 'd db 2c3d7h', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db Td', 'p1 cc', 'p2 cc', 'p1 sm KcKd', 'p2 sm QhQs', 'p3 sm AcAd']
finishing_stacks = [97, 93, 13]
"""
# p3 is all in on a short ante (3 of 5). Untrimmed antes are dead money in the main pot:
# 5 + 5 + 3 = 13, which p3's aces win; the blinds (2 + 2) are a pot for p1 and p2 alone,
# which p1's kings win: p1 100 - 7 + 4 = 97, p2 93, p3 13. (Live antes would give p3 3 x 3.)


def test_untrimmed_antes_are_dead_money_that_a_player_all_in_on_the_ante_contests():
    o = replay(parse_phh(DEAD_ANTES), RR)
    assert o.status == "matched", o
    # trimmed (live) antes: p3 wins 3 from each (9), p1 the rest he and p2 put in (2 x 4)
    live = replay(parse_phh(DEAD_ANTES.replace("ante_trimming_status = false",
                                               "ante_trimming_status = true")), RR)
    assert live.got == (101, 93, 9), live
