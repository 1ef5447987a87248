"""Headless Chromium for the site tests: load a page's rendered DOM, take a screenshot, and
read the PNG back (a small decoder, so no imaging library is needed).

Debian's ``chromium`` is installed by ``scripts/ci_services.sh`` in CI; locally the tests
that need it skip, saying so, when it is absent. Every run gets a fresh profile directory
and the flags that keep a headless browser off the network and quiet."""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars"]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    exe = chromium()
    assert exe is not None
    with tempfile.TemporaryDirectory(prefix="np-chromium-") as profile:
        return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                              text=True, timeout=timeout, check=False)


def dump_dom(url: str) -> str:
    """The page's DOM after the browser has parsed and laid it out."""
    res = _run(["--dump-dom", url])
    assert res.returncode == 0 and res.stdout.strip(), res.stderr[-2000:]
    return res.stdout


def screenshot(url: str, out: Path, width: int, height: int) -> Path:
    res = _run([f"--screenshot={out}", f"--window-size={width},{height}", url])
    assert res.returncode == 0 and out.exists(), res.stderr[-2000:]
    return out


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r) for r in rows] if bpp == 3 else [
        b"".join(r[i:i + 3] for i in range(0, len(r), 4)) for r in rows]


def count_colour(rows: list[bytes], rgb: tuple[int, int, int], tolerance: int = 24) -> int:
    n = 0
    for r in rows:
        for i in range(0, len(r), 3):
            if abs(r[i] - rgb[0]) <= tolerance and abs(r[i + 1] - rgb[1]) <= tolerance and abs(r[i + 2] - rgb[2]) <= tolerance:
                n += 1
    return n
