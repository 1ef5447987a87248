"""The tests are filed by level (docs/testing.md): every test file sits in tests/unit,
tests/integration, tests/e2e or tests/slow, whose conftest.py marks its tests with the level,
so ``pytest tests/unit`` and ``pytest -m unit`` run the same tests and a level's time is the
time of its folder. These checks read the test files' syntax trees (nothing is imported), and
each failure says where the file or the test goes.

The rules: no test file outside the four folders; no two test files of the same name (pytest
imports them by name); a ``slow`` test only in tests/slow; no level marker written in a file (its
folder gives it); no test module importing another (shared helpers live in the tests/_*.py
kits); and a unit test touches no database, server, process or network."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from _paths import LEVELS, TESTS

HOW = "by what it does (see docs/testing.md)"
#: what a unit test may not import, anywhere in its file: databases, processes, sockets and
#: servers, the CLI, the shell (but the two pure helpers below), and the kits that start them
UNIT_FORBIDDEN = ("sqlite3", "sqlalchemy", "sqlmodel", "alembic", "psycopg", "subprocess", "multiprocessing",
                  "socket", "socketserver", "http.server", "requests", "praw", "prawcore", "pytest_httpserver",
                  "typer", "nomicpoker.cli", "nomicpoker.__main__", "nomicpoker.shell", "nomicpoker.adapters.registry",
                  "_bot_kit", "_game_kit", "_cli_kit", "_crash_kit", "_mail_kit", "_irc_kit", "_ircd", "_pg_kit",
                  "_reddit_kit", "_sweep_hands", "_sweep_kit", "_browser", "_chromium", "_cdp", "_clock_kit",
                  "_safety_net_kit", "_public_record_kit")
#: the shell's modules a unit test may use: loading a bundled ruleset (a read of the checkout,
#: as a unit test may read its own fixtures) and the hand's secrets as a value
UNIT_ALLOWED = ("nomicpoker.shell.storage.rulesets", "nomicpoker.shell.storage.secrets_store")
#: the fixtures that start a server or a database
UNIT_FORBIDDEN_FIXTURES = {"httpserver", "pg_server", "ledger_url", "any_ledger", "ircd"}
#: unit files allowed more, and why
UNIT_EXEMPT = {"test_rooms.py": "imports the poll cycle's modules to check what each holds, and runs none"}


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if ".venv" not in p.parts)


def _rel(path: Path) -> str:
    return path.relative_to(TESTS.parent).as_posix()


def _level(path: Path) -> str | None:
    rel = path.relative_to(TESTS).parts
    return rel[0] if len(rel) == 2 and rel[0] in LEVELS else None


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [(node.lineno, node.module)]
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _marks(tree: ast.AST) -> list[tuple[int, str]]:
    """Every ``pytest.mark.NAME`` (or ``mark.NAME``) the file writes, with its line."""
    return [(n.lineno, n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, (ast.Attribute, ast.Name))
            and (n.value.attr if isinstance(n.value, ast.Attribute) else n.value.id) == "mark"]


def misplaced(files: list[Path]) -> list[str]:
    """The files outside the level folders, and the names used twice."""
    out = [f"{_rel(p)}: put it in tests/unit|integration|e2e|slow {HOW}" for p in files if _level(p) is None]
    twice = {n for n, k in Counter(p.name for p in files).items() if k > 1}
    out += [f"{_rel(p)}: another test file has its name ({p.name}); rename one (pytest imports test files "
            f"by name)" for p in files if p.name in twice]
    return out


def broken_rules(path: Path, src: str | None = None) -> list[str]:
    """What one test file (``src``: its text, read from ``path`` if not given) does against the
    rules of its level."""
    level, rel = _level(path), _rel(path)
    tree = ast.parse(path.read_text("utf-8") if src is None else src)
    out = []
    for line, mark in _marks(tree):
        if mark == "slow" and level != "slow":
            out.append(f"{rel}:{line}: a slow test goes in tests/slow (a CI-size run of it may stay here, "
                       f"unmarked) {HOW}")
        elif mark in LEVELS and mark != "slow":
            out.append(f"{rel}:{line}: pytest.mark.{mark}: the folder gives the level; remove the marker, and "
                       f"if {mark} is right, move the file to tests/{mark}")
    for line, name in _imports(tree):
        if name.split(".")[0].startswith("test_"):
            out.append(f"{rel}:{line}: imports the test module {name.split('.')[0]}: move what it shares into a "
                       f"tests/_*.py kit")
    if level == "unit" and path.name not in UNIT_EXEMPT:
        for line, name in _imports(tree):
            if _under(name, UNIT_FORBIDDEN) and not _under(name, UNIT_ALLOWED):
                out.append(f"{rel}:{line}: a unit test imports {name}: move the file (or this test) to "
                           f"tests/integration or tests/e2e {HOW}")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for arg in node.args.args:
                    if arg.arg in UNIT_FORBIDDEN_FIXTURES:
                        out.append(f"{rel}:{node.lineno}: {node.name} takes the fixture {arg.arg}: a unit test "
                                   f"starts no server or database; move it to tests/integration {HOW}")
    return sorted(set(out))


def test_every_test_file_is_in_a_level_folder_under_a_name_of_its_own():
    assert misplaced(_test_files()) == []


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_has_its_tests_and_the_conftest_that_marks_them(level):
    folder = TESTS / level
    assert (folder / "conftest.py").is_file() and "mark_level(__file__)" in (folder / "conftest.py").read_text()
    assert list(folder.glob("test_*.py"))


@pytest.mark.parametrize("path", _test_files(), ids=_rel)
def test_each_test_file_keeps_the_rules_of_its_level(path):
    assert broken_rules(path) == []


# --------------------------------------------------------------------------- the checks check

def test_a_new_test_file_at_the_root_is_told_where_to_go():
    new = TESTS / "test_new_feature.py"  # not written: misplaced() only looks at the path
    assert misplaced([new]) == [
        "tests/test_new_feature.py: put it in tests/unit|integration|e2e|slow by what it does "
        "(see docs/testing.md)"]
    deeper = TESTS / "unit" / "poker" / "test_x.py"
    assert misplaced([deeper, TESTS / "e2e" / "test_x.py"]) == [
        "tests/unit/poker/test_x.py: put it in tests/unit|integration|e2e|slow by what it does (see docs/testing.md)",
        "tests/unit/poker/test_x.py: another test file has its name (test_x.py); rename one (pytest imports "
        "test files by name)",
        "tests/e2e/test_x.py: another test file has its name (test_x.py); rename one (pytest imports test files "
        "by name)"]


def _broken(level: str, src: str) -> list[str]:
    """broken_rules() of ``src`` as if it were tests/LEVEL/test_scratch_level_check.py."""
    return broken_rules(TESTS / level / "test_scratch_level_check.py", src)


def test_a_slow_test_outside_tests_slow_a_level_marker_and_a_test_import_are_named():
    src = ("import pytest\nfrom test_other import helper\n\n"
           "@pytest.mark.slow\ndef test_a():\n    pass\n\n"
           "@pytest.mark.e2e\ndef test_b():\n    pass\n")
    assert _broken("integration", src) == [
        "tests/integration/test_scratch_level_check.py:2: imports the test module test_other: move what it "
        "shares into a tests/_*.py kit",
        "tests/integration/test_scratch_level_check.py:4: a slow test goes in tests/slow (a CI-size run of it "
        "may stay here, unmarked) by what it does (see docs/testing.md)",
        "tests/integration/test_scratch_level_check.py:8: pytest.mark.e2e: the folder gives the level; remove "
        "the marker, and if e2e is right, move the file to tests/e2e"]
    assert _broken("slow", "import pytest\n\n@pytest.mark.slow\ndef test_a():\n    pass\n") == []


def test_a_unit_test_that_opens_a_database_or_a_server_is_named():
    src = ("from nomicpoker.shell.storage.rulesets import load_ruleset\n"
           "from nomicpoker.shell.storage.secrets_store import HandSecrets\n\n"
           "def test_a(httpserver):\n    import sqlite3\n")
    assert _broken("unit", src) == [
        "tests/unit/test_scratch_level_check.py:4: test_a takes the fixture httpserver: a unit test starts no "
        "server or database; move it to tests/integration by what it does (see docs/testing.md)",
        "tests/unit/test_scratch_level_check.py:5: a unit test imports sqlite3: move the file (or this test) "
        "to tests/integration or tests/e2e by what it does (see docs/testing.md)"]
    assert _broken("integration", src) == []
