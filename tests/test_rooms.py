"""One room per concern: the fold's modules form no import cycle, the shell's rooms hold what
their names say, and a clock event of a kind the fold does not know is an error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nomicpoker.core.fold_run import fold_table
from nomicpoker.core.fold_types import DealerEvent, FoldError

from test_poll_fold_properties import CONFIG, START, build

PACKAGE = Path(__file__).resolve().parent.parent / "nomicpoker"


def _graph(folder: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the same folder it imports (any import, at any depth)."""
    names = {p.stem for p in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            mods = []
            if isinstance(node, ast.ImportFrom) and node.module:
                mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            for m in mods:
                if m.startswith(package + "."):
                    head = m[len(package) + 1:].split(".")[0]
                    if head in names and head != path.stem:
                        deps.add(head)
        graph[path.stem] = deps
    return graph


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


@pytest.mark.parametrize("room", ["core", "shell"])
def test_no_import_cycle_among_the_modules_of_a_room(room):
    """``adjudicator`` and ``draws`` used to import each other; the draw phase now declares
    what it needs from its host (``DrawHost``) and the hand's state lives in ``fold_state``."""
    graph = _graph(PACKAGE / room, f"nomicpoker.{room}")
    assert "adjudicator" not in graph.get("draws", set()) or room != "core"
    assert _cycle(graph) is None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_poll_is_not_the_library():
    """``fold_for`` lives in ``replay``, the clock checks in ``deadlines``, sending in
    ``outbox``: the poll module only runs them."""
    from nomicpoker.shell import deadlines, outbox, poll, replay

    assert not hasattr(poll, "fold_for")
    assert callable(replay.fold_for) and callable(replay.adjudicate)
    assert callable(deadlines.record_due) and callable(outbox.send_outbox)
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "nomicpoker.shell.poll":
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
    (and, for the draw phase, declared in ``DrawHost``)."""
    assert _reaches_into(ast.parse("self.f._row(1)\nself._own()\nx.__class__")) == ["self.f._row"]
    found = {p.name: bad for p in sorted((PACKAGE / "core").glob("*.py"))
             if (bad := _reaches_into(ast.parse(p.read_text("utf-8"))))}
    assert found == {}


def test_the_draw_host_protocol_declares_what_the_draw_phase_uses_and_the_fold_has_it():
    from nomicpoker.core import adjudicator, draws

    tree = ast.parse((PACKAGE / "core" / "draws.py").read_text("utf-8"))
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Attribute) and n.value.attr == "host"}
    declared = {n for n in vars(draws.DrawHost) if not n.startswith("_")} | set(draws.DrawHost.__annotations__)
    assert used and used <= declared, used - declared
    assert not any(n.startswith("_") for n in declared)
    folder = adjudicator._Folder
    assert all(hasattr(folder, n) for n in declared - set(draws.DrawHost.__annotations__))
