"""Dealer comments: each one carries the facts it must, escapes untrusted names, and ends with
a reference tag that survives Markdown and forum HTML.

Hands are built directly from the engine's frozen dataclasses (no engine logic is needed to
render), with amounts worked out by hand in each test.
"""

from __future__ import annotations

import dataclasses

import pytest

from nomicpoker.core.poker.engine import Hand, LegalActions, PotAward, Result, Seat
from nomicpoker.core.words.render import (
    TableView,
    call_for_reveals,
    dice_rolled,
    draw_accepted,
    edit_noted,
    find_tag,
    hand_start,
    payout,
    reference_tag,
    rejection,
    street,
    turn_notice,
)

from kits.references.render import (
    AFTER, D_AND_P, NLHE, PLAYERS, TABLE, flop_hand, fresh_hand, settled_hand, texturized,
    wordpress_html,
)


# --------------------------------------------------------------------------- tags


def test_reference_tag_is_visible_inline_code():
    assert reference_tag("T-3-0007") == "`[np:T-3-0007]`"


def test_find_tag_recovers_the_key_from_markdown_and_html():
    assert find_tag("hello\n\n`[np:T-3-0007]`\n") == "T-3-0007"
    assert find_tag("<p>hello</p><p><code>[np:T-3-0007]</code></p>") == "T-3-0007"
    assert find_tag("<p><code>&#91;np:T-3-0007&#93;</code></p>") == "T-3-0007"
    assert find_tag("<p>[np:T&#8211;3&#8211;0007]</p>") == "T-3-0007"
    assert find_tag("<p>[np:T\u00ad-3-0007]</p>") == "T-3-0007"
    assert find_tag("<p>[np:h3&#215;12]</p>") == "h3x12"


def test_find_tag_without_a_tag_is_none():
    assert find_tag("HAND3 ROUND1 raise 20") is None
    assert find_tag("[np:]") is None


def test_find_tag_prefers_the_last_tag_over_a_quoted_one():
    body = "> `[np:T-3-0001]`\n\nmy reply\n\n`[np:T-3-0002]`"
    assert find_tag(body) == "T-3-0002"


def test_reference_tag_refuses_keys_that_could_not_survive_a_forum():
    for bad in ("", "a b", "a]b", "<x>", "a`b", "x" * 81):
        with pytest.raises(ValueError):
            reference_tag(bad)


def all_comments() -> dict[str, str]:
    fh = fresh_hand()
    fl = flop_hand()
    legal = LegalActions("dave", fold=True, check=False, call=20, raise_min=21, raise_max=80, all_in=80)
    return {
        "T-3-0001": hand_start(TABLE, fh, ante=5, commitments={"deck": "a" * 64}, key="T-3-0001"),
        "T-3-0002": turn_notice(TABLE, fl, legal, key="T-3-0002"),
        "T-3-0003": rejection("bob", "c12", "not_your_turn", "It is dave's turn.", "The next Seated Player then acts.", key="T-3-0003"),
        "T-3-0004": dice_rolled("bob", "c13", (52, 52), (14, 26), identical=False, key="T-3-0004"),
        "T-3-0005": draw_accepted("bob", "c14", (14, 26), "J. J. Grimes Printing, Elko", key="T-3-0005"),
        "T-3-0006": street(TABLE, fl, "Flop", ("7h", "2s", "Kd"), key="T-3-0006"),
        "T-3-0007": call_for_reveals(TABLE, fl, ("bob", "dave"), key="T-3-0007"),
        "T-3-0008": edit_noted("alice", "c15", key="T-3-0008"),
        "T-3-0009": payout(TABLE, settled_hand(), secrets={"deck": "b" * 64}, key="T-3-0009"),
    }


def test_every_comment_ends_with_its_tag_and_find_tag_recovers_it():
    for key, body in all_comments().items():
        assert body.rstrip().endswith(f"`[np:{key}]`"), key
        assert find_tag(body) == key


def test_find_tag_recovers_every_comment_after_wordpress_rendering():
    for key, body in all_comments().items():
        shown = texturized(wordpress_html(body))
        assert "[np:" not in shown  # the brackets really were entity-encoded
        assert find_tag(shown) == key


