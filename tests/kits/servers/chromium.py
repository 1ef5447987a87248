"""Headless Chromium for tests that check what a reader sees, not the HTML source.

``rendered_text(html)`` loads a page in Debian's ``chromium`` (installed on CI by
``scripts/ci_services.sh``) and returns ``document.body.innerText``: the text as laid out,
with CSS, ``<br>`` line breaks and entities applied. ``screenshot(html, path)`` keeps a PNG
for a person to look at. Tests skip with a clear reason where no Chromium is installed.
"""

from __future__ import annotations

import html as html_lib
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--disable-dev-shm-usage", "--mute-audio")
_SCRIPT = ("<script>(function(){var t=document.body.innerText;var p=document.createElement('pre');"
           "p.id='np-rendered';p.textContent=t;document.body.innerHTML='';document.body.appendChild(p);})();"
           "</script>")


def chromium() -> str:
    """The Chromium binary, or skip the calling test saying how to get one."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("headless Chromium is not installed (apt-get install chromium; CI installs it "
                "from scripts/ci_services.sh)")


def _run(args: list[str], timeout: float = 90) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="np-chromium-") as profile:
        return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout, check=False)


def rendered_text(page_html: str) -> str:
    """``document.body.innerText`` of ``page_html`` as Chromium lays it out."""
    with tempfile.TemporaryDirectory(prefix="np-page-") as tmp:
        path = Path(tmp) / "page.html"
        path.write_text(page_html.replace("</body>", _SCRIPT + "</body>"), encoding="utf-8")
        done = _run(["--dump-dom", path.as_uri()])
    m = re.search(r'<pre id="np-rendered">(.*?)</pre>', done.stdout, re.DOTALL)
    assert m, f"chromium gave no rendered text (exit {done.returncode}): {done.stderr[-500:]}"
    return html_lib.unescape(m.group(1))


def screenshot(page_html: str, png: Path, size: str = "1000,4000") -> Path:
    """A PNG of the page (for a person to look at; tests only check it was made)."""
    with tempfile.TemporaryDirectory(prefix="np-page-") as tmp:
        path = Path(tmp) / "page.html"
        path.write_text(page_html, encoding="utf-8")
        _run([f"--screenshot={png}", f"--window-size={size}", "--hide-scrollbars", path.as_uri()])
    return png
