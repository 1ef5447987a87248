"""The fold reads a comment body once per fold (:meth:`nomicpoker.core.fold.adjudicator._Folder.read`):
the same body posted again (chat such as "nice hand", the same action by another player, an
edit back to an earlier text) gets the reading already made. A reading is a pure function of
the body, its format and whether bare actions count, so the fold's rows must be exactly those
of the fold without the memo: cross-checked here on generated tables (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nomicpoker.core.fold import adjudicator
from nomicpoker.core.reading import grammar
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import Revision
from nomicpoker.shell.storage.rulesets import load_ruleset
from kits.tables.fold import CONFIG, START, build, step

BARE = replace(CONFIG, ruleset=load_ruleset("roberts-nlhe"), ruleset_name="roberts-nlhe")
CHAT = ["nice hand", "call", "I fold", "good luck all", "raise 20", "HAND1 ROUND1 call"]


def _without_memo(monkeypatch, config, revs, events):  # type: ignore[no-untyped-def]
    with monkeypatch.context() as m:
        m.setattr(adjudicator, "_MEMO_MAX", -1)  # every body read afresh
        return fold_table(config, [START], revs, events)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(step, max_size=50), st.lists(st.sampled_from(CHAT), max_size=12), st.booleans())
def test_the_memo_changes_no_row(monkeypatch, steps, chat, bare) -> None:
    revs, events = build(steps)
    for i, body in enumerate(chat):  # repeated bodies from several players
        n = len(revs) + 1
        revs.append(Revision(n, "1", str(n), 1, ("alice", "bob", "carol")[i % 3],
                             "2026-01-02T00:00:00+00:00", body))
    config = BARE if bare else CONFIG
    assert fold_table(config, [START], revs, events) == _without_memo(monkeypatch, config, revs, events)


def test_a_repeated_body_is_read_once_per_fold(monkeypatch) -> None:
    calls = []
    real = grammar.parse_comment
    monkeypatch.setattr(grammar, "parse_comment", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    revs, events = build([])
    base = len(revs)
    for i in range(30):
        n = base + i + 1
        revs.append(Revision(n, "1", str(n), 1, ("alice", "bob")[i % 2], "2026-01-02T00:00:00+00:00",
                             "nice hand"))
    fold_table(CONFIG, [START], revs, events)
    assert calls.count("nice hand") == 1
    calls.clear()
    fold_table(CONFIG, [START], revs, events)  # a new fold reads it again: no memory across folds
    assert calls.count("nice hand") == 1
