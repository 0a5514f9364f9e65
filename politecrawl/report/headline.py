"""What every form of the report says first, and what the text report ends with.

First: the site (its seeds' origins), when the current pass ran and for how long, how many pages
it fetched, what is broken and how many, and whether the pass is complete (L5); then the
findings' counts, problems first (``finding_counts``: broken, then worth a look, then neutral),
the sections with nothing found named together (``nothing_found``), and the crawl's measures
(URLs by state, checks made, sitemaps read) after them. Last, in the text report, the broken
targets by name (``closing_lines``), so that a terminal's last screen says what to fix. And
``report_sections``: every section laid out, for each form to show. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from politecrawl.report.check_tables import check_summary, check_tables
from politecrawl.report.model import Report, broken_count, broken_parts, counted
from politecrawl.report.page_tables import summary, tables
from politecrawl.report.server_tables import server_tables
from politecrawl.report.sitemap_tables import sitemap_summary, sitemap_tables
from politecrawl.report.tables import (
    Count,
    CountGroup,
    Table,
    carried_note,
    printable,
    without_spec_ids,
)
from politecrawl.report.use_tables import use_tables

__all__ = [
    "MAX_CLOSING_TARGETS",
    "BrokenTarget",
    "broken_targets",
    "closing_lines",
    "crawled",
    "duration",
    "finding_counts",
    "measure_groups",
    "nothing_found",
    "report_sections",
    "site",
    "verdict",
]

MAX_CLOSING_TARGETS = 10
"""Broken targets the text report's last lines name; the rest are counted."""
_TONE_ORDER = {"bad": 0, "warn": 1, "neutral": 2}


def report_sections(report: Report) -> tuple[Table, ...]:
    """Every section of the report laid out, in the order its forms list them: the pages',
    the link checks', the use preferences', the sitemap audit's (``ordered`` puts them in the
    order a reader sees them)."""
    return (
        *tables(report),
        *check_tables(report),
        *use_tables(report),
        *sitemap_tables(report),
        *server_tables(report),
    )


def site(report: Report, *, named: int = 2) -> str:
    """The seeds' origins: ``http://a.test``, ``http://a.test and http://b.test``, ``http://a.test
    and 3 more origins``; the database when no seed is recorded."""
    origins = report.overview.seed_origins
    if not origins:
        return report.database
    if len(origins) <= named:
        return " and ".join(origins)
    shown = ", ".join(origins[: named - 1])
    return f"{shown} and {counted(len(origins) - named + 1, 'more origin')}"


def duration(seconds: float, *, compact: bool = False) -> str:
    """A span by its two largest units: ``0.42 s``, ``12 s``, ``3 min 5 s``, ``2 h 4 min``; or
    ``compact`` for the progress line, in whole seconds: ``0s``, ``12s``, ``3m05s``, ``2h04m``."""
    if seconds < 10 and not compact:
        return f"{seconds:.2g} s" if seconds < 1 else f"{seconds:.1f} s"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, rest = divmod(rest, 60)
    if whole < 60:
        return f"{whole}s" if compact else f"{whole} s"
    if whole < 3600:
        return f"{minutes}m{rest:02d}s" if compact else f"{minutes} min {rest} s"
    return f"{hours}h{minutes:02d}m" if compact else f"{hours} h {minutes} min"


def _moment(value: datetime, day: bool = True) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S" if day else "%H:%M:%S")


def crawled(report: Report) -> str:
    """When the current pass ran: ``2026-01-01 10:00:00 to 10:04:12 UTC (4 min 12 s, 1
    run)``; ``no run recorded`` for a database filled otherwise."""
    overview = report.overview
    if overview.started_at is None:
        return "no run recorded"
    start = overview.started_at
    runs = counted(overview.runs, "run")
    if overview.ended_at is None:
        return f"{_moment(start)} UTC, not ended ({runs}; under way, or killed)"
    end = overview.ended_at
    span = _moment(end, day=end.date() != start.date())
    return f"{_moment(start)} to {span} UTC ({duration(overview.run_seconds)}, {runs})"


