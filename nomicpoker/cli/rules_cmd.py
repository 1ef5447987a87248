"""``nomicpoker rules``: list the bundled rulesets, show one, check a Dealer's amended copy.

Part of the shell: it only loads (via :mod:`nomicpoker.shell.rulesets`) and prints. ``check`` is what
a Dealer runs after editing a copy for a passed proposal, so it prints every problem at once,
one per line as ``file: key: message``, and exits 1; a clean file prints ``ok: <name> <hash>``.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import typer

from nomicpoker.core.ruleset import DEADLINE_NONE, PARAM_NAMES, Citation, Ruleset
from nomicpoker.shell.rulesets import RulesetError, bundled_rulesets, load_ruleset, load_ruleset_file


def format_value(value: object) -> str:
    """A parameter value as it is written in the TOML (``true``, ``"added"``, ``"none"``), so
    what ``rules show`` prints can be pasted into an amended copy."""
    if value is None:
        return f'"{DEADLINE_NONE}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _wrap(label: str, body: str, width: int) -> list[str]:
    indent = "    "
    first = f"{indent}{label}"
    return textwrap.wrap(
        body, width=width, initial_indent=first, subsequent_indent=" " * len(first),
        break_long_words=False, break_on_hyphens=False,
    )


def _citation_lines(c: Citation | None, width: int) -> list[str]:
    if c is None:
        return ["    rule: (no sentence recorded)"]
    src = f" ({c.source})" if c.source else ""
    lines = _wrap("rule: ", f"\u201c{c.sentence}\u201d{src}", width)
    if c.note:
        lines += _wrap("note: ", c.note, width)
    return lines


def render_ruleset(rs: Ruleset, width: int = 100) -> str:
    """The ``rules show`` text: header, then every parameter with its value, rule sentence and
    note, then the rejection codes with the sentence each one quotes."""
    out = [
        f"{rs.name}: {rs.title}",
        f"source: {rs.source}" if rs.source else "source: (not given)",
        f"hash:   {rs.content_hash}",
        "",
        "Parameters",
    ]
    for p in PARAM_NAMES:
        out.append(f"  {p} = {format_value(rs.value(p))}")
        out += _citation_lines(rs.params.get(p), width)
    out += ["", "Rejections (the sentence each rejection quotes)"]
    if not rs.rejections:
        out.append("  (none recorded)")
    for code, c in rs.rejections.items():
        out.append(f"  {code}")
        out += _citation_lines(c, width)
    return "\n".join(out)


def _fail(err: RulesetError) -> None:
    for e in err.errors:
        typer.echo(f"error: {e}", err=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` group (list, show, check) to the main app."""
    rules = typer.Typer(
        name="rules",
        help="Rulesets: the enacted rule text and the parameters read from it.",
        no_args_is_help=True,
    )

    @rules.command("list")
    def list_cmd() -> None:
        """List the bundled rulesets with their titles."""
        for name in bundled_rulesets():
            try:
                title = load_ruleset(name).title
            except RulesetError as e:  # a broken install: say so but keep listing
                title = f"(invalid: {e.errors[0].message})"
            typer.echo(f"{name}\t{title}")

    @rules.command("show")
    def show_cmd(
        name: str = typer.Argument(..., help="A bundled ruleset name, or a path to a ruleset.toml or its directory."),
    ) -> None:
        """Show a ruleset: name, title, source, content hash, and every parameter with its value,
        the rule sentence it encodes and how the sentence is read."""
        try:
            rs = load_ruleset(name)
        except RulesetError as e:
            _fail(e)
        width = min(shutil.get_terminal_size((100, 24)).columns, 100)
        typer.echo(render_ruleset(rs, width=max(width, 60)))

    @rules.command("check")
    def check_cmd(
        file: Path = typer.Argument(..., help="The ruleset.toml to check (or its directory)."),
    ) -> None:
        """Validate an amended ruleset: print "ok: <name> <hash>", or every error (one per line:
        file: key: message) and exit 1."""
        try:
            rs = load_ruleset_file(file)
        except RulesetError as e:
            for one in e.errors:
                typer.echo(str(one))
            typer.echo(f"rules check: {len(e.errors)} error(s)", err=True)
            raise typer.Exit(1)
        typer.echo(f"ok: {rs.name} {rs.content_hash}")

    app.add_typer(rules, name="rules")
