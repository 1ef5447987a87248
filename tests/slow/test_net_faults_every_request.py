"""Every network fault on every request of a whole hand, on the test Reddit and BlogNomic
servers (issue 13): each request of the hand is answered badly once with each kind of fault (a
timeout after doing the work, 429 with Retry-After, 503, a connection cut after the forum
stored the post), and the Dealer's next poll(s) finish the hand exactly as the fault-free run
did. The sample of the default run, and what is checked: tests/e2e/cycle/test_net_faults.py; how each
replay works: tests/kits/sweeps/sweep.py. Cut into ``FAULT_PARTS`` tests per forum (by step) that the
test workers run side by side; together they fault every request. Figures: docs/reliability.md
(``pytest -s`` prints them)."""

from __future__ import annotations

import pytest

from kits.sweeps.sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from kits.sweeps.sweep import FAULT_PARTS, check_fault_part, sweep_faults


@pytest.mark.parametrize("part", range(FAULT_PARTS))
def test_reddit_every_network_fault_on_every_request_of_a_whole_hand(reddit, tmp_path, part):
    figures = sweep_faults(play_reddit(reddit, tmp_path), 1, part)
    check_fault_part(figures, part)
    if part == 0:  # step 0, the hand start, sends the decks; polls post comments
        assert {"POST /api/compose", "POST /api/comment"} <= set(figures["endpoints"])


@pytest.mark.parametrize("part", range(FAULT_PARTS))
def test_blognomic_every_network_fault_on_every_request_of_a_whole_hand(blog, tmp_path, part):
    figures = sweep_faults(play_blognomic(*blog, tmp_path), 1, part)
    check_fault_part(figures, part)
    if part == 0:
        assert "POST /wp-comments-post.php" in figures["endpoints"]
