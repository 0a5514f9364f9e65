"""The report as text for a terminal, as CSV for a spreadsheet, and as JSON for programs.

Text: whether the pass is complete (L5), a summary, then one headed section per kind of
finding, columns aligned, "none" for an empty section; then the link checks' sections (one
line when the crawl checked no link) and the sitemap audit's (one line when the crawl has no
sitemap). Control characters and bidirectional controls in the crawl's data (a robots.txt
line, an error message, a link's text) are shown escaped, so a hostile file cannot drive the
terminal or reorder what it shows. CSV: one row per finding (a broken URL or a link check's
finding once per page linking to it, a listed URL once per sitemap listing it), after a
``pass_incomplete`` row when the pass is, under one header, ``CSV_COLUMNS``; control
characters escaped and would-be formulas quoted.
JSON: the report's fields with sorted keys, times in ISO 8601, tuples as lists. Pure.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from politecrawl.report.check_tables import check_csv_rows
from politecrawl.report.headline import (
    broken_targets,
    closing_lines,
    crawled,
    finding_counts,
    measure_groups,
    nothing_found,
    ordered,
    report_sections,
    site,
    verdict,
)
from politecrawl.report.model import Report, broken_count, counted
from politecrawl.report.sitemap_tables import sitemap_csv_rows
from politecrawl.report.tables import (
    Cell,
    Count,
    Line,
    Table,
    carried_note,
    describe,
    number,
    pass_note,
    printable,
    referrer_detail,
    when,
    without_spec_ids,
)
from politecrawl.report.use_tables import use_csv_rows

_INDENT = "  "
_FORMULA = ("=", "+", "-", "@")
CSV_COLUMNS = ("section", "url", "status", "reason", "detail", "related_url")
"""The CSV header: ``related_url`` is the linking page, the chain's end, the origin, ..."""


def _lines(cell: Cell) -> list[str]:
    return [printable(_shown(line)) for line in cell]


def _shown(line: Line) -> str:
    if line.folded:  # ``and 524 more``: the text report names a few, the CSV and JSON all
        return f"{line.text} (every one in the CSV and JSON reports)"
    return line.shown


def _table_text(table: Table) -> list[str]:
    if not table.rows and table.empty:
        return [f"{table.title}: {printable(table.empty)}"]  # one line, no empty table
    out = [f"{table.title} ({table.total})"]
    if table.note:
        out.append(f"{_INDENT}{printable(table.note)}")
    if not table.rows:
        return [*out, f"{_INDENT}none"]
    grid = [[[column.upper()] for column in table.columns]]
    grid += [[_lines(cell) for cell in row] for row in table.rows]
    widths = [max(len(line) for row in grid for line in row[i]) for i in range(len(table.columns))]
    for row in grid:
        for index in range(max(len(cell) for cell in row)):
            parts = [
                (cell[index] if index < len(cell) else "").ljust(width)
                for cell, width in zip(row, widths, strict=True)
            ]
            out.append((_INDENT + "  ".join(parts)).rstrip())
    return out


def _heading(report: Report) -> list[str]:
    """Which site; whether the pass is complete (always the second line, L5); what is broken;
    when, how many pages, and the database read."""
    checks = report.checks
    scale = f"{counted(checks.pages_checked, 'page')} fetched, {counted(report.total_urls, 'URL')}"
    scale += " known"
    if checks.enabled:
        scale += "; " + counted(
            checks.checks_made,
            "link leaving the site or resource checked",
            "links leaving the site and resources checked",
        )
    return [
        f"politecrawl report: {printable(site(report))}",
        pass_note(report),
        verdict(report),
        f"{_INDENT}crawled {crawled(report)}; {scale}",
        f"{_INDENT}database {printable(report.database)} (agent {printable(report.agent)})",
    ]


