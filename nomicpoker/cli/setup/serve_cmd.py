"""``nomicpoker serve``: keep the Dealer connected to the live chats (IRC) its tables play on.

See :mod:`nomicpoker.shell.jobs.serve` for why IRC needs a long-running process, and docs/irc.md
for running it under systemd.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.cli.setup.bot_cmd import DbOpt, LogFileOpt, StateOpt, VerboseOpt, logging_for, opened


def serve_cmd(table: Optional[str] = typer.Option(None, "--table", help="Only this table."),
              tick: float = typer.Option(60.0, "--tick", parser=options.seconds_at_least(1.0), help="Seconds between polls of every table (deadlines) and listing announcements."),
              site: Optional[str] = typer.Option(None, "--site", help="Rebuild the auditors' site here when something changed (default NOMICPOKER_SITE, else <state>/site; 'off' to skip)."),
              quiet: bool = typer.Option(False, "--quiet", "-q", help="Log only failures."),
              verbose: bool = VerboseOpt, log_file: Optional[Path] = LogFileOpt,
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Stay connected to the IRC tables: log every line, answer at once, poll on a timer.
    Stop with Ctrl-C or SIGTERM (it leaves the channels cleanly)."""
    from nomicpoker.shell.storage.paths import site_dir
    from nomicpoker.shell.jobs.serve import serve

    stopping: list[int] = []

    def stop_on(signum, frame):  # noqa: ANN001 - signal handler signature
        stopping.append(signum)

    with opened(state, db) as (st, engine):
        log = logging_for(verbose, quiet, log_file)
        previous = signal.signal(signal.SIGTERM, stop_on)
        try:
            serve(engine, st, table=table, tick=tick, stop=lambda: bool(stopping),
                  report=lambda line: log.info("%s", line),
                  poll_kwargs={"site": site_dir(st, site)})
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
        log.info("serve stopped")


def register(app: typer.Typer) -> None:
    app.command("serve", example='nomicpoker serve --quiet --state /srv/poker/state --log-file /srv/poker/state/serve.log')(serve_cmd)
