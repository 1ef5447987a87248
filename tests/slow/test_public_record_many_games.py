"""No running hand's secret in any published copy, over 60 random games (issue 21): the check of
tests/e2e/record/test_public_record.py (what is made and scanned: tests/kits/tables/public_record.py) on
many more games than the default run's."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from kits.tables.public_record import _game, games


@pytest.mark.slow
@settings(max_examples=60, derandomize=False)
@given(games())
def test_no_published_artefact_holds_a_running_hands_secret_many_games(game) -> None:
    _game(*game)
