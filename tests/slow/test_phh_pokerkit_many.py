"""PHH as PokerKit writes it, at length: 3,000 random hands PokerKit plays and writes replay
through our engine, each matching PokerKit's finishing stacks or departing by a named rule
(tests/kits/references/pokerkit_hands.py). The few hundred of the default run, and the classifier's own
checks: tests/unit/phh/test_phh_pokerkit.py."""

from __future__ import annotations

import pytest

pytest.importorskip("pokerkit")

from kits.references import pokerkit_hands as kit  # noqa: E402


@pytest.mark.slow
def test_many_random_pokerkit_hands_match_or_depart_by_a_named_rule():
    counts = kit.explained_census("slow", 3000)
    assert counts["matched"] >= 2550, counts
