"""Crash safety on the test Reddit and BlogNomic servers (issue 13): the Dealer's process is
killed at every crash point of ``hand start`` and of every ``poll`` of a whole hand while it
talks to those servers (before and after each forum call, each ledger commit, the secrets
and pending story-post files), then run again as cron would; the ledger and the forum must
equal the crash-free run (no action lost, no comment or private message twice), audit clean.

The server runs in this test process and the Dealer's step in a forked child that dies with
``os._exit`` (no rollback, no cleanup), so what the server stored before the crash survives
it, as it would on the real forum. How: tests/kits/sweeps/sweep.py. This default run crashes at every
CRASH_SAMPLE_STRIDE-th point (a different offset per step);
tests/slow/test_crash_servers_every_point.py at every point."""

from __future__ import annotations

from kits.sweeps.sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from kits.sweeps.sweep import CRASH_SAMPLE_STRIDE, check_crashes, sweep_crashes


def test_reddit_a_crash_at_a_sample_of_points_of_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    check_crashes(sweep_crashes(play_reddit(reddit, tmp_path), CRASH_SAMPLE_STRIDE), CRASH_SAMPLE_STRIDE)


def test_blognomic_a_crash_at_a_sample_of_points_of_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    check_crashes(sweep_crashes(play_blognomic(*blog, tmp_path), CRASH_SAMPLE_STRIDE), CRASH_SAMPLE_STRIDE)
