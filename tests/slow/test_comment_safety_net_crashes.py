"""The per-comment safety net under crashes (issue 13): the poll that meets a failing comment
and a failing private message, killed at each of its I/O boundaries, then run again, answers
and records each once. What the safety net does: tests/e2e/reading/test_comment_safety_net.py."""

from __future__ import annotations

import pytest

from nomicpoker.core.table.fold_types import INTERNAL_ERROR_EVENT

from kits.sweeps.safety_net import ready


@pytest.mark.slow
def test_a_crash_at_every_io_boundary_of_the_poll_that_records_an_answer(tmp_path, ledger_url, monkeypatch):
    """The answer and its record are one transaction: a crash at each I/O boundary of the poll
    that meets a failing comment and a failing private message, then a normal run, leaves the
    ledger (answers, records, snapshot) and the forum as the run that never crashed."""
    from nomicpoker.shell.jobs import poll as poll_mod
    from kits.sweeps.crash import Backend, Recorder, check_every_point

    pg = not ledger_url.startswith("sqlite")
    backend = Backend(ledger_url, admin_url=ledger_url.rsplit("/", 1)[0] + "/postgres" if pg else None)
    t = ready(tmp_path / "reference", db=ledger_url if pg else None)
    monkeypatch.setenv("NOMICPOKER_FAIL_READING", "BOOM")  # the crashed child and the rerun inherit it
    t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    t.forum.send_private_as("bob", t.forum.dealer, "advance (T)", "CALL BOOM")
    real_poll = poll_mod.poll
    rec = Recorder(backend, tmp_path / "scratch", real_poll)
    url = lambda: t.engine.url.render_as_string(hide_password=False)  # noqa: E731
    with monkeypatch.context() as m:
        m.setattr(poll_mod, "poll", rec.wrap("poll", real_poll, url, t.engine.dispose))
        t.run()
    (step,) = rec.steps
    events = [e for e in step.after["np_dealer_event"] if e["kind"] == INTERNAL_ERROR_EVENT]
    assert len(events) == 2 and len(step.points) >= 10
    figures = check_every_point(rec, real_poll, only_every=3 if pg else 1)
    print(f"\ncrash points of the recording poll: {figures}")
    assert figures["crashes"] >= (len(step.points) // 3 if pg else len(step.points))