def _counts_text(report: Report, sections: tuple[Table, ...]) -> list[str]:
    """The findings' counts (problems first, sections with none named in one line), then the
    crawl's measures."""
    findings = [count for count in finding_counts(report) if count.count]
    measures = measure_groups(report)
    every = (*finding_counts(report), *(count for _, counts in measures for count in counts))
    width = max(len(count.label) for count in every)
    digits = max(len(str(count.count)) for count in every)

    def line(count: Count) -> str:
        return f"{_INDENT}{count.label.ljust(width)}  {count.count:>{digits}}"

    out = ["", "Findings", *map(line, findings)]
    if empty := nothing_found(sections):
        out.append(f"{_INDENT}Nothing found: {', '.join(table.title for table in empty)}")
    for heading, counts in measures:
        out += ["", heading, *map(line, counts)]
    return out


def render_text(report: Report) -> str:
    """The report for a person at a terminal: what matters first, the broken targets last."""
    sections = report_sections(report)
    out = [*_heading(report), *_counts_text(report, sections)]
    for table in ordered(sections):
        out += ["", *_table_text(table)]
    if closing := closing_lines(report):
        out += ["", *closing]
    return "\n".join(out) + "\n"


def _csv_rows(report: Report) -> Iterator[Sequence[object]]:
    """One row per finding, in the columns of ``CSV_COLUMNS``; first a ``summary`` row (the
    site, the verdict, when, how many pages, the pass), then, when the pass is incomplete, a
    ``pass_incomplete`` row that says what it waits for (L5)."""
    progress = report.progress
    scale = f"{counted(report.checks.pages_checked, 'page')} fetched"
    detail = f"crawled {crawled(report)}; {scale}; {pass_note(report)}"
    yield ("summary", " ".join(report.overview.seed_origins), "", verdict(report), detail, "")
    if not progress.complete:
        reason = f"pass {progress.number} incomplete"
        yield ("pass_incomplete", "", "", reason, "; ".join(progress.incomplete_because), "")
    for item in report.broken_links:
        for ref in item.referrers or (None,):
            linking = "" if ref is None else ref.url
            note = "" if ref is None else referrer_detail(ref)
            if ref is None and item.listed_in:
                note = "listed in " + " ".join(item.listed_in)
            note = "; ".join(part for part in (carried_note(item.from_pass), note) if part)
            row = [number(item.status), item.problem, note, linking]
            yield ("broken_links", item.url, *row)
    for chain in report.redirect_chains:
        path = " -> ".join(f"{step.url} ({step.outcome})" for step in chain.steps)
        first = chain.steps[0]
        row = [number(first.status), chain.problem, path, chain.steps[-1].url]
        yield ("redirect_chains", first.url, *row)
    for ex in report.robots_excluded:
        row = [number(ex.robots_status), f"robots ({ex.semantics})", ex.deciding, ex.origin]
        yield ("robots_excluded", ex.url, *row)
    for scope in report.out_of_scope:
        yield ("out_of_scope", scope.url, "", scope.reason, scope.rule, scope.found_on or "")
    for page in report.directive_pages:
        flags = " ".join(
            f for f, on in (("noindex", page.noindex), ("nofollow", page.nofollow)) if on
        )
        yield ("directive_pages", page.url, number(page.status), flags, "", "")
    for origin in report.deferred_origins:
        detail = f"failures: {origin.failures}; retry at: {when(origin.retry_at, 'next run')}"
        row = [number(origin.robots_status), origin.reason, detail, ""]
        yield ("deferred_origins", origin.origin, *row)
    for url in report.deferred_urls:
        parts = [f"until: {when(url.until, 'next run')}", url.error or "", describe(url.detail)]
        detail = "; ".join(part for part in parts if part)
        yield ("deferred_urls", url.url, "", url.reason, detail, "")
    for slow in report.slow_pages:
        row = [number(slow.status), "slow", f"{slow.elapsed_seconds:.3f} s", ""]
        yield ("slow_pages", slow.url, *row)
    for outcome in report.robots_outcomes:
        row = [number(outcome.status), outcome.outcome or "not fetched", outcome.reason]
        yield ("robots_outcomes", outcome.origin, *row, f"{outcome.origin}/robots.txt")
    for d in report.disagreements:
        verdicts = (("draft", d.draft_allowed), ("rfc9309", d.rfc9309_allowed))
        reason = "; ".join(f"{name}: {'allowed' if ok else 'disallowed'}" for name, ok in verdicts)
        detail = (
            f"draft: {_deciding(d.draft_line, d.draft_text)} | "
            f"rfc9309: {_deciding(d.rfc9309_line, d.rfc9309_text)}"
        )
        yield ("disagreements", d.url, "", reason, detail, d.origin)
    yield from check_csv_rows(report)
    yield from sitemap_csv_rows(report)
    yield from use_csv_rows(report)


