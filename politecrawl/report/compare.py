"""What changed between two passes of a crawl, for people and tools (issue 6).

Renders a ``politecrawl.store.PassComparison`` as text, CSV, JSON or one self-contained
HTML page: new, changed, unchanged, gone, newly broken (a gone page still linked to is one),
fixed, newly excluded by robots.txt, newly noindex, and redirects whose target changed; each
URL with what it was in both passes, a newly broken one with the pages linking to it (a few in
text and HTML, all in CSV and JSON); and whether the later pass is unfinished. The HTML page
shows the counts beside a bar chart of them (inline SVG), problems red, what was fixed green,
new and changed pages their own colours, the unchanged plain. CSV and HTML go through the main
report's renderers (``text.csv_cell``, ``html.render_page``), with the same guards: no
spreadsheet formulas, control characters shown, everything escaped, the same
Content-Security-Policy.
"""

from __future__ import annotations

import csv
import io
import json
from html import escape

from politecrawl.report.checks import referrer
from politecrawl.report.html import count_class, render_page, sections_html
from politecrawl.report.model import counted
from politecrawl.report.pictures import bars_svg
from politecrawl.report.tables import (
    MAX_REFERRERS_SHOWN,
    Line,
    Table,
    printable,
    referrer_note,
)
from politecrawl.report.text import csv_cell
from politecrawl.store.reading import PassComparison

_TITLES = {
    "new": "New pages",
    "changed": "Changed pages",
    "unchanged": "Unchanged pages",
    "gone": "Gone (404/410)",
    "newly_broken": "Newly broken",
    "fixed": "Fixed",
    "newly_excluded_by_robots": "Newly excluded by robots.txt",
    "newly_noindex": "Newly noindex",
    "redirect_changed": "Redirects with a new target",
}


_TONES = {
    "new": "new",
    "changed": "changed",
    "unchanged": "neutral",
    "gone": "bad",
    "newly_broken": "bad",
    "fixed": "good",
    "newly_excluded_by_robots": "warn",
    "newly_noindex": "warn",
    "redirect_changed": "changed",
}
"""How each category reads: problems red, what is fixed green, new and changed their own
colours, the unchanged plain."""


def _rows(comparison: PassComparison, *, shown: int | None = None) -> list[tuple[str, str, str]]:
    """(category, url, detail) for every finding: what the URL was in each pass (``200 ->
    404``), and for a newly broken one the pages linking to it (the first ``shown`` of them,
    then how many more; None: all)."""
    rows: list[tuple[str, str, str]] = []
    for category in _TITLES:
        for item in getattr(comparison, category):
            if isinstance(item, tuple):
                url, before, after = item
                rows.append((category, url, f"{before} -> {after}"))
            else:
                rows.append((category, item, _detail(comparison, category, item, shown)))
    return rows


def _detail(comparison: PassComparison, category: str, url: str, shown: int | None) -> str:
    before, after = comparison.outcomes.get(url, ("", ""))
    parts = [f"{before} -> {after}" if before else after]
    if category == "newly_broken" and (linking := comparison.linked_from.get(url)):
        pages = []
        for ref in map(referrer, linking[:shown]):
            note = referrer_note(ref)
            pages.append(ref.url + (f" ({note})" if note else ""))
        more = len(linking) - len(pages)
        parts.append("linked from " + ", ".join(pages) + (f" and {more} more" if more else ""))
    return "; ".join(part for part in parts if part)


def _heading(comparison: PassComparison) -> str:
    heading = f"Pass {comparison.after} compared with pass {comparison.before}"
    if comparison.unsettled:
        heading += (
            f" (pass {comparison.after} is unfinished: "
            f"{counted(comparison.unsettled, 'URL')} not revisited yet, in no category)"
        )
    return heading


def render_compare_text(comparison: PassComparison, *, list_unchanged: bool = False) -> str:
    """Counts, then the URLs of each category (unchanged ones only counted unless asked)."""
    lines = [printable(_heading(comparison))]
    counts = comparison.counts()
    rows = _rows(comparison, shown=MAX_REFERRERS_SHOWN)
    for category, title in _TITLES.items():
        lines.append(f"  {title:<32} {counts[category]:>6}")
    for category, title in _TITLES.items():
        if category == "unchanged" and not list_unchanged:
            continue
        items = [row for row in rows if row[0] == category]
        if not items:
            continue
        lines.append("")
        lines.append(f"{title} ({len(items)})")
        lines.extend(
            printable(f"  {url}" + (f"  {detail}" if detail else "")) for _, url, detail in items
        )
    return "\n".join(lines) + "\n"


def render_compare_csv(comparison: PassComparison) -> str:
    """One row per finding: category, url, detail."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["category", "url", "detail"])
    writer.writerows([csv_cell(value) for value in row] for row in _rows(comparison))
    return buffer.getvalue()


def render_compare_json(comparison: PassComparison) -> str:
    """Counts and URLs per category, with stable keys."""
    data = {
        "before": comparison.before,
        "after": comparison.after,
        "unsettled": comparison.unsettled,
        "details": {
            category: {url: detail for kind, url, detail in _rows(comparison) if kind == category}
            for category in _TITLES
        },
        "counts": comparison.counts(),
        "urls": {
            category: [
                list(item) if isinstance(item, tuple) else item
                for item in getattr(comparison, category)
            ]
            for category in _TITLES
        },
    }
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def render_compare_html(comparison: PassComparison) -> str:
    """One self-contained page: the counts beside a bar chart of them, then a sortable table
    per category (newly broken pages name a few of the pages linking to them)."""
    counts = comparison.counts()
    rows = _rows(comparison, shown=MAX_REFERRERS_SHOWN)
    sections = tuple(
        Table(
            category,
            title,
            ("URL", "Detail"),
            tuple(
                ((Line(url, url),), (Line(detail),))
                for kind, url, detail in rows
                if kind == category
            ),
            tone=_TONES[category],
        )
        for category, title in _TITLES.items()
    )
    listed = "".join(
        f'<tr><th scope="row"><a href="#{key}">{escape(title)}</a></th>'
        f'<td><span class="{_badge(key, counts[key])}">{counts[key]}</span></td></tr>'
        for key, title in _TITLES.items()
    )
    chart = bars_svg(
        [(title, counts[key], _TONES[key]) for key, title in _TITLES.items()],
        label="URLs per kind of change",
    )
    summary = (
        '<section id="summary">\n<h2>What changed</h2>\n<div class="changes">'
        f'<table class="counts" aria-label="What changed">{listed}</table>'
        f'<div class="chart">{chart}</div></div>\n</section>\n'
    )
    meta = "politecrawl change report: what a maintenance recrawl found different"
    if comparison.unsettled:
        meta += f" · {_heading(comparison)}"
    title = f"Pass {comparison.after} compared with pass {comparison.before}"
    return render_page(title, title, escape(printable(meta)), summary + sections_html(sections))


def _badge(category: str, count: int) -> str:
    return count_class(_TONES[category]) if count else "count"
