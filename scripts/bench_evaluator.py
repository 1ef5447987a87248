"""Benchmark: 7-card evaluations per second, nomicpoker vs treys, pokerkit, phevaluator, eval7.

Usage:  python scripts/bench_evaluator.py [--hands 200000] [--pokerkit-hands 20000]

All libraries evaluate the same random distinct 7-card hands (fixed seed). Each library gets
its input pre-converted to its own card type outside the timed loop (nomicpoker takes the
canonical strings as they are), so the figures compare evaluation, not parsing. pokerkit is
~200x slower than the rest, so by default it runs on the first 20,000 of the same hands
(--pokerkit-hands 0 = all). The table-build cost of value7 (paid once, on the first call) is
reported separately. Also prints what each library returns on the duplicate-card hands of
docs/evaluator.md.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable

from nomicpoker.core.poker.cards import FULL_DECK

SEED = 20261121


def distinct_hands(n: int, seed: int = SEED) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    seen: set[frozenset[str]] = set()
    out: list[tuple[str, ...]] = []
    while len(out) < n:
        h = tuple(rng.sample(FULL_DECK, 7))
        k = frozenset(h)
        if k not in seen:
            seen.add(k)
            out.append(h)
    return out


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--pokerkit-hands", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3, help="best of N (not for pokerkit)")
    args = ap.parse_args()

    hands = distinct_hands(args.hands)
    n = len(hands)
    rows: list[tuple[str, int, float, str]] = []  # name, hands, seconds, call

    from nomicpoker.core.poker import evaluator

    t = time.perf_counter()
    evaluator.value7(hands[0])  # builds the tables
    build = time.perf_counter() - t
    value7 = evaluator.value7
    secs = best_of(args.repeat, lambda: list(map(value7, hands)))
    rows.append(("nomicpoker value7", n, secs, "value7(cards)"))

    ref = hands[:10_000]
    secs = best_of(1, lambda: [evaluator.best_hand(h[:2], h[2:], 1) for h in ref])
    rows.append(("nomicpoker best_hand", len(ref), secs, "best_hand(hole, board, 1), names+cards"))

    from treys import Card as TCard
    from treys import Evaluator

    tev = Evaluator()
    th = [([TCard.new(c) for c in h[:2]], [TCard.new(c) for c in h[2:]]) for h in hands]
    te = tev.evaluate
    secs = best_of(args.repeat, lambda: [te(p, b) for p, b in th])
    rows.append(("treys", n, secs, "Evaluator().evaluate(hand2, board5)"))

    from pokerkit import Card as PCard
    from pokerkit import StandardHighHand

    m = n if args.pokerkit_hands <= 0 else min(n, args.pokerkit_hands)
    ph = [(tuple(PCard.parse("".join(h[:2]))), tuple(PCard.parse("".join(h[2:])))) for h in hands[:m]]
    fg = StandardHighHand.from_game
    secs = best_of(1, lambda: [fg(a, b) for a, b in ph])
    rows.append(("pokerkit", m, secs, "StandardHighHand.from_game(hole, board)"))

    from phevaluator import evaluate_cards
    from phevaluator.card import Card as PhCard

    phh = [tuple(PhCard.to_id(c) for c in h) for h in hands]
    secs = best_of(args.repeat, lambda: [evaluate_cards(*h) for h in phh])
    rows.append(("phevaluator (C ext)", n, secs, "evaluate_cards(*int_ids)"))

    try:
        import eval7
    except ImportError:  # pragma: no cover - optional
        eval7 = None
    if eval7 is not None:
        e7c = {c: eval7.Card(c) for c in FULL_DECK}
        e7h = [[e7c[c] for c in h] for h in hands]
        e7 = eval7.evaluate
        secs = best_of(args.repeat, lambda: [e7(h) for h in e7h])
        rows.append(("eval7 (Cython)", n, secs, "eval7.evaluate(cards)"))

    treys_rate = next(k / s for name, k, s, _ in rows if name == "treys")
    print(f"{n:,} random distinct 7-card hands, seed {SEED}; best of {args.repeat} "
          f"(pokerkit and best_hand: 1 run)")
    print(f"nomicpoker table build (first value7 call): {build * 1000:.0f} ms")
    print()
    print(f"| {'evaluator':<22} | {'hands':>8} | {'evals/s':>11} | {'vs treys':>8} | call")
    print(f"|{'-' * 24}|{'-' * 10}|{'-' * 13}|{'-' * 10}|------")
    for name, k, s, call in rows:
        rate = k / s
        print(f"| {name:<22} | {k:>8,} | {rate:>11,.0f} | {rate / treys_rate:>7.2f}x | {call}")
    print()
    duplicate_cases()


DUPLICATES = [
    ("AsAh + AdAcAs2c3d (five aces)", ["As", "Ah"], ["Ad", "Ac", "As", "2c", "3d"]),
    ("AhKh + Ah9h5h2c3d (flush AAK95)", ["Ah", "Kh"], ["Ah", "9h", "5h", "2c", "3d"]),
    ("KsKs + KdKh2c3d4h (four kings)", ["Ks", "Ks"], ["Kd", "Kh", "2c", "3d", "4h"]),
    ("As x5 (five of a kind)", ["As", "As"], ["As", "As", "As"]),
]


def duplicate_cases() -> None:
    """What each library answers on multiset hands (docs/evaluator.md records this)."""
    from phevaluator import evaluate_cards
    from pokerkit import StandardHighHand
    from treys import Card as TCard
    from treys import Evaluator

    from nomicpoker.core.poker.evaluator import best_hand

    tev = Evaluator()

    def treys_(h, b):
        r = tev.evaluate([TCard.new(c) for c in b], [TCard.new(c) for c in h])
        return f"rank {r} ({tev.class_to_string(tev.get_rank_class(r))})"

    def pokerkit_(h, b):
        x = StandardHighHand.from_game("".join(h), "".join(b))
        return str(x)

    def phe_(h, b):
        return f"rank {evaluate_cards(*(h + b))}"

    libs: list[tuple[str, Callable]] = [
        ("nomicpoker", lambda h, b: best_hand(h, b).name),
        ("treys", treys_), ("pokerkit", pokerkit_), ("phevaluator", phe_),
    ]
    try:
        import eval7

        libs.append(("eval7", lambda h, b: eval7.handtype(eval7.evaluate([eval7.Card(c) for c in h + b]))))
    except ImportError:  # pragma: no cover
        pass
    print("Duplicate-card hands:")
    for label, h, b in DUPLICATES:
        print(f"  {label}")
        for name, fn in libs:
            try:
                out = fn(h, b)
            except Exception as e:  # noqa: BLE001 - recording what the library does
                out = f"raises {type(e).__name__}: {e}"
            print(f"    {name:<12} {out}")


if __name__ == "__main__":
    main()
