"""What the audit found, as plain values: per crawler, its counts, its verdict and the evidence.

[G3] Frozen dataclasses of strings, numbers and aware UTC datetimes; ``as_plain`` turns a
result into JSON-ready dicts and lists. Evidence is sampled (the first few of each kind, the
first URLs forbidden), counts are complete.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from politecrawl.audit.records import BadLine

IncidentKind = Literal["gap", "rate", "retry", "in_flight"]


@dataclass(frozen=True, slots=True)
class ForbiddenUrl:
    """A URL a crawler fetched although its own group forbids it (strict reading, M7)."""

    origin: str
    target: str
    requests: int
    first_at: datetime
    first_status: int
    forbidden_by: tuple[str, ...]
    """The readings that forbid it: ``draft``, ``rfc9309`` or both."""
    deciding: tuple[str, ...]
    """Each forbidding reading's deciding line: ``rfc9309: line 7: Disallow: /*.pdf$``."""
    robots: str
    """The robots.txt version that forbade it (its file or URL)."""


@dataclass(frozen=True, slots=True)
class Incident:
    """One request that came too soon: after the one before (``gap``), within a Request-rate
    window (``rate``), after a 429/503 (``retry``), or while others were in flight."""

    kind: IncidentKind
    at: datetime
    origin: str
    target: str
    measured_seconds: float
    """The gap, window or wait measured; for ``in_flight``, the requests in flight at once."""
    required_seconds: float
    """What was asked: Crawl-delay, Request-rate window, Retry-After or back-off; 1 request."""
    detail: str


@dataclass(frozen=True, slots=True)
class RobotsReads:
    """How a crawler read one origin's robots.txt (O2)."""

    origin: str
    fetches: int
    first_at: datetime | None
    requests_before: int
    """Other requests to the origin before its first robots.txt fetch (all of them if none)."""


@dataclass(frozen=True, slots=True)
class CrawlerAudit:
    """One crawler's requests, what it did wrong, and the verdict."""

    name: str
    judged: bool
    """False for browsers (people are not bound by robots.txt)."""
    verdict: str
    """``obeys``, or the faults joined by ``; ``."""
    faults: tuple[str, ...]
    requests: int
    user_agents: tuple[tuple[str, int], ...]
    """Its full User-Agent strings with their request counts (the most frequent first)."""
    first_at: datetime
    last_at: datetime
    robots: tuple[RobotsReads, ...]
    forbidden_requests: int
    forbidden_draft_only: int
    """Of those, the requests only the draft's letter forbids (RFC 9309 alone allows them)."""
    forbidden: tuple[ForbiddenUrl, ...]
    crawl_delay_seconds: float | None
    request_rate: str | None
    short_gaps: int
    rate_breaches: int
    early_retries: int
    in_flight_overlaps: int
    max_in_flight: int
    incidents: tuple[Incident, ...]
    timeline: tuple[int, ...]
    forbidden_timeline: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AuditResult:
    """The whole audit."""

    crawlers: tuple[CrawlerAudit, ...]
    """Judged crawlers with faults first, then by requests."""
    lines: int
    requests: int
    bad_lines: int
    bad_samples: tuple[BadLine, ...]
    problems: tuple[str, ...]
    """File-level messages: a missing file, a gzip cut short, a file in no known format."""
    robots_sources: tuple[str, ...]
    """Each robots.txt version: its source and when it took effect."""
    first_at: datetime | None
    last_at: datetime | None
    timeline_start: datetime | None
    bucket_seconds: float
    has_durations: bool


def as_plain(value: Any) -> Any:
    """A result (or any part of it) as dicts, lists, strings and numbers; times as ISO 8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BadLine):
        return as_plain(value._asdict())
    if isinstance(value, dict):
        return {key: as_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_plain(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value
