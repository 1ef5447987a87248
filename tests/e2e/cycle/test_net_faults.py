"""Network faults on every request of a whole hand, on the test Reddit and BlogNomic servers
(issue 13): the server answers one request badly (a timeout after doing the work, 429 with
Retry-After, 503, a connection cut after the forum stored the post), and the Dealer's next
poll(s) finish the hand exactly as the fault-free run did: no action lost, no comment or
private message twice, the ledger and the forum equal, audit clean. The real clients (praw
over prawcore, requests) and adapters run as in production; only the server misbehaves
(tests/fixtures/http_faults.py). How each replay works: tests/kits/sweeps/sweep.py.

This is the default run: it faults a sample (``FAULT_SAMPLE_STRIDE`` in tests/kits/sweeps/sweep.py).
tests/slow/test_net_faults_every_request.py faults every request with every kind, in
``FAULT_PARTS`` tests per forum that the test workers run side by side. Figures:
docs/reliability.md (``pytest -s`` prints them)."""

from __future__ import annotations

from kits.sweeps.sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from kits.sweeps.sweep import FAULT_SAMPLE_STRIDE, check_faults, sweep_faults


def test_reddit_a_sample_of_network_faults_over_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    figures = sweep_faults(play_reddit(reddit, tmp_path), FAULT_SAMPLE_STRIDE)
    check_faults(figures, FAULT_SAMPLE_STRIDE)
    assert any("/api/compose" in e for e in figures["endpoints"]) or FAULT_SAMPLE_STRIDE > 1


def test_blognomic_a_sample_of_network_faults_over_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    figures = sweep_faults(play_blognomic(*blog, tmp_path), FAULT_SAMPLE_STRIDE)
    check_faults(figures, FAULT_SAMPLE_STRIDE)
