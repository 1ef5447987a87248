"""tests/integration: the shell and the adapters against real parts: SQLite (PostgreSQL with -m
postgres), forum servers on loopback, real processes.

Every test in this folder is marked ``integration`` here, so ``pytest -m integration`` and ``pytest tests/integration``
run the same tests (docs/testing.md)."""

from _paths import mark_level

pytest_collection_modifyitems = mark_level(__file__)
