"""How does a tournament of N players cost, against today's per-table path? (issue 24)

What exists today is measured; what does not is said (docs/tournaments.md, "Not built yet":
players are not yet moved between tables, so no tournament can yet be played to one winner
through the tables, and the issue's poll, site and audit targets for a whole tournament cannot
be measured yet).

1. **The core, a whole tournament's seating**: N players drawn into tables of 9 from a seed,
   then eliminated one at a time in a seeded random order; after each elimination the tables
   are broken and balanced (``core.tournament.balance.rebalance``) and a hand is dealt at every
   table (``next_positions``), down to the final table and one winner. Printed: the tables at
   the start, the balancing moves and breaks, the CPU time for all of it and per elimination.
2. **The commands, on the local forum with a real SQLite ledger**: ``tournament create`` and
   ``tournament start`` for N players (the seats drawn, one table per 9 players created),
   beside today's per-table path in the same run: the same tables created one by one with
   ``table create`` (``shell.dealer.service.create_table``). Then ``tournament show`` (tables
   and standings), ``tournament advance`` (levels, every table) and an idle in-process poll of
   all the tables, each in CPU seconds of this process, and the peak memory.

3. **Play, on the local forum** (``--only play``): the tournament is created and started, a
   hand is started at every table, and scripted players play under a fake clock: each reads
   the Dealer's last turn notice in its table's thread and posts one of the legal actions it
   lists, at random (an all-in now and then, so tables play down), or sends it as a private
   advance action, or goes on vacation (``GONE``), or lets the clock run out (the fake clock
   is moved past the deadlines: timeouts). After each round of actions one poll runs. Measured,
   each beside today's per-table path in the same run (every table polled, resumed from its
   snapshot: the marks of :mod:`nomicpoker.shell.cycle.moved` forgotten first) and a ratio:
   a poll with a new comment at up to 100 tables; an idle poll of the whole tournament; the
   auditors' site rebuilt after one hand ends and from nothing; ``audit`` of every table from
   nothing (it must find no difference); the peak memory (max RSS) of this process. With
   ``--hands H`` each table plays H hands; with ``--to-end`` each table plays down to one
   player (players are not yet moved between tables, docs/tournaments.md "Not built yet", so
   each table has its own last player and the places are by elimination), printed with the
   hands played.

Usage:
    python scripts/bench_tournament.py [--players 1000] [--seed bench] [--only core|commands|play]
                                       [--hands 3] [--to-end] [--money 1500]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

STRUCTURE = """
name = "bench"
title = "Benchmark"
starting_money = 1500
table_size = 9
levels_by = "hands"
level_length = 10

[[levels]]
small_blind = 10
big_blind = 20

