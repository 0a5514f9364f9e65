"""The values that cross fetch's boundary: the limits of a request (C7), one hop as
``Fetcher.fetch`` settled it, and what the hop answered, with its exchange for an archive.
Frozen, and free of requests: ``requests.Response`` never leaves the fetch package."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from politecrawl.config import FetchingSettings
from politecrawl.httpdates import parse_http_date

_LONGEST_RETRY_AFTER_SECONDS = 365 * 24 * 3600.0  # finite, so callers can add it to a datetime
_DEFAULTS = FetchingSettings()


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """The C7 limits of one request; every figure is a setting (``FetchingSettings``, whose
    defaults these are)."""

    connect_timeout_seconds: float = _DEFAULTS.connect_timeout_seconds
    response_timeout_seconds: float = _DEFAULTS.response_timeout_seconds  # the whole response
    max_body_bytes: int = _DEFAULTS.max_body_bytes  # after decompression

    def __post_init__(self) -> None:
        for name in ("connect_timeout_seconds", "response_timeout_seconds"):
            seconds = getattr(self, name)
            if not (math.isfinite(seconds) and seconds > 0):
                raise ValueError(f"{name} must be a positive number of seconds, not {seconds!r}")
        if self.max_body_bytes < 0:
            raise ValueError(f"max_body_bytes must not be negative, not {self.max_body_bytes}")


@dataclass(frozen=True, slots=True)
class FetchRequest:
    """One hop as ``Fetcher.fetch`` settled it, passed whole to where the answer comes from."""

    url: str
    method: str  # GET, or HEAD for a link check (P4)
    etag: str | None  # E3: the validators of the last answer, as stored
    last_modified: str | None
    max_bytes: int  # the body's cap: the limit or the caller's, 0 for HEAD


@dataclass(frozen=True, slots=True)
class Exchange:
    """The request and the response as they went over the wire, for an archive (WARC): kept
    only when the fetcher is asked to (``keep_exchanges``)."""

    request_line: str  # "GET /path?query HTTP/1.1"
    request_headers: tuple[tuple[str, str], ...]  # as sent, Host first
    protocol: str  # of the response: "HTTP/1.1"
    reason: str  # "OK"
    raw_body: bytes  # as received: content coding kept, chunking undone; up to the limits
    started_at: datetime  # when the request was sent: the capture's date
    peer_address: str | None = None  # the address the connection reached: WARC-IP-Address


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What one hop answered. ``headers`` keeps every header line, repeated ones included."""

    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes  # decoded (gzip/deflate undone), at most the cap
    truncated: bool  # C7: the body was cut at the cap, and is recorded as such
    elapsed_seconds: float
    location: str | None  # for a redirect: Location resolved against ``url``
    exchange: Exchange | None = None
    archived_as: str | None = None  # the WARC-Record-ID of its response record, if archived
    peer_address: str | None = None  # the address the connection reached (P6), if known
    resolved_at: datetime | None = None  # when the connection resolved its host name

    def header(self, name: str) -> str | None:
        """The header's value, case-insensitively; repeated headers joined with ", "."""
        values = self._values(name)
        return ", ".join(values) if values else None

    # Single-valued headers: the first one counts (joined dates or types would mean nothing).
    @property
    def content_type(self) -> str | None:
        return self._first("Content-Type")

    @property
    def etag(self) -> str | None:
        return self._first("ETag")

    @property
    def last_modified(self) -> str | None:
        return self._first("Last-Modified")

    def retry_after_seconds(self, now: datetime) -> float | None:
        """P3: Retry-After as a wait in seconds (delay-seconds or HTTP-date), None if absent or bad.

        ``now`` is an aware datetime; a date in the past means no wait (0.0).
        """
        if now.tzinfo is None:
            raise ValueError("now must be an aware datetime")
        value = self._first("Retry-After") or ""
        if value.isascii() and value.isdigit():
            return min(float(value), _LONGEST_RETRY_AFTER_SECONDS)
        when = parse_http_date(value)
        if when is None:
            return None
        return min(max((when - now).total_seconds(), 0.0), _LONGEST_RETRY_AFTER_SECONDS)

    def _values(self, name: str) -> list[str]:
        wanted = name.lower()
        return [value for key, value in self.headers if key.lower() == wanted]

    def _first(self, name: str) -> str | None:
        values = self._values(name)
        return values[0].strip() if values else None
