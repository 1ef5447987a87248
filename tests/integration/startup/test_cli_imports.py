"""``nomicpoker --help`` and ``nomicpoker version`` never import the database layer
(SQLAlchemy/SQLModel cost more CPU to import than the rest of a run): commands import it when
they open the ledger."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
sys.argv = ["nomicpoker", *json.loads(sys.argv[1])]
from nomicpoker.cli import main
try:
    main()
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("sqlalchemy", "sqlmodel", "alembic"))
print("IMPORTED:" + json.dumps(heavy[:5]))
"""


def _imported(args: list[str]) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True,
                         timeout=120)
    line = [x for x in out.stdout.splitlines() if x.startswith("IMPORTED:")]
    assert line, out.stdout + out.stderr
    return json.loads(line[-1][len("IMPORTED:"):])


@pytest.mark.parametrize("args", [["--help"], ["version"], ["poll", "--help"], ["table", "--help"]])
def test_help_and_version_do_not_import_the_database_layer(args):
    assert _imported(args) == []


def test_the_probe_sees_the_database_layer_when_a_command_opens_the_ledger(tmp_path):
    """The check above would pass vacuously if the probe could not see imports."""
    assert "sqlalchemy" in _imported(["table", "list", "--state", str(tmp_path)])


TREE = """
import json, sys
import typer
import nomicpoker.cli as cli

def paths(cmd, ctx, path):
    if not hasattr(cmd, "list_commands"):
        return [path]
    return [p for n in cmd.list_commands(ctx) for p in paths(cmd.get_command(ctx, n), ctx, path + [n])]

root = typer.main.get_command(cli.app)
ctx = typer.Context(root)
name = sys.argv[1]
found = paths(root, ctx, []) if name == "*" else paths(root.get_command(ctx, name), ctx, [name])
print("TREE:" + json.dumps({"loaded": sorted(cli._loaded), "paths": found}))
"""


def _tree(name: str) -> dict:
    out = subprocess.run([sys.executable, "-c", TREE, name], capture_output=True, text=True, timeout=120)
    line = [x for x in out.stdout.splitlines() if x.startswith("TREE:")]
    assert line, out.stdout + out.stderr
    return json.loads(line[-1][len("TREE:"):])


def test_each_command_alone_loads_only_its_modules_and_builds_the_whole_commands_tree():
    """The root group imports a command's modules only when the command line names it
    (``nomicpoker.cli.PROVIDERS``). Resolving each top-level name in a fresh process must build
    exactly the subtree that loading every module builds (a module adding to a group another
    defines, e.g. ``days_cmd`` to ``table``, must be listed for that name), and nothing more
    than that name's modules."""
    from nomicpoker import cli

    whole = _tree("*")
    assert whole["loaded"] == sorted(cli.COMMAND_MODULES)
    tops = {p[0] for p in whole["paths"]}
    assert tops == set(cli.PROVIDERS) | {"version"}
    for name in sorted(cli.PROVIDERS):
        alone = _tree(name)
        assert alone["paths"] == [p for p in whole["paths"] if p[0] == name], name
        assert alone["loaded"] == sorted(cli.PROVIDERS[name]), name


def test_a_cron_poll_and_help_of_one_command_do_not_import_the_other_commands():
    """``poll`` imports the Dealer's commands' module only: not the PHH reader, the rules
    checker, the tournament director or the forum commands."""
    probe = ("import sys; sys.argv = ['nomicpoker', 'poll', '--help']\n"
             "from nomicpoker.cli import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('MODS:' + ' '.join(sorted(m for m in sys.modules if m.startswith('nomicpoker.cli.'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    line = [x for x in out.stdout.splitlines() if x.startswith("MODS:")]
    assert line, out.stdout + out.stderr
    mods = set(line[-1][len("MODS:"):].split())
    assert "nomicpoker.cli.setup.bot_cmd" in mods
    assert not mods & {"nomicpoker.cli.record.phh_cmd", "nomicpoker.cli.record.rules_cmd",
                       "nomicpoker.cli.play.tournament_cmd", "nomicpoker.cli.setup.forum_cmd"}, mods
