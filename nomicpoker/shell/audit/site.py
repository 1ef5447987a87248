"""The auditors' site (shell): ``nomicpoker site build`` and the rebuild after a poll.

A static site, written from the ledger's public rows (:mod:`nomicpoker.shell.audit.site_data`)
through Jinja2 templates shipped as package data (``nomicpoker/site_templates``):

- ``index.html``: every table;
- ``<table>/index.html``: the GNDT now, the chip counts across hands (an SVG chart drawn at
  build time and the same numbers in a table), and the change log as events: hand, time,
  the action in words, the changes, and the cause linked to the comment;
- ``<table>/hand-<n>.html``: the story post, each comment's verdict in order, the board by
  street, the steps with their chips, the shown hands with their names, the pots and payouts,
  the commitments and secrets and every verification item; with the hand's public record
  (``hand-<n>.json``, as ``audit export`` writes it) and its PHH (``hand-<n>.phh``) beside it.

WHY static and strict: auditors read it anywhere (a phone, a saved copy, a static host) and
untrusted text (names, comments) is all over it. Jinja2 autoescapes every value; untrusted
names sit in ``<bdi>`` so right-to-left marks cannot reorder the text around them; every
page carries a Content-Security-Policy that allows no inline script, no frame, no form and
no remote resource (styles from the site's own ``style.css``, one script, the site's own
``replayer.js``, which draws a hand page's replayer from the page's JSON data). No page
needs JavaScript: without it the replayer is the list of its steps.

Files are written atomically (a reader never sees half a page). Under the state directory
they are owner-only like everything there; elsewhere (a web root) they are world-readable.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.words.chart import chip_chart
from nomicpoker.core.errors import CodedError
from nomicpoker.core.phh.phh import PhhError, write_phh
from nomicpoker.core.phh.export import export_phh
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.audit import site_tokens
from nomicpoker.shell.audit.site_data import change_log_events, chip_counts, hand_page, rules_history, table_summary
from nomicpoker.shell.storage.store import TableRow, loads

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
       "form-action 'none'")


class SiteError(CodedError):
    """The site cannot be built (``bad_out``: the output is not a directory we may write)."""


@lru_cache(maxsize=1)
def _env():
    """The templates' environment, once per process: compiling the templates is ~0.2 s CPU,
    most of what writing one hand's pages costs (a poll with ``--site`` in a long-running
    process, the benchmark). Jinja2 still checks each template file's time on use."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(loader=PackageLoader("nomicpoker", "site_templates"),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.globals["CSP"] = CSP
    env.filters["when"] = when
    return env


def when(iso: str) -> str:
    """An ISO-8601 time as ``2026-11-23 11:02:35 UTC`` (seconds, no fraction); other text as
    it is."""
    from datetime import datetime, timezone

    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or ""
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if moment.tzinfo is not None else "")


def _inside(path: Path, root: Path | None) -> bool:
    if root is None:
        return False
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


