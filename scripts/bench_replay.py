"""Hands per second replaying the same PHH hands with nomicpoker's engine and with pokerkit.

Both sides get the same hands, parsed once beforehand (parse time is reported separately):
nomicpoker runs :func:`nomicpoker.core.phh.phh.play` (set up the hand, convert and apply every action,
settle); pokerkit iterates ``HandHistory`` (which builds a ``State`` and applies the same
actions with its automations). Every finishing stack is compared between the two, so the
figures are for runs that agree.

    python scripts/bench_replay.py [--hands 2000] [--repeat 3] [--profile]

``--end-to-end`` measures instead what a user waits for, over every file of a directory
(default ``../shared/data/phh``), side by side in one run: nomicpoker's ``phh replay`` path
(find the files, read, parse, replay, compare with ``finishing_stacks``:
:func:`nomicpoker.shell.audit.phh_files.replay_paths`) against PokerKit's own loop over the same files
(find them the same way, ``HandHistory.load`` each, iterate its states to the end); in
process, interleaved passes, best of ``--repeat``; then as processes (``nomicpoker phh replay
DIR -q`` against ``python -c`` running PokerKit's loop), interleaved, best of ``--repeat``, in
CPU seconds (user + system of the child: what load does not inflate much) and wall time.

    python scripts/bench_replay.py --end-to-end [--dir DIR] [--repeat 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import sys
import time
from pathlib import Path

from nomicpoker.core.phh.phh import parse_phh, play
from nomicpoker.shell.storage.rulesets import load_ruleset

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "pluribus"

#: PokerKit's own loop over the files under a directory, the same walk as ``phh replay``
POKERKIT_LOOP = """
import sys, warnings
from pathlib import Path
import pokerkit
warnings.simplefilter("ignore")
def run(root):
    n = 0
    for f in sorted(q for q in Path(root).rglob("*") if q.suffix in (".phh", ".phhs") and q.is_file()):
        with open(f, "rb") as fp:
            hh = pokerkit.HandHistory.load(fp)
        for state in hh:
            pass
        n += 1
    return n
if __name__ == "__main__":
    print(run(sys.argv[1]))
"""


def end_to_end(args: argparse.Namespace) -> int:
    """Whole-directory replay, nomicpoker against PokerKit's own loop (see the docstring)."""
    import subprocess
    import warnings

    from nomicpoker.shell.audit.phh_files import replay_paths

    root = args.dir
    if not root.is_dir():
        print(f"no directory {root}", file=sys.stderr)
        return 2
    rs = load_ruleset("roberts-nlhe")
    loop: dict = {}
    exec(compile(POKERKIT_LOOP, "pokerkit_loop", "exec"), loop)
    t_ours = t_theirs = float("inf")
    summary = None
    n_theirs = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            summary = replay_paths([root], rs)
            t_ours = min(t_ours, time.perf_counter() - t0)
            t0 = time.perf_counter()
            n_theirs = loop["run"](root)
            t_theirs = min(t_theirs, time.perf_counter() - t0)
    assert summary is not None
    n = summary.matched + len(summary.mismatched) + len(summary.skipped) + len(summary.errors)
    print(f"files: {n_theirs} under {root} (in process: best of {args.repeat}, interleaved)")
    print(f"nomicpoker phh replay: {t_ours:6.2f} s  {n / t_ours:7.0f} hands/s  "
          f"(matched {summary.matched}, mismatched {len(summary.mismatched)}, "
          f"skipped {len(summary.skipped)}, errors {len(summary.errors)})")
    print(f"pokerkit own loop:     {t_theirs:6.2f} s  {n_theirs / t_theirs:7.0f} hands/s")
    print(f"ratio (in process):    nomicpoker is {t_theirs / t_ours:.1f}x pokerkit")
    exe = Path(sys.executable)
    cli = exe.parent / "nomicpoker"
    ours_cmd = [str(cli), "phh", "replay", str(root), "-q"]
    theirs_cmd = [str(exe), "-c", POKERKIT_LOOP, str(root)]
    runs: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    for _ in range(args.repeat):  # interleaved, as in process; (CPU, wall) of each child
        for side, cmd in (("ours", ours_cmd), ("theirs", theirs_cmd)):
            r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(cmd, check=side == "theirs", capture_output=True)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs[side].append(((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime),
                               time.perf_counter() - t0))
    c_ours, c_theirs = min(c for c, _ in runs["ours"]), min(c for c, _ in runs["theirs"])
    w_ours, w_theirs = min(w for _, w in runs["ours"]), min(w for _, w in runs["theirs"])
    print(f"as processes (CPU):    nomicpoker {c_ours:.2f} s, pokerkit {c_theirs:.2f} s: "
          f"{c_theirs / c_ours:.1f}x  (best of {args.repeat}, user + system)")
    print(f"as processes (wall):   nomicpoker {w_ours:.2f} s, pokerkit {w_theirs:.2f} s: "
          f"{w_theirs / w_ours:.1f}x  (load average {os.getloadavg()[0]:.1f})")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        replay_paths([root], rs)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    return 0 if summary.ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5, help="best of this many timed passes")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--profile", action="store_true", help="cProfile one nomicpoker pass")
    ap.add_argument("--end-to-end", action="store_true",
                    help="whole directory, files to verdicts, against PokerKit's own loop")
    ap.add_argument("--dir", type=Path, default=CORPUS.parent, help="directory for --end-to-end")
    args = ap.parse_args()
    if args.end_to_end:
        return end_to_end(args)

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
