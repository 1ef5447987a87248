"""The ``nomicpoker`` console entry point (also ``python -m nomicpoker``).

Almost every command runs the CLI (:func:`nomicpoker.cli.main`, typer). Two command lines are
answered here without building it, and only when the CLI already read exactly the same
command line before (:mod:`nomicpoker.shell.cycle.cli_memo`, which says why): an idle ``poll``
(what cron runs every few minutes and almost always finds nothing new: the answer is a few
SQLite reads, :func:`nomicpoker.shell.cycle.idle.answer`; building the CLI costs more than that)
and ``phh replay`` (a benchmark against PokerKit's own loop as processes). There is no
second parser here: what this module acts on is what typer read.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Sequence


def replay(params: dict[str, Any]) -> int | None:
    """Run ``phh replay`` as the CLI read it, without building the CLI (typer, pydantic and
    every other command's modules: ~0.2 s CPU of a ~2 s corpus run); the exit code, or None
    when the CLI must run. The same library (:mod:`nomicpoker.shell.audit.phh_files`) and output."""
    from pathlib import Path

    from nomicpoker.shell.storage.rulesets import load_ruleset

    try:
        rs = load_ruleset(params["ruleset"])
    except Exception:  # noqa: BLE001 - the CLI reports a bad ruleset its own way
        return None
    from nomicpoker.shell.audit.phh_files import render_summary, replay_paths

    summary = replay_paths([Path(f) for f in params["files"]], rs, params.get("limit"))
    text = render_summary(summary, bool(params.get("quiet"))) + "\n"
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):  # a file name the console cannot show: the CLI's echo
        return None
    sys.stdout.write(text)
    return 0 if summary.ok else 1


def answer(argv: Sequence[str]) -> int | None:
    """The exit code of a command line answered here; None when the CLI must run."""
    if any(k.startswith("_NOMICPOKER_COMPLETE") for k in os.environ):  # shell completion: typer's
        return None
    from nomicpoker.shell.cycle import cli_memo

    found = cli_memo.recall(argv)
    if found is None:
        cli_memo.WHY = "the CLI has not read this command line before (here, with this environment)"
        return None
    command, params, code = found
    from nomicpoker.shell.cycle import idle

    if code != idle.code_signature():
        cli_memo.WHY = "nomicpoker changed since the CLI read this command line"
        return None
    if command == "poll":
        return 0 if idle.answer(params) else None
    if command == "phh replay":
        return replay(params)
    return None


def main() -> None:
    """The console script: a command line answered here, else the CLI."""
    argv = sys.argv[1:]
    try:
        code = answer(argv)
    except Exception:  # noqa: BLE001 - never fail here: the full command says what is wrong
        code = None
    if code is not None:
        try:
            sys.stdout.flush()
        except BrokenPipeError:  # as the CLI ends on a closed pipe (nomicpoker.cli.options)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            code = 141
        sys.exit(code)
    from nomicpoker.shell.cycle import cli_memo

    cli_memo.ARGV = list(argv)
    from nomicpoker.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
