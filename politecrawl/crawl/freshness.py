"""Whether a URL fetched in an earlier pass is asked again in this one [L1, S3].

A recrawl does not repeat what it can trust: a check that passed less than
``check_fresh_seconds`` ago (``checked_lately``), or a page its sitemap says has not changed
since it was fetched fine (``unchanged_per_sitemap``, asked with ``sitemap_lastmod = "skip"``).
Both read only the lease: what the URL's row said when it was claimed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.store import Lease


def checked_lately(lease: Lease, now: datetime, fresh_seconds: float) -> bool:
    """L1: a check that passed less than ``fresh_seconds`` ago (a broken one is asked again: it
    may have been fixed). ``attempts == 0``: the first try of this pass, not a retry of one that
    failed in it."""
    if lease.attempts or lease.fetched_at is None or lease.status is None:
        return False
    if not 200 <= lease.status < 300:
        return False  # broken, or a redirect (its chain is checked again, hop by hop)
    return (now - lease.fetched_at).total_seconds() < fresh_seconds


def unchanged_per_sitemap(lease: Lease) -> bool:
    """S3: a page fetched fine since the last change its sitemap reports (with
    ``sitemap_lastmod = "skip"`` it is not fetched again)."""
    return (
        lease.kind == "page"
        and lease.sitemap_lastmod is not None
        and lease.fetched_at is not None
        and lease.status is not None
        and 200 <= lease.status < 300
        and lease.sitemap_lastmod < lease.fetched_at
    )
