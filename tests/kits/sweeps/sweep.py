"""Fault sweeps on the test Reddit and BlogNomic servers (issue 13): network faults injected
by the server on every request of a whole hand, and crashes of the Dealer's process at every
crash point while it talks to those servers.

How: a whole hand is played once (the reference run) through :class:`Sweep`, which records
every dealer step (``hand start``, each ``poll``): the state directory and the whole server
state before it, how many requests the server received during it and how many crash points it
passed, and what the ledger and the forum hold after it plus one settling poll (what the next
cron run does anyway). Then each step is replayed from its recorded start, one fault at a
time:

- :meth:`Sweep.fault_step`: the server answers request *k* of the step badly
  (:mod:`fixtures.http_faults`: a timeout after doing the work, 429 with Retry-After, 503, a
  connection cut after doing the work); the step runs in this process as cron would run it;
- :meth:`Sweep.crash_step`: the step runs in a forked child that dies at crash point *k*
  (``NOMICPOKER_CRASH_AT``, ``os._exit``: no rollback, no cleanup), talking over loopback to
  the server, which lives in this process and so keeps what the child did before it died;

then the Dealer's next runs (a failed ``hand start`` is run again, then polls until one
succeeds, then the settling poll), and the ledger (every ``np_`` table, clock columns aside)
and the forum must equal the reference run's after that step: no action lost, nothing
posted or sent twice, the same dice, cards and money; and ``audit`` stays clean.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from nomicpoker.core.errors import CodedError
from nomicpoker.shell import faults
from nomicpoker.shell.dealer import service
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.storage.store import open_engine

from fixtures.http_faults import KINDS

from kits.sweeps.crash import copy_state, die_at, ledger_view

Run = Callable[[Any, Path, datetime], Any]  # (engine, state, the step's clock) -> result
#: polls a recovery may take before the hand must be whole again (a fault costs one)
MAX_RECOVERY_POLLS = 4


def url_of(state: Path) -> str:
    return f"sqlite:///{state / 'ledger.db'}"


@dataclass
class Step:
    kind: str  # "start" | "poll"
    run: Run
    before: Path
    forum_before: dict
    requests: int
    points: int
    after: dict
    moment: datetime


class Sweep:
    """Plays the reference run step by step and replays each step with one fault."""

    def __init__(self, server: Any, state: Path, scratch: Path, forum_view: Callable[[], dict],
                 poll_kwargs: dict | None = None) -> None:
        self.server = server  # FakeReddit or WordPressSite: snapshot(), restore(), faults
        self.state = state
        self.scratch = scratch
        self.forum_view = forum_view
        self.poll_kwargs = poll_kwargs or {}
        self.steps: list[Step] = []
        self.engine = open_engine(url_of(state))
        self._engines: dict[str, Any] = {}

    # -- the reference run --------------------------------------------------------------

    def start(self, table: str, ante: int, **kwargs: Any) -> Any:
        def run(engine: Any, state: Path, moment: datetime) -> Any:
            return service.start_hand(engine, state, table, ante, now=lambda: moment, **kwargs)

        started = self._record("start", run)
        assert not started.report.error, started.report.error
        return started

    def poll(self) -> Any:
        def run(engine: Any, state: Path, moment: datetime) -> Any:
            return poll_mod.poll(engine, state, now=lambda: moment, **self.poll_kwargs)

        report = self._record("poll", run)
        assert report.ok, [t.error for t in report.tables]
        return report

    def _record(self, kind: str, run: Run) -> Any:
        self.engine.dispose()
        n = len(self.steps)
        before = self.scratch / f"before-{n}"
        copy_state(self.state, before)
        forum_before = self.server.snapshot()
        moment = datetime.now(timezone.utc)  # one clock reading per step, shared by every replay
        trace = self.scratch / f"trace-{n}"
        faults.reset()
        os.environ[faults.TRACE] = str(trace)
        self.server.faults.count()
        try:
            result = run(self.engine, self.state, moment)
        finally:
            del os.environ[faults.TRACE]
        requests = self.server.faults.seen
        points = len(trace.read_text("utf-8").splitlines()) if trace.exists() else 0
        self.engine.dispose()
        forum_after = self.server.snapshot()
        after = self.scratch / f"after-{n}"
        copy_state(self.state, after)
        self._settle(after, moment)
        self.steps.append(Step(kind, run, before, forum_before, requests, points, self.view(after), moment))
        self.server.restore(forum_after)  # the reference run goes on from before the settling
        return result

    def _open(self, state: Path) -> Any:
        """The ledger engine of a replay's state directory (``open_engine``, as cron opens it),
        made once per directory and disposed after each use (every caller does), so each run
        connects afresh to the files copied there for it. WHY not a new engine per run: each
        new engine compiles every statement of a poll again (SQLAlchemy caches compiled SQL per
        engine), ~10% of a sweep's CPU for nothing the sweep checks."""
        url = url_of(state)
        if url not in self._engines:
            self._engines[url] = open_engine(url, create=False)
        return self._engines[url]

    def view(self, state: Path) -> dict:
        return {**ledger_view(url_of(state)), **self.forum_view()}

    def _settle(self, state: Path, moment: datetime) -> None:
        engine = self._open(state)
        try:
            report = poll_mod.poll(engine, state, now=lambda: moment, **self.poll_kwargs)
            assert report.ok, [t.error for t in report.tables]
        finally:
            engine.dispose()

    def audit_clean(self) -> None:
        names, diffs = audit(self.engine, self.state)
        assert names and diffs == [], diffs

    # -- replays with one fault ---------------------------------------------------------

    def _prepare(self, i: int) -> tuple[Step, Path]:
        step = self.steps[i]
        work = self.scratch / "work"
        copy_state(step.before, work)
        self.server.restore(step.forum_before)
        self.server.faults.count()
        return step, work

    def fault_step(self, i: int, kind: str, k: int) -> list:
        """Replay step ``i`` with the server answering its request ``k`` with ``kind``, then
        recover and compare; returns the request the fault hit."""
        step, work = self._prepare(i)
        self.server.faults.arm(kind, k)
        engine = self._open(work)
        try:
            try:
                step.run(engine, work, step.moment)
            except CodedError:
                pass  # a hand start that failed: the Dealer runs it again (below)
        finally:
            engine.dispose()
            fired = list(self.server.faults.fired)
            self.server.faults.count()
        assert fired, f"step {i} ({step.kind}): request {k} of {step.requests} was never made"
        self._recover_and_compare(i, step, work, f"{kind} on request {k} {fired[0][1:]}")
        return fired

    def crash_step(self, i: int, k: int) -> None:
        """Replay step ``i`` in a forked child that dies at crash point ``k``, then recover
        and compare."""
        step, work = self._prepare(i)
        code = die_at(k, url_of(work), lambda engine: step.run(engine, work, step.moment))
        assert code == faults.CRASH_EXIT, (i, step.kind, k, code)
        self._recover_and_compare(i, step, work, f"a crash at point {k}")

    def _recover_and_compare(self, i: int, step: Step, work: Path, what: str) -> None:
        engine = self._open(work)
        try:
            if step.kind == "start":  # what the Dealer does after a failed hand start
                try:
                    step.run(engine, work, step.moment)
                except CodedError as exc:
                    assert exc.code == "hand_running", (what, exc)
            errors: list = []
            for _ in range(MAX_RECOVERY_POLLS):
                report = poll_mod.poll(engine, work, now=lambda: step.moment, **self.poll_kwargs)
                if report.ok:
                    break
                errors.append([t.error for t in report.tables])
            else:
                raise AssertionError(f"step {i} ({step.kind}) after {what}: {MAX_RECOVERY_POLLS} polls "
                                     f"all failed: {errors}")
        finally:
            engine.dispose()
        self._settle(work, step.moment)
        got = self.view(work)
        if got != step.after:
            diff = {t: (got.get(t), step.after.get(t)) for t in set(got) | set(step.after)
                    if got.get(t) != step.after.get(t)}
            raise AssertionError(f"step {i} ({step.kind}) after {what}: {sorted(diff)} differ from the "
                                 f"fault-free run: {diff}")


