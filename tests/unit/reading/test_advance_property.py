"""Random advance-action programs, written out as a player would type them (switches placed
anywhere the manual allows, keywords in any case), read by ``nomicpoker.core.reading.advance`` and run
by ``advance_eval``, against the separate interpreter in ``tests/kits/references/advance_oracle.py``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kits.references.advance_oracle import run
from nomicpoker.core.reading.advance import parse
from nomicpoker.core.reading.advance_eval import View, evaluate

WORDS = ["CALL", "CALL*", "MAKE", "RAISE", "POT", "JAM", "FOLD", "CHECK"]
amounts = st.sampled_from([0, 1, 5, 20, 40, 100, 150, 400, 1000])


@st.composite
def command(draw, guarded):
    word = draw(st.sampled_from(WORDS + ([] if guarded else ["$"])))
    if word == "CALL*":
        return ("CALL", None, draw(st.booleans()))
    x = draw(amounts) if word in ("CALL", "MAKE", "RAISE", "$") else None
    return (word, x, False if word == "$" else draw(st.booleans()))


condition = st.one_of(
    st.tuples(st.sampled_from("PBN"), st.sampled_from(["=", "<", "<=", ">", ">=", "<>"]),
              st.sampled_from([0, 1, 2, 3, 20, 100, 400, 1000])),
    st.tuples(st.sampled_from("IO"), st.integers(1, 6)),
    st.tuples(st.just("F"), st.integers(1, 4)))


def _cmd_text(cmd, extra, case):
    word, x, sticky = cmd
    if word == "$":
        return f"${x}"
    head = case(word) + ("/S" if sticky else "") + extra
    if word == "CALL" and x is None:
        return head + " *"
    return head + ("" if x is None else f" ${x}")


def _cond_text(c):
    return f"{c[0]}:{c[1]}" if c[0] in "IO" else ("F=%d" % c[1] if c[0] == "F" else f"{c[0]}{c[1]}{c[2]}")


@st.composite
def program(draw):
    """(text, oracle program, quiet, reveal)."""
    case = draw(st.sampled_from([str.upper, str.lower, str.title]))
    hand = draw(st.none() | st.integers(1, 3))
    quiet, reveal = draw(st.booleans()), draw(st.booleans())
    flags = ([f"/H={hand}"] if hand is not None else []) + (["/Q"] if quiet else []) + \
        (["/R"] if reveal else [])
    if draw(st.booleans()):  # a plain command
        cmd = draw(command(guarded=False))
        if cmd[0] == "$":
            return f"${cmd[1]}", ((), cmd, False, None), False, False
        text = _cmd_text(cmd, "".join(flags), case)
        return text, ((), (cmd[0], cmd[1], False), cmd[2] or cmd[0] == "FOLD", hand), quiet, reveal
    n = draw(st.integers(1, 8))
    arms, parts = [], []
    outer = draw(st.booleans())
    for k in range(n):
        conds = draw(st.lists(condition, min_size=1, max_size=3))
        cmd = draw(command(guarded=True))
        on_if = draw(st.booleans())  # put /S on the IF instead of the action
        head = "IF" + ("/S" if (k == 0 and outer) or (k > 0 and cmd[2] and on_if) else "")
        head += "".join("/" + _cond_text(c) for c in conds)
        mine = [f for f in flags if draw(st.booleans())] if k < n - 1 else flags
        flags = [f for f in flags if f not in mine]
        split = len(mine) // 2
        head += "".join(mine[:split])
        shown = (cmd[0], cmd[1], cmd[2] and not (k > 0 and on_if))
        parts.append(head + " " + _cmd_text(shown, "".join(mine[split:]), case))
        arms.append((tuple(conds), cmd))
    otherwise = None
    if draw(st.booleans()):
        otherwise = draw(command(guarded=True))
        parts.append("ELSE " + _cmd_text(otherwise, "", case))
    return " ".join(parts), (tuple(arms), otherwise, outer, hand), quiet, reveal


@st.composite
def state(draw):
    seats = draw(st.integers(2, 6))
    outs = set(draw(st.lists(st.integers(1, seats), max_size=seats - 1)))
    owe = draw(st.sampled_from([0, 0, 1, 20, 40, 100, 400, 1000]))
    stack = draw(st.sampled_from([1, 10, 20, 100, 300, 1000, 5000]))
    minadd = None
    if stack > owe and draw(st.integers(0, 4)):
        minadd = min(owe + draw(st.sampled_from([1, 20, 100, 200])), stack)
    return {"hand": draw(st.integers(1, 3)), "round": draw(st.integers(1, 4)),
            "pot": draw(st.sampled_from([0, 30, 100, 1000, 2500])), "owe": owe,
            "mine": draw(st.sampled_from([0, 0, 10, 50])), "stack": stack,
            "ins": set(range(1, seats + 1)) - outs, "outs": outs,
            "canchk": owe == 0 and draw(st.integers(0, 3)) > 0, "minadd": minadd,
            "raise_to": draw(st.booleans())}


def _view(s) -> View:
    high = s["mine"] + s["owe"]
    rmin = None if s["minadd"] is None else s["mine"] + s["minadd"]
    return View(s["hand"], s["round"], s["pot"], s["owe"], s["mine"], high, s["stack"],
                frozenset(s["ins"]), frozenset(s["outs"]), s["canchk"], rmin,
                None if rmin is None else s["mine"] + s["stack"], s["raise_to"])


@settings(max_examples=250, deadline=None)
@given(program(), state())
def test_module_agrees_with_the_independent_interpreter(prog, s):
    text, spec, quiet, reveal = prog
    p = parse(text)
    s = dict(s, pot=s["pot"] + s["mine"] + s["owe"])  # the pot includes this round's bets
    got = evaluate(p, _view(s))  # type: ignore[arg-type]
    want, keep = run(spec, s)
    assert (None if got.action is None else (got.action.act, got.action.added)) == want, text
    assert got.keep == keep, text
    assert (p.quiet, p.reveal) == (quiet, reveal), text  # type: ignore[union-attr]
    assert parse(p.text()) == p  # the canonical text reads back the same  # type: ignore[union-attr]
