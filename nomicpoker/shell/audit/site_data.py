"""What the auditors' site shows, gathered from the ledger (shell: it reads the store).

Everything here comes from the ledger's public rows: the comment archive, the verdicts, the
change log, the action rows, the boards, the hand ends and the public hand records (the very
records ``audit export`` writes). Nothing reads the secrets folder or the outbox's private
messages, so the site of a running hand shows nothing a player could not see in the thread;
a player's private message to the Dealer (a private advance action, and every message at an
e-mail table, where players see only the Dealer's broadcasts) is withheld until its hand ends
(:func:`nomicpoker.shell.cycle.private_inbox.withheld`).

The values are plain dicts and lists for the templates (:mod:`nomicpoker.shell.audit.site`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from nomicpoker.core.poker.cards import pretty
from nomicpoker.core.words.gndt import is_url
from nomicpoker.core.words.hand_log import word_parts
from nomicpoker.core.fairness.money import replay
from nomicpoker.shell.cycle import fault_answers
from nomicpoker.shell.storage import ledger, pinned
from nomicpoker.shell.audit.audit import record_ruleset, verify_hands
from nomicpoker.shell.audit.site_replay import folded_hands, replay_data, summary
from nomicpoker.shell.cycle.private_inbox import WITHHELD, withheld
from nomicpoker.shell.storage.store import CommentRow, DealerEventRow, TableRow, loads
from nomicpoker.shell.storage.sealed_inputs import commitment_in, opened

_AT = re.compile(r"passed at (\S+)$")
_HAND_START = re.compile(r"^hand (\d+) start")


def card(c: str) -> dict[str, str]:
    """A card for display: its symbol form and its suit's colour class."""
    return {"text": pretty(c), "code": c, "red": c[-1] in "hd"}


@dataclass(frozen=True)
class CommentRef:
    hand: int | None
    forum_id: str
    revision: int
    author: str
    created: str
    permalink: str
    body: str

    @property
    def anchor(self) -> str:
        return f"c-{self.forum_id}" + (f"-r{self.revision}" if self.revision > 1 else "")


def _comments(s: Session, table: str, threads: dict[str, int]) -> list[CommentRef]:
    rows = s.exec(select(CommentRow).where(CommentRow.table_name == table).order_by(CommentRow.id)).all()
    secret = withheld(s, table)  # private player messages of hands still running
    # a sealed one's text once published (never from the secrets folder: the site is public)
    texts = opened(s, table, [(int(r.id), r.body) for r in rows], None, strict=False)  # type: ignore[arg-type]

    def shown(r: CommentRow) -> str:
        if r.forum_id in secret:
            return WITHHELD
        if r.id in texts:
            return texts[r.id][0]  # type: ignore[index]
        return WITHHELD if commitment_in(r.body) is not None else r.body

    return [CommentRef(threads.get(r.thread), r.forum_id, r.revision, r.author, r.created, r.permalink, shown(r))
            for r in rows]


def rules_history(s: Session, t: TableRow) -> dict[str, Any]:
    """The ruleset in force at ``t`` (the one its next hand is played under, as pinned) and
    every amendment: when, the Dealer's note, from which hand, the ruleset it put in force and
    what changed (``rules diff``: each parameter with the sentences it cites, and the rule
    text's changed lines). From the ledger alone: the files amendments were read from may be
    long gone."""
    import difflib

    from nomicpoker.core.rules.ruleset_diff import diff_lines
    from nomicpoker.shell.storage.store import RulesetRow

    texts = {r.content_hash: r.text for r in s.exec(select(RulesetRow).where(RulesetRow.table_name == t.name)).all()}
    now = pinned.current_ruleset(s, t)
    previous = pinned.ruleset(s, t, t.ruleset_hash)
    amendments = []
    for a in pinned.amendments(s, t.name):
        new = pinned.ruleset(s, t, a.ruleset_hash)
        old_text, new_text = texts.get(previous.content_hash, ""), texts.get(new.content_hash, "")
        text_diff = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(),
                                              f"{previous.name} rule text", f"{new.name} rule text", lineterm=""))
        amendments.append({
            "at": a.at, "note": a.note, "from_hand": a.hand + 1, "name": new.name, "hash": new.content_hash,
            "old_name": previous.name, "old_hash": previous.content_hash,
            "diff": diff_lines(previous, new) + (["rule text: unchanged"] if not text_diff else []),
            "text_diff": text_diff,
        })
        previous = new
    return {"name": now.name, "title": now.title, "hash": now.content_hash, "amendments": amendments}


