"""Sitemap bytes to entries, within sitemaps.org's limits and a hostile file's [S2]. Pure.

Owns ``parse_sitemap`` and its values. It reads what sites publish as sitemaps: a ``urlset``, a
``sitemapindex`` (whose entries are more sitemaps), either of them gzip-compressed, a plain-text
file (one URL a line), and, as a bonus, RSS 2.0 and Atom feeds named as sitemaps. XML goes
through lxml's ``iterparse``, element by element, with entities never resolved and the network
never reached, so a 50 MB file costs little memory and a "billion laughs" costs nothing.

Limits (``SitemapLimits``): at most 50,000 entries and 50 MB after decompression per file
(sitemaps.org); a gzip body is inflated in bounded steps and cut off at the byte limit, never
inflated whole (a gzip bomb). Bad content is never an error: what was read before the fault is
kept, and the fault is a ``SitemapProblem`` with its line number.
"""

from __future__ import annotations

import io
import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Literal

from lxml import etree

from politecrawl.config import SitemapSettings

SitemapKind = Literal["urlset", "index", "text", "feed", "unknown"]

_GZIP_MAGIC = b"\x1f\x8b"
_INFLATE_STEP = 64 * 1024
_HTTP_URL = re.compile(r"https?://\S+", re.IGNORECASE)
# W3C Datetime, as sitemaps.org asks: YYYY, YYYY-MM, YYYY-MM-DD, or a date and a time with a
# zone (seconds and fractions optional).
_W3C_DATETIME = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?)?)?"
)
_FEED_ROOTS = frozenset(("rss", "feed", "rdf"))
# The elements that hold one entry; only their own <loc>, <link> and <lastmod> count, so an
# image extension's <image:loc> inside a <url> is not taken for the page's.
_CONTAINERS = frozenset(("url", "sitemap", "item", "entry"))
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


def parse_sitemap(
    body: bytes, *, content_type: str | None = None, limits: SitemapLimits | None = None
) -> ParsedSitemap:
    """Read a sitemap file as fetched (gzip-compressed or not). Never raises on content."""
    limits = limits or SitemapLimits()
    problems: list[SitemapProblem] = []
    data, cut = _decompressed(body, limits.max_bytes, problems)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    head = data.lstrip()[:1]
    if head == b"<":
        kind, entries, more_cut = _parse_xml(data, limits, problems)
    elif not data.strip():
        return ParsedSitemap("unknown", (), (SitemapProblem(None, "empty sitemap"),), cut)
    else:
        kind, entries, more_cut = _parse_text(data, limits, problems)
    if cut:
        problems.append(SitemapProblem(None, f"cut off at {limits.max_bytes} bytes"))
    return ParsedSitemap(kind, tuple(entries), tuple(problems), cut or more_cut)


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


# --- decompression --------------------------------------------------------------------------


def _decompressed(
    body: bytes, max_bytes: int, problems: list[SitemapProblem]
) -> tuple[bytes, bool]:
    """The body inflated if it is gzip, at most ``max_bytes``; and whether it was cut."""
    if not body.startswith(_GZIP_MAGIC):
        return body[:max_bytes], len(body) > max_bytes
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    out = bytearray()
    pending = body
    try:
        while pending and len(out) < max_bytes:
            out += inflater.decompress(pending, min(_INFLATE_STEP, max_bytes - len(out) + 1))
            pending = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error as error:
        problems.append(SitemapProblem(None, f"gzip data is damaged: {error}"))
        return bytes(out[:max_bytes]), False
    return bytes(out[:max_bytes]), len(out) > max_bytes or bool(pending and not inflater.eof)


# --- XML --------------------------------------------------------------------------------------


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""  # a comment or processing instruction
    return tag.rpartition("}")[2].lower()


