"""The games and the scans of the no-running-secret check (issue 21): what drives a table to a
random point of a running hand, makes every published artefact there, and scans each for the
running hand's secrets. The tests: tests/e2e/record/test_public_record.py (a few games) and
tests/slow/test_public_record_many_games.py (60)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import strategies as st
from sqlalchemy import inspect, text
from sqlmodel import Session
from typer.testing import CliRunner

from kits.tables.bot import Table
from kits.tables.game import _to_act
from kits.references.fair_dealing import REF
from nomicpoker.cli import app
from nomicpoker.core.reading.advance import Program, parse
from nomicpoker.core.poker.cards import pretty
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.replay import fold_for

PLAYERS = ("alice", "bob", "carol")
#: private messages to the Dealer: advance actions (each with an amount no public text has)
#: and words that are no action
PRIVATE = ("CALL $37", "RAISE $29", "FOLD/R", "IF/N=2 FOLD ELSE CALL $41", "my secret plan xyzzy")
ACTIONS = ("call", "check", "fold", "raise 4", "raise 10", "all in")


def _pairs(a: str, b: str) -> list[str]:
    out = []
    for x, y in ((a, b), (b, a)):
        out += [f"{x} {y}", f'"{x}","{y}"', f'"{x}", "{y}"', f"{pretty(x)} {pretty(y)}",
                json.dumps(f"{pretty(x)} {pretty(y)}")[1:-1]]
        # '4d8d' is also four hex digits, found by chance in any hash or commitment: the joined
        # spelling is looked for only when it cannot be read as hex
        if not re.fullmatch(r"[0-9a-f]+", f"{x}{y}"):
            out.append(f"{x}{y}")
    return out


def _secret_spellings(secrets) -> list[str]:
    out = []
    for v in secrets.by_name().values():
        out += [v.hex(), v.hex().upper(), base64.b64encode(v).decode().rstrip("="),
                base64.urlsafe_b64encode(v).decode().rstrip("="), v.decode("latin-1")]
    return out


def _running(t: Table) -> tuple[int, list[str]] | None:
    """The running hand's number and its seats, or None if it has ended."""
    with Session(t.engine) as s:
        hands = ledger.hand_rows(s, t.name)
        ended = {r.hand for r in ledger.stored_rows(s, t.name, "hand_end")}
        h = hands[-1]
        if h.number in ended:
            return None
        return h.number, [p for p, _ in json.loads(h.seats)], h.button


def tabled(t: Table) -> set[str]:
    """The players whose hands are public by rule: under ``all_in_face_up`` (Robert's rule 27),
    those still in once the betting has closed at an all-in, from that moment on; nobody
    otherwise (docs/fair-dealing.md)."""
    with Session(t.engine) as s:
        cur = fold_for(s, ledger.get_table(s, t.name), t.state).state.current
    hand = cur.hand if cur is not None else None
    if hand is None or not hand.ruleset.all_in_face_up or not hand.runout:
        return set()
    return {seat.name for seat in hand.seats if not seat.folded}


def needles(t: Table, sent: list[str]) -> tuple[list[str], list[str]]:
    """(what derives from the running hand's secrets, the private texts sent in it)."""
    number, seats, button = _running(t)
    secrets = t.hands[number]
    found = _secret_spellings(secrets)
    if t.ruleset == "roberts-nlhe":
        order = seats[seats.index(button) + 1:] + seats[:seats.index(button) + 1]
        face_up = tabled(t)
        for p, cards in REF["holes"](secrets.deck, number, order).items():
            if p not in face_up:
                found += _pairs(*cards)
    else:
        with Session(t.engine) as s:
            drawn = {d.player: json.loads(d.positions) for d in ledger.stored_rows(s, t.name, "draw")
                     if d.hand == number}
        for p in seats:
            deck = REF["deck"](secrets.decks, number, p)
            if p in drawn:
                found += _pairs(*(deck[k - 1] for k in drawn[p]))
            lines = [ln.strip() for m in t.forum.inbox(p) if f"hand {number}" in m.body.split("\n", 1)[0]
                     for ln in m.body.splitlines() if "♠" in ln or "♥" in ln or "♦" in ln or "♣" in ln]
            found += [ln for ln in lines if ln]
    texts = []
    for body in sent:
        texts.append(body)
        program = parse(body) if body.isupper() or "$" in body else None
        if isinstance(program, Program):
            texts.append(program.text())
    return found, sorted(set(texts))


def _round(t: Table) -> int:
    with Session(t.engine) as s:
        cur = fold_for(s, ledger.get_table(s, t.name), t.state).state.current
        return cur.hand.round if cur is not None and cur.hand is not None and hasattr(cur.hand, "round") else 1


