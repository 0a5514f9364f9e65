"""The HTML reports' pictures: the crawl's requests per host over time, and a change report's
counts as bars.

Inline SVG, no script and no external asset, as the audit's timeline (``audit.svg``) draws
its own: colours come from the page's style sheet by class (its Content-Security-Policy admits
no ``style`` attribute), so the pictures follow the light and dark themes; a native tooltip
(``<title>``) says what each row shows. Nothing is scaled as a whole: every position is a
percentage of the picture's width and every height is in pixels, so the same SVG reads on a
390-pixel phone and a 1280-pixel desktop, text never shrinks, and marks never stretch.

The timeline has a row per host (the busiest; the others counted under it). Each request is a
mark as wide as it took, at least one of ``COLUMNS`` slices of the row (marks falling in one
slice merge, so a row never holds more than ``COLUMNS`` of them); the gaps between marks are
the host's waits (its delay, a back-off, robots.txt). A failed request (4xx, 5xx, a network
error) is a red mark of the row's full height; a robots.txt fetch a dot on a line. A crawl
with too many requests to mark one by one comes bucketed (``Timeline.bucket_seconds``): a bar
per slice of time, as high as its share of the row's busiest slice, its failures in red over
it. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape

from politecrawl.report.crawl_model import HostTimeline, Timeline
from politecrawl.report.model import counted
from politecrawl.report.tables import printable

__all__ = ["COLUMNS", "bars_svg", "timeline_html"]

COLUMNS = 1000
_ROW_PX = 24
_OK_TOP_PX = 8  # a request's mark leaves the top third of the row to failures and dots
_NICE_SECONDS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600)
_TICKS = 3  # at most this many between the two ends of the axis


def _pct(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") + "%"


def _text(value: str) -> str:
    return escape(printable(value))


def _merged(columns: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of consecutive columns: ``[(first, last), ...]``."""
    runs: list[tuple[int, int]] = []
    for column in sorted(set(columns)):
        if runs and column == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], column)
        else:
            runs.append((column, column))
    return runs


def _column(moment: datetime, start: datetime, span: float) -> int:
    offset = (moment - start).total_seconds() / span
    return min(max(int(offset * COLUMNS), 0), COLUMNS - 1)


def _requests(host: HostTimeline, start: datetime, span: float) -> list[str]:
    """One request a mark, merged where they share a column: requests in the accent colour
    two thirds high, failures red and full height."""
    ok: set[int] = set()
    failed: set[int] = set()
    for mark in host.marks:
        first = _column(mark.at, start, span)
        ends = mark.at.timestamp() + mark.seconds
        last = max(first, min(int((ends - start.timestamp()) / span * COLUMNS), COLUMNS - 1))
        (failed if mark.failures else ok).update(range(first, last + 1))
    shapes = []
    for name, columns, top in (("ok", ok - failed, _OK_TOP_PX), ("fail", failed, 0)):
        for first, last in _merged(columns):
            shapes.append(
                f'<rect class="{name}" x="{_pct(first * 100 / COLUMNS)}" y="{top}" '
                f'width="{_pct((last - first + 1) * 100 / COLUMNS)}" height="{_ROW_PX - top}"/>'
            )
    return shapes


def _buckets(host: HostTimeline, start: datetime, span: float) -> list[str]:
    """A bar per slice of time, as high as its share of the row's busiest slice."""
    peak = max((mark.requests for mark in host.marks), default=0) or 1
    shapes = []
    for mark in host.marks:
        x = _pct((mark.at - start).total_seconds() / span * 100)
        width = _pct(max(mark.seconds / span * 100, 100 / COLUMNS))
        height = max(round(_ROW_PX * mark.requests / peak), 2)
        shapes.append(
            f'<rect class="ok" x="{x}" y="{_ROW_PX - height}" width="{width}" height="{height}"/>'
        )
        if mark.failures:
            bad = max(round(_ROW_PX * mark.failures / peak), 4)
            shapes.append(
                f'<rect class="fail" x="{x}" y="{_ROW_PX - bad}" width="{width}" height="{bad}"/>'
            )
    return shapes


def _host_row(host: HostTimeline, timeline: Timeline, start: datetime, span: float) -> str:
    failed = counted(host.failures, "failure")
    fetched = counted(len(host.robots_fetches), "robots.txt fetch", "robots.txt fetches")
    said = f"{counted(host.requests, 'request')}, {failed}, {fetched}"
    said += f", delay {host.delay_seconds:.3g} s"
    draw = _requests if timeline.bucket_seconds is None else _buckets
    shapes = [f'<rect class="lane" width="100%" height="{_ROW_PX}"/>']
    shapes += [
        f'<line class="tick" x1="{x}" x2="{x}" y1="0" y2="{_ROW_PX}"/>' for x, _ in _ticks(span)
    ]
    shapes += draw(host, start, span)
    for moment in host.robots_fetches:
        x = _pct((moment - start).total_seconds() / span * 100)
        shapes.append(
            f'<line class="robots" x1="{x}" x2="{x}" y1="0" y2="{_ROW_PX}"/>'
            f'<circle class="robots" cx="{x}" cy="5" r="4"/>'
        )
    label = f"{host.host}: {said}"
    return (
        f'<div class="host"><span class="name">{_text(host.host)}</span> '
        f'<span class="note">{_text(said)}</span></div>\n'
        f'<svg class="strip" xmlns="http://www.w3.org/2000/svg" width="100%" '
        f'height="{_ROW_PX}" role="img" aria-label="{_text(label)}">'
        f"<title>{_text(label)}</title>{''.join(shapes)}</svg>\n"
    )


