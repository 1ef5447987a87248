"""The resume sweep (issue 24, the determinism family): a table played over days by a random
script, polled after every comment (so every poll resumes the fold from the last one's
snapshot), must post and record exactly what a replay from the first input gives, whatever the
hash seed of either process.

WHY: the 1,000-player tournament run found an end-of-hand post ("On vacation: p0474, p0847")
that named the players in the order they went when replayed and in alphabetical order when
the poll resumed from its snapshot (a dict stored as JSON with sorted keys). The same family:
any dict whose order differs between a resumed and a replayed fold, any ``set`` of names
iterated into a post, a private message or a ledger row (a set's order follows the process's
``PYTHONHASHSEED``, and every cron poll is a new process).

How (:func:`sweep`): the script is played in a child process with one hash seed
(``python -m kits.sweeps.resume play``), which polls after every comment and every clock jump;
then ``nomicpoker audit`` replays the ledger from nothing in children with other hash seeds,
and in this process. ``audit`` compares every derived row (verdicts, GNDT entries, every
dealer post and private message in the outbox, hand ends, actions) byte for byte.

The script (:func:`play`, from a seed): four players whose names are not in alphabetical
order, office hours with weekends off, a reminder, three timeouts to sit out, a flood notice;
``GONE`` with and without a date, ``GONE RESIGN``, ``BACK``, ``START``, ``WHAT``, ``PROTEST``
and ``UNDO``, ``SEATLOG``, ``RAIL`` and ``SCORE``, the Dealer's controls (pause, resume,
void, fold, seat, unseat, settings), actions (legal or not, in turn or not, with table
talk), reveals at a showdown (now and then of the wrong cards), advance actions in the thread
and private ones to the Dealer's inbox, edits and deletions, late comments in older hands'
threads, chat and noise, and clock jumps that let reminders and deadlines pass (timeouts,
AWOL, sitting out). A hand is started whenever none runs. Five kinds of table (:data:`KINDS`).

What it found: the vacation order above (fixed by the lead: the snapshot keeps every mapping's
order, tests/e2e/days/test_days_resume_order.py) and a closed hand's seats dropped by the
snapshot (tests/e2e/cycle/test_resume_equals_replay.py).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

#: the players, not in alphabetical order (a sorted dict would show)
PLAYERS = ("carol", "alice", "dave", "bob")
SETTINGS = {"deadline_hours": 4, "tz": "America/New_York", "day_start": 9, "day_length": 9,
            "weekends_off": True, "reminders": 1, "max_timeouts": 3, "flood_threshold": 2}
#: a kind's key (not a setting): the table answers as an e-mail table does, every answer to one
#: player sent privately (its stored abilities say players do not read the thread)
MAIL = "_mail"
#: the kinds of table, a seed plays the kind ``seed % len(KINDS)``: the ruleset, and what the
#: kind adds to :data:`SETTINGS`. A table of its own; a tournament's table as ``tournament
#: start`` makes it (WRGPT's vacation, everybody on vacation at the start, SEATLOG/RAIL in
#: private messages, all-in chances posted); a table of edition 2 with a floorman, vacations
#: that may win, and chances; a BlogNomic table (blognomic-2008: antes, the Hole Card Draw with
#: the dice and issued decks, its deadline, ``HAND ROUND`` actions); a table whose players do
#: not read the thread, answered privately as at an e-mail table (:data:`MAIL`)
KINDS = (("roberts-nlhe", {}),
         ("roberts-nlhe", {"tournament": "cup", "wrgpt_vacation": True, "start_on_vacation": True,
                           "private_asks": True, "equity": True}),
         ("roberts-nlhe", {"edition": 2, "floorman": "dave", "vacation_can_win": True, "equity": True}),
         ("blognomic-2008", {}),
         ("roberts-nlhe", {"equity": True, MAIL: True}))
NY = ZoneInfo("America/New_York")
#: Friday 4 December 2026, 16:00 New York
T0 = datetime(2026, 12, 4, 16, 0, tzinfo=NY).astimezone(timezone.utc)

PUBLIC = ["GONE", "GONE Friday", "GONE 13 Dec", "GONE until the 20th", "BACK", "START 8",
          "START 14", "WHAT", "nice hand", "raise banana", "HAND9 ROUND1 call", "CALL *", "FOLD/R",
          "CHECK/FOLD", "IF/N=2 FOLD ELSE CALL *", "UNDO", "SEATLOG", "RAIL", "SCORE"]
ACTIONS = ["fold", "call", "check", "raise 4", "raise 10", "bet 3", "check", "call\n\nTALK: I have it", "call",
           "fold", "check", "call", "raise 30", "all in"]
#: the Dealer's controls (``nomicpoker table pause|resume|void|fold|seat|unseat|set``), with
#: a settings change's values; one the table's state refuses is counted and skipped
CONTROLS = [("pause", {}), ("resume", {}), ("resume", {}), ("void", {}), ("fold", {}), ("unseat", {}), ("seat", {}),
            ("seat", {}), ("settings", {"reminders": 2}), ("settings", {"max_timeouts": 2}),
            ("settings", {"vacation_can_win": True}), ("settings", {"deadline_hours": 6})]
PRIVATE = ["CALL *", "FOLD/R", "CHECK/FOLD", "IF/N=2 FOLD ELSE CALL *", "JAM", "RAISE 6", "hello dealer",
           "UNDO", "SEATLOG", "BET 5/R"]


@dataclass
class Played:
    """What the live run did: how many polls, how many resumed from the snapshot, how many
    dealer comments, hands, and the kinds of step the script took."""

    polls: int = 0
    resumed: int = 0
    posts: int = 0
    hands: int = 0
    steps: dict[str, int] = field(default_factory=dict)
    folded: list[str] = field(default_factory=list)


def _running(t) -> bool:  # type: ignore[no-untyped-def]
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger

    with Session(t.engine) as s:
        started = len(ledger.hand_rows(s, t.name))
        ended = len(ledger.stored_rows(s, t.name, "hand_end"))
    return started > ended


def _turns(t) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The GNDT Turn column: ``x`` to act, ``-`` still in the hand (at a showdown: to reveal)."""
    return {p: turn for p, (_m, turn, _pot) in t.gndt().items()}


