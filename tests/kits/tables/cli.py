"""Test kit for running ``nomicpoker`` as cron or a Dealer would: a real process, a clean
environment, and the "one clear line and a non-zero exit" check that issue 13's sweeps make
of every failure (tests/e2e/cli/test_cli_exit_codes.py, tests/e2e/cli/test_resources.py,
tests/e2e/reading/test_comment_safety_net.py). WHY one kit: each of those files had its own copy of the
runner and the check, and the copies had begun to differ in what they accepted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from kits.tables.bot import Table

#: ``python -c CLI ARGS`` runs the installed CLI exactly as the ``nomicpoker`` script does.
CLI = "from nomicpoker.cli import main; import sys; sys.argv[0]='nomicpoker'; main()"


def cli(*args: str, env: dict | None = None, inherit: tuple[str, ...] = (),
        **kw: Any) -> subprocess.CompletedProcess:
    """``nomicpoker ARGS`` in a child process, with every ``NOMICPOKER_*`` variable of the
    caller's environment removed but those named in ``inherit`` (a developer's own settings
    must not leak into a test) and ``env`` added; ``kw`` goes to :func:`subprocess.run`
    (``cwd``, ``preexec_fn``, ...)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_") or k in inherit}
    return subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True,
                          timeout=120, env={**base, **(env or {})}, **kw)


def one_line(res: Any, *needles: str, code: int = 1) -> str:
    """Asserts that a run (a :class:`subprocess.CompletedProcess` or typer's ``CliRunner``
    result) exited with ``code`` and said one line, no traceback, holding every needle."""
    if hasattr(res, "exit_code"):  # CliRunner: one merged output
        out, got = res.output, res.exit_code
    else:
        out, got = res.stdout + res.stderr, res.returncode
    assert got == code, out
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    for n in needles:
        assert n in out, out
    return out


def raise_to_poll(tmp: Path) -> Table:
    """A table with hand 1 drawn and alice's raise not yet polled: the next poll has work."""
    t = Table(tmp, players=("alice", "bob"))
    t.start(ante=5)
    t.draw(1)
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    return t