class _Writer:
    def __init__(self, out: Path, private: bool):
        self.out, self.private = out, private
        self.written: list[Path] = []

    def dir(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        os.chmod(path, 0o700 if self.private else 0o755)

    def write(self, rel: str, text: str) -> None:
        path = self.out / rel
        self.dir(path.parent)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        os.chmod(tmp, 0o600 if self.private else 0o644)
        os.replace(tmp, path)
        self.written.append(path)

    def write_quiet(self, rel: str, text: str) -> None:
        """Write a file that is not one of the site's pages (not listed as written)."""
        self.write(rel, text)
        self.written.pop()


#: the site's record of what it was built from (see :func:`build_site`)
MANIFEST = ".manifest.json"
MANIFEST_FORMAT = 1


def build_site(engine: Engine, out: Path, table: str | None = None, state: Path | None = None,
               incremental: bool = True) -> list[Path]:
    """Write the site for every table (or one) into ``out``; return the files written.

    Incremental (every table, ``incremental``): ``out/.manifest.json`` records, for each
    table, the digest of its rows in the ledger when its pages were written
    (:func:`nomicpoker.shell.cycle.moved.ledger_tokens`: its ``np_table`` row, the last id of
    each of its rows, its snapshot, which the database drops on any edit in place) and its line
    of the index, with the digest of this nomicpoker's code and templates. A table whose digest
    is the recorded one, and whose page is there, is not written again: its pages are what a
    build from nothing would write, since they are written from those rows alone. So after
    one hand ends only that table's pages and the index are written, byte for byte what a
    build from nothing writes (tests/e2e/cycle/test_site_incremental.py compares them file by
    file). WHY not content hashes of the pages: to hash a page it must be rendered, and
    rendering is the cost. One table (``table``) or ``incremental=False``: everything is
    written, and the manifest is left as it is (or, for a whole build, written anew)."""
    from nomicpoker.shell.cycle import moved

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SiteError("bad_out", f"--out {out} is a file, not a directory")
    w = _Writer(out, private=_inside(out, state))
    w.dir(out)
    env = _env()
    from importlib.resources import files

    for asset in ("style.css", "replayer.js"):
        w.write(asset, files("nomicpoker").joinpath(f"site_templates/{asset}").read_text("utf-8"))
    build = _build_signature(w.private)
    with Session(engine) as s:
        whole = table is None
        tokens = moved.ledger_tokens(s) if whole else {}
        recorded = _manifest(out) if whole and incremental else {}
        kept = recorded.get("tables", {}) if recorded.get("build") == build else {}
        hand_tokens = site_tokens.hand_tokens(s) if whole else {}
        fresh = {name for name, token in tokens.items()
                 if not (kept.get(name, {}).get("token") == token and (out / name / "index.html").is_file()
                         and all((out / name / f"hand-{n}.html").is_file() for n in hand_tokens.get(name, {})))}
        rows = {t.name: t for t in s.exec(select(TableRow).order_by(TableRow.id)).all()}
        tables = [table_summary(s, t) if not whole or t.name in fresh else kept[t.name]["summary"]
                  for t in rows.values()]
        names = [ledger.get_table(s, table).name] if table else [n for n in rows if n in fresh]
        w.write("index.html", env.get_template("index.html").render(tables=tables, root=""))
        for name in names:
            before = kept.get(name, {}).get("hands", {})
            only = None if not whole else {
                n for n, token in hand_tokens.get(name, {}).items()
                if before.get(str(n)) != token or not (out / name / f"hand-{n}.html").is_file()}
            _table(s, env, w, rows[name] if name in rows else ledger.get_table(s, name), only)
        if whole:
            summaries = {t["name"]: t for t in tables}
            w.write_quiet(MANIFEST, json.dumps({"format": MANIFEST_FORMAT, "build": build, "tables": {
                name: {"token": token, "summary": summaries[name],
                       "hands": {str(n): h for n, h in hand_tokens.get(name, {}).items()}}
                for name, token in tokens.items()}}, sort_keys=True))
    return w.written


def _manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else {}


def _build_signature(private: bool) -> str:
    """This nomicpoker's code and site templates, and whether the pages are owner-only."""
    import hashlib
    from importlib.resources import files

    from nomicpoker.shell.cycle.idle import code_signature

    h = hashlib.sha256(f"{code_signature()}:{private}".encode())
    root = files("nomicpoker").joinpath("site_templates")
    for item in sorted(root.iterdir(), key=lambda p: p.name):
        if item.is_file():
            h.update(item.name.encode() + b"\0" + item.read_bytes())
    return h.hexdigest()


def _table(s: Session, env: Any, w: _Writer, t: TableRow, only: set[int] | None = None) -> None:
    """Write the table's pages: its index, and the pages of every hand (or of the hands in
    ``only``: those whose rows moved, :mod:`nomicpoker.shell.audit.site_tokens`)."""
    labels, series = chip_counts(s, t)
    chart = chip_chart(labels, series, f"Money of each player at table {t.name}, at the start and after each hand")
    hands = ledger.hand_rows(s, t.name)
    ended = {r.hand: loads(r.payouts) for r in ledger.stored_rows(s, t.name, "hand_end")}
    voids = ledger.voided(s, t.name)
    ctx = {
        "t": t, "players": loads(t.players), "gndt": ledger.gndt(s, t), "chart": chart,
        "labels": labels, "series": series, "events": change_log_events(s, t), "root": "../",
        "rules": rules_history(s, t),
        "hands": [{"number": h.number, "started_at": h.started_at, "ended": h.number in ended,
                   "payouts": ended.get(h.number, {}), "void": voids.get(h.number)} for h in hands],
    }
    w.write(f"{t.name}/index.html", env.get_template("table.html").render(**ctx))
    from nomicpoker.shell.storage import pinned

    rules = pinned.hand_rulesets(s, t)  # as pinned in the ledger: never a file, which may be gone
    for h in hands:
        if only is not None and h.number not in only:
            continue
        page = hand_page(s, t, h.number)
        rec = page["record"]
        w.write(f"{t.name}/hand-{h.number}.json", json.dumps(rec, ensure_ascii=False, indent=2) + "\n")
        if page["phh_reason"]:
            (w.out / t.name / f"hand-{h.number}.phh").unlink(missing_ok=True)  # not offered: the page says why
        else:
            try:
                phh = write_phh(export_phh(rec, rules[h.number]))
            except PhhError as exc:
                phh = f"# this hand cannot be written as PHH: {exc.message}\n"
            w.write(f"{t.name}/hand-{h.number}.phh", phh)
        w.write(f"{t.name}/hand-{h.number}.html",
                env.get_template("hand.html").render(t=t, h=page, root="../", hands=[x.number for x in hands]))
