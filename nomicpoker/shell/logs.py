"""What the Dealer's cron jobs say (shell): the standard ``logging`` module, UTC timestamps.

WHY: a poll runs every few minutes for months; when a Dealer asks "when did the deck go out?"
or "since when has the forum been failing?", the answer is in the cron mail or the log file,
and only a timestamp makes it an answer. Levels: INFO is one line per table and run (what
``poll`` always printed), DEBUG (``--verbose``) adds each dealer message sent and each thread
fetched, WARNING and above are failures and go to stderr. ``--quiet`` shows only failures on
the console, so a cron job that went well prints nothing and cron mails nothing.
``--log-file`` (or ``NOMICPOKER_LOG_FILE``) also appends every line at INFO (DEBUG with
``--verbose``), whatever ``--quiet`` says, so the history is kept even when cron mails nothing.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

ROOT = "nomicpoker"


class UtcFormatter(logging.Formatter):
    """``2026-11-23T10:57:03Z`` timestamps, whatever the host's time zone."""

    converter = time.gmtime

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", self.converter(record.created))


class _Below(logging.Filter):
    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < self.level


CONSOLE_FORMAT = "%(asctime)s %(message)s"
FILE_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure(verbose: bool = False, quiet: bool = False, log_file: Path | None = None) -> logging.Logger:
    """Set up the ``nomicpoker`` logger for one command: INFO and DEBUG to stdout, WARNING and
    above to stderr, and the log file if given. Raises ``OSError`` if the file cannot be
    opened (the caller turns it into one line)."""
    logger = logging.getLogger(ROOT)
    for h in list(logger.handlers):
        logger.removeHandler(h)
        h.close()
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    console_level = logging.WARNING if quiet else (logging.DEBUG if verbose else logging.INFO)
    out = logging.StreamHandler(sys.stdout)
    out.setLevel(console_level)
    out.addFilter(_Below(logging.WARNING))
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.WARNING)
    for h in (out, err):
        h.setFormatter(UtcFormatter(CONSOLE_FORMAT))
        logger.addHandler(h)
    if log_file is not None:  # its folder must exist: a log file never creates a state
        fh = logging.FileHandler(log_file, encoding="utf-8")
        fh.setLevel(logging.DEBUG if verbose else logging.INFO)
        fh.setFormatter(UtcFormatter(FILE_FORMAT))
        logger.addHandler(fh)
    return logger


def get(name: str) -> logging.Logger:
    """A module's logger under ``nomicpoker`` (silent until :func:`configure` runs)."""
    return logging.getLogger(f"{ROOT}.{name}")
