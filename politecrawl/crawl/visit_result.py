"""What one visit of a leased URL produced, for the worker that records it: a small union.

Every visit ends its lease (``end``, one of ``politecrawl.store.ends``), which the visit does
not write: the worker records it with its next claim. Beside it, what only some visits bring:
a page for consumers, a check's verdict, a sitemap's listing, robots.txt fetched first, an
exclusion to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from politecrawl.store import ends

if TYPE_CHECKING:
    from politecrawl.results import CrawlSummary, Excluded, Page


@dataclass(frozen=True, slots=True)
class PageVisit:
    """A page handed to consumers: read, or failed for good (its ``error`` says why)."""

    end: ends.LeaseEnd
    page: Page


@dataclass(frozen=True, slots=True)
class SitemapVisit:
    """A sitemap answered (S2); ``end.sitemap`` is its listing when it was a 2xx."""

    end: ends.Completed


@dataclass(frozen=True, slots=True)
class CheckVisit:
    """A link or resource checked (L1-L3), not a page; ``broken``: 4xx, 5xx after the
    retries, or no answer. ``robots_fetched``: its origin's robots.txt was asked first."""

    end: ends.LeaseEnd
    broken: bool
    robots_fetched: bool = False


@dataclass(frozen=True, slots=True)
class RobotsVisit:
    """robots.txt of the lease's origin fetched in the lease's slot (the URL waits or goes)."""

    end: ends.LeaseEnd


@dataclass(frozen=True, slots=True)
class Ended:
    """Nothing but the lease's end: excluded, deferred or kept (``excluded``: the event for
    consumers, when there is one), or a failure to be tried again."""

    end: ends.LeaseEnd
    excluded: Excluded | None = None


SITEMAP_UNCHANGED = "sitemap-unchanged"
"""The reason a page kept its last result: its sitemap says it has not changed since (S3)."""

VisitResult: TypeAlias = PageVisit | SitemapVisit | CheckVisit | RobotsVisit | Ended


def count_visit(summary: CrawlSummary, result: VisitResult) -> None:
    """Count in ``summary`` what ``result`` did that the pages handed out do not tell (those
    are counted as they are read): robots.txt fetched, sitemaps read or skipped, checks."""
    end = result.end
    check = result if isinstance(result, CheckVisit) else None
    summary.robots_fetches += int(
        isinstance(result, RobotsVisit) or (check is not None and check.robots_fetched)
    )
    summary.sitemap_skips += int(isinstance(end, ends.Kept) and end.reason == SITEMAP_UNCHANGED)
    # A sitemap read: one that answered 2xx (a 404 guess of /sitemap.xml was not, S1).
    summary.sitemaps += int(isinstance(result, SitemapVisit) and result.end.sitemap is not None)
    summary.checks += int(check is not None)
    summary.broken_checks += int(check is not None and check.broken)
    summary.pages += int(isinstance(result, PageVisit))
