"""The one reading of a revision (issue 23): one function (``read_revision``) chooses which of a
comment's readings the fold acts on, by one documented precedence
(:mod:`nomicpoker.core.reading.comment_reading`), and the fold hands it to the handler of its
kind. Pinned here: for each pair of readings one text can hold at once, which one wins (first
on the pure function, with the component readings checked so the case is the one named; then
through the fold, where the loser must leave no trace), and that every kind has its handler.

The behaviour itself is older than the function: the tests of readings, advance actions,
editions and hostile text (test_advance_*, test_days_commands, test_edition_1_ledger,
test_reading_*, test_score, test_fuzz_comments) are the judge that nothing changed."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from nomicpoker.core.fold.adjudicator import _Folder
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.advance import AdvanceError, Program, Undo
from nomicpoker.core.reading.comment_reading import KINDS, Facts, TextReading, read_revision
from nomicpoker.core.reading.player_commands import Command, CommandError
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

#: a seated player before his turn in round 1 of hand 1, where advance actions are taken
WAITING = Facts(in_hand=True, seated=True, player=True, edition=2, my_turn=False, advance_on=True, number=1, round=1)
EDITION_3 = replace(WAITING, edition=3)  # a waiting player's commands first (table_settings.EDITIONS)
AT_TURN = replace(WAITING, my_turn=True)
OFF = replace(WAITING, advance_on=False)
EDITION_1 = replace(WAITING, edition=1)
NOT_AT_TABLE = Facts(number=1)


def kind(body: str, facts: Facts, bare: bool = True) -> str:
    return read_revision(TextReading(body, "markdown", bare), facts).kind


def text(body: str, bare: bool = True) -> TextReading:
    return TextReading(body, "markdown", bare)


# -- the pure function: each pair --------------------------------------------------------------

@pytest.mark.parametrize("body", ["SCORE", "GONE friday", "HAND1 ROUND1 call", "CALL $10", "hello"])
def test_a_private_message_is_read_only_as_private_whatever_it_says(body):
    assert kind(body, replace(WAITING, private=True)) == "private"


def test_the_protesters_undo_is_the_command_not_score_nor_an_advance_undo():
    assert text("SCORE\nUNDO").score is False and isinstance(text("UNDO").program, Undo)
    assert kind("SCORE\nUNDO", replace(WAITING, undoes_protest=True)) == "command"
    assert kind("UNDO", replace(WAITING, undoes_protest=True)) == "command"
    # anyone else's UNDO (or the protester's once the freeze is over) withdraws an advance action
    assert kind("UNDO", WAITING) == "advance"


@pytest.mark.parametrize("body, loser", [
    ("SCORE\nHAND1 ROUND1 call", "action"), ("SCORE\nGONE friday", "command"),
    ("SCORE/L\nHAND1 ROUND1 raise", "error"),
])
def test_score_wins_over_an_action_a_command_and_an_error_below_it(body, loser):
    t = text(body)
    assert t.score is not None
    others = {"action": isinstance(t.action, grammar.Intent), "command": bool(t.commands),
              "error": isinstance(t.action, grammar.GrammarError)}
    assert others[loser]  # the losing reading is there
    assert kind(body, WAITING) == "score"
    assert kind(body, NOT_AT_TABLE) == "score"  # from anyone


def test_an_advance_action_wins_over_a_command_below_it():
    t = text("CALL $10\nGONE friday")
    assert isinstance(t.program, Program) and t.commands == (Command("gone", "friday", "GONE friday"),)
    assert kind("CALL $10\nGONE friday", WAITING) == "advance"


@pytest.mark.parametrize("body, facts, expected", [
    ("RAISE $6", WAITING, "advance"),       # WRGPT's own form: the advance action
    ("RAISE $6", AT_TURN, "advance"),       # ... at one's turn too (one reading whatever the turn)
    ("raise 6", WAITING, "advance_hold"),   # the grammar's form before the turn: kept for it
    ("raise 6", AT_TURN, "action"),         # ... at the turn: the ordinary action
    ("HAND1 ROUND1 call", WAITING, "advance_hold"),
    ("HAND2 ROUND1 call", WAITING, "action"),   # another hand's: never kept (the action path answers)
    ("raise 6", OFF, "action"),             # advance actions off: the ordinary path answers
])
def test_edition_2_an_advance_action_and_an_ordinary_action_in_one_line(body, facts, expected):
    t = text(body)
    assert isinstance(t.program, Program) or not t.looks_advance
    assert isinstance(t.action, grammar.Intent)
    assert kind(body, facts) == expected


@pytest.mark.parametrize("body, facts, expected", [
    ("raise 6", EDITION_1, "advance"),   # then read as WRGPT's RAISE $6 before the turn
    ("raise 6", replace(EDITION_1, my_turn=True), "action"),
    ("RAISE $6", replace(EDITION_1, my_turn=True), "action"),  # then "raise to 6" at the turn
])
def test_edition_1_an_advance_action_and_an_ordinary_action_in_one_line(body, facts, expected):
    assert isinstance(text(body).program, Program) and isinstance(text(body).action, grammar.Intent)
    assert kind(body, facts) == expected


def test_an_advance_error_and_an_ordinary_action_the_action_wins():
    body = "fold now\nHAND1 ROUND1 call"
    t = text(body)
    assert isinstance(t.program, AdvanceError) and t.program.code.startswith("advance_")
    assert isinstance(t.action, grammar.Intent)
    assert kind(body, EDITION_1) == "action"
    assert kind("CALL $x", WAITING) == "advance_error"  # nothing else reads it: the error answers
    assert kind("CALL $x", NOT_AT_TABLE) == "chat"      # not in the hand: no advance reading at all


def test_advance_off_a_line_that_can_only_be_an_advance_action_is_answered_a_word_stays_chat():
    assert kind("CALL $10", OFF) == "advance_off" and kind("IF/B=0", OFF) == "advance_off"
    assert isinstance(text("fold", bare=False).action, grammar.NoAction)
    assert kind("fold", OFF, bare=False) == "chat"
    assert kind("FOLD now", OFF) == "chat"  # an error of the language that is not a conditional


@pytest.mark.parametrize("body, expected, first", [
    ("GONE friday\nHAND1 ROUND1 call", "action", True),      # both: the command, then the action
    ("GONE friday\nHAND1 ROUND1 raise", "error", True),      # both: the command, then the error
    ("PROTEST I meant HAND1 ROUND1 call", "command", True),  # a protest's text is for the Dealer
    ("BACK", "command", True),
    ("START 6:30", "command", True),                         # a command's own error
])
def test_commands_and_the_grammars_readings(body, expected, first):
    """At the player's turn (or not in the running hand), where no advance reading applies."""
    t = text(body)
    assert t.commands and (isinstance(t.commands[0], (Command, CommandError)))
    for facts in (AT_TURN, replace(WAITING, in_hand=False)):
        r = read_revision(t, facts)
        assert (r.kind, r.commands_first) == (expected, first)
        # from someone who is not one of the table's players, commands are not read at all
        assert read_revision(t, replace(facts, player=False)).commands_first is False


