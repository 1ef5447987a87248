"""A player's tournament commands in a private message to the Dealer, in the pure table fold
(:func:`nomicpoker.core.fold.advance_private.tournament_ask`): at a tournament's table made with
``private_asks`` a private ``SEATLOG``, ``RAIL`` or ``RAIL OFF`` is an accepted verdict the shell
answers (tests/e2e/tournament/test_tournament_private_asks.py); at a table made before it, or
of its own, a private message holds advance actions only, as it always did."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
BEFORE = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False,
                     settings=TableSettings(tournament="spring"))
NOW = replace(BEFORE, settings=replace(BEFORE.settings, private_asks=True))
START = HandStart(1, "1", "carol", 0, (1, 2), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def _private(config: TableConfig, body: str, hands=(START,)):
    rev = Revision(1, PRIVATE_THREAD, "pm:1", 1, "bob", "2026-01-01T01:00:00+00:00", body)
    return [(v["status"], v["code"], v["canonical"]) for v in fold_table(config, list(hands), [rev], []).rows["verdict"]]


@pytest.mark.parametrize("body, canonical", [("SEATLOG", "SEATLOG"), ("RAIL", "RAIL"), ("RAIL OFF", "RAIL OFF")])
def test_a_private_tournament_command_is_accepted_during_a_hand_and_between_hands(body, canonical):
    assert _private(NOW, body) == [("accepted", "", canonical)]
    assert _private(NOW, body, hands=()) == [("accepted", "", canonical)]


def test_a_table_made_before_reads_advance_actions_only():
    assert _private(BEFORE, "SEATLOG") == [("ignored", "private_not_advance", "")]
    assert _private(BEFORE, "SEATLOG", hands=()) == [("ignored", "no_hand", "")]


def test_anything_but_one_such_command_is_read_as_before():
    assert _private(NOW, "SEATLOG\nRAIL") == [("ignored", "private_not_advance", "")]
    assert _private(NOW, "GONE Friday") == [("ignored", "private_not_advance", "")]
    assert _private(NOW, "CALL *")[0][0] == "accepted"  # an advance action, as ever


def test_an_advance_action_with_a_tournament_command_below_it_is_still_taken():
    """The first line is an advance action: it is read as at any table (a command on a later
    line of a private message was never read). The old code accepted the RAIL and dropped the
    action without a word."""
    for body in ("CALL *\nRAIL", "CALL *\nSEATLOG", "CALL *\nRAIL OFF"):
        assert _private(NOW, body) == _private(BEFORE, body)
        assert _private(NOW, body)[0][2] == ""  # not answered as RAIL/SEATLOG
    assert _private(NOW, "CALL *\nRAIL") == [("accepted", "", "")]
