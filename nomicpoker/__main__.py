"""The ``nomicpoker`` console entry point (also ``python -m nomicpoker``).

Two command lines are answered here before the CLI is imported: an idle ``poll`` (below) and
``phh replay`` (:func:`replay`: the corpus replay is a benchmark against PokerKit's own loop as
processes, and building the CLI was a tenth of its time). Everything else goes to the CLI.

Before it imports the CLI (typer, and through the commands the database layer), it gives the
idle check (:mod:`nomicpoker.shell.idle`) one chance to answer ``nomicpoker poll`` with
nothing new, which is what cron runs every few minutes and almost always finds: the full
poll costs ~0.9 s CPU, nearly all of it imports; the check costs a few standard modules and
some SQLite reads. It answers exactly as the full poll would (the same lines through the
same logging setup, exit 0), and only when it can prove the full poll would do nothing; on
any doubt, any option it does not know or anything unusual, the full command runs as before
(which then says with ``--verbose`` why the check deferred).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Sequence

#: ``poll``'s options the check understands (value-taking), and its flags
_POLL_VALUES = {"--table": "table", "--site": "site", "--state": "state", "--db": "db", "--log-file": "log_file"}
_POLL_FLAGS = {"--quiet": "quiet", "-q": "quiet", "--verbose": "verbose", "-v": "verbose"}
#: the global options before the command
_GLOBAL_VALUES = {"--log-level": "log_level", "--log-format": "log_format", "--log-file": "global_log_file"}


@dataclass
class PollArgs:
    """One ``nomicpoker [global options] poll [options]`` command line, parsed as typer would."""

    table: str | None = None
    site: str | None = None
    state: str | None = None
    db: str | None = None
    log_file: str | None = None
    quiet: bool = False
    verbose: bool = False
    log_level: str | None = None
    log_format: str | None = None
    global_log_file: str | None = None


def parse_poll(argv: Sequence[str]) -> PollArgs | None:
    """The options of a plain ``poll`` command line; None for anything else (another command,
    ``--help``, ``--dry-run``, an unknown or malformed option: the CLI handles those)."""
    args = PollArgs()
    known, i, command = _GLOBAL_VALUES, 0, False
    while i < len(argv):
        word = argv[i]
        if not command and word == "poll":
            known, command = _POLL_VALUES, True
            i += 1
            continue
        name, eq, value = word.partition("=")
        if name in known and word.startswith("--"):
            if not eq:
                if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                    return None
                value = argv[i + 1]
                i += 1
            setattr(args, known[name], value)
        elif command and word in _POLL_FLAGS:
            setattr(args, _POLL_FLAGS[word], True)
        else:
            return None
        i += 1
    return args if command else None


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    if value is not None and not value.strip():
        raise ValueError(f"{name} is set but empty")
    return value


def answer(argv: Sequence[str]) -> bool:
    """Answer an idle ``poll`` here; False when the CLI must run (the reason is kept in
    :data:`nomicpoker.shell.idle.LAST` for ``--verbose``)."""
    args = parse_poll(argv)
    if args is None:
        return False
    import fcntl
    from pathlib import Path

    from nomicpoker.shell import idle, logs, paths

    try:
        level = (args.log_level or _env("NOMICPOKER_LOG_LEVEL") or "info").strip().lower()
        fmt = (args.log_format or _env("NOMICPOKER_LOG_FORMAT") or "text").strip().lower()
        env_file = _env("NOMICPOKER_LOG_FILE")
        for name in ("NOMICPOKER_STATE", "NOMICPOKER_DB", "NOMICPOKER_SITE"):
            _env(name)
        if os.environ.get("NOMICPOKER_BUSY_TIMEOUT") is not None:
            raise ValueError("NOMICPOKER_BUSY_TIMEOUT is set (the full poll reads and checks it)")
        if "" in (args.log_file, args.global_log_file):
            raise ValueError("--log-file is empty")
    except ValueError as exc:
        idle.LAST = str(exc)
        return False
    if level not in logs.LEVELS or fmt not in logs.FORMATS:
        return False
    st = paths.state_dir(args.state)
    url = paths.db_url(st, args.db)
    # the file SQLAlchemy would open (percent-decoded: a state path may hold '?', '%' or '#');
    # a URL with options, or a "file:" URI, is left to the full poll (as poll.ledger_file)
    path = paths.sqlite_url_path(url)
    if path is None or str(path).startswith("file:") or not st.is_dir():
        idle.LAST = "the ledger is not an SQLite file" if st.is_dir() else "no state directory"
        return False
    db = Path(os.path.abspath(path))
    site = paths.site_dir(st, args.site)
    with paths.private_files(st):  # as the full poll: umask 077, the state made owner-only
        if not (db.is_file() and os.access(db, os.W_OK) and os.access(st, os.W_OK)):
            idle.LAST = "the ledger or the state directory is not writable here"
            return False
        fd = os.open(paths.lock_path(st), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:  # the kernel lock the full poll's FileLock takes on the same file
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                idle.LAST = "another run holds the lock"
                return False
            names, why = idle.check(st, db, args.table)
            idle.LAST = why
            if names is None:
                return False
            if site is not None and not (site / "index.html").exists():
                idle.LAST = f"the site {site} is missing"
                return False
            log_file = args.log_file or env_file
            settings = logs.Settings(level=level, fmt=fmt,
                                     log_file=Path(args.global_log_file or env_file) if (args.global_log_file or env_file) else None)
            try:
                log = logs.configure(verbose=args.verbose, quiet=args.quiet,
                                     log_file=Path(log_file) if log_file else None, settings=settings)
            except OSError:
                return False  # the CLI says what is wrong with the log file
            log = logs.get("cli")
            log.debug("idle check: %s: the full poll is skipped", why)
            if not names:
                log.info("no active tables: nothing to do")
            for name in names:
                log.info("%s", f"{name}: nothing new")
            return True
        finally:
            os.close(fd)  # releases the lock


@dataclass
class ReplayArgs:
    """``nomicpoker phh replay FILES... [--ruleset R] [--limit N] [-q]``, parsed as typer would."""

    files: list[str]
    ruleset: str = "roberts-nlhe"
    limit: int | None = None
    quiet: bool = False


def parse_replay(argv: Sequence[str]) -> ReplayArgs | None:
    """The arguments of a plain ``phh replay`` command line; None for anything else (global
    options, ``--help``, an unknown or malformed option, no file: the CLI handles those)."""
    if list(argv[:2]) != ["phh", "replay"]:
        return None
    args, rest, i = ReplayArgs([]), list(argv[2:]), 0
    while i < len(rest):
        word = rest[i]
        name, eq, value = word.partition("=")
        if name in ("--ruleset", "--limit") and (eq or i + 1 < len(rest)):
            if not eq:
                value, i = rest[i + 1], i + 1
            if name == "--limit":
                if not (value.isascii() and value.isdigit()) or int(value) < 1:
                    return None  # the CLI's usage error (``--limit`` is at least 1)
                args.limit = int(value)
            elif not value or value.startswith("-"):
                return None
            else:
                args.ruleset = value
        elif word in ("-q", "--quiet"):
            args.quiet = True
        elif word.startswith("-") or not word:
            return None
        else:
            args.files.append(word)
        i += 1
    return args if args.files else None


def replay(argv: Sequence[str]) -> int | None:
    """Run ``phh replay`` here, without building the CLI (typer, pydantic and every other
    command's modules: ~0.2 s CPU of a ~2 s corpus run); the exit code, or None when the CLI
    must run. The same library (:mod:`nomicpoker.shell.phh_files`) and the same output."""
    args = parse_replay(argv)
    if args is None:
        return None
    from pathlib import Path

    from nomicpoker.shell.rulesets import load_ruleset

    try:
        rs = load_ruleset(args.ruleset)
    except Exception:  # noqa: BLE001 - the CLI reports a bad ruleset its own way
        return None
    from nomicpoker.shell.phh_files import render_summary, replay_paths

    summary = replay_paths([Path(f) for f in args.files], rs, args.limit)
    text = render_summary(summary, args.quiet) + "\n"
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):  # a file name the console cannot show: the CLI's echo
        return None
    sys.stdout.write(text)
    return 0 if summary.ok else 1


def main() -> None:
    """The console script: the idle check or ``phh replay``, else the CLI
    (:func:`nomicpoker.cli.main`)."""
    try:
        done = answer(sys.argv[1:])
    except Exception:  # noqa: BLE001 - never fail here: the full command says what is wrong
        done = False
    if done:
        sys.stdout.flush()
        sys.exit(0)
    code = replay(sys.argv[1:])
    if code is not None:
        sys.stdout.flush()
        sys.exit(code)
    from nomicpoker.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
