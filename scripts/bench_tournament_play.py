"""The play part of ``scripts/bench_tournament.py`` (``--only play``): a tournament played on
the local forum by scripted players under a fake clock, and the issue-24 figures measured
beside today's per-table path in the same run (see that script's docstring).

Each scripted player does what a player reading the thread does: finds the Dealer's last
turn notice naming it ("**p0042** to act") with its "Legal actions:" list, and posts one of
them at random (or sends it privately as an advance action, or goes on vacation, or lets its
deadline pass). Only the poll, the site and ``audit`` are timed, in CPU seconds of this
process (``time.process_time``: the machine is shared).
"""

from __future__ import annotations

import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

STRUCTURE = """
name = "bench"
title = "Benchmark"
starting_money = {money}
table_size = 9
levels_by = "hands"
level_length = 10

[[levels]]
small_blind = 10
big_blind = 20

[[levels]]
small_blind = 20
big_blind = 40

[[levels]]
small_blind = 50
big_blind = 100
"""
#: the blinds by hands played at a table (every 5 hands a level: the tables play down)
BLINDS = ((10, 20), (20, 40), (50, 100), (100, 200), (200, 400), (500, 1000), (1000, 2000), (2000, 4000))
LEGAL = re.compile(r"^- `(HAND\d+ ROUND\d+ ([a-z ]+?)(?: Z)?)`(?: \((?:Z from (\d+) to (\d+)|(\d+)).*)?$", re.M)
SHOWDOWN = re.compile(r"Hand #(\d+): betting is over\. Showdown")
HOLE = re.compile(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)")
DEADLINE = re.compile(r"Deadline: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC")


class Clock:
    """The fake clock: every poll, hand start and player's post reads it."""

    def __init__(self, moment: datetime):
        self.t = moment

    def __call__(self) -> datetime:
        return self.t


@dataclass
class Figures:
    polls: list[tuple[float, int, int]] = field(default_factory=list)  # (cpu, tables posted at, tables folded)
    lines: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.lines.append(line)


