"""Pausing Python's cyclic garbage collector around bulk work (a replay from zero, audit).

WHY: a replay of a 15,900-revision table keeps ~100,000 objects alive (the archive, the
derived rows, the stored rows read back to compare), and allocates many more. Each time the
allocation count passes the collector's threshold, a collection walks the live objects
again: measured, a fifth of an audit's CPU time (1.06 -> 0.86 s), for no garbage (the fold's
objects are freed by reference counting; it makes no cycles worth collecting mid-run).
The collector runs again as soon as the outermost pause ends, so nothing is leaked.

Process-wide (the collector is), so nested and concurrent pauses are counted: the collector
is enabled again only when the last one ends, and only if it was enabled before the first.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0
_was_enabled = True


@contextmanager
def paused_collector() -> Iterator[None]:
    """Run the block with the cyclic collector off (see the module docstring)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