def _parse_xml(
    data: bytes, limits: SitemapLimits, problems: list[SitemapProblem]
) -> tuple[SitemapKind, list[SitemapEntry], bool]:
    kind: SitemapKind = "unknown"
    entries: list[SitemapEntry] = []
    loc: str | None = None
    loc_line: int | None = None
    lastmod: str | None = None
    depth = 0
    events = etree.iterparse(
        io.BytesIO(data),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        recover=False,
    )
    try:
        for event, element in events:
            name = _local(element.tag)
            if event == "start":
                depth += 1
                if depth == 1:
                    kind = _root_kind(name)
                    if kind == "unknown":
                        problems.append(
                            SitemapProblem(element.sourceline, f"not a sitemap: <{name}>")
                        )
                        return kind, entries, False
                continue
            depth -= 1
            in_entry = _local(getattr(element.getparent(), "tag", None)) in _CONTAINERS
            if name in ("loc", "link") and in_entry:
                found = _loc_of(element, kind)
                if found is not None and loc is None:
                    loc, loc_line = found, element.sourceline
            elif in_entry and (
                name == "lastmod" or (kind == "feed" and name in ("updated", "pubdate"))
            ):
                lastmod = (element.text or "").strip() or None
            elif name in _CONTAINERS:
                if loc is not None:
                    entries.append(_entry(loc, lastmod, loc_line, problems))
                    if len(entries) >= limits.max_entries:
                        problems.append(
                            SitemapProblem(
                                element.sourceline,
                                f"more than {limits.max_entries} entries; the rest ignored",
                            )
                        )
                        return kind, entries, True
                elif kind != "feed":
                    problems.append(SitemapProblem(element.sourceline, f"<{name}> without <loc>"))
                loc = lastmod = None
                loc_line = None
            if depth <= 1:
                element.clear(keep_tail=False)  # keep memory flat on large files
    except etree.XMLSyntaxError as error:
        line = error.lineno if error.lineno else None
        problems.append(SitemapProblem(line, f"bad XML: {error.msg}"))
    return kind, entries, False


def _root_kind(name: str) -> SitemapKind:
    if name == "urlset":
        return "urlset"
    if name == "sitemapindex":
        return "index"
    if name in _FEED_ROOTS:
        return "feed"
    return "unknown"


def _loc_of(element: etree._Element, kind: SitemapKind) -> str | None:
    """A ``<loc>``'s URL; in a feed, an RSS ``<link>`` text or an Atom ``<link href>``."""
    href = element.get("href")
    if kind == "feed" and href is not None:
        if (element.get("rel") or "alternate") != "alternate":
            return None  # an Atom entry's self, edit or enclosure link is not its page
        return href.strip() or None
    text = (element.text or "").strip()
    return text or None


def _entry(
    loc: str, lastmod: str | None, line: int | None, problems: list[SitemapProblem]
) -> SitemapEntry:
    moment = None if lastmod is None else parse_lastmod(lastmod)
    if lastmod is not None and moment is None:
        problems.append(SitemapProblem(line, f"malformed lastmod {lastmod!r} for {loc}"))
    return SitemapEntry(loc, moment, lastmod, line)


def _zone(zone: str | None) -> timezone:
    if zone is None or zone == "Z":
        return UTC
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))


# --- plain text -----------------------------------------------------------------------------


def _parse_text(
    data: bytes, limits: SitemapLimits, problems: list[SitemapProblem]
) -> tuple[SitemapKind, list[SitemapEntry], bool]:
    """sitemaps.org's text format: one URL a line, UTF-8, nothing else."""
    entries: list[SitemapEntry] = []
    text = data.decode("utf-8", "replace")
    for number, line in enumerate(text.splitlines(), start=1):
        value = line.strip()
        if not value:
            continue
        if not _HTTP_URL.fullmatch(value):
            problems.append(SitemapProblem(number, "not an http(s) URL, ignored"))
            continue
        entries.append(SitemapEntry(value, None, None, number))
        if len(entries) >= limits.max_entries:
            problems.append(
                SitemapProblem(number, f"more than {limits.max_entries} URLs; the rest ignored")
            )
            return "text", entries, True
    return "text", entries, False