# --------------------------------------------------------------------------- the sweeps
# What the network-fault and crash tests run: a sample in tests/e2e (the default run), every
# request with every kind and every crash point in tests/slow (docs/testing.md).

#: the sample network-fault run faults request n with kind j when (n + j) % FAULT_SAMPLE_STRIDE
#: == 0: every FAULT_SAMPLE_STRIDE-th request of the hand gets each kind in turn
FAULT_SAMPLE_STRIDE = 7
#: the every-request run (every request, every kind) is cut into FAULT_PARTS tests by step (part
#: p takes the steps i with i % FAULT_PARTS == p), so the test workers share it instead of one
#: of them running it alone while the other idles; together the parts fault every request
FAULT_PARTS = 4
#: the sample crash run crashes at every CRASH_SAMPLE_STRIDE-th point (a different offset per step)
CRASH_SAMPLE_STRIDE = 6


def sweep_faults(sweep: Sweep, stride: int, part: int | None = None) -> dict:
    """Fault the recorded steps' requests (all of them with every kind when ``stride`` is 1);
    ``part``: only those of the steps ``i % FAULT_PARTS == part``."""
    requests = [(i, k) for i, step in enumerate(sweep.steps) for k in range(1, step.requests + 1)
                if part is None or i % FAULT_PARTS == part]
    done: dict[str, int] = {}
    hit: set[str] = set()
    began = time.monotonic()
    for n, (i, k) in enumerate(requests):
        for j, kind in enumerate(KINDS):
            if (n + j) % stride:
                continue
            fired = sweep.fault_step(i, kind, k)
            done[kind] = done.get(kind, 0) + 1
            hit.add(f"{fired[0][1]} {fired[0][2]}")
    return {"steps": len(sweep.steps), "requests": len(requests), "faults": done,
            "endpoints": sorted(hit), "seconds": round(time.monotonic() - began, 1),
            "hand requests": sum(s.requests for s in sweep.steps)}


def check_faults(figures: dict, stride: int) -> None:
    """A sample run: every kind fired, on about one request in ``stride`` of a whole hand."""
    print(f"\nnetwork faults: {figures}")
    assert figures["requests"] >= 40 and figures["steps"] >= 14
    assert set(figures["faults"]) == set(KINDS)
    assert sum(figures["faults"].values()) >= figures["requests"] * len(KINDS) // stride - len(KINDS)


def check_fault_part(figures: dict, part: int) -> None:
    """One part of the every-request run: each of its requests got each kind once."""
    print(f"\nnetwork faults, part {part} of {FAULT_PARTS}: {figures}")
    assert figures["hand requests"] >= 40 and figures["steps"] >= 14
    assert figures["requests"] > 0 and figures["faults"] == {k: figures["requests"] for k in KINDS}


def sweep_crashes(sweep: Sweep, stride: int) -> dict:
    """Crash each recorded step at every ``stride``-th crash point (every one when 1)."""
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


def check_crashes(figures: dict, stride: int) -> None:
    print(f"\ncrashes: {figures}")
    assert figures["points"]["start"] >= 10 and figures["points"]["poll"] >= 100
    assert sum(figures["crashes"].values()) >= sum(figures["points"].values()) // stride - figures["steps"]
