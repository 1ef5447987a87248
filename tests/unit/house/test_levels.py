"""The tests are filed by level, then by concern (docs/testing.md): every test file sits in
tests/unit/<concern>/, tests/integration/<concern>/, tests/e2e/<concern>/ (the concerns mirror
the packages: poker, reading, fold, ... for the core's units; adapters, storage, ... for the
shell's parts; blog, irc, record, tournament, ... for whole games) or in tests/slow, whose
conftest.py marks its tests with the level, so ``pytest tests/unit`` and ``pytest -m unit`` run
the same tests and a level's time is the time of its folder. These checks read the test files'
syntax trees (nothing is imported), and each failure says where the file or the test goes.

The rules: no test file outside those folders; no concern folder over 16 test files (split it,
as a package would be); no two test files of the same name (pytest imports them by name); a
``slow`` test only in tests/slow; no level marker written in a file (its folder gives it); no
test module importing another (shared helpers live in the kits, tests/kits/); and a unit test
touches no database, server, process or network."""

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
                  "kits.servers", "kits.sweeps.sweep", "kits.sweeps.sweep_hands", "kits.sweeps.crash",
                  "kits.sweeps.safety_net", "kits.tables.bot", "kits.tables.game", "kits.tables.cli", "kits.tables.clock",
                  "kits.tables.public_record", "kits.tables.edition")
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


#: the most test files one concern folder holds (as for a package: a concern that needs more
#: is split into two)
MOST_PER_FOLDER = 16


def _level(path: Path) -> str | None:
    """The level of a test file filed where it belongs (tests/slow/test_x.py or
    tests/LEVEL/CONCERN/test_x.py), else None."""
    rel = path.relative_to(TESTS).parts
    if rel[0] == "slow":
        return "slow" if len(rel) == 2 else None
    return rel[0] if len(rel) == 3 and rel[0] in LEVELS else None


def _concerns(level: str) -> list[str]:
    """The concern folders a level has now (those with a test file)."""
    return sorted(d.name for d in (TESTS / level).iterdir() if d.is_dir() and any(d.glob("test_*.py")))


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
    out = []
    for p in files:
        if _level(p) is not None:
            continue
        rel = p.relative_to(TESTS).parts
        if rel[0] in LEVELS and rel[0] != "slow" and len(rel) == 2:
            out.append(f"{_rel(p)}: put it in a concern folder, tests/{rel[0]}/<concern>/ (now: "
                       f"{', '.join(_concerns(rel[0]))}; see docs/testing.md)")
        else:
            out.append(f"{_rel(p)}: put it in tests/unit|integration|e2e/<concern>/ or tests/slow {HOW}")
    crowded = Counter(p.parent for p in files if _level(p) not in (None, "slow"))
    out += [f"{_rel(folder)}: {k} test files, more than {MOST_PER_FOLDER}: split the concern in two (see "
            f"docs/testing.md)" for folder, k in sorted(crowded.items()) if k > MOST_PER_FOLDER]
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
                       f"kit in tests/kits/")
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
    assert list(folder.rglob("test_*.py"))


#: the only modules at the root of tests/: the root conftest, the paths and the order of the run
ROOT_MODULES = {"conftest.py", "_paths.py", "_schedule.py"}


def test_the_kits_are_filed_by_what_they_do_not_at_the_root():
    """A helper shared by test files is a kit in tests/kits/<tables|servers|sweeps|references>/,
    not a module at the root of tests/ (where 31 once lay side by side)."""
    loose = sorted(p.name for p in TESTS.glob("*.py") if p.name not in ROOT_MODULES)
    assert loose == [], f"move {loose} into tests/kits/ by what they do (see docs/testing.md)"
    groups = sorted(d.name for d in (TESTS / "kits").iterdir() if d.is_dir() and d.name != "__pycache__")
    assert groups == ["references", "servers", "sweeps", "tables"]
    for group in groups:
        assert (TESTS / "kits" / group / "__init__.py").read_text().startswith('"""')
        assert len(list((TESTS / "kits" / group).glob("*.py"))) <= MOST_PER_FOLDER + 1


def test_no_script_imports_a_test_module():
    """scripts/ (the benchmarks, the screenshots) may use the kits, never a test module: test
    modules move between folders (the screenshots script once broke so, silently)."""
    scripts = sorted((TESTS.parent / "scripts").glob("*.py"))
    assert scripts
    bad = [f"{_rel(p)}:{line}: {name}" for p in scripts for line, name in _imports(ast.parse(p.read_text("utf-8")))
           if name.split(".")[0].startswith("test_")]
    assert bad == [], "move what they use into a kit in tests/kits/"


