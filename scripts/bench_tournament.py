"""How does a tournament of N players cost, against today's per-table path? (issue 24)

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
3. **Play to one winner, on the local forum** (``--only play``, ``bench_tournament_play.py``):
   the tournament is created and started and played through the tournament director's loop:
   scripted players (``bench_tournament_players.py``) read the Dealer's last turn notice in
   their table's thread and post one of its legal actions at random (all in on a quarter of
   them where they can), or send it as a private advance action (3%), or go on vacation
   (``GONE``, 1%), or, one round in seven, let every deadline pass (timeouts; a player sitting
   out comes back with ``BACK`` when his table cannot deal without him); one poll after each
   round; then the director's step, the calls ``tournament advance`` makes (the winner; the
   moves: tables broken in the pre-set order, balancing, the final table, redraws; the levels)
   and ``hand start`` at each table that can deal. The structure: levels by hands, a new level
   every ``--level-hands`` (2) hands at a table, 16 levels from 10/20 to 500,000/1,000,000 with
   antes from level 3, seats redrawn every ``--redraw`` (4) levels. It prints the winner, the
   places (reverse order of elimination), the hands, moves, broken tables, timeouts, vacations
   and advance actions, and the figures, each beside today's per-table path in the same run (a
   poll of every table, each resumed from its snapshot, the marks of
   :mod:`nomicpoker.shell.cycle.moved` forgotten first; the whole site rewritten) and a ratio:
   a poll with a new comment at up to 100 tables at the first round (every table alive), the
   idle poll then and at the end, the auditors' site after one hand of the final table ended
   and from nothing at the end, ``audit`` of every table from nothing (it must find no
   difference, and the tournament's chips conserved: exit 1 otherwise), ``audit`` and ``site
   build`` as ``nomicpoker`` child processes (their CPU and max RSS), and the peak memory (max
   RSS) of this process. ``--hands H`` stops once a table has dealt H hands.

Usage:
    python scripts/bench_tournament.py [--players 1000] [--seed bench] [--only core|commands|play]
                                       [--hands 0] [--money 1500] [--redraw 4] [--level-hands 2]
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
    ap.add_argument("--hands", type=int, default=0,
                    help="play: stop once a table has dealt this many hands (0, the default: play to one winner)")
    ap.add_argument("--to-end", action="store_true", help="play: to one winner (the default; kept for old command lines)")
    ap.add_argument("--money", type=int, default=1500, help="starting money (play)")
    ap.add_argument("--redraw", type=int, default=4, help="play: seats redrawn every N levels (0: never)")
    ap.add_argument("--level-hands", type=int, default=2, help="play: hands a level lasts at a table")
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR",
                    help="play: play in DIR (a new folder) and keep it (the ledger, the state, the sites) "
                         "to profile the end of a tournament")
    ap.add_argument("--rail", type=int, default=0, metavar="N",
                    help="play: N spectators on the rail, and after each poll the command line's part for the "
                         "tournaments (asks, the rail's showdowns), timed apart")
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

        return play(args.players, args.seed, args.hands, args.money, args.redraw, args.level_hands, args.keep,
                    args.rail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
