"""What ``nomicpoker poll`` does for the tournaments after its tables (shell): the players'
own ``SEATLOG``, ``RAIL`` and ``RAIL OFF`` answered (:mod:`.asks`), then the rail's showdowns
of the hands that ended (:mod:`.rail`). A module of its own because it runs both, and the two
must not import each other."""

from __future__ import annotations

import logging
from pathlib import Path

from sqlalchemy.engine import Engine

from nomicpoker.shell.tournament.asks import answer_asks
from nomicpoker.shell.tournament.rail import send_all_showdowns, started


def after_poll(engine: Engine, state: Path, log: logging.Logger) -> bool:
    """The tournaments' part of a poll (module docstring), each answer and showdown said
    on ``log``; False when the rail failed (said as an error: the tables' work is kept, and
    what the rail recorded is not sent twice)."""
    from sqlalchemy.exc import IntegrityError

    from nomicpoker.core.errors import CodedError

    try:
        for asked in [answer_asks(engine, state, n) for n in started(engine)]:
            for a in asked.answers:
                log.info("tournament %s: %s's %s at %s answered", asked.tournament, a.player, a.asked, a.table)
        for done in send_all_showdowns(engine, state):
            if done.waiting:
                log.warning("%s", done.waiting)
            for sd in done.sent:
                log.info("tournament %s: the showdown of %s hand %s sent to %s on the rail: %s", done.tournament,
                         sd.table, sd.hand, len(sd.to), ", ".join(sd.to))
    except (CodedError, OSError, IntegrityError) as exc:  # IntegrityError: another run recorded it first
        log.error("tournament rail: FAILED: %s", exc)
        return False
    return True


__all__ = ["after_poll"]
