"""How long does a poll take as a thread grows? (the poll replays the whole table each run)

Plays one hand on the local forum with a real SQLite ledger, then pads the thread with N
comments (chat, and rejected actions that each get a dealer reply) and times an idle poll and
the pure fold. Usage: python scripts/bench_poll.py [N ...]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _bot_kit import Table  # noqa: E402

from nomicpoker.shell import ledger, replay  # noqa: E402


def main(sizes: list[int]) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            t = Table(Path(tmp), players=("alice", "bob", "carol"))
            t.start(ante=5)
            t.draw(1)
            for i in range(n):
                who = ("alice", "bob", "carol")[i % 3]
                t.p[who].say("nice hand" if i % 2 else "HAND1 ROUND3 check")  # chat / stale round
            t0 = time.perf_counter()
            t.run()
            first = time.perf_counter() - t0
            t0 = time.perf_counter()
            t.run()
            idle = time.perf_counter() - t0
            with Session(t.engine) as s:
                table = ledger.get_table(s, "T")
                t0 = time.perf_counter()
                replay.fold_for(s, table, t.state)
                fold = time.perf_counter() - t0
            print(f"{n:6d} comments: first poll {first:7.2f} s (archives, adjudicates, posts "
                  f"{n // 2} replies), idle poll {idle:6.3f} s, fold alone {fold:6.3f} s")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000])
