"""Does a poll cost the same on a table's first day and its hundredth? (issue 8)

Builds, on the local forum with a real SQLite ledger, a table whose archive holds N comment
revisions (default 15,000) over many hands, as a game would: each hand is played to its end
(three players, Robert's Rules with blinds: the first two to act fold) and its thread padded
with chat to ``--per-hand`` revisions. Then ``--tables`` copies of it are made in the same
ledger, and measured side by side, in the same run:

- the in-process poll of one table (``nomicpoker.shell.poll.poll``) with nothing new, and
  after one new comment: resumed from the table's snapshot, and replaying the whole table
  from its first input (``incremental=False``, what every poll did before snapshots);
- the same for all the tables in one poll;
- ``audit`` of one table (a replay from zero, into a scratch database, compared row by row);
- ``nomicpoker poll`` as a process with nothing new, and ``nomicpoker version`` and
  ``--help``, in CPU seconds (user + system of the child process).

Each figure is the best of ``--repeat`` runs. Usage:
    python scripts/bench_poll.py [--revisions 15000] [--per-hand 100] [--tables 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _bot_kit import Table  # noqa: E402

from nomicpoker.shell import poll  # noqa: E402
from nomicpoker.shell.audit import audit  # noqa: E402
from nomicpoker.shell.store import ALL_MODELS, SnapshotRow  # noqa: E402

PLAYERS = ("alice", "bob", "carol")


def build(tmp: Path, revisions: int, per_hand: int) -> Table:
    """One table whose archive holds about ``revisions`` revisions, ``per_hand`` per hand."""
    t = Table(tmp, name="T0", players=PLAYERS, stack=10_000, ruleset="roberts-nlhe", issue_decks=False)
    count = 0
    n = 0
    while count < revisions:
        n += 1
        t.start(ante=0, blinds=(1, 2))
        posted = 0
        for _ in range(3):
            for p in t.seated():
                t.p[p].say(f"HAND{n} ROUND1 folds")
                posted += 1
            t.run()
            if "wins" in " ".join(t.dealer_bodies()[-1:]) or _over(t):
                break
        for i in range(max(0, min(per_hand, revisions - count) - posted)):
            t.p[PLAYERS[i % 3]].say("nice hand" if i % 2 else "good luck all")
            posted += 1
        t.run()
        count += posted
        assert _over(t), f"hand {n} did not end"
    return t


def _over(t: Table) -> bool:
    with sqlite3.connect(t.state / "ledger.db") as con:
        last = con.execute("SELECT MAX(number) FROM np_hand WHERE table_name = ?", (t.name,)).fetchone()[0]
        return con.execute("SELECT 1 FROM np_hand_end WHERE table_name = ? AND hand = ?",
                           (t.name, last)).fetchone() is not None


def clone(t: Table, copies: int) -> list[str]:
    """Copies of table T0 (every input and derived row, the running hand's secrets) in the same
    ledger and on the same forum threads; their snapshots are made by a first poll."""
    names = [t.name] + [f"T{i}" for i in range(1, copies)]
    con = sqlite3.connect(t.state / "ledger.db")
    for name in names[1:]:
        # archive positions (np_comment ids) are ledger-wide: a copy's hand starts and dealer
        # events come after its own copies of the comments
        offset = con.execute("SELECT MAX(id) FROM np_comment").fetchone()[0]
        first = con.execute("SELECT MIN(id) FROM np_comment WHERE table_name = ?", (t.name,)).fetchone()[0]
        for model in sorted(ALL_MODELS, key=lambda m: m.__tablename__ != "np_comment"):
            if model is SnapshotRow:
                continue
            table = model.__tablename__
            cols = [c[1] for c in con.execute(f"PRAGMA table_info({table})") if c[1] != "id"]
            key = "name" if table == "np_table" else "table_name"
            shift = table in ("np_hand", "np_dealer_event")
            src = [f"'{name}'" if c == key else f"replace(key, '{t.name}-', '{name}-')" if c == "key"
                   else f"(after + {offset - first + 1})" if (c == "after" and shift) else f'"{c}"' for c in cols]
            con.execute(f"INSERT INTO {table} ({', '.join(chr(34) + c + chr(34) for c in cols)}) "
                        f"SELECT {', '.join(src)} FROM {table} WHERE {key} = ? ORDER BY id", (t.name,))
        for f in (t.state / "secrets").glob(f"{t.name}-*"):
            shutil.copy2(f, f.with_name(name + f.name[len(t.name):]))
    con.commit()
    con.close()
    return names


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def child_cpu(args: list[str], repeat: int, env: dict) -> float:
    out = []
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime))
    return min(out)


def row(what: str, new: float, old: float | None, target: float | None) -> None:
    ratio = f"{old / new:8.1f}x" if old else " " * 9
    aim = f"target <= {target:g} s {'met' if new <= target else 'MISSED'}" if target else ""
    print(f"{what:44s} {new:9.4f} s  {'' if old is None else f'{old:9.3f} s'}{ratio}  {aim}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--revisions", type=int, default=15_000)
    ap.add_argument("--per-hand", type=int, default=100)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as tmp:
        t0 = time.perf_counter()
        t = build(Path(tmp), a.revisions, a.per_hand)
        names = clone(t, a.tables)
        t.run()  # every copy gets its snapshot
        with sqlite3.connect(t.state / "ledger.db") as con:
            revs = con.execute("SELECT COUNT(*) FROM np_comment WHERE table_name = 'T0'").fetchone()[0]
            hands = con.execute("SELECT COUNT(*) FROM np_hand WHERE table_name = 'T0'").fetchone()[0]
        print(f"built {len(names)} tables of {revs} archived revisions, {hands} hands each "
              f"({time.perf_counter() - t0:.0f} s)\n")
        print(f"{'':44s} {'snapshot':>11s}  {'full re-fold':>11s} {'ratio':>8s}")

        def one(incremental: bool, table: str | None = "T0") -> None:
            r = poll.poll(t.engine, t.state, table=table, incremental=incremental)
            assert r.ok, [x.error for x in r.tables]

        row("idle poll, one table", best(lambda: one(True), a.repeat),
            best(lambda: one(False), a.repeat), 0.05)

        def after_comment(incremental: bool) -> None:
            t.p["alice"].say("still here")
            one(incremental)

        new = best(lambda: after_comment(True), a.repeat)
        row("poll after one new comment, one table", new, best(lambda: after_comment(False), a.repeat), 0.05)
        row(f"idle poll, {len(names)} tables", best(lambda: one(True, None), a.repeat),
            best(lambda: one(False, None), 1), 0.5)
        row("audit of one table (replay from zero)", best(lambda: audit(t.engine, t.state, "T0"), a.repeat),
            None, 1.0)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        cli = [str(Path(sys.executable).with_name("nomicpoker"))]
        print()
        row("process: nomicpoker poll, nothing new (CPU)",
            child_cpu(cli + ["poll", "--state", str(t.state), "--site", "off"], a.repeat, env), None, 0.15)
        row("process: nomicpoker version (CPU)", child_cpu(cli + ["version"], a.repeat, env), None, None)
        row("process: nomicpoker --help (CPU)", child_cpu(cli + ["--help"], a.repeat, env), None, None)
        row("process: python -c pass (CPU, the floor)",
            child_cpu([sys.executable, "-c", "pass"], a.repeat, env), None, None)


if __name__ == "__main__":
    main()
