"""Hands per second replaying the same PHH hands with nomicpoker's engine and with pokerkit.

Both sides get the same hands, parsed once beforehand (parse time is reported separately):
nomicpoker runs :func:`nomicpoker.core.phh.play` (set up the hand, convert and apply every action,
settle); pokerkit iterates ``HandHistory`` (which builds a ``State`` and applies the same
actions with its automations). Every finishing stack is compared between the two, so the
figures are for runs that agree.

    /work/venv/bin/python scripts/bench_replay.py [--hands 2000] [--repeat 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

from nomicpoker.core.phh import parse_phh, play
from nomicpoker.shell.rulesets import load_ruleset

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5, help="best of this many timed passes")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--profile", action="store_true", help="cProfile one nomicpoker pass")
    args = ap.parse_args()

    import pokerkit

    files = sorted(args.corpus.rglob("*.phh"))[: args.hands]
    if not files:
        print(f"no .phh files under {args.corpus}", file=sys.stderr)
        return 2
    texts = [f.read_text() for f in files]
    rs = load_ruleset("roberts-nlhe")

    t = time.perf_counter()
    ours = [parse_phh(x) for x in texts]
    parse_ours = time.perf_counter() - t
    t = time.perf_counter()
    theirs = [pokerkit.HandHistory.loads(x) for x in texts]
    parse_theirs = time.perf_counter() - t

    def run_ours() -> list[tuple[int, ...]]:
        out = []
        for h in ours:
            hand, err, _ = play(h, rs)
            if err:
                raise SystemExit(f"nomicpoker failed: {err}")
            out.append(tuple(s.money for s in hand.seats))
        return out

    def run_theirs() -> list[tuple[int, ...]]:
        out = []
        for hh in theirs:
            state = None
            for state in hh:
                pass
            out.append(tuple(state.stacks))
        return out

    # interleaved passes, best of each: the machine is shared, so both sides see the same load
    t_ours = t_theirs = float("inf")
    r_ours: list = []
    r_theirs: list = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        r_ours = run_ours()
        t_ours = min(t_ours, time.perf_counter() - t0)
        t0 = time.perf_counter()
        r_theirs = run_theirs()
        t_theirs = min(t_theirs, time.perf_counter() - t0)
    agree = sum(a == b for a, b in zip(r_ours, r_theirs))
    n = len(files)
    print(f"hands: {n} pluribus hands from {args.corpus} (best of {args.repeat})")
    print(f"parse:      nomicpoker {parse_ours * 1e3:8.1f} ms   pokerkit {parse_theirs * 1e3:8.1f} ms")
    print(f"replay:     nomicpoker {n / t_ours:8.0f} hands/s   pokerkit {n / t_theirs:8.0f} hands/s")
    print(f"ratio:      nomicpoker is {t_theirs / t_ours:.1f}x pokerkit")
    print(f"agreement:  {agree}/{n} finishing stacks identical")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run_ours()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return 0 if agree == n else 1


if __name__ == "__main__":
    raise SystemExit(main())
