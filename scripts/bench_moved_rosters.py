"""CPU of the poll's look at who sits at each table now (``shell/cycle/moved._seated``: the Dealer's
inbox messages that can reach a table are its current players', issue 24), on an SQLite ledger the
size of the 1,000-player run's end: 112 tables, 1,890 move events (its 945 moves) among N dealer
events. Usage: ``python scripts/bench_moved_rosters.py N`` (N >= 1,890)."""
import json, random, sys, time, tempfile
from pathlib import Path
from sqlalchemy import text
from sqlmodel import Session
from nomicpoker.shell.storage.store import open_engine
from nomicpoker.shell.cycle.moved import _seated

total = int(sys.argv[1])
work = tempfile.TemporaryDirectory()
d = Path(work.name)
engine = open_engine(f"sqlite:///{d / 'ledger.db'}")
rnd = random.Random(1)
with Session(engine) as s:
    c = s.connection()
    for i in range(112):
        c.execute(text("INSERT INTO np_table (name, ruleset, ruleset_hash, forum_kind, forum_config, dealer, players, money, button, issue_decks, settings, abilities, created, active) "
                       "VALUES (:n, 'r', 'h', 'local', '{}', 'Dealer', :p, 1500, 'x', 0, '{}', '{}', '2026', 1)"),
                  {"n": f"t{i}", "p": json.dumps([f"p{i*9+k:04d}" for k in range(9)])})
    kinds = ["move_out", "move_in"]
    for j in range(total):
        kind = kinds[j % 2] if j < 1890 else rnd.choice(["timeout", "settings", "reminder"])
        c.execute(text('INSERT INTO np_dealer_event (table_name, hand, "after", kind, player, at, ruleset_hash, note, data) '
                       "VALUES (:t, 1, 1, :k, :p, '2026', '', '', :d)"),
                  {"t": f"t{rnd.randrange(112)}", "k": kind, "p": f"p{rnd.randrange(1000):04d}", "d": json.dumps({"why": "x" * 200})})
    s.commit()
with Session(engine) as s:
    conn = s.connection()
    rows = conn.execute(text("SELECT * FROM np_table ORDER BY id")).mappings().all()
    _seated(conn, rows)
    t = time.process_time()
    for _ in range(20):
        _seated(conn, rows)
    print(f"{total} dealer events (1,890 moves), 112 tables: {(time.process_time() - t) / 20 * 1000:.2f} ms CPU per look")
engine.dispose()
work.cleanup()