def test_before_the_turn_the_commands_are_read_before_an_ordinary_action_is_kept():
    """From edition 3, as at one's turn (rule 5): a waiting player's commands apply first, and a
    PROTEST holds the whole comment (its text is for the Dealer, so the action in it is not
    kept). Edition 2 kept the action and dropped the command lines, so ``PROTEST I meant HAND1
    ROUND1 call`` posted before one's turn lost the protest (issue 23); a table of edition 2
    keeps that reading, so its ledger replays as it was played."""
    assert kind("PROTEST I meant HAND1 ROUND1 call", EDITION_3) == "command"
    held = read_revision(text("GONE friday\nHAND1 ROUND1 call"), EDITION_3)
    assert (held.kind, held.commands_first) == ("advance_hold", True)
    assert isinstance(held.action, grammar.Intent)
    # no command: kept as before; at the turn and in edition 1, as before
    assert read_revision(text("HAND1 ROUND1 call"), EDITION_3).commands_first is False
    assert kind("PROTEST I meant HAND1 ROUND1 call", replace(EDITION_3, my_turn=True)) == "command"
    assert kind("PROTEST I meant HAND1 ROUND1 call", EDITION_1) == "command"
    # commands from someone not among the table's players are not read: the action is kept
    assert read_revision(text("GONE friday\nHAND1 ROUND1 call"), replace(EDITION_3, player=False)).commands_first is False
    # edition 2, as played: the action is kept and the commands are not applied
    for body in ("PROTEST I meant HAND1 ROUND1 call", "GONE friday\nHAND1 ROUND1 call"):
        kept = read_revision(text(body), WAITING)
        assert (kept.kind, kept.commands_first) == ("advance_hold", False), body


def test_a_command_from_a_non_player_is_chat():
    assert kind("BACK", replace(NOT_AT_TABLE, player=False)) == "chat"


def test_a_bare_betting_word_acts_only_from_a_seat_in_the_hand():
    assert kind("call", replace(WAITING, in_hand=False, my_turn=False)) == "action"
    assert kind("call", NOT_AT_TABLE) == "chat"
    assert kind("call", NOT_AT_TABLE, bare=False) == "chat"
    assert kind("HAND1 ROUND1 call", NOT_AT_TABLE) == "action"  # tagged: the action path refuses it


