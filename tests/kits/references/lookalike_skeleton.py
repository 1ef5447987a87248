"""The look-alike skeleton as it was first written (per character, in Python), kept as the
reference the run-based :func:`nomicpoker.core.reading.lookalike.skeleton` must agree with: same
text, same mapping back to the visible text, same flagged characters, same spots inside Latin
words. Slow on purpose; for tests only."""

from __future__ import annotations

import re
import unicodedata

from nomicpoker.core.reading import lookalike

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def reference_skeleton(visible: str) -> tuple[str, tuple[int, ...], dict[int, str]]:
    """(text, origin: skeleton index -> visible index, flagged: visible index -> char)."""
    to_ascii = lookalike._tables()[1]
    silent = lookalike._SILENT
    chars = list(visible)
    flagged: dict[int, str] = {}
    drop: list[int] = []
    for m in _NON_ASCII.finditer(visible):
        i, ch = m.start(), m.group()
        o = ord(ch)
        if ch.isspace():
            chars[i] = " "
        elif o in silent:
            chars[i] = silent[o]
        elif unicodedata.category(ch).startswith("M"):
            flagged[i] = ch
            drop.append(i)
        elif o in to_ascii:
            flagged[i] = ch
            chars[i] = to_ascii[o]
    keep = [i for i in range(len(visible)) if i not in set(drop)]
    return "".join(chars[i] for i in keep), tuple(keep), flagged


def reference_spots(visible: str) -> list[int]:
    text, origin, flagged = reference_skeleton(visible)
    where = {i: j for j, i in enumerate(origin) if i in flagged}
    return sorted(j for i, j in where.items() if text[j] in "liI1oO0"
                  and ((i > 0 and visible[i - 1].isascii() and visible[i - 1].isalnum())
                       or (i + 1 < len(visible) and visible[i + 1].isascii() and visible[i + 1].isalnum())))
