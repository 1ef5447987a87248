"""Fuzz the comment reader: generated and mutated comments, timed one by one.

Usage::

    python scripts/fuzz_comments.py --count 1000000 [--seed 1] [--bound-ms 10]

Every comment starts from a valid action of the grammar (or chat) and is mutated the ways a
hostile or careless player would: case, look-alike letters from Unicode's confusables, zero-width
and bidi marks, HTML / Markdown / BBCode wrappers, nested quotes, huge, negative, fractional and
exponent amounts, control characters, NUL, lone surrogates, 100,000-character lines and
pathological markup (``[[[[``, ``[s][s]``, ``<a <a``). Each is read in all three dialects as
the fold reads it (:func:`nomicpoker.core.reading.grammar.parse_comment`, then whose action it is), and
the run reports

- crashes (any exception: the reader promises never to raise),
- the slowest comment and how many took longer than ``--bound-ms``, timed both in the CPU time
  of the reading thread (``time.thread_time``: the reader's own work) and on the wall clock
  (which also counts what other processes took from a shared machine), a comment over the
  bound being timed three more times and the least kept,
- comments acting for anyone but their author (mentions of other players are put only in chat
  positions, never in the forms that name whose action it is).

Exit status 1 when there is any crash or misattribution (time is reported, not enforced:
performance lives here and in docs/benchmarks.md, not in timed tests).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nomicpoker.core.table.fold_types import Revision  # noqa: E402
from nomicpoker.core.reading.grammar import Intent, parse_comment  # noqa: E402
from nomicpoker.core.fold.whose import other_player_named  # noqa: E402

AUTHOR = "alice"
SEATED = ["alice", "bob", "carol"]
FORMATS = ("markdown", "html", "text")

ACTIONS = [
    "HAND{h} ROUND{r} raise {a}", "HAND{h} ROUND{r} call", "HAND{h} ROUND{r} call {a}",
    "HAND{h} ROUND{r} check", "HAND{h} ROUND{r} folds", "HAND{h} ROUND{r} all in",
    "HAND#{h} DICE52 DICE52", "HAND{h} reveal 7h 2s", "reveal Ah Kd", "7♥ 2♠",
    "alice cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko",
    "Hand #{h}, Round {r}: raises {a}", "ROUND{r} raise {a}", "call", "raise {a}", "fold",
]
CHAT = ["nice hand", "gg", "I fold under pressure", "hand 3 was fun", "call me later",
        "thinking...", "Привет", "مرحبا", "🂡🂮 lol", "all in all, fine"]
MENTIONS = ["Your move, {p}!", "Sorry {p}!", "{p} is bluffing", "good luck {p}", "@{p} your turn"]
AMOUNTS = ["20", "-5", "10.5", "10½", "1e3", "1'000", "1,000", "9" * 40, "0", "5*2", "٢٠",
           "２０", "0x10", "10k", "∞", "NaN", "1" * 5000]
CONFUSE = {"a": "аɑα", "o": "оοⲟⵔ", "e": "еє", "i": "іӏι", "l": "ӏⵏꓲ", "H": "НᎻΗ", "A": "ᎪАΑ",
           "N": "ΝꓠN", "D": "Ꭰꓓ", "R": "ᏒꓣR", "c": "сϲ", "p": "рρ", "s": "ѕꜱ", "k": "κк",
           "1": "𝟏１ɩ", "0": "ΟО𝟎"}
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u202d",
             "\u2066", "\u200f", "\ufe0f"]
CONTROL = ["\x00", "\x01", "\x07", "\x1b", "\x7f", "\r", "\t", "\x0b", "\x0c", "\u0085", "\u2028"]
SURROGATES = ["\ud800", "\udfff", "\ud83d", "\udca9"]
WRAPS = [
    "**{x}**", "_{x}_", "`{x}`", "~~{x}~~", "> {x}", ">> {x}", "- > {x}", "1. {x}", "# {x}",
    "<b>{x}</b>", "<s>{x}</s>", "<blockquote>{x}</blockquote>", "<!-- {x} -->", "<!--\n{x}",
    "[quote]{x}[/quote]", "[quote=bob][quote]{x}[/quote][/quote]", "[s]{x}[/s]", "<q>{x}</q>",
    "<p>{x}</p>", "<span style='display:none'>{x}</span>", "```\n{x}\n```", "    {x}",
    "[{x}](http://x)", "| a |\n|---|\n| {x} |", "&gt; {x}", "<a title='{x}", "\\> {x}",
]
PATHOLOGICAL = ["[" * 20000, "[s]" * 7000, "<a " * 10000, "HAND1" * 24000, "*a " * 7000,
                "a\n" * 20000, "![[" * 7000, "<!--" * 5000, "_" * 30000, "~~a " * 5000,
                "&#" * 10000, "> " * 5000, "- " * 5000, "\\" * 30000, "`" * 20000,
                "x" * 100_000, "HAND1 ROUND1 raise " + "9" * 100_000]


@dataclass
class Report:
    count: int = 0
    crashes: list[tuple[str, str, str]] = field(default_factory=list)
    misattributed: list[str] = field(default_factory=list)
    over: int = 0  # CPU time of the reading thread over the bound, least of four timings
    over_wall: int = 0  # wall clock over the bound, least of four timings
    slowest: float = 0.0  # CPU seconds (least of four when over the bound)
    slowest_body: str = ""
    slowest_wall: float = 0.0
    slowest_wall_body: str = ""
    total: float = 0.0  # CPU seconds
    total_wall: float = 0.0
    intents: int = 0
    slow: list[tuple[str, bool, float, float, str]] = field(default_factory=list)


def _action(rng: random.Random) -> str:
    a = rng.choice(AMOUNTS) if rng.random() < 0.25 else str(rng.randint(1, 500))
    return rng.choice(ACTIONS).format(h=rng.randint(1, 9), r=rng.randint(1, 4), a=a)


def _mutate(rng: random.Random, s: str) -> str:
    kind = rng.randrange(11)
    if kind == 0:  # case
        return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in s)
    if kind == 1:  # look-alike letters
        chars = list(s)
        for i, c in enumerate(chars):
            if c in CONFUSE and rng.random() < 0.3:
                chars[i] = rng.choice(CONFUSE[c])
        return "".join(chars)
    if kind in (2, 3, 4):  # invisible, control, surrogate at random places
        pool = (INVISIBLE, CONTROL, SURROGATES)[kind - 2]
        for _ in range(rng.randint(1, 4)):
            i = rng.randint(0, len(s))
            s = s[:i] + rng.choice(pool) + s[i:]
        return s
    if kind in (5, 6):  # markup wrappers, nested
        for _ in range(rng.randint(1, 3)):
            s = rng.choice(WRAPS).format(x=s)
        return s
    if kind == 7:  # pathological markup around it
        p = rng.choice(PATHOLOGICAL)
        return rng.choice([p + "\n\n" + s, s + "\n\n" + p, p[:rng.randint(0, len(p))] + s])
    if kind == 8:  # a huge line
        return s + " " + rng.choice(["HAND1 ", "a", "[", "x "]) * rng.randint(1000, 30000)
    if kind == 9:  # random character edits
        chars = list(s)
        for _ in range(rng.randint(1, 5)):
            if not chars:
                break
            i = rng.randrange(len(chars))
            op = rng.randrange(3)
            if op == 0:
                del chars[i]
            elif op == 1:
                chars.insert(i, chr(rng.choice([rng.randint(32, 126), rng.randint(0x80, 0x2FFF),
                                                  rng.randint(0x1F000, 0x1FAFF)])))
            else:
                chars[i], chars[-1] = chars[-1], chars[i]
        return "".join(chars)
    return s.replace(" ", rng.choice(["  ", "\n", "\t", "\u00a0", "\u3000", "-", ""]))


def comment(rng: random.Random) -> str:
    """One comment: an action (or chat), mutated 0-3 times, with chat and mentions around."""
    parts = [_action(rng) if rng.random() < 0.8 else rng.choice(CHAT)]
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        parts[0] = _mutate(rng, parts[0])
    if rng.random() < 0.5:  # mentions of other players in chat positions only
        m = rng.choice(MENTIONS).format(p=rng.choice(["bob", "carol", "Bob", "cаrol"]))
        where = rng.randrange(3)
        parts = [m + " " + parts[0]] if where == 0 else [parts[0] + ". " + m] if where == 1 \
            else [parts[0], m]
        if where == 0 and not m.rstrip().endswith(("!", "bluffing", "turn")):
            parts = [parts[0].replace(m + " ", m + ". ", 1)]
    if rng.random() < 0.3:
        parts.append(rng.choice(CHAT))
    rng.shuffle(parts) if rng.random() < 0.2 else None
    return "\n\n".join(parts)


def _read(body: str, fmt: str, bare: bool):  # type: ignore[no-untyped-def]
    r = parse_comment(body, fmt, bare=bare)
    named = None
    if isinstance(r, Intent):
        rev = Revision(1, "t", "c", 1, AUTHOR, "", body, fmt)
        named = other_player_named(rev, r, SEATED)
    return r, named


def _timed(body: str, fmt: str, bare: bool):  # type: ignore[no-untyped-def]
    c0, t0 = time.thread_time(), time.perf_counter()
    out = _read(body, fmt, bare)
    t1, c1 = time.perf_counter(), time.thread_time()
    return out, c1 - c0, t1 - t0


def check(body: str, fmt: str, bare: bool, rep: Report) -> None:
    """Read one comment as the fold does, timing it in the CPU time of this thread and in
    wall-clock time. WHY both, and why a comment over the bound is timed three more times
    (the least of four kept, for each clock): on a shared machine the wall clock also counts
    the time slices other processes took and the pauses of the scheduler, which land on
    whatever comment is running; the thread's CPU time counts only the work done reading it.
    A comment still over the bound in CPU time every one of four times is the reader's own
    cost (recorded in ``rep.slow`` to be fixed); one over it only on the wall clock is the
    machine."""
    try:
        (r, named), cpu, wall = _timed(body, fmt, bare)
        if max(cpu, wall) * 1000 > BOUND_MS:
            for _ in range(3):
                _, c, w = _timed(body, fmt, bare)
                cpu, wall = min(cpu, c), min(wall, w)
    except Exception as e:  # noqa: BLE001 - the point is to catch anything
        rep.crashes.append((fmt, repr(body[:200]), f"{type(e).__name__}: {e}"))
        return
    rep.count += 1
    rep.total += cpu
    rep.total_wall += wall
    rep.intents += isinstance(r, Intent)
    if named is not None:
        rep.misattributed.append(f"{fmt}: {body[:200]!r} -> acts for {named}")
    if cpu > rep.slowest:
        rep.slowest, rep.slowest_body = cpu, f"{fmt}: {body[:120]!r} ({len(body):,} chars)"
    if wall > rep.slowest_wall:
        rep.slowest_wall, rep.slowest_wall_body = wall, f"{fmt}: {body[:120]!r} ({len(body):,} chars)"
    if cpu * 1000 > BOUND_MS:
        rep.over += 1
        rep.slow.append((fmt, bare, cpu, wall, body))
    if wall * 1000 > BOUND_MS:
        rep.over_wall += 1


BOUND_MS = 10.0


def run(count: int, seed: int = 1, progress: int = 0) -> Report:
    """Read ``count`` comments (each in one dialect, a third of them with bare actions on)."""
    rng = random.Random(seed)
    rep = Report()
    t0 = time.perf_counter()
    gc.disable()  # collected between comments instead of inside one
    try:
        for i in range(count):
            check(comment(rng), FORMATS[i % 3], i % 3 == 1, rep)
            if i % 1000 == 999:
                gc.collect()
            if progress and (i + 1) % progress == 0:
                print(f"  {i + 1:,} read in {time.perf_counter() - t0:.0f} s; over {BOUND_MS:g} ms: "
                      f"{rep.over} CPU, {rep.over_wall} wall; crashes {len(rep.crashes)}",
                      file=sys.stderr, flush=True)
    finally:
        gc.enable()
    return rep


def main(argv: list[str] | None = None) -> int:
    global BOUND_MS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bound-ms", type=float, default=10.0)
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a progress line to stderr every N comments")
    ap.add_argument("--slow-out", type=Path, metavar="FILE",
                    help="write each comment over the bound in CPU time as a JSON line")
    args = ap.parse_args(argv)
    BOUND_MS = args.bound_ms
    t0 = time.perf_counter()
    rep = run(args.count, args.seed, args.progress)
    wall = time.perf_counter() - t0
    n = max(rep.count, 1)
    print(f"comments read: {rep.count:,} (+{len(rep.crashes)} crashed) in {wall:.1f} s; "
          f"{rep.intents:,} acted or would act")
    print(f"mean {rep.total / n * 1000:.3f} ms CPU, {rep.total_wall / n * 1000:.3f} ms wall")
    print(f"slowest in CPU time {rep.slowest * 1000:.2f} ms: {rep.slowest_body}")
    print(f"slowest in wall time {rep.slowest_wall * 1000:.2f} ms: {rep.slowest_wall_body}")
    print(f"over {BOUND_MS:g} ms (least of four timings): {rep.over} in CPU time, "
          f"{rep.over_wall} in wall time")
    for fmt, bare, cpu, w, body in sorted(rep.slow, key=lambda x: -x[2])[:10]:
        print(f"   {cpu * 1000:.2f} ms CPU ({w * 1000:.2f} wall) {fmt}{' bare' if bare else ''}: "
              f"{body[:100]!r} ({len(body):,} chars)")
    if args.slow_out:
        import json
        with args.slow_out.open("w", encoding="utf-8", errors="surrogatepass") as f:
            for fmt, bare, cpu, w, body in rep.slow:
                f.write(json.dumps({"format": fmt, "bare": bare, "cpu_ms": round(cpu * 1000, 3),
                                    "wall_ms": round(w * 1000, 3), "body": body}) + "\n")
    print(f"crashes: {len(rep.crashes)}")
    for c in rep.crashes[:10]:
        print("  ", *c)
    print(f"acting for anyone but the author: {len(rep.misattributed)}")
    for m in rep.misattributed[:10]:
        print("  ", m)
    return 1 if rep.crashes or rep.misattributed else 0


if __name__ == "__main__":
    sys.exit(main())
