"""Hand-written SVG charts: line charts (one figure against corpus size, one line
per engine) and panels of horizontal bars (a figure per visit, a target line)."""

from __future__ import annotations

import math
from html import escape

COLOURS = ["#1d70b8", "#d4351c", "#00703c", "#f47738", "#912b88"]


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


def _begin(title: str, width: int, height: int, left: int) -> list[str]:
    """An SVG's opening, white ground and title (escaped: titles may hold a site's label)."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="14" font-weight="bold">{escape(title)}</text>',
    ]


def line_chart(
    title: str, series: dict[str, list[tuple[float, float | None]]], width: int = 720, height: int = 360
) -> str:
    points = [(x, y) for values in series.values() for x, y in values if y is not None]
    left, right, top, bottom = 70, 240, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    parts = _begin(title, width, height, left)
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


TARGET_COLOUR = "#d4351c"


def bar_panels(title: str, panels: list[dict], unit: str, segments: list[str] | None = None, width: int = 720) -> str:
    """Panels of horizontal bars, each panel with its own scale and, when it has one, its target.

    A panel is {"title", "bars": [(label, [value per segment])], "target": number or None}.
    With several `segments` each bar is stacked from them (a legend names them); every
    bar is labelled with its total and `unit`, the target line with its value."""
    segments = segments or [""]
    labels = [label for panel in panels for label, _ in panel["bars"]]
    left = min(max([len(label) for label in labels] + [8]) * 7 + 20, 320)
    right, bar_h, gap = 80, 18, 6
    plot_w = width - left - right
    legend, x, y = [], 12, 36  # the segments' names, in rows that fit the width
    for number, name in enumerate(segments if len(segments) > 1 else []):
        if x > 12 and x + 16 + len(name) * 7 > width:
            x, y = 12, y + 20
        legend.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{COLOURS[number % len(COLOURS)]}"/>')
        legend.append(f'<text x="{x + 16}" y="{y + 10}">{escape(name)}</text>')
        x += 16 + len(name) * 7 + 14
    legend_h = y - 36 + 22 if legend else 0
    heights = [46 + len(panel["bars"]) * (bar_h + gap) + 22 for panel in panels]
    height = 36 + legend_h + sum(heights)
    parts = _begin(title, width, height, 12) + legend
    top = 36 + legend_h
    for panel, panel_h in zip(panels, heights):
        totals = [sum(values) for _, values in panel["bars"]]
        target = panel.get("target")
        high = max(totals + ([target] if target is not None else []) + [0]) * 1.1 or 1
        ticks = _ticks(0, high)
        high = max(high, ticks[-1])

        def px(value: float, high: float = high) -> float:
            return left + value / high * plot_w

        parts.append(f'<text x="12" y="{top + 18}" font-weight="bold">{escape(panel["title"])}</text>')
        axis_top, axis_bottom = top + 30, top + panel_h - 22
        for tick in ticks:
            parts.append(
                f'<line x1="{px(tick):.1f}" x2="{px(tick):.1f}" y1="{axis_top}" y2="{axis_bottom}" stroke="#eee"/>'
            )
            parts.append(f'<text x="{px(tick):.1f}" y="{axis_bottom + 14}" text-anchor="middle">{tick:g}</text>')
        parts.append(f'<line x1="{left}" x2="{left}" y1="{axis_top}" y2="{axis_bottom}" stroke="#333"/>')
        if target is not None:  # beneath the bars and their labels
            parts.append(
                f'<line class="target" x1="{px(target):.1f}" x2="{px(target):.1f}" y1="{axis_top - 4}" y2="{axis_bottom}"'
                f' stroke="{TARGET_COLOUR}" stroke-width="2" stroke-dasharray="6 3"/>'
            )
            parts.append(
                f'<text x="{px(target):.1f}" y="{axis_top - 8}" text-anchor="middle" fill="{TARGET_COLOUR}">'
                f"target {target:g} {escape(unit)}</text>"
            )
        for row, ((label, values), total) in enumerate(zip(panel["bars"], totals)):
            y = axis_top + 4 + row * (bar_h + gap)
            parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end">{escape(label)}</text>')
            start = 0.0
            for number, (name, value) in enumerate(zip(segments, values)):
                tip = f"{escape(label)}{': ' + escape(name) if name else ''}: {value:.2f} {escape(unit)}"
                parts.append(
                    f'<rect class="bar" x="{px(start):.1f}" y="{y}" width="{px(value) - left:.1f}" height="{bar_h}"'
                    f' fill="{COLOURS[number % len(COLOURS)]}"><title>{tip}</title></rect>'
                )
                start += value
            parts.append(  # haloed: it stays readable over a target line just past the bar
                f'<text class="value" x="{px(total) + 4:.1f}" y="{y + 13}" paint-order="stroke" stroke="white"'
                f' stroke-width="4">{total:.2f} {escape(unit)}</text>'
            )
        top += panel_h
    parts.append("</svg>")
    return "\n".join(parts)