def _hole(t, who: str, number: int) -> str | None:  # type: ignore[no-untyped-def]
    msg = next((m for m in reversed(t.forum.inbox(who)) if f"hand {number}," in m.body), None)
    found = re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body) if msg else None
    return found.group(1) if found else None


def _answer_privately(t) -> None:  # type: ignore[no-untyped-def]
    """The table's stored abilities as an e-mail table's: players do not read the thread, so
    the fold answers each of them privately (WRGPT's mail: WHAT, BACK, reminders, vacations)."""
    from nomicpoker.ports import Abilities

    sql = t.sql()
    (raw,) = sql.execute("SELECT abilities FROM np_table WHERE name = ?", (t.name,)).fetchone()
    stored = json.loads(raw)
    stored.update(players_see_thread=False, private_send=True)
    sql.execute("UPDATE np_table SET abilities = ? WHERE name = ?", (Abilities(**stored).as_json(), t.name))
    sql.commit()
    sql.close()


def _round(t) -> int:  # type: ignore[no-untyped-def]
    """The betting round of the Dealer's last turn notice in the hand's thread (1 before any)."""
    for body in reversed(t.dealer_bodies()):
        found = re.search(r"round (\d+) \(", body)
        if found:
            return int(found.group(1))
    return 1


def play(tmp: Path, seed: int, steps: int = 60) -> Played:
    """Play the script of ``seed`` on a new table in ``tmp`` (this process), polling after
    every comment and clock jump."""
    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.dealer.controls import control
    from nomicpoker.shell.dealer.service import ServiceError
    from nomicpoker.shell.jobs.demo import Player
    from nomicpoker.shell.storage import secrets_store
    from nomicpoker.shell.storage.paths import forum_db_path

    from kits.tables.bot import Table, fixed_secrets

    rng = random.Random(seed)
    now = [T0]
    clock = lambda: now[0]  # noqa: E731
    ruleset, extra = KINDS[seed % len(KINDS)]
    blog = ruleset == "blognomic-2008"
    mail = bool(extra.get(MAIL))
    t = Table(tmp, players=PLAYERS, stack=300, ruleset=ruleset, issue_decks=blog, seed=f"resume-{seed}",
              settings={**SETTINGS, **{k: v for k, v in extra.items() if k != MAIL}})
    if mail:
        _answer_privately(t)
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    out = Played()
    resigned: set[str] = set()
    protest: list = []  # [protester ("": the Dealer's pause), steps until the UNDO or the resume]
    said: list[tuple[str, str, str]] = []  # (author, thread, comment id) of the players' comments
    threads: list[str] = []  # every hand's thread, oldest first
    drawn: dict[str, tuple[int, int]] = {}  # this hand's Hole Card Draws (distinct dice), by player
    stated: set[str] = set()  # players who stated their draw this hand

    def poll() -> None:
        report = t.poll(now=clock)
        assert report.ok, [x.error for x in report.tables]
        out.polls += 1
        for x in report.tables:
            out.folded.append(x.folded)
            out.resumed += x.folded == "resumed"

    def say(who: str, body: str, thread: str | None = None) -> str:
        cid = t.forum.post_as(who, thread or t.thread, body)
        said.append((who, thread or t.thread, cid))
        return cid

    def resume() -> None:
        try:
            control(t.engine, t.state, t.name, "resume", "the sweep resumes", now=clock)
            count("control resume")
        except ServiceError:  # resumed already (a resume of the script's own)
            count("control refused")

    def count(kind: str) -> None:
        out.steps[kind] = out.steps.get(kind, 0) + 1

    def start() -> None:
        number = out.hands + 1
        secrets_store.write(t.state, t.name, number, fixed_secrets(f"{t.seed}:{number}"))
        try:
            started = service.start_hand(t.engine, t.state, t.name, ante=5 if blog else 0, blinds=() if blog else (1, 2),
                                         now=clock)
        except ServiceError:  # fewer than two players to deal in (broke, sitting out, resigned)
            count("start refused")
            return
        if started.report.error:
            count("start refused")
            return
        out.hands = number
        t.thread = started.thread
        t.p = {n: Player(n, t.forum, started.thread) for n in t.players}
        threads.append(started.thread)
        drawn.clear()
        stated.clear()
        for p in t.p.values() if blog else ():  # a BlogNomic hand: each player's issued deck, from his inbox
            p.checksum = ""
            try:
                p.read_deck(number)
            except LookupError:  # not dealt in (sitting out)
                pass
        count("start")

    for _ in range(steps):
        now[0] += timedelta(minutes=rng.choice([1, 5, 20, 45, 90]))
        if not _running(t) and rng.random() < 0.7:
            start()
            poll()
            continue
        if not threads:
            continue
        roll = rng.random()
        turns = _turns(t)
        actor = next((p for p, x in turns.items() if x == "x"), None)
        still = sorted(p for p, x in turns.items() if x == "-")
        who = rng.choice(PLAYERS)
        if protest and protest[1] == 0:  # the protester withdraws it, the Dealer resumes a pause
            if protest[0]:
                say(protest[0], "UNDO")
                count("UNDO")
            else:
                resume()
            protest.clear()
        elif protest:
            protest[1] -= 1
        if roll < 0.4 and actor is not None:
            body = rng.choice(ACTIONS)
            if blog:  # the ruleset reads only HAND n ROUND r actions (now and then the wrong round)
                body = f"HAND{out.hands} ROUND{_round(t) + (rng.random() < 0.1)} {body}"
            elif rng.random() < 0.3:
                body = f"HAND{out.hands} {body}"
            say(actor, body)
            count("action")
        elif roll < 0.4 and still and blog and any(p not in stated for p in still):  # the Hole Card Draw
            drawer = rng.choice([p for p in still if p not in stated])
            if drawer not in drawn or rng.random() < 0.1:  # roll the dice (again)
                cid = say(drawer, f"HAND#{out.hands} DICE52 DICE52")
                poll()
                dice = t.p[drawer].dice_results(cid)
                if dice and dice[0] != dice[1]:
                    drawn[drawer] = dice
                count("dice")
                continue
            a, b = drawn[drawer]
            if rng.random() < 0.1:  # the wrong checksum: refused, he states it again later
                say(drawer, f"cards {a}, {b}, Cards printed by: nobody")
            else:
                say(drawer, f"cards {a}, {b}, {t.p[drawer].checksum}")
                t.p[drawer].positions = (a, b)
                stated.add(drawer)
            count("draw")
        elif roll < 0.4 and still and _running(t):  # a showdown: reveal (now and then, wrong cards)
            shower = rng.choice(still)
            if blog:
                cards = " ".join(t.p[shower].hole()) if shower in stated else None
            else:
                cards = _hole(t, shower, out.hands)
            cards = cards if rng.random() < 0.9 else "7h 2s"
            say(shower, f"HAND{out.hands} reveal {cards or '7h 2s'}")
            count("reveal")
        elif roll < 0.42 and not protest:
            say(who, "PROTEST the dealer skipped me")
            protest.extend([who, rng.choice([0, 1, 3])])
            count("PROTEST")
        elif roll < 0.47:
            say(who, rng.choice(ACTIONS))  # out of turn, or by a player not seated
            count("action out of turn")
        elif roll < 0.54:
            t.forum.send_private_as(who, t.forum.dealer, f"advance ({t.name})", rng.choice(PRIVATE))
            count("private")
        elif roll < 0.59:
            now[0] += timedelta(hours=rng.choice([2, 3, 5, 9, 30, 70]))  # reminders, deadlines
            count("clock")
        elif roll < 0.63 and said:  # an edit or a deletion of an earlier comment
            author, _thread, cid = rng.choice(said[-12:])
            if rng.random() < 0.8:
                t.forum.edit_comment(cid, rng.choice(ACTIONS + PUBLIC), author=author)
                count("edit")
            else:
                t.forum.delete_comment(cid, author=author)
                count("delete")
        elif roll < 0.67 and len(threads) > 1:  # a late word in an older hand's thread
            say(who, rng.choice(ACTIONS + PUBLIC), thread=rng.choice(threads[-3:-1]))
            count("late")
        elif roll < 0.695:
            kind, data = rng.choice(CONTROLS)
            try:
                control(t.engine, t.state, t.name, kind, f"the sweep's {kind}", player=who, data=data, now=clock)
                count(f"control {kind}")
                if kind == "pause" and not protest:  # the Dealer resumes it a few steps later
                    protest.extend(["", rng.choice([0, 1, 3])])
            except ServiceError:  # not now (no hand to void, nobody sitting out, ...)
                count("control refused")
        elif roll < 0.705:  # two players go, in the reverse of alphabetical order: the table is told
            first, second = sorted(rng.sample(PLAYERS, 2), reverse=True)  # in the order they went
            say(first, "GONE Friday")
            poll()
            say(second, rng.choice(["GONE", "GONE 13 Dec"]))
            count("GONE two")
        elif roll < 0.715 and not resigned:
            say(who, "GONE RESIGN")
            resigned.add(who)
            count("resign")
        elif roll < 0.765:
            say(who, "BACK")
            count("BACK")
        else:
            body = rng.choice(PUBLIC)
            say(who, body)
            count(body.split()[0])
        poll()
    now[0] += timedelta(hours=80)  # whatever is due by now
    poll()
    out.posts = len(t.dealer_bodies_all())
    return out


