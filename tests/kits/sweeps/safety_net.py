"""The table the safety net's end-to-end tests start from (tests/e2e/reading/test_comment_safety_net.py,
tests/slow/test_comment_safety_net_crashes.py)."""

from __future__ import annotations

from pathlib import Path

from kits.tables.bot import Table


def ready(tmp: Path, db: str | None = None) -> Table:
    t = Table(tmp, players=("alice", "bob"), db=db)
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    return t
