"""What a sitemap file is read into: its entries, problems and limits, and ``lastmod`` dates
[S2, S3]. Pure values; ``parse`` reads the bytes, ``formats`` the XML, text and feed files."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Literal

from politecrawl.config import SitemapSettings

SitemapKind = Literal["urlset", "index", "text", "feed", "unknown"]

# W3C Datetime, as sitemaps.org asks: YYYY, YYYY-MM, YYYY-MM-DD, or a date and a time with a
# zone (seconds and fractions optional).
_W3C_DATETIME = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?)?)?"
)
_DEFAULTS = SitemapSettings()


@dataclass(frozen=True, slots=True)
class SitemapLimits:
    """Resource bounds for one sitemap file (sitemaps.org's, by default: the settings')."""

    max_entries: int = _DEFAULTS.max_sitemap_entries
    max_bytes: int = _DEFAULTS.max_sitemap_bytes
    """Bytes after decompression."""


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    """One ``<loc>`` (or text line, or feed link) with its ``lastmod`` as written and read."""

    url: str
    lastmod: datetime | None
    lastmod_text: str | None
    """``lastmod`` as written; set with ``lastmod`` None when it is malformed."""
    line: int | None
    """The line of the entry in the (decompressed) file, where known."""


@dataclass(frozen=True, slots=True)
class SitemapProblem:
    """Something in the file that was not read as a sitemap asks; ``line`` where known."""

    line: int | None
    message: str

    def describe(self) -> str:
        """One line for people."""
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True, slots=True)
class ParsedSitemap:
    """What one sitemap file lists. For an ``index``, ``entries`` are the sitemaps it names."""

    kind: SitemapKind
    entries: tuple[SitemapEntry, ...]
    problems: tuple[SitemapProblem, ...]
    truncated: bool
    """A limit (entries, bytes) cut the file short."""

    @property
    def failed(self) -> bool:
        """Nothing usable was read, and something was wrong."""
        return not self.entries and bool(self.problems)


def parse_lastmod(text: str) -> datetime | None:
    """A W3C Datetime as an aware UTC datetime; ``None`` when it is malformed."""
    match = _W3C_DATETIME.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        moment = datetime(
            int(year),
            int(month or 1),
            int(day or 1),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
            tzinfo=_zone(zone),
        )
    except ValueError:
        return None
    return moment.astimezone(UTC)


def _zone(zone: str | None) -> timezone:
    if zone is None or zone == "Z":
        return UTC
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))


# --- plain text -----------------------------------------------------------------------------
