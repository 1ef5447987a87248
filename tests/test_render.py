"""Dealer comments: each one carries the facts it must, escapes untrusted names, and ends with
a reference tag that survives Markdown and forum HTML.

Hands are built directly from the engine's frozen dataclasses (no engine logic is needed to
render), with amounts worked out by hand in each test.
"""

from __future__ import annotations

import dataclasses
import html
import re

import pytest

from nomicpoker.engine import Hand, LegalActions, PotAward, Result, Seat, ShownHand
from nomicpoker.render import (
    TableView,
    call_for_reveals,
    dice_rolled,
    draw_accepted,
    edit_noted,
    find_tag,
    gndt_rows,
    hand_start,
    payout,
    reference_tag,
    rejection,
    side_pots,
    status_table,
    street,
    turn_notice,
)
from nomicpoker.ruleset import Ruleset

D_AND_P = Ruleset()
NLHE = Ruleset(name="roberts-nlhe", title="Robert's Rules", raise_amount="raise_to", side_pots=True,
               return_uncalled=True, deck="shared", blinds=True)

PLAYERS = ("alice", "bob", "carol", "dave")
TABLE = TableView(name="T", players=PLAYERS + ("erin",), money={"erin": 0}, button="alice")


def fresh_hand(number: int = 3) -> Hand:
    """Hand 3 just started: ante 5 from four seated players, button alice, bob first to act."""
    seats = tuple(Seat(p, 95, 0, 5) for p in PLAYERS)
    return Hand(D_AND_P, number, seats, button=0, round=1, to_act=1)


def flop_hand() -> Hand:
    """Round 2 after the flop: bob raised 20, carol folded, dave to act with 80 behind."""
    seats = (
        Seat("alice", 85, 0, 15),
        Seat("bob", 65, 20, 35),
        Seat("carol", 90, 0, 10, folded=True),
        Seat("dave", 80, 0, 15),
    )
    return Hand(D_AND_P, 3, seats, button=0, round=2, board=("7h", "2s", "Kd"), to_act=3)


def wordpress_html(markdown: str) -> str:
    """Roughly what a WordPress comment page shows for our body: paragraphs in <p>, entities
    escaped, inline code in <code>, and wptexturize's en dashes between digits outside code."""
    out = []
    for para in markdown.strip().split("\n\n"):
        text = html.escape(para, quote=True)
        text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
        text = text.replace("[", "&#91;").replace("]", "&#93;")
        out.append("<p>" + text.replace("\n", "<br />\n") + "</p>")
    return "\n".join(out)


def texturized(html_text: str) -> str:
    return re.sub(r"(\d)-(\d)", "\\1&#8211;\\2", html_text)


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
    from nomicpoker.actions import Call, DealBoard, Fold, Raise

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


def settled_hand() -> Hand:
    """Showdown between bob and dave (35 and 15 in), alice and carol folded. dave, all-in for
    less, wins the whole 75 under Dealing and Play (no side pots)."""
    seats = (
        Seat("alice", 85, 0, 15, folded=True),
        Seat("bob", 65, 0, 35),
        Seat("carol", 90, 0, 10, folded=True),
        Seat("dave", 0, 0, 15),
    )
    res = Result(
        awards=(PotAward(75, ("bob", "dave"), ("dave",), {"dave": 75}),),
        returned={},
        destroyed=0,
        payouts={"dave": 75},
        shown=(
            ShownHand("dave", ("Kh", "Ks"), ("Kh", "Ks", "Kd", "7h", "2s"), "Three of a Kind, Kings", 900),
            ShownHand("bob", ("7s", "7d"), ("7s", "7d", "7h", "Kd", "2s"), "Three of a Kind, Sevens", 800),
        ),
        uncontested=False,
    )
    return Hand(D_AND_P, 3, seats, button=0, round=5, board=("7h", "2s", "Kd", "Tc", "3d"), result=res)


AFTER = TableView("T", PLAYERS + ("erin",), {"alice": 85, "bob": 65, "carol": 90, "dave": 75, "erin": 0}, "alice")


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


