"""A ledger played before issue 22 changed what some comments and deadlines mean replays as it
was played (``TableSettings.edition``).

Issue 22 changed the meaning of inputs: an ordinary action posted before one's turn is kept for
the turn (it was read as WRGPT's advance action: ``raise 6`` as ``RAISE $6``, ``fold`` as
``FOLD``), an advance action at one's own turn acts as one (``RAISE $6`` was "raise to 6",
``CALL $10`` was refused), a timed-out player is on vacation at once (he had a new deadline at
each later turn), and under roberts-nlhe a player who checked out of turn may not raise at his
next turn. Schema 0008 makes every table replay from its first input, so a ledger of the
previous release would be refused as ``inconsistent`` by the next poll. A table stored without
an edition plays edition 1, as it was played; ``table set edition=2`` opts it in from its next
hand; a new table is stamped with the current edition.

The fixture ``tests/fixtures/edition-1-ledger`` was made by nomicpoker at commit 77b725a (the
last before issue 22's changes) with the script in its README: table R (roberts-nlhe, alice,
bob, carol, dave, blinds 1/2, deadline 4 h), three hands holding each case.
"""

from __future__ import annotations

import json
from pathlib import Path

from nomicpoker.adapters.local import LocalForum

from kits.tables.edition import cli, copied_state, ledger_rows
from _paths import FIXTURES

FIXTURE = FIXTURES / "edition-1-ledger"
#: the GNDT after hand 3 as the previous release posted it (the fixture's hand-3 payout)
MONEY_AS_PLAYED = {"alice": 115, "bob": 105, "carol": 110, "dave": 70}


def _state(tmp_path: Path) -> Path:
    return copied_state(FIXTURE, tmp_path)


def _derived(state: Path) -> dict[str, list[tuple]]:
    """Every derived row that says what the hands were: verdicts, the change log, the ends."""
    return {t: ledger_rows(state, f"SELECT * FROM {t} ORDER BY seq") for t in ("np_verdict", "np_entry", "np_hand_end")}


def _money(state: Path) -> dict[str, int]:
    cells: dict[str, int] = {}
    for player, new in ledger_rows(state, "SELECT player, new FROM np_entry WHERE table_name = 'R' AND "
                                    "\"column\" = 'Money' ORDER BY seq"):
        cells[player] = int(new)
    return cells


def _verdict(state: Path, body: str, author: str) -> tuple:
    """(status, code, canonical) of the comment ``body`` by ``author`` (its latest)."""
    rows = ledger_rows(state, "SELECT v.status, v.code, v.canonical FROM np_verdict v JOIN np_comment c "
                        "ON c.forum_id = v.forum_id AND c.thread = v.thread AND c.table_name = v.table_name "
                        f"WHERE c.body = '{body}' AND c.author = '{author}' ORDER BY v.seq")
    assert rows, (body, author)
    return rows[-1]


def _upgraded(tmp_path: Path) -> Path:
    state = _state(tmp_path)
    res = cli(state, "db", "upgrade")
    assert res.exit_code == 0, res.output
    return state


def test_the_fixture_holds_every_changed_case_as_the_previous_release_read_it(tmp_path):
    state = _state(tmp_path)
    assert _verdict(state, "raise 6", "dave") == ("accepted", "", "RAISE $6")  # out of turn
    assert _verdict(state, "fold", "alice") == ("accepted", "", "FOLD")  # out of turn
    assert _verdict(state, "CALL $10", "carol")[:2] == ("rejected", "call_amount_mismatch")  # her turn
    assert _verdict(state, "RAISE $6", "alice") == ("accepted", "", "raise 6")  # her turn: raise to 6
    assert _verdict(state, "raise 10", "carol")[:2] == ("accepted", "")  # after checking out of turn
    assert _money(state) == MONEY_AS_PLAYED
    assert json.loads(ledger_rows(state, "SELECT settings FROM np_table WHERE name = 'R'")[0][0]).get("edition") is None


def test_after_the_upgrade_poll_and_audit_agree_and_the_hands_keep_their_results(tmp_path):
    state = _state(tmp_path)
    before = _derived(state)
    assert cli(state, "db", "upgrade").exit_code == 0
    res = cli(state, "poll")  # replays the table from its first input (schema 0008)
    assert res.exit_code == 0 and "FAILED" not in res.output and "inconsistent" not in res.output, res.output
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output and "differ" not in res.output, res.output
    assert _derived(state) == before  # nothing rewritten, nothing added
    assert _money(state) == MONEY_AS_PLAYED
    shown = cli(state, "table", "show", "--table", "R")
    assert shown.exit_code == 0 and "edition 1 (table set edition=3 opts in)" in shown.output, shown.output


def test_a_dealer_opts_in_for_the_next_hands_and_audit_replays_it(tmp_path):
    state = _upgraded(tmp_path)
    assert cli(state, "poll").exit_code == 0
    res = cli(state, "table", "set", "edition=2", "--table", "R", "--note", "issue 22's reading")
    assert res.exit_code == 0, res.output
    events = ledger_rows(state, "SELECT data FROM np_dealer_event WHERE table_name = 'R' AND kind = 'settings'")
    assert [json.loads(d) for (d,) in events] == [{"edition": 2}]  # a dealer event: audit replays it
    res = cli(state, "table", "set", "edition=1", "--table", "R")  # never back
    assert res.exit_code != 0 and "never goes back" in res.output, res.output
    res = cli(state, "hand", "start", "--table", "R", "--blinds", "1,2")
    assert res.exit_code == 0, res.output
    forum = LocalForum(state / "forum.db")
    thread = forum.threads()[-1].ref
    opening = "\n".join(c.body for c in forum.list_comments(thread) if c.author == "Dealer")
    # hand 4: the button moved to carol; dave small blind, alice big blind, bob first to act
    assert "**bob** to act" in opening, opening
    forum.post_as("carol", thread, "raise 6")  # out of turn: kept as the ordinary raise (edition 2)
    assert cli(state, "poll").exit_code == 0
    assert _verdict(state, "raise 6", "carol") == ("accepted", "", "raise 6")
    replies = [c.body for c in forum.list_comments(thread) if c.author == "Dealer"]
    assert any("carol's advance action: raise 6, read as at your turn" in b for b in replies), replies[-1]
    res = cli(state, "audit")
    assert res.exit_code == 0 and "identical" in res.output, res.output
    shown = cli(state, "table", "show", "--table", "R")
    assert "; edition 2 (table set edition=3 opts in)" in shown.output, shown.output


def test_a_new_table_is_stamped_with_the_current_edition(tmp_path):
    state = tmp_path / "state"
    res = cli(state, "table", "create", "--name", "N", "--players", "alice,bob", "--ruleset", "roberts-nlhe")
    assert res.exit_code == 0, res.output
    assert json.loads(ledger_rows(state, "SELECT settings FROM np_table WHERE name = 'N'")[0][0])["edition"] == 3
    assert "edition 3" in cli(state, "table", "show", "--table", "N").output
    res = cli(state, "table", "set", "edition=4", "--table", "N")
    assert res.exit_code != 0 and "edition = 4" in res.output, res.output
