"""Cards: every way players write a card parses to one canonical form; bad tokens are named."""

import pytest

from nomicpoker.core.poker.cards import (
    FULL_DECK,
    CardError,
    card_name,
    format_cards,
    parse_card,
    parse_cards,
    pretty,
    rank_value,
)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("7h", "7h"),
        ("7H", "7h"),
        ("7♥", "7h"),
        ("7♡", "7h"),
        ("7♥\ufe0f", "7h"),  # emoji presentation selector after the suit
        ("Th", "Th"),
        ("th", "Th"),
        ("10h", "Th"),
        ("7 of hearts", "7h"),
        ("Ten of Spades", "Ts"),
        ("ten of spades", "Ts"),
        ("10 of spades", "Ts"),
        ("Q♠", "Qs"),
        ("Ace of Spades", "As"),
        ("queen of diamonds", "Qd"),
        ("King of Clubs", "Kc"),
        ("Deuce of Clubs", "2c"),
        (" As ", "As"),
    ],
)
def test_every_player_spelling_parses_to_the_canonical_form(text, canonical):
    assert parse_card(text) == canonical


@pytest.mark.parametrize("token", ["7x", "1h", "11h", "Zs", "seven of cups", "Knight of Swords", "", "7"])
def test_a_bad_token_is_an_error_that_names_it(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert info.value.code == "bad_card"
    assert repr(token) in str(info.value)


def test_ace_of_is_not_read_as_ace_of_clubs():
    # "Ac" is a prefix of "Ace of ..."; the long form must win.
    assert parse_cards("Ace of Hearts") == ("Ah",)


@pytest.mark.parametrize(
    "text, cards",
    [
        ("7h 2s", ("7h", "2s")),
        ("7h2s", ("7h", "2s")),
        ("AcKd", ("Ac", "Kd")),
        ("7 of hearts, 2 of spades", ("7h", "2s")),
        ("Ace of Spades and 10h", ("As", "Th")),
        ("Q♠ J♠", ("Qs", "Js")),
        ("Jc3d5c", ("Jc", "3d", "5c")),
        ("", ()),
    ],
)
def test_card_lists_parse_in_order(text, cards):
    assert parse_cards(text) == cards


def test_leftover_text_in_a_card_list_is_an_error_naming_the_piece():
    with pytest.raises(CardError) as info:
        parse_cards("7h 2x")
    assert info.value.token == "2x"


def test_full_deck_has_52_distinct_cards_in_rank_major_order():
    assert len(FULL_DECK) == 52 == len(set(FULL_DECK))
    assert FULL_DECK[:4] == ("2s", "2h", "2d", "2c")
    assert FULL_DECK[-1] == "Ac"


def test_display_helpers():
    assert pretty("Ts") == "10♠"
    assert pretty("7h") == "7♥"
    assert card_name("Qd") == "Queen of Diamonds"
    assert rank_value("Ah") == 14
    assert rank_value("2c") == 2
    assert format_cards(("Ah", "Kd")) == "A♥ K♦"
    assert format_cards(("Ah", "Kd"), symbols=False) == "Ah Kd"
