"""The sitemap audit (S4) laid out: its tables, its summary counts and its CSV rows. Pure.

``sitemap_tables`` gives the sections the text and HTML renderers show after the others: the
sitemaps with what became of each, then the listed URLs with problems, the pages missing from
every sitemap, the orphans and the bad lastmods. A crawl without any sitemap gets one section
that says so in one line (``Table.empty``), not five empty tables. ``sitemap_summary`` is the
summary's "Sitemaps" group (none without sitemaps); ``sitemap_csv_rows`` the CSV rows, in the
main report's columns. Cells carry the crawl's data as written: renderers escape it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from politecrawl.report.model import Report
from politecrawl.report.sitemap_model import (
    SITEMAP_OUTCOMES,
    LastmodProblem,
    ListedProblem,
    MissingPage,
    OrphanUrl,
    SitemapAudit,
    SitemapListing,
    SitemapRead,
)
from politecrawl.report.tables import (
    Cell,
    Count,
    CountGroup,
    Line,
    Row,
    Table,
    link,
    number,
    plain,
    toned,
    when,
)

__all__ = ["NO_SITEMAP", "sitemap_csv_rows", "sitemap_summary", "sitemap_tables"]

NO_SITEMAP = "none in this crawl (robots.txt named none, and /sitemap.xml was not tried)"
MAX_PROBLEMS_SHOWN = 5  # a broken file can have thousands; the rest are counted
SOURCES = {"robots": "robots.txt", "guess": "guessed", "index": "sitemap index"}


def _listed_in(listings: tuple[SitemapListing, ...]) -> Cell:
    return tuple(Line(item.sitemap, item.sitemap, item.where) for item in listings) or plain("")


def _sitemap(item: SitemapRead) -> Row:
    named: Cell = (Line(SOURCES.get(item.source, item.source or "unknown")),)
    if item.named_by:
        named += (Line(item.named_by, item.named_by),)
    entries = [number(item.entries)]
    if item.truncated:
        entries.append("truncated")
    if item.other_origins:
        entries.append(f"{item.other_origins} of other origins ignored")
    problems = list(item.problems[:MAX_PROBLEMS_SHOWN])
    if len(item.problems) > MAX_PROBLEMS_SHOWN:
        problems.append(f"... and {len(item.problems) - MAX_PROBLEMS_SHOWN} more")
    return (
        link(item.url),
        named,
        plain(item.outcome, *([item.reason] if item.reason else [])),
        plain(item.format or ""),
        plain(*entries),
        plain(*problems),
    )


def _problem(item: ListedProblem) -> Row:
    return link(item.url), plain(item.label), plain(item.detail), _listed_in(item.listed_in)


def _missing(item: MissingPage) -> Row:
    return link(item.url), link(item.found_on) if item.found_on else plain("(seed)")


def _orphan(item: OrphanUrl) -> Row:
    outcome = number(item.status) if item.status is not None else item.state.replace("_", " ")
    return link(item.url), plain(outcome), _listed_in(item.listed_in)


def _lastmod_value(item: LastmodProblem) -> str:
    return item.lastmod_text if item.lastmod_text is not None else when(item.lastmod)


def _lastmod(item: LastmodProblem) -> Row:
    value = [_lastmod_value(item)]
    if item.problem == "future" and item.sitemap_fetched_at is not None:
        value.append(f"sitemap read {when(item.sitemap_fetched_at)}")
    where = "" if item.line is None else f"line {item.line}"
    return (
        link(item.url),
        plain(item.label),
        plain(*value),
        (Line(item.sitemap, item.sitemap, where),),
    )


def _sitemaps_note(audit: SitemapAudit) -> str:
    counts = [sum(1 for item in audit.sitemaps if item.outcome == o) for o in SITEMAP_OUTCOMES]
    note = ", ".join(
        f"{count} {outcome}"
        for outcome, count in zip(SITEMAP_OUTCOMES, counts, strict=True)
        if count
    )
    if audit.skipped_unchanged:
        note += (
            f"; this recrawl pass spared {audit.skipped_unchanged} fetches: no sitemap "
            "lastmod was newer than the page's last fetch"
        )
    return note


def sitemap_tables(report: Report) -> tuple[Table, ...]:
    """The sitemap sections of ``report``: one line when the crawl has no sitemap."""
    audit = report.sitemaps
    columns = ("Sitemap", "Named by", "Outcome", "Format", "Entries", "Problems")
    if not audit.sitemaps:
        return (Table("sitemaps", "Sitemaps", columns, (), empty=NO_SITEMAP, tone="neutral"),)
    return toned(
        Table(
            "sitemaps",
            "Sitemaps",
            columns,
            tuple(map(_sitemap, audit.sitemaps)),
            _sitemaps_note(audit),
        ),
        Table(
            "sitemap_problems",
            "Sitemap: listed URLs with problems",
            ("URL", "Problem", "Detail", "Listed in"),
            tuple(map(_problem, audit.listed_problems)),
        ),
        Table(
            "sitemap_missing",
            "Sitemap: pages missing from every sitemap",
            ("URL", "Found on"),
            tuple(map(_missing, audit.missing)),
            "indexable pages, on origins with a sitemap read, that no sitemap lists",
        ),
        Table(
            "sitemap_orphans",
            "Sitemap: orphans (listed, never linked)",
            ("URL", "Status", "Listed in"),
            tuple(map(_orphan, audit.orphans)),
            "listed by a sitemap, but linked from no crawled page",
        ),
        Table(
            "sitemap_lastmod",
            "Sitemap: lastmod in the future or malformed",
            ("URL", "Problem", "lastmod", "Sitemap"),
            tuple(map(_lastmod, audit.lastmod_problems)),
        ),
    )


def sitemap_summary(report: Report) -> tuple[CountGroup, ...]:
    """The summary's "Sitemaps" group, as ``tables.summary`` counts; empty without sitemaps."""
    audit = report.sitemaps
    if not audit.sitemaps:
        return ()
    counts: list[Count] = [
        Count("Sitemaps", len(audit.sitemaps), "sitemaps", finding=False),
        Count("Sitemaps not read", len(audit.unread), "sitemaps", own_tone="warn"),
        Count("Listed URLs with problems", len(audit.listed_problems), "sitemap_problems"),
        Count("Missing from sitemaps", len(audit.missing), "sitemap_missing"),
        Count("Orphans", len(audit.orphans), "sitemap_orphans"),
        Count("Bad lastmod", len(audit.lastmod_problems), "sitemap_lastmod"),
    ]
    if audit.skipped_unchanged:
        counts.append(
            Count("Fetches spared by lastmod", audit.skipped_unchanged, "sitemaps", finding=False)
        )
    return (("Sitemaps", tuple(counts)),)


