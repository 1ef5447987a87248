"""Out-of-range numbers are refused by every door a Dealer can bring them through (issue 10):
not only ``table create`` and ``hand start`` but a custom ruleset file (``rules check``,
``rules show``, ``table create --ruleset``, ``table amend``) and the table settings that
``table set`` changes. Each refusal is one clear line per problem, exit 1, and nothing
written. The bounds are restated here from core/rules/limits.py's reasons, not imported."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.table.table_settings import SettingsError, TableSettings
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import DealerEventRow, RulesetRow, TableRow, open_engine

from kits.tables.bot import Table
from kits.tables.rulesets import copy_ruleset, replace

runner = CliRunner()
HUGE = "99999999999999999999"
TEN_YEARS = 24 * 366 * 10


def _set(d, param: str, old: str, new: str) -> None:
    replace(d, f"[params.{param}]\nvalue = {old}\n", f"[params.{param}]\nvalue = {new}\n")


BAD_FILES = [  # (bundled ruleset, parameter, value as in the file, the value to write)
    ("blognomic-2008", "deadline_hours", '"none"', HUGE),
    ("blognomic-2008", "deadline_hours", '"none"', str(TEN_YEARS + 1)),
    ("blognomic-2008", "deadline_hours", '"none"', "0"),
    ("blognomic-2008", "hole_cards", "2", HUGE),
    ("blognomic-2008", "hole_cards", "2", "3"),  # the draw is two DICE52: two hole cards
    ("blognomic-2008", "min_hole_cards", "1", "3"),  # more than the 2 hole cards
    ("roberts-nlhe", "hole_cards", "2", "9"),  # a reveal names at most 8 cards
    ("roberts-nlhe", "min_hole_cards", "0", "6"),  # a hand has five cards
    ("roberts-nlhe", "min_hole_cards", "0", HUGE),
]


def _bad_copy(tmp_path, name, param, old, new):
    d = copy_ruleset(tmp_path / "amended", name)
    _set(d, param, old, new)
    return d


def _errors(res) -> list[str]:
    return [ln for ln in res.output.splitlines() if "params." in ln]


@pytest.mark.parametrize("name,param,old,new", BAD_FILES)
def test_rules_check_and_show_refuse_an_out_of_range_parameter_in_one_line(tmp_path, name, param, old, new):
    d = _bad_copy(tmp_path, name, param, old, new)
    for cmd in ("check", "show"):
        res = runner.invoke(app, ["rules", cmd, str(d)])
        assert res.exit_code == 1 and "Traceback" not in res.output, res.output
        lines = _errors(res)
        assert len(lines) == 1 and f"params.{param}.value" in lines[0], res.output


@pytest.mark.parametrize("name,param,old,new", BAD_FILES)
def test_table_amend_refuses_an_out_of_range_ruleset_and_writes_nothing(tmp_path, name, param, old, new):
    t = Table(tmp_path / "t", players=("alice", "bob"), ruleset=name, issue_decks=False)
    before = _rows(t.engine)
    d = _bad_copy(tmp_path, name, param, old, new)
    res = runner.invoke(app, ["table", "amend", "--table", t.name, "--ruleset", str(d),
                              "--state", str(t.state)])
    assert res.exit_code == 1 and "Traceback" not in res.output, res.output
    assert len(_errors(res)) == 1 and f"params.{param}.value" in res.output
    assert _rows(t.engine) == before


@pytest.mark.parametrize("name,param,old,new", BAD_FILES[:4])
def test_table_create_refuses_an_out_of_range_ruleset_file_and_writes_nothing(tmp_path, name, param, old, new):
    d = _bad_copy(tmp_path, name, param, old, new)
    st = tmp_path / "state"
    res = runner.invoke(app, ["table", "create", "--name", "T", "--players", "alice,bob",
                              "--ruleset", str(d), "--state", str(st)])
    assert res.exit_code == 1 and "Traceback" not in res.output, res.output
    engine = open_engine(f"sqlite:///{st / 'ledger.db'}")
    assert _rows(engine) == (0, 0, 0)


def _rows(engine) -> tuple[int, int, int]:
    with Session(engine) as s:
        return tuple(len(s.exec(select(m)).all()) for m in (TableRow, RulesetRow, DealerEventRow))


def _shared_eight(tmp_path):
    d = copy_ruleset(tmp_path / "eight", "roberts-nlhe")
    _set(d, "hole_cards", "2", "8")
    replace(d, 'name = "roberts-nlhe"', 'name = "roberts-eight"')
    return d


def test_a_shared_deck_that_cannot_hold_every_seat_is_refused_by_create_and_amend(tmp_path):
    """5 board cards + 6 seats x 8 hole cards = 53 > 52: no deal could be made."""
    d = _shared_eight(tmp_path)
    six = ["p1", "p2", "p3", "p4", "p5", "p6"]
    engine = open_engine(f"sqlite:///{tmp_path / 'a' / 'ledger.db'}")
    with pytest.raises(service.ServiceError) as e:
        service.create_table(engine, tmp_path / "a", "T", six, 100, ruleset=str(d))
    assert e.value.code == "bad_players" and "do not fit in one deck of 52" in str(e.value)
    assert _rows(engine) == (0, 0, 0)
    # five seats fit (5 + 40 = 45), so a six-seat table may not be amended to it
    t = Table(tmp_path / "t", players=tuple(six), ruleset="roberts-nlhe", issue_decks=False)
    before = _rows(t.engine)
    res = runner.invoke(app, ["table", "amend", "--table", t.name, "--ruleset", str(d), "--state", str(t.state)])
    assert res.exit_code == 1 and "do not fit in one deck" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
    assert _rows(t.engine) == before
    t5 = Table(tmp_path / "t5", players=tuple(six[:5]), ruleset="roberts-nlhe", issue_decks=False)
    res = runner.invoke(app, ["table", "amend", "--table", t5.name, "--ruleset", str(d), "--state", str(t5.state)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("setting,value", [
    ("deadline_hours", 10**20), ("deadline_hours", TEN_YEARS + 1), ("deadline_hours", 0),
    ("cap_hours", 10**20), ("reminders", 10**9), ("reminders", -1), ("max_timeouts", 10**20),
    ("flood_threshold", 10**20), ("flood_threshold", 0),
])
def test_table_settings_refuse_out_of_range_values_for_create_and_set(tmp_path, setting, value):
    """``table set`` changes settings through TableSettings.changed, table create through
    settings_from: both are refused with one line naming the setting and its range."""
    with pytest.raises(SettingsError) as e:
        TableSettings().changed({setting: value})
    msg = str(e.value)
    assert setting in msg and "\n" not in msg and re.search(r"from \d+ to [\d,]+", msg), msg
    engine = open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    with pytest.raises(SettingsError):
        service.create_table(engine, tmp_path, "T", ["alice", "bob"], 100, settings={setting: value})
    assert _rows(engine) == (0, 0, 0)


@pytest.mark.parametrize("setting,value", [("deadline_hours", TEN_YEARS), ("reminders", 24),
                                           ("max_timeouts", 1000), ("cap_hours", 1)])
def test_table_settings_accept_the_bounds_themselves(setting, value):
    assert getattr(TableSettings().changed({setting: value}), setting) == value
