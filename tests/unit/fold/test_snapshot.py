"""Resuming the fold from a stored state gives what the whole replay gives (hypothesis).

The poll folds only what is new since its last snapshot (:mod:`nomicpoker.core.table.snapshot`);
``audit`` replays from the first input. These pin that the two agree: fold a prefix, store
its state as JSON text, read it back, fold the rest, and compare with one fold of everything.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nomicpoker.core.table import snapshot
from nomicpoker.core.fold.fold_run import fold_stream, fold_table, input_stream

from kits.tables.fold import CONFIG, START, build, step


def _resume_at(revs, events, cut):
    stream = input_stream([START], revs, events)
    cut = min(cut, len(stream))
    head = fold_stream(CONFIG, None, stream[:cut])
    text = json.dumps(snapshot.encode(head.state, CONFIG))
    data = json.loads(text)
    state = snapshot.decode(data, CONFIG, {START.number: START})
    return head, fold_stream(CONFIG, state, stream[cut:])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=60), st.integers(0, 90))
def test_a_fold_resumed_from_a_snapshot_equals_the_whole_fold(steps, cut):
    revs, events = build(steps)
    full = fold_table(CONFIG, [START], revs, events)
    head, tail = _resume_at(revs, events, cut)
    for kind in full.rows:
        assert list(head.rows[kind]) + list(tail.rows[kind]) == list(full.rows[kind]), kind
    assert tail.gndt == full.gndt
    assert tail.current == full.current


def test_a_snapshot_does_not_decode_into_anything_but_the_fold_state():
    revs, events = build([])
    data = snapshot.encode(fold_table(CONFIG, [START], revs, events).state, CONFIG)
    bad = json.loads(json.dumps(data))
    bad["hands"][0]["log"].append({"t": "Popen", "args": ["rm"]})
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode(bad, CONFIG, {1: START})
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode({**data, "format": 0}, CONFIG, {1: START})
    with pytest.raises(snapshot.SnapshotError):
        snapshot.decode({**data, "money": None}, CONFIG, {1: START})


def test_every_field_of_the_fold_state_is_stored_or_rebuilt():
    """A field added to TableState or HandState must find its way into the snapshot, or a
    resumed fold would forget it (and drift from the full replay ``audit`` runs)."""
    from dataclasses import fields

    from nomicpoker.core.table.fold_state import HandState, TableState

    revs, events = build([])
    data = snapshot.encode(fold_table(CONFIG, [START], revs, events).state, CONFIG)
    table_fields = {f.name for f in fields(TableState)}
    assert table_fields - snapshot.DERIVED_TABLE_FIELDS <= set(data)
    hand_fields = {f.name for f in fields(HandState)}
    assert hand_fields - snapshot.DERIVED_HAND_FIELDS <= set(data["hands"][0])
