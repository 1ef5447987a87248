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

from _paths import ROOT

PACKAGE = ROOT / "nomicpoker"
ROOT = PACKAGE.parent
CORE_DIR = PACKAGE / "core"
SHELL_DIR = PACKAGE / "shell"

#: The functional core is whatever lives in ``nomicpoker/core/`` and its packages: the folder
#: says the side. Named by path inside the core (``poker/engine``).
CORE = sorted(p.relative_to(CORE_DIR).with_suffix("").as_posix() for p in CORE_DIR.rglob("*.py"))
#: The imperative shell: ``nomicpoker/shell/`` and its packages, the CLI, and the forum
#: adapters (installed as ``nomicpoker.adapters``). Dotted inside the shell (``cycle.replay``).
SHELL = sorted(".".join(p.relative_to(SHELL_DIR).with_suffix("").parts) for p in SHELL_DIR.rglob("*.py")
               if p.stem != "__init__")
#: The only modules kept at the root of the core and of the shell: shared by every package of
#: their side (the coded-error base; the crash points and the logging set-up). Anything else
#: belongs in the package of its concern.
ROOT_MODULES = {"core": {"errors"}, "shell": {"faults", "logs"}}
ADAPTERS_DIR = ROOT / "adapters"
#: Standard-library and third-party modules that reach the disk, the network, the clock,
#: the process or a random source.
IMPURE_MODULES = frozenset({
    "os", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput", "subprocess",
    "socket", "ssl", "select", "signal", "threading", "multiprocessing", "asyncio",
    "urllib", "http", "requests", "httpx", "praw", "bs4", "sqlite3", "sqlalchemy", "sqlmodel",
    "filelock", "typer", "click", "logging", "time", "random", "secrets", "uuid",
    "importlib", "pickle", "shelve", "dbm", "webbrowser",
})
#: ``io`` is allowed for one in-memory use: :class:`io.StringIO` under the :mod:`csv` writer;
#: ``pathlib`` for :class:`~pathlib.PurePosixPath` alone, path arithmetic that never touches a
#: disk (a ruleset's text file name must be relative and stay in its folder).
ALLOWED_NAMES = {("io", "StringIO"), ("pathlib", "PurePosixPath")}
#: Builtins that read or write outside the process.
IMPURE_BUILTINS = frozenset({"open", "print", "input", "exec", "eval", "__import__", "breakpoint"})
#: Methods that read the clock (``datetime.now()``, ``date.today()``, ...).
CLOCK_METHODS = frozenset({"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"})


def _source(name: str) -> tuple[Path, ast.Module]:
    path = CORE_DIR / f"{name}.py"  # name: a path inside the core, e.g. "poker/engine"
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
            if node.level:  # relative imports are not used; read as from a core package
                base = "nomicpoker.core" if node.level <= 2 else "nomicpoker"
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            out.append((node.lineno, module, names))
    return out


def _targets(module: str, names: tuple[str, ...]) -> list[str]:
    """The modules an import reaches: ``from . import engine`` reaches nomicpoker.core.poker.engine."""
    if module == "nomicpoker":
        return [f"nomicpoker.{n}" for n in names]
    return [module]


def test_the_top_of_the_package_holds_only_the_named_rooms():
    """The tree names the layers: a module dropped at the top of ``nomicpoker/`` would be on
    neither side, and the purity rule would silently skip it."""
    loose = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "ports.py", "__main__.py"}
    rooms = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert loose == set(), "put the new module in core/, shell/ or cli/"
    assert rooms == {"core", "shell", "cli"}
    assert CORE and SHELL


@pytest.mark.parametrize("side", ["core", "shell"])
def test_no_flat_module_is_left_at_the_root_of_the_core_or_the_shell(side):
    """Each module lives in the package of its concern (``core/poker/``, ``shell/cycle/``...;
    read the package's ``__init__`` docstring); only the shared modules stay at the root."""
    loose = {p.stem for p in (PACKAGE / side).glob("*.py")} - {"__init__"}
    assert loose == ROOT_MODULES[side], "put the new module in the package of its concern"


def test_every_package_is_in_the_wheel():
    """pyproject.toml lists the packages one by one (adapters/ and rules/ are installed under
    nomicpoker.*): a package left out of the list would be missing from the wheel."""
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = set()
    for top, dotted in (("nomicpoker", "nomicpoker"), ("adapters", "nomicpoker.adapters"),
                        ("rules", "nomicpoker.rules")):
        for init in (ROOT / top).rglob("__init__.py"):
            on_disk.add(".".join([dotted, *init.parent.relative_to(ROOT / top).parts]))
    data_only = {p for p in conf["packages"] if p.endswith(".profiles")}  # TOML files, no code
    assert set(conf["packages"]) - data_only == on_disk
    assert sorted((ROOT / "adapters" / "blog" / "profiles").glob("*.toml"))  # the data is there


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_only_the_core(name):
    """A core module may import the standard library, third-party pure code and other core
    modules, never the shell, the CLI, the ports or an adapter."""
    path, tree = _source(name)
    bad = []
    for line, module, names in _imports(tree):
        for target in _targets(module, names):
            parts = target.split(".")
            if parts[0] == "adapters" or (parts[0] == "nomicpoker" and (
                    len(parts) == 1 or parts[1] != "core")):
                bad.append(f"{path.name}:{line} imports {target}")
    assert bad == []