def _at(item: SitemapListing) -> str:
    return item.where + (f"; lastmod {item.lastmod_text}" if item.lastmod_text else "")


def sitemap_csv_rows(report: Report) -> Iterator[Sequence[object]]:
    """One row per finding (a listed URL once per sitemap listing it), in the main report's
    columns: section, url, status, reason, detail, related_url."""
    audit = report.sitemaps
    for sitemap in audit.sitemaps:
        reason = sitemap.outcome + (f": {sitemap.reason}" if sitemap.reason else "")
        parts = [f"source: {sitemap.source or 'unknown'}"]
        if sitemap.format is not None:
            parts.append(f"format: {sitemap.format}")
        if sitemap.entries is not None:
            parts.append(f"entries: {sitemap.entries}")
        if sitemap.truncated:
            parts.append("truncated")
        if sitemap.other_origins:
            parts.append(f"other origins: {sitemap.other_origins}")
        parts += [f"problem: {problem}" for problem in sitemap.problems]
        detail = "; ".join(parts)
        yield ("sitemaps", sitemap.url, number(sitemap.status), reason, detail, sitemap.named_by)
    for problem in audit.listed_problems:
        for at in problem.listed_in:
            detail = f"{problem.detail}; {at.where}" if at.where else problem.detail
            row = [number(problem.status), problem.label, detail, at.sitemap]
            yield ("sitemap_problems", problem.url, *row)
    for page in audit.missing:
        row = ["", "missing from sitemaps", "", page.found_on or ""]
        yield ("sitemap_missing", page.url, *row)
    for orphan in audit.orphans:
        for at in orphan.listed_in:
            row = [number(orphan.status), "orphan: never linked", _at(at), at.sitemap]
            yield ("sitemap_orphans", orphan.url, *row)
    for bad in audit.lastmod_problems:
        where = "" if bad.line is None else f"line {bad.line}: "
        detail = f"{where}lastmod {_lastmod_value(bad)}"
        if bad.problem == "future" and bad.sitemap_fetched_at is not None:
            detail += f"; sitemap read {when(bad.sitemap_fetched_at)}"
        yield ("sitemap_lastmod", bad.url, "", bad.label, detail, bad.sitemap)
    if audit.skipped_unchanged:
        detail = f"{audit.skipped_unchanged} fetches spared this pass"
        yield ("sitemaps", "", "", "skipped: sitemap lastmod unchanged", detail, "")
