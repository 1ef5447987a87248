"""What the Dealer's cron jobs say (shell): the standard ``logging`` module, UTC timestamps.

WHY: a poll runs every few minutes for months; when a Dealer asks "when did the deck go out?"
or "since when has the forum been failing?", the answer is in the cron mail or the log file,
and only a timestamp makes it an answer. Levels: INFO is one line per table and run (what
``poll`` always printed), DEBUG (``--verbose``) adds each dealer message sent and each thread
fetched, WARNING and above are failures and go to stderr. ``--quiet`` shows only failures on
the console, so a cron job that went well prints nothing and cron mails nothing.
``--log-file`` (or ``NOMICPOKER_LOG_FILE``) also appends every line at INFO (DEBUG with
``--verbose``), whatever ``--quiet`` says, so the history is kept even when cron mails nothing.

The options are global (``nomicpoker --log-level debug --log-format json --log-file F CMD``)
so every command logs the same way: a Dealer's wrapper script sets them once (or through
``NOMICPOKER_LOG_LEVEL``, ``NOMICPOKER_LOG_FORMAT``, ``NOMICPOKER_LOG_FILE``), and a log
collector gets one JSON object per line when asked. A command's one-line ``error:`` goes to
the log file too (its console line stays as it was), so the file says when and why a command
failed, not only what poll did.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from dataclasses import dataclass, replace
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
LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
#: ``logger.error(..., extra=FILE_ONLY)``: a line the command already printed on the console
#: its own way (an ``error:`` line) and that only the log file must still keep
FILE_ONLY = {"np_console": False}


class JsonFormatter(UtcFormatter):
    """One JSON object per line: ``time`` (UTC, ``Z``), ``level``, ``logger``, ``message``.

    WHY not python-json-logger (considered for issue 27): it would give the same four fields
    only when configured to (renamed fields, a UTC converter, and our own routing attribute
    ``np_console`` kept out of the extras it copies into every object by default), so it would
    save none of these lines while adding a dependency to every install; this formatter is
    the whole of what we need."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
               "message": record.getMessage()}
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class _Console(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "np_console", True)


class _LogFile(logging.FileHandler):
    """Opened on the first line (``delay``), so ``--log-file state/x.log`` before ``init``
    never makes a state directory by itself. A file that then cannot be written is one line
    on stderr, once, instead of logging's traceback for every record; not even that when the
    record is an error line the console already showed (a missing state directory, say: its
    own line says what is wrong)."""

    failed = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.failed:
            return
        try:
            if self.stream is None:
                self.stream = self._open()
        except OSError as exc:
            self.failed = True
            if getattr(record, "np_console", True):
                sys.stderr.write(f"error: --log-file {self.baseFilename}: {exc.strerror or exc} "
                                 "(log lines are not kept)\n")
            return
        super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802
        if not self.failed:
            self.failed = True
            exc = sys.exc_info()[1]
            why = getattr(exc, "strerror", None) or exc
            sys.stderr.write(f"error: --log-file {self.baseFilename}: {why} (log lines are not kept)\n")


@dataclass(frozen=True)
class Settings:
    """The log options of one command line (global options, then the command's own)."""

    level: str = "info"  # one of LEVELS: the least severe line kept, console and file
    quiet: bool = False  # console: failures only (the file still keeps ``level``)
    fmt: str = "text"  # one of FORMATS
    log_file: Path | None = None

    def merged(self, verbose: bool = False, quiet: bool = False, log_file: Path | None = None) -> "Settings":
        """These settings with a command's own ``--verbose``/``--quiet``/``--log-file``."""
        return replace(self, level="debug" if verbose else self.level, quiet=self.quiet or quiet,
                       log_file=log_file if log_file is not None else self.log_file)


_current = Settings()


def current() -> Settings:
    """The settings the global options set (defaults when none were given)."""
    return _current


def configure(verbose: bool = False, quiet: bool = False, log_file: Path | None = None,
              settings: Settings | None = None) -> logging.Logger:
    """Set up the ``nomicpoker`` logger for one command: INFO and DEBUG to stdout, WARNING and
    above to stderr, and the log file if given. ``settings`` (default: the global options')
    are merged with ``verbose``/``quiet``/``log_file``. Raises ``OSError`` if the file exists
    or its folder exists and it cannot be opened (the caller turns it into one line); a file
    whose folder does not exist yet is opened with the first line."""
    global _current
    s = (settings or _current).merged(verbose, quiet, log_file)
    _current = s
    if s.level not in LEVELS or s.fmt not in FORMATS:
        raise ValueError(f"log level {s.level!r} / format {s.fmt!r}")
    level = getattr(logging, s.level.upper())
    logger = logging.getLogger(ROOT)
    for h in list(logger.handlers):
        logger.removeHandler(h)
        h.close()
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    console_fmt = JsonFormatter() if s.fmt == "json" else UtcFormatter(CONSOLE_FORMAT)
    out = logging.StreamHandler(sys.stdout)
    out.setLevel(max(level, logging.WARNING) if s.quiet else level)
    out.addFilter(_Below(logging.WARNING))
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(max(level, logging.WARNING))
    for h in (out, err):
        h.setFormatter(console_fmt)
        h.addFilter(_Console())
        logger.addHandler(h)
    if s.log_file is not None:  # its folder must exist: a log file never creates a state
        path = Path(s.log_file)
        fh = _LogFile(path, encoding="utf-8", delay=True)
        if path.exists() or path.parent.is_dir():
            fh.stream = fh._open()  # now, so an unwritable file is the command's one error line
        fh.setLevel(level)
        fh.setFormatter(JsonFormatter() if s.fmt == "json" else UtcFormatter(FILE_FORMAT))
        logger.addHandler(fh)
    return logger


def open_log_file() -> None:
    """Open the log file now if :func:`configure` delayed it (its folder did not exist yet):
    a command calls this once its state directory exists and before it does anything, so a
    log file that cannot be written is the command's one error line and exit 1, never an
    error printed after the work was done (and exit 0). Raises ``OSError``."""
    for h in logging.getLogger(ROOT).handlers:
        if isinstance(h, _LogFile) and h.stream is None and not h.failed:
            h.stream = h._open()


def pending_log_file() -> Path | None:
    """The log file still not opened (delayed, never written), if any."""
    for h in logging.getLogger(ROOT).handlers:
        if isinstance(h, _LogFile) and h.stream is None:
            return Path(h.baseFilename)
    return None


def get(name: str) -> logging.Logger:
    """A module's logger under ``nomicpoker`` (silent until :func:`configure` runs)."""
    return logging.getLogger(f"{ROOT}.{name}")
