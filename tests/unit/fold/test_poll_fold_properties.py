"""Properties of the table fold the poll cycle and the audit rest on (hypothesis).

- It never raises on any sequence of comments (a crash would stall the table forever).
- Money is conserved: Money + Pot + chips destroyed by rounding = the starting Money.
- Prefix stability: folding the first k comments gives exactly the first rows of folding all
  of them. The poll stores only the new suffix and the audit compares, both on this basis.
- Determinism: the same inputs give the same rows.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nomicpoker.core.fold.fold_run import fold_table

from kits.tables.fold import CONFIG, START, build, step


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=60), st.integers(0, 60))
def test_the_fold_never_raises_conserves_money_and_is_prefix_stable(steps, cut):
    revs, events = build(steps)
    full = fold_table(CONFIG, [START], revs, events)
    assert full == fold_table(CONFIG, [START], revs, events)
    destroyed = sum(r["destroyed"] for r in full.rows["hand_end"])
    assert sum(m + pot for m, _turn, pot in full.gndt.values()) + destroyed == 300
    k = min(cut, len(revs))
    last = revs[k - 1].archive_id if k else 0
    part = fold_table(CONFIG, [START], revs[:k], [e for e in events if e.after <= last])
    for kind, rows in part.rows.items():
        assert list(full.rows[kind][:len(rows)]) == list(rows), kind
