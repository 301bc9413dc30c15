"""Hand-written SVG line charts: one figure against corpus size, one line per engine."""

from __future__ import annotations

import math
from html import escape

COLOURS = ["#1d70b8", "#d4351c", "#00703c", "#f47738"]


def _ticks(low: float, high: float) -> list[float]:
    if high <= low:
        high = low + 1
    step = 10 ** math.floor(math.log10((high - low) / 4 or 1))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 6:
            step *= factor
            break
    first = math.floor(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 2) if first + i * step <= high + step * 0.001]


def line_chart(
    title: str, series: dict[str, list[tuple[float, float | None]]], width: int = 720, height: int = 360
) -> str:
    points = [(x, y) for values in series.values() for x, y in values if y is not None]
    left, right, top, bottom = 70, 240, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="14" font-weight="bold">{escape(title)}</text>',
    ]
    if not points:
        parts.append(f'<text x="{left}" y="{top + 20}">no data</text></svg>')
        return "\n".join(parts)
    xs = sorted({x for x, _ in points})
    log_x = len(xs) > 1 and xs[-1] / xs[0] >= 5
    fx = (lambda v: math.log10(v)) if log_x else (lambda v: v)
    x_low, x_high = fx(xs[0]), fx(xs[-1])
    if x_high == x_low:
        x_low, x_high = x_low - 1, x_high + 1
    y_high = max(y for _, y in points) * 1.08 or 1
    yticks = _ticks(0, y_high)
    y_high = max(y_high, yticks[-1])

    def px(x: float) -> float:
        return left + (fx(x) - x_low) / (x_high - x_low) * plot_w

    def py(y: float) -> float:
        return top + plot_h - y / y_high * plot_h

    for tick in yticks:
        y = py(tick)
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for x in xs:
        parts.append(f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{top}" y2="{top + plot_h}" stroke="#eee"/>')
        parts.append(f'<text x="{px(x):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{x:,.0f}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">records{" (log scale)" if log_x else ""}</text>'
    )
    parts.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="#333"/>')
    parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#333"/>')
    for number, (name, values) in enumerate(series.items()):
        colour = COLOURS[number % len(COLOURS)]
        present = [(x, y) for x, y in values if y is not None]
        if len(present) > 1:
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in present)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in present:
            parts.append(
                f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{colour}"><title>{escape(name)}: {y:.3g}</title></circle>'
            )
        ly = top + 10 + number * 20
        parts.append(f'<rect x="{left + plot_w + 15}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{left + plot_w + 32}" y="{ly + 2}">{escape(name)}{"" if present else " (n/a)"}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
