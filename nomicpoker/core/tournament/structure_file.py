"""Validate a tournament structure file (core): TOML bytes into a
:class:`~nomicpoker.core.tournament.structure.Structure`, every problem reported at once.

The file is hand-written by the tournament director, so the reader is as strict and talkative
as the ruleset reader (:mod:`nomicpoker.core.rules.validate`): an unknown key (with the closest
known one), a wrong type, a value out of range, a level whose blinds go down, each named by its
dotted key (``levels[3].big_blind``) with what is allowed. Reading the file from the disk is the
shell's.

An example (docs/tournaments.md explains every key)::

    name = "wrgpt-style"
    title = "Our first tournament"
    ruleset = "roberts-nlhe"
    starting_money = 1500
    table_size = 9
    levels_by = "hands"       # or "days"
    level_length = 20         # hands (or days) per level
    breaking_order = "highest-first"
    vacation_hands_per_day = 10
    payouts = [500, 300, 200]

    [[levels]]
    small_blind = 10
    big_blind = 20

    [[levels]]
    ante = 5
    small_blind = 15
    big_blind = 30
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from typing import Any, Callable, Iterable

from nomicpoker.core.errors import FileError, FileErrors
from nomicpoker.core.rules.limits import MAX_CHIPS
from nomicpoker.core.tournament.structure import BREAKING_NAMES, MAX_TABLE_SIZE, MIN_TABLE_SIZE, Level, Structure

#: every top-level key, and those that must be there
TOP_KEYS: tuple[str, ...] = ("name", "title", "ruleset", "starting_money", "table_size", "levels_by",
                             "level_length", "levels", "breaking_order", "vacation_hands_per_day",
                             "start_on_vacation", "redraw_every_levels", "late_entry_levels", "payouts")
REQUIRED_KEYS: tuple[str, ...] = ("name", "title", "starting_money", "table_size", "levels_by",
                                  "level_length", "levels")
LEVEL_KEYS: tuple[str, ...] = ("ante", "small_blind", "big_blind")
#: the most levels, days or hands per level and table numbers a file may name (far beyond use)
MAX_LEVELS = 1000
MAX_LENGTH = 100_000

#: a tournament's name: its tables are named ``<name>-t1``, ... so it must make a table name
#: (letters, digits, '_' and '-', at most 40 characters with the ``-tN`` suffix)
MAX_NAME = 34
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

Report = Callable[[str, str, str], None]


class StructureError(FileError):
    """One problem with a structure file: ``code``, ``file``, ``key`` (dotted, e.g.
    ``levels[2].big_blind``; empty for the whole file) and a ``message`` saying what is allowed
    (the shared :class:`~nomicpoker.core.errors.FileError`).

    Codes: ``bad_toml``, ``unknown_key``, ``missing_key``, ``wrong_type``, ``bad_value``,
    ``unsupported`` (the structure asks what its ruleset cannot play)."""


class StructureErrors(FileErrors, StructureError):
    """Every problem found in one structure file, raised together (code ``invalid_structure``;
    iterate ``.errors``)."""

    ALL_CODE = "invalid_structure"


def structure_hash(toml_bytes: bytes) -> str:
    """sha256 of the file's exact bytes (``sha256sum structure.toml``): stored with the
    tournament so the structure it runs under can be checked like a pinned ruleset."""
    return hashlib.sha256(toml_bytes).hexdigest()


def parse_structure(toml_bytes: bytes, file: str = "structure.toml") -> Structure:
    """The :class:`Structure` the bytes describe, or :class:`StructureErrors` listing every
    problem."""
    try:
        doc = tomllib.loads(toml_bytes.decode("utf-8-sig"))  # -sig: a byte order mark (Notepad) is skipped
    except UnicodeDecodeError as e:
        raise StructureErrors([StructureError("bad_toml", file, "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    except tomllib.TOMLDecodeError as e:
        raise StructureErrors([StructureError("bad_toml", file, "", f"not valid TOML: {e}")]) from None
    return build_structure(doc, file)


def build_structure(doc: dict[str, Any], file: str) -> Structure:
    errs: list[StructureError] = []

    def err(code: str, key: str, message: str) -> None:
        errs.append(StructureError(code, file, key, message))

    for k in doc:
        if k not in TOP_KEYS:
            err("unknown_key", k, f"unknown key{_suggest(k, TOP_KEYS)}; allowed: {', '.join(TOP_KEYS)}")
    for k in REQUIRED_KEYS:
        if k not in doc:
            err("missing_key", k, _MISSING[k])
    v: dict[str, Any] = {}
    name = doc.get("name")
    if "name" in doc:
        if isinstance(name, str) and _NAME_RE.match(name) and len(name) <= MAX_NAME:
            v["name"] = name
        else:
            err("bad_value" if isinstance(name, str) else "wrong_type", "name",
                "must be lowercase letters, digits, '_' or '-', starting with a letter or digit, at most "
                f"{MAX_NAME} characters (its tables are named <name>-t1, ...; e.g. \"spring-open\"); "
                f"got {_show(name)}")
    for k, default in (("title", None), ("ruleset", "roberts-nlhe")):
        if k in doc:
            if isinstance(doc[k], str) and doc[k].strip() and not doc[k].isprintable():
                # a tab or a newline splits the one line a tournament takes in list and in posts
                err("bad_value", k, "must be one line of printable text (no tab, newline or control "
                    f"character); got {_show(doc[k])}")
            elif isinstance(doc[k], str) and doc[k].strip():
                v[k] = doc[k]
            else:
                err("wrong_type" if not isinstance(doc[k], str) else "bad_value", k,
                    f"must be a non-empty string; got {_show(doc[k])}")
        elif default is not None:
            v[k] = default
    _int(doc, "starting_money", 1, MAX_CHIPS, v, err)
    _int(doc, "table_size", MIN_TABLE_SIZE, MAX_TABLE_SIZE, v, err)
    _int(doc, "level_length", 1, MAX_LENGTH, v, err)
    if "levels_by" in doc:
        by = doc["levels_by"]
        if by in ("hands", "days"):
            v["levels_by"] = by
        else:
            err("bad_value" if isinstance(by, str) else "wrong_type", "levels_by",
                f'must be "hands" or "days" (blinds go up after each multiple of level_length hands, '
                f"or of level_length days); got {_show(by)}")
    if "levels" in doc:
        levels = _levels(doc["levels"], err)
        if levels is not None:
            v["levels"] = levels
    if "breaking_order" in doc:
        order = doc["breaking_order"]
        if isinstance(order, str):
            if order in BREAKING_NAMES:
                v["breaking_order"] = order
            else:
                err("bad_value", "breaking_order", f"must be {' or '.join(repr(n) for n in BREAKING_NAMES)}"
                    f" or a list of table numbers; got {_show(order)}")
        elif isinstance(order, list) and order and all(_is_int(t) and 1 <= t <= MAX_LENGTH for t in order):
            if len(set(order)) != len(order):
                dup = sorted({t for t in order if order.count(t) > 1})
                err("bad_value", "breaking_order", f"names table(s) {', '.join(map(str, dup))} more than once")
            else:
                v["breaking_order"] = tuple(order)
        else:
            err("wrong_type", "breaking_order", "must be \"highest-first\", \"lowest-first\" or a non-empty "
                f"list of table numbers from 1 (e.g. [3, 1, 2]); got {_show(order)}")
    if "vacation_hands_per_day" in doc:
        lim = doc["vacation_hands_per_day"]
        if lim == "none":
            v["vacation_hands_per_day"] = None
        else:
            _int(doc, "vacation_hands_per_day", 1, MAX_LENGTH, v, err, extra=', or "none" (no limit)')
    if "start_on_vacation" in doc:
        if isinstance(doc["start_on_vacation"], bool):
            v["start_on_vacation"] = doc["start_on_vacation"]
        else:
            err("wrong_type", "start_on_vacation", f"must be true or false; got {_show(doc['start_on_vacation'])}")
    _int(doc, "redraw_every_levels", 0, MAX_LEVELS, v, err, extra=" (0: never)")
    _int(doc, "late_entry_levels", 0, MAX_LEVELS, v, err, extra=" (0: no late entry)")
    if "payouts" in doc:
        pay = doc["payouts"]
        bad = ([i for i, p in enumerate(pay, start=1) if not (_is_int(p) and 0 <= p <= MAX_CHIPS)]
               if isinstance(pay, list) else [])
        if not isinstance(pay, list):
            err("wrong_type", "payouts", "must be a list of whole numbers from 0, the prize of 1st, 2nd, ... "
                f"place (e.g. [500, 300, 200]); got {_show(pay)}")
        elif bad:
            for i in bad:  # each bad prize named by its place
                err("bad_value" if _is_int(pay[i - 1]) else "wrong_type", f"payouts[{i}]",
                    f"must be a whole number from 0 to {MAX_CHIPS}; got {_show(pay[i - 1])}")
        elif any(b > a for a, b in zip(pay, pay[1:])):
            i = next(i for i, (a, b) in enumerate(zip(pay, pay[1:])) if b > a)
            err("bad_value", "payouts", f"place {i + 2} ({pay[i + 1]}) pays more than place {i + 1} ({pay[i]}): "
                "a lower place may not pay more than a higher one")
        else:
            v["payouts"] = tuple(pay)
    if errs:
        raise StructureErrors(errs)
    return Structure(**v)


def _levels(raw: Any, err: Report) -> tuple[Level, ...] | None:
    if not isinstance(raw, list) or not raw or not all(isinstance(t, dict) for t in raw):
        err("wrong_type", "levels", "must be one or more [[levels]] tables, each with big_blind and "
            f"small_blind (and ante); got {_show(raw)}")
        return None
    if len(raw) > MAX_LEVELS:
        err("bad_value", "levels", f"{len(raw)} levels: at most {MAX_LEVELS}")
        return None
    out: list[Level] = []
    ok = True
    for i, table in enumerate(raw, start=1):
        key = f"levels[{i}]"
        for k in table:
            if k not in LEVEL_KEYS:
                err("unknown_key", f"{key}.{k}", f"unknown key{_suggest(k, LEVEL_KEYS)}; allowed: {', '.join(LEVEL_KEYS)}")
                ok = False
        amounts: dict[str, int] = {}
        for k in LEVEL_KEYS:
            got = table.get(k, 0)
            if not _is_int(got) or not 0 <= got <= MAX_CHIPS:
                err("wrong_type" if not _is_int(got) else "bad_value", f"{key}.{k}",
                    f"must be a whole number from 0 to {MAX_CHIPS}; got {_show(got)}")
                ok = False
            else:
                amounts[k] = got
        if len(amounts) < 3:
            continue
        sb, bb, ante = amounts["small_blind"], amounts["big_blind"], amounts["ante"]
        if bool(sb) != bool(bb):
            err("bad_value", f"{key}.{'small_blind' if not sb else 'big_blind'}",
                f"small_blind = {sb} and big_blind = {bb}: give both blinds, or neither")
            ok = False
        elif sb > bb:
            err("bad_value", f"{key}.small_blind", f"small_blind = {sb} is above big_blind = {bb}")
            ok = False
        elif not (sb or bb or ante):
            err("bad_value", key, "no forced bet at all: give blinds, an ante or both")
            ok = False
        else:
            lv = Level(i, ante, sb, bb)
            if out and (lv.big_blind < out[-1].big_blind or lv.small_blind < out[-1].small_blind
                        or lv.ante < out[-1].ante):
                err("bad_value", key, f"{lv.describe()} is below {out[-1].describe()}: \"Antes and blinds go up "
                    "periodically\", never down")
                ok = False
            out.append(lv)
    return tuple(out) if ok else None


def check_against_ruleset(structure: Structure, blinds: bool, file: str = "structure.toml") -> None:
    """Refuse a structure whose levels the tournament's ruleset cannot play (blinds under a
    ruleset without blinds, such as blognomic-2008, where a level may set only an ante)."""
    if not blinds:
        bad = [lv.number for lv in structure.levels if lv.big_blind]
        if bad:
            raise StructureErrors([StructureError(
                "unsupported", file, f"levels[{bad[0]}].big_blind",
                f"ruleset {structure.ruleset} has no blinds: a level may set only an ante "
                f"(level(s) {', '.join(map(str, bad))} set blinds)")])


def _int(doc: dict[str, Any], key: str, lo: int, hi: int, v: dict[str, Any], err: Report, extra: str = "") -> None:
    if key not in doc:
        return
    got = doc[key]
    if not _is_int(got):
        err("wrong_type", key, f"must be a whole number from {lo} to {hi}{extra}; got {_show(got)}")
    elif not lo <= got <= hi:
        err("bad_value", key, f"must be a whole number from {lo} to {hi}{extra}; got {_show(got)}")
    else:
        v[key] = got


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_MISSING = {
    "name": 'missing; name the tournament, e.g. name = "spring-open"',
    "title": 'missing; a one-line title for the players, e.g. title = "Spring Open"',
    "starting_money": "missing; the chips every entrant starts with, e.g. starting_money = 1500",
    "table_size": "missing; the seats at each table, e.g. table_size = 9",
    "levels_by": 'missing; "hands" (blinds go up every level_length hands) or "days"',
    "level_length": "missing; how many hands (or days) each level lasts, e.g. level_length = 20",
    "levels": "missing; one [[levels]] table per level, with small_blind, big_blind and ante",
}


def _suggest(got: str, allowed: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(got, list(allowed), n=1)
    return f' "{got}" (did you mean "{close[0]}"?)' if close else f' "{got}"'


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):  # escaped as TOML writes it: a newline in a value keeps the error one line
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "an array"
    return repr(v)


__all__ = ["StructureError", "StructureErrors", "build_structure", "check_against_ruleset", "parse_structure",
           "structure_hash"]