[[levels]]
small_blind = 20
big_blind = 40
"""


def core(players: int, seed: str) -> None:
    from nomicpoker.core.tournament.balance import rebalance
    from nomicpoker.core.tournament.draw import seat_draw
    from nomicpoker.core.tournament.seating import after_hand, next_positions

    names = [f"p{i:04d}" for i in range(players)]
    t0 = time.process_time()
    draw = seat_draw(seed, names, 9)
    tables = list(draw.tables)
    drawn = time.process_time() - t0
    order = names[:]
    random.Random(seed).shuffle(order)
    moves = breaks = hands = 0
    final_at = None
    t0 = time.process_time()
    for step, victim in enumerate(order[:-1]):
        tables = [t.without(victim) if victim in t.players() else t for t in tables]
        plan = rebalance(tables, tuple(range(len(draw.tables), 0, -1)), seed, str(step))
        moves += len(plan.moves)
        breaks += len(plan.broken)
        if plan.final and final_at is None:
            final_at = players - step - 1
        tables = []
        for t in plan.tables:
            if len(t.players()) >= 2:
                t = after_hand(t, next_positions(t))
                hands += 1
            tables.append(t)
    spent = time.process_time() - t0
    [last] = tables
    print(f"core: {players} players drawn into {len(draw.tables)} tables of 9 in {drawn * 1000:.1f} ms CPU")
    print(f"core: {players - 1} eliminations, each followed by breaking/balancing and a hand at every table "
          f"({hands} hands): {moves} moves, {breaks} tables broken, final table at {final_at} players; "
          f"{spent:.2f} s CPU, {spent / (players - 1) * 1000:.2f} ms per elimination; winner {last.players()[0]}")


def commands(players: int, seed: str) -> None:
    from sqlmodel import Session

    from nomicpoker.shell.dealer.service import create_table
    from nomicpoker.shell.jobs.poll import poll
    from nomicpoker.shell.storage import paths
    from nomicpoker.shell.storage.store import open_engine
    from nomicpoker.shell.tournament import director, views
    from nomicpoker.core.tournament.draw import seat_draw

    names = [f"p{i:04d}" for i in range(players)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        structure = root / "bench.toml"
        structure.write_text(STRUCTURE)
        warm = root / "warm"  # imports, the ruleset's parse and the first ledger, for neither side
        paths.claim_state(warm)
        w = open_engine(paths.db_url(warm), create=True)
        create_table(w, warm, "warm", ["a", "b"], 1500, ruleset="roberts-nlhe", settings={"blinds": (10, 20)})
        w.dispose()
        # today's per-table path: the same number of tables of the same size, one table create each
        peer = root / "peer"
        paths.claim_state(peer)
        engine = open_engine(paths.db_url(peer), create=True)
        tables = seat_draw(seed, names, 9).tables
        t0, w0 = time.process_time(), time.perf_counter()
        for t in tables:
            create_table(engine, peer, f"bench-t{t.number}", list(t.players()), 1500, ruleset="roberts-nlhe",
                         settings={"blinds": (10, 20)})
        peer_cpu, peer_wall = time.process_time() - t0, time.perf_counter() - w0
        engine.dispose()
        state = root / "state"
        paths.claim_state(state)
        engine = open_engine(paths.db_url(state), create=True)
        t0, w0 = time.process_time(), time.perf_counter()
        director.create(engine, state, structure, names)
        started = director.start(engine, state, "bench")
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        print(f"commands: tournament create + start, {players} players, {len(started.tables)} tables: "
              f"{cpu:.2f} s CPU ({wall:.2f} s wall); per-table path (table create x {len(tables)}): "
              f"{peer_cpu:.2f} s CPU ({peer_wall:.2f} s wall); ratio {cpu / peer_cpu:.2f}")
        from datetime import datetime, timezone

        t0 = time.process_time()
        with Session(engine) as s:
            views.tables(s, "bench", datetime.now(timezone.utc))
            standing = views.current_standings(s, "bench")
        show = time.process_time() - t0
        t0 = time.process_time()
        done = director.advance(engine, state, "bench")
        advance = time.process_time() - t0
        t0 = time.process_time()
        report = poll(engine, state, site=None)
        idle = time.process_time() - t0
        print(f"commands: tournament show (tables and {len(standing)} standings): {show:.2f} s CPU; "
              f"tournament advance ({len(done)} tables, none changed: {not any(a.changed for a in done)}): "
              f"{advance:.2f} s CPU; an in-process poll of the {len(report.tables)} tables with nothing new: "
              f"{idle:.2f} s CPU")
        engine.dispose()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:.0f} MB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--only", choices=("core", "commands", "play"))
    ap.add_argument("--hands", type=int, default=3, help="hands each table plays (play)")
    ap.add_argument("--to-end", action="store_true", help="play each table down to one player (play)")
    ap.add_argument("--money", type=int, default=1500, help="starting money (play)")
    args = ap.parse_args(argv)
    if args.players < 2:
        print("error: --players must be at least 2", file=sys.stderr)
        return 2
    if args.only in (None, "core"):
        core(args.players, args.seed)
    if args.only in (None, "commands"):
        commands(args.players, args.seed)
    if args.only in (None, "play"):
        from bench_tournament_play import play

        return play(args.players, args.seed, args.hands, args.to_end, args.money)
    return 0


if __name__ == "__main__":
    sys.exit(main())
