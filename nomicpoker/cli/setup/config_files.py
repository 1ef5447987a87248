"""A forum's config file as the Dealer writes it, JSON or TOML, for every command that reads
one (``table create --forum-config``, ``forum check --config``).

WHY one reader: the two commands each took one format (JSON for one, TOML for the other) and
refused the other's, so a file checked with ``forum check`` could not create the table it was
checked for. Both formats, the same keys (docs/forums.md), at the top level or under a
``[forum]`` table (``"forum"`` in JSON), with an optional ``kind``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from nomicpoker.cli.options import fail


def _parse(path: Path, text: str, option: str) -> Any:
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            return json.loads(text)
        except ValueError as exc:
            fail(f"{option} {path}: not valid JSON ({exc})")
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            fail(f"{option} {path}: not valid TOML ({exc})")
    try:  # another name: whichever of the two it is
        return json.loads(text)
    except ValueError as json_error:
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as toml_error:
            fail(f"{option} {path}: neither JSON ({json_error}) nor TOML ({toml_error})")


def read_forum_config(path: Path, option: str) -> tuple[str | None, dict[str, Any]]:
    """(kind or None, the other keys) of the forum config file at ``path``; one line and exit
    1 for a file that cannot be read or is not a JSON object / TOML document."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot read it: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{option} {path}: not a text file (UTF-8)")
    data = _parse(path, text, option)
    if not isinstance(data, dict):
        fail(f"{option} {path}: must hold a JSON object or a TOML document of forum settings")
    section = data.get("forum", data)
    if not isinstance(section, dict):
        fail(f"{option} {path}: [forum] must be a table of forum settings")
    section = dict(section)
    kind = section.pop("kind", None)
    if kind is not None and not isinstance(kind, str):
        fail(f"{option} {path}: kind must be a forum name (local, blognomic, reddit, irc, email)")
    return kind, section
