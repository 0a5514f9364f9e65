"""The audit as ONE self-contained HTML page: a section per crawler, sortable tables, a picture.

The report's house style (``report.assets``: its style sheet and the script that sorts any
``table[data-sortable]``), the report's escaping (``html.escape`` of everything from the log,
control characters shown by ``printable``), and its Content-Security-Policy: no network, only
this page's own style and script, by hash. The picture is inline SVG (``svg``), no script.
Only http(s) URLs become links.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from politecrawl.audit.svg import STYLE as SVG_STYLE, Row, timeline_svg
from politecrawl.audit.text import plural
from politecrawl.report.assets import STYLE as REPORT_STYLE
from politecrawl.report.html import render_page
from politecrawl.report.tables import printable

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from politecrawl.audit.results import AuditResult, CrawlerAudit

_STYLE = REPORT_STYLE + SVG_STYLE
_MAX_TIMELINE_ROWS = 40


def _text(value: object) -> str:
    return escape(printable(str(value)))


def _when(value: datetime | None) -> str:
    return "" if value is None else value.isoformat(timespec="seconds")


def _url(origin: str, target: str) -> str:
    url = origin + target
    if url.lower().startswith(("http://", "https://")):
        return f'<a href="{escape(url)}" rel="noreferrer noopener">{_text(url)}</a>'
    return _text(url)


def _table(label: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    """A sortable table; cells are trusted markup (escape their data before)."""
    if not rows:
        return ""
    head = "".join(
        f'<th scope="col" aria-sort="none"><button type="button">{escape(c)}</button></th>'
        for c in columns
    )
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f'<div class="wrap"><table data-sortable="pending" aria-label="{escape(label)}">\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table></div>\n"
    )


def _overview(result: AuditResult) -> str:
    rows = [
        (
            f'<a href="#crawler-{index}">{_text(crawler.name)}</a>',
            _text(crawler.verdict),
            str(crawler.requests),
            str(crawler.forbidden_requests),
            str(crawler.short_gaps + crawler.rate_breaches),
            str(crawler.early_retries),
            str(crawler.max_in_flight),
        )
        for index, crawler in enumerate(result.crawlers)
    ]
    columns = (
        "crawler",
        "verdict",
        "requests",
        "forbidden",
        "too fast",
        "after 429/503",
        "most in flight",
    )
    return _table("crawlers", columns, rows)


def _crawler(index: int, crawler: CrawlerAudit, picture: str) -> str:
    badge = "count nonzero" if crawler.faults else "count"
    parts = [
        f'<section id="crawler-{index}">\n<h2>{_text(crawler.name)} '
        f'<span class="{badge}">{_text(crawler.verdict)}</span></h2>\n',
        f'<p class="meta">{plural(crawler.requests, "request")}, {_when(crawler.first_at)} to '
        f"{_when(crawler.last_at)}</p>\n{picture}",
    ]
    agents = [(_text(agent), str(count)) for agent, count in crawler.user_agents]
    parts.append(_table("user agents", ("User-Agent", "requests"), agents))
    reads = [
        (_text(r.origin or "(the site)"), str(r.fetches), _when(r.first_at), str(r.requests_before))
        for r in crawler.robots
    ]
    parts.append(
        _table("robots.txt", ("origin", "robots.txt fetches", "first", "requests before"), reads)
    )
    forbidden = [
        (
            _url(url.origin, url.target),
            str(url.requests),
            _when(url.first_at),
            str(url.first_status),
            "<br>".join(_text(line) for line in url.deciding),
            _text(url.robots),
        )
        for url in crawler.forbidden
    ]
    columns = ("forbidden URL", "requests", "first", "status", "deciding lines", "robots.txt")
    parts.append(_table("forbidden", columns, forbidden))
    incidents = [
        (
            _text(incident.kind),
            _when(incident.at),
            _url(incident.origin, incident.target),
            f"{incident.measured_seconds:g}",
            f"{incident.required_seconds:g}",
            _text(incident.detail),
        )
        for incident in crawler.incidents
    ]
    columns = ("too soon", "at", "URL", "measured", "asked", "detail")
    parts.append(_table("requests too soon", columns, incidents))
    parts.append("</section>\n")
    return "".join(parts)


def _rows(crawler: CrawlerAudit) -> list[Row]:
    return [(crawler.name, crawler.timeline, crawler.forbidden_timeline)]


def render_html(result: AuditResult) -> str:
    """The whole audit as one HTML document (UTF-8, self-contained)."""

    def picture(rows: list[Row]) -> str:
        return timeline_svg(rows, start=result.timeline_start, bucket_seconds=result.bucket_seconds)

    judged = [c for c in result.crawlers if c.judged]
    faulty = sum(1 for c in judged if c.faults)
    cards = (
        ("crawlers", len(judged)),
        ("with faults", faulty),
        ("forbidden requests", sum(c.forbidden_requests for c in judged)),
        ("requests", result.requests),
        ("unreadable lines", result.bad_lines),
    )
    summary = "".join(
        f'<div class="card"><span class="value">{value:,}</span>'
        f'<span class="label">{escape(label)}</span></div>'
        for label, value in cards
    )
    overall = picture([row for c in result.crawlers[:_MAX_TIMELINE_ROWS] for row in _rows(c)])
    sections = "".join(
        _crawler(index, crawler, picture(_rows(crawler)))
        for index, crawler in enumerate(result.crawlers)
    )
    problems = "".join(f'<p class="note">{_text(problem)}</p>\n' for problem in result.problems)
    bad = [
        (_text(f"{b.source}:{b.line_number}"), _text(b.reason), _text(b.excerpt))
        for b in result.bad_samples
    ]
    meta = (
        f"{plural(result.lines, 'line')}, {plural(result.requests, 'request')}, "
        f"{_when(result.first_at)} to {_when(result.last_at)} · robots.txt: "
        + _text("; ".join(result.robots_sources))
    )
    title = "politecrawl audit: who crawls this site"
    body = (
        f'<section id="summary">\n<h2>Summary</h2>\n<div class="summary">{summary}</div>\n'
        f"{problems}</section>\n"
        f'<section id="crawlers">\n<h2>Crawlers</h2>\n{overall}{_overview(result)}</section>\n'
        f"{sections}"
        + (
            f'<section id="unreadable">\n<h2>Unreadable lines <span class="count nonzero">'
            f"{result.bad_lines:,}</span></h2>\n"
            + _table("unreadable lines", ("line", "why", "begins"), bad)
            + "</section>\n"
            if bad
            else ""
        )
    )
    footer = "Generated by politecrawl audit. Click a column header to sort."
    return render_page(title, title, meta, body, style=_STYLE, footer=footer)
