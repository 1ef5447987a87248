"""PHH files (shell): find them under the paths given, read them, replay every hand.

The command ``nomicpoker phh replay`` (:mod:`nomicpoker.cli.record.phh_cmd`) and the console entry
point's direct path for it (``nomicpoker/__main__``) both run :func:`replay_paths` and print
:func:`render_summary`. Parsing and replay are pure (:mod:`nomicpoker.core.phh.phh`). A malformed
file or an illegal action is reported with the file, the hand and the action index, and the
run goes on: one bad file in ten thousand must not hide the other results.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from nomicpoker.core.phh.phh import PhhError, PhhHand, ReplayOutcome, parse_phh, parse_phhs, replay
from nomicpoker.core.rules.ruleset import Ruleset


SUFFIXES = (".phh", ".phhs")


def _tree(top: str) -> list[str]:
    """Paths of the ``*.phh``/``*.phhs`` files under ``top`` in :class:`Path` order. What
    ``sorted(Path(top).rglob("*"))`` filtered by suffix and ``is_file()`` gives (symlinked
    directories not followed, unreadable ones skipped), from one ``scandir`` per directory:
    half the time of the ``rglob`` walk, which stats every file again."""
    found: list[str] = []
    dirs = [top]
    while dirs:
        d = dirs.pop()
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except PermissionError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                dirs.append(e.path)
            elif e.name.endswith(SUFFIXES) and e.name not in SUFFIXES and e.is_file():
                found.append(e.path)
    found.sort(key=lambda p: p.split(os.sep))
    return found


def phh_files(paths: Iterable[Path]) -> Iterator[str | Path]:
    """Files named on the command line, and ``*.phh``/``*.phhs`` under named directories
    (sorted, so runs are reproducible). A directory's files come as the strings ``Path``
    would print (no ``Path`` object per file: a tenth of a second over ten thousand files)."""
    for p in paths:
        if p.is_dir():
            top = str(p)
            found = _tree(top)
            yield from ([f[2:] for f in found] if top == "." else found)  # Path drops "./"
        else:
            yield p


_CHUNK = 1 << 16
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_bytes(path: str | os.PathLike[str], _open=os.open, _read=os.read, _close=os.close) -> bytes:
    """The whole file, through the descriptor calls: a file object per file (``open(path,
    "rb")`` builds a FileIO and a BufferedReader, and ``read()`` stats the file to size its
    buffer) costs twice the reading of a small PHH file. Reads until the end of the file (an
    empty read), whatever its size; raises OSError as ``open`` would."""
    fd = _open(path, _READ_FLAGS)
    try:
        data = _read(fd, _CHUNK)
        if data:
            more = _read(fd, _CHUNK)
            if more:
                parts = [data, more]
                while more:
                    more = _read(fd, _CHUNK)
                    parts.append(more)
                data = b"".join(parts)
    finally:
        _close(fd)
    return data


def load_hands(path: str | os.PathLike[str]) -> list[PhhHand]:
    """Read and parse one file (``.phhs``: every hand in it). Raises OSError,
    UnicodeDecodeError / PhhError. Read as bytes and decoded in one step, newlines translated
    as text mode would (a text-mode file object per file costs more than the decoding)."""
    text = read_bytes(path).decode("utf-8")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if os.path.splitext(path)[1] == ".phhs":
        return parse_phhs(text)
    return [parse_phh(text)]


@dataclass
class Summary:
    matched: int = 0
    mismatched: list[tuple[str, ReplayOutcome]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatched and not self.errors


def replay_paths(paths: Iterable[Path], ruleset: Ruleset, limit: int | None = None) -> Summary:
    """Replay every hand under ``paths``; ``limit`` stops after that many hands."""
    summary = Summary()
    count = 0
    for path in phh_files(paths):
        if limit is not None and count >= limit:
            break
        try:
            hands = load_hands(path)
        except (OSError, UnicodeDecodeError, PhhError) as e:
            summary.errors.append((str(path), f"cannot read: {e}"))
            count += 1
            continue
        for h in hands:
            if limit is not None and count >= limit:
                break
            count += 1
            where = f"{path}[{h.key}]" if h.key else str(path)
            o = replay(h, ruleset)
            if o.status == "matched":
                summary.matched += 1
            elif o.status == "mismatched":
                summary.mismatched.append((where, o))
            elif o.status == "skipped":
                summary.skipped.append((where, o.reason))
            else:
                at = f"action {o.action_index}: " if o.action_index is not None else ""
                summary.errors.append((where, at + o.reason))
    return summary


def render_summary(s: Summary, quiet: bool = False) -> str:
    lines = [f"matched {s.matched}, mismatched {len(s.mismatched)}, skipped {len(s.skipped)}, "
             f"errors {len(s.errors)}"]
    for where, o in s.mismatched:
        diff = ", ".join(f"{p} {d:+d}" for p, d in o.differences().items())
        lines.append(f"mismatch {where}: engine minus recorded: {diff}")
    for where, why in s.errors:
        lines.append(f"error {where}: {why}")
    if not quiet:
        for where, why in s.skipped:
            lines.append(f"skipped {where}: {why}")
    return "\n".join(lines)
