"""``scripts/bench_tournament.py --only play`` runs (issue 24): a 27-player tournament (three
tables of 9) on the local forum, played by scripted players under a fake clock through the
tournament director's loop (tables broken, balanced, the final table, levels, hand start) to
ONE winner, with its figures printed and ``audit`` (a replay from nothing, and the
tournament's chip and draw checks) identical. Two spectators on the rail (``--rail 2``: the
command line's part of each poll runs after it) get every showdown of the tournament once: a
run reads only the newest event's watermark, and must send what folding every event sent. A real process, as the benchmark is run; the
ledger it leaves (``BENCH_KEEP``) is read with sqlite3, not through the code under test. The
1,000-player figures are in docs/benchmarks.md."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import ROOT


@pytest.mark.parametrize("seed", ["a", "e"])
def test_the_play_benchmark_plays_a_tournament_through_the_director_to_one_winner(seed):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_tournament.py"), "--players", "27",
                           "--only", "play", "--money", "200", "--seed", seed, "--rail", "2"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "BENCH_KEEP": "1"})
    out = done.stdout
    kept = re.search(r"^kept (.+)$", out, re.M)
    try:
        assert done.returncode == 0, out + done.stderr
        assert "audit of every table from nothing: 3 tables, 0 differences (identical)" in out, out
        assert "chips conserved: 5400 at its tables, 27 x 200 at the start" in out, out
        winner = re.search(r"^winner: (p\d{4})$", out, re.M).group(1)
        assert re.search(rf"^places: 1\. {winner}, 2\. p\d{{4}}, ", out, re.M), out
        assert "(27 ranked of 27;" in out, out
        moves = re.search(r"^moves: (\d+) .*?(\d+) tables broken; final table made at (\d) players", out, re.M)
        assert moves and int(moves.group(1)) >= 2 and int(moves.group(2)) == 2, out  # 3 tables: 2 broken
        assert "idle poll at the end" in out and "site from nothing at the end" in out, out
        con = sqlite3.connect(Path(kept.group(1)) / "state" / "ledger.db")
        try:
            status, = con.execute("SELECT status FROM np_tournament WHERE name = 'bench'").fetchone()
            finish = con.execute("SELECT player FROM np_tournament_event WHERE kind = 'finish'").fetchall()
            money = {}
            for table, player, new in con.execute("SELECT table_name, player, new FROM np_entry "
                                                  "WHERE column = 'Money' ORDER BY id"):
                money[(table, player)] = int(new)
            start = json.loads(con.execute("SELECT data FROM np_tournament_event WHERE kind = 'start'").fetchone()[0])
            # the showdowns, from the ledger's own rows: a hand ended where someone revealed or mucked
            showdowns = set(con.execute(
                "SELECT e.table_name, e.hand FROM np_hand_end e WHERE EXISTS (SELECT 1 FROM np_action a WHERE "
                "a.table_name = e.table_name AND a.hand = e.hand AND a.event IN ('reveal', 'muck'))").fetchall())
            last = dict(con.execute("SELECT table_name, MAX(hand) FROM np_hand_end GROUP BY table_name").fetchall())
            recorded = [json.loads(d) for d, in con.execute(
                "SELECT data FROM np_tournament_event WHERE kind = 'rail_showdowns' ORDER BY seq")]
        finally:
            con.close()
        forum = sqlite3.connect(Path(kept.group(1)) / "state" / "forum.db")
        try:
            got = {who: [s for s, in forum.execute("SELECT subject FROM messages WHERE recipient = ? ORDER BY id",
                                                    (who,))] for who in ("r000", "r001")}
        finally:
            forum.close()
        assert status == "finished" and finish == [(winner,)]
        assert len(start["tables"]) == 3
        # the winner holds every chip, at one table; every other player's latest Money is 0
        assert {k: v for k, v in money.items() if v} == {next(k for k in money if k[1] == winner and money[k]): 5400}
        # the rail: every showdown once, to each spectator, in the order the hands ended at a table
        assert len(showdowns) >= 5, showdowns
        want = sorted(f"Tournament bench: showdown at {t}, hand {n}" for t, n in showdowns)
        assert sorted(got["r000"]) == want and sorted(got["r001"]) == want
        sent = [(t, n) for e in recorded for t, n, to in e["sent"] if to == ["r000", "r001"]]
        assert sorted(sent) == sorted(showdowns)  # each once in the record too
        assert len(recorded) > 3 and recorded[-1]["covered"] == dict(sorted(last.items()))  # the watermark: every hand
    finally:
        if kept:
            shutil.rmtree(kept.group(1), ignore_errors=True)