def test_an_error_and_chat():
    assert isinstance(text("HAND1 ROUND1 raise").action, grammar.GrammarError)
    assert kind("HAND1 ROUND1 raise", NOT_AT_TABLE) == "error"
    assert kind("nice hand", WAITING) == "chat"


def test_every_kind_has_its_handler_in_the_fold():
    """As clock events: a kind the function returns and the fold does not handle would be a
    KeyError at the first such comment."""
    folder = _Folder(CFG)
    assert set(folder.on_reading) == set(KINDS)
    assert all(callable(h) for h in folder.on_reading.values())


# -- through the fold: the loser leaves no trace ------------------------------------------------

PLAYERS = ("alice", "bob", "carol", "dave")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
CFG = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False, private=True)
START = HandStart(1, "1", "dave", 0, (1, 2), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def fold(*posts: tuple[str, str, str], edition: int | None = None):
    """``posts``: (author, thread, body) in archive order, in hand 1 (carol first to act), at a
    table of the current edition (or of ``edition``)."""
    revs = [Revision(i + 1, thread, str(i + 1), 1, a, f"2026-01-01T00:{i + 1:02d}:00+00:00", b)
            for i, (a, thread, b) in enumerate(posts)]
    cfg = CFG if edition is None else replace(CFG, settings=replace(CFG.settings, edition=edition))
    return fold_table(cfg, [START], revs, [])


def verdicts(result, who):
    return [(v["status"], v["code"], v["canonical"]) for v in result.rows["verdict"] if v["author"] == who]


def test_fold_score_over_a_command_the_command_is_not_applied():
    res = fold(("dave", "1", "SCORE\nGONE friday"))
    assert verdicts(res, "dave") == [("accepted", "", "SCORE")]
    assert "dave" not in res.state.days.vacation


def test_fold_an_advance_action_over_a_command_the_command_is_not_applied():
    res = fold(("dave", "1", "CALL $10\nGONE friday"))
    assert [v[0] for v in verdicts(res, "dave")] == ["accepted"]
    assert res.state.current.advance.get("dave") and "dave" not in res.state.days.vacation


def test_fold_a_command_and_an_action_both_apply_in_order():
    res = fold(("carol", "1", "GONE friday\nHAND1 ROUND1 call"))  # at carol's turn
    assert [(v[0], v[2]) for v in verdicts(res, "carol")] == [("accepted", "GONE friday"),
                                                             ("accepted", "HAND1 ROUND1 call")]
    assert "carol" in res.state.days.vacation


def test_fold_a_protest_before_ones_turn_is_filed_and_its_action_not_kept():
    res = fold(("dave", "1", "PROTEST I meant HAND1 ROUND1 call"))  # carol is to act
    assert verdicts(res, "dave") == [("accepted", "", "PROTEST")]
    assert (res.state.days.frozen, res.state.days.protester) == ("protest", "dave")
    assert "dave" not in res.state.current.advance


def test_fold_of_an_edition_2_table_keeps_the_action_and_drops_the_commands_as_it_was_played():
    """A table of edition 2 replays as edition 2 played it (its ledger holds what was posted)."""
    res = fold(("dave", "1", "PROTEST I meant HAND1 ROUND1 call"), edition=2)
    assert res.state.days.frozen is None or res.state.days.frozen != "protest"
    assert res.state.current.advance.get("dave")
    res = fold(("dave", "1", "GONE friday\nHAND1 ROUND1 call"), edition=2)
    assert "dave" not in res.state.days.vacation and res.state.current.advance.get("dave")


def test_fold_seatlog_and_rail_are_commands_from_edition_3_and_chat_before():
    """Before edition 3 a line SEATLOG or RAIL was chat: an older table's ledger replays so."""
    for body in ("SEATLOG", "RAIL", "RAIL OFF"):
        assert verdicts(fold(("dave", "1", body), edition=2), "dave") == [("chat", "", "")], body
        refused = verdicts(fold(("dave", "1", body)), "dave")  # edition 3, not a tournament's table
        assert [(v[0], v[1]) for v in refused] == [("rejected", "not_a_tournament")], (body, refused)


def test_fold_a_command_before_ones_turn_applies_then_the_action_is_kept():
    res = fold(("dave", "1", "GONE friday\nHAND1 ROUND1 call"))  # carol is to act
    assert [(v[0], v[2]) for v in verdicts(res, "dave")] == [("accepted", "GONE friday"),
                                                            ("accepted", "HAND1 ROUND1 call")]
    assert "dave" in res.state.days.vacation and res.state.current.advance.get("dave")


def test_fold_a_private_score_is_not_a_score_request():
    res = fold(("dave", "~private", "SCORE"))
    assert verdicts(res, "dave") == [("ignored", "private_not_advance", "")]
    assert res.state.score_pending == []
