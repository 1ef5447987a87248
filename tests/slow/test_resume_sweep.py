"""The resume sweep (issue 24, the determinism family), long form: scripts of 100 steps on every
kind of table (tests/kits/sweeps/resume.py), each played in a child process with
one hash seed and polled after every comment and clock jump (so every poll resumes the fold
from the last one's snapshot), then replayed by ``audit`` in this process and in children with
two other hash seeds: every verdict, GNDT entry, dealer post, private message, hand end and
action row must be the replay's, byte for byte. A dict whose order a resume loses, a ``set``
of names iterated into a post, a field of the fold's state a snapshot drops: each shows here as
a difference. Then two whole tournaments (27 players to one winner, the moves between tables
included) played with one hash seed and audited with another. The CI-size sample is
tests/e2e/days/test_days_resume_sweep.py.

The whole suite runs 6 scripts and one tournament here (about a minute of one worker: the
suite keeps to its 10 minutes, docs/benchmarks.md "Test suite"). The deep form, 24 scripts in
three parts and two tournaments (about 5 minutes of CPU), is what a change to the fold's state
or the snapshot should pass before it lands:

    NOMICPOKER_RESUME_SWEEP=deep pytest -n 3 tests/slow/test_resume_sweep.py
"""

from __future__ import annotations

import os

import pytest

from kits.sweeps.resume import sweep, tournament_sweep

#: ``NOMICPOKER_RESUME_SWEEP=deep``: the deep form (24 scripts, two tournaments)
DEEP = os.environ.get("NOMICPOKER_RESUME_SWEEP", "") == "deep"
#: the seeds in parts (one test each, so the workers share them): each part holds every kind
PARTS = (tuple(tuple(range(3 + 8 * k, 11 + 8 * k)) for k in range(3)) if DEEP  # 3-10, 11-18, 19-26
         else (tuple(range(3, 9)),))  # 3-8: each kind of table at least once (seed % 5)
TOURNAMENTS = ("t1", "t2") if DEEP else ("t1",)
#: the kinds of step the scripts take (tests/kits/sweeps/resume.py): each part must take all
STEPS = {"start", "action", "action out of turn", "reveal", "private", "clock", "edit", "late", "BACK", "GONE",
         "START", "WHAT", "PROTEST", "UNDO", "SCORE", "dice", "draw", "control settings"}


@pytest.mark.parametrize("part", range(len(PARTS)))
def test_a_resumed_poll_posts_what_the_replay_posts(tmp_path, part):
    seen: set[str] = set()
    for seed in PARTS[part]:
        played = sweep(tmp_path / str(seed), seed, steps=100, live_hash=str(seed),
                       replay_hashes=(str(seed + 1000), "0"))
        assert played.resumed >= played.polls * 3 // 4, (seed, played)
        seen |= set(played.steps)
    assert STEPS <= seen, sorted(STEPS - seen)


@pytest.mark.parametrize("seed", TOURNAMENTS)
def test_a_tournament_resumed_at_every_poll_audits_identical_under_other_hash_seeds(tmp_path, seed):
    """27 players at three tables to one winner: the moves between tables (``move_in``,
    ``move_out``), the broken tables and the final table fold the same resumed and replayed."""
    out = tournament_sweep(tmp_path, 27, seed, live_hash="7", replay_hashes=("8",))
    assert "winner: " in out and "0 differences (identical)" in out, out