def test_the_ports_module_imports_only_the_core():
    """The port sits between the shell and the adapters: both import it, it imports neither."""
    path = PACKAGE / "ports.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [f"ports.py:{line} imports {module}" for line, module, _ in _imports(tree)
           if module.startswith(("nomicpoker.shell", "nomicpoker.cli", "nomicpoker.adapters"))
           or module.split(".")[0] in ("requests", "praw", "sqlmodel", "sqlalchemy")]
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
    (:mod:`nomicpoker.shell.storage.paths`), never the ledger or the poll cycle (which import them), so the
    dependency arrows all point inward."""
    allowed_shell = {"nomicpoker.shell.storage.paths"}
    bad = []
    for path in sorted(ADAPTERS_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module, names in _imports(tree):
            if module.startswith("nomicpoker.shell") and module not in allowed_shell \
                    and not (module == "nomicpoker.shell.storage" and set(names) <= {"paths"}):
                bad.append(f"{path.relative_to(ADAPTERS_DIR)}:{line} imports {module}")
    assert bad == []


@pytest.mark.parametrize("path", sorted(p for d in ("nomicpoker", "adapters", "scripts", "tests")
                                        for p in (ROOT / d).rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_file_is_past_600_lines(path):
    """A file past ~600 lines is asking to be split (the team's code rules)."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


def test_every_shell_error_is_a_coded_error():
    """The CLI and the poll cycle turn any :class:`~nomicpoker.core.errors.CodedError` into one
    line; a shell exception outside that base would reach the Dealer as a traceback."""
    import importlib
    import inspect
    import pkgutil

    from nomicpoker.core.errors import CodedError

    names = [f"nomicpoker.shell.{n}" for n in SHELL if not n.endswith("migrations.env")]
    names += ["nomicpoker.ports", "nomicpoker.core.rules.validate"]  # the ruleset files' errors
    for pkg in ("nomicpoker.adapters", "nomicpoker.cli"):
        mod = importlib.import_module(pkg)
        names += [m.name for m in pkgutil.walk_packages(mod.__path__, pkg + ".")]
    bad, seen = [], set()
    for name in names:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == name and issubclass(obj, Exception) \
                    and not attr.startswith("_"):
                seen.add(attr)
                if not issubclass(obj, CodedError):
                    bad.append(f"{name}.{attr}")
    assert {"ForumError", "RulesetError", "StoreError", "SecretsError", "ReplayError"} <= seen
    assert bad == []


FORUM_NAMES = frozenset({"local", "blognomic", "reddit", "email", "irc"})


def _forum_names_compared(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) for each forum name a comparison or a ``match`` tests against: ``==``,
    ``!=``, ``in ("reddit", ...)``, ``case "blognomic":``; a dict keyed by forum name counts
    too (``{"reddit": ...}[kind]`` is the same branch spelled as a lookup)."""
    def names(side: ast.AST) -> list[str]:
        if isinstance(side, ast.Constant) and side.value in FORUM_NAMES:
            return [side.value]
        if isinstance(side, (ast.Tuple, ast.List, ast.Set)):
            return [e.value for e in side.elts
                    if isinstance(e, ast.Constant) and e.value in FORUM_NAMES]
        return []

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            out += [(node.lineno, n) for side in [node.left, *node.comparators] for n in names(side)]
        elif isinstance(node, ast.MatchValue):
            out += [(node.lineno, n) for n in names(node.value)]
        elif isinstance(node, ast.Dict):
            out += [(node.lineno, n) for k in node.keys if k is not None for n in names(k)]
    return out


def test_the_forum_name_check_sees_every_spelling_of_the_branch():
    """The check below must fail on each way of branching on a name, not only ``==``."""
    for src in ('kind == "reddit"', '"blognomic" != kind', 'kind in ("local", "email")',
                'kind not in ["irc"]', 'match kind:\n    case "reddit": pass',
                'x = {"blognomic": 1}[kind]'):
        assert _forum_names_compared(ast.parse(src)), src
    assert _forum_names_compared(ast.parse('kind == "blognomic-2008"')) == []


@pytest.mark.parametrize("path", sorted([*PACKAGE.rglob("*.py"), *(ROOT / "scripts").glob("*.py")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_forum_name_is_compared_outside_the_adapters(path):
    """The shell, the CLI and the scripts branch on a forum's declared
    :class:`~nomicpoker.ports.Abilities`, never on its name (``forum_kind == "blognomic"``)
    nor on a ``getattr`` probe of the adapter."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [f"{path.name}:{line} compares with {name!r}" for line, name in _forum_names_compared(tree)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr") and node.args and \
                isinstance(node.args[0], ast.Name) and node.args[0].id in ("forum", "opened", "adapter"):
            bad.append(f"{path.name}:{node.lineno} probes the adapter with {node.func.id}()")
    assert bad == []


def test_adapters_read_reference_tags_through_the_port():
    """Reference tags are made and found in one place (:mod:`nomicpoker.core.words.tags`) and reach
    adapters through :mod:`nomicpoker.ports`: an adapter importing them from the renderer or
    the tags module directly would tie it to the core's layout instead of the port."""
    bad = []
    for path in sorted(ADAPTERS_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module, names in _imports(tree):
            if module in ("nomicpoker.core.words.render", "nomicpoker.core.words.tags") or (
                    module == "nomicpoker.core.words" and {"render", "tags"} & set(names)):
                bad.append(f"{path.relative_to(ADAPTERS_DIR)}:{line} imports {module}")
    assert bad == []
