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

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

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
#: Characters the skeleton changes or drops, found with one regex scan.
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@dataclass(frozen=True)
class Skeleton:
    text: str                    # ASCII-ish text the grammar reads
    origin: tuple[int, ...]      # skeleton index -> index in the visible text
    flagged: dict[int, str]      # visible-text index -> look-alike character found there
    visible: str


def skeleton(visible: str) -> Skeleton:
    """The skeleton of ``visible``: look-alikes replaced (and flagged), other whitespace made a
    space, combining marks dropped and flagged. One character in, at most one out, so a
    skeleton index maps back by a table; the work is linear in the non-ASCII characters."""
    to_ascii = _tables()[1]
    chars = list(visible)
    flagged: dict[int, str] = {}
    drop: list[int] = []
    for m in _NON_ASCII.finditer(visible):
        i, ch = m.start(), m.group()
        o = ord(ch)
        if ch.isspace():
            chars[i] = " "
        elif o in _SILENT:
            chars[i] = _SILENT[o]
        elif unicodedata.category(ch).startswith("M"):  # combining mark: decorates a letter
            flagged[i] = ch
            drop.append(i)
        elif o in to_ascii:
            flagged[i] = ch
            chars[i] = to_ascii[o]
    if not drop:
        return Skeleton("".join(chars), tuple(range(len(visible))), flagged, visible)
    dropped = set(drop)
    keep = [i for i in range(len(visible)) if i not in dropped]
    return Skeleton("".join(chars[i] for i in keep), tuple(keep), flagged, visible)


def ascii_view(text: str) -> str:
    """The skeleton's text alone, at C speed (no positions): for a quick "could anything act
    here?" scan of text too long or too complex to read exactly."""
    return text.translate(_tables()[2])


def account_skeleton(name: str) -> str:
    """UTS #39 skeleton of an account name, made case-blind: NFKC, casefold, every character
    to its prototype, then NFKC and casefold again. Two names with one skeleton look alike."""
    prototypes = _tables()[0]
    s = unicodedata.normalize("NFKC", name).casefold()
    s = "".join(prototypes.get(ch, ch) for ch in s)
    return unicodedata.normalize("NFKC", s).casefold()


def orig_span(sk: Skeleton, start: int, end: int) -> tuple[int, int]:
    """Visible-text span of a skeleton span (combining marks on the last letter included)."""
    if not sk.origin:
        return 0, 0
    a = sk.origin[start] if start < len(sk.origin) else len(sk.visible)
    b = sk.origin[end] if end < len(sk.origin) else len(sk.visible)
    return a, max(a, b)


def describe_char(ch: str) -> str:
    return f'"{ch}" (U+{ord(ch):04X} {unicodedata.name(ch, "UNNAMED CHARACTER")})'


def first_lookalike(name: str) -> str | None:
    """The first character of ``name`` that is not plain but imitates something plain (a
    compatibility form, a TR39 source character outside ASCII), for telling a player why
    their account is not the seat it resembles."""
    prototypes = _tables()[0]
    for ch in name:
        if not ch.isascii() and (unicodedata.normalize("NFKC", ch) != ch or ch in prototypes
                                 or ch.casefold() != ch.lower()):
            return ch
    return None