@pytest.mark.parametrize("path", _test_files(), ids=_rel)
def test_each_test_file_keeps_the_rules_of_its_level(path):
    assert broken_rules(path) == []


# --------------------------------------------------------------------------- the checks check

def test_a_new_test_file_at_the_root_or_a_level_root_is_told_where_to_go():
    new = TESTS / "test_new_feature.py"  # not written: misplaced() only looks at the path
    assert misplaced([new]) == [
        "tests/test_new_feature.py: put it in tests/unit|integration|e2e/<concern>/ or tests/slow by what it "
        "does (see docs/testing.md)"]
    at_level_root = misplaced([TESTS / "e2e" / "test_new_feature.py"])
    assert len(at_level_root) == 1
    assert at_level_root[0].startswith("tests/e2e/test_new_feature.py: put it in a concern folder, "
                                       "tests/e2e/<concern>/ (now: ")
    assert "record" in at_level_root[0] and "tournament" in at_level_root[0]
    too_deep = TESTS / "unit" / "poker" / "more" / "test_x.py"
    assert misplaced([too_deep, TESTS / "slow" / "sweeps" / "test_y.py"]) == [
        "tests/unit/poker/more/test_x.py: put it in tests/unit|integration|e2e/<concern>/ or tests/slow by "
        "what it does (see docs/testing.md)",
        "tests/slow/sweeps/test_y.py: put it in tests/unit|integration|e2e/<concern>/ or tests/slow by what "
        "it does (see docs/testing.md)"]
    assert misplaced([TESTS / "unit" / "poker" / "test_x.py", TESTS / "e2e" / "hands" / "test_x.py"]) == [
        "tests/unit/poker/test_x.py: another test file has its name (test_x.py); rename one (pytest imports "
        "test files by name)",
        "tests/e2e/hands/test_x.py: another test file has its name (test_x.py); rename one (pytest imports "
        "test files by name)"]


def test_a_concern_folder_over_sixteen_files_is_told_to_split():
    crowded = [TESTS / "e2e" / "record" / f"test_x{i}.py" for i in range(MOST_PER_FOLDER + 1)]
    assert misplaced(crowded) == [
        f"tests/e2e/record: {MOST_PER_FOLDER + 1} test files, more than {MOST_PER_FOLDER}: split the concern in "
        "two (see docs/testing.md)"]
    assert misplaced(crowded[:-1]) == []


def _broken(level: str, src: str) -> list[str]:
    """broken_rules() of ``src`` as if it were tests/LEVEL/house/test_scratch_level_check.py
    (tests/slow/test_scratch_level_check.py for ``slow``)."""
    folder = TESTS / level if level == "slow" else TESTS / level / "house"
    return broken_rules(folder / "test_scratch_level_check.py", src)


def test_a_slow_test_outside_tests_slow_a_level_marker_and_a_test_import_are_named():
    src = ("import pytest\nfrom test_other import helper\n\n"
           "@pytest.mark.slow\ndef test_a():\n    pass\n\n"
           "@pytest.mark.e2e\ndef test_b():\n    pass\n")
    assert _broken("integration", src) == [
        "tests/integration/house/test_scratch_level_check.py:2: imports the test module test_other: move what it "
        "shares into a kit in tests/kits/",
        "tests/integration/house/test_scratch_level_check.py:4: a slow test goes in tests/slow (a CI-size run of it "
        "may stay here, unmarked) by what it does (see docs/testing.md)",
        "tests/integration/house/test_scratch_level_check.py:8: pytest.mark.e2e: the folder gives the level; remove "
        "the marker, and if e2e is right, move the file to tests/e2e"]
    assert _broken("slow", "import pytest\n\n@pytest.mark.slow\ndef test_a():\n    pass\n") == []


def test_a_unit_test_that_opens_a_database_or_a_server_is_named():
    src = ("from nomicpoker.shell.storage.rulesets import load_ruleset\n"
           "from nomicpoker.shell.storage.secrets_store import HandSecrets\n\n"
           "def test_a(httpserver):\n    import sqlite3\n")
    assert _broken("unit", src) == [
        "tests/unit/house/test_scratch_level_check.py:4: test_a takes the fixture httpserver: a unit test starts no "
        "server or database; move it to tests/integration by what it does (see docs/testing.md)",
        "tests/unit/house/test_scratch_level_check.py:5: a unit test imports sqlite3: move the file (or this test) "
        "to tests/integration or tests/e2e by what it does (see docs/testing.md)"]
    assert _broken("integration", src) == []
