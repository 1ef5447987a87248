"""``nomicpoker rules``: list, show and check print what a Dealer needs and exit non-zero on
bad input, without tracebacks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.tables.rulesets import recipe_hash
from _paths import ROOT

RULES_DIR = ROOT / "rules"
runner = CliRunner()


@pytest.fixture
def amended(tmp_path: Path) -> Path:
    d = tmp_path / "amended"
    shutil.copytree(RULES_DIR / "blognomic-2008", d)
    return d


def break_two_things(d: Path) -> None:
    p = d / "ruleset.toml"
    s = p.read_text(encoding="utf-8")
    s = s.replace('value = "added"', 'value = "raise"', 1)
    s = s.replace('[params.side_pots]\nvalue = false', '[params.side_pots]\nvalue = "no"', 1)
    p.write_text(s, encoding="utf-8")


def test_list_names_both_bundled_rulesets():
    r = runner.invoke(app, ["rules", "list"])
    assert r.exit_code == 0
    names = [line.split("\t")[0] for line in r.stdout.splitlines()]
    assert "blognomic-2008" in names and "roberts-nlhe" in names


def test_show_prints_header_and_every_parameter_with_value_sentence_and_note():
    r = runner.invoke(app, ["rules", "show", "blognomic-2008"])
    assert r.exit_code == 0
    out = r.stdout
    assert out.startswith("blognomic-2008: Dealing and Play")
    assert "Poker Part 2" in out  # the source
    assert recipe_hash(RULES_DIR / "blognomic-2008") in out
    assert "  side_pots = false" in out
    assert '  raise_amount = "added"' in out
    assert '  deadline_hours = "none"' in out
    assert "“No Player may Check before the Flop.”" in out
    assert "note: The 2008 text has no side pots" in " ".join(out.split())
    from nomicpoker.core.rules.ruleset import PARAM_NAMES

    for p in PARAM_NAMES:
        assert f"\n  {p} = " in out, p


def test_show_roberts_gives_its_values():
    r = runner.invoke(app, ["rules", "show", "roberts-nlhe"])
    assert r.exit_code == 0
    assert '  raise_amount = "raise_to"' in r.stdout
    assert "  min_hole_cards = 0" in r.stdout
    assert "  side_pots = true" in r.stdout


def test_show_accepts_a_path(amended):
    r = runner.invoke(app, ["rules", "show", str(amended)])
    assert r.exit_code == 0 and r.stdout.startswith("blognomic-2008:")


def test_show_unknown_name_is_one_line_and_exit_1():
    r = runner.invoke(app, ["rules", "show", "no-such-rules"])
    assert r.exit_code == 1
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no-such-rules" in lines[0] and "blognomic-2008" in lines[0]
    assert "Traceback" not in r.output


def test_check_ok_prints_name_and_hash(amended):
    r = runner.invoke(app, ["rules", "check", str(amended / "ruleset.toml")])
    assert r.exit_code == 0
    assert r.stdout.strip() == f"ok: blognomic-2008 {recipe_hash(amended)}"


def test_check_prints_every_error_one_per_line_and_exits_1(amended):
    break_two_things(amended)
    r = runner.invoke(app, ["rules", "check", str(amended)])
    assert r.exit_code == 1
    lines = r.stdout.strip().splitlines()
    toml = str(amended / "ruleset.toml")
    assert len(lines) == 2
    assert f"{toml}: params.raise_amount.value: " in lines[0]
    assert 'one of "added", "raise_to"' in lines[0]
    assert f"{toml}: params.side_pots.value: " in lines[1]
    assert "2 error(s)" in r.stderr


def test_check_missing_file_exits_1(tmp_path):
    r = runner.invoke(app, ["rules", "check", str(tmp_path / "nope.toml")])
    assert r.exit_code == 1
    assert "nope.toml" in r.stdout and "Traceback" not in r.output


def test_console_script_exit_codes(amended):
    """The installed entry point, not just the typer app, returns the exit codes cron sees."""
    exe = Path(sys.executable).parent / "nomicpoker"
    if not exe.exists():
        pytest.skip("console script not installed")
    ok = subprocess.run([str(exe), "rules", "check", str(amended)], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: blognomic-2008 ")
    break_two_things(amended)
    bad = subprocess.run([str(exe), "rules", "check", str(amended)], capture_output=True, text=True)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    unknown = subprocess.run([str(exe), "rules", "show", "nope"], capture_output=True, text=True)
    assert unknown.returncode == 1 and len(unknown.stderr.strip().splitlines()) == 1


def test_show_of_a_broken_copy_lists_every_error_on_stderr(amended):
    break_two_things(amended)
    r = runner.invoke(app, ["rules", "show", str(amended)])
    assert r.exit_code == 1
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)


@pytest.mark.parametrize("name", ["blognomic-2008", "roberts-nlhe"])
def test_show_prints_each_parameter_s_own_cited_sentence(name):
    """Issue 2: `rules show NAME` prints every parameter with its rule sentence. The sentences
    are read from the TOML with tomllib here, not through the loader under test."""
    import tomllib

    doc = tomllib.loads((RULES_DIR / name / "ruleset.toml").read_text(encoding="utf-8"))
    params = doc["params"]
    assert len(params) >= 10
    r = runner.invoke(app, ["rules", "show", name])
    assert r.exit_code == 0
    import re

    # the output in blocks: a "  key = value" line and the lines under it, up to the next one
    blocks: dict[str, str] = {}
    current = None
    for line in r.stdout.splitlines():
        m = re.match(r"^  (\w+) = ", line)
        if m:
            current = m.group(1)
            blocks[current] = line
        elif current is not None:
            blocks[current] += " " + line
    assert set(params) <= set(blocks), sorted(set(params) - set(blocks))
    for key, spec in params.items():
        cite = " ".join(spec["cite"].split())
        assert cite in " ".join(blocks[key].split()), (key, cite)
