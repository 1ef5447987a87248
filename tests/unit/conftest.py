"""tests/unit: the pure core: no database, no server, no process, no network; fast (the whole level
within 60 s).

Every test in this folder is marked ``unit`` here, so ``pytest -m unit`` and ``pytest tests/unit``
run the same tests (docs/testing.md)."""

from _paths import mark_level

pytest_collection_modifyitems = mark_level(__file__)
