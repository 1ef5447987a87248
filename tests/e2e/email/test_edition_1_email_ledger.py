"""An e-mail table played by the previous release replays as it was played (``TableSettings.edition``).

Issue 28 changed what an e-mail table reads and announces: plain text reads emphasis by
CommonMark's rules (``CALL *`` is an advance action, ``~~fold~~ call`` a call; the previous
release read ``CALL`` and ``fold call``), the dealer acting for a player on vacation no longer
names the vacation, ``BACK`` from a vacation the table never heard of is confirmed privately,
``WHAT`` and ``SCORE`` are answered to the asker alone, and a mail's table talk is shown in the
payout. A table of edition 1 keeps the previous release's reading and announcements (edition 2:
every table created since), so its ledger replays as posted: ``audit`` finds it identical and a
poll sends nothing.

The fixture ``tests/fixtures/edition-1-email-ledger`` was made by nomicpoker at commit 77b725a
with the script in its README, on real Dovecot/aiosmtpd servers: table T (roberts-nlhe, alice,
bob, carol, dave, blinds 1/2), three hands holding each case. Here the Dealer's mailbox is on
fresh servers (tests/kits/servers/mail.py), as after a move: the poll finds nothing new to read or send.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kits.servers.mail import dealer_config, start_servers
from kits.tables.edition import cli, copied_state, derived, ledger_rows, money, upgraded_and_audited
from _paths import FIXTURES

pytestmark = [pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")]

FIXTURE = FIXTURES / "edition-1-email-ledger"
PLAYERS = ("alice", "bob", "carol", "dave")
USERS = {"dealer": "dealer-pw", "alice": "a-pw", "bob": "b-pw", "carol": "c-pw", "dave": "d-pw"}
#: each player's ID as the welcome mail of the previous release gave it (README)
IDS = {"alice": "3iaplq", "bob": "cnhiyf", "carol": "lo363h", "dave": "pfr2n4"}
#: the GNDT after hand 3 as the previous release posted it
MONEY_AS_PLAYED = {"alice": 90, "bob": 94, "carol": 124, "dave": 92}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def _verdicts(state: Path, author: str, body: str) -> list[tuple]:
    """(status, code, canonical) of each mail ``body`` from ``author``, in archive order."""
    return ledger_rows(state, "SELECT v.status, v.code, v.canonical FROM np_verdict v JOIN np_comment c ON "
                        "c.forum_id = v.forum_id AND c.thread = v.thread WHERE c.author = ? AND c.body = ? "
                        "ORDER BY v.seq", author, body)


def _hand_verdicts(state: Path, hand: int, author: str) -> list[tuple]:
    """(status, code, canonical) of ``author``'s mails in ``hand`` (a running hand's mails are
    archived sealed, so they are found by their verdicts)."""
    return ledger_rows(state, "SELECT status, code, canonical FROM np_verdict WHERE hand = ? AND author = ? "
                        "ORDER BY seq", hand, author)


def _posts(state: Path, needle: str) -> list[tuple]:
    """(kind, recipient) of each outbox row whose body holds ``needle``."""
    return ledger_rows(state, "SELECT kind, recipient FROM np_outbox WHERE instr(body, ?) > 0 ORDER BY seq", needle)


def _on(servers, state: Path, tmp_path: Path) -> None:
    """The Dealer's mailbox moved to ``servers`` (the same ID key, a roster there): the table's
    forum config names them."""
    cfg = dealer_config(servers, tmp_path, PLAYERS)
    con = sqlite3.connect(state / "ledger.db")
    with con:
        con.execute("UPDATE np_table SET forum_config = ? WHERE name = 'T'", (json.dumps(cfg),))
    con.close()


def test_the_fixture_holds_every_changed_case_as_the_previous_release_read_and_posted_it(tmp_path):
    state = copied_state(FIXTURE, tmp_path)
    # hand 1: CALL * out of turn was "CALL" (refused), ~~fold~~ call "fold call" (refused)
    assert _verdicts(state, "alice", "CALL *\n") == [("rejected", "not_your_turn", ""), ("accepted", "", "call")]
    assert _verdicts(state, "bob", "~~fold~~ call\n") == [("rejected", "advance_extra", "")]
    # WHAT and SCORE were answered to the whole table (a comment: a broadcast)
    assert _posts(state, "For bob (mail:") == [("comment", "")]
    assert _posts(state, "carol asked for the SCORE") == [("comment", "")]
    # hand 2: the dealer acting for a player on vacation named it, BACK went to the table
    assert _posts(state, "dave is away: the dealer folds for them.") == [("comment", "")]
    assert _posts(state, "bob is away: the dealer checks for them.") == [("comment", "")]
    assert _posts(state, "bob is back (mail:") == [("comment", "")]
    # the talk of alice's $2 (hand 1) and bob's CALL $2 (hand 3) was archived, shown nowhere
    assert _verdicts(state, "alice", "$2\n\n> Let's see a flop.\n") == [("accepted", "", "$2")]
    assert _verdicts(state, "bob", "CALL $2\n\n> I smell weakness.\n") == [("accepted", "", "CALL $2")]
    assert _posts(state, "smell weakness") == [] and _posts(state, "see a flop") == []
    assert money(state) == MONEY_AS_PLAYED
    assert ledger_rows(state, "SELECT forum_kind, settings FROM np_table") == [("email", '{"deadline_hours":48,"reminders":0}')]


def test_after_the_upgrade_audit_is_identical_and_a_poll_sends_nothing(servers, tmp_path):
    state = copied_state(FIXTURE, tmp_path)
    before = derived(state)
    upgraded_and_audited(state)
    _on(servers, state, tmp_path)
    res = cli(state, "poll")  # replays the table from its first input (schema 0008)
    assert res.exit_code == 0 and "FAILED" not in res.output and "inconsistent" not in res.output, res.output
    assert servers.delivered == []  # not one mail: nothing posted again, nothing new
    assert derived(state) == before  # every verdict, GNDT entry and post as the release wrote it
    assert money(state) == MONEY_AS_PLAYED
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output, res.output
    shown = cli(state, "table", "show", "--table", "T")
    assert "edition 1 (table set edition=3 opts in)" in shown.output, shown.output


def _mail(servers, player: str, body: str) -> None:
    servers.send(player, f"ID={IDS[player]}", body)


def _new(servers, player: str, seen: dict[str, int]) -> list[str]:
    box = servers.inbox(player)
    new = [f"[{m['Subject']}] " + m.get_content().replace("\r\n", "\n") for m in box[seen.get(player, 0):]]
    seen[player] = len(box)
    return new


def test_opted_in_the_table_reads_and_answers_as_edition_2_from_its_next_hand(servers, tmp_path):
    state = copied_state(FIXTURE, tmp_path)
    assert cli(state, "db", "upgrade").exit_code == 0
    _on(servers, state, tmp_path)
    assert cli(state, "poll").exit_code == 0
    res = cli(state, "table", "set", "edition=2", "--table", "T", "--note", "issue 28's mail")
    assert res.exit_code == 0, res.output
    res = cli(state, "hand", "start", "--table", "T", "--blinds", "1,2")
    assert res.exit_code == 0, res.output
    seen: dict[str, int] = {}
    opening = _new(servers, "carol", seen)
    # hand 4: the button at carol, dave small blind, alice big blind, bob first to act
    assert any("bob to act, 2 to call" in m for m in opening), opening
    _mail(servers, "alice", "CALL *\n")  # out of turn: an advance action now (was refused)
    _mail(servers, "dave", "WHAT\n")  # answered to dave alone now (was the whole table)
    assert cli(state, "poll").exit_code == 0
    # accepted; from edition 2 the ledger does not name it while the hand runs (fair-dealing.md)
    assert _hand_verdicts(state, 4, "alice") == [("accepted", "", "")]
    alice = _new(servers, "alice", seen)
    assert any("alice's advance action: CALL *" in m for m in alice), alice
    assert not any("For dave" in m for m in alice), alice
    assert any("Your state" in m for m in _new(servers, "dave", seen))
    _mail(servers, "bob", "~~fold~~ call\n")  # at his turn: a call now (was refused)
    assert cli(state, "poll").exit_code == 0
    assert _hand_verdicts(state, 4, "bob") == [("accepted", "", "call")]
    told = _new(servers, "carol", seen)
    assert any("bob calls" in m for m in told), told
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output, res.output
