"""The suite's order for pytest-xdist (tests/_schedule.py): each worker's first share starts
with its part of the long sweeps, keeps a module together and ends with unit tests."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from _schedule import shares, worksteal_sizes


@dataclass(frozen=True)
class Item:
    name: str
    level: str
    module_name: str

    @property
    def module(self):  # what pytest's Function has: the imported test module
        return SimpleNamespace(__name__=self.module_name)

    def get_closest_marker(self, name):
        return object() if name == self.level else None


def suite() -> list[Item]:
    """Collection order as pytest gives it: folders alphabetically (e2e, integration, slow, unit)."""
    items = [Item(f"e{m}_{t}", "e2e", f"test_e{m}") for m in range(5) for t in range(3)]
    items += [Item(f"i{m}_{t}", "integration", f"test_i{m}") for m in range(3) for t in range(4)]
    items += [Item(f"s{t}", "slow", "test_sweep") for t in range(5)]
    items += [Item(f"u{m}_{t}", "unit", f"test_u{m}") for m in range(8) for t in range(10)]
    return items


def cut(order: list[Item], workers: int) -> list[list[Item]]:
    """What each worker is first given: contiguous shares of worksteal's sizes, computed here
    the way pytest-xdist does (each idle node in turn takes len(pending) // nodes left)."""
    pending, out = list(order), []
    for w in range(workers):
        n = len(pending) // (workers - w)
        out.append(pending[:n])
        del pending[:n]
    return out


def test_the_sizes_are_worksteals_first_cut():
    assert worksteal_sizes(10, 2) == [5, 5]
    assert worksteal_sizes(11, 2) == [5, 6]
    assert worksteal_sizes(11, 3) == [3, 4, 4]
    assert [len(c) for c in cut(list(range(11)), 3)] == worksteal_sizes(11, 3)


@pytest.mark.parametrize("workers", [2, 3, 4])
def test_each_worker_starts_with_its_part_of_the_sweeps_and_ends_with_unit_tests(workers):
    items = suite()
    order = shares(items, workers)
    assert sorted(order, key=lambda i: i.name) == sorted(items, key=lambda i: i.name)  # nothing lost or doubled
    first = cut(order, workers)
    slow = [i for i in items if i.level == "slow"]
    for w, share in enumerate(first):
        head = share[:len(slow[w::workers])]
        assert head == slow[w::workers]  # round-robin, in their order
        assert share[-1].level == "unit"
        levels = [i.level for i in share[len(head):]]
        assert levels == sorted(levels, key=("e2e", "integration", "unit").index)  # longest kinds first


def test_a_module_stays_on_one_worker_unless_its_tail_fills_a_share():
    """The sweeps' parts are spread on purpose; any other module is split at most where the
    shares are evened out, and that is a unit module."""
    first = cut(shares(suite(), 2), 2)
    where: dict[str, set[int]] = {}
    for w, share in enumerate(first):
        for item in share:
            where.setdefault(item.module_name, set()).add(w)
    assert where["test_sweep"] == {0, 1}
    split = [m for m, ws in where.items() if len(ws) > 1 and m != "test_sweep"]
    assert len(split) <= 1 and all(m.startswith("test_u") for m in split), where


def test_one_worker_runs_the_sweeps_first_and_the_rest_in_collection_order():
    items = suite()
    order = shares(items, 1)
    assert [i.level for i in order[:5]] == ["slow"] * 5
    assert order[5:] == [i for i in items if i.level != "slow"]