def _cpu(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def play(players: int, seed: str, hands: int, to_end: bool, money: int) -> int:
    from sqlmodel import Session, select

    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.audit.audit import audit
    from nomicpoker.shell.audit.site import build_site
    from nomicpoker.shell.cycle import moved
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.dealer.service import ServiceError
    from nomicpoker.shell.jobs.poll import poll
    from nomicpoker.shell.storage import ledger, paths
    from nomicpoker.shell.storage.paths import forum_db_path
    from nomicpoker.shell.storage.store import HandEndRow, open_engine
    from nomicpoker.shell.tournament import director, views

    rng = random.Random(seed)
    fig = Figures()
    names = [f"p{i:04d}" for i in range(players)]
    root = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    try:
        (root / "bench.toml").write_text(STRUCTURE.format(money=money))
        state = root / "state"
        paths.claim_state(state)
        engine = open_engine(paths.db_url(state), create=True)
        clock = Clock(datetime.now(timezone.utc).replace(second=0, microsecond=0))
        director.create(engine, state, root / "bench.toml", names)
        tables = list(director.start(engine, state, "bench", now=clock).tables)
        forum = LocalForum(forum_db_path(state), clock=clock)
        played: dict[str, int] = {t: 0 for t in tables}
        revealed: set[tuple[str, int, str]] = set()
        done: set[str] = set()
        fig.say(f"play: {players} players at {len(tables)} tables; each table plays "
                + ("down to one player" if to_end else f"{hands} hands"))

        def money_of(session, table: str) -> dict[str, int]:
            return {r.player: r.money for r in ledger.gndt(session, ledger.get_table(session, table))}

        def start(table: str) -> None:
            level = BLINDS[min(played[table] // 5, len(BLINDS) - 1)]
            try:
                out = service.start_hand(engine, state, table, 0, blinds=level, now=clock)
            except ServiceError as exc:
                if exc.code != "no_players":
                    raise
                # players sitting out after their timeouts come back (WRGPT: BACK), and it starts
                with Session(engine) as s:
                    thread = ledger.last_threads(s, table, 1)[0]
                    alive = [p for p, m in money_of(s, table).items() if m > 0]
                for p in alive:
                    forum.post_as(p, thread, "BACK")
                poll(engine, state, now=clock)
                out = service.start_hand(engine, state, table, 0, blinds=level, now=clock)
            if out.report.error:
                raise SystemExit(f"hand start at {table}: {out.report.error}")
            played[table] += 1

        def ended(session, table: str) -> bool:
            hand_rows = ledger.hand_rows(session, table)
            if not hand_rows:
                return True
            return session.exec(select(HandEndRow).where(HandEndRow.table_name == table,
                                                         HandEndRow.hand == hand_rows[-1].number)).first() is not None

        def next_hands() -> int:
            """Start the next hand where one ended and the table goes on; the number started."""
            n = 0
            with Session(engine) as s:
                todo = []
                for t in tables:
                    if t in done or not ended(s, t):
                        continue
                    alive = [p for p, m in money_of(s, t).items() if m > 0]
                    if len(alive) < 2 or (not to_end and played[t] >= hands):
                        done.add(t)
                    else:
                        todo.append(t)
            for t in todo:
                start(t)
                n += 1
            return n

        def notices() -> dict[str, tuple[str, str, list[tuple[str, str, int, int]], datetime | None]]:
            """Each running table's player to act, its thread, its legal actions and deadline."""
            out = {}
            with Session(engine) as s:
                threads = {t: ledger.last_threads(s, t, 1) for t in tables if t not in done}
            for t, th in threads.items():
                if not th:
                    continue
                for c in reversed(forum.list_comments(th[0])):
                    if c.author != "Dealer":
                        continue
                    show = SHOWDOWN.search(c.body)
                    if show:  # the players in the showdown reveal (their hole cards are in their inbox)
                        hand = int(show.group(1))
                        who_all = re.findall(r"^\d+\. (\S+)$", c.body.split("Reveal your hole cards", 1)[1], re.M)
                        out[t] = ("", th[0], [(f"HAND{hand} reveal", p, hand, 0) for p in who_all], None)
                        break
                    m = re.search(r"\*\*(\S+)\*\* to act", c.body)
                    if m and "Legal actions:" in c.body:
                        acts = [(full, word, int(lo or 0), int(hi or 0)) for full, word, lo, hi, _ in LEGAL.findall(c.body)]
                        d = DEADLINE.search(c.body)
                        when = datetime.strptime(d.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc) if d else None
                        out[t] = (m.group(1), th[0], acts, when)
                        break
                    if " is over.**" in c.body:
                        break
            return out

        def act(table: str, notice, posted: set[str]) -> None:
            who, thread, acts, _ = notice
            if not acts:
                return
            if not who:  # a showdown: each player named reveals, once
                for text, player, hand, _ in acts:
                    if (table, hand, player) in revealed:
                        continue
                    revealed.add((table, hand, player))
                    cards = next((HOLE.search(m.body).group(1) for m in reversed(forum.inbox(player))
                                  if f"hand {hand}," in m.body and HOLE.search(m.body)), None)
                    if cards is not None:
                        forum.post_as(player, thread, f"{text} {cards}")
                        posted.add(table)
                return
            roll = rng.random()
            full, word, lo, hi = rng.choice(acts)
            if word == "raise" and lo:
                full = f"{full[:-2]} {rng.randint(lo, hi)}"  # "... raise Z": a total in the range
            elif rng.random() < 0.25:
                allin = [a for a in acts if a[1] == "all in"]
                full = allin[0][0] if allin else full
            if roll < 0.03:  # a private advance action, the Dealer's inbox (WRGPT)
                forum.send_private_as(who, "Dealer", table, full.split(" ", 2)[2].upper().replace("FOLDS", "FOLD"))
            elif roll < 0.04:  # a vacation
                forum.post_as(who, thread, f"GONE {(clock.t + timedelta(days=1)):%d %b}")
            else:
                forum.post_as(who, thread, full)
            posted.add(table)

        def one_poll(posted: int, label: str = "") -> float:
            cpu, report = _cpu(lambda: poll(engine, state, now=clock))
            bad = [t.line() for t in report.tables if t.error]
            if bad:
                raise SystemExit("poll failed: " + "; ".join(bad[:3]))
            folded = sum(1 for t in report.tables if t.folded != "unchanged")
            fig.polls.append((cpu, posted, folded))
            return cpu

        def settle() -> None:
            for _ in range(4):
                one_poll(0)
                if fig.polls[-1][2] == 0:
                    return

        from nomicpoker.shell.dealer.controls import control

        for t in tables:  # a 4-hour deadline at every table (the structure file sets none), for timeouts
            done_ = control(engine, state, t, "settings", "", data={"deadline_hours": 4, "reminders": 0}, now=clock)
            if done_.report.error:
                raise SystemExit(f"table set at {t}: {done_.report.error}")
        t0 = time.process_time()
        for t in tables:
            start(t)
        fig.say(f"play: first hands started at {len(tables)} tables ({time.process_time() - t0:.1f} s CPU)")
        settle()

        # -- the measured polls: a new comment at up to 100 tables; moved-only vs every table
        def post_round(limit: int) -> int:
            posted: set[str] = set()
            clock.t += timedelta(minutes=1)
            found = notices()
            for t in rng.sample(sorted(found), min(limit, len(found))):
                act(t, found[t], posted)
            return len(posted)

        settle()
        n = post_round(100)
        new = one_poll(n)
        newfold = fig.polls[-1][2]
        settle()
        n2 = post_round(100)
        moved.forget(state)
        old = one_poll(n2)
        fig.say(f"poll with a new comment at {n} of {len(tables)} tables: {new:.2f} s CPU, {newfold} tables folded; "
                f"per-table path (every table polled, {n2} new comments): {old:.2f} s CPU; ratio {new / old:.2f}")
        settle()
        idle_new = min(one_poll(0) for _ in range(3))
        moved.forget(state)
        idle_old = one_poll(0)
        fig.say(f"idle poll of the whole tournament ({len(tables)} tables): {idle_new:.3f} s CPU; "
                f"per-table path: {idle_old:.2f} s CPU; ratio {idle_new / idle_old:.3f}")
        site = root / "site"
        cpu, written = _cpu(lambda: build_site(engine, site, None, state))
        fig.say(f"site from nothing: {len(written)} files, {cpu:.2f} s CPU")

        # -- play on
        rounds = timeouts = 0
        site_after_hand: list[float] = []
        while len(done) < len(tables):
            rounds += 1
            found = notices()
            if rounds % 7 == 0 and found:  # nobody acts: the clock runs past the deadlines
                last = max((n[3] for n in found.values() if n[3] is not None), default=None)
                if last is not None:
                    clock.t = max(clock.t, last) + timedelta(minutes=1)
                    timeouts += len(found)
                    one_poll(0)
            else:
                clock.t += timedelta(minutes=1)
                posted: set[str] = set()
                for t, notice in found.items():
                    act(t, notice, posted)
                one_poll(len(posted))
            before = len(done)
            started_now = next_hands()
            if (started_now or len(done) > before) and len(site_after_hand) < 3:
                cpu, files = _cpu(lambda: build_site(engine, site, None, state))
                whole, _ = _cpu(lambda: build_site(engine, root / "site-whole", None, state, incremental=False))
                site_after_hand.append((cpu, whole, len(files)))
            if not found and not started_now and len(done) < len(tables):
                settle()
                if not notices() and not next_hands():
                    fig.say(f"play: stuck with {len(tables) - len(done)} tables running; stopping")
                    break
        settle()
        build_site(engine, site, None, state)
        # one more hand at one table alone (every player folds in turn): the site after one hand ends
        alone = None
        with Session(engine) as s:
            alone = next((t for t in tables if len([p for p, m in money_of(s, t).items() if m > 0]) >= 2), None)
        if alone is not None:
            start(alone)
            one_poll(0)
            for _ in range(40):
                found = notices()
                if alone not in found:
                    break
                who, thread, acts, _ = found[alone]
                if who:
                    fold = [a for a in acts if a[1] in ("folds", "check")] or acts
                    forum.post_as(who, thread, fold[0][0])
                else:
                    act(alone, found[alone], set())
                clock.t += timedelta(minutes=1)
                one_poll(1)
            settle()
            cpu, files = _cpu(lambda: build_site(engine, site, None, state))
            whole, every = _cpu(lambda: build_site(engine, root / "site-whole", None, state, incremental=False))
            fig.say(f"site after one hand ended at one table ({alone}): {len(files)} files written incrementally, "
                    f"{cpu:.2f} s CPU; the whole site rewritten ({len(every)} files): {whole:.2f} s CPU; "
                    f"ratio {cpu / whole:.3f}")
        for cpu, whole, n in site_after_hand:
            fig.say(f"site after a round of play (hands ended at many tables): {n} files written "
                    f"incrementally, {cpu:.2f} s CPU; the whole site rewritten: {whole:.2f} s CPU; ratio {cpu / whole:.2f}")
        shutil.rmtree(site)
        cpu, written = _cpu(lambda: build_site(engine, site, None, state))
        fig.say(f"site from nothing at the end: {len(written)} files, {cpu:.2f} s CPU")
        with Session(engine) as s:
            standings = views.current_standings(s, "bench")
            last_players = [p for t in tables for p, m in money_of(s, t).items() if m > 0]
            total_hands = sum(len(ledger.hand_rows(s, t)) for t in tables)
        cpu, (audited, diffs) = _cpu(lambda: audit(engine, state))
        fig.say(f"audit of every table from nothing: {len(audited)} tables, {len(diffs)} differences "
                f"({'identical' if not diffs else 'DIFFERENT'}): {cpu:.2f} s CPU")
        polls = fig.polls
        fig.say(f"play: {total_hands} hands played in {rounds} rounds, {len(polls)} polls "
                f"({sum(p[0] for p in polls):.1f} s CPU in all), {timeouts} turns timed out")
        if len(last_players) == 1:
            fig.say(f"winner: {last_players[0]}")
        else:
            fig.say(f"no single winner yet: {len(last_players)} players left at {len(tables)} tables "
                    "(players are not moved between tables yet)")
        leaders = [f"{getattr(x, 'player', x)}" for x in standings[:3]]
        last = [f"{getattr(x, 'player', x)}" for x in standings[-3:]]
        fig.say(f"places: 1-3 {', '.join(leaders)}; last three {', '.join(last)} "
                f"({len(standings)} ranked; without moves between tables each table has its own last player)")
        fig.say(f"peak memory of this process (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        engine.dispose()
        return 1 if diffs else 0
    finally:
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"kept {root}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(play(int(sys.argv[1]) if len(sys.argv) > 1 else 18, "bench", 3, False, 1500))
