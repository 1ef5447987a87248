"""The options every command shares, accepted before or after the command's name (shell).

``nomicpoker --state S --log-file F poll --quiet`` and ``nomicpoker poll --quiet --state S
--log-file F`` mean the same: the root callback (:mod:`nomicpoker.cli`) reads the global
options into a :class:`Globals` kept on the root context, and every command registered
through :class:`Typer` also takes them after its name (the log options always; ``--state``
and ``--db`` where the command has a state; ``--quiet``/``--verbose`` where it logs), the
value after the name winning. WHY a wrapper and not a copy of the options in every command:
one definition, one merge, and the command's body sees the merged values under the names it
always had (``state``, ``db``, ``log_file``, ``verbose``, ``quiet``).

The wrapper also does, once for every command, what each did or forgot: it configures the
log (so an ``error:`` line reaches the log file whatever the options' positions), ends a
command interrupted by Ctrl-C with one line and exit 130, and a command whose reader closed
the pipe quietly with exit 141 (:func:`closed_pipe`).
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

import typer

#: help for the shared options (one wording before and after the command)
STATE_HELP = "State directory (default ./state or NOMICPOKER_STATE)."
DB_HELP = ("Ledger database URL: sqlite:///FILE or postgresql://USER@HOST/DB (default: the "
           "state's ledger.db, or NOMICPOKER_DB).")
LEVEL_HELP = "Least severe log line kept: debug, info, warning or error."
FORMAT_HELP = "Log lines as text (timestamped lines) or json (one object per line)."
LOG_FILE_HELP = "Also append every log line, and every error line, to this file."
QUIET_HELP = "Print only failures (what cron runs); the log file still keeps every line."
VERBOSE_HELP = "Also log each dealer message sent and each thread read."

#: the log file named on the command line, kept as soon as it is read (an eager option), so a
#: usage error met later in the same command line can still be written there
_seen_log_file: list[Path] = []


def _remember_log_file(value: Optional[Path]) -> Optional[Path]:
    if value is not None and str(value):
        _seen_log_file.append(value)
    return value


def seen_log_file() -> Path | None:
    """The last ``--log-file`` read from the command line so far (for a usage error's line)."""
    return _seen_log_file[-1] if _seen_log_file else None


def log_file_option(envvar: str | None = None) -> Any:
    return typer.Option(None, "--log-file", envvar=envvar, help=LOG_FILE_HELP, is_eager=True,
                        callback=_remember_log_file)


StateOpt = typer.Option(None, "--state", help=STATE_HELP)
DbOpt = typer.Option(None, "--db", help=DB_HELP)
VerboseOpt = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP)
QuietOpt = typer.Option(False, "--quiet", "-q", help=QUIET_HELP)
LogFileOpt = log_file_option()


@dataclass(frozen=True)
class Globals:
    """The shared options of one command line, as the root callback read them (before the
    command's name; the environment and defaults filled in)."""

    state: str | None = None
    db: str | None = None
    level: str = "info"
    fmt: str = "text"
    log_file: Path | None = None
    quiet: bool = False
    verbose: bool = False


def root_globals(ctx: Any) -> Globals:
    """The :class:`Globals` the root callback stored (defaults when it did not run)."""
    root = ctx.find_root() if ctx is not None else None
    obj = getattr(root, "obj", None)
    return obj if isinstance(obj, Globals) else Globals()


def fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr and exit ``code``: the Dealer never sees a traceback. The log file
    (global ``--log-file``) keeps the line too, timestamped, in the chosen format. (Here, at
    the bottom of the CLI's modules, so every command module can use it without a cycle.)"""
    import logging

    from nomicpoker.shell import logs

    typer.echo(f"error: {message}", err=True)
    logging.getLogger(f"{logs.ROOT}.cli").error("error: %s", message, extra=logs.FILE_ONLY)
    raise typer.Exit(code)


def usage(message: str) -> NoReturn:
    """A usage error found by us (not by the parser): one line, exit 2, kept in the log file."""
    fail(f"{message} (see nomicpoker --help)", 2)


def check_not_empty(name: str, value: str | None, env: str) -> None:
    """``--state ""`` or ``--db ""`` (often a shell variable that is not set) would quietly
    fall back to the default state or ledger: refused, as an empty environment variable is."""
    if value is not None and not value.strip():
        usage(f"{name} is empty (an unset shell variable?): give a value or leave the option out")
    if value is None and env in os.environ and not os.environ[env].strip():
        usage(f"{env} is set but empty: give it a value or unset it")


def check_level(level: str, fmt: str) -> None:
    from nomicpoker.shell import logs

    if level not in logs.LEVELS:
        usage(f"--log-level {level!r}: expected one of {', '.join(logs.LEVELS)}")
    if fmt not in logs.FORMATS:
        usage(f"--log-format {fmt!r}: expected text or json")


def configure_logs(g: Globals, open_now: bool) -> None:
    """Set up the log for this command (:mod:`nomicpoker.shell.logs`); a log file that cannot
    be opened is one line and exit 1, before the command does anything."""
    from nomicpoker.shell import logs

    try:
        logs.configure(verbose=g.verbose, quiet=g.quiet,
                       settings=logs.Settings(level=g.level, fmt=g.fmt, log_file=g.log_file))
        if open_now:
            logs.open_log_file()
    except OSError as exc:
        fail(f"--log-file {exc.filename or g.log_file}: {exc.strerror or exc}: nothing was done")


# --------------------------------------------------------------------------- numbers


def whole_number_at_least(least: int = 0) -> Callable[[Any], int]:
    """A ``parser=`` for an option that counts (Money, an ante, a hand number): digits only,
    at least ``least``. WHY: typer checks an ``int`` with pydantic, whose answer to
    ``--money abc`` is "Input should be a valid integer, unable to parse string as an
    integer"; a Dealer reads "Invalid value for '--money': 'abc' is not a whole number"."""
    what = "a whole number" + (f" of at least {least}" if least else "")

    def parse(value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not (text.isascii() and text.isdigit()):
                raise typer.BadParameter(f"{str(value)!r} is not {what}")
            number = int(text)
        if number < least:
            raise typer.BadParameter(f"{str(value)!r} is not {what}")
        return number

    return parse


whole_number = whole_number_at_least(0)


def integer(value: Any) -> int:
    """A ``parser=`` for a whole number whose range the command checks itself, with its own
    words (``--deadline-hours``: the table setting's "from 1 to 87,840")."""
    text = str(value).strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        raise typer.BadParameter(f"{str(value)!r} is not a whole number")
    return int(text)


def seconds_at_least(least: float) -> Callable[[Any], float]:
    """A ``parser=`` for a duration in seconds (``--tick 30``, ``--tick 2.5``), at least ``least``."""
    import math

    def parse(value: Any) -> float:
        try:
            number = float(str(value).strip())
        except ValueError:
            number = math.nan
        if not math.isfinite(number) or number < least:
            raise typer.BadParameter(f"{str(value)!r} is not a number of seconds of at least {least:g}")
        return number

    return parse


# --------------------------------------------------------------------------- ends


def closed_pipe() -> NoReturn:
    """The reader of our output has gone (``nomicpoker ledger ... | head -3``): stop quietly
    with 141 (128 + SIGPIPE), the status git, grep and cat end with there (they are killed by
    the signal). WHY not 0 as ripgrep does: our commands also write (a poll, a hand start), and
    one stopped by a closed pipe did not finish; 141 says so, as the tools a shell user knows
    do. Whatever was committed stays committed (every command is safe to stop anywhere).
    The rest of the output goes to /dev/null, so the interpreter's last flush is quiet too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    raise typer.Exit(141)


INTERRUPTED = ("interrupted (Ctrl-C): stopped; what was committed before stays, nothing half-done "
               "is kept, and the next run goes on")


def interrupted() -> NoReturn:
    """Ctrl-C (SIGINT): one line, kept in the log file, and exit 130 (128 + SIGINT)."""
    fail(INTERRUPTED, 130)


# --------------------------------------------------------------------------- the wrapper

#: the options added after a command's name when it does not declare them itself
_LOG_PARAMS: dict[str, tuple[Any, Any]] = {
    "log_level": (Optional[str], typer.Option(None, "--log-level", metavar="LEVEL", help=LEVEL_HELP)),
    "log_format": (Optional[str], typer.Option(None, "--log-format", metavar="FORMAT", help=FORMAT_HELP)),
    "log_file": (Optional[Path], log_file_option()),
}
_TALK_PARAMS: dict[str, tuple[Any, Any]] = {
    "quiet": (bool, QuietOpt),
    "verbose": (bool, VerboseOpt),
}
_CTX = "np_ctx"


def with_globals(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a typer command that also takes the shared options after its name (see the
    module docstring); ``fn`` itself is left as it is."""
    sig = inspect.signature(fn, eval_str=True)
    names = set(sig.parameters)
    ctx_name = next((p.name for p in sig.parameters.values() if p.annotation is typer.Context), None)
    added: dict[str, tuple[Any, Any]] = {k: v for k, v in _LOG_PARAMS.items() if k not in names}
    if "verbose" in names or "quiet" in names:  # a command that logs: quiet and verbose both
        added.update({k: v for k, v in _TALK_PARAMS.items() if k not in names})
    extra = [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
             for k, (a, d) in added.items()]
    if ctx_name is None:
        extra.append(inspect.Parameter(_CTX, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context))
    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in sig.parameters.values()]
    stateful = "state" in names or "db" in names

    @functools.wraps(fn)
    def command(**kw: Any) -> Any:
        ctx = kw.pop(_CTX) if ctx_name is None else kw[ctx_name]
        own = {k: kw.pop(k) for k in added}
        seen = {**own, **{k: kw[k] for k in ("log_file", "verbose", "quiet") if k in names}}
        g = root_globals(ctx)
        level = (seen.get("log_level") or g.level).strip().lower()
        fmt = (seen.get("log_format") or g.fmt).strip().lower()
        merged = replace(g, level=level, fmt=fmt,
                         log_file=seen.get("log_file") if seen.get("log_file") is not None else g.log_file,
                         quiet=bool(seen.get("quiet")) or g.quiet, verbose=bool(seen.get("verbose")) or g.verbose)
        if "state" in names and kw["state"] is None:
            kw["state"] = g.state
        if "db" in names and kw["db"] is None:
            kw["db"] = g.db
        for k in ("log_file", "verbose", "quiet"):
            if k in names:
                kw[k] = getattr(merged, k)
        check_level(level, fmt)
        configure_logs(merged, open_now=not stateful)
        if "state" in names:
            check_not_empty("--state", kw["state"], "NOMICPOKER_STATE")
        if "db" in names:
            check_not_empty("--db", kw["db"], "NOMICPOKER_DB")
        try:
            return fn(**kw)
        except KeyboardInterrupt:
            interrupted()
        except BrokenPipeError:
            closed_pipe()

    command.__signature__ = sig.replace(parameters=params + extra)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params + extra
                               if p.annotation is not inspect.Parameter.empty}
    if sig.return_annotation is not inspect.Signature.empty:
        command.__annotations__["return"] = sig.return_annotation
    del command.__wrapped__  # typer must read the new signature, not fn's
    return command


def _epilog(example: str | list[str] | None, epilog: str | None) -> str | None:
    if not example:
        return epilog
    lines = [example] if isinstance(example, str) else list(example)
    text = "\b\nExample" + ("s" if len(lines) > 1 else "") + ":\n" + "\n".join(f"  {x}" for x in lines)
    return text + (f"\n\n{epilog}" if epilog else "")


class Typer(typer.Typer):
    """A command group whose commands take the shared options after their name (see the
    module docstring) and show an example in their help (``example=``)."""

    def command(self, name: str | None = None, *, example: str | list[str] | None = None,
                **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        kw["epilog"] = _epilog(example, kw.get("epilog"))
        register = super().command(name, **kw)

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            register(with_globals(fn))
            return fn

        return decorator

    def callback(self, *args: Any, example: str | list[str] | None = None,
                 **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        kw["epilog"] = _epilog(example, kw.get("epilog"))
        register = super().callback(*args, **kw)

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            register(with_globals(fn))
            return fn

        return decorator
