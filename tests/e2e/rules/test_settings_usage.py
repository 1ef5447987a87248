"""A table setting written wrong is a usage error, the same from ``table create --setting`` and
``table set``: one line saying exactly what is allowed, exit 2 (as typer's own usage errors),
and nothing written (issue 11). Settings that are each in range but make no sense together (a
cap shorter than the deadline, more reminders than the deadline has hours) are refused too,
including when the deadline is the ruleset's default or changes later.

The messages are written here from what the Dealer must read (the bounds from core/rules/limits.py:
87,840 hours is ten years), not copied from the code.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.table.table_settings import SettingsError, TableSettings, settings_from
from nomicpoker.shell.storage.store import DealerEventRow, TableRow, open_engine

from kits.tables.rulesets import copy_ruleset, replace

runner = CliRunner()

#: (setting as written, a fragment of the one line that refuses it); the table's deadline is 4
BAD = [
    ("deadline_hours=-4", "deadline_hours = -4: a whole number of hours from 1 to 87,840, or none (no deadline)"),
    ("deadline_hours=0", "deadline_hours = 0: a whole number of hours from 1 to 87,840, or none (no deadline)"),
    ("deadline_hours=87841", "deadline_hours = 87841: a whole number of hours from 1 to 87,840"),
    ("deadline_hours=4.5", "deadline_hours is a whole number or none, not '4.5'"),
    ("deadline_hours=abc", "deadline_hours is a whole number or none, not 'abc'"),
    ("deadline_hours=", "deadline_hours is a whole number or none, not ''"),
    ("cap_hours=-1", "cap_hours = -1: a whole number of hours from 1 to 87,840, or none (no cap)"),
    ("cap_hours=2", "cap_hours = 2 is shorter than deadline_hours = 4: the cap would end every deadline "
                    "early; set cap_hours to at least 4, or none"),
    ("reminders=5", "reminders = 5 with deadline_hours = 4: more than one reminder an hour; set reminders "
                    "to at most 4"),
    ("reminders=-1", "reminders = -1: a whole number from 0 to 24"),
    ("max_timeouts=0", "max_timeouts = 0: a whole number from 1 to 1,000"),
    ("tz=Mars/Olympus", "time zone 'Mars/Olympus' is unknown"),
    ("day_start=24", "start of day 24: a whole hour 0-23"),
    ("weekends_off=sometimes", "weekends_off is yes or no"),
    ("bogus=1", "write NAME=VALUE with NAME one of deadline_hours"),
    ("deadline_action=fold", "write NAME=VALUE with NAME one of deadline_hours"),  # a ruleset parameter
]


def run(*args: str):
    return runner.invoke(app, list(args))


def one_line(res, fragment: str) -> None:
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], res.output


def rows(state) -> tuple[int, int]:
    with Session(open_engine(f"sqlite:///{state / 'ledger.db'}")) as s:
        return len(s.exec(select(TableRow)).all()), len(s.exec(select(DealerEventRow)).all())


@pytest.fixture
def state(tmp_path):
    st = tmp_path / "state"
    res = run("table", "create", "--name", "T", "--players", "alice,bob", "--setting", "deadline_hours=4",
              "--state", str(st))
    assert res.exit_code == 0, res.output
    return st


@pytest.mark.parametrize("pair, fragment", BAD)
def test_a_bad_setting_exits_2_with_the_same_line_from_create_and_set(state, pair, fragment):
    before = rows(state)
    created = run("table", "create", "--name", "U", "--players", "alice,bob", "--setting", "deadline_hours=4",
                  "--setting", pair, "--state", str(state))
    one_line(created, fragment)
    changed = run("table", "set", "--table", "T", pair, "--state", str(state))
    one_line(changed, fragment)
    assert created.output == changed.output
    assert rows(state) == before  # no table U, no settings event
    shown = run("table", "show", "--table", "T", "--state", str(state)).output
    assert "settings: deadline 4 h; 1 reminder;" in shown


def test_a_later_deadline_past_the_cap_is_refused_and_a_cap_may_equal_it(state):
    ok = run("table", "set", "--table", "T", "cap_hours=24", "--state", str(state))
    assert ok.exit_code == 0 and "deadline 4 h, at most 24 h;" in ok.output, ok.output
    one_line(run("table", "set", "--table", "T", "deadline_hours=30", "--state", str(state)),
             "cap_hours = 24 is shorter than deadline_hours = 30")
    ok = run("table", "set", "--table", "T", "deadline_hours=30", "cap_hours=none", "--state", str(state))
    assert ok.exit_code == 0 and "deadline 30 h; 1 reminder;" in ok.output, ok.output  # both at once
    ok = run("table", "set", "--table", "T", "deadline_hours=24", "cap_hours=24", "reminders=24",
             "--state", str(state))
    assert ok.exit_code == 0 and "deadline 24 h, at most 24 h; 24 reminders;" in ok.output, ok.output
    # Without a deadline a cap and reminders wait for one: nothing to compare them with.
    ok = run("table", "set", "--table", "T", "deadline_hours=none", "cap_hours=1", "--state", str(state))
    assert ok.exit_code == 0, ok.output


def test_the_rulesets_default_deadline_counts_against_a_cap(tmp_path):
    rules = copy_ruleset(tmp_path / "nlhe-6h", "roberts-nlhe")
    replace(rules, '[params.deadline_hours]\nvalue = "none"', "[params.deadline_hours]\nvalue = 6")
    st = tmp_path / "state"
    one_line(run("table", "create", "--name", "T", "--players", "alice,bob", "--ruleset", str(rules),
                 "--setting", "cap_hours=5", "--state", str(st)),
             "cap_hours = 5 is shorter than deadline_hours = 6")
    res = run("table", "create", "--name", "T", "--players", "alice,bob", "--ruleset", str(rules),
              "--setting", "cap_hours=6", "--state", str(st))
    assert res.exit_code == 0, res.output


def test_the_deadline_hours_option_is_a_usage_error_too(tmp_path):
    one_line(run("table", "create", "--name", "T", "--players", "alice,bob", "--deadline-hours", "-3",
                 "--state", str(tmp_path / "s")), "--deadline-hours must be a whole number from 1 to 87,840")


def test_a_stored_table_with_a_cap_below_its_deadline_still_replays():
    """The sense check belongs to the commands: the fold must still rebuild a table stored
    before the check existed."""
    old = settings_from({"deadline_hours": 6, "cap_hours": 2})
    assert (old.deadline_hours, old.cap_hours) == (6, 2)
    with pytest.raises(SettingsError):
        old.check_sense()
    TableSettings(deadline_hours=6, cap_hours=6, reminders=6).check_sense()
