"""``nomicpoker phh``: replay PHH hand histories through the hand engine.

Part of the shell: this module finds and reads the files; parsing and replay are pure
(:mod:`nomicpoker.core.phh`). A malformed file or an illegal action is reported with the file,
the hand and the action index, and the run goes on: one bad file in ten thousand must not
hide the other results.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Optional

import typer

from nomicpoker.core.phh import PhhError, PhhHand, ReplayOutcome, parse_phh, parse_phhs, replay
from nomicpoker.core.ruleset import Ruleset


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


def phh_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named on the command line, and ``*.phh``/``*.phhs`` under named directories
    (sorted, so runs are reproducible)."""
    for p in paths:
        if p.is_dir():
            yield from map(Path, _tree(str(p)))
        else:
            yield p


def load_hands(path: Path) -> list[PhhHand]:
    """Read and parse one file (``.phhs``: every hand in it). Raises OSError / PhhError."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.suffix == ".phhs":
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


def register(app: typer.Typer) -> None:
    """Add this group's commands to the main app."""
    phh = typer.Typer(name="phh", help="PHH hand histories: replay them through the engine.",
                      no_args_is_help=True)

    @phh.command("replay")
    def replay_cmd(
        files: list[Path] = typer.Argument(..., help="PHH files or directories (searched for *.phh, *.phhs)"),
        ruleset: str = typer.Option("roberts-nlhe", help="ruleset to adjudicate under"),
        limit: int = typer.Option(None, min=1, help="stop after this many hands"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="do not list skipped hands"),
    ) -> None:
        """Replay each hand and compare the engine's finishing Money with finishing_stacks.

        Exit code 0 when no hand mismatched or failed, 1 otherwise."""
        from nomicpoker.cli.bot_cmd import fail
        from nomicpoker.shell.rulesets import RulesetError, load_ruleset

        try:
            rs = load_ruleset(ruleset)
        except RulesetError as exc:  # before any hand is read: one line, exit 1
            fail(f"--ruleset {str(exc).splitlines()[0]}")
        summary = replay_paths(files, rs, limit)
        typer.echo(render_summary(summary, quiet))
        raise typer.Exit(0 if summary.ok else 1)

    @phh.command("export")
    def export_cmd(
        table: str = typer.Option(..., "--table", help="Table name."),
        hand: int = typer.Option(..., "--hand", help="Hand number."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to FILE instead of stdout."),
        state: Optional[str] = typer.Option(None, "--state", help="State directory (default ./state or NOMICPOKER_STATE)."),
        db: Optional[str] = typer.Option(None, "--db", help="Ledger database URL."),
    ) -> None:
        """Export a played hand as PHH (PokerKit reads it). roberts-nlhe hands are exact;
        blognomic-2008 hands are marked _nomicpoker_exact = false with what PHH cannot say."""
        from nomicpoker.cli.bot_cmd import fail, opened
        from nomicpoker.core.phh import write_phh
        from nomicpoker.core.phh_export import export_phh
        from nomicpoker.shell.audit import records
        from nomicpoker.shell.rulesets import load_ruleset

        with opened(state, db) as (_st, engine):
            rec = records(engine, table, hand)[0]
            try:
                text = write_phh(export_phh(rec, load_ruleset(rec["ruleset"])))
            except PhhError as exc:
                fail(f"hand {hand} of {table} cannot be written as PHH: {exc.message}")
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, "utf-8")
            typer.echo(f"wrote {output} (hand {hand} of {table})")

    app.add_typer(phh, name="phh")
