"""tests/slow: the long sweeps (over ~20 s each): every crash point, every network fault, the
100,000-comment fuzz, the wheel build.

Every test in this folder is marked ``slow`` here, so ``pytest -m slow`` and ``pytest tests/slow``
run the same tests (docs/testing.md)."""

from _paths import mark_level

pytest_collection_modifyitems = mark_level(__file__)
