"""Characters a reader cannot see: one definition for the comment reader and the name comparer.

Two places drop what a page does not show. :mod:`nomicpoker.core.reading.markup` drops it from a
comment before reading an action (``rai\\u200bse`` is "raise"), and
:mod:`nomicpoker.core.reading.lookalike` drops it from an account name before comparing names (UTS #39
drops default-ignorable code points from a skeleton: ``bo\\u200bb`` looks like "bob"). WHY one
module: the two sets were two walks over the code points that had to be kept in step by hand;
a character added to one and not the other would be invisible in a comment but not in a name.

The sets differ only where the two readers differ on purpose:

- :func:`format_characters` (every Unicode format character and variation selector) is what
  both drop; the comment reader keeps :data:`BIDI_CONTROLS` out of it (see
  :mod:`nomicpoker.core.reading.markup` for why).
- :func:`default_ignorable` adds the default-ignorable fillers that are letters or marks
  (combining grapheme joiner, Hangul and Mongolian fillers, Khmer inherent vowels): a name
  made of them shows nothing on the page, while in a comment they are mere text the grammar
  never reads as part of a word.

Both are built on first use (a walk over ~135,000 code points, tens of milliseconds), so a
command that never reads a comment or a name does not pay for them.

Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["BIDI_CONTROLS", "FILLERS", "format_characters", "default_ignorable"]

#: The explicit bidirectional controls (embeddings, overrides, isolates and their ends, UAX #9):
#: invisible, yet they reorder what readers see ("Trojan Source", CVE-2021-42574).
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

#: The default-ignorable code points that are not format characters or variation selectors:
#: the combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels and the
#: Mongolian free variation selectors (with U+180E, a format character, between them).
FILLERS = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x3164,
                     0xFFA0})


@lru_cache(maxsize=None)
def format_characters() -> frozenset[int]:
    """Every Unicode format character (category Cf: zero-width space and joiners, word joiner,
    BOM, soft hyphen, bidi marks and controls, tag characters) and variation selector
    (U+FE00–U+FE0F, U+E0100–U+E01EF). No format character lies outside the two planes walked."""
    return frozenset(cp for r in (range(0x20000), range(0xE0000, 0xE1000)) for cp in r
                     if unicodedata.category(chr(cp)) == "Cf"
                     or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF)


@lru_cache(maxsize=None)
def default_ignorable() -> frozenset[int]:
    """:func:`format_characters` and :data:`FILLERS`: what UTS #39 drops from a skeleton.
    That is every assigned code point of Unicode's Default_Ignorable_Code_Point property plus
    the few format characters the property leaves out (the prepended concatenation marks such
    as U+0600, the interlinear annotation and Egyptian hieroglyph format controls), which a
    name has no business holding (tests/unit/reading/test_invisibles.py pins both halves)."""
    return format_characters() | FILLERS