def _offset(seconds: float) -> str:
    if seconds < 60:
        return f"+{seconds:g} s"
    if seconds < 3600:
        minutes, rest = divmod(round(seconds), 60)
        return f"+{minutes} min" + (f" {rest} s" if rest else "")
    hours, rest = divmod(round(seconds), 3600)
    return f"+{hours} h" + (f" {rest // 60} min" if rest // 60 else "")


def _ticks(span: float) -> list[tuple[str, str]]:
    """(x, label) of the axis's ticks between its ends: a round step, at most ``_TICKS``,
    none too close to the ends' labels."""
    step = next((s for s in _NICE_SECONDS if span / s <= _TICKS + 1), None)
    if step is None:
        step = 3600 * math.ceil(span / 3600 / (_TICKS + 1))
    ticks = []
    at = step
    while at < span:
        share = at / span
        if 0.18 < share < 0.82:  # clear of the ends' clock times, even 360 pixels wide
            ticks.append((_pct(share * 100), _offset(at)))
        at += step
    return ticks


def _axis(start: datetime, end: datetime, span: float) -> str:
    labels = [
        f'<text class="axis" x="0" y="12">{start.strftime("%H:%M:%S")}</text>',
        f'<text class="axis" x="100%" y="12" text-anchor="end">{end.strftime("%H:%M:%S")}</text>',
    ]
    labels += [
        f'<text class="axis" x="{x}" y="12" text-anchor="middle">{_text(label)}</text>'
        for x, label in _ticks(span)
    ]
    return (
        '<svg class="axis" xmlns="http://www.w3.org/2000/svg" width="100%" height="16" '
        f'aria-hidden="true">{"".join(labels)}</svg>\n'
    )


_SWATCHES = (
    ('<rect class="ok" x="2" y="3" width="6" height="11"/>', "a request (as wide as it took)"),
    ('<rect class="fail" x="2" y="0" width="6" height="14"/>', "a failure (4xx, 5xx, an error)"),
    (
        '<line class="robots" x1="7" x2="7" y1="0" y2="14"/><circle class="robots" cx="7" cy="4"'
        ' r="3.5"/>',
        "robots.txt fetched",
    ),
)


def _legend(timeline: Timeline) -> str:
    keys = [
        f'<span class="key"><svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" '
        f'aria-hidden="true">{shape}</svg>{escape(words)}</span>'
        for shape, words in _SWATCHES
    ]
    if timeline.bucket_seconds is not None:
        keys[0] = keys[0].replace(
            "a request (as wide as it took)",
            f"requests per {timeline.bucket_seconds:.3g} s (bar height: the host's share of its"
            " busiest moment)",
        )
    return f'<p class="legend">{" ".join(keys)}</p>\n'


def timeline_html(timeline: Timeline) -> str:
    """The requests of the crawl's current pass per host over time, as a figure of inline SVG
    rows with their labels; "" when nothing was fetched."""
    if timeline.start is None or timeline.end is None or not timeline.hosts:
        return ""
    span = max(timeline.span_seconds, 0.001)
    rows = "".join(_host_row(host, timeline, timeline.start, span) for host in timeline.hosts)
    more = ""
    if timeline.other_hosts:
        hosts = counted(timeline.other_hosts, "more host")
        more = f'<p class="note">and {hosts} ({counted(timeline.other_requests, "request")})</p>\n'
    caption = (
        "Each row is a host, time runs left to right; the gaps between marks are the host's "
        "waits: its delay between requests, a back-off after failures, robots.txt."
    )
    return (
        f'<figure class="activity">\n{_legend(timeline)}{rows}'
        f"{_axis(timeline.start, timeline.end, span)}{more}"
        f"<figcaption>{escape(caption)}</figcaption>\n</figure>\n"
    )


_BAR_ROW_PX = 30


def bars_svg(items: Sequence[tuple[str, int, str]], *, label: str) -> str:
    """Horizontal bars, one per ``(name, count, tone)``, each named with its count above it;
    the longest is the largest count; "" when every count is 0. ``label``: what they show."""
    peak = max((count for _, count, _ in items), default=0)
    if not peak:
        return ""
    shapes = []
    for index, (name, count, tone) in enumerate(items):
        top = index * _BAR_ROW_PX
        width = _pct(max(count / peak * 100, 0.5)) if count else "0"
        shapes.append(
            f'<text class="label" x="0" y="{top + 11}">{_text(name)} · {count}</text>'
            f'<rect class="bar {escape(tone)}" x="0" y="{top + 15}" width="{width}" height="10"/>'
        )
    height = len(items) * _BAR_ROW_PX
    return (
        f'<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="100%" height="{height}" '
        f'role="img" aria-label="{_text(label)}"><title>{_text(label)}</title>'
        f"{''.join(shapes)}</svg>"
    )