def verdict(report: Report) -> str:
    """``3 broken links found: 2 broken pages, 1 missing fragment``, or ``Nothing broken
    found`` (``so far`` while the pass is incomplete)."""
    broken = broken_count(report)
    if not broken:
        return "Nothing broken found" + ("." if report.progress.complete else " so far.")
    found = f"{counted(broken, 'broken link')} found: {', '.join(broken_parts(report))}"
    if report.carried_count:
        found += f" ({report.carried_count} of them found by an earlier pass)"
    return found + "."


def _groups(report: Report) -> tuple[CountGroup, ...]:
    return (*summary(report), *check_summary(report), *sitemap_summary(report))


def finding_counts(report: Report) -> tuple[Count, ...]:
    """Every section's count of findings, zero included: broken first, then those worth a
    look, then the neutral ones (each in the report's order)."""
    found = [count for _, counts in _groups(report) for count in counts if count.finding]
    return tuple(sorted(found, key=lambda count: _TONE_ORDER[count.tone]))


def measure_groups(report: Report) -> tuple[CountGroup, ...]:
    """The crawl's measures (URLs by state, checks made, sitemaps read), by group; a URL state
    with none left out, but ``all URLs``."""
    groups = []
    for heading, counts in _groups(report):
        measures = tuple(
            count
            for count in counts
            if not count.finding and (count.count or count.label == "all URLs")
        )
        if measures:
            groups.append((heading, measures))
    return tuple(groups)


def nothing_found(tables: tuple[Table, ...]) -> tuple[Table, ...]:
    """The sections with no finding and no sentence of their own (``Table.empty``)."""
    return tuple(table for table in tables if not table.rows and not table.empty)


def ordered(tables: tuple[Table, ...]) -> tuple[Table, ...]:
    """The sections with findings, the broken ones first, the others in the report's order (a
    family of sections, the sitemap audit's, stays together); then those that say in a
    sentence why they are empty."""
    shown = [table for table in tables if table.rows]
    shown.sort(key=lambda table: table.tone != "bad")
    return (*shown, *(table for table in tables if not table.rows and table.empty))


@dataclass(frozen=True, slots=True)
class BrokenTarget:
    """A broken page, link or resource, or a missing fragment (``url`` is then the link)."""

    url: str
    problem: str
    referrers: int
    """Pages linking to it."""
    from_pass: int | None = None


def broken_targets(report: Report) -> tuple[BrokenTarget, ...]:
    """What ``broken_count`` counts, by name: pages, then checks, then fragments."""
    targets = [
        BrokenTarget(item.url, item.problem, len(item.referrers), item.from_pass)
        for item in report.broken_links
    ]
    targets += [
        BrokenTarget(item.url, item.problem, len(item.referrers), item.from_pass)
        for item in report.checks.broken
    ]
    targets += [
        BrokenTarget(item.link, "missing fragment", len(item.referrers), item.from_pass)
        for item in report.checks.missing_fragments
    ]
    return tuple(targets)


def closing_lines(report: Report, *, limit: int = MAX_CLOSING_TARGETS) -> list[str]:
    """The text report's last lines: the verdict and the first ``limit`` broken targets, each
    with its problem and how many pages link to it; nothing when nothing is broken."""
    targets = broken_targets(report)
    if not targets:
        return []
    shown = [(printable(target.url), target) for target in targets[:limit]]
    width = max(len(url) for url, _ in shown)
    lines = [verdict(report)]
    for url, target in shown:
        linked = counted(target.referrers, "page") if target.referrers else "no page"
        note = carried_note(target.from_pass)
        problem = printable(without_spec_ids(target.problem))
        line = f"  {url.ljust(width)}  {problem}; linked from {linked}"
        lines.append(line + (f" ({note})" if note else ""))
    if len(targets) > limit:
        lines.append(f"  and {len(targets) - limit} more (listed above)")
    return lines