def table_summaries(s: Session) -> list[dict[str, Any]]:
    return [table_summary(s, t) for t in s.exec(select(TableRow).order_by(TableRow.id)).all()]


def table_summary(s: Session, t: TableRow) -> dict[str, Any]:
    """One table's line of the site's index (plain JSON values: the site's manifest keeps it)."""
    hands = ledger.hand_rows(s, t.name)
    ended = {r.hand for r in ledger.stored_rows(s, t.name, "hand_end")}
    last = hands[-1] if hands else None
    rules = rules_history(s, t)
    return {"name": t.name, "ruleset": rules["name"], "ruleset_hash": rules["hash"],
            "amendments": len(rules["amendments"]), "forum": t.forum_kind, "players": ledger.roster(s, t),
            "hands": len(hands), "created": t.created,
            "status": "no hands yet" if last is None else
            (f"hand {last.number} ended" if last.number in ended else f"hand {last.number} running")}


def _cause_of(cause: str, comments_by_link: dict[str, CommentRef]) -> CommentRef | None:
    if cause in comments_by_link:
        return comments_by_link[cause]
    if cause.startswith("comment "):
        return comments_by_link.get(cause)
    return None


def change_log_events(s: Session, t: TableRow) -> list[dict[str, Any]]:
    """The change log grouped into events: consecutive changes with one hand and one cause
    are one event, with its time, the action in words and the cause (a link to the comment's
    verdict row on the hand page, and to the comment itself where it has a web address)."""
    hands = {h.number: h for h in ledger.hand_rows(s, t.name)}
    threads = {h.thread: h.number for h in hands.values()}
    comments = _comments(s, t.name, threads)
    by_link: dict[str, CommentRef] = {}
    for c in comments:
        if c.revision == 1:
            by_link.setdefault(c.permalink or f"comment {c.forum_id}", c)
            by_link.setdefault(f"comment {c.forum_id}", c)
    rules = pinned.hand_rulesets(s, t)  # each hand in the words of the rules it was played by
    steps: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for a in ledger.stored_rows(s, t.name, "action"):
        st = {"player": a.player, "event": a.event, "amount": a.amount, "cards": loads(a.cards), "chips": a.chips}
        steps.setdefault((a.hand, a.cause), []).append(word_parts(st, rules[a.hand].raise_amount == "raise_to"))
    verdicts = {(v.forum_id, v.revision): v for v in ledger.stored_rows(s, t.name, "verdict")}
    events: list[dict[str, Any]] = []
    for e in ledger.stored_rows(s, t.name, "entry"):
        key = (e.hand, e.cause)
        if events and events[-1]["key"] == key:
            events[-1]["changes"].append(_change(e))
            continue
        c = _cause_of(e.cause, by_link)
        time, action = "", [_text(e.cause)]
        said = _said(steps.get(key, []))
        if e.cause == "table created":
            time, action = t.created, [_text(f"table {t.name} created: {t.money} Money each")]
        elif (m := _HAND_START.match(e.cause)) and int(m.group(1)) in hands:
            time = hands[int(m.group(1))].started_at
            if said:
                action = [_text(f"hand {m.group(1)} starts: ")] + said
        elif c is not None:
            time = c.created
            if said:
                action = said
            else:
                v = verdicts.get((c.forum_id, 1))
                said_it = v is not None and v.canonical and c.body != WITHHELD  # a private one: not yet
                action = [{"name": c.author}, _text(f": {v.canonical}" if said_it else " comments")]
        else:
            m = _AT.search(e.cause)
            time = m.group(1) if m else ""
            if said:
                action = [_text("dealer: ")] + said
        events.append({
            "key": key, "anchor": f"e{e.seq}", "hand": e.hand, "time": time, "action": action,
            "cause": e.cause, "cause_url": e.cause if is_url(e.cause) else "",
            "comment_link": f"hand-{c.hand}.html#{c.anchor}" if c is not None and c.hand else "",
            "changes": [_change(e)],
        })
    return events


def _text(t: str) -> dict[str, str]:
    return {"text": t}


def _said(parts: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Steps in words as segments: each player's name apart from the words after it."""
    out: list[dict[str, str]] = []
    for i, (who, rest) in enumerate(parts):
        if i:
            out.append(_text("; "))
        out += [{"name": who}, _text(rest)]
    return out


def _change(e: Any) -> dict[str, str]:
    return {"player": e.player, "column": e.column, "old": e.old, "new": e.new}


def chip_counts(s: Session, t: TableRow) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """Money of every player at the start and after each ended hand: the hand's starting
    Money, less the chips its steps put in, plus its payouts (the public record's numbers).
    At a tournament's table the players moved in are charted too, and the moves between hands
    carry their chips (a player moved out has 0 from then on, one moved in what he brought:
    the ``move_out``/``move_in`` events, core/table/roster); moves after the last ended hand
    (a broken table) make a last point, "after the moves"."""
    from nomicpoker.core.table.roster import MOVE_IN, ROSTER_KINDS

    created = loads(t.players)
    moves = [e for e in ledger.dealer_events(s, t.name) if e.kind in ROSTER_KINDS]
    players = list(dict.fromkeys([*created, *(e.player for e in moves if e.kind == MOVE_IN)]))
    money = {p: t.money if p in created else 0 for p in players}
    labels, values = ["start"], {p: [money[p]] for p in players}
    ends = {r.hand: r for r in ledger.stored_rows(s, t.name, "hand_end")}
    put: dict[tuple[int, str], int] = {}  # chips each player put in each hand (one pass, not one per seat)
    for a in ledger.stored_rows(s, t.name, "action"):
        put[(a.hand, a.player)] = put.get((a.hand, a.player), 0) + a.chips

    def moved(before: int | None) -> bool:
        """Apply the moves recorded before hand ``before`` started (None: all left)."""
        done = False
        while moves and (before is None or moves[0].hand < before):
            ev = moves.pop(0)
            money[ev.player] = int(ev.data.get("chips", 0)) if ev.kind == MOVE_IN else 0
            done = True
        return done

    def point(label: str) -> None:
        labels.append(label)
        for p in players:
            values[p].append(money.get(p, 0))

    for h in ledger.hand_rows(s, t.name):
        moved(h.number)  # between hands: before this one was dealt
        if h.number not in ends:
            continue
        for p, m in loads(h.seats):
            money[p] = m - put.get((h.number, p), 0)
        for p, got in loads(ends[h.number].payouts).items():
            money[p] = money.get(p, 0) + got
        point(f"hand {h.number}")
    if moved(None):
        point("after the moves")
    return labels, [(p, values[p]) for p in players]


@dataclass(frozen=True)
class _Private:
    """A verdict as the site shows it while its private message is withheld."""

    forum_id: str
    revision: int
    author: str
    status: str = "private"
    code: str = ""
    message: str = "answered privately; shown when the hand ends"
    citation: str = ""
    canonical: str = ""


def _answered_privately(v: Any) -> _Private:
    """The verdict of a withheld message that moved no chips (an advance action waiting, a
    refusal, table talk): its words went to the player alone, so the site says only that."""
    return _Private(v.forum_id, v.revision, v.author)


def phh_reason(record: dict[str, Any]) -> str:
    """Why a hand has no PHH file ("" when it has one): a voided hand was called off, every
    chip returned, and PHH has no way to say so (written as played, it would read as a hand
    left unfinished, and PokerKit would give it no finishing stacks)."""
    if "void" in record:
        return ("the Dealer voided this hand and returned every chip, which PHH cannot express; "
                "its public record (hand-N.json) holds every step up to the void")
    return ""


def hand_page(s: Session, t: TableRow, number: int) -> dict[str, Any]:
    """Everything the page of one hand shows."""
    h = next(x for x in ledger.hand_rows(s, t.name) if x.number == number)
    record = ledger.hand_record(s, t, number)
    threads = {x.thread: x.number for x in ledger.hand_rows(s, t.name)}
    comments = {(c.forum_id, c.revision): c for c in _comments(s, t.name, threads)}
    rules = pinned.hand_rulesets(s, t)[number]  # as pinned in the ledger, never a file
    raise_to = rules.raise_amount == "raise_to"
    step_words = {a["comment_id"]: word_parts(a, raise_to) for a in record["actions"] if a["comment_id"]}
    verdicts = []
    recorded = fault_answers.recorded(s, t.name)  # internal_error answers: a fault's, as recorded
    for v in ledger.stored_rows(s, t.name, "verdict"):
        if v.hand != number:
            continue
        rec = recorded.get((v.thread, v.forum_id, v.revision))
        c = comments.get((v.forum_id, v.revision))
        words = step_words.get(v.forum_id) if v.revision == 1 and v.status == "accepted" else None
        if c is not None and c.body == WITHHELD and not words:  # answered privately: as the thread
            v, rec = _answered_privately(v), None
        verdicts.append({
            "anchor": c.anchor if c else f"c-{v.forum_id}", "forum_id": v.forum_id, "revision": v.revision,
            "author": v.author, "status": v.status, "code": v.code, "message": v.message,
            "citation": v.citation, "canonical": v.canonical,
            "words": words,
            "recorded": (f"recorded answer: nomicpoker {rec.release or '?'} failed on this comment at "
                         f"{rec.at}{f' ({rec.error})' if rec.error else ''}; every replay gives this "
                         "answer, whatever release runs it") if rec is not None else "",
            "time": c.created if c else "", "permalink": c.permalink if c else "",
            "url": c.permalink if c and is_url(c.permalink) else "",
            "body": (c.body if len(c.body) <= 400 else c.body[:399] + "…") if c else "",
        })
    board = [{"street": b.street, "cards": [card(x) for x in loads(b.cards)]}
             for b in ledger.stored_rows(s, t.name, "board") if b.hand == number]
    rs, problem = record_ruleset(record, {record["ruleset_hash"]: rules})
    final = replay(record, rs) if rs is not None else None
    result = final.result if final is not None else None
    shown = [{"player": sh.player, "hole": [card(c) for c in sh.hole], "best": [card(c) for c in sh.best_five],
              "name": sh.name} for sh in (result.shown if result else ())]
    pots = [{"amount": a.amount, "eligible": list(a.eligible), "winners": list(a.winners),
             "shares": dict(a.shares), "remainder": a.remainder} for a in (result.awards if result else ())]
    (_, checks), = verify_hands([record])  # from the record alone, as an auditor checks it
    replay_rules = rs if rs is not None else rules
    replayer = replay_data(record, replay_rules, verdicts, h.button)
    streets = {f["step"]: f["street"] for f in replayer["frames"] if f["step"] is not None}
    pot = 0
    steps = []
    for a in record["actions"]:
        pot += a["chips"]
        steps.append({**a, "pot": pot, "parts": word_parts(a, raise_to), "cards": [card(c) for c in a["cards"]],
                      "street": streets.get(a["n"], "preflop" if a["event"] == "post" else "")})
    timeouts = [ev for ev in s.exec(select(DealerEventRow).where(DealerEventRow.table_name == t.name,
                                                                  DealerEventRow.hand == number)).all()]
    return {
        "number": number, "thread": h.thread, "thread_url": h.thread if is_url(h.thread) else "",
        "started_at": h.started_at, "button": h.button, "ante": h.ante, "blinds": loads(h.blinds),
        "seats": record["seats"], "verdicts": verdicts, "board": board, "shown": shown, "pots": pots,
        "payouts": record["payouts"], "destroyed": record["destroyed"], "steps": steps,
        "commitments": record["commitments"], "secrets": record["secrets"],
        "entropy": record.get("entropy"),  # what the deal mixed in (docs/fair-dealing.md), as recorded
        "checks": [{"item": c.item, "ok": c.ok, "detail": c.detail} for c in checks],
        "failed": sum(not c.ok for c in checks), "ended": record["secrets"] is not None,
        "money_problem": problem.detail if problem is not None else "",
        "void": record.get("void"),
        "refunds": {st["player"]: sum(a["chips"] for a in record["actions"] if a["player"] == st["player"])
                    for st in record["seats"]} if "void" in record else {},
        "phh_reason": phh_reason(record),
        "timeouts": [{"player": ev.player, "kind": ev.kind, "at": ev.at} for ev in timeouts],
        "summary": summary(result, record, verdicts),
        "folded": folded_hands(record, replay_rules, [sh["player"] for sh in shown]),
        "replay": replayer,
        "record": record,
    }
