"""The test BlogNomic's clock and the decks its players bring, shared by the whole-hand test on
BlogNomic's real theme (tests/e2e/blog/test_blognomic_real_theme_hand.py) and the fault sweeps'
hand (tests/kits/sweeps/sweep_hands.py)."""

from __future__ import annotations

from nomicpoker.core.poker.cards import FULL_DECK

from fixtures.wp_theme_site import WordPressSite


class SimClock:
    """The site's clock, shared with the Dealer's pacing: sleeping moves the site's time."""

    def __init__(self, site: WordPressSite):
        self.site = site
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.site.clock += max(1, round(seconds + 0.5))

    def now(self) -> float:
        return float(self.site.clock)


def deck_with(first: str, second: str, p1: int, p2: int) -> tuple[str, ...]:
    """A 52-card deck with ``first`` at position ``p1`` and ``second`` at ``p2`` (1-based),
    the other cards in FULL_DECK order: what a player brings to get those hole cards."""
    rest = [c for c in FULL_DECK if c not in (first, second)]
    deck: list[str | None] = [None] * 52
    deck[p1 - 1], deck[p2 - 1] = first, second
    it = iter(rest)
    return tuple(c if c is not None else next(it) for c in deck)
