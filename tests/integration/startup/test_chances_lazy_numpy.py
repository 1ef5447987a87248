"""The chances paragraph costs nothing until an equity is computed: a fresh interpreter that
imports the equity and chances modules has not loaded numpy (the paragraph itself:
tests/unit/poker/test_chances.py)."""

from __future__ import annotations

import subprocess
import sys


def test_numpy_is_loaded_only_when_an_equity_is_computed():
    """A process that computes no equity must not pay for numpy (~0.1 s to import)."""
    code = ("import sys, nomicpoker.core.poker.equity, nomicpoker.core.words.chances; "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