def _env(hash_seed: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    tests = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(x for x in (tests, base.get("PYTHONPATH", "")) if x)
    return {**base, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": path}


def play_in_child(tmp: Path, seed: int, steps: int, hash_seed: str) -> Played:
    """:func:`play` in a child process whose ``PYTHONHASHSEED`` is ``hash_seed``."""
    res = subprocess.run([sys.executable, "-m", "kits.sweeps.resume", "play", str(tmp), str(seed), str(steps)],
                         capture_output=True, text=True, timeout=600, env=_env(hash_seed))
    assert res.returncode == 0, res.stdout + res.stderr
    return Played(**json.loads(res.stdout.strip().splitlines()[-1]))


def audit_in_child(state: Path, hash_seed: str) -> str:
    """``nomicpoker audit`` of the table in a child process whose ``PYTHONHASHSEED`` is
    ``hash_seed``: its output (it asserts the exit code is 0)."""
    from kits.tables.cli import CLI

    res = subprocess.run([sys.executable, "-c", CLI, "audit", "--state", str(state)], capture_output=True,
                         text=True, timeout=600, env=_env(hash_seed))
    assert res.returncode == 0, f"audit with PYTHONHASHSEED={hash_seed}:\n{res.stdout}{res.stderr}"
    return res.stdout


def sweep(tmp: Path, seed: int, steps: int, live_hash: str = "1", replay_hashes: tuple[str, ...] = ("2", "3")) -> Played:
    """Play ``seed``'s script with hash seed ``live_hash``, then audit it in this process and
    with each of ``replay_hashes``: every row and post of the live run must be the replay's."""
    from nomicpoker.shell.audit.audit import audit
    from nomicpoker.shell.storage import paths
    from nomicpoker.shell.storage.store import open_engine

    played = play_in_child(tmp, seed, steps, live_hash)
    state = tmp / "state"
    engine = open_engine(paths.db_url(state))
    try:
        names, diffs = audit(engine, state)
    finally:
        engine.dispose()
    assert names == ["T"] and diffs == [], [str(d) for d in diffs][:5]
    for h in replay_hashes:
        said = audit_in_child(state, h)
        assert "identical" in said, said
    return played


def tournament_sweep(tmp: Path, players: int, seed: str, live_hash: str, replay_hashes: tuple[str, ...]) -> str:
    """A whole tournament on the local forum (``scripts/bench_tournament.py --only play``: the
    director's loop, tables broken and balanced, the final table, redraws, vacations, timeouts,
    private advance actions; one poll per round, each table resumed from its snapshot) in a
    child with hash seed ``live_hash``, which audits it itself (exit 1 on a difference); then
    ``audit`` in children with each of ``replay_hashes``. The bench's output."""
    from _paths import ROOT

    keep = tmp / "tournament"
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_tournament.py"), "--players", str(players),
                          "--only", "play", "--seed", seed, "--money", "800", "--keep", str(keep)],
                         capture_output=True, text=True, timeout=900, env=_env(live_hash))
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for h in replay_hashes:
        said = audit_in_child(keep / "state", h)
        assert "the replay is identical to the ledger" in said, said
    return res.stdout


if __name__ == "__main__":  # python -m kits.sweeps.resume play TMP SEED STEPS
    from dataclasses import asdict

    _cmd, tmp_arg, seed_arg, steps_arg = sys.argv[1:5]
    print(json.dumps(asdict(play(Path(tmp_arg), int(seed_arg), int(steps_arg)))))
