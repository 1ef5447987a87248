"""What ``score`` and ``table show`` tell the Dealer (issue 27): a player who timed out is AWOL
in the standings' Status, as on the table's own status table; ``table show`` names the
betting round and the board. Real processes on a real ledger and the local forum."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from kits.tables.bot import Table
from kits.tables.cli import cli


def test_score_says_awol_for_a_player_who_timed_out(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", deadline_hours=4,
              issue_decks=False)
    started = datetime.now(timezone.utc) - timedelta(hours=5)
    t.start(ante=0, blinds=(1, 2), now=lambda: started)
    t.run()  # at the real time: the first to act has timed out (folded) and is AWOL
    sql = t.sql()
    events = [r[0] for r in sql.execute("SELECT player FROM np_dealer_event WHERE kind = 'timeout'")]
    sql.close()
    assert len(events) == 1, events
    res = cli("score", "--state", str(t.state))
    assert res.returncode == 0, res.stderr
    (row,) = [x for x in res.stdout.splitlines() if f" {events[0]} " in x]
    assert row.rstrip(" |").endswith("AWOL"), res.stdout
    others = [x for x in res.stdout.splitlines() if x.startswith("|") and events[0] not in x and "Name" not in x]
    assert others and all("AWOL" not in x for x in others), res.stdout


def test_table_show_names_the_round_and_the_board(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    t.run()
    st = ["--state", str(t.state)]
    res = cli("table", "show", "--table", "T", *st)
    assert "round 1 (before the flop)" in res.stdout and "board: none yet" in res.stdout, res.stdout
    first = next(x for x in res.stdout.splitlines() if x.startswith("now:")).split("waiting for ")[1].split(" ")[0]
    second = "alice" if first == "bob" else "bob"
    t.act(first, "HAND1 ROUND1 call")
    t.act(second, "HAND1 ROUND1 check")
    res = cli("table", "show", "--table", "T", *st)
    assert "round 2 (after the flop)" in res.stdout, res.stdout
    (board,) = [x for x in res.stdout.splitlines() if x.startswith("board: ")]
    assert len(board.split()) == 4, board  # "board:" and the three flop cards
