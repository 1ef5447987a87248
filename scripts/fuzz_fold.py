"""Fuzz the whole fold: each generated comment adjudicated in a running hand, as the poll does.

Usage::

    python scripts/fuzz_fold.py --count 100000 [--seed 1]

``scripts/fuzz_comments.py`` times the reader (the grammar and whose action it is); this one
runs what the poll runs on each comment (``fold_table``): the advance actions and their
switches, the commands for play over days (GONE, BACK, START, PROTEST, UNDO, WHAT), SCORE, the
private-message thread, edits, under both bundled rulesets, at tables with and without
private messages, from the player to act, another seated player and a stranger. The same
generated comments as the reader's fuzz, and the commands and advance actions mutated the same
ways (odd digits, look-alike letters, huge numbers, markup).

Reported: crashes, counting both an exception out of the fold and a comment the fold's
per-comment safety net had to answer ``internal_error`` (``result.failures``: the reader must
never raise, the net is the last line); the slowest fold in the thread's CPU time (the fold of
one comment includes setting up the hand, reported as the baseline), and how many folds took
over 10 ms of CPU (a fold over it is timed three more times and the least kept). Exit status 1
on any crash.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import fuzz_comments as fz  # noqa: E402
from nomicpoker.core.fold.fold_run import fold_table  # noqa: E402
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig  # noqa: E402
from nomicpoker.core.table.table_settings import TableSettings  # noqa: E402
from nomicpoker.shell.storage.rulesets import load_ruleset  # noqa: E402
from nomicpoker.shell.storage.secrets_store import HandSecrets  # noqa: E402

PLAYERS = ("alice", "bob", "carol")
BOUND = 0.010  # seconds of CPU: the reading bound, here for the whole fold of one comment
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
COMMANDS = ["GONE", "GONE until Friday", "GONE RESIGN", "BACK", "START 5", "START {n}", "PROTEST {x}",
            "UNDO", "WHAT", "SCORE", "SCORE/L", "{x}\nGONE\nBACK"]
ADVANCE = ["${n}", "MAKE ${n}", "BET ${n}", "RAISE ${n}", "CALL *", "CALL ${n}", "CALL/S ${n}", "POT", "JAM",
           "FOLD/S", "IF/P<={n} CALL *", "IF/B={n} POT ELSE FOLD", "IF/N>{n}/F={n} JAM", "IF/I:{n} FOLD",
           "IF/O:{n}/R CALL *", "/H={n} CALL *", "/Q FOLD", "IF/P<>{n} CALL * ELSE IF/B<{n} FOLD ELSE JAM"]
NUMBERS = ["1", "3", "30", "0", "-1", "999999999999", "9" * 13, "9" * 5000, "\u0663", "\uff13\uff10", "\u00b2",
           "\U0001d7d1", "1.5", "1e3", "", "99999999999999999999"]


def configs() -> list[tuple[TableConfig, HandStart]]:
    out = []
    for name, blinds, ante in (("roberts-nlhe", (5, 10), 0), ("blognomic-2008", (), 5)):
        rules = load_ruleset(name)
        for private, see in ((False, True), (True, True), (True, False)):
            cfg = TableConfig("T", PLAYERS, 1000, "Dealer", rules, name, private=private, players_see_thread=see,
                              settings=TableSettings(floorman="dave"))
            start = HandStart(1, "1", "carol", ante, blinds, tuple((p, 1000) for p in PLAYERS), 0,
                              "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS)
            out.append((cfg, start))
    return out


def body(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return fz.comment(rng)
    form = rng.choice(COMMANDS if roll < 0.7 else ADVANCE)
    text = form.format(n=rng.choice(NUMBERS), x=fz.comment(rng)[:200])
    for _ in range(rng.choice([0, 0, 1, 2])):
        text = fz._mutate(rng, text)
    return text


def run(count: int, seed: int = 1) -> tuple[list[tuple[str, str]], float, str, float, int]:
    """Fold ``count`` comments; return the crashes, the slowest fold (CPU s) and its comment,
    the baseline (a fold with no comment) and how many folds took over 10 ms of CPU."""
    rng = random.Random(seed)
    tables = configs()
    to_act = {id(c): fold_table(c, [s], [], []).current.to_act or "alice" for c, s in tables}
    c0 = time.thread_time()
    for cfg, start in tables:
        fold_table(cfg, [start], [], [])
    baseline = (time.thread_time() - c0) / len(tables)
    crashes: list[tuple[str, str]] = []
    slowest, slowest_body, over = 0.0, "", 0
    for i in range(count):
        cfg, start = tables[i % len(tables)]
        text = body(rng)
        author = rng.choice([to_act[id(cfg)], "alice", "bob", "carol", "erin", "Bob"])
        thread = rng.choice(["1", "1", "1", "2", "~private"])
        fmt = fz.FORMATS[rng.randrange(3)]
        revs = [Revision(1, thread, "c1", 1, author, "2026-01-01T00:00:01+00:00", text, fmt)]
        if rng.random() < 0.15:  # an edit of it
            revs.append(Revision(2, thread, "c1", 2, author, "2026-01-01T00:00:02+00:00", body(rng), fmt))
        c0 = time.thread_time()
        try:
            result = fold_table(cfg, [start], revs, [])
        except Exception as exc:  # noqa: BLE001 - the point is to catch anything
            crashes.append((repr(text[:200]), f"{type(exc).__name__}: {exc}"[:200]))
            continue
        dt = time.thread_time() - c0
        if dt > BOUND:  # the least of four: the first use of a lazily built table is not the comment's
            for _ in range(3):
                c0 = time.thread_time()
                fold_table(cfg, [start], revs, [])
                dt = min(dt, time.thread_time() - c0)
        over += dt > BOUND
        for _key, exc in result.failures:
            crashes.append((repr(text[:200]), f"answered internal_error: {type(exc).__name__}: {exc}"[:200]))
        if dt > slowest:
            slowest, slowest_body = dt, f"{cfg.ruleset_name} {fmt}: {text[:100]!r} ({len(text):,} chars)"
    return crashes, slowest, slowest_body, baseline, over


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    crashes, slowest, where, baseline, over = run(args.count, args.seed)
    print(f"comments folded: {args.count:,} in {time.perf_counter() - t0:.1f} s; "
          f"a fold with no comment {baseline * 1000:.2f} ms CPU")
    print(f"slowest fold {slowest * 1000:.2f} ms CPU: {where}")
    print(f"folds over {BOUND * 1000:g} ms of CPU (least of four): {over}")
    print(f"crashes: {len(crashes)}")
    for c in crashes[:10]:
        print("  ", *c)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
