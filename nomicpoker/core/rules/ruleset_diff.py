"""What changed between two rulesets, parameter by parameter, with the sentences (pure).

A nomic amends its rules by proposal; the Dealer then applies the amended ruleset to a table
(``nomicpoker table amend``). Players and auditors need to see what the amendment changes in
play, not a byte diff of a TOML file: which parameters take another value, and which rule
sentences they now rest on. ``nomicpoker rules diff`` prints :func:`diff_lines`; the fold
announces :func:`summary` in the first hand played under the amended rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from nomicpoker.core.rules.ruleset import DEADLINE_NONE, PARAM_NAMES, REJECTION_CODES, Citation, Ruleset


@dataclass(frozen=True)
class Change:
    """One parameter (``params.<name>``), rejection code (``rejections.<code>``) or header
    field (``name``, ``title``, ``source``) whose value or citation differs."""

    key: str
    old_value: str | None  # as written in TOML; None: not a value (a rejection code)
    new_value: str | None
    old: Citation | None
    new: Citation | None

    @property
    def value_changed(self) -> bool:
        return self.old_value != self.new_value

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[-1]


def toml_value(value: object) -> str:
    """A parameter value as it is written in a ruleset TOML (``true``, ``"added"``, ``48``,
    ``"none"``)."""
    if value is None:
        return f'"{DEADLINE_NONE}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def diff_rulesets(old: Ruleset, new: Ruleset) -> tuple[Change, ...]:
    """Every difference that matters to play or to a quotation, in a fixed order: the header
    fields, then the parameters in :data:`PARAM_NAMES` order, then the rejection codes in
    :data:`REJECTION_CODES` order. A citation counts as changed when its sentence, note or
    source differs."""
    out: list[Change] = []
    for field in ("name", "title", "source"):
        a, b = getattr(old, field), getattr(new, field)
        if a != b:
            out.append(Change(field, toml_value(a), toml_value(b), None, None))
    for p in PARAM_NAMES:
        a, b = toml_value(old.value(p)), toml_value(new.value(p))
        ca, cb = old.params.get(p), new.params.get(p)
        if a != b or ca != cb:
            out.append(Change(f"params.{p}", a, b, ca, cb))
    for code in REJECTION_CODES:
        ca, cb = old.rejections.get(code), new.rejections.get(code)
        if ca != cb:
            out.append(Change(f"rejections.{code}", None, None, ca, cb))
    return tuple(out)


def _quote(c: Citation | None) -> str:
    if c is None:
        return "(none)"
    return f"\u201c{c.sentence}\u201d" + (f" ({c.source})" if c.source else "")


def _citation_lines(ch: Change) -> list[str]:
    a, b = ch.old, ch.new
    if a is None and b is None:
        return []
    out: list[str] = []
    if a is not None and b is not None and a.sentence == b.sentence and a.source == b.source:
        out.append(f"    rule (unchanged): {_quote(b)}")
    else:
        out += [f"    old rule: {_quote(a)}", f"    new rule: {_quote(b)}"]
    na, nb = (a.note if a else ""), (b.note if b else "")
    if na != nb:
        out += [f"    old note: {na or '(none)'}", f"    new note: {nb or '(none)'}"]
    return out


def diff_lines(old: Ruleset, new: Ruleset) -> list[str]:
    """The ``rules diff`` report: a header naming both rulesets by name and hash, one block per
    :class:`Change` (the value, then the old and new sentence, then the old and new note where
    they differ), and a closing count."""
    head = f"{old.name} ({old.content_hash[:12]}) -> {new.name} ({new.content_hash[:12]})"
    changes = diff_rulesets(old, new)
    if not changes:
        same = "identical" if old.content_hash == new.content_hash else "the same in every parameter and sentence"
        return [head, f"no differences: {same}"]
    out = [head]
    for ch in changes:
        if ch.old_value is None:
            out.append(f"{ch.key}: the sentence a rejection with this code quotes")
        elif ch.value_changed:
            out.append(f"{ch.key}: {ch.old_value} -> {ch.new_value}")
        else:
            out.append(f"{ch.key}: {ch.new_value} (value unchanged)")
        out += _citation_lines(ch)
    values = [ch.name for ch in changes if ch.key.startswith("params.") and ch.value_changed]
    cited = [ch for ch in changes if ch.key.startswith(("params.", "rejections.")) and ch.old != ch.new]
    out.append(f"{len(values)} parameter value(s) changed"
               + (f" ({', '.join(values)})" if values else "")
               + f"; {len(cited)} citation(s) changed")
    return out


def summary(old: Ruleset, new: Ruleset) -> str:
    """One sentence for the dealer's announcement: the parameters whose value changed with
    old and new value, and how many quoted sentences changed besides."""
    changes = diff_rulesets(old, new)
    values = [f"{ch.name} {ch.old_value} \u2192 {ch.new_value}" for ch in changes
              if ch.key.startswith("params.") and ch.value_changed]
    cited = sum(1 for ch in changes if ch.key.startswith(("params.", "rejections.")) and ch.old != ch.new)
    parts = []
    if values:
        parts.append("Changed: " + "; ".join(values) + ".")
    else:
        parts.append("No parameter takes another value.")
    if cited:
        parts.append(f"{cited} quoted rule sentence(s) or reading(s) changed.")
    return " ".join(parts)
