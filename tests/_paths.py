"""Where things are, for the tests of every level: one place instead of each test file counting
``Path(__file__).parents[n]`` from its own folder (which broke when the tests moved into
tests/unit, tests/integration, tests/e2e and tests/slow: docs/testing.md).

Also the level markers: each level's conftest.py marks every test of its folder with the level
(:func:`mark_level`), so ``pytest -m unit`` and ``pytest tests/unit`` run the same tests."""

from __future__ import annotations

from pathlib import Path

import pytest

#: the tests/ folder (this file's), the repository's root, and the test data (tests/fixtures/)
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
#: the shared data beside the checkout (../shared: the PHH corpus), as the README says
SHARED = ROOT.parent / "shared"

#: the test levels, each a folder of tests/ and a marker of the same name (docs/testing.md)
LEVELS = ("unit", "integration", "e2e", "slow")


def mark_level(conftest_file: str):
    """The ``pytest_collection_modifyitems`` hook of a level's conftest.py: every test collected
    under that conftest's folder gets the folder's marker (``tests/slow`` -> ``slow``). Pytest
    calls this hook of every conftest with all the items, hence the folder check."""
    folder = Path(conftest_file).resolve().parent
    marker = getattr(pytest.mark, folder.name)

    def pytest_collection_modifyitems(items) -> None:
        for item in items:
            if folder in Path(item.path).resolve().parents:
                item.add_marker(marker)

    return pytest_collection_modifyitems
