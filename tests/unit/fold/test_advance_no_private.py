"""On a forum without private messages (a blog), an advance action that does not act queues no
private message: the forum could not deliver it, and an undeliverable message would hold up
the table's outbox. The turn notice tells the player it is his turn (issue 14)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
# button carol: alice small blind, bob big blind, carol first to act; alice acts second
START = HandStart(1, "1", "carol", 0, (1, 2), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def _fold(private: bool):
    cfg = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False,
                      private=private)
    revs = [Revision(1, "1", "1", 1, "alice", "2026-01-01T00:01:00+00:00", "IF/B>=100 FOLD"),
            Revision(2, "1", "2", 1, "carol", "2026-01-01T00:02:00+00:00", "raise 6")]
    return fold_table(cfg, [START], revs, [])


def _advance_privates(result) -> list[dict]:
    return [r for r in result.rows["outbox"] if r["kind"] == "private" and "advance" in r["subject"]]


def test_a_conditional_that_matched_nothing_is_told_privately_where_the_forum_can():
    with_pm = _fold(private=True)
    assert len(_advance_privates(with_pm)) == 1
    assert any("did not act" in b for b in with_pm.private.values())


def test_without_private_messages_nothing_undeliverable_is_queued():
    without = _fold(private=False)
    assert _advance_privates(without) == []
    assert without.current is not None and without.current.to_act == "alice"  # his turn, as usual
