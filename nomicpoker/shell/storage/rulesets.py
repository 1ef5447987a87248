"""Ruleset files (shell): a bundled ruleset by name (package data of ``nomicpoker.rules``) or a
``ruleset.toml`` by path, read from the disk and validated by the core
(:mod:`nomicpoker.core.rules.validate`, which says what is checked and how the content hash
is computed).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.rules.validate import (
    RulesetError,
    RulesetErrors,
    RulesetSource,
    build_ruleset,
    parse_toml,
    text_file_name,
)

_PACKAGE = "nomicpoker.rules"


@dataclass(frozen=True)
class RulesetFiles:
    """A validated ruleset with the text it was built from: what a table pins (stores in the
    ledger) so that a later nomicpoker release, or an edit of the file, never changes the
    rules of a live table. ``toml`` and ``text`` are the files' exact contents (UTF-8, which
    the loader requires of both), so ``content_hash`` can be recomputed from them."""

    ruleset: Ruleset
    toml: str
    text: str
    origin: str  # where it was read: a bundled name or a path


def _read(toml_bytes: bytes, directory: Traversable, file: str) -> tuple[Ruleset, bytes]:
    doc = parse_toml(toml_bytes, file)
    name = text_file_name(doc)
    text: bytes | None = None
    text_label = ""
    if name is not None:
        t = directory.joinpath(*PurePosixPath(name).parts)
        text_label = str(t)
        text = t.read_bytes() if t.is_file() else None
    rs = build_ruleset(RulesetSource(file=file, toml=toml_bytes, text_file=text_label, text=text), doc)
    assert text is not None  # build_ruleset refuses a ruleset without its text
    return rs, text


def _load(toml_bytes: bytes, directory: Traversable, file: str) -> Ruleset:
    return _read(toml_bytes, directory, file)[0]


def _toml_path(path: str | Path) -> Path:
    p = Path(path).expanduser()
    if p.is_dir():
        p = p / "ruleset.toml"
    if not p.is_file():
        raise RulesetErrors([RulesetError(
            "missing_file", str(p), "", "no such file; give a ruleset.toml or a directory holding one")])
    return p


def load_ruleset_file(path: str | Path) -> Ruleset:
    """Load and validate a ruleset from a ``ruleset.toml`` path or a directory holding one.

    Raises :class:`RulesetErrors` (a :class:`RulesetError`) listing every problem."""
    p = _toml_path(path)
    return _load(p.read_bytes(), p.parent, str(p))


def read_ruleset(name_or_path: str | Path) -> RulesetFiles:
    """Like :func:`load_ruleset`, with the two files' contents, for pinning to a table.

    Raises what :func:`load_ruleset` raises."""
    if isinstance(name_or_path, Path) or _is_path(name_or_path):
        p = _toml_path(name_or_path)
        toml, directory, label = p.read_bytes(), p.parent, str(p)
    else:
        _check_bundled(name_or_path)
        directory = _bundled().joinpath(name_or_path)
        label = str(directory.joinpath("ruleset.toml"))
        toml = directory.joinpath("ruleset.toml").read_bytes()
    rs, text = _read(toml, directory, label)
    return RulesetFiles(rs, toml.decode("utf-8"), text.decode("utf-8"), str(name_or_path))


def _bundled() -> Traversable:
    """The folder of the bundled rulesets (package data of ``nomicpoker.rules``): the
    package's own directory when it is installed as files (always, with pip), else what
    ``importlib.resources`` finds (a zip import). Why not always ``importlib.resources``: it
    imports zipfile, tempfile and their compressors (~6 ms of the ~90 ms ``phh replay`` imports)."""
    package = import_module(_PACKAGE)
    where = getattr(package, "__file__", None)
    if where:
        root = Path(where).parent
        if root.is_dir():
            return root
    from importlib import resources

    return resources.files(_PACKAGE)


def _is_path(name_or_path: str) -> bool:
    """A path: a directory separator, ``.toml``, a leading ``.`` or ``~``, or a name that is an
    existing folder (``rules export --to rules-p1`` then ``table amend --ruleset rules-p1``:
    the folder the Dealer just wrote, never refused as an unknown bundled name). Anything
    else is a bundled ruleset's name."""
    s = name_or_path
    if "/" in s or "\\" in s or s.endswith(".toml") or s.startswith((".", "~")):
        return True
    try:
        return Path(s).is_dir()
    except (OSError, ValueError):  # a name no file system can hold is no folder
        return False


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with nomicpoker (package data of ``nomicpoker.rules``)."""
    root = _bundled()
    return sorted(
        d.name for d in root.iterdir() if d.is_dir() and d.joinpath("ruleset.toml").is_file()
    )


@functools.lru_cache(maxsize=None)
def _load_bundled(name: str) -> Ruleset:
    """Bundled rulesets are read-only package data, so one load per process is enough (the
    PHH replay starts thousands of hands)."""
    d = _bundled().joinpath(name)
    toml = d.joinpath("ruleset.toml")
    return _load(toml.read_bytes(), d, str(toml))


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A bundled ruleset by name (``"blognomic-2008"``, ``"roberts-nlhe"``), or a path to a
    ``ruleset.toml`` or a directory holding one (see :func:`_is_path` for which is which).

    Raises :class:`RulesetError` (code ``unknown_ruleset``) for an unknown name, and
    :class:`RulesetErrors` for a file that does not validate."""
    if isinstance(name_or_path, Path) or _is_path(name_or_path):
        return load_ruleset_file(name_or_path)
    _check_bundled(name_or_path)
    return _load_bundled(name_or_path)


def _check_bundled(name: str) -> None:
    if name not in bundled_rulesets():
        raise RulesetError(
            "unknown_ruleset", name, "",
            f"no bundled ruleset of that name; bundled: {', '.join(bundled_rulesets())} "
            "(or give a path to a ruleset.toml or its directory)")
