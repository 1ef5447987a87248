"""One room per concern: the fold's modules form no import cycle, the shell's rooms hold what
their names say, and a clock event of a kind the fold does not know is an error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import DealerEvent, FoldError

from kits.tables.fold import CONFIG, START, build
from _paths import ROOT

PACKAGE = ROOT / "nomicpoker"


#: The layers of each side, lowest first. A package may import the packages of the layers
#: below its own and the shared modules at its side's root, never a package of its own layer
#: or of a layer above (the ``__init__`` docstring of each package says the same in words).
LAYERS = {
    "core": (("rules",), ("poker",), ("reading", "fairness", "tournament"), ("table", "phh"), ("words",), ("fold",)),
    "shell": (("storage",), ("cycle",), ("audit", "dealer"), ("jobs", "tournament")),
}
ROOT_MODULES = {"core": {"errors"}, "shell": {"faults", "logs"}}


def _imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every module an import statement names, at any depth (a lazy
    import inside a function is still a dependency): ``from a.b import c`` names ``a.b``
    and ``a.b.c`` (``c`` may be a module)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.lineno, node.module)] + [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
    return out


def _graph(folder: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the same folder it imports (any import, at any depth)."""
    names = {p.stem for p in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        deps = set()
        for _line, m in _imported(path):
            if m.startswith(package + "."):
                head = m[len(package) + 1:].split(".")[0]
                if head in names and head != path.stem:
                    deps.add(head)
        graph[path.stem] = deps
    return graph


def _packages(side: str) -> list[str]:
    return sorted(p.parent.name for p in (PACKAGE / side).glob("*/__init__.py"))


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for d in sorted(graph.get(n, ())):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state and (found := visit(d)):
                return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n)):
            return found
    return None


@pytest.mark.parametrize("side", ["core", "shell"])
def test_every_package_has_its_place_in_the_layers(side):
    """A new package must be placed (and say what it may import) before it can hold code."""
    placed = [p for layer in LAYERS[side] for p in layer]
    assert sorted(placed) == _packages(side) and len(set(placed)) == len(placed)
    for name in placed:
        doc = ast.get_docstring(ast.parse((PACKAGE / side / name / "__init__.py").read_text("utf-8")))
        assert doc and "import" in doc, f"{side}/{name}/__init__.py must say what it holds and may import"


def _upward_imports(side: str, top: Path = PACKAGE) -> list[str]:
    """Every import in ``top/side`` of a package of the same layer or above (as ``file:line
    imports module``); a shared root module may import no package of its side."""
    rank = {p: i for i, layer in enumerate(LAYERS[side]) for p in layer}
    prefix = f"nomicpoker.{side}."
    bad = []
    for path in sorted((top / side).rglob("*.py")):
        rel = path.relative_to(top / side)
        own = rel.parts[0] if len(rel.parts) > 1 else None  # None: a shared root module
        for line, m in _imported(path):
            target = m[len(prefix):].split(".")[0] if m.startswith(prefix) else None
            if target in rank and target != own and (own is None or rank[target] >= rank[own]):
                bad.append(f"{rel.as_posix()}:{line} imports {m}")
    return sorted(set(bad))


@pytest.mark.parametrize("side", ["core", "shell"])
def test_no_package_imports_its_own_layer_or_one_above(side):
    """The layered order: ``poker`` never imports ``reading``, ``storage`` never ``cycle``,
    ``dealer`` and ``audit`` never each other; the shared root modules import no package."""
    assert _upward_imports(side) == []


