"""What ``politecrawl.store.reading`` hands out: frozen values, never ORM rows (STYLE 7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class UrlRow:
    """One URL of the crawl: what became of it, and why when it was not fetched."""

    id: int
    url: str
    origin: str
    state: str
    depth: int
    status: int | None
    final_url: str | None
    content_type: str | None
    noindex: bool | None
    nofollow: bool | None
    attempts: int
    redirect_hops: int
    discovered_at: datetime
    discovered_from: str | None
    """The URL of the page (or redirect) it was found on; None for a seed."""
    fetched_at: datetime | None
    elapsed_seconds: float | None
    size_bytes: int | None
    error: str | None
    reason: str | None
    detail: Mapping[str, Any]
    """``reason_detail`` decoded: the deciding robots line, the scope rule, ... (empty if none)."""
    next_attempt_at: datetime | None


@dataclass(frozen=True, slots=True)
class Referrer:
    """A page linking to a URL; ``nofollow`` when the link carried rel=nofollow or the page
    was nofollow (the link was recorded for reports but not followed, T5, T6)."""

    url: str
    nofollow: bool


@dataclass(frozen=True, slots=True)
class BrokenUrl:
    """A URL answered with status >= 400, or that failed (network error, cut off, too many
    redirects), with every page that links to it."""

    row: UrlRow
    referrers: tuple[Referrer, ...]


@dataclass(frozen=True, slots=True)
class OriginRobots:
    """An origin's robots.txt state as stored (O3-O7, E1-E4), and how many URLs it has."""

    id: int
    origin: str
    outcome: str | None
    """None until fetched; then parsed, allow_all, disallow_all or deferred."""
    status: int | None
    body: bytes | None
    """The robots.txt body when asked for (``with_body``), else None."""
    body_bytes: int | None
    """The stored body's size (None when there is none)."""
    reason: str | None
    fetched_at: datetime | None
    expires_at: datetime | None
    retry_at: datetime | None
    """When a deferred origin is tried again; None once its attempts ran out for the run (O6)."""
    failures: int
    etag: str | None
    last_modified: str | None
    url_count: int


@dataclass(frozen=True, slots=True)
class UrlHistory:
    """Everything the database knows about one URL, for ``politecrawl why``."""

    row: UrlRow
    referrers: tuple[Referrer, ...]
    origin: OriginRobots | None
