"""The report as ONE self-contained HTML page: what matters first, then a table per section.

Its title and heading name the site and the day; its header says when the pass ran, for how
long and how many pages it fetched. The summary leads with the verdict (what is broken, in red,
or nothing, in green) and whether the pass is complete (L5), then the findings' counts, problems
first and in their colours, the sections with nothing found folded and muted; then the crawl's
measures, and a picture of its requests per host over time (``pictures``). The sections follow,
the broken ones first, those with nothing found folded at the end; a finding names its first
few linking pages, the rest behind a disclosure. On a phone each table row is a card, each
cell under its column's name, so that no column is ever off screen.

Inline CSS and JavaScript (``report_assets``), no network, no external fonts; opened from a file
it works offline. Everything from the crawl is escaped with ``html.escape``: URLs, robots.txt
lines and error messages are written by strangers, and a URL like
``http://a.test/<script>alert(1)</script>`` must show as text, never run. As a second wall, the
page's Content-Security-Policy admits no network loads and only the report's own script and
style, by hash; only http(s) URLs become links (never ``javascript:``). Pure.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from html import escape

from politecrawl.report.assets import SCRIPT, STYLE
from politecrawl.report.headline import (
    crawled,
    finding_counts,
    measure_groups,
    ordered,
    report_sections,
    site,
    verdict,
)
from politecrawl.report.model import Report, broken_count, counted
from politecrawl.report.pictures import timeline_html
from politecrawl.report.tables import (
    Cell,
    Count,
    Line,
    Table,
    pass_note,
    printable,
)

_LINKABLE = ("http://", "https://")
_SLASH = re.compile(r"(?<!:)(?<!:/)/")
_DATE = re.compile(r"\d{4}-\d\d-\d\dT[\d:]+(?:[+-]\d\d:\d\d|Z)?")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@cache
def _csp(style: str) -> str:
    """The page's Content-Security-Policy: no network, only ``style`` and the script, by hash."""
    return (
        "default-src 'none'; "
        f"style-src {_hash(style)}; "
        f"script-src {_hash(SCRIPT)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def _line(line: Line) -> str:
    if line.folded:  # ``and 524 more``: the rest behind a disclosure, closed
        inner = "".join(map(_line, line.folded))
        return (
            f'<details class="more"><summary>{escape(printable(line.text))}</summary>'
            f"{inner}</details>"
        )
    text = escape(printable(line.text))
    if _DATE.fullmatch(line.text):
        text = f'<span class="nowrap">{text}</span>'  # never broken at its hyphens
    if line.href is not None and line.href.lower().startswith(_LINKABLE):
        text = _SLASH.sub("/<wbr>", text)  # a long URL wraps at its slashes (not "://")
        text = f'<a href="{escape(line.href)}" rel="noreferrer noopener">{text}</a>'
    if line.note:
        text += f'<span class="note">{escape(printable(line.note))}</span>'
    return f'<div class="line">{text}</div>'


def _cell(cell: Cell, column: str) -> str:
    key = cell[0].text if cell else ""
    lines = "".join(_line(line) for line in cell)
    # data-label: a phone shows each row as a card, each cell under its column's name
    return f'<td data-sort="{escape(printable(key))}" data-label="{escape(column)}">{lines}</td>'


def count_class(tone: str) -> str:
    """The badge beside a section's title: problems ``nonzero`` (broken ones also ``bad``),
    descriptions plain, a change report's own tones by name."""
    return {"bad": "count nonzero bad", "warn": "count nonzero", "neutral": "count"}.get(
        tone, f"count {tone}"
    )


def _table(table: Table) -> str:
    if not table.rows and table.empty:  # one line, no empty table (a crawl without sitemaps)
        return (
            f'<section id="{escape(table.key)}">\n<h2>{escape(table.title)}</h2>\n'
            f'<p class="empty">{escape(printable(table.empty))}</p>\n</section>\n'
        )
    if not table.rows:  # folded and muted: nothing to read
        return (
            f'<section id="{escape(table.key)}" class="nothing">\n<details>\n'
            f'<summary>{escape(table.title)} <span class="count">0</span></summary>\n'
            '<p class="empty">None found.</p>\n</details>\n</section>\n'
        )
    head = (
        f'<section id="{escape(table.key)}">\n<h2>{escape(table.title)} '
        f'<span class="{count_class(table.tone)}">{table.total}</span></h2>\n'
    )
    if table.note:
        head += f'<p class="note">{escape(printable(table.note))}</p>\n'
    headers = "".join(
        f'<th scope="col" aria-sort="none"><button type="button">{escape(column)}</button></th>'
        for column in table.columns
    )
    rows = "\n".join(
        "<tr>" + "".join(map(_cell, row, table.columns)) + "</tr>" for row in table.rows
    )
    return (
        head
        + '<div class="wrap"><table class="stack" data-sortable="pending" '
        + f'aria-label="{escape(table.title)}">\n'
        + f"<thead><tr>{headers}</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>\n"
        + "</section>\n"
    )


def _card(count: Count) -> str:
    tone = count.tone if count.count else "zero"
    inner = (
        f'<span class="value {tone}">{count.count}</span>'
        f'<span class="label">{escape(count.label)}</span>'
    )
    if count.key is None:
        return f'<div class="card">{inner}</div>'
    return f'<a class="card" href="#{escape(count.key)}">{inner}</a>'


def cards(counts: tuple[Count, ...], kind: str = "summary") -> str:
    """A grid of cards, each a count linking to its section (``kind`` ``summary measures``:
    smaller ones)."""
    return f'<div class="{kind}">{"".join(map(_card, counts))}</div>\n'


def folded_cards(counts: tuple[Count, ...], what: str) -> str:
    """The counts of nothing, folded and muted: ``Nothing found in 12 sections``."""
    if not counts:
        return ""
    return (
        f'<details class="nothing"><summary>Nothing found in {escape(what)}</summary>\n'
        f"{cards(counts)}</details>\n"
    )


def sections_html(sections: tuple[Table, ...]) -> str:
    """The sections with findings (problems first), those that say why they are empty, then
    those with nothing found, folded."""
    shown = ordered(sections)
    return "".join(map(_table, shown)) + "".join(
        _table(table) for table in sections if table not in shown
    )


def _summary(report: Report) -> str:
    """The verdict, the pass, the findings' counts (problems first, the zeros folded), then
    the crawl's measures."""
    broken = broken_count(report)
    verdict_class = "verdict bad" if broken else "verdict good"
    progress = report.progress
    pass_class = "pass" if progress.complete else "pass incomplete"
    counts = finding_counts(report)
    found = tuple(count for count in counts if count.count)
    zero = tuple(count for count in counts if not count.count)
    measures = "".join(
        f'<div class="summary-group">{escape(heading)}</div>\n{cards(group, "summary measures")}'
        for heading, group in measure_groups(report)
    )
    return (
        '<section id="summary">\n<h2>Summary</h2>\n'
        f'<p class="{verdict_class}">{escape(printable(verdict(report)))}</p>\n'
        f'<p class="{pass_class}">{escape(printable(pass_note(report)))}</p>\n'
        '<div class="summary-group">Findings</div>\n'
        f"{cards(found) if found else ''}"
        f"{folded_cards(zero, counted(len(zero), 'section'))}"
        f"{measures}</section>\n"
    )


def _activity(report: Report) -> str:
    picture = timeline_html(report.timeline)
    if not picture:
        return ""
    return f'<section id="activity">\n<h2>Requests over time</h2>\n{picture}</section>\n'


def render_html(report: Report) -> str:
    """The whole report as one HTML document (UTF-8, self-contained): the site and when,
    what is broken, the counts, the crawl's picture, then the sections."""
    overview = report.overview
    name = site(report)
    title = name + (f" · {overview.started_at:%Y-%m-%d}" if overview.started_at else "")
    checks = report.checks
    meta = (
        f"Crawled {escape(crawled(report))} · "
        f"{escape(counted(checks.pages_checked, 'page'))} fetched · robot "
        f"<strong>{escape(report.agent)}</strong> · slow means over {report.slow_seconds:g} s"
        f' · <span class="database">database <code>{escape(report.database)}</code></span>'
    )
    sections = report_sections(report)
    body = _summary(report) + _activity(report) + sections_html(sections)
    return render_page(f"{title} · politecrawl report", name, meta, body)


def render_page(
    title: str,
    heading: str,
    meta_html: str,
    body_html: str,
    *,
    style: str = STYLE,
    footer: str = "Generated by politecrawl. Click a column header to sort.",
) -> str:
    """One self-contained page behind the report's Content-Security-Policy: ``heading`` (text,
    escaped here) over ``meta_html`` and ``body_html`` (trusted markup: escape their data),
    in ``style`` (the report's, or one built on it), with ``footer`` (text) at the end.
    The change report (``compare``) and the audit use it too."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_csp(style)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex, nofollow">\n'
        f"<title>{escape(printable(title))}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        f"<header>\n<h1>{escape(printable(heading))}</h1>\n"
        f'<p class="meta">{meta_html}</p>\n</header>\n'
        f"<main>\n{body_html}</main>\n"
        f"<footer>{escape(footer)}</footer>\n"
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
