"""tests/e2e: whole games and commands: the CLI, whole poll cycles, the demo, days of play.

Every test in this folder is marked ``e2e`` here, so ``pytest -m e2e`` and ``pytest tests/e2e``
run the same tests (docs/testing.md)."""

from _paths import mark_level

pytest_collection_modifyitems = mark_level(__file__)
