"""Look-alike letters: read a comment the way the grammar must, and remember what was faked.

A nomic referee must not let ``rаise`` (with a Cyrillic ``а``) count as a raise: another
player reading the thread, or another program, may read it differently, and a dispute about
what a comment said is exactly what the Dealer exists to prevent. Nor may it silently ignore
it: the player plainly tried to act. So the grammar reads a *skeleton* of the text, in which
each character that imitates a Latin letter or digit is replaced by what it imitates, and
keeps the positions of every replaced character. An attempt found in the skeleton whose span
contains one is rejected with code ``lookalike``, naming the character.

WHY Unicode's own data, not a hand-written table: which characters imitate which is decided
by Unicode's security mechanisms (UTS #39, ``confusables.txt``), which covers every script
(Cherokee ``Ꭺ``, Coptic ``ⲟ``, Tifinagh ``ⵔ``, Lisu ``ꓲ`` ...) and is kept up to date with each
Unicode version. We read it through the ``confusable-homoglyphs`` package, which ships that
file as JSON (each pair ``source ; prototype`` recorded in both directions). NFKC adds the
compatibility forms (mathematical and fullwidth letters, ``ſ``, ligatures) and any decimal
digit of another script counts as the digit it is.

Silent normalisation, the one exception: fullwidth digits and punctuation (``２０``, ``＃``),
via NFKC, because they cannot spell a different command. Ordinary accented letters (``é``)
are not look-alikes: they stay as they are, so a town name in a deck checksum survives and an
accented command word is simply an unknown word.

Account names are compared through :func:`account_skeleton` (NFKC, casefold, the TR39
prototypes): two names with one skeleton look the same on the page.

Pure: no I/O beyond importing the package's data.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from nomicpoker.core.reading.invisibles import default_ignorable

_MARKS = "\u200e\u200f"  # the package wraps right-to-left characters in direction marks


def _prototypes() -> dict[str, str]:
    """TR39's mapping source -> prototype, recovered from the symmetric pair list.

    In ``confusables.txt`` a prototype is never itself a source (the mapping is idempotent),
    so a source is listed with exactly one partner (its prototype), and a character listed with
    two or more partners is a prototype. A pair where both sides have one partner is resolved
    towards the side that is ASCII, then the longer string, then the lower code point: only
    equality of skeletons matters, and either choice gives both sides one skeleton."""
    from confusable_homoglyphs.confusables import confusables_data as tr39_pairs

    pairs = {k.strip(_MARKS): [e["c"].strip(_MARKS) for e in v] for k, v in tr39_pairs.items()}
    proto: dict[str, str] = {}
    for k, partners in pairs.items():
        if len(k) != 1 or len(partners) != 1:
            continue
        p = partners[0]
        if len(pairs.get(p, ())) >= 2:
            proto[k] = p
            continue
        rank_k = (k.isascii(), len(k), -ord(k[0]))
        rank_p = (p.isascii(), len(p), -ord(p[0]) if p else 0)
        if rank_p > rank_k:
            proto[k] = p
    return proto


def _ascii_form(ch: str, prototypes: dict[str, str]) -> str | None:
    """The ASCII letter or digit a non-ASCII character imitates, if any."""
    for cand in (prototypes.get(ch), unicodedata.normalize("NFKC", ch)):
        if cand and cand.isascii() and cand.isalnum():
            return cand[0]
        if cand and len(cand) == 1 and cand in prototypes:  # a prototype's own prototype
            p = prototypes[cand]
            if p.isascii() and p.isalnum():
                return p[0]
    if unicodedata.category(ch) == "Nd":
        return str(unicodedata.digit(ch, 0))
    return None


def _grammar_table(prototypes: dict[str, str]) -> dict[int, str]:
    """Every non-ASCII character with an ASCII look-alike -> that letter or digit, as a
    :meth:`str.translate` table. Characters mapping to several letters (``ﬁ``) keep the first:
    the character is flagged whatever it maps to, so the choice only decides that an attempt
    is seen at all."""
    table: dict[int, str] = {}
    for cp in range(0x80, 0x30000):
        ch = chr(cp)
        if 0xD800 <= cp < 0xE000 or not (unicodedata.category(ch)[0] in "LNS"):
            continue
        a = _ascii_form(ch, prototypes)
        if a is not None:
            table[cp] = a
    return table


#: Fullwidth digits and punctuation: read silently (they cannot spell another command).
_SILENT = {cp: unicodedata.normalize("NFKC", chr(cp)) for cp in range(0xFF01, 0xFF5F)
           if not unicodedata.normalize("NFKC", chr(cp)).isalpha()}


@lru_cache(maxsize=None)
def _tables() -> tuple[dict[str, str], dict[int, str], dict[int, str]]:
    """(TR39 prototypes, the grammar's look-alike table, the skeleton table), built on first
    use. WHY lazily: building them walks every code point up to U+30000 (a few tenths of a
    second), which every ``nomicpoker`` process paid at import, an idle poll and ``--help``
    included, though only reading a comment or comparing names needs them."""
    prototypes = _prototypes()
    to_ascii = _grammar_table(prototypes)
    return prototypes, to_ascii, {**to_ascii, **_SILENT}


def __getattr__(name: str):
    """``PROTOTYPES`` (TR39 prototype of each source character: ``"Ꭺ" -> "A"``, ``"m" -> "rn"``,
    ``"0" -> "O"``), built on first use."""
    if name == "PROTOTYPES":
        return _tables()[0]
    raise AttributeError(name)
#: The mask alphabet: every flagged character becomes ``_FLAG`` (or ``_AMBIG`` when it imitates
#: one of the letters that look alike even in plain Latin, ``l i I 1 o O 0``), so runs and
#: neighbours are found by C-speed scans of a single character; the two sentinels themselves,
#: when typed, become ``_OTHER`` so that they are never mistaken for a flag.
_FLAG, _AMBIG, _OTHER = "\x00", "\x02", "\x01"
_RUN = re.compile("[\x00\x02]+")
_MARK_RUN = re.compile("\x00+")
_AMBIG_SPOT = re.compile("(?<=[A-Za-z0-9])\x02|\x02(?=[A-Za-z0-9])")


@dataclass(frozen=True)
class _Reader:
    """What :func:`skeleton` needs, built once: one ``str.translate`` table for the skeleton
    and two for masks in which the flagged characters (and the combining marks) are one
    sentinel character each. WHY masks and runs: the reading then costs Python work per *run*
    of flagged characters, not per character, and a regex over a class of thousands of
    look-alikes (slow for characters outside the BMP) is never run: issue 10 measured 10,000
    look-alike letters in a row at 25 ms when they were read letter by letter."""

    table: dict[int, str | None]
    flags: dict[int, str]   # flagged -> _FLAG or _AMBIG; the sentinels -> _OTHER
    marks: dict[int, str]   # combining marks -> _FLAG; the sentinels -> _OTHER


@lru_cache(maxsize=None)
def _reader() -> _Reader:
    to_ascii = _tables()[1]
    marks = [cp for r in (range(0x80, 0x30000), range(0xE0000, 0xE1000)) for cp in r
             if not 0xD800 <= cp < 0xE000 and unicodedata.category(chr(cp)).startswith("M")]
    space = [cp for cp in range(0x80, 0x3001) if chr(cp).isspace()]
    table: dict[int, str | None] = dict(to_ascii)
    table.update(dict.fromkeys(marks))
    table.update(_SILENT)
    table.update(dict.fromkeys(space, " "))
    sentinels = {ord(c): _OTHER for c in (_FLAG, _AMBIG)}
    flags = {cp: (_AMBIG if a in "liI1oO0" else _FLAG) for cp, a in to_ascii.items()
             if cp not in _SILENT and cp not in space}
    flags.update(dict.fromkeys(marks, _FLAG))
    flags.update(sentinels)
    return _Reader(table, flags, {**dict.fromkeys(marks, _FLAG), **sentinels})


@dataclass(frozen=True)
class Skeleton:
    """The text the grammar reads, and how it maps back to the visible text.

    ``runs`` are the visible-text spans of flagged characters (look-alikes and combining
    marks), sorted and disjoint; ``drops`` the spans of combining marks, which the skeleton
    leaves out (``cut`` is, for each, its start in skeleton coordinates and the total dropped
    through it). Everything else is one character in, one character out."""

    text: str                            # ASCII-ish text the grammar reads
    visible: str
    runs: tuple[tuple[int, int], ...] = ()
    drops: tuple[tuple[int, int], ...] = ()
    cut: tuple[tuple[int, int], ...] = ()
    mask: str = ""                       # visible, flagged characters as sentinels

    def ambiguous_spots(self) -> list[int]:
        """Skeleton indices of flagged look-alikes of ``l i I 1 o O 0`` next to a plain
        letter or digit (inside a Latin word), found by one scan of the mask."""
        if not self.drops:  # one character in, one out: mask and skeleton indices agree
            return [m.start() for m in _AMBIG_SPOT.finditer(self.mask)]
        out = dict.fromkeys(self.to_skeleton(m.start()) for m in _AMBIG_SPOT.finditer(self.mask))
        return [j for j in out if j < len(self.text)]

    def to_visible(self, j: int) -> int:
        """The visible-text index of skeleton index ``j`` (``len(visible)`` past the end)."""
        if j >= len(self.text):
            return len(self.visible)
        if not self.cut:
            return j
        k = bisect.bisect_right(self.cut, (j, len(self.visible) + 1))
        return j + (self.cut[k - 1][1] if k else 0)

    def to_skeleton(self, i: int) -> int:
        """The skeleton index of visible index ``i`` (a dropped mark: the next kept letter)."""
        if not self.drops:
            return i
        k = bisect.bisect_right(self.drops, (i, len(self.visible) + 1))
        if k and self.drops[k - 1][1] > i:  # inside a dropped run
            return self.drops[k - 1][0] - (self.cut[k - 2][1] if k > 1 else 0)
        return i - (self.cut[k - 1][1] if k else 0)

    def first_flagged(self, a: int, b: int) -> int | None:
        """The first flagged visible index in ``[a, b)``, if any (a search, not a scan)."""
        if a >= b:
            return None
        k = bisect.bisect_right(self.runs, (a, len(self.visible) + 1)) - 1
        if k >= 0 and self.runs[k][1] > a:
            return a
        if k + 1 < len(self.runs) and self.runs[k + 1][0] < b:
            return self.runs[k + 1][0]
        return None

    @property
    def flagged(self) -> dict[int, str]:
        """Visible index -> flagged character, every one (for tests and small texts: the
        grammar asks :meth:`first_flagged` and :attr:`runs` instead)."""
        return {i: self.visible[i] for a, b in self.runs for i in range(a, b)}


def skeleton(visible: str) -> Skeleton:
    """The skeleton of ``visible``: look-alikes replaced (and flagged), other whitespace made a
    space, combining marks dropped and flagged. One translate and one regex scan at C speed;
    Python work per *run* of flagged characters, never per character."""
    if visible.isascii():
        return Skeleton(visible, visible)
    r = _reader()
    mask = visible.translate(r.flags)
    runs = tuple(m.span() for m in _RUN.finditer(mask))
    text = visible.translate(r.table)
    if len(text) == len(visible):
        return Skeleton(text, visible, runs, mask=mask)
    drops = tuple(m.span() for m in _MARK_RUN.finditer(visible.translate(r.marks)))
    cut = []
    total = 0
    for a, b in drops:
        cut.append((a - total, total + b - a))
        total += b - a
    return Skeleton(text, visible, runs, drops, tuple(cut), mask)


def ascii_view(text: str) -> str:
    """The skeleton's text alone, at C speed (no positions): for a quick "could anything act
    here?" scan of text too long or too complex to read exactly."""
    return text.translate(_tables()[2])


@lru_cache(maxsize=None)
def _ignorable() -> dict[int, None]:
    """Default-ignorable code points (:func:`nomicpoker.core.reading.invisibles.default_ignorable`:
    format characters, variation selectors, the combining grapheme joiner, the Hangul and
    Mongolian fillers), which UTS #39 drops from a skeleton: ``bo\u200bb`` and ``\u202ebob``
    render as "bob". A dict, for :meth:`str.translate`."""
    return dict.fromkeys(default_ignorable())


def _name_view(name: str) -> str:
    """A name as the page shows it: no default-ignorable characters, and white space collapsed
    and trimmed as HTML renders it."""
    return " ".join(name.translate(_ignorable()).split())


def account_skeleton(name: str) -> str:
    """UTS #39 skeleton of an account name, made case-blind: invisible characters dropped and
    spaces collapsed (:func:`_name_view`), NFKC, casefold, every character to its prototype,
    then NFKC and casefold again. Two names with one skeleton look alike."""
    prototypes = _tables()[0]
    s = unicodedata.normalize("NFKC", _name_view(name)).casefold()
    s = "".join(prototypes.get(ch, ch) for ch in s)
    return unicodedata.normalize("NFKC", s).casefold()


def case_skeleton(name: str) -> str:
    """:func:`account_skeleton` with the prototypes taken *before* case is folded, as UTS #39
    takes them: ``I`` (capital i) is a prototype ``l``, so ``wiII`` looks like ``will``, which
    folding first (``wiii``) would hide. Two names look alike when either skeleton agrees."""
    prototypes = _tables()[0]
    s = unicodedata.normalize("NFKC", _name_view(name))
    s = "".join(prototypes.get(ch, ch) for ch in s)
    return unicodedata.normalize("NFKC", s).casefold()


def orig_span(sk: Skeleton, start: int, end: int) -> tuple[int, int]:
    """Visible-text span of a skeleton span (combining marks on the last letter included)."""
    if not sk.text:
        return 0, 0
    a = sk.to_visible(start)
    return a, max(a, sk.to_visible(end))


def describe_char(ch: str) -> str:
    """A character for a dealer reply: itself in quotes and its code point and name; an
    invisible one (which may reorder the reply's own line) only by its code point and name."""
    name = f'U+{ord(ch):04X} {unicodedata.name(ch, "UNNAMED CHARACTER")}'
    return f"an invisible {name}" if ord(ch) in _ignorable() else f'"{ch}" ({name})'


def first_lookalike(name: str) -> str | None:
    """The first character of ``name`` that is not plain but imitates something plain (a
    compatibility form, a TR39 source character outside ASCII), for telling a player why
    their account is not the seat it resembles."""
    prototypes = _tables()[0]
    for ch in name:
        if ord(ch) in _ignorable():
            return ch
        if not ch.isascii() and (unicodedata.normalize("NFKC", ch) != ch or ch in prototypes
                                 or ch.casefold() != ch.lower()):
            return ch
    return None
