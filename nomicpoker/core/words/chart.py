"""A chip-count chart as inline SVG, drawn when the site is built (pure: numbers in, text out).

WHY SVG text drawn in Python and no charting script: the auditors' site needs no JavaScript
and allows none (its Content-Security-Policy forbids scripts), and a static SVG reads the same
in every browser, in a feed reader and in a saved page. The numbers are also printed in a
table beside it, so the chart is never the only place a value is.

Player names are untrusted: every piece of text goes through :func:`html.escape`. Colours
come from a fixed palette that stays distinguishable for the common colour-vision
deficiencies (Okabe and Ito), and every line also carries a different marker shape.
"""

from __future__ import annotations

import html
from typing import Sequence

#: Okabe-Ito colours (black omitted: it is the axis colour)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
W, PH = 640, 228  # width, plot height
LEFT, RIGHT, TOP = 48, 16, 16


def _nice_max(v: int) -> int:
    """A round upper bound for the y axis (1, 2 or 5 times a power of ten)."""
    if v <= 0:
        return 1
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= v:
                return m * step
        step *= 10


def _marker(kind: int, x: float, y: float, colour: str) -> str:
    k = kind % 3
    if k == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>'
    if k == 1:
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    return (f'<path d="M{x:.1f} {y - 5:.1f}L{x + 5:.1f} {y + 4:.1f}L{x - 5:.1f} {y + 4:.1f}Z" '
            f'fill="{colour}"/>')


def chip_chart(labels: Sequence[str], series: Sequence[tuple[str, Sequence[int]]], title: str) -> str:
    """An SVG line chart: ``labels`` along x (``start``, ``hand 1``, ...), one line per
    ``(player, values)``. Returns an ``<svg>`` element with ``role="img"`` and a ``<title>``."""
    n = len(labels)
    top = _nice_max(max((v for _, vs in series for v in vs), default=0))
    pw, ph = W - LEFT - RIGHT, PH
    legend_rows = (len(series) + 2) // 3
    H = TOP + PH + 30 + legend_rows * 18

    def x(i: int) -> float:
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: int) -> float:
        return TOP + ph - ph * v / top

    e = html.escape
    parts = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-labelledby="chart-title" '
             f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title">{e(title)}</title>']
    for k in range(5):  # grid and y labels
        v = top * k // 4
        yy = y(v)
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{yy:.1f}" x2="{W - RIGHT}" y2="{yy:.1f}"/>')
        parts.append(f'<text class="ylab" x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{v}</text>')
    every = max(1, (n + 7) // 8)  # at most about 8 x labels, so they never overlap
    for i, lab in enumerate(labels):
        if i % every == 0 or i == n - 1:
            anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
            parts.append(f'<text class="xlab" x="{x(i):.1f}" y="{TOP + PH + 18}" '
                         f'text-anchor="{anchor}">{e(lab)}</text>')
    for j, (name, values) in enumerate(series):
        colour = PALETTE[j % len(PALETTE)]
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<g class="series" data-player="{e(name, quote=True)}"><title>{e(name)}</title>')
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        parts += [_marker(j, x(i), y(v), colour) for i, v in enumerate(values)]
        parts.append("</g>")
    # legend below the plot, wrapping every 3 players
    for j, (name, _values) in enumerate(series):
        col, row = j % 3, j // 3
        lx, ly = LEFT + col * (pw / 3), TOP + PH + 40 + row * 18
        colour = PALETTE[j % len(PALETTE)]
        short = name if len(name) <= 24 else name[:23] + "…"
        parts.append(_marker(j, lx + 5, ly - 4, colour))
        parts.append(f'<text class="legend" x="{lx + 14:.1f}" y="{ly:.1f}">{e(short)}</text>')
    parts.append("</svg>")
    return "".join(parts)
