"""A table played over days by a random script, polled after every comment (each poll resumes
the fold from the last one's snapshot), posts and records exactly what a replay from the first
input gives, with another hash seed in the replay (issue 24, the determinism family).

The CI-size sample of tests/slow/test_resume_sweep.py: one script of each kind of table
(tests/kits/sweeps/resume.py, ``KINDS``: a table of its own, a tournament's table, a table of
edition 2, a BlogNomic table with the Hole Card Draw, a table that answers each player
privately as an e-mail table does), fixed seeds. The live run is a child process with ``PYTHONHASHSEED=1``; ``audit``
replays it in this process and in a child with ``PYTHONHASHSEED=2``, comparing every verdict,
GNDT entry, dealer post and private message, hand end and action row byte for byte. It found
the late bare ``call`` in the last hand's thread read as chat after a resume
(tests/e2e/cycle/test_resume_equals_replay.py) and the lead's vacation order
(tests/e2e/days/test_days_resume_order.py)."""

from __future__ import annotations

import pytest

from kits.sweeps.resume import KINDS, sweep

SEEDS = (0, 1, 2, 3, 4)  # one of each kind (seed % 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_resumed_poll_posts_what_the_replay_posts(tmp_path, seed):
    played = sweep(tmp_path, seed, steps=50, live_hash="1", replay_hashes=("2",))
    # the script did what it is for: every poll but a few resumed from the snapshot, hands ended
    assert played.resumed >= played.polls * 3 // 4, played
    assert played.hands >= 2 and played.posts > 20, played


def test_the_sample_covers_each_kind_of_table():
    assert sorted(s % len(KINDS) for s in SEEDS) == list(range(len(KINDS)))
