"""``nomicpoker rules``: list the bundled rulesets, show one, check a Dealer's amended copy,
diff two (or a table's pinned one against another).

Part of the shell: it only loads (via :mod:`nomicpoker.shell.storage.rulesets`) and prints. ``check`` is what
a Dealer runs after editing a copy for a passed proposal, so it prints every problem at once,
one per line as ``file: key: message``, and exits 1; a clean file prints ``ok: <name> <hash>``.
"""

from __future__ import annotations

import difflib
import shutil
import textwrap
from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.core.rules.ruleset import OPTIONAL_PARAMS, PARAM_NAMES, Citation, Ruleset
from nomicpoker.core.rules.ruleset_diff import diff_lines, toml_value
from nomicpoker.core.rules.validate import RulesetError
from nomicpoker.shell.storage.rulesets import (
    RulesetFiles, bundled_rulesets, load_ruleset, load_ruleset_file, read_ruleset,
)

#: A parameter value as it is written in the TOML (``true``, ``"added"``, ``"none"``), so what
#: ``rules show`` prints can be pasted into an amended copy.
format_value = toml_value


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
        if p in OPTIONAL_PARAMS and p not in rs.params:
            out.append("    rule: (optional, not in this ruleset's file: the value it had before "
                       "the parameter existed; docs/rulesets.md)")
            continue
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
    rules = options.Typer(
        name="rules",
        help="Rulesets: the enacted rule text and the parameters read from it.",
        no_args_is_help=True,
    )

    @rules.command("list", example='nomicpoker rules list')
    def list_cmd() -> None:
        """List the bundled rulesets with their titles."""
        for name in bundled_rulesets():
            try:
                title = load_ruleset(name).title
            except RulesetError as e:  # a broken install: say so but keep listing
                title = f"(invalid: {e.errors[0].message})"
            typer.echo(f"{name}\t{title}")

    @rules.command("show", example='nomicpoker rules show blognomic-2008')
    def show_cmd(
        name: Optional[str] = typer.Argument(None, help="A bundled ruleset name, or a path to a ruleset.toml or its directory (omit with --table)."),
        table: Optional[str] = typer.Option(None, "--table", help="Show the ruleset this table's next hand is played "
                                            "under, as pinned in its ledger (amendments included)."),
        hand: Optional[int] = typer.Option(None, "--hand", help="With --table: the ruleset this hand was played under."),
        state: Optional[str] = typer.Option(None, "--state", help="State directory (with --table)."),
        db: Optional[str] = typer.Option(None, "--db", help="Ledger database URL (with --table)."),
    ) -> None:
        """Show a ruleset: name, title, source, content hash, and every parameter with its value,
        the rule sentence it encodes and how the sentence is read."""
        if (name is None) == (table is None) or (hand is not None and table is None):
            typer.echo("error: give a ruleset (rules show NAME) or a table (rules show --table T "
                       "[--hand N])", err=True)
            raise typer.Exit(2)
        if table is None:  # no state to wait for: a log file that cannot be written stops it now
            from nomicpoker.cli.setup.bot_cmd import _open_log_file

            _open_log_file()
        try:
            rs = load_ruleset(name) if name is not None else _pinned_files(table, state, db, hand).ruleset
        except RulesetError as e:
            _fail(e)
        width = min(shutil.get_terminal_size((100, 24)).columns, 100)
        typer.echo(render_ruleset(rs, width=max(width, 60)))

    @rules.command("check", example='nomicpoker rules check ./proposal-42')
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

    @rules.command("diff", example='nomicpoker rules diff blognomic-2008 ./proposal-42')
    def diff_cmd(
        a: Optional[str] = typer.Argument(None, help="The old ruleset: a bundled name or a path (omit with --table)."),
        b: Optional[str] = typer.Argument(None, help="The new ruleset: a bundled name or a path."),
        table: Optional[str] = typer.Option(None, "--table", help="Compare the ruleset this table's next hand "
                                            "is played under (as pinned in the ledger) with the one given."),
        text: bool = typer.Option(False, "--text", help="Also show the rule text's changed lines."),
        state: Optional[str] = typer.Option(None, "--state", help="State directory (with --table)."),
        db: Optional[str] = typer.Option(None, "--db", help="Ledger database URL (with --table)."),
    ) -> None:
        """Show what changed between two rulesets, parameter by parameter, with the rule
        sentences each one cites, old and new."""
        given = [x for x in (a, b) if x is not None]
        if len(given) != (1 if table else 2):
            typer.echo("error: give two rulesets (rules diff OLD NEW), or --table T and one "
                       "(rules diff --table T NEW)", err=True)
            raise typer.Exit(2)
        if not table:  # no state to wait for: a log file that cannot be written stops it now
            from nomicpoker.cli.setup.bot_cmd import _open_log_file

            _open_log_file()
        try:
            new = read_ruleset(given[-1])
            if table:
                old = _pinned_files(table, state, db)
            else:
                old = read_ruleset(given[0])
        except RulesetError as e:
            _fail(e)
        for line in diff_lines(old.ruleset, new.ruleset):
            typer.echo(line)
        typer.echo(_text_change(old, new))
        if text and old.text != new.text:
            for line in difflib.unified_diff(old.text.splitlines(), new.text.splitlines(),
                                             f"{old.ruleset.name} rule text", f"{new.ruleset.name} rule text",
                                             lineterm=""):
                typer.echo(line)

    @rules.command("export", example='nomicpoker rules export --table T ./proposal-42 --state /srv/poker/state')
    def export_cmd(
        directory: Path = typer.Argument(..., help="A new directory to write ruleset.toml and the rule text to."),
        table: str = typer.Option(..., "--table", help="The table whose pinned ruleset to write out."),
        state: Optional[str] = typer.Option(None, "--state", help="State directory."),
        db: Optional[str] = typer.Option(None, "--db", help="Ledger database URL."),
    ) -> None:
        """Write out the ruleset a table's next hand is played under, exactly as pinned in its
        ledger: the starting point of an amendment (edit it, then table amend)."""
        from nomicpoker.core.rules.validate import parse_toml, text_file_name

        if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
            typer.echo(f"error: {directory} exists and is not an empty directory: name a new one", err=True)
            raise typer.Exit(1)
        files = _pinned_files(table, state, db)
        name = text_file_name(parse_toml(files.toml.encode("utf-8"), "pinned")) or "rule.txt"
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        (directory / "ruleset.toml").write_text(files.toml, encoding="utf-8", newline="")
        target.write_text(files.text, encoding="utf-8", newline="")
        typer.echo(f"wrote {files.ruleset.name} ({files.ruleset.content_hash[:12]}) of table {table} "
                   f"to {directory}: edit it, rules check it, then table amend --table {table} --ruleset {directory}")

    app.add_typer(rules, name="rules")


