"""The benchmarks' documentation is runnable on any machine (docs/benchmarks.md,
scripts/bench_*.py)."""

from __future__ import annotations

from _paths import ROOT


def test_no_machine_path_is_given_as_the_interpreter_in_the_benchmarks():
    """docs/benchmarks.md and the bench scripts' usage say ``python scripts/...`` (the
    project's venv active), not one machine's interpreter."""
    texts = [ROOT / "docs" / "benchmarks.md", *sorted((ROOT / "scripts").glob("bench_*.py"))]
    for path in texts:
        for line in path.read_text("utf-8").splitlines():
            assert "/work/" not in line and "/root/" not in line and "/home/" not in line, f"{path.name}: {line}"
