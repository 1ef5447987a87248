"""Look-alike letters: read a comment the way the grammar must, and remember what was faked.

A nomic referee must not let ``rаise`` (with a Cyrillic ``а``) count as a raise: another
player reading the thread, or another program, may read it differently, and a dispute about
what a comment said is exactly what the Dealer exists to prevent. Nor may it silently ignore
it: the player plainly tried to act. So the grammar reads a *skeleton* of the text, in which
each letter that imitates a Latin letter or digit is replaced by what it imitates, and keeps
the positions of every replaced character. An attempt found in the skeleton whose span
contains one is rejected with code ``lookalike``, naming the character.

Silent normalisation, the one exception: fullwidth digits and punctuation (``２０``, ``＃``),
via NFKC, because they cannot spell a different command. Ordinary accented letters (``é``)
are not look-alikes: they stay as they are, so a town name in a deck checksum survives and an
accented command word is simply an unknown word.

Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: Letters from other scripts that render like a Latin letter (beyond what NFKC maps).
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l",
    "ԛ": "q", "ԝ": "w", "ү": "y", "ɡ": "g", "ո": "n", "ս": "u", "օ": "o", "զ": "q",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԁ": "D", "Һ": "H", "Ӏ": "I",
    "Ԛ": "Q", "Ԝ": "W", "Ү": "Y", "Ѵ": "V", "ѵ": "v",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Latin letters that imitate other Latin letters
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ʟ": "L", "ᴀ": "A", "ᴄ": "C", "ᴅ": "D", "ᴇ": "E",
    "ᴋ": "K", "ᴍ": "M", "ᴏ": "O", "ᴘ": "P", "ᴛ": "T", "ᴜ": "U", "ᴠ": "V", "ᴡ": "W", "ᴢ": "Z",
    "ʀ": "R", "ɪ": "I", "ɴ": "N", "ʜ": "H", "ꜱ": "S", "ƒ": "f", "ℓ": "l",
}


@dataclass(frozen=True)
class Skeleton:
    text: str                    # ASCII-ish text the grammar reads
    origin: tuple[int, ...]      # skeleton index -> index in the visible text
    flagged: dict[int, str]      # visible-text index -> look-alike character found there
    visible: str


def skeleton(visible: str) -> Skeleton:
    """The skeleton of ``visible``: look-alikes replaced, combining marks dropped and flagged."""
    chars: list[str] = []
    origin: list[int] = []
    flagged: dict[int, str] = {}
    for i, ch in enumerate(visible):
        o = ord(ch)
        if o < 128:
            chars.append(ch)
            origin.append(i)
            continue
        if ch.isspace():
            chars.append(" ")
            origin.append(i)
            continue
        if 0xFF01 <= o <= 0xFF5E:  # fullwidth ASCII block
            n = unicodedata.normalize("NFKC", ch)
            if not n.isalpha():  # digits and punctuation: silent
                chars.append(n)
                origin.append(i)
                continue
        if unicodedata.category(ch).startswith("M"):  # combining mark: decorates a letter
            flagged[i] = ch
            continue
        mapped = CONFUSABLES.get(ch)
        if mapped is None:
            n = unicodedata.normalize("NFKC", ch)
            if n.isascii() and n.isalnum():
                mapped = n
            elif unicodedata.category(ch) == "Nd":
                mapped = str(unicodedata.digit(ch, 0))
        if mapped:
            flagged[i] = ch
            for c in mapped:
                chars.append(c)
                origin.append(i)
        else:
            chars.append(ch)
            origin.append(i)
    return Skeleton("".join(chars), tuple(origin), flagged, visible)


def orig_span(sk: Skeleton, start: int, end: int) -> tuple[int, int]:
    """Visible-text span of a skeleton span (combining marks on the last letter included)."""
    if not sk.origin:
        return 0, 0
    a = sk.origin[start] if start < len(sk.origin) else len(sk.visible)
    b = sk.origin[end] if end < len(sk.origin) else len(sk.visible)
    return a, max(a, b)


def describe_char(ch: str) -> str:
    return f'"{ch}" (U+{ord(ch):04X} {unicodedata.name(ch, "UNNAMED CHARACTER")})'
