"""The order the whole suite runs in, so that pytest-xdist's two workers finish together
(tests/conftest.py applies it; docs/testing.md, "Running them").

WHY an order of our own: ``--dist worksteal`` (pyproject.toml) first cuts the collected tests
into one contiguous share per worker, in collection order (the first ``n // workers`` tests to
the first worker, ...), and later an idle worker takes the *tail* of a busy one's queue. With
the long sweeps simply sorted first, every sweep sat at the head of the first worker's share:
it ran them all one after another while the other worker ran short tests, stole short tests,
and then idled through the last sweeps (the sweeps are most of the suite's time). Here each
share gets:

1. its round-robin part of the ``slow`` tests (a sweep is cut into parts that land on
   different workers), run first;
2. then whole test modules (a module's fixtures are set up once per worker that runs it),
   end-to-end ones first, then integration, then unit, each module to the share with the
   fewest tests so far;
3. so that each share ends with unit tests, the cheapest to steal and to wait for: whatever a
   busy worker has left when the other is idle is a tail of milliseconds, not a sweep.

Pure: the items only need ``get_closest_marker`` and ``module`` (a level name and a module name
are all that is read).
"""

from __future__ import annotations

from typing import Any, Sequence

#: the levels in the order their modules are placed in a share (the longest tests first)
ORDER = ("e2e", "integration", "unit")


def worksteal_sizes(total: int, workers: int) -> list[int]:
    """How many of ``total`` tests pytest-xdist's ``worksteal`` scheduler first gives each
    worker (xdist/scheduler/worksteal.py, ``check_schedule``: each idle node in turn gets
    ``len(pending) // nodes_remaining``)."""
    sizes, left = [], total
    for w in range(workers):
        sizes.append(left // (workers - w))
        left -= sizes[-1]
    return sizes


def _level(item: Any) -> str | None:
    for level in ("slow",) + ORDER:
        if item.get_closest_marker(level) is not None:
            return level
    return None


def shares(items: Sequence[Any], workers: int) -> list[Any]:
    """``items`` reordered for ``workers`` worksteal workers (see the module's docstring); with
    one worker (``-n 0``), the slow tests first and the rest in their order."""
    slow = [i for i in items if _level(i) == "slow"]
    if workers <= 1:
        return slow + [i for i in items if _level(i) != "slow"]
    parts: list[list[Any]] = [slow[w::workers] for w in range(workers)]
    modules: dict[tuple[int, str], list[Any]] = {}
    for item in items:
        level = _level(item)
        if level == "slow":
            continue
        rank = ORDER.index(level) if level in ORDER else len(ORDER)
        modules.setdefault((rank, str(getattr(item, "module", None) and item.module.__name__)), []).append(item)
    for key in sorted(modules, key=lambda k: k[0]):  # stable: the collection order within a level
        min(parts, key=len).extend(modules[key])
    # each share exactly as long as worksteal's first cut: the longer shares give their last
    # (unit) tests to the shorter ones, so no share's head lands in another worker's share
    sizes = worksteal_sizes(len(items), workers)
    spill: list[Any] = []
    for part, size in zip(parts, sizes):
        while len(part) > size:
            spill.append(part.pop())
    for part, size in zip(parts, sizes):
        while len(part) < size:
            part.append(spill.pop())
    return [item for part in parts for item in part]
