"""The play part of ``scripts/bench_tournament.py`` (``--only play``): a tournament played on
the local forum to ONE winner through the tournament director's loop, by scripted players
under a fake clock (``bench_tournament_players``), and the issue-24 figures measured beside
today's per-table path in the same run.

The loop is a tournament director's and a cron's: the players act (each reads the Dealer's
last turn notice in his table's thread), then one poll; after each poll in which a hand ended,
the director's step, the same calls as ``nomicpoker tournament advance`` makes
(``cli/play/tournament_cmd.py``): ``moves.finish_if_won``, ``moves.carry_out`` (tables broken in
the pre-set order, balancing moves, the final table, redraws), ``director.advance`` (each idle
table's level), then ``hand start`` (``shell.tournament.hand_start.start_hand``, the CLI's path
for a tournament table) at each table ``advance`` says can deal and no move waits for. A table
where fewer than two players can be dealt in because the others sit out (timeouts, ``GONE``)
gets their ``BACK``. It stops when ``finish_if_won`` names the winner.

The structure (``STRUCTURE``) is made to finish: levels by hands, a level every 2 hands at a
table, blinds doubling or more each level from 10/20 to 500,000/1,000,000 with antes from
level 3 (past the last level the last stays); a scripted player goes all in on a quarter of
the actions where he can. Only the poll, the site and ``audit`` are timed, in CPU seconds of
this process (``time.process_time``: the machine is shared), and ``audit`` and the site once
more as ``nomicpoker`` commands in child processes (their own CPU and max RSS).
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bench_tournament_players import Clock, Players

LEVELS = ((0, 10, 20), (0, 20, 40), (5, 30, 60), (10, 50, 100), (25, 100, 200), (50, 200, 400),
          (100, 400, 800), (200, 1000, 2000), (500, 2500, 5000), (1000, 5000, 10000), (2500, 10000, 20000),
          (5000, 25000, 50000), (10000, 50000, 100000), (25000, 100000, 200000), (50000, 250000, 500000),
          (100000, 500000, 1000000))
STRUCTURE = """
name = "bench"
title = "Benchmark"
starting_money = {money}
table_size = 9
levels_by = "hands"
level_length = {length}
redraw_every_levels = {redraw}
""" + "".join(f"\n[[levels]]\nante = {a}\nsmall_blind = {s}\nbig_blind = {b}\n" for a, s, b in LEVELS)
NAME = "bench"
#: ``director.advance`` (every table's level, a full replay of each) runs every this many steps,
#: as a cron would every few minutes; ``hand start`` applies the level in force itself
ADVANCE_EVERY = 25


def _cpu(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


@dataclass
class Tally:
    """What the director's loop did, for the report."""

    hand_starts: int = 0
    hand_start_cpu: float = 0.0
    director_cpu: float = 0.0
    steps: int = 0
    moves: Counter = field(default_factory=Counter)  # by reason
    broken: set[int] = field(default_factory=set)
    final_at: int = 0  # players left when the final table was made
    redraws: int = 0
    level_changes: int = 0
    advance_cpu: list[tuple[float, int]] = field(default_factory=list)  # (cpu, tables) of each director.advance
    polls: list[tuple[float, int, int]] = field(default_factory=list)  # (cpu, tables posted at, tables folded)
    rail: list[float] = field(default_factory=list)  # CPU of the command line's after-poll part (--rail)
    timeouts: int = 0


