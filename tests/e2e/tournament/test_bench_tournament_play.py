"""``scripts/bench_tournament.py --only play`` runs (issue 24): a one-table tournament of four
scripted players on the local forum, played down to its winner under a fake clock, with its
figures printed and ``audit`` (a replay from nothing) identical. A real process, as the
benchmark is run; the 1,000-player figures are in docs/benchmarks.md."""

from __future__ import annotations

import subprocess
import sys

from _paths import ROOT


def test_the_play_benchmark_plays_a_small_tournament_to_its_winner_with_audit_identical():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_tournament.py"), "--players", "4",
                           "--only", "play", "--to-end", "--money", "100", "--seed", "smoke"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "audit of every table from nothing: 1 tables, 0 differences (identical)" in out, out
    assert "winner: p000" in out and "idle poll of the whole tournament (1 tables)" in out, out
    assert "site from nothing at the end" in out and "hands played" in out, out