def play(t: Table, moves, draws: int) -> list[str]:
    """Play ``moves`` into hand 1 (stopping if it ends); return the private texts sent."""
    sent = []
    if t.ruleset == "blognomic-2008":
        t.draw(1, who=PLAYERS[:draws])
    for kind, a, b in moves:
        if _running(t) is None:
            break
        if kind == "pm":
            who = PLAYERS[a % len(PLAYERS)]
            t.forum.send_private_as(who, t.forum.dealer, "advance (T)", PRIVATE[b % len(PRIVATE)])
            t.run()
            sent.append(PRIVATE[b % len(PRIVATE)])
        else:
            try:
                who = _to_act(t)
            except StopIteration:
                who = PLAYERS[a % len(PLAYERS)]
            t.act(who, f"HAND1 ROUND{_round(t)} {ACTIONS[b % len(ACTIONS)]}")
    return sent


def artefacts(t: Table, out: Path) -> dict[str, str]:
    """Every published artefact, by name, as text (UTF-8, and latin-1 for raw bytes)."""
    run = CliRunner().invoke
    st = ["--state", str(t.state)]
    got: dict[str, str] = {}

    def cli(name: str, args: list[str], ok: bool = True) -> None:
        res = run(app, args + st)
        assert not ok or res.exit_code == 0, (args, res.output)
        got[name] = res.output

    with Session(t.engine) as s:
        numbers = [h.number for h in ledger.hand_rows(s, t.name)]
    out.mkdir(parents=True, exist_ok=True)
    cli("ledger json", ["ledger", "--table", "T", "--format", "json", "--log"])
    cli("ledger md", ["ledger", "--table", "T", "--format", "md", "--log"])
    cli("verdicts", ["verdicts", "--table", "T"])
    cli("table show", ["table", "show", "--table", "T"])
    cli("table list", ["table", "list"])
    cli("audit", ["audit"], ok=False)
    cli("poll log", ["poll", "--verbose"])  # the Dealer's log (cron mails it): no secret either
    cli("audit verify", ["audit", "verify", "--table", "T"], ok=False)
    for n in numbers:
        cli(f"audit export {n}", ["audit", "export", "--table", "T", "--hand", str(n),
                                  "-o", str(out / f"hand-{n}.json")])
        cli(f"phh export {n}", ["phh", "export", "--table", "T", "--hand", str(n)], ok=False)
    cli("site", ["site", "build", "--out", str(out / "www")])
    cli("public-db", ["export", "public-db", "-o", str(out / "public.db")])
    for path in sorted(out.rglob("*")):
        if path.is_file():
            raw = path.read_bytes()
            got[str(path.relative_to(out))] = raw.decode("utf-8", "replace") + "\n" + raw.decode("latin-1")
    assert "public.db" in got and "www/index.html" in got and "www/T/hand-1.html" in got
    return got


def _ledger_bytes(t: Table) -> str:
    out = []
    for name in ("ledger.db", "ledger.db-wal"):
        p = t.state / name
        if p.exists():
            raw = p.read_bytes()
            out.append(raw.decode("utf-8", "replace") + raw.decode("latin-1"))
    return "\n".join(out)


def _rows_holding(t: Table, needle: str) -> list[str]:
    """Where in the live ledger ``needle`` is: table and column of every row holding it."""
    where = []
    with t.engine.connect() as con:
        for name in inspect(con).get_table_names():
            cols = [c["name"] for c in inspect(con).get_columns(name)]
            for c in cols:
                rows = con.execute(text(f'SELECT * FROM "{name}" WHERE CAST("{c}" AS TEXT) LIKE :n'),
                                   {"n": f"%{needle}%"}).mappings().all()
                where += [f"{name}.{c}" for _ in rows]
    return where


def check_nothing_leaks(t: Table, sent: list[str], out: Path) -> None:
    if _running(t) is None:
        return
    cards, texts = needles(t, sent)
    published = artefacts(t, out)
    hashes = [hashlib.sha256(b.encode()).hexdigest() for b in sent]  # the archive's hash of each
    leaks = [(name, n) for name, body in published.items() for n in cards + texts + hashes if n in body]
    assert leaks == [], leaks[:5]
    live = _ledger_bytes(t)
    assert [n for n in cards if n in live] == []
    # nor a private message's text, nor its SHA-256 (found by trying the advance actions)
    assert [n for n in texts + hashes if n in live] == [], [(n, _rows_holding(t, n)) for n in texts + hashes]


@st.composite
def games(draw):
    ruleset = draw(st.sampled_from(["roberts-nlhe", "blognomic-2008"]))
    move = st.one_of(st.tuples(st.just("act"), st.integers(0, 2), st.integers(0, len(ACTIONS) - 1)),
                     st.tuples(st.just("pm"), st.integers(0, 2), st.integers(0, len(PRIVATE) - 1)))
    return ruleset, draw(st.lists(move, max_size=7)), draw(st.integers(0, len(PLAYERS)))


def _game(ruleset: str, moves, draws: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="np-public-"))
    try:
        t = Table(tmp, players=PLAYERS, ruleset=ruleset, issue_decks=ruleset == "blognomic-2008")
        if ruleset == "roberts-nlhe":
            t.start(ante=0, blinds=(1, 2))
        else:
            t.start(ante=5)
        sent = play(t, moves, draws)
        check_nothing_leaks(t, sent, tmp / "out")
        t.engine.dispose()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
