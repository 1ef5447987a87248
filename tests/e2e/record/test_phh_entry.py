"""``nomicpoker phh replay`` from the console entry point (``nomicpoker/__main__``) runs the
replay without building the CLI: the same output and exit code as the CLI's command, for every
kind of result (matched, mismatched, skipped, unreadable, a ``.phhs`` file), every option, and
an argument the direct path does not take (which goes to the CLI). Real processes, real files.

The entry point replays directly only a command line the CLI has read before
(nomicpoker/shell/cycle/cli_memo.py): each direct run here is the second of two identical runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _paths import SHARED

CORPUS = SHARED / "data" / "phh"
if not CORPUS.is_dir():  # a worktree of the main checkout: /work/wt/NAME -> /work/shared
    CORPUS = Path("/work/shared/data/phh")

CLI = "import sys; sys.argv[0] = 'nomicpoker'; from nomicpoker.cli import main; main()"
PROBE = ("import runpy, sys; sys.argv = ['nomicpoker', *sys.argv[1:]]\n"
         "try:\n    runpy.run_module('nomicpoker', run_name='__main__')\nexcept SystemExit as e:\n"
         "    print('EXIT', e.code, sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'pydantic'))[:2])")


def both(*args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """(direct, CLI) runs of ``nomicpoker ARGS`` (the direct one is the second of two: the
    first reads the command line through the CLI, and must print the same)."""
    first, direct = (subprocess.run([sys.executable, "-m", "nomicpoker", *args], capture_output=True, text=True,
                                    timeout=300, cwd=cwd) for _ in range(2))
    assert (first.returncode, first.stdout, first.stderr) == (direct.returncode, direct.stdout, direct.stderr)
    cli = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=300, cwd=cwd)
    return direct, cli


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """A directory with one hand of each outcome, in subdirectories."""
    if not CORPUS.is_dir():
        pytest.skip(f"no PHH corpus at {CORPUS}")
    root = tmp_path_factory.mktemp("phh")
    good = sorted((CORPUS / "pluribus").rglob("*.phh"))[:3]
    (root / "a").mkdir()
    for i, f in enumerate(good):
        shutil.copy(f, root / "a" / f"{i}.phh")
    text = good[0].read_text()
    lines = [x for x in text.splitlines() if not x.startswith("finishing_stacks")]
    (root / "a" / "skipped.phh").write_text("\n".join(lines) + "\n")
    stacks = next(x for x in text.splitlines() if x.startswith("finishing_stacks"))
    first = stacks.split("[", 1)[1].split(",", 1)[0]
    (root / "b").mkdir()
    (root / "b" / "mismatch.phh").write_text(text.replace(stacks, stacks.replace(f"[{first},", f"[{int(first) + 1},", 1)))
    (root / "b" / "broken.phh").write_text("variant = 'NT'\nactions = [\n")
    (root / "b" / "crlf.phh").write_text(text.replace("\n", "\r\n"))
    body = "\n".join(f"[{k}]\n{text}" for k in (1, 2))
    (root / "b" / "two.phhs").write_text(body)
    (root / "notes.txt").write_text("not a hand")
    return root


@pytest.mark.parametrize("args", [
    [], ["-q"], ["--limit", "3"], ["--limit=4", "--quiet"], ["--ruleset", "roberts-nlhe"], ["--ruleset=roberts-nlhe", "-q"],
], ids=["plain", "quiet", "limit", "limit-eq", "ruleset", "ruleset-eq"])
def test_the_direct_replay_prints_what_the_cli_prints(sample, args):
    direct, cli = both("phh", "replay", str(sample), *args)
    assert (direct.returncode, direct.stdout, direct.stderr) == (cli.returncode, cli.stdout, cli.stderr)
    if "--limit" not in " ".join(args):
        assert direct.returncode == 1 and "mismatch " in direct.stdout and "error " in direct.stdout


def test_files_and_the_current_directory_as_the_cli_names_them(sample):
    direct, cli = both("phh", "replay", ".", "../" + sample.name + "/b/crlf.phh", cwd=sample)
    assert (direct.returncode, direct.stdout) == (cli.returncode, cli.stdout)
    assert "a/skipped.phh" in direct.stdout and "./a" not in direct.stdout, direct.stdout
    assert "b/two.phhs[1]" in direct.stdout or "matched" in direct.stdout


@pytest.mark.parametrize("args", [["--ruleset", "no-such-rules"], ["--limit", "x"], ["--limit", "0"], ["--help"], []],
                         ids=["bad-ruleset", "bad-limit", "zero-limit", "help", "no-file"])
def test_what_the_direct_path_does_not_take_goes_to_the_cli(sample, args):
    direct, cli = both("phh", "replay", *([str(sample)] if args != [] else []), *args)
    assert direct.returncode == cli.returncode != 0 or args == ["--help"]
    assert direct.stdout == cli.stdout and direct.stderr == cli.stderr
    if args == ["--ruleset", "no-such-rules"]:  # one line, not a traceback
        assert direct.stderr.startswith("error: ") and len(direct.stderr.splitlines()) == 1, direct.stderr


def test_the_direct_replay_does_not_build_the_cli(sample):
    subprocess.run([sys.executable, "-c", PROBE, "phh", "replay", str(sample / "a"), "-q"], capture_output=True,
                   timeout=300)  # the CLI reads this command line once
    out = subprocess.run([sys.executable, "-c", PROBE, "phh", "replay", str(sample / "a"), "-q"],
                         capture_output=True, text=True, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "EXIT 0 []", out.stdout + out.stderr
