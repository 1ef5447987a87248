"""Headless Chromium driven through the DevTools protocol over a pipe: press keys, read the
page's state, take screenshots of it as a person sees it.

WHY a pipe (``--remote-debugging-pipe``): no port is opened and no WebSocket library is
needed; Chromium reads commands from fd 3 and writes answers to fd 4, each a JSON object
ended by a NUL byte. The flags are those of ``tests/kits/servers/chromium.py`` with a fresh profile.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         "--disable-dev-shm-usage"]

# WHY a long first wait and one retry: a CI machine starts Chromium cold (no font cache, two
# test workers busy); its first answer once took over 30 s there and failed the run. The first
# answer may take up to START_TIMEOUT; a browser that gives none, or exits, is killed and
# started once more with a fresh profile before the test fails, with Chromium's own stderr.
START_TIMEOUT = 120.0
START_TRIES = 2


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium with one page, driven over the DevTools pipe."""

    def __init__(self, width: int = 1280, height: int = 900, timeout: float = 30):
        self.timeout = timeout
        last: Exception | None = None
        for _ in range(START_TRIES):
            try:
                self._start(width, height)
                return
            except (TimeoutError, EOFError) as exc:
                last = exc
                self._stop(kill=True)
        raise TimeoutError(f"chromium did not start in {START_TRIES} tries: {last}")

    def _start(self, width: int, height: int) -> None:
        exe = chromium()
        assert exe is not None, "no chromium"
        self.profile = tempfile.mkdtemp(prefix="np-cdp-")
        self._stderr = tempfile.TemporaryFile()
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def child_fds() -> None:  # fd 3: commands in, fd 4: answers out
            # copies above 4 first: dup2 onto 3 and 4 then always makes a new, inheritable fd
            # (dup2(3, 3) would keep a close-on-exec fd 3 that the browser never gets)
            a, b = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._stderr,
            preexec_fn=child_fds, close_fds=False)  # fds 3 and 4 stay open in the browser
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._id, self._buf, self.events = 0, b"", []
        self.session = ""
        targets = self.call("Target.getTargets", _timeout=START_TIMEOUT)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.size(width, height)

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            return self._stderr.read()[-800:].decode("utf-8", "replace")
        except (OSError, ValueError, AttributeError):
            return ""

    # ------------------------------------------------------------------ protocol

    def _send(self, msg: dict[str, Any]) -> None:
        os.write(self._w, json.dumps(msg).encode() + b"\0")

    def _read(self, timeout: float | None = None) -> dict[str, Any]:
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._r], [], [], min(max(left, 0), 1.0))
            if not ready:
                if self.proc.poll() is not None:
                    raise EOFError(f"chromium exited ({self.proc.returncode}): {self._stderr_tail()}")
                if left <= 0:
                    raise TimeoutError(f"chromium did not answer in {wait:.0f} s: {self._stderr_tail()}")
                continue
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise EOFError(f"chromium closed the pipe: {self._stderr_tail()}")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, _timeout: float | None = None, **params: Any) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session:
            msg["sessionId"] = self.session
        self._send(msg)
        while True:
            got = self._read(_timeout)
            if got.get("id") == self._id:
                if "error" in got:
                    raise RuntimeError(f"{method}: {got['error']}")
                return got.get("result", {})
            self.events.append(got)

    def wait_event(self, method: str) -> dict[str, Any]:
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        while True:
            got = self._read()
            if got.get("method") == method:
                return got
            self.events.append(got)

    # ------------------------------------------------------------------ page

    def size(self, width: int, height: int, mobile: bool = False) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)

    def open(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"page script failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    def key(self, key: str) -> None:
        """Press and release one key, as a keyboard does (``ArrowRight``, ``Home``, ...)."""
        codes = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=codes.get(key, 0))

    def screenshot(self, path: Path, full: bool = False) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
            w, h = self.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}
        data = self.call("Page.captureScreenshot", **params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        self._stop(kill=False)

    def _stop(self, kill: bool) -> None:
        """End the browser (politely unless ``kill``) and free its pipes and profile."""
        try:
            if kill:
                raise RuntimeError("kill")
            self.session = ""
            self._send({"id": self._id + 1, "method": "Browser.close", "params": {}})
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - closing is best effort; kill below
            if getattr(self, "proc", None) is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
        finally:
            for fd in (getattr(self, "_w", None), getattr(self, "_r", None)):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._w = self._r = None
            self._stderr.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
