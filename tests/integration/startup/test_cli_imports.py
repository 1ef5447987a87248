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
