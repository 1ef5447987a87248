"""10^5 generated and mutated comments (scripts/fuzz_comments.py) in CI: none crashes the
reader and none acts for anyone but its author. Times are reported by the script and recorded
in docs/benchmarks.md, not asserted here (house rule: no timed tests).

Each run is cut into parts of its own seed (the first part is the first quarter of the old
single run, seed 13), so the test workers read them side by side instead of one worker
reading all 100,000 alone (327 s on a busy machine) while the other idles; together they
read as many comments as the single run did."""

from __future__ import annotations

import pytest

from kits.sweeps.fuzz import fold_fuzz, fuzz


#: the 100,000 comments in FUZZ_PARTS parts, the fold's 10,000 in FOLD_PARTS
FUZZ_PARTS, FOLD_PARTS = 4, 2


@pytest.mark.slow
@pytest.mark.parametrize("part", range(FUZZ_PARTS))
def test_a_hundred_thousand_fuzzed_comments_never_crash_or_act_for_another(part) -> None:
    count = 100_000 // FUZZ_PARTS
    rep = fuzz().run(count, seed=13 + part)
    assert rep.count == count and rep.crashes == []
    assert rep.misattributed == []
    assert rep.intents > 10_000 // FUZZ_PARTS  # the generator really produces actions, not only noise


@pytest.mark.slow
@pytest.mark.parametrize("part", range(FOLD_PARTS))
def test_ten_thousand_fuzzed_comments_folded_in_a_running_hand_never_crash(part) -> None:
    """The whole fold, not only the reader: commands, advance actions, private messages,
    edits, both rulesets, with and without private messages (scripts/fuzz_fold.py). A crash
    counts an exception and a comment the per-comment safety net had to answer."""
    crashes, _slowest, _where, _baseline, _over = fold_fuzz().run(10_000 // FOLD_PARTS, seed=5 + part)
    assert crashes == []
