"""The architecture, enforced: the core is pure and never imports the shell or an adapter.

DESIGN.md: "Core (pure, no I/O, no clock, no randomness of its own) ... Only the shell touches
the network, the disk, or the clock", and "the core never imports an adapter". A review can
miss one stray import; these tests read every core module's syntax tree (nothing is imported
or run) so a change that breaks the rule fails CI with the module and line that broke it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "nomicpoker"
ROOT = PACKAGE.parent

#: The functional core: values in, values out.
CORE = (
    "actions", "adjudicator", "betting", "cards", "dealing", "draws", "engine", "errors",
    "evaluator", "evaluator_tables", "fold_types", "gndt", "grammar", "hand", "intents",
    "lookalike", "markup", "notices", "phh", "pots", "printers", "render", "ruleset",
    "showdown", "tables_view", "verify",
)
#: The imperative shell: storage, the poll cycle, the CLI, the secrets folder, the ruleset
#: files, and the forum adapters (installed as ``nomicpoker.adapters``).
SHELL = (
    "adapters", "audit", "cli", "demo", "ledger", "paths", "poll", "rulesets", "secrets_store",
    "service", "store",
)
#: Standard-library and third-party modules that reach the disk, the network, the clock,
#: the process or a random source.
IMPURE_MODULES = frozenset({
    "os", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput", "subprocess",
    "socket", "ssl", "select", "signal", "threading", "multiprocessing", "asyncio",
    "urllib", "http", "requests", "httpx", "praw", "bs4", "sqlite3", "sqlalchemy", "sqlmodel",
    "filelock", "typer", "click", "logging", "time", "random", "secrets", "uuid",
    "importlib", "pickle", "shelve", "dbm", "webbrowser",
})
#: ``io`` is allowed for one in-memory use: :class:`io.StringIO` under the :mod:`csv` writer.
ALLOWED_NAMES = {("io", "StringIO")}
#: Builtins that read or write outside the process.
IMPURE_BUILTINS = frozenset({"open", "print", "input", "exec", "eval", "__import__", "breakpoint"})
#: Methods that read the clock (``datetime.now()``, ``date.today()``, ...).
CLOCK_METHODS = frozenset({"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"})


def _source(name: str) -> tuple[Path, ast.Module]:
    path = PACKAGE / f"{name}.py"
    return path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imports(tree: ast.Module) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, absolute-ish module, imported names) for every import, at any depth (a
    function-level or ``TYPE_CHECKING`` import counts: it is still a dependency)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append((node.lineno, alias.name, ()))
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            if node.level:
                base = "nomicpoker" if node.level == 1 else ""
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            out.append((node.lineno, module, names))
    return out


def _targets(module: str, names: tuple[str, ...]) -> list[str]:
    """The modules an import reaches: ``from . import engine`` reaches nomicpoker.engine."""
    if module == "nomicpoker":
        return [f"nomicpoker.{n}" for n in names]
    return [module]


def test_every_module_is_classified_as_core_or_shell():
    """A new module must be placed on one side, or the purity rule would silently skip it."""
    found = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    found |= {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    found.discard("rules")
    assert found - set(CORE) - set(SHELL) == set(), "classify the new module in tests/test_structure.py"
    assert set(CORE) & set(SHELL) == set()


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_no_shell_and_no_adapter(name):
    path, tree = _source(name)
    bad = []
    for line, module, names in _imports(tree):
        for target in _targets(module, names):
            parts = target.split(".")
            if parts[0] == "adapters" or (parts[0] == "nomicpoker" and len(parts) > 1 and parts[1] in SHELL):
                bad.append(f"{path.name}:{line} imports {target}")
    assert bad == []


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_no_io_clock_or_randomness(name):
    path, tree = _source(name)
    bad = []
    for line, module, names in _imports(tree):
        top = module.split(".")[0]
        if top in IMPURE_MODULES and not all((top, n) in ALLOWED_NAMES for n in names or ("*",)):
            bad.append(f"{path.name}:{line} imports {module}")
    assert bad == []


@pytest.mark.parametrize("name", CORE)
def test_core_module_calls_no_io_builtin_and_reads_no_clock(name):
    path, tree = _source(name)
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in IMPURE_BUILTINS:
            bad.append(f"{path.name}:{node.lineno} calls {f.id}()")
        elif isinstance(f, ast.Attribute) and f.attr in CLOCK_METHODS:
            bad.append(f"{path.name}:{node.lineno} calls .{f.attr}()")
    assert bad == []


def test_adapters_import_no_shell_module_but_paths():
    """Adapters sit at the edge: they may use core values and the state folder's layout
    (:mod:`nomicpoker.paths`), never the ledger or the poll cycle (which import them), so the
    dependency arrows all point inward."""
    allowed_shell = {"paths"}
    bad = []
    for path in sorted((ROOT / "adapters").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                parts = node.module.split(".")
                if parts[0] == "nomicpoker" and len(parts) > 1 and parts[1] in SHELL \
                        and parts[1] not in allowed_shell and parts[1] != "adapters":
                    bad.append(f"{path.name}:{node.lineno} imports {node.module}")
    assert bad == []


@pytest.mark.parametrize("path", sorted(p for d in ("nomicpoker", "adapters", "scripts")
                                        for p in (ROOT / d).rglob("*.py")), ids=lambda p: p.name)
def test_no_source_file_is_past_600_lines(path):
    """A file past ~600 lines is asking to be split (the team's code rules)."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


def test_every_shell_error_is_a_coded_error():
    """The CLI and the poll cycle turn any :class:`~nomicpoker.errors.CodedError` into one
    line; a shell exception outside that base would reach the Dealer as a traceback."""
    import importlib
    import inspect
    import pkgutil

    from nomicpoker.errors import CodedError

    names = [f"nomicpoker.{n}" for n in SHELL if n not in ("adapters", "cli")]
    for pkg in ("nomicpoker.adapters", "nomicpoker.cli"):
        mod = importlib.import_module(pkg)
        names += [f"{pkg}.{m.name}" for m in pkgutil.iter_modules(mod.__path__)]
    bad, seen = [], set()
    for name in names:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == name and issubclass(obj, Exception) \
                    and not attr.startswith("_"):
                seen.add(attr)
                if not issubclass(obj, CodedError):
                    bad.append(f"{name}.{attr}")
    assert {"ForumError", "RulesetError", "StoreError", "SecretsError", "PollError"} <= seen
    assert bad == []
