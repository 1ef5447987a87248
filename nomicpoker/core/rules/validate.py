"""Validate rulesets (core): a ``ruleset.toml`` and the rule text beside it, as bytes, into a
:class:`~nomicpoker.core.rules.ruleset.Ruleset`.

Rules change by proposal, so after a proposal passes the Dealer edits a copy of a ruleset and
points the table at it. That copy is hand-written TOML, so the loader is strict and talkative:
every unknown key, wrong value, missing parameter and citation that is not word for word in the
rule text is reported, all of them at once (a Dealer fixing an amended copy should see the whole
list, not one error per run), each naming the file, the key and what is allowed.

The parsing and validation (:func:`build_ruleset`, :func:`content_hash`) are pure functions of
the file bytes; reading the files (a path, or the bundled rulesets in the installed package
data) is the shell's (:mod:`nomicpoker.shell.storage.rulesets`).

Content hash (recorded with every hand, so an auditor can tell which rule text adjudicated it)::

    content_hash = sha256( hex(sha256(ruleset.toml bytes)) + "\\n" + hex(sha256(rule text bytes)) + "\\n" )

as lowercase hex, over the raw file bytes (no newline or encoding normalisation), so it can be
checked from a shell::

    printf '%s\\n%s\\n' "$(sha256sum ruleset.toml | cut -d' ' -f1)" \\
        "$(sha256sum rule.txt | cut -d' ' -f1)" | sha256sum
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator

from nomicpoker.core.errors import FileError, FileErrors
from nomicpoker.core.rules.limits import MAX_HOLE_CARDS, MAX_HOURS
from nomicpoker.core.rules.ruleset import (
    DEADLINE_NONE,
    OPTIONAL_PARAMS,
    OPTIONAL_SENTENCES,
    PARAM_NAMES,
    PARAM_SPECS,
    REJECTION_CODES,
    Citation,
    ParamSpec,
    Ruleset,
)

#: Keys allowed at the top level of a ruleset TOML, and which of them must be present.
TOP_KEYS: tuple[str, ...] = ("name", "title", "source", "text", "params", "rejections")
REQUIRED_TOP_KEYS: tuple[str, ...] = ("name", "title", "text", "params")
#: Keys allowed in a ``[params.<name>]`` table (``value`` and ``cite`` are required).
PARAM_KEYS: tuple[str, ...] = ("value", "cite", "note", "source")
#: Keys allowed in a ``[rejections.<code>]`` table (``cite`` is required).
REJECTION_KEYS: tuple[str, ...] = ("cite", "note", "source")

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})

#: ``err(code, key, message)``: how the validators report a problem without stopping.
Report = Callable[[str, str, str], None]


class RulesetError(FileError):
    """One problem with a ruleset: a stable ``code``, the ``file``, the ``key`` (dotted TOML
    path such as ``params.raise_amount.value``, empty for the whole file) and a ``message``
    that says what is allowed (the shared :class:`~nomicpoker.core.errors.FileError`).

    Codes: ``bad_toml``, ``missing_file``, ``unknown_ruleset``, ``unknown_key``,
    ``missing_key``, ``missing_param``, ``wrong_type``, ``bad_value``, ``missing_citation``,
    ``citation_not_in_text``, ``missing_text``, ``bad_text``, ``unsupported`` (a valid value
    the code does not implement).
    """


class RulesetErrors(FileErrors, RulesetError):
    """All the problems found in one ruleset file, raised together (code ``invalid_ruleset``).
    Catch :class:`RulesetError` to handle both, and iterate ``.errors`` to report each one."""

    ALL_CODE = "invalid_ruleset"


@dataclass(frozen=True)
class RulesetSource:
    """The bytes a ruleset is built from, and where they came from (for messages)."""

    file: str
    toml: bytes
    text_file: str
    text: bytes | None  # None: the text file is missing


# ------------------------------------------------------------------------------ pure core


def content_hash(toml_bytes: bytes, text_bytes: bytes) -> str:
    """The ruleset's content hash (see the module docstring for the exact recipe). Hashing
    the two file hashes, rather than the concatenated bytes, keeps the recipe unambiguous and
    reproducible with ``sha256sum``."""
    inner = (
        hashlib.sha256(toml_bytes).hexdigest() + "\n" + hashlib.sha256(text_bytes).hexdigest() + "\n"
    )
    return hashlib.sha256(inner.encode("ascii")).hexdigest()


def citable_text(text: str) -> str:
    """The rule text a citation is matched against: lines starting with ``#`` (the editorial
    header) removed and runs of whitespace collapsed to one space, so a citation may wrap
    differently from the text but can never match the editor's own words."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    return normalise(body)


