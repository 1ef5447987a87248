"""Network faults on every request of a whole hand, on the test Reddit and BlogNomic servers
(issue 13): the server answers one request badly (a timeout after doing the work, 429 with
Retry-After, 503, a connection cut after the forum stored the post), and the Dealer's next
poll(s) finish the hand exactly as the fault-free run did: no action lost, no comment or
private message twice, the ledger and the forum equal, audit clean. The real clients (praw
over prawcore, requests) and adapters run as in production; only the server misbehaves
(tests/fixtures/http_faults.py). How each replay works: tests/_sweep_kit.py.

The default run faults a sample (every request gets some fault across the four kinds'
offsets when STRIDE is 1); the ``slow`` tests fault every request with every kind, in
:data:`PARTS` tests per forum that the test workers run side by side. Figures:
docs/reliability.md (``pytest -s`` prints them)."""

from __future__ import annotations

import time

import pytest

from fixtures.http_faults import KINDS

from _sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from _sweep_kit import Sweep

#: the default run faults request n with kind j when (n + j) % SAMPLE_STRIDE == 0: every
#: SAMPLE_STRIDE-th request of the hand gets each kind in turn
SAMPLE_STRIDE = 7
#: the ``slow`` run (every request, every kind) is cut into PARTS tests by step (part p takes
#: the steps i with i % PARTS == p), so the test workers share it instead of one of them
#: running it alone while the other idles; together the parts fault every request of the hand
PARTS = 4


def sweep_faults(sweep: Sweep, stride: int, part: int | None = None) -> dict:
    """Fault the recorded steps' requests (all of them with every kind when ``stride`` is 1);
    ``part``: only those of the steps ``i % PARTS == part``."""
    requests = [(i, k) for i, step in enumerate(sweep.steps) for k in range(1, step.requests + 1)
                if part is None or i % PARTS == part]
    done: dict[str, int] = {}
    hit: set[str] = set()
    began = time.monotonic()
    for n, (i, k) in enumerate(requests):
        for j, kind in enumerate(KINDS):
            if (n + j) % stride:
                continue
            fired = sweep.fault_step(i, kind, k)
            done[kind] = done.get(kind, 0) + 1
            hit.add(f"{fired[0][1]} {fired[0][2]}")
    return {"steps": len(sweep.steps), "requests": len(requests), "faults": done,
            "endpoints": sorted(hit), "seconds": round(time.monotonic() - began, 1),
            "hand requests": sum(s.requests for s in sweep.steps)}


def _check(figures: dict, stride: int) -> None:
    print(f"\nnetwork faults: {figures}")
    assert figures["requests"] >= 40 and figures["steps"] >= 14
    assert set(figures["faults"]) == set(KINDS)
    assert sum(figures["faults"].values()) >= figures["requests"] * len(KINDS) // stride - len(KINDS)


def test_reddit_a_sample_of_network_faults_over_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    figures = sweep_faults(play_reddit(reddit, tmp_path), SAMPLE_STRIDE)
    _check(figures, SAMPLE_STRIDE)
    assert any("/api/compose" in e for e in figures["endpoints"]) or SAMPLE_STRIDE > 1


def test_blognomic_a_sample_of_network_faults_over_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    figures = sweep_faults(play_blognomic(*blog, tmp_path), SAMPLE_STRIDE)
    _check(figures, SAMPLE_STRIDE)


def _check_part(figures: dict, part: int) -> None:
    """One part of the every-request run: each of its requests got each kind once."""
    print(f"\nnetwork faults, part {part} of {PARTS}: {figures}")
    assert figures["hand requests"] >= 40 and figures["steps"] >= 14
    assert figures["requests"] > 0 and figures["faults"] == {k: figures["requests"] for k in KINDS}


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_reddit_every_network_fault_on_every_request_of_a_whole_hand(reddit, tmp_path, part):
    figures = sweep_faults(play_reddit(reddit, tmp_path), 1, part)
    _check_part(figures, part)
    if part == 0:  # step 0, the hand start, sends the decks; polls post comments
        assert {"POST /api/compose", "POST /api/comment"} <= set(figures["endpoints"])


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_blognomic_every_network_fault_on_every_request_of_a_whole_hand(blog, tmp_path, part):
    figures = sweep_faults(play_blognomic(*blog, tmp_path), 1, part)
    _check_part(figures, part)
    if part == 0:
        assert "POST /wp-comments-post.php" in figures["endpoints"]