def _deciding(line: int | None, text: str) -> str:
    return text if line is None else f"line {line}: {text}"


def csv_cell(value: object) -> str:
    """A CSV cell: control characters escaped, and a leading ``= + - @`` quoted with ``'`` so
    that a spreadsheet never runs crawl data as a formula. Both reports' CSV go through it."""
    text = printable(str(value))
    return "'" + text if text[:1] in _FORMULA else text


def render_csv(report: Report) -> str:
    """One row per finding under a header row (``CSV_COLUMNS``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    prose = {CSV_COLUMNS.index("reason"), CSV_COLUMNS.index("detail")}  # never a URL column
    writer.writerows(
        [csv_cell(without_spec_ids(str(v)) if i in prose else v) for i, v in enumerate(row)]
        for row in _csv_rows(report)
    )
    return buffer.getvalue()


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    return value


def _json_summary(report: Report) -> dict[str, Any]:
    """What the JSON says first: the site, when, how many pages, what is broken, the pass."""
    overview = report.overview
    return {
        "site": list(overview.seed_origins),
        "started_at": _jsonable(overview.started_at),
        "ended_at": _jsonable(overview.ended_at),
        "run_seconds": overview.run_seconds,
        "runs": overview.runs,
        "pages_fetched": report.checks.pages_checked,
        "total_urls": report.total_urls,
        "verdict": verdict(report),
        "broken_count": broken_count(report),
        "broken": [
            {
                "url": target.url,
                "problem": target.problem,
                "linked_from": target.referrers,
                "from_pass": target.from_pass,
            }
            for target in broken_targets(report)
        ],
        "complete": report.progress.complete,
        "incomplete_because": list(report.progress.incomplete_because),
        "findings": [
            {"section": count.key, "label": count.label, "count": count.count, "tone": count.tone}
            for count in finding_counts(report)
            if count.count
        ],
    }


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def render_json(report: Report) -> str:
    """The whole report as JSON: ``summary`` first (the site, when, how many pages, the
    verdict, the broken targets, whether the pass is complete, the findings' counts problems
    first), then the report's fields with stable (sorted) keys, ISO 8601 times, plus
    ``counts`` (and the sitemap audit's and the link checks' own, ``sitemaps.counts`` and
    ``checks.counts``), ``broken_count``: the findings that make ``politecrawl check`` exit 1,
    and ``progress.complete`` with ``progress.incomplete_because`` (L5). The ``timeline`` has
    each host's counts, not its marks (the HTML report draws them)."""
    data = _jsonable(asdict(report))
    data["counts"] = report.counts
    data["sitemaps"]["counts"] = report.sitemaps.counts
    data["checks"]["counts"] = report.checks.counts
    data["broken_count"] = broken_count(report)
    data["total_urls"] = report.total_urls
    data["progress"]["complete"] = report.progress.complete
    data["progress"]["incomplete_because"] = list(report.progress.incomplete_because)
    for host in data["timeline"]["hosts"]:
        del host["marks"]
    ordered_data = {"summary": _sorted(_json_summary(report)), **_sorted(data)}
    return json.dumps(ordered_data, indent=2, ensure_ascii=False) + "\n"
