"""A small interpreter of the WRGPT manual's advance-action rules, written apart from
``nomicpoker.core.reading.advance*`` (it imports nothing from them) so the property test in
``test_advance_property.py`` compares two readings of the manual, not one with itself.

Programs are plain tuples here: ``(arms, otherwise, sticky, hand)`` with arms
``[(conditions, command)]``; a command is ``(WORD, amount_or_None, sticky)``; a condition is
``("P"|"B"|"N", op, value)``, ``("I"|"O", seat)`` or ``("F", round)``. A state is a dict:
hand, round, pot, owe (chips to call), mine (my chips in this round), stack, ins, outs,
canchk, minadd (fewest chips a raise adds; None when no raise is open), raise_to.
"""

from __future__ import annotations

import operator

OPS = {"=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge, "<>": operator.ne}


def _true(cond, st) -> bool:
    tag = cond[0]
    if tag == "F":
        return st["round"] == cond[1]
    if tag == "I":
        return cond[1] in st["ins"]
    if tag == "O":
        return cond[1] in st["outs"]
    left = {"P": st["pot"], "B": st["owe"], "N": len(st["ins"])}[tag]
    return OPS[cond[1]](left, cond[2])


def _stay(st):
    """Call what is owed (all in if short), check if nothing is owed; None if illegal."""
    if st["owe"] == 0:
        return ("check", 0) if st["canchk"] else None
    if st["stack"] <= st["owe"]:
        return ("all_in", st["stack"])
    return ("call", st["owe"])


def _put(d, st):
    """Add ``d`` chips (capped at the stack): a call, a raise, an all-in, or None (illegal)."""
    owe, stack, minadd = st["owe"], st["stack"], st["minadd"]
    d = min(d, stack)
    if d < owe and d < stack:
        return None
    if d <= owe:
        return _stay(st)
    if d == stack:
        return _stay(st) if minadd is None else ("all_in", stack)
    if minadd is None or d < minadd:
        return None
    return ("raise", d)


def _chips(cmd, st):
    word, x, _ = cmd
    owe = st["owe"]
    conv = (lambda a: a - st["mine"]) if st["raise_to"] else (lambda a: a)
    if word == "FOLD":
        return ("check", 0) if owe == 0 and st["canchk"] else ("fold", 0)
    if word == "$":
        if x == 0:
            return ("check", 0) if owe == 0 and st["canchk"] else ("fold", 0)
        return _put(conv(x), st)
    if word == "CHECK" or (word == "MAKE" and x == 0):
        return ("check", 0) if owe == 0 and st["canchk"] else None
    if word == "MAKE":
        return _put(conv(x), st)
    if word == "CALL":
        if x is None:
            return _stay(st)
        if owe == 0:
            return ("check", 0) if st["canchk"] else ("fold", 0)
        return _stay(st) if owe <= x else ("fold", 0)
    if word == "RAISE":
        return _stay(st) if x == 0 else _put(owe + x, st)
    if st["minadd"] is None:
        return _stay(st)
    if word == "POT":
        return _put(max(owe + st["pot"] + owe, st["minadd"]), st)
    assert word == "JAM"
    return _put(st["stack"], st)


def run(prog, st):
    """(action or None, keep)."""
    arms, otherwise, sticky, hand = prog
    if hand is not None and hand != st["hand"]:
        return None, False
    chosen = next((cmd for conds, cmd in arms if all(_true(c, st) for c in conds)), otherwise)
    if chosen is None:
        return None, sticky
    got = _chips(chosen, st)
    if got is None:
        return None, False
    keeps = sticky or chosen[2] or chosen[0] == "FOLD"
    return got, keeps and got[0] != "fold"
