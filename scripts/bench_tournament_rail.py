"""The rail's part of a command-line poll, timed on a kept tournament (issue 24, ``trail3``).

After its tables, ``nomicpoker poll`` answers the players' ``SEATLOG``/``RAIL`` and sends the
rail's showdowns (``shell/tournament/after_poll.py``); ``seat_map`` is read at every hand start,
advance and move. This times them, in CPU seconds of this process, on a copy of a state kept
by ``scripts/bench_tournament.py --only play --rail N --keep DIR`` (the copy is thrown away):

- the rail's part with nothing new (least and median of 9);
- ``seat_map`` (least and median of 9);
- the rail's part recording and sending the last hand again: the tournament's events from the
  newest ``rail_showdowns`` or ``rail_asks`` on are taken away first (least and median of 5).

``EXTRA``: that many more rail events put before the others (a longer tournament polled from
cron leaves one for each poll with a verdict or a hand ended). Run it with two versions of the
code on the same state to compare them (e.g. ``PYTHONPATH=/path/to/old/checkout python3 ...``).

    python scripts/bench_tournament_rail.py DIR [EXTRA]
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path


def _cpu(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.process_time()
    fn()
    return time.process_time() - t


def main(argv: list[str]) -> int:
    import nomicpoker
    from sqlmodel import Session

    from nomicpoker.shell.storage.store import open_engine
    from nomicpoker.shell.tournament.after_poll import after_poll
    from nomicpoker.shell.tournament.seatmap import seat_map

    if not argv:
        print(__doc__.rsplit("\n\n", 1)[-1].strip(), file=sys.stderr)
        return 2
    src = Path(argv[0]) / "state"
    extra = int(argv[1]) if len(argv) > 1 else 0
    log = logging.getLogger("bench.rail")
    log.propagate = False
    con0 = sqlite3.connect(src / "ledger.db")
    [(name,)] = con0.execute("SELECT name FROM np_tournament").fetchall()
    con0.close()
    print(f"code: {nomicpoker.__file__}")

    def copy() -> Path:
        d = Path(tempfile.mkdtemp(prefix="bench-rail-")) / "state"
        shutil.copytree(src, d)
        if extra:
            c = sqlite3.connect(d / "ledger.db")
            with c:
                c.execute("UPDATE np_tournament_event SET seq = -seq")
                c.execute("UPDATE np_tournament_event SET seq = -seq + ?", (extra,))
                c.executemany("INSERT INTO np_tournament_event (tournament, seq, kind, player, at, note, data) "
                              "VALUES (?, ?, ?, '', '2026-01-01T00:00:00+00:00', '', ?)",
                              [(name, i + 1, ("rail_asks", "rail_showdowns")[i % 2],
                                '{"upto": {}, "sent": [], "answered": []}') for i in range(extra)])
            c.close()
        return d

    def seats(engine) -> None:  # type: ignore[no-untyped-def]
        with Session(engine) as s:
            seat_map(s, name)

    st = copy()
    engine = open_engine(f"sqlite:///{st / 'ledger.db'}")
    con = sqlite3.connect(st / "ledger.db")
    kinds = dict(con.execute("SELECT kind, COUNT(*) FROM np_tournament_event GROUP BY kind ORDER BY kind").fetchall())
    con.close()
    print(f"events: {kinds}")
    after_poll(engine, st, log)
    idle = sorted(_cpu(lambda: after_poll(engine, st, log)) for _ in range(9))
    print(f"the rail's part, nothing new: least {idle[0] * 1000:.1f} ms, median {idle[4] * 1000:.1f} ms CPU")
    seats(engine)
    sm = sorted(_cpu(lambda: seats(engine)) for _ in range(9))
    print(f"seat_map: least {sm[0] * 1000:.1f} ms, median {sm[4] * 1000:.1f} ms CPU")
    engine.dispose()
    shutil.rmtree(st.parent)
    rec: list[float] = []
    for _ in range(5):
        st = copy()
        con = sqlite3.connect(st / "ledger.db")
        with con:
            cut = min(con.execute("SELECT MAX(seq) FROM np_tournament_event WHERE kind = ?", (k,)).fetchone()[0] or 0
                      for k in ("rail_showdowns", "rail_asks"))
            gone = [k for k, in con.execute("SELECT kind FROM np_tournament_event WHERE seq >= ? ORDER BY seq", (cut,))]
            con.execute("DELETE FROM np_tournament_event WHERE seq >= ?", (cut,))
        con.close()
        engine = open_engine(f"sqlite:///{st / 'ledger.db'}")
        seats(engine)  # the imports warm
        rec.append(_cpu(lambda: after_poll(engine, st, log)))
        con = sqlite3.connect(st / "ledger.db")
        again = [k for k, in con.execute("SELECT kind FROM np_tournament_event WHERE seq >= ? ORDER BY seq", (cut,))]
        con.close()
        engine.dispose()
        shutil.rmtree(st.parent)
    rec.sort()
    print(f"the rail's part recording the last hand again (taken away: {', '.join(gone)}; recorded again: "
          f"{', '.join(again)}): least {rec[0] * 1000:.1f} ms, median {rec[2] * 1000:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
