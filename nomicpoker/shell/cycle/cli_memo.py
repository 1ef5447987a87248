"""What the CLI read from a command line, kept so the console entry point can act on the same
command line again without building the CLI (shell).

WHY: cron runs the same ``nomicpoker poll --quiet --state ... --log-file ...`` every few
minutes, and almost every run finds nothing new. Answering it costs a few SQLite reads
(:mod:`nomicpoker.shell.cycle.idle`), but reading the command line with typer costs more than the
whole answer (typer, and pydantic, which typer 0.26+ checks every value with: ~0.15 s CPU of
a run that must stay under 0.15 s). Reading it with a parser of our own (as this project
once did) means two parsers that can disagree. So there is one parser, typer's, and its
reading is kept: the first run of a command line goes through the CLI, which records what it
read (:func:`remember`, by the command itself: the resolved state, ledger, site and log
options); the next run of exactly the same command line, from the same folder with the same
``NOMICPOKER_*`` environment and the same nomicpoker, finds that reading (:func:`recall`)
and the entry point acts on it directly. Anything else (another option, another folder, a
changed variable, a new release) misses, and the CLI runs as always.

The records live in the user's cache folder (``$XDG_CACHE_HOME/nomicpoker/cli``, else
``~/.cache/nomicpoker/cli``), owner-only, at most :data:`KEEP` of them (the oldest go).
A folder that cannot be written keeps nothing: every run is then a full run, as before.
Only the standard library is imported here (the entry point's whole cost is the point).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

FORMAT = 1
KEEP = 64
#: variables besides NOMICPOKER_* that change what a command line means (``~`` in a path)
_MEANING = ("HOME",)
#: the command line the console script is running, set by the entry point before the CLI runs
#: (None when the CLI runs some other way, e.g. typer's CliRunner: nothing is remembered then)
ARGV: list[str] | None = None
#: why the entry point did not act on a recorded reading of this command line ("" when it did
#: not look), for ``poll --verbose``
WHY = ""


def folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nomicpoker" / "cli"


def key(argv: Sequence[str]) -> str:
    """What makes two runs the same command line (see the module docstring)."""
    env = {k: v for k, v in os.environ.items() if k.startswith("NOMICPOKER_") or k in _MEANING}
    data = json.dumps({"format": FORMAT, "argv": list(argv), "cwd": os.getcwd(), "env": env,
                       "python": sys.executable}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(data.encode("ascii")).hexdigest()[:40]


def remember(command: str, params: dict[str, Any], code: str) -> bool:
    """Record what the CLI read for the command line running now (:data:`ARGV`): ``command``
    (``"poll"``, ``"phh replay"``), its resolved ``params`` (JSON values) and ``code``, the
    signature of the nomicpoker that read it. Never raises; False when nothing was kept."""
    if ARGV is None:
        return False
    try:
        where = folder()
        old = os.umask(0o077)
        try:
            where.mkdir(parents=True, exist_ok=True)
            path = where / f"{key(ARGV)}.json"
            record = {"format": FORMAT, "command": command, "params": params, "code": code}
            text = json.dumps(record, sort_keys=True)
            try:
                if path.read_text("utf-8") == text:
                    return True
            except OSError:
                pass
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text, "utf-8")
            os.replace(tmp, path)
        finally:
            os.umask(old)
        _prune(where)
        return True
    except (OSError, ValueError, TypeError):
        return False


def _prune(where: Path) -> None:
    records = sorted(where.glob("*.json"), key=lambda p: p.stat().st_mtime)
    for stale in records[:-KEEP]:
        try:
            stale.unlink()
        except OSError:
            pass


def recall(argv: Sequence[str]) -> tuple[str, dict[str, Any], str] | None:
    """(command, params, code) the CLI recorded for this very command line; None if none."""
    try:
        record = json.loads((folder() / f"{key(argv)}.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(record.get("params"), dict):
        return None
    return str(record.get("command")), record["params"], str(record.get("code"))