def _child(args: list[str]) -> tuple[float, float, str]:
    """Run ``nomicpoker ARGS`` as a child process: (its CPU seconds, its max RSS in MB, its output)."""
    p = subprocess.Popen([sys.executable, "-m", "nomicpoker", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _pid, status, use = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise SystemExit(f"nomicpoker {' '.join(args)} failed ({p.returncode}):\n{out[-3000:]}")
    return use.ru_utime + use.ru_stime, use.ru_maxrss / 1024, out


def play(players: int, seed: str, hands: int, money: int, redraw: int = 0, length: int = 2,
         keep: Path | None = None, rail: int = 0) -> int:
    """``rail``: that many spectators (r000, r001, ...) join the rail at the start, and after each
    poll the command line's part for the tournaments runs (the players' asks answered, the
    rail's showdowns sent: ``shell.tournament.after_poll``), timed apart from the poll."""
    import logging

    from sqlmodel import Session

    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.audit.audit import audit
    from nomicpoker.shell.audit.site import build_site
    from nomicpoker.shell.cycle import moved
    from nomicpoker.shell.dealer.controls import control
    from nomicpoker.shell.dealer.service import ServiceError
    from nomicpoker.shell.jobs.poll import poll
    from nomicpoker.shell.storage import ledger, paths
    from nomicpoker.shell.storage.paths import forum_db_path
    from nomicpoker.shell.storage.store import loads, open_engine
    from nomicpoker.shell.tournament import director, moves, views
    from nomicpoker.shell.tournament.director import TournamentError
    from nomicpoker.shell.tournament.hand_start import start_hand
    from nomicpoker.shell.tournament.seatmap import seat_map

    def say(line: str) -> None:
        print(line, flush=True)

    rng = random.Random(seed)
    tally = Tally()
    names = [f"p{i:04d}" for i in range(players)]
    if keep is not None:  # --keep DIR: played there and kept (a new folder: nothing is overwritten)
        root = Path(keep).absolute()
        try:
            root.mkdir(parents=True)
        except FileExistsError:
            raise SystemExit(f"--keep {keep}: the folder exists; name a new one") from None
    else:
        root = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    try:
        (root / "bench.toml").write_text(STRUCTURE.format(money=money, redraw=redraw, length=length))
        state = root / "state"
        paths.claim_state(state)
        engine = open_engine(paths.db_url(state), create=True)
        clock = Clock(datetime.now(timezone.utc).replace(second=0, microsecond=0))
        director.create(engine, state, root / "bench.toml", names, name=NAME)
        tables = list(director.start(engine, state, NAME, now=clock).tables)
        forum = LocalForum(forum_db_path(state), clock=clock)
        crowd = Players(forum, clock, rng)
        if rail:
            from nomicpoker.shell.tournament import rail as rail_mod
            from nomicpoker.shell.tournament.after_poll import after_poll

            for i in range(rail):
                rail_mod.join(engine, NAME, f"r{i:03d}", now=clock)
            quiet_log = logging.getLogger("bench.rail")
            quiet_log.propagate = False
        say(f"play: {players} players at {len(tables)} tables, played to one winner through the director's loop "
            f"(levels by hands, {length} hands a level, {len(LEVELS)} levels; redraw every {redraw} levels)"
            if redraw else
            f"play: {players} players at {len(tables)} tables, played to one winner through the director's loop "
            f"(levels by hands, {length} hands a level, {len(LEVELS)} levels; no redraws)")
        for t in tables:  # a 4-hour deadline at every table (the structure file sets none), for timeouts
            done_ = control(engine, state, t, "settings", "", data={"deadline_hours": 4, "reminders": 0}, now=clock)
            if done_.report.error:
                raise SystemExit(f"table set at {t}: {done_.report.error}")

        def threads_running() -> dict[str, str]:
            with Session(engine) as s:
                m = seat_map(s, NAME)
                return {m.names[n]: ledger.last_threads(s, m.names[n], 1)[0] for n, h in m.running.items() if h}

        def back_where_sitting_out(table: str) -> bool:
            """Fewer than two can be dealt in at ``table``: whoever sits out with chips comes back."""
            from nomicpoker.shell.cycle.replay import fold_for

            with Session(engine) as s:
                row = ledger.get_table(s, table)
                money = ledger.current_money(s, row)
                out = [p for p in fold_for(s, row, state).sitting_out if money.get(p, 0) > 0]
                thread = (ledger.last_threads(s, table, 1) or [""])[0]
            if not out or not thread:
                return False
            for p in out:
                crowd.back(p, thread)
            return True

        def step() -> tuple[str, int]:
            """The director's step (module docstring): the winner once there is one, and the hands started."""
            t0 = time.process_time()
            tally.steps += 1
            winner = moves.finish_if_won(engine, NAME, now=clock)
            if winner:
                return winner, 0
            mv = moves.carry_out(engine, state, NAME, now=clock)
            for m in mv.moves:
                tally.moves[m.reason] += 1
            tally.broken |= set(mv.broken)
            if mv.final and not tally.final_at:
                with Session(engine) as s:
                    tally.final_at = len(seat_map(s, NAME).players())
            if mv.redraw and not mv.redraw_waits:
                tally.redraws += 1
            if mv.errors:
                raise SystemExit(f"tournament advance: {mv.errors}")
            winner = moves.finish_if_won(engine, NAME, now=clock)
            if winner:
                return winner, 0
            if tally.steps % ADVANCE_EVERY == 1:  # the levels at every idle table, as a cron's advance
                a0 = time.process_time()
                done = director.advance(engine, state, NAME, now=clock)
                tally.advance_cpu.append((time.process_time() - a0, len(done)))
                tally.level_changes += sum(1 for a in done if a.changed)
            with Session(engine) as s:
                moving = moves.waiting_tables(s, NAME, clock())
                m = seat_map(s, NAME)
            # the tables advance would suggest a hand start for: two players or more, between hands,
            # no move or redraw waiting (whether two can be dealt in, hand start says: no_players)
            ready = [m.names[n] for n, t in sorted(m.tables.items())
                     if len(t.players()) >= 2 and not m.running[n] and m.names[n] not in moving]
            tally.director_cpu += time.process_time() - t0
            started = 0
            for t in ready:
                h0 = time.process_time()
                try:
                    out = start_hand(engine, state, t, now=clock)
                except (TournamentError, ServiceError) as exc:
                    if exc.code in ("redraw_waits", "moves_pending", "held"):
                        continue
                    if exc.code == "no_players" and back_where_sitting_out(t):
                        continue  # they come back; the next step deals
                    raise SystemExit(f"hand start at {t}: {exc.code}: {exc.message}") from exc
                if out.report.error:
                    raise SystemExit(f"hand start at {t}: {out.report.error}")
                tally.hand_starts += 1
                tally.hand_start_cpu += time.process_time() - h0
                started += 1
            return "", started

        def one_poll(posted: int) -> float:
            cpu, report = _cpu(lambda: poll(engine, state, now=clock))
            bad = [t.line() for t in report.tables if t.error]
            if bad:
                raise SystemExit("poll failed: " + "; ".join(bad[:3]))
            folded = sum(1 for t in report.tables if t.folded != "unchanged")
            tally.polls.append((cpu, posted, folded))
            if rail:  # what the command line's poll runs after its tables
                rcpu, ok = _cpu(lambda: after_poll(engine, state, quiet_log))
                if not ok:
                    raise SystemExit("the rail failed after a poll")
                tally.rail.append(rcpu)
            return cpu

        def settle() -> None:
            for _ in range(4):
                one_poll(0)
                if tally.polls[-1][2] == 0:
                    return

        def post_round(limit: int | None = None) -> int:
            """One round of the players: each table's player to act acts (at ``limit`` tables at most)."""
            clock.t += timedelta(minutes=1)
            found = crowd.notices(threads_running())
            chosen = sorted(found) if limit is None else rng.sample(sorted(found), min(limit, len(found)))
            return sum(1 for t in chosen if crowd.act(found[t]))

        def timeout_round() -> int:
            """Nobody acts: the clock runs past every deadline (the players to act time out)."""
            found = crowd.notices(threads_running())
            last = max((n.deadline for n in found.values() if n.deadline is not None), default=None)
            if last is None:
                return 0
            clock.t = max(clock.t, last) + timedelta(minutes=1)
            for n in found.values():
                if n.who:
                    crowd.away.add(n.who)
            return sum(1 for n in found.values() if n.who)

        def alive_tables() -> int:
            with Session(engine) as s:
                return len(seat_map(s, NAME).live())

        winner, _ = step()  # the first hands, as advance suggests them
        say(f"play: first hands started at {tally.hand_starts} tables ({tally.hand_start_cpu:.1f} s CPU)")
        settle()

        # -- at the first round, >= 100 tables alive: a poll with a new comment at up to 100 tables
        live_now = alive_tables()
        n = post_round(100)
        new = one_poll(n)
        newfold = tally.polls[-1][2]
        settle()
        n2 = post_round(100)
        moved.forget(state)
        old = one_poll(n2)
        say(f"poll with a new comment at {n} of {live_now} tables alive (the first round): {new:.2f} s CPU, "
            f"{newfold} tables folded; per-table path (every table polled, {n2} new comments): {old:.2f} s CPU; "
            f"ratio {new / old:.2f}")
        settle()
        idle_new = min(one_poll(0) for _ in range(3))
        moved.forget(state)
        idle_old = one_poll(0)
        say(f"idle poll at the first round ({len(tables)} tables, {live_now} alive): {idle_new:.3f} s CPU; "
            f"per-table path: {idle_old:.2f} s CPU; ratio {idle_new / idle_old:.3f}")

        # -- play on, to one winner
        rounds = quiet = 0
        site = root / "site"
        site_hand: list[tuple[float, int]] = []  # the incremental site after each hand of the final table
        t_play = time.process_time()
        while not winner:
            rounds += 1
            if rounds % 7 == 0:
                k = timeout_round()
                tally.timeouts += k
                one_poll(0)
            else:
                k = post_round()
                one_poll(k)
            winner, started = step()
            if tally.final_at and not winner:
                if not site_hand and not site.exists():
                    build_site(engine, site, None, state)  # the site when the final table is made
                    site_hand.append((0.0, 0))
                elif started:  # a hand of the final table ended (and the next started): only it changed
                    cpu, files = _cpu(lambda: build_site(engine, site, None, state))
                    site_hand.append((cpu, len(files)))
            quiet = 0 if (k or started) else quiet + 1
            if rounds % 50 == 0:
                with Session(engine) as s:
                    m = seat_map(s, NAME)
                say(f"play: round {rounds}: {len(m.players())} players at {len(m.live())} tables, "
                    f"{sum(m.hands.values())} hands, {time.process_time() - t_play:.0f} s CPU")
            if quiet >= 6:
                settle()
                if quiet >= 12:
                    with Session(engine) as s:
                        m = seat_map(s, NAME)
                    why = [a for a in director.advance(engine, state, NAME, now=clock) if a.playable or a.running]
                    with Session(engine) as s:
                        waits = moves.waiting_tables(s, NAME, clock())
                        plan = moves.plan_for(s, NAME, clock())
                    raise SystemExit(f"play: stuck after {rounds} rounds: {len(m.players())} players at "
                                     f"{len(m.live())} tables, running {sorted(h for h in m.running.values() if h)}; "
                                     f"advance says {why}; waiting {waits}; plan {plan[1:]}")
            if hands and max(seat_map_hands(engine, NAME)) >= hands:
                say(f"play: stopped at {hands} hands at a table (--hands)")
                break
        play_cpu = time.process_time() - t_play
        settle()

        # -- the figures at the end of the whole tournament
        with Session(engine) as s:
            total_hands = sum(len(ledger.hand_rows(s, t)) for t in tables)
            standings = views.current_standings(s, NAME)
        polls = tally.polls
        say(f"winner: {winner or 'none yet'}")
        say(f"play: {total_hands} hands played in {rounds} rounds, {len(polls)} polls ({sum(p[0] for p in polls):.1f} s "
            f"CPU in all), {tally.steps} director steps ({tally.director_cpu:.1f} s CPU), {tally.hand_starts} hand "
            f"starts ({tally.hand_start_cpu:.1f} s CPU); {play_cpu:.0f} s CPU of play in all")
        say(f"moves: {sum(tally.moves.values())} ({', '.join(f'{k}: {v}' for k, v in sorted(tally.moves.items()))}); "
            f"{len(tally.broken)} tables broken; final table made at {tally.final_at or '-'} players; "
            f"{tally.redraws} redraws; {tally.level_changes} level changes by advance")
        if tally.advance_cpu:
            worst = max(tally.advance_cpu)
            say(f"tournament advance (levels at every table): {len(tally.advance_cpu)} runs, "
                f"{sum(c for c, _ in tally.advance_cpu):.1f} s CPU in all, the costliest {worst[0]:.2f} s ({worst[1]} tables)")
        say(f"players: {crowd.seen['actions']} actions posted ({crowd.seen['allin']} all-ins), "
            f"{crowd.seen['advance']} private advance actions, {crowd.seen['gone']} vacations (GONE), "
            f"{tally.timeouts} turns timed out, {crowd.seen['back']} BACKs, {crowd.seen['reveals']} reveals")
        ranked = [x for x in standings if getattr(x, "place", 0)]
        top = ", ".join(f"{x.place}. {x.player}" for x in sorted(ranked, key=lambda x: x.place)[:10])
        say(f"places: {top} ({len(ranked)} ranked of {players}; eliminated players in reverse order of elimination)")
        if site_hand[1:]:
            cpus = sorted(c for c, _ in site_hand[1:])
            cpu, files = site_hand[-1]
            whole, every = _cpu(lambda: build_site(engine, root / "site-whole", None, state, incremental=False))
            say(f"site after one hand ended at the final table: {files} files written incrementally, {cpu:.2f} s CPU "
                f"(the last hand; median over {len(cpus)} final-table hands {cpus[len(cpus) // 2]:.2f} s); "
                f"the whole site rewritten ({len(every)} files): {whole:.2f} s CPU; ratio {cpu / whole:.3f}")
        shutil.rmtree(site, ignore_errors=True)
        cpu, written = _cpu(lambda: build_site(engine, site, None, state))
        say(f"site from nothing at the end: {len(written)} files, {cpu:.2f} s CPU ({total_hands} hands)")
        idle_new = min(one_poll(0) for _ in range(3))
        moved.forget(state)
        idle_old = one_poll(0)
        say(f"idle poll at the end ({len(tables)} tables, {alive_tables()} alive): {idle_new:.3f} s CPU; "
            f"per-table path: {idle_old:.2f} s CPU; ratio {idle_new / idle_old:.3f}")
        if rail:
            from nomicpoker.shell.tournament.watermarks import covered

            idle_rail = min(_cpu(lambda: after_poll(engine, state, quiet_log))[0] for _ in range(5))
            with Session(engine) as s:
                recorded = Counter(e.kind for e in director.events(s, NAME))
                shown = sum(len(loads(e.data).get("sent", [])) for e in director.events(s, NAME, "rail_showdowns"))
                marks = covered(s, NAME, "rail_showdowns")
            say(f"rail: {rail} spectators; after each poll the command line's part (asks, showdowns) "
                f"{sum(tally.rail):.2f} s CPU in all over {len(tally.rail)} polls, the costliest "
                f"{max(tally.rail):.3f} s; with nothing new at the end {idle_rail:.4f} s CPU "
                f"({recorded['rail_showdowns']} rail_showdowns events, {recorded['rail_asks']} rail_asks events, "
                f"{shown} showdowns sent, hands covered {sum(marks.values())})")
        cpu, (audited, diffs) = _cpu(lambda: audit(engine, state))
        with Session(engine) as s:
            checks = views.audit_draws(s)
        differs = [c for c in checks if "DIFFERS" in c]
        say(f"audit of every table from nothing: {len(audited)} tables, {len(diffs)} differences "
            f"({'identical' if not diffs and not differs else 'DIFFERENT'}): {cpu:.2f} s CPU; " + "; ".join(checks))
        for d in diffs[:5]:
            say(f"DIFFERENCE: {d}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        engine.dispose()
        a_cpu, a_rss, a_out = _child(["audit", "--state", str(state)])
        if "DIFFERS" in a_out:
            say(a_out)
        s_cpu, s_rss, _ = _child(["site", "build", "--out", str(root / "site-cli"), "--state", str(state)])
        say(f"as commands (child processes): nomicpoker audit {a_cpu:.2f} s CPU, max RSS {a_rss:.0f} MB; "
            f"nomicpoker site build from nothing {s_cpu:.2f} s CPU, max RSS {s_rss:.0f} MB")
        say(f"peak memory of this process (max RSS): {peak:.0f} MB")
        if diffs or differs or "DIFFERS" in a_out:
            say("AUDIT DIFFERS")
            return 1
        if not winner and not hands:
            return 1
        return 0
    finally:
        if keep is None and not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"kept {root}")


def seat_map_hands(engine, name: str) -> list[int]:  # type: ignore[no-untyped-def]
    from sqlmodel import Session

    from nomicpoker.shell.tournament.seatmap import seat_map

    with Session(engine) as s:
        return list(seat_map(s, name).hands.values()) or [0]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(play(int(sys.argv[1]) if len(sys.argv) > 1 else 18, "bench", 0, 1500))
