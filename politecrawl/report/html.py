"""The report as ONE self-contained HTML page: summary counts, then a sortable table per section.

Its header says whether the crawl's pass is complete (L5), and what it waits for if not.

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
from html import escape

from politecrawl.report.assets import SCRIPT, STYLE
from politecrawl.report.check_tables import check_summary, check_tables
from politecrawl.report.model import Report
from politecrawl.report.sitemap_tables import sitemap_summary, sitemap_tables
from politecrawl.report.tables import (
    Cell,
    Line,
    Table,
    pass_note,
    printable,
    summary,
    tables,
)

_LINKABLE = ("http://", "https://")
_SLASH = re.compile(r"(?<!:)(?<!:/)/")
_DATE = re.compile(r"\d{4}-\d\d-\d\dT[\d:]+(?:[+-]\d\d:\d\d|Z)?")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


_CSP = (
    "default-src 'none'; "
    f"style-src {_hash(STYLE)}; "
    f"script-src {_hash(SCRIPT)}; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def _line(line: Line) -> str:
    text = escape(printable(line.text))
    if _DATE.fullmatch(line.text):
        text = f'<span class="nowrap">{text}</span>'  # never broken at its hyphens
    if line.href is not None and line.href.lower().startswith(_LINKABLE):
        text = _SLASH.sub("/<wbr>", text)  # a long URL wraps at its slashes (not "://")
        text = f'<a href="{escape(line.href)}" rel="noreferrer noopener">{text}</a>'
    if line.note:
        text += f'<span class="note">{escape(printable(line.note))}</span>'
    return f'<div class="line">{text}</div>'


def _cell(cell: Cell) -> str:
    key = cell[0].text if cell else ""
    lines = "".join(_line(line) for line in cell)
    return f'<td data-sort="{escape(printable(key))}">{lines}</td>'


def _table(table: Table) -> str:
    if not table.rows and table.empty:  # one line, no empty table (a crawl without sitemaps)
        return (
            f'<section id="{escape(table.key)}">\n<h2>{escape(table.title)}</h2>\n'
            f'<p class="empty">{escape(printable(table.empty))}</p>\n</section>\n'
        )
    count_class = "count nonzero" if table.rows and table.key not in _NEUTRAL else "count"
    head = (
        f'<section id="{escape(table.key)}">\n'
        f'<h2>{escape(table.title)} <span class="{count_class}">{len(table.rows)}</span></h2>\n'
    )
    if table.note:
        head += f'<p class="note">{escape(printable(table.note))}</p>\n'

    if not table.rows:
        return head + '<p class="empty">None.</p>\n</section>\n'
    headers = "".join(
        f'<th scope="col" aria-sort="none"><button type="button">{escape(column)}</button></th>'
        for column in table.columns
    )
    rows = "\n".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in table.rows)
    return (
        head
        + f'<div class="wrap"><table data-sortable="pending" aria-label="{escape(table.title)}">\n'
        + f"<thead><tr>{headers}</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>\n"
        + "</section>\n"
    )


# Sections that describe the crawl rather than problems: their counts are not alarming.
_NEUTRAL = frozenset(
    ("robots_outcomes", "redirect_chains", "directive_pages", "sitemaps", "redirects_to_update")
)


def _card(label: str, value: int, anchor: str | None = None) -> str:
    inner = f'<span class="value">{value}</span><span class="label">{escape(label)}</span>'
    if anchor is None:
        return f'<div class="card">{inner}</div>'
    return f'<a class="card" href="#{escape(anchor)}">{inner}</a>'


Counts = tuple[tuple[str, tuple[tuple[str, int, str | None], ...]], ...]


def _summary(groups: Counts) -> str:
    cards = "".join(
        f'<div class="summary-group">{escape(heading)}</div>\n<div class="summary">'
        + "".join(_card(label, count, key) for label, count, key in counts)
        + "</div>\n"
        for heading, counts in groups
    )
    return f'<section id="summary">\n<h2>Summary</h2>\n{cards}</section>\n'


def render_html(report: Report) -> str:
    """The whole report as one HTML document (UTF-8, self-contained)."""
    meta = (
        f"Robot <strong>{escape(report.agent)}</strong> · database "
        f"<code>{escape(report.database)}</code> · slow means over "
        f"{report.slow_seconds:g} s"
    )
    note = escape(printable(pass_note(report)))
    meta += f" · {note}" if report.progress.complete else f" · <strong>{note}</strong>"
    groups = (*summary(report), *check_summary(report), *sitemap_summary(report))
    findings_first = tuple(sorted(groups, key=lambda group: group[0] != "Findings"))
    sections = (*tables(report), *check_tables(report), *sitemap_tables(report))
    return render_page(f"politecrawl report: {report.database}", meta, findings_first, sections)


def render_page(title: str, meta_html: str, counts: Counts, sections: tuple[Table, ...]) -> str:
    """One self-contained page: the summary cards, then a sortable table per section, behind
    the report's Content-Security-Policy. ``meta_html`` is trusted markup (escape its data);
    everything else is escaped here. The change report (``compare``) uses it too."""
    meta = meta_html
    body = _summary(counts) + "".join(_table(table) for table in sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex, nofollow">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'<header>\n<h1>{escape(title)}</h1>\n<p class="meta">{meta}</p>\n</header>\n'
        f"<main>\n{body}</main>\n"
        "<footer>Generated by politecrawl. Click a column header to sort.</footer>\n"
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
