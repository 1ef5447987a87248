"""The comment fuzzer's generator (scripts/fuzz_comments.py) makes what it promises: the fuzz
runs themselves (10^5 comments through the reader, 10^4 through the fold) are in
tests/slow/test_fuzz_comments.py."""

from __future__ import annotations

import random

from kits.sweeps.fuzz import fuzz


def test_the_generator_covers_what_it_promises() -> None:
    fz = fuzz()
    rng = random.Random(7)
    bodies = [fz.comment(rng) for _ in range(3000)]
    joined = "".join(bodies)
    for piece in ("\ud800", "\x00", "\u200b", "[quote", "<!--", "> ", "Ꭺ", "1e3", "10½"):
        assert piece in joined, piece
    assert max(len(b) for b in bodies) >= 100_000
