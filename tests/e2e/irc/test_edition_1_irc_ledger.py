"""An IRC table played by the previous release replays as it was played (``TableSettings.edition``).

Issue 28 read emphasis in plain text by CommonMark's rules on every channel: ``CALL *`` by
``/msg`` or in the channel became an advance action and ``~~fold~~ call`` a call, where the
previous release read ``CALL`` (refused ``advance_missing_amount`` privately, ``not_your_turn``
out of turn) and ``fold call`` (refused); and the hand-end list of private advance actions gave
their times in words ("2026-11-28 10:57 UTC", was ISO). Schema 0008 replays every table from its
first input, so without editions every poll after an upgrade failed on such a table ("verdict
row seq 22 differs from the replay"). A table of edition 1 keeps the previous reading and words.

The fixture ``tests/fixtures/edition-1-irc-ledger`` was made by nomicpoker at commit 77b725a with
the script in its README, on a real ngIRCd with ``nomicpoker serve``: table T (roberts-nlhe,
alice, bob, carol), one hand holding each case. The poll reads the table's IRC log (the bridge
of ``serve`` writes it), so no server is needed to replay it.
"""

from __future__ import annotations

from pathlib import Path

from kits.tables.edition import cli, copied_state, derived, ledger_rows, money, rows, upgraded_and_audited
from _paths import FIXTURES

FIXTURE = FIXTURES / "edition-1-irc-ledger"
#: the GNDT after hand 1 as the previous release posted it (alice wins 6 with aces and jacks)
MONEY_AS_PLAYED = {"alice": 104, "bob": 98, "carol": 98}


def _verdicts(state: Path, author: str, body: str) -> list[tuple]:
    return ledger_rows(state, "SELECT c.thread, v.status, v.code, v.canonical FROM np_verdict v "
                 "JOIN np_comment c ON c.forum_id = v.forum_id AND c.thread = v.thread "
                 "WHERE c.author = ? AND c.body = ? ORDER BY v.seq", author, body)


def test_the_fixture_holds_each_changed_reading_as_the_previous_release_read_it(tmp_path):
    state = copied_state(FIXTURE, tmp_path)
    assert _verdicts(state, "alice", "CALL *") == [("~private", "rejected", "advance_missing_amount", ""),
                                                   ("#poker/1", "accepted", "", "call")]
    assert _verdicts(state, "bob", "CALL *") == [("#poker/1", "rejected", "not_your_turn", "")]
    assert _verdicts(state, "carol", "~~fold~~ call") == [("#poker/1", "rejected", "advance_extra", "")]
    assert _verdicts(state, "bob", "CHECK") == [("~private", "accepted", "", "")]  # his private advance action
    published = ledger_rows(state, "SELECT body FROM np_outbox WHERE instr(body, 'sent privately') > 0")
    assert len(published) == 1 and "bob at 2026-11-28T10:57:50.390831+00:00: CHECK." in published[0][0]
    assert money(state) == MONEY_AS_PLAYED


def test_after_the_upgrade_audit_is_identical_and_a_poll_finds_nothing_to_say(tmp_path):
    state = copied_state(FIXTURE, tmp_path)
    before = derived(state)
    log = lambda: rows(state / "irc-log.db", "SELECT * FROM lines ORDER BY id")  # noqa: E731
    lines = log()
    upgraded_and_audited(state)
    res = cli(state, "poll")  # replays the table from its first input (schema 0008)
    assert res.exit_code == 0 and "nothing new" in res.output and "FAILED" not in res.output, res.output
    assert log() == lines  # nothing spooled for serve to send
    assert derived(state) == before
    assert money(state) == MONEY_AS_PLAYED
    assert "edition 1 (table set edition=3 opts in)" in cli(state, "table", "show", "--table", "T").output