# --------------------------------------------------------------------------- hand start


def test_hand_start_states_number_ante_pot_seats_button_and_commitments_only():
    secret = "5e" * 32
    digest = "c0ffee" + "0" * 58
    body = hand_start(TABLE, fresh_hand(), ante=5, commitments={"deck": digest, "dice": "d" * 64}, key="k1")
    assert "Hand #3" in body
    assert "Ante 5" in body
    assert "the pot is 20" in body  # 4 x 5
    for p in PLAYERS:
        assert p in body
    assert "Not seated this hand: erin" in body
    assert "The Button: alice" in body
    assert digest in body and "d" * 64 in body
    assert "SHA-256" in body
    assert secret not in body
    assert "`HAND#3 DICE52 DICE52`" in body
    assert "Cards printed by:" in body
    assert "First to act in round 1: bob" in body
    assert "```" in body  # the status table


def test_hand_start_says_decks_were_sent_when_issued():
    body = hand_start(TABLE, fresh_hand(), ante=5, decks_issued=True, key="k")
    assert "sent to you privately" in body
    assert "Trading Post" not in body


def test_hand_start_names_a_player_all_in_from_the_ante():
    h = fresh_hand()
    seats = h.seats[:3] + (Seat("dave", 0, 0, 3),)
    body = hand_start(TABLE, dataclasses.replace(h, seats=seats), ante=5, key="k")
    assert "the pot is 18" in body
    assert "dave posted 3, all their Money, and is all-in" in body


def test_hand_start_under_a_shared_deck_ruleset_asks_for_no_draw():
    h = dataclasses.replace(fresh_hand(), ruleset=NLHE)
    body = hand_start(TABLE, h, ante=0, blinds=(1, 2), key="k")
    assert "DICE52" not in body
    assert "Blinds 1/2: collected from 4 seated players" in body
    assert "Ante 0" not in body


# --------------------------------------------------------------------------- turn notice


def test_turn_notice_names_player_amount_to_call_and_ranges_in_the_rules_forms():
    legal = LegalActions("dave", fold=True, check=False, call=20, raise_min=21, raise_max=80, all_in=80)
    body = turn_notice(TABLE, flop_hand(), legal, key="k", deadline="Mon 23 Nov 12:00 UTC")
    assert "**dave** to act, 20 to call" in body
    assert "`HAND3 ROUND2 call` (20)" in body
    assert "`HAND3 ROUND2 raise Z` (Z from 21 to 80" in body
    assert "`HAND3 ROUND2 folds`" in body
    assert "`HAND3 ROUND2 all in` (80" in body
    assert "HAND3 ROUND2 check" not in body
    assert "Pot: 75" in body  # 15 + 35 + 10 + 15
    assert "Mon 23 Nov 12:00 UTC" in body


def test_turn_notice_opens_with_the_last_action_like_the_wrgpt_dealer():
    from nomicpoker.core.poker.actions import Call, DealBoard, Fold, Raise

    h = dataclasses.replace(flop_hand(), log=(DealBoard(("7h", "2s", "Kd")), Raise("bob", 3, 2, 20), Fold("carol", 3, 2)))
    legal = LegalActions("dave", fold=True, check=False, call=20, raise_min=21, raise_max=80, all_in=80)
    assert turn_notice(TABLE, h, legal, key="k").startswith("carol folds. Hand #3")
    h = dataclasses.replace(h, log=h.log[:2])
    assert turn_notice(TABLE, h, legal, key="k").startswith("bob raises 20. Hand #3")
    short = h.seats[:1] + (dataclasses.replace(h.seats[1], money=0),) + h.seats[2:]
    h = dataclasses.replace(h, seats=short, log=h.log + (Call("bob", 3, 2),))
    assert turn_notice(TABLE, h, legal, key="k").startswith("bob calls and is all-in. Hand #3")
    h = dataclasses.replace(h, log=(DealBoard(("7h", "2s", "Kd")),))
    assert turn_notice(TABLE, h, legal, key="k").startswith("Hand #3")


