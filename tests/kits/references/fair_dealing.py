"""The reference implementation of fair dealing, executed from docs/fair-dealing.md as written.

It shares no code with nomicpoker (it is hashlib and hmac in a few lines), so tests use it as
the independent computation of the cards a hand's published secrets must give."""

from __future__ import annotations

import re

from _paths import ROOT

DOC = ROOT / "docs" / "fair-dealing.md"


def load() -> dict:
    text = DOC.read_text(encoding="utf-8")
    after = text.split("<!-- reference-implementation -->", 1)[1]
    code = re.search(r"```python\n(.*?)```", after, re.DOTALL).group(1)
    ns: dict = {}
    exec(compile(code, str(DOC), "exec"), ns)
    return ns


REF = load()