def test_the_layer_check_sees_upward_sideways_and_root_imports(tmp_path):
    for rel, src in {"core/poker/x.py": "def f():\n    from nomicpoker.core.fold.adjudicator import fold\n",
                     "core/reading/y.py": "from nomicpoker.core import fairness\nfrom nomicpoker.core.poker import cards\n",
                     "core/errors.py": "import nomicpoker.core.rules.limits\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(src)
    assert _upward_imports("core", tmp_path) == [
        "errors.py:1 imports nomicpoker.core.rules.limits",
        "poker/x.py:2 imports nomicpoker.core.fold.adjudicator",
        "poker/x.py:2 imports nomicpoker.core.fold.adjudicator.fold",
        "reading/y.py:1 imports nomicpoker.core.fairness"]


@pytest.mark.parametrize("package", [f"{s}/{p}" for s in ("core", "shell") for p in _packages(s)]
                         + ["core", "shell", "cli"])
def test_no_import_cycle_among_the_modules_of_a_package(package):
    """``adjudicator`` and ``draws`` used to import each other; the draw phase is now a set of
    functions returning effects (tests/unit/fold/test_fold_effects.py) and the hand's state lives in
    ``table``."""
    graph = _graph(PACKAGE / package, "nomicpoker." + package.replace("/", "."))
    assert "adjudicator" not in graph.get("draws", set())
    assert _cycle(graph) is None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_poll_is_not_the_library():
    """``fold_for`` lives in ``replay``, the clock checks in ``deadlines``, sending in
    ``outbox``: the poll module only runs them."""
    from nomicpoker.shell.cycle import deadlines, outbox, replay
    from nomicpoker.shell.jobs import poll

    assert not hasattr(poll, "fold_for")
    assert callable(replay.fold_for) and callable(replay.adjudicate)
    assert callable(deadlines.record_due) and callable(outbox.send_outbox)
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "nomicpoker.shell.jobs.poll":
                names = {a.name for a in node.names}
                assert not names & {"fold_for", "update_table", "send_outbox", "archive"}, path


@pytest.mark.parametrize("kind", ["Timeout", "timeout ", "turn_timeout", "draw-timeout", ""])
def test_a_clock_event_of_an_unknown_kind_is_an_error_not_a_fold(kind):
    """It used to fold the player (any kind but ``draw_timeout`` was read as a turn timeout)."""
    revs, _ = build([])
    with pytest.raises(FoldError) as err:
        fold_table(CONFIG, [START], revs, [DealerEvent(len(revs), 1, kind, "alice", "2026-01-03T00:00:00+00:00")])
    assert err.value.code == "bad_event"
    assert repr(kind) in err.value.message


def test_the_known_clock_events_still_fold():
    revs, _ = build([])
    before = fold_table(CONFIG, [START], revs, [])
    to_act = before.current.to_act
    after = fold_table(CONFIG, [START], revs, [DealerEvent(len(revs), 1, "timeout", to_act,
                                                           "2026-01-03T00:00:00+00:00")])
    assert after.current.to_act != to_act


def _reaches_into(tree: ast.AST) -> list[str]:
    """``x._name`` where ``x`` is not ``self``/``cls``: one object using another's private name."""
    return [ast.unparse(n) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
            and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]


def test_no_room_of_the_fold_calls_another_objects_private_names():
    """The draw phase, play over days, dealer controls, advance actions and SCORE used to call
    the fold's ``_row``/``_post``/``_verdict``/... : what a room needs from its host is public
    (the phases written without a hub use none: tests/unit/fold/test_fold_effects.py)."""
    assert _reaches_into(ast.parse("self.f._row(1)\nself._own()\nx.__class__")) == ["self.f._row"]
    found = {p.name: bad for p in sorted((PACKAGE / "core").rglob("*.py"))
             if (bad := _reaches_into(ast.parse(p.read_text("utf-8"))))}
    assert found == {}


#: The composition root: the one module of the shell and the CLI that imports the adapters
#: (docs/architecture.md, "One composition root"); and the migration that filled the stored
#: abilities of the tables made before they were stored, once, at upgrade time.
COMPOSITION_ROOT = "nomicpoker.shell.cycle.forums"
ADAPTER_IMPORTERS = {"shell/cycle/forums.py", "shell/storage/migrations/versions/0012_table_abilities.py"}
#: What replays and audits a table: these read the table's abilities from the ledger.
REPLAY_AND_AUDIT = ("shell/cycle/replay.py", "shell/storage/*.py", "shell/audit/*.py", "core/**/*.py")


def _names_an_adapter(path: Path, also: tuple[str, ...] = ()) -> list[str]:
    """``line: module`` for every import in ``path`` of an adapter (``nomicpoker.adapters...``,
    or the source folder ``adapters...``) or of a module in ``also``."""
    return [f"{line}: {m}" for line, m in _imported(path)
            if m.split(".")[:2] == ["nomicpoker", "adapters"] or m.split(".")[0] == "adapters"
            or any(m == a or m.startswith(a + ".") for a in also)]


def _adapter_importers(top: Path = PACKAGE) -> set[str]:
    return {p.relative_to(top).as_posix() for p in top.rglob("*.py") if _names_an_adapter(p)}


def _replay_or_audit_reaching_adapters(top: Path = PACKAGE) -> dict[str, list[str]]:
    return {p.relative_to(top).as_posix(): bad for pattern in REPLAY_AND_AUDIT for p in sorted(top.glob(pattern))
            if (bad := _names_an_adapter(p, (COMPOSITION_ROOT,)))}


def test_only_the_composition_root_imports_an_adapter():
    """The shell used to import the adapters from seven files (``replay`` on every poll, the
    demo at the top, ``serve``, ``idle``, ``private_inbox``, ``service``, ``forums``) and the
    CLI from three more: a new forum touched all of them."""
    assert _adapter_importers() == ADAPTER_IMPORTERS


def test_replay_and_audit_import_neither_an_adapter_nor_the_composition_root():
    """Replay and audit fold under the abilities stored with the table (``np_table.abilities``),
    so an auditor's machine needs no forum adapter (tests/e2e/cycle/test_table_abilities.py runs audit
    in a process that cannot import one)."""
    assert _replay_or_audit_reaching_adapters() == {}


#: The adapters' source folder (installed as ``nomicpoker.adapters``).
ADAPTERS = ROOT / "adapters"


def _reaching_the_shell(top: Path = ADAPTERS) -> dict[str, list[str]]:
    """``path: [line: module]`` for every import in an adapter of the shell or the CLI."""
    return {p.relative_to(top).as_posix(): bad for p in sorted(top.rglob("*.py"))
            if (bad := [f"{line}: {m}" for line, m in _imported(p)
                        if m.split(".")[:2] in (["nomicpoker", "shell"], ["nomicpoker", "cli"])
                        or m.split(".")[0] in ("shell", "cli")])}


def test_the_adapters_import_neither_the_shell_nor_the_cli():
    """The shell opens forums through the composition root; an adapter that imported the shell
    back (``adapters/registry.py`` took the local forum's file name from ``shell.paths``) would
    tie the two rooms together both ways. What an adapter needs from a state folder is its own
    default (:func:`nomicpoker.adapters.local.state_forum_path`)."""
    assert _reaching_the_shell() == {}


def test_the_adapters_shell_check_sees_every_way_of_importing_it(tmp_path):
    for rel, src in {"registry.py": "def f():\n    from nomicpoker.shell.storage.paths import x\n",
                     "blog/a.py": "import nomicpoker.shell\n",
                     "b.py": "from nomicpoker.cli import options\n",
                     "c.py": "from nomicpoker import shell\n",
                     "fine.py": "from nomicpoker.ports import Forum\nfrom nomicpoker.core.reading import markup\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(src)
    assert sorted(_reaching_the_shell(tmp_path)) == ["b.py", "blog/a.py", "c.py", "registry.py"]


def test_the_adapter_checks_see_every_way_of_importing_one(tmp_path):
    for rel, src in {"shell/cycle/replay.py": "def f():\n    from nomicpoker.adapters.registry import declared_abilities\n",
                     "shell/audit/a.py": "import nomicpoker.adapters.local\n",
                     "shell/audit/b.py": "from nomicpoker.shell.cycle import forums\n",
                     "shell/storage/c.py": "from nomicpoker.shell.cycle.forums import forum_for\n",
                     "core/fold/d.py": "from adapters import registry\n",
                     "shell/dealer/e.py": "from nomicpoker import adapters\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(src)
    assert sorted(_replay_or_audit_reaching_adapters(tmp_path)) == [
        "core/fold/d.py", "shell/audit/a.py", "shell/audit/b.py", "shell/cycle/replay.py", "shell/storage/c.py"]
    assert _adapter_importers(tmp_path) == {"shell/cycle/replay.py", "shell/audit/a.py", "core/fold/d.py",
                                            "shell/dealer/e.py"}


def test_the_shell_and_the_local_adapter_name_the_same_forum_file(tmp_path):
    """The state folder's local forum file is named twice, once on each side of the rule
    above (the shell's paths for ``init`` and the tests, the adapter's own default)."""
    from nomicpoker.adapters.local import state_forum_path
    from nomicpoker.shell.storage.paths import forum_db_path

    assert forum_db_path(tmp_path) == state_forum_path(tmp_path) == tmp_path / "forum.db"
