"""The TR39 look-alike tables are built when a comment is first read, not at import.

WHY: building them walks every code point up to U+30000 (a few tenths of a second of CPU);
every ``nomicpoker`` process paid it at import, an idle ``poll`` (which reads no comment),
``version`` and ``--help`` included. Each check runs in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_poll_builds_no_lookalike_table_and_the_first_reading_does():
    probe = ("import sys, nomicpoker.shell.jobs.poll, nomicpoker.cli\n"
             "from nomicpoker.core.reading import lookalike\n"
             "print('BUILT=' + str(lookalike._tables.cache_info().currsize))\n"
             "print('TR39=' + str('confusable_homoglyphs.confusables' in sys.modules))\n"
             "sk = lookalike.skeleton('r\\u0430ise')\n"
             "print('AFTER=' + str(lookalike._tables.cache_info().currsize))\n"
             "print('READ=' + sk.text + ' ' + str(sorted(sk.flagged)))\n"
             "print('PROTO=' + lookalike.PROTOTYPES['\\u13aa'])\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert "BUILT=0" in out and "TR39=False" in out and "AFTER=1" in out, out
    assert "READ=raise [1]" in out and "PROTO=A" in out, out  # the Cyrillic а still flagged
