"""One crontab line everywhere (issue 13): README, the Dealer's guide and the forums page show
the same line, with full paths (cron's PATH cannot find a bare `nomicpoker`), and the systemd
service runs the same command. The line really works: on a fresh state it prints nothing and
exits 0; pointed at a missing state it fails loudly."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.testing import CliRunner

from nomicpoker.cli import app

from _paths import ROOT

DOCS = [ROOT / "README.md", ROOT / "docs" / "dealer-guide.md", ROOT / "docs" / "forums.md"]


def cron_lines(path: Path) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^\s*(\*/5 \* \* \* \* .*)$", path.read_text("utf-8"), re.M)]


def test_the_three_documents_show_one_identical_crontab_line_with_full_paths():
    lines = {p.name: cron_lines(p) for p in DOCS}
    assert all(len(v) == 1 for v in lines.values()), lines
    (line,) = set(v[0] for v in lines.values())
    command = shlex.split(line)[5:]
    assert command[0].startswith("/") and command[0].endswith("/.venv/bin/nomicpoker")
    assert "--quiet" in command and "--log-file" in command
    assert all(a.startswith("/") for a in command[command.index("--state") + 1:][:1])


def test_nomicpoker_cron_and_systemd_print_that_line_for_this_install():
    """The line and the units ship in the package and are filled in with this install's
    script and the absolute state: the documents' line is what ``nomicpoker cron`` prints
    for an install in /srv/poker/.venv, and the service runs the same command."""
    from nomicpoker.cli.setup.deploy_cmd import installed_script

    (line,) = cron_lines(DOCS[0])
    documented = shlex.split(line)[5:]
    script = installed_script()
    assert Path(script).is_absolute() and Path(script.split()[0]).exists(), script
    res = CliRunner().invoke(app, ["cron", "--state", "/srv/poker/state"])
    (printed,) = [x for x in res.output.splitlines() if x.startswith("*/5 ")]
    assert shlex.split(printed.replace(script, "/srv/poker/.venv/bin/nomicpoker"))[5:] == documented
    res = CliRunner().invoke(app, ["systemd", "--state", "/srv/poker/state", "--user", "poker"])
    assert res.exit_code == 0, res.output
    assert f"ExecStart={script} {' '.join(documented[1:])}" in res.output
    assert "User=poker" in res.output and "OnUnitActiveSec=5min" in res.output and "{" not in res.output


def test_the_crontab_line_is_silent_when_all_is_well_and_loud_when_the_state_is_missing(tmp_path):
    (line,) = cron_lines(DOCS[0])
    args = [a.replace("/srv/poker", str(tmp_path)) for a in shlex.split(line)[6:]]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 1 and f"no nomicpoker state directory at {tmp_path / 'state'}" in res.output
    assert CliRunner().invoke(app, ["init", "--state", str(tmp_path / "state")]).exit_code == 0
    res = CliRunner().invoke(app, args)
    assert (res.exit_code, res.output) == (0, "")
    log = (tmp_path / "state" / "poll.log").read_text("utf-8")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ INFO nomicpoker\.cli: no active tables: nothing to do\n", log)
