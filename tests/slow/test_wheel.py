"""The package as a packager ships it (issue 27): the wheel built from this checkout installs
into a fresh virtual environment outside the repository, and from another folder
``nomicpoker --version`` and the demo run, ``nomicpoker cron`` names that environment's
script, and the wheel carries its data (rulesets, site templates, migrations, the systemd
units and the crontab line) and its project URLs.

Offline: the wheel is built without build isolation (setuptools and wheel are test
dependencies) and installed with ``--no-deps --no-index``; its dependencies are those
installed here, seen through a ``.pth`` path file (which, unlike the site folder itself, runs
no ``.pth`` of its own: the editable install of this checkout stays out of sight). ``pip
check`` then holds the wheel's requirements against them."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from _paths import ROOT


def run(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOMICPOKER_", "PYTHON"))}
    res = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
    assert res.returncode == 0, f"{args}: {res.stdout}{res.stderr}"
    return res


@pytest.mark.slow  # a build, a venv and a demo: ~10 s of CPU, a minute of wall time on a busy machine
def test_the_wheel_installs_in_a_fresh_venv_and_runs_from_another_folder(tmp_path):
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, ROOT)
    (wheel,) = dist.glob("nomicpoker-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    for data in ("nomicpoker/cli/deploy/crontab", "nomicpoker/cli/deploy/nomicpoker-poll.service",
                 "nomicpoker/cli/deploy/nomicpoker-poll.timer", "nomicpoker/rules/blognomic-2008/ruleset.toml",
                 "nomicpoker/shell/storage/migrations/script.py.mako"):
        assert data in names, data
    assert not any(n.startswith(("tests/", "adapters/")) for n in names)
    assert "Project-URL: Source, " in meta and "Project-URL: Issues, " in meta, meta

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    site = next((venv / "lib").glob("python3*/site-packages"))
    deps = [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and Path(p).is_dir()]
    (site / "_installed_here.pth").write_text("\n".join(deps) + "\n")
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel)
    run(sys.executable, "-m", "pip", "--python", python, "check")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = venv / "bin" / "nomicpoker"
    where = run(python, "-c", "import nomicpoker; print(nomicpoker.__file__)", cwd=elsewhere).stdout.strip()
    assert Path(where).is_relative_to(venv), where
    from nomicpoker import __version__

    assert run(script, "--version", cwd=elsewhere).stdout == f"nomicpoker {__version__}\n"
    demo = run(script, "demo", "--state", "st", cwd=elsewhere)
    assert "| Player | Money |" in demo.stdout and (elsewhere / "st" / "ledger.db").is_file(), demo.stdout
    assert run(script, "audit", "--state", "st", cwd=elsewhere).stdout.endswith("identical to the ledger\n")
    cron = run(script, "cron", "--state", "st", cwd=elsewhere).stdout
    assert f"{script} poll --quiet --state {elsewhere / 'st'} --log-file {elsewhere / 'st'}/poll.log" in cron, cron
