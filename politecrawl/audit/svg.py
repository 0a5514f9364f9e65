"""The audit's picture: requests over time, one row per crawler, forbidden requests marked.

Inline SVG, no script: a bar per time bucket, each row scaled to its own busiest bucket (a
crawler of ten requests is as visible as one of a million), forbidden requests in the report's
"bad" colour over the bars, and a native tooltip (``<title>``) per bar with its counts. Colours
come from the page's style sheet (classes), so the picture follows light and dark themes and
needs no ``style`` attribute (the page's Content-Security-Policy admits none).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape

from politecrawl.report.tables import printable

STYLE = """
svg.timeline { display: block; max-width: 100%; height: auto; margin: .5rem 0 1rem; }
svg.timeline .bar { fill: var(--accent); }
svg.timeline .forbidden { fill: var(--bad); }
svg.timeline .label, svg.timeline .axis { fill: var(--muted); font-size: 11px; }
svg.timeline .row { fill: var(--panel); }
"""

_LABEL_WIDTH = 170
_CHART_WIDTH = 600
_ROW_HEIGHT = 22
_BAR_HEIGHT = 18
_AXIS_HEIGHT = 18

Row = tuple[str, tuple[int, ...], tuple[int, ...]]
"""A crawler's name, its requests per bucket and its forbidden requests per bucket."""


def timeline_svg(rows: list[Row], *, start: datetime | None, bucket_seconds: float) -> str:
    """One SVG with a row per crawler; "" when there is nothing to draw."""
    if not rows or start is None:
        return ""
    buckets = max(len(counts) for _, counts, _ in rows) or 1
    step = _CHART_WIDTH / buckets
    height = len(rows) * _ROW_HEIGHT + _AXIS_HEIGHT
    width = _LABEL_WIDTH + _CHART_WIDTH
    parts = [
        f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="requests over time per crawler, forbidden requests in red">'
    ]
    for index, (name, counts, forbidden) in enumerate(rows):
        top = index * _ROW_HEIGHT
        shown = escape(printable(name if len(name) <= 24 else name[:23] + "…"))
        parts.append(
            f'<text class="label" x="0" y="{top + _BAR_HEIGHT - 5}">{shown}</text>'
            f'<rect class="row" x="{_LABEL_WIDTH}" y="{top}" width="{_CHART_WIDTH}" '
            f'height="{_BAR_HEIGHT}"/>'
        )
        peak = max(counts, default=0) or 1
        for bucket, count in enumerate(counts):
            if not count:
                continue
            x = _LABEL_WIDTH + bucket * step
            bar = max(_BAR_HEIGHT * count / peak, 1.0)
            when = start + timedelta(seconds=bucket * bucket_seconds)
            bad = forbidden[bucket] if bucket < len(forbidden) else 0
            tip = f"{when.isoformat(timespec='minutes')}: {count} requests"
            if bad:
                tip += f", {bad} forbidden"
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{top + _BAR_HEIGHT - bar:.1f}" '
                f'width="{max(step - 0.5, 0.5):.1f}" height="{bar:.1f}">'
                f"<title>{escape(tip)}</title></rect>"
            )
            if bad:
                mark = max(_BAR_HEIGHT * bad / peak, 3.0)
                parts.append(
                    f'<rect class="forbidden" x="{x:.1f}" y="{top + _BAR_HEIGHT - mark:.1f}" '
                    f'width="{max(step - 0.5, 0.5):.1f}" height="{mark:.1f}"/>'
                )
    end = start + timedelta(seconds=buckets * bucket_seconds)
    axis_y = len(rows) * _ROW_HEIGHT + 12
    parts.append(
        f'<text class="axis" x="{_LABEL_WIDTH}" y="{axis_y}">'
        f"{escape(start.isoformat(timespec='minutes'))}</text>"
        f'<text class="axis" x="{width}" y="{axis_y}" text-anchor="end">'
        f"{escape(end.isoformat(timespec='minutes'))}</text></svg>"
    )
    return "".join(parts)
