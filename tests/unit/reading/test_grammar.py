"""Example-based tests for the comment grammar: every form the enacted rule (seed 001) asks
for, the tolerances a forum needs, and every rejection with the information its message must
carry. Expected values are written by hand from the rule text, not copied from the code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nomicpoker.core.poker import actions
from nomicpoker.core.reading.grammar import (
    GrammarError, Intent, NoAction, canonical, parse_comment, to_action, visible_text,
)
from nomicpoker.core.rules.ruleset import REJECTION_CODES


def intent(body: str, fmt: str = "markdown") -> Intent:
    r = parse_comment(body, fmt)
    assert isinstance(r, Intent), r
    return r


def plain(body: str, fmt: str = "markdown") -> Intent:
    return replace(intent(body, fmt), text="")


def error(body: str, fmt: str = "markdown") -> GrammarError:
    r = parse_comment(body, fmt)
    assert isinstance(r, GrammarError), r
    assert r.code in REJECTION_CODES
    return r


# --- the forms of the rule ---------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    "HAND3 ROUND1 raise 20", "Hand #3, Round 1: raises 20", "hand3 round1 RAISE 20",
    "HAND 3 ROUND 1 raise 20", "HAND#3 ROUND#1 raise 20", "HAND3ROUND1 raise 20",
    "HAND3 ROUND1 raise $20", "HAND3 ROUND1 raise 20 chips", "HAND3 ROUND1 raises: 20",
    "HAND3 - ROUND1 - raise 20", "Hand No. 3, Round 1: raise 20",
])
def test_raise_in_substantially_the_form_of_the_rule(body: str) -> None:
    assert plain(body) == Intent("raise", hand=3, round=1, amount=20)


def test_raise_amount_with_thousands_separator_is_one_number() -> None:
    assert plain("HAND3 ROUND1 raise 1,000").amount == 1000


@pytest.mark.parametrize("body", ["HAND3 ROUND1 folds", "HAND3 ROUND1 fold", "HAND3 ROUND1 FOLD."])
def test_fold(body: str) -> None:
    assert plain(body) == Intent("fold", hand=3, round=1)


@pytest.mark.parametrize("body", ["HAND3 ROUND2 check", "HAND3 ROUND2 checks", "hand#3 round2 Check!"])
def test_check(body: str) -> None:
    assert plain(body) == Intent("check", hand=3, round=2)


def test_call_without_amount_has_no_amount() -> None:
    assert plain("HAND3 ROUND1 call") == Intent("call", hand=3, round=1, amount=None)


def test_call_with_stated_amount_keeps_it_for_the_engine_to_check() -> None:
    assert plain("HAND3 ROUND1 calls 20") == Intent("call", hand=3, round=1, amount=20)


@pytest.mark.parametrize("body", ["HAND3 ROUND1 all in", "HAND3 ROUND1 all-in", "HAND3 ROUND1 allin",
                                  "HAND3 ROUND1 ALL IN!", "HAND3 ROUND1 All_In"])
def test_all_in_spellings(body: str) -> None:
    assert plain(body) == Intent("all_in", hand=3, round=1)


@pytest.mark.parametrize("body", ["HAND#3 DICE52 DICE52", "HAND3 DICE52 DICE52", "hand #3: dice52, dice52",
                                  "Hand 3 DICE52 DICE52"])
def test_hole_card_draw(body: str) -> None:
    assert plain(body) == Intent("dice", hand=3, dice=(52, 52))


def test_draw_statement_as_in_the_rule_example() -> None:
    # The rule's own example, player name first.
    body = "Spikebrennan cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko"
    assert plain(body) == Intent("draw", positions=(14, 26),
                                 checksum="J. J. Grimes Printing, Elko")


def test_draw_statement_with_hand_tag_and_closing_quote() -> None:
    body = 'HAND3 cards 14 and 26. Cards printed by:  J. J. Grimes Printing,  Elko."'
    assert plain(body) == Intent("draw", hand=3, positions=(14, 26),
                                 checksum="J. J. Grimes Printing, Elko")


def test_draw_statement_keeps_accented_town_names() -> None:
    assert plain("cards 3, 9, Cards printed by: Imprimerie Dupré, Montréal").checksum == \
        "Imprimerie Dupré, Montréal"


@pytest.mark.parametrize("body", ["HAND3 reveal 7h 2s", "HAND3 reveals 7 of hearts, 2 of spades",
                                  "HAND3 shows 7♥ 2♠", "HAND3 reveal: 7H, 2S", "HAND3 reveal 7h2s",
                                  "HAND3 reveals Seven of Hearts and Two of Spades", "HAND3 7♥️ 2♠️"])
def test_reveal_with_hand_tag(body: str) -> None:
    assert plain(body) == Intent("reveal", hand=3, cards=("7h", "2s"))


def test_reveal_ten_written_as_10() -> None:
    assert plain("HAND3 reveal 10h Ts").cards == ("Th", "Ts")


@pytest.mark.parametrize("body", ["7♥ 2♠", "reveal 7h 2s", "I reveal 7 of hearts, 2 of spades.",
                                  "my cards: 7h 2s"])
def test_reveal_alone_on_its_line_needs_no_hand_tag(body: str) -> None:
    assert plain(body) == Intent("reveal", cards=("7h", "2s"))


def test_round_tag_without_hand_tag_is_read_with_hand_missing_for_the_engine() -> None:
    # The engine rejects it (missing_hand_round) quoting the rule; silence would strand the player.
    assert plain("ROUND1 raise 20") == Intent("raise", round=1, amount=20)


# --- where an action may appear ----------------------------------------------------------------

def test_chat_around_an_action_on_the_same_line_is_ignored() -> None:
    r = intent("ok here goes: HAND3 ROUND1 raise 20. good luck!")
    assert replace(r, text="") == Intent("raise", hand=3, round=1, amount=20)
    assert r.text == "HAND3 ROUND1 raise 20"


def test_chat_on_other_lines_is_ignored() -> None:
    assert plain("Tough spot.\n\nHAND3 ROUND2 check\n\nLet's see the turn") == \
        Intent("check", hand=3, round=2)


def test_chat_words_right_after_a_complete_action_are_ignored() -> None:
    assert plain("HAND3 ROUND1 folds gg everyone") == Intent("fold", hand=3, round=1)


@pytest.mark.parametrize("body", [
    "nice hand!", "I'll raise the stakes next time", "I fold under pressure, call me later",
    "hand 3 was fun", "In hand 3, call me crazy, but I liked it", "Hand #3 was wild",
    "round 1 call it a day", "Ah.", "As I said", "rolling DICE6 for the vote", "check this out",
    "the printer was J. J. Grimes", "", "   \n\n ", "Привет всем", "all in all, fine",
    "reveal 3 secrets", "reveal 3", "show me the money",
])
def test_chat_is_no_action(body: str) -> None:
    assert parse_comment(body) == NoAction()


def test_the_same_action_in_text_and_signature_counts_once() -> None:
    body = "HAND3 ROUND1 call\n\n--\nAlice (HAND3 ROUND1 call)"
    assert plain(body) == Intent("call", hand=3, round=1)


# --- markup -------------------------------------------------------------------------------

@pytest.mark.parametrize("body,fmt", [
    ("HAND3 ROUND1 **raise** 20", "markdown"), ("**HAND3 ROUND1 raise 20**", "markdown"),
    ("HAND3 ROUND1 _raise_ 20", "markdown"),
    ("[HAND3 ROUND1 raise 20](https://example.org)", "markdown"),
    ("# HAND3 ROUND1 raise 20", "markdown"),
    ("<b>HAND3</b> ROUND1 raise 20", "html"), ("<p><strong>HAND3 ROUND1</strong> <em>raise</em> 20</p>", "html"),
    ('<a href="x">HAND3</a> ROUND1 raise 20', "html"), ("HAND3 ROUND1 raise&nbsp;20", "html"),
    ("<b>HAND3</b> ROUND1 raise 20", "markdown"), ("*HAND3* ROUND1 *raise* 20", "text"),
])
def test_emphasis_and_links_are_tolerated(body: str, fmt: str) -> None:
    assert plain(body, fmt) == Intent("raise", hand=3, round=1, amount=20)


def test_html_paragraphs_are_separate_lines() -> None:
    # The check must not run on into the next paragraph's text.
    assert plain("<p>HAND3 ROUND2 check</p><p>20 is too much for me</p>", "html") == \
        Intent("check", hand=3, round=2)


# --- quoted, struck-out and hidden text never acts ---------------------------------------------

@pytest.mark.parametrize("body,fmt", [
    ("> HAND3 ROUND1 raise 20\n\nBob is bluffing", "markdown"),
    (">> HAND3 ROUND1 raise 20\n> he said\n\nhmm", "markdown"),
    ("<blockquote>HAND3 ROUND1 raise 20</blockquote><p>hmm</p>", "html"),
    ("<blockquote><blockquote>HAND3 ROUND1 raise 20</blockquote></blockquote>", "html"),
    ("<p>&gt; HAND3 ROUND1 raise 20</p>", "html"),
    ('<div class="comment-quote">HAND3 ROUND1 raise 20</div>', "html"),
    ("Bob said <q>HAND3 ROUND1 raise 20</q>", "html"),
    ("[quote]HAND3 ROUND1 raise 20[/quote] lol", "markdown"),
    ("[quote=bob][quote]x[/quote]HAND3 ROUND1 raise 20[/quote]", "text"),
    ('[QUOTE="bob"]HAND3 ROUND1 raise 20', "html"),  # unclosed: the rest is the quote
    ("> HAND3 ROUND1 raise 20", "text"),
    ("~~HAND3 ROUND1 raise 20~~ never mind", "markdown"),
    ("<del>HAND3 ROUND1 raise 20</del>", "html"),
    ("<!-- HAND3 ROUND1 raise 20 -->", "html"),
    ('<span style="display: none">HAND3 ROUND1 raise 20</span>', "html"),
    ("<blockquote>HAND3 ROUND1 raise 20", "markdown"),
    ("`HAND3 ROUND1 raise 20`", "markdown"),  # a code span shows an action as text
    ("<code>HAND3 ROUND1 raise 20</code>", "html"),
])
def test_quoted_struck_or_hidden_actions_do_not_act(body: str, fmt: str) -> None:
    assert parse_comment(body, fmt) == NoAction()


@pytest.mark.parametrize("body", [
    "> Bob wrote:\nHAND3 ROUND1 raise 20\n\nhmm",
    "&gt; Bob wrote:\nHAND3 ROUND1 raise 20\n\nhmm",  # Reddit escapes ">"
])
def test_an_action_swallowed_by_a_quote_does_not_act_and_says_why(body: str) -> None:
    # Markdown's lazy continuation puts the second line inside the quote: a reader sees it
    # quoted, so it must not act, but the player is told instead of hearing nothing.
    r = parse_comment(body, "markdown")
    assert isinstance(r, GrammarError) and r.code == "unparseable"
    assert r.message.startswith('"HAND3 ROUND1 raise 20" is part of the quote above it')
    assert "leave a blank line after the quote" in r.message


def test_chat_under_a_quote_stays_chat() -> None:
    assert parse_comment("> HAND3 ROUND1 raise 20\nbluffing, surely", "markdown") == NoAction()


def test_own_action_after_quoting_another_player_acts() -> None:
    body = "> HAND3 ROUND1 raise 20\n\nToo rich for me.\nHAND3 ROUND1 folds"
    assert plain(body) == Intent("fold", hand=3, round=1)


def test_visible_text_drops_quotes_markup_and_invisible_characters() -> None:
    body = "> quoted\n\n**bold** [link](http://x) r\u200baise\u00ad"
    assert visible_text(body, "markdown").split() == ["bold", "link", "raise"]


# --- rejections --------------------------------------------------------------------------------

def test_raise_without_amount_says_an_amount_is_expected() -> None:
    e = error("HAND3 ROUND1 raise")
    assert e.code == "bad_amount"
    assert "raise Z" in e.message and "no amount" in e.message


def test_raise_in_words_is_rejected_not_guessed() -> None:
    e = error("HAND3 ROUND1 raise twenty")
    assert e.code == "bad_amount"
    assert "raise twenty" in e.message and "whole number" in e.message


def test_bet_is_not_an_action_of_this_game() -> None:
    e = error("HAND3 ROUND1 bet twenty")
    assert e.code == "unparseable"
    assert '"bet"' in e.message and "raise Z" in e.message


def test_negative_raise_is_rejected() -> None:
    e = error("HAND3 ROUND1 raise -5")
    assert e.code == "bad_amount" and "negative" in e.message and "-5" in e.text


@pytest.mark.parametrize("body", ["HAND3 ROUND1 raise 20.5", "HAND3 ROUND1 raise 20,5",
                                  "HAND3 ROUND1 call 7.25"])
def test_fractional_amounts_are_rejected(body: str) -> None:
    e = error(body)
    assert e.code == "bad_amount" and "whole number" in e.message


def test_raise_of_zero_is_rejected() -> None:
    assert error("HAND3 ROUND1 raise 0").code == "bad_amount"


def test_raise_to_is_rejected_because_the_rule_counts_chips_added() -> None:
    e = error("HAND3 ROUND1 raise to 40")
    assert e.code == "bad_amount" and "raise Z" in e.message


def test_absurdly_large_amount_is_rejected_not_crashed_on() -> None:
    assert error("HAND3 ROUND1 raise " + "9" * 5000).code == "bad_amount"


def test_unknown_word_after_hand_and_round_names_it_and_lists_the_forms() -> None:
    e = error("HAND3 ROUND1 dance")
    assert e.code == "unparseable"
    assert '"dance"' in e.message
    for form in ("raise Z", "call", "check", "folds", "all in"):
        assert form in e.message


def test_typo_of_an_action_word_suggests_it() -> None:
    e = error("HAND3 ROUND1 rasie 20")
    assert 'Did you mean "raise"' in e.message


def test_typo_after_a_hand_tag_alone_is_still_an_attempt() -> None:
    assert error("HAND3 fodl").code == "unparseable"


def test_hand_and_round_with_no_action_is_rejected() -> None:
    e = error("HAND3 ROUND1")
    assert e.code == "unparseable" and "names no action" in e.message


def test_garbled_tail_is_rejected_not_guessed() -> None:
    for body in ("HAND3 ROUND1 raise 20 30", "HAND3 ROUND1 raise 20 fold", "HAND3 ROUND1 call twenty",
                 "HAND3 ROUND2 check/fold", "HAND3 ROUND2 check or fold", "HAND3 ROUND1 raise 20 then call",
                 "HAND3 ROUND2 check-fold"):
        e = error(body)
        assert e.code in ("unparseable", "bad_amount", "ambiguous"), body


@pytest.mark.parametrize("body", ["HAND3 ROUND1 raise 5k", "HAND3 ROUND1 raise 1e3", "HAND3 ROUND1 raise 2o",
                                  "HAND3 ROUND1 raise 20x", "HAND3 ROUND1 call 20abc"])
def test_an_amount_with_letters_glued_to_it_is_rejected_not_truncated(body: str) -> None:
    e = error(body)
    assert e.code in ("unparseable", "bad_amount")


def test_reveal_with_a_bad_card_names_the_card() -> None:
    e = error("HAND3 reveal 7h 2x")
    assert e.code == "bad_card" and '"2x"' in e.message


@pytest.mark.parametrize("body,bad", [("HAND3 reveal 7 of hoarts, 2s", "7 of hoarts"),
                                      ("HAND3 reveal 1h 2s", "1h"), ("HAND3 reveal 11h", "11h"),
                                      ("reveal 7h 2x", "2x")])
def test_reveal_bad_cards_are_named(body: str, bad: str) -> None:
    e = error(body)
    assert e.code == "bad_card" and bad in e.message


def test_reveal_without_cards_is_rejected() -> None:
    e = error("HAND3 reveal my hand")
    assert e.code == "bad_card" and "7h 2s" in e.message


def test_draw_statement_without_checksum_is_rejected() -> None:
    e = error("HAND3 cards 14, 26")
    assert e.code == "unparseable" and "Cards printed by" in e.message


def test_draw_statement_without_positions_is_rejected() -> None:
    e = error("Cards printed by: J. J. Grimes Printing, Elko")
    assert e.code == "unparseable" and "cards 14, 26" in e.message


def test_dice_without_hand_tag_is_rejected() -> None:
    e = error("DICE52 DICE52")
    assert e.code == "unparseable" and "HAND#X DICE52 DICE52" in e.message


def test_two_different_actions_are_ambiguous_and_both_are_named() -> None:
    e = error("HAND3 ROUND1 raise 20\n\nactually HAND3 ROUND1 folds")
    assert e.code == "ambiguous"
    assert "HAND3 ROUND1 raise 20" in e.message and "HAND3 ROUND1 folds" in e.message


def test_call_with_and_without_amount_are_different_actions() -> None:
    assert error("HAND3 ROUND1 call\nHAND3 ROUND1 call 20").code == "ambiguous"


def test_one_malformed_attempt_rejects_the_whole_comment() -> None:
    assert error("HAND3 ROUND1 call\nHAND3 ROUND1 raise").code == "bad_amount"


# --- look-alikes -----------------------------------------------------------------------------

@pytest.mark.parametrize("body,char,name", [
    ("HAND3 ROUND1 rаise 20", "а", "CYRILLIC SMALL LETTER A"),
    ("HAND3 ROUND1 fοld", "ο", "GREEK SMALL LETTER OMICRON"),
    ("HAND3 ROUND1 ｆｏｌｄ", "ｆ", "FULLWIDTH LATIN SMALL LETTER F"),
    ("НAND3 ROUND1 fold", "Н", "CYRILLIC CAPITAL LETTER EN"),
    ("HAND3 ROUND1 raise ٢٠", "٢", "ARABIC-INDIC DIGIT TWO"),
    ("HAND3 ROUND1 r\u200bаise 20", "а", "CYRILLIC SMALL LETTER A"),  # zero-width does not hide it
    ("HAND3 ROUND1 rai\u0307se 20", "\u0307", "COMBINING DOT ABOVE"),  # no precomposed form
    ("HAND3 ROUND1 cһeck", "һ", "CYRILLIC SMALL LETTER SHHA"),
    ("cards 14, 26, Cards printed by: J. J. Grimеs Printing, Elko", "е", "CYRILLIC SMALL LETTER IE"),
])
def test_lookalike_letters_are_rejected_naming_the_character(body: str, char: str, name: str) -> None:
    e = error(body)
    assert e.code == "lookalike"
    assert char in e.message and name in e.message and f"U+{ord(char):04X}" in e.message


def test_accented_command_word_is_not_a_command() -> None:
    # "fóld" is visibly not "fold": rejected as an unknown word, naming it.
    e = error("HAND3 ROUND1 fo\u0301ld")
    assert e.code == "unparseable" and "fóld" in e.message


def test_fullwidth_digits_are_read_as_digits() -> None:
    assert plain("HAND3 ROUND1 raise ２０") == Intent("raise", hand=3, round=1, amount=20)


def test_zero_width_characters_inside_a_plain_command_are_ignored() -> None:
    assert plain("HAND3 ROUND1 r\u200baise\u200d 20") == Intent("raise", hand=3, round=1, amount=20)


def test_foreign_chat_next_to_an_action_is_fine() -> None:
    assert plain("HAND3 ROUND1 fold. спасибо, Ηλίας") == Intent("fold", hand=3, round=1)


# --- canonical and to_action ---------------------------------------------------------------

@pytest.mark.parametrize("i,text", [
    (Intent("raise", hand=3, round=1, amount=20), "HAND3 ROUND1 raise 20"),
    (Intent("fold", hand=3, round=1), "HAND3 ROUND1 folds"),
    (Intent("check", hand=3, round=2), "HAND3 ROUND2 check"),
    (Intent("call", hand=3, round=1), "HAND3 ROUND1 call"),
    (Intent("call", hand=3, round=1, amount=20), "HAND3 ROUND1 call 20"),
    (Intent("all_in", hand=3, round=4), "HAND3 ROUND4 all in"),
    (Intent("dice", hand=3, dice=(52, 52)), "HAND#3 DICE52 DICE52"),
    (Intent("reveal", hand=3, cards=("7h", "2s")), "HAND3 reveal 7h 2s"),
    (Intent("draw", positions=(14, 26), checksum="J. J. Grimes Printing, Elko"),
     "cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko"),
])
def test_canonical_spellings(i: Intent, text: str) -> None:
    assert canonical(i) == text


def test_to_action_carries_player_hand_round_and_amount() -> None:
    assert to_action(Intent("raise", hand=3, round=1, amount=20), "alice") == \
        actions.Raise("alice", 3, 1, amount=20)
    assert to_action(Intent("call", hand=3, round=1), "bob") == actions.Call("bob", 3, 1, amount=None)
    assert to_action(Intent("fold", hand=3, round=2), "c") == actions.Fold("c", 3, 2)
    assert to_action(Intent("check", hand=3, round=2), "c") == actions.Check("c", 3, 2)
    assert to_action(Intent("all_in", hand=3, round=2), "c") == actions.AllIn("c", 3, 2)
    assert to_action(Intent("reveal", hand=3, cards=("7h", "2s")), "c") == \
        actions.Reveal("c", ("7h", "2s"), hand=3)


@pytest.mark.parametrize("kind", ["dice", "draw"])
def test_to_action_refuses_dealer_business(kind: str) -> None:
    with pytest.raises(ValueError):
        to_action(Intent(kind, hand=3), "alice")  # type: ignore[arg-type]


# --- robustness ------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    "HAND3 " * 20000, "7h " * 30000, "[quote]" * 3000 + "x" + "[/quote]" * 3000,
    "HAND3 ROUND1 raise 20\n" * 3000, "> x\n" * 20000, "<b>" * 20000,
])
def test_huge_pathological_comments_are_read_in_reasonable_time(body: str) -> None:
    # A poll run must not stall on one hostile comment (generous bound: cores are shared).
    import time
    t = time.perf_counter()
    parse_comment(body, "markdown")
    assert time.perf_counter() - t < 10
