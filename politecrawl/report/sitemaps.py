"""The sitemap audit (S4): a crawl's sitemaps read back and judged against the crawl.

``build_sitemap_audit(database)`` reads the store's sitemap queries
(through ``politecrawl.store``; this module never touches SQL) into a ``SitemapAudit``:
each sitemap with what became of it (read, redirected, failed with the reason, not fetched,
waiting), the listed URLs that are broken, redirected, noindex, disallowed by robots.txt (with
the deciding line), out of scope or not canonical, the pages missing from every sitemap, the
orphans (listed, linked from no page), the lastmods in the future or malformed, and how many
fetches a recrawl spared on a sitemap's lastmod (S3). The judgements (what counts as broken,
which canonical differs) are made here; the store only narrows the rows.
"""

from __future__ import annotations

from collections.abc import Iterator

from politecrawl.report.exclusions import as_text, robots_exclusion
from politecrawl.report.sitemap_model import (
    LastmodProblem,
    ListedProblem,
    MissingPage,
    OrphanUrl,
    SitemapAudit,
    SitemapListing,
    SitemapRead,
)
from politecrawl.report.tables import describe, when, without_spec_ids
from politecrawl.store import Database
from politecrawl.store.reading import (
    ListedUrl,
    SitemapEntryRow,
    SitemapRow,
    UrlRow,
    lastmod_problems,
    listed_problems,
    sitemap_orphans,
    sitemap_rows,
    sitemap_unchanged_count,
    unlisted_pages,
)
from politecrawl.urls import InvalidURL, canonicalize

__all__ = ["build_sitemap_audit", "listing", "named_by", "sitemap_outcome"]


def build_sitemap_audit(database: Database) -> SitemapAudit:
    """Every sitemap of the crawl in ``database``, and every finding of the audit."""
    rows = sitemap_rows(database)
    if not rows:
        return SitemapAudit()  # nothing listed anything: no finding can exist
    return SitemapAudit(
        sitemaps=tuple(map(_sitemap_read, rows)),
        listed_problems=tuple(
            problem
            for listed in listed_problems(database)
            for problem in _listed_problems(listed.row, tuple(map(listing, listed.listings)))
        ),
        missing=tuple(
            MissingPage(row.url, row.origin, row.discovered_from)
            for row in unlisted_pages(database)
            if not _names_another_canonical(row)  # S4: such a page belongs in no sitemap
        ),
        orphans=tuple(map(_orphan, sitemap_orphans(database))),
        lastmod_problems=tuple(
            LastmodProblem(
                entry.url,
                "malformed" if entry.listing.lastmod is None else "future",
                entry.listing.lastmod_text,
                entry.listing.lastmod,
                entry.listing.sitemap,
                entry.listing.line,
                entry.listing.sitemap_fetched_at,
            )
            for entry in lastmod_problems(database)
        ),
        skipped_unchanged=sitemap_unchanged_count(database),
    )


def listing(stored: SitemapEntryRow) -> SitemapListing:
    """A store listing as the report's value."""
    return SitemapListing(stored.sitemap, stored.line, stored.lastmod, stored.lastmod_text)


def _orphan(item: ListedUrl) -> OrphanUrl:
    row = item.row
    return OrphanUrl(row.url, row.state, row.status, tuple(map(listing, item.listings)))


def named_by(item: SitemapRow) -> str:
    """Where a sitemap was named: its origin's robots.txt, or the index listing it ("" for a
    guess, or when not known)."""
    if item.source == "robots" and item.for_origin:
        return f"{item.for_origin}/robots.txt"
    if item.source == "index":
        return item.row.discovered_from or ""
    return ""


def _sitemap_read(item: SitemapRow) -> SitemapRead:
    row = item.row
    outcome, reason = sitemap_outcome(item)
    return SitemapRead(
        url=row.url,
        source=item.source or "",
        named_by=named_by(item),
        for_origin=item.for_origin or row.origin,
        nesting=item.nesting,
        outcome=outcome,
        reason=reason,
        status=row.status,
        format=item.format,
        entries=item.entries,
        other_origins=item.other_origins,
        truncated=item.truncated,
        problems=item.problems,
        fetched_at=row.fetched_at,
    )


def sitemap_outcome(item: SitemapRow) -> tuple[str, str]:
    """What became of a sitemap (one of ``SITEMAP_OUTCOMES``) and why, in a few words."""
    row = item.row
    status = row.status
    if row.state == "failed":
        return "failed", row.error or (f"HTTP {status}" if status is not None else "failed")
    if row.state == "done":
        if status is not None and 300 <= status < 400 and status != 304 and row.final_url:
            return "redirected", f"to {row.final_url}"
        if status is None or (status >= 300 and status != 304):
            if item.source == "guess" and status in (404, 410):
                return "absent", f"HTTP {status}: no sitemap there (robots.txt names none)"
            return "failed", row.error or ("no answer" if status is None else f"HTTP {status}")
        if not item.entries and item.problems:
            return "failed", "nothing readable (see its problems)"
        return "read", "lists nothing" if item.entries == 0 else ""
    if row.state == "excluded" and row.reason == "robots":
        return "not fetched", "disallowed by robots.txt: " + _robots_detail(row)
    if row.state in ("excluded", "out_of_scope"):
        rule = as_text(row.detail.get("rule")) or describe(row.detail)
        return "not fetched", without_spec_ids(f"{row.reason or row.state}: {rule}".rstrip(": "))
    if row.state == "deferred":
        until = when(row.next_attempt_at, "the next run")
        return "waiting", f"deferred ({row.reason or 'retry'}) until {until}"
    return "waiting", "not fetched yet"


def _robots_detail(row: UrlRow) -> str:
    """The deciding line as the robots exclusions section shows it, with the reading."""
    verdict = robots_exclusion(row)
    return f"{without_spec_ids(verdict.deciding)} ({verdict.semantics})"


def _names_another_canonical(row: UrlRow) -> bool:
    if not row.canonical_url:
        return False
    try:
        return canonicalize(row.canonical_url) != row.url
    except InvalidURL:
        return True  # a canonical that is no crawlable URL is not this URL either


def _listed_problems(row: UrlRow, listed_in: tuple[SitemapListing, ...]) -> Iterator[ListedProblem]:
    """Each problem of one listed URL, in ``LISTED_PROBLEMS`` order."""
    status = row.status
    if row.state == "failed" or (row.state == "done" and status is not None and status >= 400):
        problem = row.error or (f"HTTP {status}" if status is not None else "failed")
        yield ListedProblem(row.url, "broken", status, problem, listed_in)
    elif row.state == "done" and status is not None and 300 <= status < 400 and status != 304:
        target = f"HTTP {status} to {row.final_url}" if row.final_url else f"HTTP {status}"
        yield ListedProblem(row.url, "redirected", status, target, listed_in)
    if row.noindex:
        yield ListedProblem(row.url, "noindex", status, "noindex", listed_in)
    if row.state == "excluded" and row.reason == "robots":
        yield ListedProblem(row.url, "disallowed", status, _robots_detail(row), listed_in)
    if row.state == "out_of_scope":
        rule = as_text(row.detail.get("rule")) or (row.reason or "")
        yield ListedProblem(row.url, "out_of_scope", status, without_spec_ids(rule), listed_in)
    if _names_another_canonical(row):
        detail = f"canonical: {row.canonical_url}"
        yield ListedProblem(row.url, "not_canonical", status, detail, listed_in)
