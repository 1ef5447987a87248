"""Crash points at the shell's I/O boundaries, for the crash tests (shell).

WHY in the product and not only in tests: the promise "a crash anywhere loses nothing and
doubles nothing" is about the real code path, so the crash must happen inside it, between
two real I/O operations, and kill the process the way a power cut or ``kill -9`` would (no
``finally``, no rollback by Python, no flush). Each boundary calls :func:`point`: every forum
call (before and after, through :func:`wrap` at the port), every ledger commit (before and
after), the hand secrets file and the pending story-post file (before and after the rename).

Off unless ``NOMICPOKER_CRASH_AT=N`` is set: then the N-th point reached kills the process
with ``os._exit(CRASH_EXIT)``. ``NOMICPOKER_CRASH_TRACE=FILE`` appends each point's name, so a
test can count a step's points and crash at each in turn. With neither set a point is one
dictionary lookup.

A reading fault, for the tests of the fold's per-comment safety net
(:func:`nomicpoker.core.fold.fold_run.fold_stream`): with ``NOMICPOKER_FAIL_READING=TEXT`` set, the
comment reader raises ``RuntimeError`` on every comment whose body contains ``TEXT``, as a
bug in the reader would. WHY a seam rather than a real input: every input known to make the
reader raise has been fixed, and the net must still be shown to work end to end (poll, log,
audit) for the next one.
"""

from __future__ import annotations

import os
from typing import Any

AT = "NOMICPOKER_CRASH_AT"
FAIL_READING = "NOMICPOKER_FAIL_READING"
TRACE = "NOMICPOKER_CRASH_TRACE"
CRASH_EXIT = 86

_reached = 0


def reset() -> None:
    """Start counting again (a forked test child calls it)."""
    global _reached
    _reached = 0


def point(name: str) -> None:
    """A crash point: die here if it is the N-th one reached and ``NOMICPOKER_CRASH_AT=N``."""
    at, trace = os.environ.get(AT), os.environ.get(TRACE)
    if at is None and trace is None:
        return
    global _reached
    _reached += 1
    if trace:
        with open(trace, "a", encoding="utf-8") as f:
            f.write(f"{_reached} {name}\n")
    if at is not None and _reached == int(at):
        os._exit(CRASH_EXIT)


class _Crashing:
    """A forum proxy with a crash point before and after every method call (the port
    boundary); attributes that are not methods (``abilities``, ``dealer``) pass through."""

    def __init__(self, forum: Any) -> None:
        self._forum = forum

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._forum, name)
        if not callable(value) or name.startswith("_"):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            point(f"before forum.{name}")
            out = value(*args, **kwargs)
            point(f"after forum.{name}")
            return out

        return call


def wrap(forum: Any) -> Any:
    """``forum`` with crash points at its port, when crash points are on; else ``forum``."""
    if os.environ.get(AT) is None and os.environ.get(TRACE) is None:
        return forum
    return _Crashing(forum)


def comment_reader() -> Any:
    """The fold's comment reader: ``None`` (the real one) unless ``NOMICPOKER_FAIL_READING``
    is set, then one that raises ``RuntimeError`` (as a bug would: not a coded error) on a
    comment containing its text."""
    marker = os.environ.get(FAIL_READING)
    if not marker:
        return None
    def read(folder: Any, rev: Any) -> None:
        if marker in rev.body:
            raise RuntimeError(f"injected reading fault ({FAIL_READING}={marker!r})")
        folder.read_comment(rev)

    return read
