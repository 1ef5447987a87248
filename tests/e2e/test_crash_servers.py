"""Crash safety on the test Reddit and BlogNomic servers (issue 13): the Dealer's process is
killed at every crash point of ``hand start`` and of every ``poll`` of a whole hand while it
talks to those servers (before and after each forum call, each ledger commit, the secrets
and pending story-post files), then run again as cron would; the ledger and the forum must
equal the crash-free run (no action lost, no comment or private message twice), audit clean.

The server runs in this test process and the Dealer's step in a forked child that dies with
``os._exit`` (no rollback, no cleanup), so what the server stored before the crash survives
it, as it would on the real forum. How: tests/_sweep_kit.py. The default run crashes at every
SAMPLE_STRIDE-th point (a different offset per step); the ``slow`` tests at every point."""

from __future__ import annotations

import time

import pytest

from _sweep_hands import blog, play_blognomic, play_reddit, reddit  # noqa: F401 (fixtures)
from _sweep_kit import Sweep

SAMPLE_STRIDE = 6


def sweep_crashes(sweep: Sweep, stride: int) -> dict:
    began = time.monotonic()
    crashes: dict[str, int] = {}
    points: dict[str, int] = {}
    for i, step in enumerate(sweep.steps):
        points[step.kind] = points.get(step.kind, 0) + step.points
        for k in range(1 + i % stride, step.points + 1, stride):
            sweep.crash_step(i, k)
            crashes[step.kind] = crashes.get(step.kind, 0) + 1
    return {"steps": len(sweep.steps), "points": points, "crashes": crashes,
            "seconds": round(time.monotonic() - began, 1)}




def _check(figures: dict, stride: int) -> None:
    print(f"\ncrashes: {figures}")
    assert figures["points"]["start"] >= 10 and figures["points"]["poll"] >= 100
    assert sum(figures["crashes"].values()) >= sum(figures["points"].values()) // stride - figures["steps"]


def test_reddit_a_crash_at_a_sample_of_points_of_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    _check(sweep_crashes(play_reddit(reddit, tmp_path), SAMPLE_STRIDE), SAMPLE_STRIDE)


def test_blognomic_a_crash_at_a_sample_of_points_of_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    _check(sweep_crashes(play_blognomic(*blog, tmp_path), SAMPLE_STRIDE), SAMPLE_STRIDE)


@pytest.mark.slow
def test_reddit_a_crash_at_every_point_of_a_whole_hand_loses_and_doubles_nothing(reddit, tmp_path):
    _check(sweep_crashes(play_reddit(reddit, tmp_path), 1), 1)


@pytest.mark.slow
def test_blognomic_a_crash_at_every_point_of_a_whole_hand_loses_and_doubles_nothing(blog, tmp_path):
    _check(sweep_crashes(play_blognomic(*blog, tmp_path), 1), 1)
