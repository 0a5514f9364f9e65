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

from politecrawl.report.check_tables import check_csv_rows, check_summary, check_tables
from politecrawl.report.model import Report, broken_count
from politecrawl.report.sitemap_tables import sitemap_csv_rows, sitemap_summary, sitemap_tables
from politecrawl.report.tables import (
    Cell,
    Table,
    carried_note,
    describe,
    number,
    pass_note,
    printable,
    referrer_detail,
    summary,
    tables,
    when,
    without_spec_ids,
)

_INDENT = "  "
_FORMULA = ("=", "+", "-", "@")
CSV_COLUMNS = ("section", "url", "status", "reason", "detail", "related_url")
"""The CSV header: ``related_url`` is the linking page, the chain's end, the origin, ..."""


def _lines(cell: Cell) -> list[str]:
    return [printable(line.shown) for line in cell]


def _table_text(table: Table) -> list[str]:
    if not table.rows and table.empty:
        return [f"{table.title}: {printable(table.empty)}"]  # one line, no empty table
    out = [f"{table.title} ({len(table.rows)})"]
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


def render_text(report: Report) -> str:
    """The report for a person at a terminal."""
    out = [f"politecrawl report: {printable(report.database)} (agent {printable(report.agent)})"]
    out.append(pass_note(report))
    groups = (*summary(report), *check_summary(report), *sitemap_summary(report))
    width = max(len(label) for _, counts in groups for label, _, _ in counts)
    digits = max(len(str(count)) for _, counts in groups for _, count, _ in counts)
    for heading, counts in groups:
        out += ["", heading]
        out += [f"{_INDENT}{label.ljust(width)}  {count:>{digits}}" for label, count, _ in counts]
    for table in (*tables(report), *check_tables(report), *sitemap_tables(report)):
        out += ["", *_table_text(table)]
    return "\n".join(out) + "\n"


def _csv_rows(report: Report) -> Iterator[Sequence[object]]:
    """One row per finding, in the columns of ``CSV_COLUMNS``; first, when the pass is
    incomplete, a ``pass_incomplete`` row that says what it waits for (L5)."""
    progress = report.progress
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
        detail = ex.why if ex.line is None else f"line {ex.line}: {ex.text}"
        row = [number(ex.robots_status), f"robots ({ex.semantics})", detail, ex.origin]
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


def render_json(report: Report) -> str:
    """The whole report as JSON: stable (sorted) keys, ISO 8601 times, plus ``counts`` (and
    the sitemap audit's and the link checks' own, ``sitemaps.counts`` and ``checks.counts``),
    ``broken_count``: the findings that make ``politecrawl check`` exit 1, and
    ``progress.complete`` with ``progress.incomplete_because`` (L5)."""
    data = _jsonable(asdict(report))
    data["counts"] = report.counts
    data["sitemaps"]["counts"] = report.sitemaps.counts
    data["checks"]["counts"] = report.checks.counts
    data["broken_count"] = broken_count(report)
    data["total_urls"] = report.total_urls
    data["progress"]["complete"] = report.progress.complete
    data["progress"]["incomplete_because"] = list(report.progress.incomplete_because)
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
