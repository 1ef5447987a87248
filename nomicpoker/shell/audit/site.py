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
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.words.chart import chip_chart
from nomicpoker.core.errors import CodedError
from nomicpoker.core.phh.phh import PhhError, write_phh
from nomicpoker.core.phh.export import export_phh
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.audit.site_data import change_log_events, chip_counts, hand_page, rules_history, table_summaries
from nomicpoker.shell.storage.store import TableRow, loads

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
       "form-action 'none'")


class SiteError(CodedError):
    """The site cannot be built (``bad_out``: the output is not a directory we may write)."""


def _env():
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


def build_site(engine: Engine, out: Path, table: str | None = None, state: Path | None = None) -> list[Path]:
    """Write the site for every table (or one) into ``out``; return the files written."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SiteError("bad_out", f"--out {out} is a file, not a directory")
    w = _Writer(out, private=_inside(out, state))
    w.dir(out)
    env = _env()
    from importlib.resources import files

    for asset in ("style.css", "replayer.js"):
        w.write(asset, files("nomicpoker").joinpath(f"site_templates/{asset}").read_text("utf-8"))
    with Session(engine) as s:
        tables = table_summaries(s)
        names = [ledger.get_table(s, table).name] if table else [t["name"] for t in tables]
        w.write("index.html", env.get_template("index.html").render(tables=tables, root=""))
        for name in names:
            _table(s, env, w, ledger.get_table(s, name))
    return w.written


def _table(s: Session, env: Any, w: _Writer, t: TableRow) -> None:
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
