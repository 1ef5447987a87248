"""10^5 generated and mutated comments (scripts/fuzz_comments.py) in CI: none crashes the
reader and none acts for anyone but its author. Times are reported by the script and recorded
in docs/benchmarks.md, not asserted here (house rule: no timed tests)."""

from __future__ import annotations

import pytest

from _fuzz_kit import fold_fuzz, fuzz


@pytest.mark.slow
def test_a_hundred_thousand_fuzzed_comments_never_crash_or_act_for_another() -> None:
    rep = fuzz().run(100_000, seed=13)
    assert rep.count == 100_000 and rep.crashes == []
    assert rep.misattributed == []
    assert rep.intents > 10_000  # the generator really produces actions, not only noise


@pytest.mark.slow
def test_ten_thousand_fuzzed_comments_folded_in_a_running_hand_never_crash() -> None:
    """The whole fold, not only the reader: commands, advance actions, private messages,
    edits, both rulesets, with and without private messages (scripts/fuzz_fold.py). A crash
    counts an exception and a comment the per-comment safety net had to answer."""
    crashes, _slowest, _where, _baseline, _over = fold_fuzz().run(10_000, seed=5)
    assert crashes == []