def test_turn_notice_offers_check_when_nothing_is_owed():
    h = dataclasses.replace(flop_hand(), to_act=1)
    legal = LegalActions("bob", fold=True, check=True, call=None, raise_min=1, raise_max=65, all_in=65)
    body = turn_notice(TABLE, h, legal, key="k")
    assert "nothing to call" in body
    assert "`HAND3 ROUND2 check`" in body
    assert "ROUND2 call" not in body
    assert "Z from 1 to 65" in body


def test_turn_notice_in_round_one_says_there_is_no_check():
    legal = LegalActions("bob", fold=True, check=False, call=None, raise_min=1, raise_max=95, all_in=95)
    body = turn_notice(TABLE, fresh_hand(), legal, key="k")
    assert "No check before the flop" in body
    assert "`HAND3 ROUND1 raise Z`" in body


def test_turn_notice_under_raise_to_rules_says_z_is_the_new_total():
    h = dataclasses.replace(flop_hand(), ruleset=NLHE)
    legal = LegalActions("dave", fold=True, check=False, call=20, raise_min=40, raise_max=95, all_in=80)
    body = turn_notice(TABLE, h, legal, key="k")
    assert "Z from 40 to 95: your new total for the round" in body


def test_turn_notice_escapes_an_untrusted_name_in_prose():
    t = TableView("T", ("<script>", "**x**"), {}, "<script>")
    h = Hand(D_AND_P, 1, (Seat("<script>", 10, 0, 5), Seat("**x**", 10, 0, 5)), button=0, round=1, to_act=1)
    legal = LegalActions("**x**", fold=True, check=False, call=None, raise_min=1, raise_max=10, all_in=10)
    body = turn_notice(t, h, legal, key="k")
    assert "**\\*\\*x\\*\\*** to act" in body
    prose = body.split("```")[0]
    assert "<script>" not in prose


# --------------------------------------------------------------------------- rejections etc.


def test_rejection_quotes_the_rule_sentence_and_says_what_to_do():
    body = rejection(
        "alice", "https://blog.example/p#comment-9", "check_before_flop",
        "You cannot check in round 1.", "No Player may Check before the Flop.", key="k",
    )
    assert body.startswith("alice: your comment [comment-9](https://blog.example/p#comment-9)")
    assert "`check_before_flop`" in body
    assert "You cannot check in round 1." in body
    assert "\n> No Player may Check before the Flop.\n" in body
    assert "Before the flop: raise or fold (or call, when there is something to call)." in body


def test_rejection_escapes_untrusted_author_and_message():
    body = rejection("<b>x</b>", "c1", "unparseable", "Could not read '**raise**'", "", key="k")
    assert body.startswith("&lt;b&gt;x&lt;/b&gt;: your comment c1")
    assert "'\\*\\*raise\\*\\*'" in body
    assert "\n> " not in body  # no citation, no empty quote


def test_multi_line_citation_is_quoted_line_by_line():
    body = rejection("a", "c", "x", "m", "First line.\nSecond line.", key="k")
    assert "> First line.\n> Second line." in body


def test_comment_reference_without_fragment_links_by_its_last_path_segment():
    body = edit_noted("alice", "https://forum.example/t/42/c/7(x)", key="k")
    assert "([7(x)](https://forum.example/t/42/c/7%28x%29))" in body


def test_dice_rolled_gives_results_and_next_step():
    body = dice_rolled("bob", "c13", (52, 52), (14, 26), identical=False, key="k")
    assert "DICE52: 14, DICE52: 26" in body
    assert "cards 14, 26, Cards printed by:" in body


def test_identical_dice_ask_for_another_draw():
    body = dice_rolled("bob", "c13", (52, 52), (9, 9), identical=True, key="k",
                       citation="the Seated Player shall make another Hole Card Draw comment")
    assert "DICE52: 9, DICE52: 9" in body
    assert "make another Hole Card Draw comment" in body
    assert "> the Seated Player shall make another Hole Card Draw comment" in body


def test_draw_accepted_names_positions_and_checksum_but_no_cards():
    body = draw_accepted("bob", "c14", (14, 26), "J. J. Grimes Printing, Elko", key="k")
    assert "cards 14 and 26" in body
    assert "J. J. Grimes Printing, Elko" in body
    assert "♥" not in body and "♠" not in body


