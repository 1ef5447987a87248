"""The two "invisible character" sets, pinned against sources that are not our code.

The comment reader (:mod:`nomicpoker.core.reading.markup`) drops characters a reader cannot see before
reading a comment; the name comparer (:mod:`nomicpoker.core.reading.lookalike`) drops UTS #39's
default-ignorable code points before comparing account names. Both are built from one
definition (:mod:`nomicpoker.core.reading.invisibles`); these tests derive each set independently, from
the Unicode Character Database's Default_Ignorable_Code_Point property (typed in below from
DerivedCoreProperties.txt, Unicode 14.0.0) and from :mod:`unicodedata`'s names and bidi
classes, so a change to the shared definition that moves a single code point fails here.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest

from nomicpoker.core.reading import invisibles, lookalike, markup

#: ``grep '; Default_Ignorable_Code_Point ' DerivedCoreProperties.txt`` (Unicode 14.0.0),
#: inclusive ranges. Reserved (unassigned) code points are in the property too.
DEFAULT_IGNORABLE_14 = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
#: Format characters (Cf) the UCD keeps OUT of Default_Ignorable_Code_Point (Unicode 14.0.0):
#: the prepended concatenation marks (they render: ARABIC NUMBER SIGN ...), the interlinear
#: annotation controls and the Egyptian hieroglyph format controls. Our sets drop them too.
FORMAT_NOT_IGNORABLE_14 = [
    (0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438),
]
#: The bidi classes of the explicit directional embeddings, overrides and isolates (UAX #9).
EXPLICIT_BIDI = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


def _expand(ranges: list[tuple[int, int]]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def _assigned(cps: set[int]) -> set[int]:
    return {cp for cp in cps if unicodedata.category(chr(cp)) != "Cn"}


def _scan() -> tuple[set[int], set[int], set[int]]:
    """Every code point's format characters, explicit bidi controls and variation selectors
    (by name: the Mongolian free variation selectors are fillers, not in this set), in one
    pass over all of Unicode (a name is looked up only for a mark, to keep it under a second)."""
    fmt, bidi, selectors = set(), set(), set()
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        category = unicodedata.category(ch)
        if category == "Cf":
            fmt.add(cp)
        if unicodedata.bidirectional(ch) in EXPLICIT_BIDI:
            bidi.add(cp)
        if category == "Mn" and unicodedata.name(ch, "").startswith("VARIATION SELECTOR-"):
            selectors.add(cp)
    return fmt, bidi, selectors


FORMAT, BIDI, SELECTORS = _scan()
IGNORABLE = _assigned(_expand(DEFAULT_IGNORABLE_14))


def test_the_bidi_controls_are_the_explicit_embeddings_overrides_and_isolates() -> None:
    assert set(map(ord, markup.BIDI_CONTROLS)) == BIDI == set(map(ord, invisibles.BIDI_CONTROLS))
    assert len(markup.BIDI_CONTROLS) == len(BIDI) == 9


def test_a_name_drops_every_assigned_default_ignorable_code_point_and_every_format_character(
) -> None:
    assert set(lookalike._ignorable()) == IGNORABLE | FORMAT
    assert set(lookalike._ignorable()) == set(invisibles.default_ignorable())


def test_a_comment_drops_format_characters_and_variation_selectors_but_keeps_bidi_controls(
) -> None:
    """A comment keeps the bidi controls (the grammar refuses an action beside one) and the
    fillers that are letters or marks (U+3164 HANGUL FILLER is a letter the grammar ignores
    anyway), and drops "\\r" so that "\\r\\n" reads as "\\n"."""
    assert set(markup._INVISIBLE) == (FORMAT | SELECTORS) - BIDI | {ord("\r")}
    assert set(markup._INVISIBLE) - {ord("\r")} == (
        set(invisibles.format_characters()) - set(map(ord, invisibles.BIDI_CONTROLS)))


def test_the_comment_set_is_the_name_set_without_the_fillers_and_the_bidi_controls() -> None:
    fillers = {cp for cp in IGNORABLE if unicodedata.category(chr(cp)) in ("Lo", "Mn")} - SELECTORS
    assert {unicodedata.name(chr(cp)).split()[0] for cp in fillers} == {
        "COMBINING", "HANGUL", "HALFWIDTH", "KHMER", "MONGOLIAN"}
    assert set(markup._INVISIBLE) == set(lookalike._ignorable()) - fillers - BIDI | {ord("\r")}


@pytest.mark.skipif(unicodedata.unidata_version != "14.0.0",
                    reason="the literal tables above are Unicode 14.0.0's (Python 3.11)")
def test_the_format_characters_outside_the_property_are_the_ones_the_ucd_names() -> None:
    """Pins the Cf half to the letter: the only format characters that are not
    default-ignorable are the ones DerivedCoreProperties.txt excludes by name."""
    assert FORMAT - _expand(DEFAULT_IGNORABLE_14) == _expand(FORMAT_NOT_IGNORABLE_14)
    assert set(lookalike._ignorable()) == IGNORABLE | _expand(FORMAT_NOT_IGNORABLE_14)