# --------------------------------------------------------------------------- status table


def table_lines(body: str) -> list[str]:
    block = body.split("```\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


def bar_columns(line: str) -> list[int]:
    return [i for i, ch in enumerate(line) if ch in "|+"]


def test_status_table_columns_align_and_mark_button_and_actor():
    lines = table_lines(status_table(TABLE, flop_hand()))
    grid = [ln for ln in lines if ln[:1] in "|+"]
    assert len(grid) == 3 + 5 + 1  # rule, header, rule, five players, rule
    cols = bar_columns(grid[0])
    for ln in grid:
        assert bar_columns(ln) == cols, ln
    head = [c.strip() for c in grid[1].strip("|").split("|")]
    assert head == ["#", "Name", "Bankroll", "Action", "Status", "Pot#", "Pot size"]
    rows = {c[1].strip(" D>"): c for c in ([x.strip() for x in ln.strip("|").split("|")] for ln in grid[3:8])}
    assert rows["alice"][1].startswith("D")
    assert rows["dave"][1].startswith(">")
    assert rows["carol"][4] == "folded"
    assert rows["erin"][4] == "out"
    assert rows["bob"][2:4] == ["65", "35"]
    assert "Board: 7♥ 2♠ K♦ ? ?" in lines
    assert "Pot: 75" in lines


def test_status_table_aligns_wide_and_hostile_names():
    t = TableView("T", ("名前名前", "a|b", "x\ny"), {}, None)
    h = Hand(D_AND_P, 1, tuple(Seat(p, 10, 0, 5) for p in t.players), button=0, round=1, to_act=0)
    lines = table_lines(status_table(t, h))
    grid = [ln for ln in lines if ln[:1] in "|+"]
    assert len(grid) == 3 + 3 + 1  # the newline in a name did not add a row

    # each CJK character takes two cells in a monospaced font
    widths = {len(ln) + sum(1 for ch in ln if ord(ch) > 0x2E80) for ln in grid}
    assert len(widths) == 1
    assert any("名前名前" in ln for ln in grid)
    assert any(" a|b " in ln for ln in grid)  # literal inside the code block
    assert any(" x y " in ln for ln in grid)


def test_status_table_shows_html_characters_in_names_as_lookalikes():
    t = TableView("T", ("<b>x</b>", "A&T"), {}, None)
    h = Hand(D_AND_P, 1, tuple(Seat(p, 10, 0, 5) for p in t.players), button=0, round=1, to_act=0)
    block = "\n".join(table_lines(status_table(t, h)))
    assert "‹b›x‹/b›" in block
    assert "A＆T" in block
    assert "<" not in block and "&" not in block


def test_status_table_reproduces_the_wrgpt_side_pot_example():
    """Seed 000's status message: X4 all-in 5000, X1 all-in 4975, X2 50 in, X3 25 folded, X5
    folded. Pot 1 = 25 (X4's uncalled chips), pot 2 = 9850 (X1 and X4), pot 3 = 175."""
    names = ("X1", "X3", "X2", "X4", "X5")
    seats = (
        Seat("X1", 0, 4975, 4975),
        Seat("X3", 4925, 25, 25, folded=True),
        Seat("X2", 5025, 50, 50),
        Seat("X4", 0, 5000, 5000),
        Seat("X5", 5000, 0, 0, folded=True),
    )
    h = Hand(NLHE, 2, seats, button=0, round=1, to_act=2)
    assert side_pots(h) == [(25, ("X4",)), (9850, ("X1", "X4")), (175, ("X1", "X2", "X4"))]
    lines = table_lines(status_table(TableView("t", names, {}, "X1"), h))
    cells = {c[1].strip(" D>"): c for c in ([x.strip() for x in ln.strip("|").split("|")] for ln in lines[3:8])}
    assert cells["X1"][4:] == ["all-in", "2", "9850"]
    assert cells["X2"][4:] == ["", "3", "175"]
    assert cells["X4"][4:] == ["all-in", "1", "25"]
    assert cells["X3"][4:] == ["folded", "", ""]
    assert "Pot: 10050" in lines


def test_status_table_leaves_pot_columns_blank_without_side_pots():
    lines = table_lines(status_table(TABLE, settled_hand_running()))
    rows = [[x.strip() for x in ln.strip("|").split("|")] for ln in lines[3:8]]
    # five player rows (the loop must not pass by running zero times), each with seven cells
    assert [r[1].strip(" D>") for r in rows] == list(TABLE.players)
    for cells in rows:
        assert len(cells) == 7 and cells[5:] == ["", ""]


def settled_hand_running() -> Hand:
    h = settled_hand()
    return dataclasses.replace(h, result=None, round=4)


def test_gndt_rows_while_a_hand_runs_use_seats_and_turn_markers():
    rows = gndt_rows(TABLE, flop_hand())
    by = {r.player: r for r in rows}
    assert (by["dave"].turn, by["dave"].money, by["dave"].pot) == ("x", 80, 15)
    assert by["bob"].turn == "-"
    assert by["carol"].turn == "o"
    assert by["erin"].turn == "o"
    assert [r.player for r in rows] == list(TABLE.players)


# --------------------------------------------------------------------------- with the real engine


def test_a_hand_played_by_the_engine_renders_every_comment():
    """Three players, ante 5: bob raises 20, carol (30 Money) goes all-in for 25, alice and
    bob call, all check to the showdown and bob's trip sevens take the 90 pot. The numbers
    below are worked out by hand from those actions."""
    from nomicpoker import engine as E
    from nomicpoker.actions import AllIn, Call, Check, DealBoard, Raise, Reveal
    from nomicpoker.rulesets import load_ruleset

    rs = load_ruleset("blognomic-2008")
    t = TableView("T", ("alice", "bob", "carol"), {"alice": 100, "bob": 100, "carol": 30}, "alice")
    h = E.start_hand(rs, 1, [("alice", 100), ("bob", 100), ("carol", 30)], "alice", ante=5)
    start = hand_start(t, h, ante=5, key="T-1-0001")
    assert "the pot is 15" in start and "First to act in round 1: bob" in start

    h = E.apply(h, Raise("bob", 1, 1, 20))
    h = E.apply(h, AllIn("carol", 1, 1))
    notice = turn_notice(t, h, E.legal_actions(h), key="T-1-0002")
    assert notice.startswith("carol goes all-in. Hand #1, round 1 (pre-flop): **alice** to act, 25 to call")
    assert "`HAND1 ROUND1 raise Z` (Z from 26 to 95" in notice
    assert "Pot: 60" in notice
    grid = table_lines(notice)
    carol = [ln for ln in grid if "carol" in ln][0]
    assert "all-in" in carol and "|        0 |" in carol

    h = E.apply(h, Call("alice", 1, 1))
    assert turn_notice(t, h, E.legal_actions(h), key="k").startswith("alice calls. Hand #1")
    h = E.apply(h, Call("bob", 1, 1))
    h = E.apply(h, DealBoard(("7h", "2s", "Kd")))
    flop = street(t, h, "Flop", ("7h", "2s", "Kd"), key="T-1-0003")
    assert "**Flop**: 7♥ 2♠ K♦" in flop and "Pot: 90." in flop and "bob acts first" in flop
    for card in (("Tc",), ("3d",), None):
        while E.need(h).kind == "action":
            h = E.apply(h, Check(E.need(h).players[0], 1, h.round))
        if card:
            h = E.apply(h, DealBoard(card))
    order = E.need(h).players
    reveals = call_for_reveals(t, h, order, key="T-1-0004")
    assert "`HAND1 reveal 7h 2s`" in reveals
    for p, cards in (("alice", ("Ah", "Kh")), ("bob", ("7s", "7d")), ("carol", ("2h", "2d"))):
        h = E.apply(h, Reveal(p, cards, 1))
    assert h.result is not None
    after = TableView("T", t.players, {s.name: s.money for s in h.seats}, "alice")
    body = payout(after, h, secrets={"deck": "ab" * 32}, key="T-1-0005")
    assert "Pot 90: bob wins 90." in body
    assert "bob: put in 30, receives 90 (+60)" in body
    assert "| bob | 160 | o | 0 |" in body
    assert "| carol | 0 | o | 0 |" in body
    assert find_tag(body) == "T-1-0005"


def test_no_comment_carries_a_raw_html_tag_from_a_hostile_name():
    """BlogNomic's WordPress takes a comment body as HTML: a name like ``<img onerror=…>``
    must reach it only as entities (prose) or look-alikes (status table)."""
    evil = "<img src=x onerror=alert(1)>"
    t = TableView("<T>", (evil, "bob"), {evil: 10, "bob": 10}, evil)
    seats = (Seat(evil, 10, 0, 5), Seat("bob", 10, 0, 5))
    h = Hand(D_AND_P, 1, seats, button=0, round=2, board=("7h", "2s", "Kd"), to_act=0)
    legal = LegalActions(evil, fold=True, check=True, call=None, raise_min=1, raise_max=10, all_in=10)
    res = Result(awards=(PotAward(10, (evil, "bob"), (evil,), {evil: 10}),), returned={}, destroyed=0,
                 payouts={evil: 10}, shown=(ShownHand(evil, ("Ah", "Ad"), ("Ah", "Ad", "7h", "Kd", "2s"), "Pair of Aces", 1),),
                 uncontested=False)
    bodies = [
        hand_start(t, h, ante=5, key="k"),
        turn_notice(t, h, legal, key="k", deadline="<soon>"),
        rejection(evil, evil, "unparseable", evil, "", key="k"),
        dice_rolled(evil, evil, (52, 52), (1, 2), identical=False, key="k"),
        draw_accepted(evil, evil, (1, 2), evil, key="k"),
        street(t, h, "Flop", ("7h", "2s", "Kd"), key="k"),
        call_for_reveals(t, h, (evil, "bob"), key="k"),
        payout(t, dataclasses.replace(h, result=res), secrets={"deck": "ab"}, key="k"),
        edit_noted(evil, evil, key="k"),
    ]
    for body in bodies:
        assert "<" not in body, body
        assert "&lt;img src=x onerror=alert(1)&gt;" in body or "‹img src=x onerror=alert(1)›" in body


def test_every_form_a_turn_notice_offers_is_read_by_the_grammar_as_that_action():
    from nomicpoker.grammar import parse_comment

    legal = LegalActions("dave", fold=True, check=True, call=20, raise_min=21, raise_max=80, all_in=80)
    body = turn_notice(TABLE, flop_hand(), legal, key="k")
    forms = re.findall(r"^- `([^`]+)`", body, re.MULTILINE)
    kinds = {}
    for form in forms:
        intent = parse_comment(form.replace(" Z", " 30"))
        kinds[form] = (intent.kind, intent.hand, intent.round)
    assert kinds == {
        "HAND3 ROUND2 check": ("check", 3, 2),
        "HAND3 ROUND2 call": ("call", 3, 2),
        "HAND3 ROUND2 raise Z": ("raise", 3, 2),
        "HAND3 ROUND2 all in": ("all_in", 3, 2),
        "HAND3 ROUND2 folds": ("fold", 3, 2),
    }


def test_the_draw_and_reveal_forms_the_dealer_shows_are_read_by_the_grammar():
    from nomicpoker.grammar import parse_comment

    start = hand_start(TABLE, fresh_hand(), ante=5, key="k")
    dice = re.search(r"`(HAND#3 DICE52 DICE52)`", start).group(1)
    assert parse_comment(dice).dice == (52, 52)
    draw = re.search(r"`(cards 14, 26, Cards printed by: [^`]+)`", start).group(1)
    assert parse_comment(draw).positions == (14, 26)
    reveal = re.search(r"`(HAND3 reveal [^`]+)`", call_for_reveals(TABLE, flop_hand(), ("bob",), key="k")).group(1)
    assert parse_comment(reveal).cards == ("7h", "2s")
