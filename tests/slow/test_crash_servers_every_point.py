"""Crash safety on the test Reddit and BlogNomic servers at every crash point (issue 13): the
Dealer's process is killed at each crash point of ``hand start`` and of every ``poll`` of a
whole hand, then run again as cron would; the ledger and the forum must equal the crash-free
run. The sample of the default run, and what is checked: tests/e2e/cycle/test_crash_servers.py; how:
tests/kits/sweeps/sweep.py."""

from __future__ import annotations

from kits.sweeps.sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from kits.sweeps.sweep import check_crashes, sweep_crashes


def test_reddit_a_crash_at_every_point_of_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    check_crashes(sweep_crashes(play_reddit(reddit, tmp_path), 1), 1)


def test_blognomic_a_crash_at_every_point_of_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    check_crashes(sweep_crashes(play_blognomic(*blog, tmp_path), 1), 1)