def _text_change(old: RulesetFiles, new: RulesetFiles) -> str:
    """One line on the rule text beyond the sentences cited: unchanged, or lines added and
    removed (``--text`` shows them)."""
    if old.text == new.text:
        return "rule text: unchanged"
    added = removed = 0
    for line in difflib.ndiff(old.text.splitlines(), new.text.splitlines()):
        added += line.startswith("+ ")
        removed += line.startswith("- ")
    return f"rule text: {added} line(s) added, {removed} removed (--text shows them)"


def _pinned_files(table: str, state: Optional[str], db: Optional[str], hand: Optional[int] = None) -> RulesetFiles:
    """The table's current pinned ruleset (or hand ``hand``'s) with its stored text (the
    ledger, not the file)."""
    from sqlmodel import Session

    from nomicpoker.cli.setup.bot_cmd import fail, opened
    from nomicpoker.shell.storage import ledger, pinned
    from sqlmodel import select

    from nomicpoker.shell.storage.store import RulesetRow

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        with Session(engine) as s:
            t = ledger.get_table(s, table)
            if hand is None:
                h = pinned.current_hash(s, t)
            else:
                rows = ledger.hand_rows(s, t.name, [hand])
                if not rows:
                    fail(f"table {table} has no hand {hand}")
                h = rows[0].ruleset_hash
            rs = pinned.ruleset(s, t, h)
            row = s.exec(select(RulesetRow).where(RulesetRow.table_name == t.name,
                                                  RulesetRow.content_hash == h)).one()
            return RulesetFiles(rs, row.toml, row.text, f"table {t.name}")
