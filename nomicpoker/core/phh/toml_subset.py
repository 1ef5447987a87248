"""A fast reader for the subset of TOML that PHH files are written in, beside ``tomllib``.

Why: replaying a corpus of PHH files spent about half its time in ``tomllib`` (a general,
pure-Python TOML parser) on files that all look alike: one ``key = value`` per line, values
that are integers, floats, booleans, single-quoted strings or one-line arrays of them (the
shape pokerkit's writer and the Pluribus corpus use). :func:`loads_subset` reads exactly that
and answers ``None`` for anything else, so the caller falls back to ``tomllib``; it never
guesses. A test checks that it agrees with ``tomllib`` on every file of the shared corpus and
on generated texts inside and outside the subset.

The subset, line by line (blank lines allowed, no other line):

- ``key = value`` with a bare key (``A-Za-z0-9_-``), each key once, spaces around ``=``;
- a value: a decimal integer (``-12``, no leading zeros or underscores), a float of the form
  ``12.5``, ``true``/``false``, a literal string ``'...'`` (no ``'`` inside), or an array
  ``[a, b, ...]`` on one line whose items are all numbers or all literal strings, separated
  by ``, ``;
- nowhere a ``#`` (comment), a ``"`` (basic string), a ``[`` at the start of a line (table),
  a carriage return or another control character.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

#: one ``key = value`` line; the value holds no comment, basic string or control character
#: other than tab (a literal string may not hold them; CR is one, so CRLF files go to tomllib)
_LINE = re.compile(r"([A-Za-z0-9_-]+) = ([^\x00-\x08\x0a-\x1f\x7f#\"]+)")
_NUM = r"-?(?:0|[1-9][0-9]*)"
_INT = re.compile(_NUM)
_FLOAT = re.compile(_NUM + r"\.[0-9]+")
_INTS = re.compile(f"{_NUM}(?:, {_NUM})*")
_NUMS = re.compile(f"{_NUM}(?:\\.[0-9]+)?(?:, {_NUM}(?:\\.[0-9]+)?)*")


def _number(s: str) -> int | float | None:
    if _INT.fullmatch(s):
        return int(s)
    if _FLOAT.fullmatch(s):
        return float(s)
    return None


def _value(s: str, array: Callable[[Iterable[Any]], Any]) -> Any:
    """One value of the subset, or ``None`` when ``s`` is not one (never a valid value:
    TOML has no null); arrays built by ``array``."""
    c = s[0]
    if c == "'":
        if len(s) >= 2 and s[-1] == "'" and s.count("'") == 2:
            return s[1:-1]
        return None
    if c == "[":
        if s[-1] != "]":
            return None
        inner = s[1:-1]
        if not inner:
            return array(())
        if inner[0] == "'":
            if inner[-1] != "'":
                return None
            items = inner[1:-1].split("', '")
            # each item's own two quotes and no other: no item holds a quote
            return array(items) if inner.count("'") == 2 * len(items) else None
        if _INTS.fullmatch(inner):
            return array(map(int, inner.split(", ")))
        if _NUMS.fullmatch(inner):
            return array([float(x) if "." in x else int(x) for x in inner.split(", ")])
        return None
    if s == "true":
        return True
    if s == "false":
        return False
    return _number(s)


#: values already read, by their text, for callers that take immutable arrays (tuples): a
#: corpus repeats the same antes, blinds, stacks and variant in every file. Bounded: cleared
#: when full; values longer than :data:`_MEMO_TEXT` characters (actions) are not kept.
_MEMO: dict[str, Any] = {}
_MEMO_SIZE = 4096
_MEMO_TEXT = 80


def loads_subset(text: str, array: Callable[[Iterable[Any]], Any] = list) -> dict[str, Any] | None:
    """The table ``tomllib.loads(text)`` would give, when ``text`` is in the subset this
    module reads; ``None`` otherwise (then ask ``tomllib``, which also reports errors).
    Arrays are lists, as ``tomllib`` gives them, or whatever ``array`` builds (PHH parsing
    asks for tuples, which it keeps). With ``array=tuple`` every value is immutable, so a
    value read before from the same text is reused (:data:`_MEMO`); lists are always new."""
    d: dict[str, Any] = {}
    match = _LINE.fullmatch
    memo = _MEMO if array is tuple else None
    for line in text.split("\n"):
        if not line:
            continue
        m = match(line)
        if m is None:
            return None
        key, raw = m.groups()
        if key in d or raw[0] == " " or raw[-1] == " ":
            return None
        if memo is not None:
            v = memo.get(raw)
            if v is None:
                v = _value(raw, array)
                if v is None:
                    return None
                if len(raw) <= _MEMO_TEXT:
                    if len(memo) >= _MEMO_SIZE:
                        memo.clear()
                    memo[raw] = v
        else:
            v = _value(raw, array)
            if v is None:
                return None
        d[key] = v
    return d
