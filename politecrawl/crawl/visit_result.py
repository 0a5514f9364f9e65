"""What one visit of a leased URL produced, for the worker that records it: a small union.

Every visit ends its lease (``end``, one of ``politecrawl.store.ends``), which the visit does
not write: the worker records it with its next claim. Beside it, what only some visits bring:
a page for consumers, a check's verdict, a sitemap's listing, robots.txt fetched first, an
exclusion to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from politecrawl.results import Excluded, Page
    from politecrawl.store import ends


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