def test_edit_noted_says_the_first_reading_stands():
    body = edit_noted("alice", "c15", key="k")
    assert body.startswith("alice edited a comment (c15) after it was adjudicated; the first reading stands")


def test_street_gives_new_cards_board_pot_and_first_to_act():
    h = dataclasses.replace(flop_hand(), board=("7h", "2s", "Kd", "Tc"), round=3, to_act=1)
    body = street(TABLE, h, "Turn", ("Tc",), key="k")
    assert body.startswith("**Turn**: 10♣")
    assert "Board: 7♥ 2♠ K♦ 10♣. Pot: 75." in body
    assert "bob acts first" in body


def test_street_with_nobody_to_act_says_so():
    h = dataclasses.replace(flop_hand(), to_act=None)
    assert "Nobody can bet" in street(TABLE, h, "River", ("Ah",), key="k")


def test_call_for_reveals_lists_players_in_order_with_the_form():
    body = call_for_reveals(TABLE, flop_hand(), ("dave", "bob"), key="k")
    assert "1. dave\n2. bob" in body
    assert "`HAND3 reveal 7h 2s`" in body
    assert "pot 75" in body


# --------------------------------------------------------------------------- payout


def test_payout_shows_hands_pots_money_secrets_and_the_gndt():
    body = payout(AFTER, settled_hand(), secrets={"deck": "5e" * 32}, key="k")
    assert "dave: K♥ K♠, Three of a Kind, Kings (K♥ K♠ K♦ 7♥ 2♠)" in body
    assert "bob: 7♠ 7♦, Three of a Kind, Sevens" in body
    assert "Pot 75: dave wins 75." in body
    assert "dave: put in 15, receives 75 (+60)" in body
    assert "bob: put in 35, receives 0 (-35)" in body
    assert "5e" * 32 in body
    assert "side pots: none under this ruleset" in body.lower()
    assert "| dave | 75 | o | 0 |" in body
    assert "| **Total** | 315 | | 0 |" in body


def test_payout_without_an_all_in_for_less_does_not_mention_side_pots():
    h = settled_hand()
    seats = h.seats[:3] + (Seat("dave", 20, 0, 35),)
    body = payout(AFTER, dataclasses.replace(h, seats=seats), secrets=None, key="k")
    assert "side pots" not in body.lower()
    assert "Secrets" not in body


def test_payout_split_reports_shares_and_destroyed_remainder():
    h = settled_hand()
    res = dataclasses.replace(
        h.result,
        awards=(PotAward(75, ("bob", "dave"), ("bob", "dave"), {"bob": 37, "dave": 37}, remainder=1),),
        destroyed=1,
        payouts={"bob": 37, "dave": 37},
    )
    body = payout(AFTER, dataclasses.replace(h, result=res), secrets=None, key="k")
    assert "split between bob and dave (bob 37, dave 37)" in body
    assert "1 chip left over by rounding down is destroyed" in body


def test_payout_returned_uncalled_bet_is_reported():
    h = dataclasses.replace(settled_hand(), ruleset=NLHE)
    res = dataclasses.replace(h.result, returned={"bob": 20}, payouts={"dave": 55, "bob": 20},
                              awards=(PotAward(55, ("bob", "dave"), ("dave",), {"dave": 55}),))
    body = payout(AFTER, dataclasses.replace(h, result=res), secrets=None, key="k")
    assert "Returned to bob: 20 (uncalled)." in body
    assert "side pots: none" not in body.lower()


def test_uncontested_payout_says_nobody_had_to_show():
    seats = (Seat("alice", 85, 0, 15, folded=True), Seat("bob", 65, 0, 35))
    res = Result(awards=(PotAward(50, ("bob",), ("bob",), {"bob": 50}),), returned={}, destroyed=0,
                 payouts={"bob": 50}, shown=(), uncontested=True)
    h = Hand(D_AND_P, 4, seats, button=0, round=2, result=res)
    body = payout(AFTER, h, secrets=None, key="k")
    assert "Everyone else folded: bob wins without a showdown." in body


def test_payout_of_an_unsettled_hand_is_a_programming_error():
    with pytest.raises(ValueError):
        payout(AFTER, flop_hand(), secrets=None, key="k")
