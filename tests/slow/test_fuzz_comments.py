"""10^5 generated and mutated comments (scripts/fuzz_comments.py) in CI: none crashes the
reader and none acts for anyone but its author. Times are reported by the script and recorded
in docs/benchmarks.md, not asserted here (house rule: no timed tests)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fuzz_comments.py"


def _fuzz():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fuzz_comments", SCRIPT)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["fuzz_comments"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_the_generator_covers_what_it_promises() -> None:
    fz = _fuzz()
    import random
    rng = random.Random(7)
    bodies = [fz.comment(rng) for _ in range(3000)]
    joined = "".join(bodies)
    for piece in ("\ud800", "\x00", "\u200b", "[quote", "<!--", "> ", "Ꭺ", "1e3", "10½"):
        assert piece in joined, piece
    assert max(len(b) for b in bodies) >= 100_000


@pytest.mark.slow
def test_a_hundred_thousand_fuzzed_comments_never_crash_or_act_for_another() -> None:
    rep = _fuzz().run(100_000, seed=13)
    assert rep.count == 100_000 and rep.crashes == []
    assert rep.misattributed == []
    assert rep.intents > 10_000  # the generator really produces actions, not only noise


def _fold_fuzz():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fuzz_fold", SCRIPT.with_name("fuzz_fold.py"))
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    _fuzz()  # fuzz_fold imports fuzz_comments by name
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


@pytest.mark.slow
def test_ten_thousand_fuzzed_comments_folded_in_a_running_hand_never_crash() -> None:
    """The whole fold, not only the reader: commands, advance actions, private messages,
    edits, both rulesets, with and without private messages (scripts/fuzz_fold.py). A crash
    counts an exception and a comment the per-comment safety net had to answer."""
    crashes, _slowest, _where, _baseline, _over = _fold_fuzz().run(10_000, seed=5)
    assert crashes == []
