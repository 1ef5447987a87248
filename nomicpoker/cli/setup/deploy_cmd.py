"""``nomicpoker cron`` and ``nomicpoker systemd``: the scheduled poll, filled in for this install.

WHY commands and not files to copy and edit: a crontab line or a unit with the wrong
interpreter or state path fails quietly at 3 a.m. (cron's PATH has no ``nomicpoker``; a
``pipx`` install lives in ``~/.local/pipx/venvs/nomicpoker``). The templates ship inside the
package (:mod:`nomicpoker.cli.deploy`) and these commands fill them in with the script of the
install that runs them and the absolute state folder, so what they print runs as printed.
"""

from __future__ import annotations

import getpass
import os
import shutil
import sys
from importlib import resources
from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options
from nomicpoker.cli.setup.bot_cmd import fail

UNITS = ("nomicpoker-poll.service", "nomicpoker-poll.timer")
SERVE_UNIT = "nomicpoker-serve.service"


def installed_script() -> str:
    """The ``nomicpoker`` console script of the install running now, as an absolute path (the
    one beside this interpreter: a venv's or pipx's), else the one on PATH, else
    ``python -m nomicpoker`` with this interpreter."""
    beside = Path(sys.executable).with_name("nomicpoker")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("nomicpoker")
    if found:
        return os.path.abspath(found)
    return f"{sys.executable} -m nomicpoker"


def template(name: str) -> str:
    return resources.files("nomicpoker.cli.deploy").joinpath(name).read_text("utf-8")


def _fill(name: str, state: Path, every: int, user: str | None = None) -> str:
    return template(name).format(nomicpoker=installed_script(), state=state, every=every,
                                 user=user or getpass.getuser(), workdir=state.parent)


def _state(state: Optional[str]) -> Path:
    from nomicpoker.shell.storage import paths

    return paths.state_dir(state)


EveryOpt = typer.Option(5, "--every", parser=options.whole_number_at_least(1), help="Minutes between polls.")


def cron(state: Optional[str] = options.StateOpt, every: int = EveryOpt) -> None:
    """Print the crontab line that polls this game (this install's script, the absolute state):
    add it with crontab -e."""
    text = _fill("crontab", _state(state), every)
    typer.echo(text.rstrip("\n"))


def systemd(state: Optional[str] = options.StateOpt, every: int = EveryOpt,
            user: Optional[str] = typer.Option(None, "--user", help="The account that runs it (default: you)."),
            serve: bool = typer.Option(False, "--serve", help="Also the unit of nomicpoker serve (IRC tables)."),
            out: Optional[Path] = typer.Option(None, "--out", help="Write the units into this folder instead of "
                                               "printing them (e.g. /etc/systemd/system).")) -> None:
    """Print (or write with --out) the systemd service and timer that poll this game."""
    st = _state(state)
    names = UNITS + ((SERVE_UNIT,) if serve else ())
    units = {name: _fill(name, st, every, user) for name in names}
    if out is None:
        for name, text in units.items():
            typer.echo(f"# ---- {name}")
            typer.echo(text.rstrip("\n"))
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in units.items():
            (out / name).write_text(text, "utf-8")
    except OSError as exc:
        fail(f"--out {out}: {exc.strerror or exc}")
    typer.echo(f"wrote {', '.join(names)} to {out}; then: systemctl daemon-reload && "
               "systemctl enable --now nomicpoker-poll.timer")


def register(app: typer.Typer) -> None:
    """Add the deployment commands to the main app."""
    app.command("cron", example="nomicpoker cron --state /srv/poker/state")(cron)
    app.command("systemd", example=["nomicpoker systemd --state /srv/poker/state",
                                    "sudo nomicpoker systemd --state /srv/poker/state --user poker "
                                    "--out /etc/systemd/system"])(systemd)
