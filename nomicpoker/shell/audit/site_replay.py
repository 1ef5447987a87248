"""The top of a hand's page: the summary and the replayer's data (shell: it shapes what the
pure core computes from a public record for the templates).

- :func:`summary`: the board, who won each pot with which five cards and why (the kicker
  named where it decided: :func:`nomicpoker.core.words.hand_summary.why_it_won`), the pot,
  and the verdicts counted in one line;
- :func:`replay_data`: the frames of :mod:`nomicpoker.core.fairness.frames` as plain JSON
  values for ``replayer.js`` (embedded in the page as ``application/json``, which no browser
  runs), each frame with the comment that caused it and the Dealer's words for it;
- :func:`folded_hands`: the hands folded or never shown, recomputed from the published
  secrets once the hand has ended, marked as recomputed.

Everything comes from the hand's public record and its verdicts, as the rest of the page.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

from nomicpoker.core.fairness.frames import Frame, frames, known_holes
from nomicpoker.core.poker.cards import pretty
from nomicpoker.core.poker.equity import Equity
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.words.chances import percent
from nomicpoker.core.words.hand_summary import why_it_won

__all__ = ["summary", "replay_data", "folded_hands", "verdict_line", "frame_json"]


def _card(c: str) -> dict[str, Any]:
    return {"text": pretty(c), "code": c, "red": c[-1] in "hd"}


def verdict_line(verdicts: Sequence[Mapping[str, Any]]) -> str:
    """``"9 comments: 7 accepted, 1 rejected, 1 chat"`` (the statuses in a fixed order)."""
    if not verdicts:
        return "No comments."
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v["status"]] = counts.get(v["status"], 0) + 1
    order = ["accepted", "rejected", "chat"] + sorted(set(counts) - {"accepted", "rejected", "chat"})
    parts = [f"{counts[s]} {s}" for s in order if s in counts]
    n = len(verdicts)
    return f"{n} comment{'s' if n != 1 else ''}: {', '.join(parts)}."


def summary(result: Any, record: Mapping[str, Any], verdicts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What opens a hand's page (see the module docstring). ``result``: the engine's result
    of the replayed record, or None (running, void, or not replayable)."""
    pot = sum(a.get("chips") or 0 for a in record.get("actions") or ())
    out: dict[str, Any] = {"board": [_card(c) for c in record.get("board") or ()], "pot": pot,
                           "verdicts": verdict_line(verdicts), "pots": [], "uncontested": False, "returned": {}}
    if result is None:
        return out
    out["uncontested"] = bool(result.uncontested)
    shown = {sh.player: sh for sh in result.shown}
    for i, award in enumerate(result.awards):
        label = "the pot" if len(result.awards) == 1 else ("the main pot" if i == 0 else f"side pot {i}")
        losers = sorted((shown[p] for p in award.eligible if p in shown and p not in award.winners),
                        key=lambda sh: -sh.value)
        winners = []
        for w in award.winners:
            sh = shown.get(w)
            why, against = "", ""
            if sh is not None and losers:
                why = why_it_won(sh.best_five, losers[0].best_five)
                against = losers[0].player if why else ""
            winners.append({"player": w, "share": award.shares.get(w, 0),
                            "name": sh.name if sh else "", "why": why, "against": against,
                            "best": [_card(c) for c in sh.best_five] if sh else []})
        out["pots"].append({"label": label, "amount": award.amount, "winners": winners,
                            "split": len(award.winners) > 1, "remainder": award.remainder})
    returned = {p: v for p, v in result.returned.items() if v}
    out["returned"] = returned
    out["pot"] = pot - sum(returned.values())  # what was played for: the pots, not the chips returned
    return out


def folded_hands(record: Mapping[str, Any], rules: Ruleset, shown: Sequence[str]) -> list[dict[str, Any]]:
    """The hands the showdown did not show, recomputed from the published secrets (only once
    the hand has ended: the secrets are published then)."""
    if record.get("secrets") is None:
        return []
    seats = [s["player"] for s in record.get("seats") or ()]
    holes = known_holes(record, rules)
    out = []
    for p in seats:
        if p in shown or p not in holes:
            continue
        cards, how = holes[p]
        out.append({"player": p, "hole": [_card(c) for c in cards], "how": how})
    return out


def _equity_json(eq: Equity | None) -> dict[str, Any] | None:
    if eq is None:
        return None
    pots = []
    for i, pot in enumerate(eq.pots):
        pots.append({
            "label": "Pot" if len(eq.pots) == 1 else ("Main pot" if i == 0 else f"Side pot {i}"),
            "amount": pot.amount,
            "players": [{"player": p, "win": percent(pot.wins[p], eq.boards), "wins": pot.wins[p],
                         "tie": percent(pot.ties[p], eq.boards) if pot.ties[p] else "",
                         "share": percent(pot.shares[p]) if pot.ties[p] else "",
                         "bar": float(round(Fraction(pot.shares[p]) * 100, 2))}
                        for p in pot.eligible],
        })
    return {"boards": eq.boards, "to_come": eq.to_come, "pots": pots}


def frame_json(f: Frame, said: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """One frame for ``replayer.js``: plain values only (names are text, never markup)."""
    dealer = said.get(f.comment_id, {}) if f.comment_id else {}
    return {
        "n": f.n, "kind": f.kind, "street": f.street, "player": f.player, "words": f.words,
        "comment": f.comment_id, "anchor": dealer.get("anchor", ""), "dealer": dealer.get("dealer", ""),
        "step": f.step, "board": [_card(c) for c in f.board], "pot": f.pot, "to_act": f.to_act,
        "seats": [{"name": s.name, "stack": s.stack, "bet": s.bet, "total": s.total, "folded": s.folded,
                   "all_in": s.all_in, "cards": [_card(c) for c in s.cards], "how": s.how} for s in f.seats],
        "equity": _equity_json(f.equity),
    }


def replay_data(record: Mapping[str, Any], rules: Ruleset, verdicts: Sequence[Mapping[str, Any]],
                button: str) -> dict[str, Any]:
    """The replayer's data: the frames, the button, and for each step caused by a comment
    its anchor on the page and the Dealer's words (the verdict)."""
    said: dict[str, dict[str, str]] = {}
    for v in verdicts:
        if v["revision"] != 1 or v["forum_id"] in said:
            continue
        words = (f"accepted: {v['author']}{v['words'][1]}" if v.get("words") else
                 f"{v['status']}: {v['canonical'] or v['message']}")
        said[v["forum_id"]] = {"anchor": v["anchor"], "dealer": words}
    fs = frames(record, rules)
    return {"button": button, "frames": [frame_json(f, said) for f in fs]}