def normalise(s: str) -> str:
    """Collapse runs of whitespace to single spaces and strip the ends."""
    return " ".join(s.split())


def parse_toml(toml_bytes: bytes, file: str) -> dict[str, Any]:
    """Decode and parse ruleset TOML, or raise a one-error :class:`RulesetErrors` (``bad_toml``)
    carrying the parser's line and column."""
    try:
        return tomllib.loads(toml_bytes.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RulesetErrors([RulesetError("bad_toml", file, "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    except tomllib.TOMLDecodeError as e:
        raise RulesetErrors([RulesetError("bad_toml", file, "", f"not valid TOML: {e}")]) from None


def text_file_name(doc: dict[str, Any]) -> str | None:
    """The rule text file the TOML names, if it names a usable relative path (else ``None``;
    :func:`build_ruleset` reports why)."""
    t = doc.get("text")
    if not isinstance(t, str) or not t.strip():
        return None
    p = PurePosixPath(t)
    if p.is_absolute() or ".." in p.parts or "\\" in t:
        return None
    return t


def build_ruleset(src: RulesetSource, doc: dict[str, Any]) -> Ruleset:
    """Validate a parsed ruleset TOML against the model and the rule text; return the
    :class:`Ruleset` or raise :class:`RulesetErrors` listing every problem found."""
    errs: list[RulesetError] = []
    file = src.file

    def err(code: str, key: str, message: str) -> None:
        errs.append(RulesetError(code, file, key, message))

    for k in doc:
        if k not in TOP_KEYS:
            err("unknown_key", k, f"unknown top-level key{_suggest(k, TOP_KEYS)}; allowed: {', '.join(TOP_KEYS)}")
    for k in REQUIRED_TOP_KEYS:
        if k not in doc:
            err("missing_key", k, _missing_top_message(k))

    name = doc.get("name")
    if "name" in doc and not (isinstance(name, str) and _NAME_RE.match(name)):
        err("bad_value" if isinstance(name, str) else "wrong_type", "name",
            "must be a string of lowercase letters, digits, '.', '_' or '-' starting with a letter or "
            f"digit (e.g. \"blognomic-2008-amended\"); got {_show(name)}")
    for k in ("title", "source"):
        if k in doc and not isinstance(doc[k], str):
            err("wrong_type", k, f"must be a string; got {_show(doc[k])}")
    if "text" in doc and text_file_name(doc) is None:
        err("bad_value" if isinstance(doc["text"], str) else "wrong_type", "text",
            "must be the name of the rule text file, relative to this file and inside its directory "
            f"(e.g. \"rule.txt\"); got {_show(doc['text'])}")

    text: str | None = None
    if text_file_name(doc) is not None:
        if src.text is None:
            err("missing_text", "text", f"rule text file {src.text_file} not found; it must sit next to the ruleset TOML")
        else:
            try:
                text = citable_text(src.text.decode("utf-8"))
            except UnicodeDecodeError as e:
                err("bad_text", "text", f"rule text file {src.text_file} is not UTF-8 ({e.reason} at byte {e.start})")
            else:
                if not text:
                    err("missing_text", "text", f"rule text file {src.text_file} holds no rule text (only '#' lines or blank)")
                    text = None

    values: dict[str, Any] = {}
    params: dict[str, Citation] = {}
    raw_params = doc.get("params")
    for pname, key, table in _sub_tables(doc, "params", "parameter", PARAM_NAMES, PARAM_KEYS, err):
        if "value" not in table:
            err("missing_key", f"{key}.value", f"missing; {pname} must be {PARAM_SPECS[pname].allowed()}")
        else:
            ok, v = _check_value(pname, PARAM_SPECS[pname], table["value"], f"{key}.value", err)
            if ok:
                values[pname] = v
        c = _citation(table, key, text, err)
        if c is not None:
            params[pname] = c
    _check_supported(values, err)
    for pname in PARAM_NAMES:  # (not when the whole [params] table is missing: said once above)
        if isinstance(raw_params, dict) and pname not in raw_params and pname not in OPTIONAL_PARAMS:
            err("missing_param", f"params.{pname}",
                f"missing; every parameter must be given: add [params.{pname}] with value "
                f"({PARAM_SPECS[pname].allowed()}) and cite (the rule sentence it encodes)")

    rejections: dict[str, Citation] = {}
    for code, key, table in _sub_tables(doc, "rejections", "rejection code", REJECTION_CODES,
                                        REJECTION_KEYS, err):
        c = _citation(table, key, text, err)
        if c is not None:
            rejections[code] = c

    if errs:
        raise RulesetErrors(errs)
    if values.get("deadline_hours", 0) == DEADLINE_NONE:
        values["deadline_hours"] = None
    for pname, default in OPTIONAL_PARAMS.items():  # left out: the value it had before it existed
        if pname not in values:
            values[pname] = default(values)
            sentence = OPTIONAL_SENTENCES.get(pname)
            if sentence is not None and text is not None and normalise(sentence) in text:  # the text decides it
                values[pname] = True
                params[pname] = Citation(sentence=normalise(sentence), source="the rule text",
                                         note="Left out of the ruleset file: the text holds the sentence.")
    assert src.text is not None  # no errors implies the text was read
    return Ruleset(
        name=name,
        title=doc["title"],
        source=doc.get("source", ""),
        content_hash=content_hash(src.toml, src.text),
        params=MappingProxyType({p: params[p] for p in PARAM_NAMES if p in params}),
        rejections=MappingProxyType({c: rejections[c] for c in REJECTION_CODES if c in rejections}),
        **values,
    )


def _check_supported(values: dict[str, Any], err: Report) -> None:
    """Refuse values the code does not implement, rather than load a ruleset that silently
    plays by other rules than it states (the engine and adjudicator read every other value).
    Why an error and not a warning: a Dealer's amendment that has no effect is worse than
    one refused with the reason."""
    per_player = values.get("deck", "per_player") == "per_player"
    holes = values.get("hole_cards")
    if per_player and holes is not None and holes != 2:
        err("unsupported", "params.hole_cards.value",
            f'{holes} is not implemented with deck = "per_player": the Hole Card Draw is two '
            'DICE52 results, so each player has 2 hole cards; only 2 is allowed (any number '
            f'from 1 to {MAX_HOLE_CARDS} with deck = "shared")')
    low = values.get("min_hole_cards")
    if low is not None and holes is not None and low > holes:
        err("bad_value", "params.min_hole_cards.value",
            f"{low} is more than the {holes} hole cards a player has: no hand could be made")
    if values.get("split_pots_separately") is False:
        err("unsupported", "params.split_pots_separately.value",
            "false is not implemented: the engine always splits each pot (main and side) on "
            "its own; only true is allowed")
    if values.get("five_of_a_kind") is False and per_player:
        err("unsupported", "params.five_of_a_kind.value",
            'false is not implemented with deck = "per_player": own decks can deal five of a '
            "kind and the evaluator always ranks it above a straight flush; only true is "
            'allowed (false only with deck = "shared", where it cannot occur)')
    small, big = values.get("small_blind", 0) or 0, values.get("big_blind", 0) or 0
    if (small or big) and values.get("blinds") is False:
        err("bad_value", "params.big_blind.value" if big else "params.small_blind.value",
            "blind amounts under blinds = false: a ruleset without blinds states an ante "
            "(forced_ante) or nothing")
    elif bool(small) != bool(big):
        err("bad_value", "params.small_blind.value" if not small else "params.big_blind.value",
            f"small_blind = {small} and big_blind = {big}: give both blinds, or neither")
    elif small > big:
        err("bad_value", "params.small_blind.value",
            f"small_blind = {small} is above big_blind = {big}: the small blind may not be above "
            "the big blind")
    if values.get("redraw_identical_dice") is False and per_player:
        err("unsupported", "params.redraw_identical_dice.value",
            'false is not implemented with deck = "per_player": the adjudicator always has a '
            "Hole Card Draw with identical results drawn again; only true is allowed")


def _missing_top_message(k: str) -> str:
    return {
        "name": 'missing; give the ruleset a name, e.g. name = "blognomic-2008-amended"',
        "title": "missing; give a one-line title for `rules show` and the ledger",
        "text": 'missing; name the rule text file next to this one, e.g. text = "rule.txt"',
        "params": "missing; every parameter needs a [params.<name>] table with value and cite",
    }[k]


def _sub_tables(doc: dict[str, Any], section: str, label: str, names: tuple[str, ...],
                keys: tuple[str, ...], err: Report) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(name, dotted key, table)`` for each well-formed ``[section.<name>]`` table; an unknown
    name, a non-table or an unknown key inside is reported (and the entry skipped, for the
    first two), so one pass finds every problem."""
    raw = doc.get(section, {})
    if not isinstance(raw, dict):
        placeholder = "<code>" if section == "rejections" else "<name>"
        err("wrong_type", section, f"must be a table of [{section}.{placeholder}] tables")
        return
    for name, table in raw.items():
        key = f"{section}.{name}"
        if name not in names:
            err("unknown_key", key, f"unknown {label}{_suggest(name, names)}; allowed: {', '.join(names)}")
            continue
        if not isinstance(table, dict):
            err("wrong_type", key, f"must be a table with keys {', '.join(keys)}; got {_show(table)}")
            continue
        _check_keys(table, key, keys, err)
        yield name, key, table


def _check_keys(table: dict[str, Any], key: str, allowed: tuple[str, ...], err: Report) -> None:
    for k in table:
        if k not in allowed:
            err("unknown_key", f"{key}.{k}", f"unknown key{_suggest(k, allowed)}; allowed: {', '.join(allowed)}")


def _check_value(pname: str, spec: ParamSpec, v: Any, key: str, err: Report) -> tuple[bool, Any]:
    """Check one parameter value against its spec; report and return ``(False, None)`` if bad."""
    allowed = f"{pname} must be {spec.allowed()}; got {_show(v)}"
    if spec.kind == "bool":
        if not isinstance(v, bool):
            err("wrong_type", key, allowed)
            return False, None
    elif spec.kind == "choice":
        if not isinstance(v, str):
            err("wrong_type", key, allowed)
            return False, None
        if v not in spec.choices:
            err("bad_value", key, allowed)
            return False, None
    elif spec.kind == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            err("wrong_type", key, allowed)
            return False, None
        if v < spec.minimum or (spec.maximum is not None and v > spec.maximum):
            err("bad_value", key, allowed)
            return False, None
    else:  # hours
        if isinstance(v, str):
            if v != DEADLINE_NONE:
                err("bad_value", key, allowed)
                return False, None
        elif isinstance(v, bool) or not isinstance(v, int):
            err("wrong_type", key, allowed)
            return False, None
        elif not 1 <= v <= MAX_HOURS:
            err("bad_value", key, allowed)
            return False, None
    return True, v


def _citation(table: dict[str, Any], key: str, text: str | None, err: Report) -> Citation | None:
    """The table's :class:`Citation`, checking that ``cite`` is a non-empty string found word
    for word in the rule text (``text`` is ``None`` when the text could not be read: the
    citation is then not checked, the missing text is reported once elsewhere)."""
    ok = True
    for k in ("note", "source"):
        if k in table and not isinstance(table[k], str):
            err("wrong_type", f"{key}.{k}", f"must be a string; got {_show(table[k])}")
            ok = False
    cite = table.get("cite")
    if cite is None or (isinstance(cite, str) and not cite.strip()):
        err("missing_citation", f"{key}.cite",
            "missing or empty; quote the sentence of the rule text this encodes, word for word")
        return None
    if not isinstance(cite, str):
        err("wrong_type", f"{key}.cite", f"must be a string quoting the rule text; got {_show(cite)}")
        return None
    sentence = normalise(cite)
    if text is not None and sentence not in text:
        err("citation_not_in_text", f"{key}.cite", _not_found_message(sentence, text))
        ok = False
    if not ok:
        return None
    return Citation(sentence=sentence, source=table.get("source", ""), note=normalise(table.get("note", "")))


def _not_found_message(sentence: str, text: str) -> str:
    """Say where the quotation departs from the rule text, so the fix is quick to find."""
    msg = "not found word for word in the rule text (whitespace aside)"
    if sentence.translate(_QUOTES) in text.translate(_QUOTES):
        return msg + "; only the quotation marks or apostrophes differ: copy them from the text (e.g. \u2019 \u201c \u201d)"
    lo, hi = 0, len(sentence)  # longest prefix of the sentence present in the text
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sentence[:mid] in text:
            lo = mid
        else:
            hi = mid - 1
    if lo >= 10:
        return msg + f"; it matches up to \u2026{sentence[max(0, lo - 30):lo]!r}, then has {sentence[lo:lo + 30]!r}"
    return msg


def _suggest(got: str, allowed: Iterable[str]) -> str:
    import difflib  # only when a value is wrong

    close = difflib.get_close_matches(got, list(allowed), n=1)
    return f' "{got}" (did you mean "{close[0]}"?)' if close else f' "{got}"'


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "an array"
    return repr(v)


@functools.lru_cache(maxsize=1024)
def ruleset_from_content(toml: str, text: str, label: str = "pinned ruleset") -> Ruleset:
    """Build a ruleset from stored contents (a table's pinned ruleset), validating it as
    :func:`load_ruleset_file` does. Cached: every poll folds every table under its pinned
    rulesets, and parsing TOML is the slow part. The label names the table, so each table
    has its entry: room for a tournament's hundreds of tables (at 64, a poll of 112 tables
    parsed every ruleset again, ~5 ms a table)."""
    tb = text.encode("utf-8")
    src = RulesetSource(file=label, toml=toml.encode("utf-8"), text_file=f"{label} (rule text)", text=tb)
    return build_ruleset(src, parse_toml(src.toml, label))
