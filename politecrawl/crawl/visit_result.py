"""``VisitResult``: what one visit of a leased URL produced, for the worker that records it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from politecrawl.results import Excluded, Page
    from politecrawl.store import Completion, LeaseEnd


@dataclass(frozen=True, slots=True)
class VisitResult:
    """What a visit produced: an event for consumers and, for a page, its completion."""

    page: Page | None = None
    excluded: Excluded | None = None
    completion: Completion | None = None
    """A response to record: a page, a sitemap, a check."""
    end: LeaseEnd | None = None
    """Or how the lease ended without one (excluded, deferred, failed, released, kept). The
    visit itself writes nothing: the worker records either with its next claim."""
    robots_fetched: bool = False
    sitemap_skipped: bool = False
    """S3: not fetched, its sitemap says it has not changed since the last fetch."""
    checked: bool = False
    """A link or resource was checked (L1-L3): not a page."""
    check_broken: bool = False
    """... and it is broken (4xx, 5xx after the retries, no answer)."""
