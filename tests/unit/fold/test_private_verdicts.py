"""A running hand's advance action mailed to the Dealer is not named by its verdict (issue 21).

docs/fair-dealing.md: "Until the hand ends, no secret is printed, logged, posted or written to
the ledger." At an e-mail table a player writes to the Dealer alone (the other players learn
only what the broadcasts say), so an advance action sent out of turn is as private as one sent
to a forum's private inbox: from edition 2 its verdict (np_verdict) keeps no ``canonical`` form
of it, as the private inbox's never did. A hand of edition 1 stored it, and replays so.

In the pure table fold: a roberts-nlhe table, blinds 1/2, carol first to act; bob (the big
blind) sends ``RAISE/S $77`` before his turn."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol", "dave")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
FORUM = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False, private=True)
MAIL = replace(FORUM, players_see_thread=False)  # what the e-mail adapter declares


def fold(cfg: TableConfig, *posts: tuple[str, str]):
    start = HandStart(1, "1", "dave", 0, (1, 2), tuple((p, 100) for p in PLAYERS), 0,
                      "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)
    revs = [Revision(i + 1, "1", str(i + 1), 1, a, f"2026-01-01T00:{i + 1:02d}:00+00:00", b)
            for i, (a, b) in enumerate(posts)]
    return fold_table(cfg, [start], revs, [])


def bobs(result) -> list[dict]:
    return [v for v in result.rows["verdict"] if v["author"] == "bob"]


def test_a_mailed_advance_action_is_accepted_and_its_verdict_does_not_name_it():
    r = fold(MAIL, ("bob", "RAISE/S $77"))
    (v,) = bobs(r)
    assert v["status"] == "accepted" and v["canonical"] == ""
    assert not any("77" in str(x) for x in v.values()), v  # not in the code, the words, nowhere
    assert r.state.current.advance == {"bob": "RAISE/S $77"}  # the fold keeps it (the snapshot is sealed)
    withdrawn = fold(MAIL, ("bob", "RAISE/S $77"), ("bob", "UNDO"))
    assert [v["canonical"] for v in bobs(withdrawn)] == ["", ""]
    assert withdrawn.state.current.advance == {}


def test_the_mailed_advance_action_still_acts_at_its_turn():
    r = fold(MAIL, ("bob", "RAISE/S $77"), ("carol", "call"), ("dave", "call"), ("alice", "call"))
    bob = next(s for s in r.state.current.hand.seats if s.name == "bob")
    assert bob.total_bet == 79  # WRGPT's RAISE $x raises by x: 77 over the big blind's 2, at his turn


def test_a_table_of_edition_1_keeps_naming_it_as_its_hands_were_played():
    r = fold(replace(MAIL, settings=TableSettings(edition=1)), ("bob", "RAISE/S $77"))
    (v,) = bobs(r)
    assert v["status"] == "accepted" and "$77" in v["canonical"]


def test_on_a_forum_thread_the_comment_is_public_and_its_verdict_names_it():
    r = fold(FORUM, ("bob", "RAISE/S $77"))
    (v,) = bobs(r)
    assert "$77" in v["canonical"]
