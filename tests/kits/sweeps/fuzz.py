"""The comment fuzzers of scripts/ (fuzz_comments.py, fuzz_fold.py) loaded as modules, for the
generator's check (tests/unit/house/test_fuzz_generator.py) and the fuzz runs (tests/slow)."""

from __future__ import annotations

import importlib.util
import sys

from _paths import ROOT

SCRIPT = ROOT / "scripts" / "fuzz_comments.py"


def fuzz():  # type: ignore[no-untyped-def]
    """scripts/fuzz_comments.py as a module."""
    spec = importlib.util.spec_from_file_location("fuzz_comments", SCRIPT)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["fuzz_comments"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def fold_fuzz():  # type: ignore[no-untyped-def]
    """scripts/fuzz_fold.py as a module."""
    spec = importlib.util.spec_from_file_location("fuzz_fold", SCRIPT.with_name("fuzz_fold.py"))
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    fuzz()  # fuzz_fold imports fuzz_comments by name
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod
