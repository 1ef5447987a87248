"""Each comment's verdict as a line (``nomicpoker verdicts``): what the demo used to print
alone. Accepted actions are given in words (``alice raises 10``), rejections with their code,
message and the rule sentence they rest on. As on the site, a player's private message whose
hand has not ended (:func:`nomicpoker.shell.cycle.private_inbox.withheld`) is only said to be
answered privately, unless it moved chips (the thread says so): its answer went to the player
alone, and this output is as public as the site."""

from __future__ import annotations

from sqlmodel import Session

from nomicpoker.core.words.gndt import one_line
from nomicpoker.core.words.hand_log import words
from nomicpoker.shell.cycle import fault_answers
from nomicpoker.shell.storage import ledger, pinned
from nomicpoker.shell.cycle.private_inbox import withheld
from nomicpoker.shell.storage.store import TableRow, loads


def verdict_lines(s: Session, t: TableRow, hand: int | None = None) -> list[str]:
    rules = pinned.hand_rulesets(s, t)  # each hand's words under the rules it was played by
    said = {}
    for a in ledger.stored_rows(s, t.name, "action"):
        if a.comment_id:
            raise_to = rules[a.hand].raise_amount == "raise_to"
            said[(a.hand, a.comment_id)] = words({"player": a.player, "event": a.event, "amount": a.amount,
                                                  "cards": loads(a.cards), "chips": a.chips}, raise_to)
    out = []
    recorded = fault_answers.recorded(s, t.name)
    private = withheld(s, t.name)
    for v in ledger.stored_rows(s, t.name, "verdict"):
        if hand is not None and v.hand != hand:
            continue
        where = f"hand {v.hand}" if v.hand is not None else "no hand"
        head = f"{where} #{v.forum_id}" + (f" (edit {v.revision})" if v.revision > 1 else "")
        who = one_line(v.author)
        moved = said.get((v.hand, v.forum_id)) if v.revision == 1 and v.status == "accepted" else None
        if v.forum_id in private and not moved:
            out.append(f"{head} {who}: answered privately; shown when the hand ends")
            continue
        if v.status == "accepted":
            what = said.get((v.hand, v.forum_id)) if v.revision == 1 else None
            out.append(f"{head} {who}: accepted: {what or v.canonical}")
        elif v.status == "rejected":
            out.append(f"{head} {who}: rejected {v.code}: {one_line(v.message)}")
            if v.citation:
                out.append(f"    rule: \"{one_line(v.citation)}\"")
        elif v.status == "chat":
            out.append(f"{head} {who}: chat")
        else:
            out.append(f"{head} {who}: {v.status} {v.code}: {one_line(v.message)}".rstrip(": "))
        rec = recorded.get((v.thread, v.forum_id, v.revision))
        if rec is not None:  # an answer that rests on a fault: recorded, replayed as recorded
            out.append(f"    recorded: nomicpoker {rec.release or '?'} failed on it at {rec.at}"
                       + (f" ({rec.error})" if rec.error else ""))
    return out
