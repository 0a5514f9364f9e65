"""Sitemap bytes to entries, within sitemaps.org's limits and a hostile file's [S2]. Pure.

Owns ``SitemapReader``, which reads one sitemap file as its bytes come (``feed``, then
``close``), ``parse_sitemap`` (the same for a body already in memory), and their values. It reads
what sites publish as sitemaps: a ``urlset``, a ``sitemapindex`` (whose entries are more
sitemaps), either of them gzip-compressed, a plain-text file (one URL a line), and, as a bonus,
RSS 2.0 and Atom feeds named as sitemaps.

Everything is read in bounded steps: a gzip body is inflated a step at a time and cut off at the
byte limit (a gzip bomb is never inflated whole), XML goes through lxml's ``XMLPullParser`` with
entities never resolved and the network never reached, and each finished entry is dropped from the
tree, so memory does not grow with the file and a "billion laughs" costs nothing. The events of
each step are taken before the next step is fed, so what came before a fault is kept whatever a
given lxml release yields once the fault is met (lxml 6.2's ``iterparse`` yields nothing then).

Limits (``SitemapLimits``): at most 50,000 entries and 50 MB after decompression per file
(sitemaps.org). Bad content is never an error: what was read before the fault is kept, and the
fault is a ``SitemapProblem`` with its line number.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Literal

from lxml import etree

from politecrawl.config import SitemapSettings

SitemapKind = Literal["urlset", "index", "text", "feed", "unknown"]

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_STEP_BYTES = 64 * 1024
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
_DAMAGED = zlib.decompressobj()  # stands for a gzip stream that broke: nothing more is read


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
    """Read a sitemap file as fetched (gzip-compressed or not). Never raises on content.
    ``content_type`` is accepted and unused: servers label sitemaps every way, and the first
    bytes tell the format."""
    del content_type
    reader = SitemapReader(limits=limits)
    view = memoryview(body)
    for start in range(0, len(view), _STEP_BYTES):
        if reader.is_done:
            break
        reader.feed(view[start : start + _STEP_BYTES])
    return reader.close()


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


class SitemapReader:
    """One sitemap file read as its bytes come: ``feed`` each piece as it arrives (until
    ``is_done``), then ``close`` for what it lists. Never raises on content."""

    def __init__(self, *, limits: SitemapLimits | None = None) -> None:
        self._limits = limits or SitemapLimits()
        self._entries: list[SitemapEntry] = []
        self._problems: list[SitemapProblem] = []
        self._coding_head: bytes | None = b""  # raw bytes until gzip can be told; then None
        self._inflater: zlib._Decompress | None = None
        self._format_head = b""  # decoded bytes until the format can be told
        self._format: _XmlEntries | _TextEntries | None = None
        self._taken = 0  # decoded bytes handed on
        self._cut = False  # the byte limit cut the file
        self._stopped = False  # a fault, a foreign root or the entry limit ended the parsing

    @property
    def is_done(self) -> bool:
        """Nothing more that is fed will be read: the byte limit was reached. (After a fault
        the bytes are still counted, never parsed, so that a file over the limit says so.)"""
        return self._cut

    def feed(self, data: bytes | memoryview) -> None:
        """The next bytes of the file as received (gzip-compressed or not)."""
        if self.is_done or not data:
            return
        if self._coding_head is not None:
            head = self._coding_head + bytes(data)
            if len(head) < len(_GZIP_MAGIC):
                self._coding_head = head
                return
            data, self._coding_head = head, None
            if head.startswith(_GZIP_MAGIC):
                self._inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
        if self._inflater is None:
            self._take(data)
        elif self._inflater is not _DAMAGED:
            self._inflate(self._inflater, data)

    def close(self) -> ParsedSitemap:
        """What the file lists, from all that was fed."""
        if self._coding_head:  # a file of one byte
            self._take(self._coding_head)
        kind: SitemapKind = "unknown"
        truncated = self._cut
        if self._format is not None:
            kind, is_full = self._format.close(finished=not self._stopped)
            truncated = truncated or is_full
        elif not self._stopped:
            self._problems.append(SitemapProblem(None, "empty sitemap"))
        if self._cut:
            self._problems.append(
                SitemapProblem(None, f"cut off at {self._limits.max_bytes} bytes")
            )
        return ParsedSitemap(kind, tuple(self._entries), tuple(self._problems), truncated)

    def _inflate(self, inflater: zlib._Decompress, data: bytes | memoryview) -> None:
        """gzip inflated a bounded step at a time: a bomb is never inflated whole (C7)."""
        try:
            while data and not self.is_done and not inflater.eof:
                room = self._limits.max_bytes - self._taken + 1  # one byte more tells a cut
                self._take(inflater.decompress(data, min(_STEP_BYTES, room)))
                data = inflater.unconsumed_tail
        except zlib.error as error:
            self._problems.append(SitemapProblem(None, f"gzip data is damaged: {error}"))
            self._stopped = True
            self._inflater = _DAMAGED

    def _take(self, data: bytes | memoryview) -> None:
        """Decoded bytes to the format's reader, up to the byte limit."""
        room = self._limits.max_bytes - self._taken
        if len(data) > room:
            data, self._cut = data[:room], True
        self._taken += len(data)
        if self._stopped:
            return
        if self._format is None:
            data = self._format_start(bytes(data))
            if self._format is None:
                return
        if self._format.feed(bytes(data)):
            self._stopped = True

    def _format_start(self, data: bytes) -> bytes:
        """The held bytes, once the first one that is not white space (after a BOM) has come
        and the format's reader is made; until then nothing."""
        held = self._format_head + data
        if len(held) < len(_BOM) and _BOM.startswith(held):
            self._format_head = held
            return b""
        held = held.removeprefix(_BOM)
        first = held.lstrip()[:1]
        if not first:
            self._format_head = held  # white space alone so far (bounded by the byte limit)
            return b""
        self._format_head = b""
        make = _XmlEntries if first == b"<" else _TextEntries
        self._format = make(self._limits, self._entries, self._problems)
        return held


class _Entries:
    """What a format's reader shares: the limits, and the entries and problems it adds to."""

    def __init__(
        self, limits: SitemapLimits, entries: list[SitemapEntry], problems: list[SitemapProblem]
    ) -> None:
        self._limits = limits
        self._entries = entries
        self._problems = problems
        self._is_full = False  # the entry limit was reached

    def _keep(self, entry: SitemapEntry, line: int | None, what: str) -> bool:
        """Add ``entry``; True (and the problem said, at ``line``) when that reaches the limit."""
        self._entries.append(entry)
        if len(self._entries) < self._limits.max_entries:
            return False
        message = f"more than {self._limits.max_entries} {what}; the rest ignored"
        self._problems.append(SitemapProblem(line, message))
        self._is_full = True
        return True


# --- XML --------------------------------------------------------------------------------------


class _XmlEntries(_Entries):
    """A urlset, index or feed, through lxml's pull parser; finished entries leave the tree."""

    def __init__(
        self, limits: SitemapLimits, entries: list[SitemapEntry], problems: list[SitemapProblem]
    ) -> None:
        super().__init__(limits, entries, problems)
        self._parser = etree.XMLPullParser(
            events=("start", "end"),
            resolve_entities=False,
            no_network=True,
            huge_tree=False,
            load_dtd=False,
            recover=False,
        )
        self._kind: SitemapKind = "unknown"
        self._depth = 0
        self._loc: str | None = None
        self._loc_line: int | None = None
        self._lastmod: str | None = None

    def feed(self, data: bytes) -> bool:
        """Read ``data``; True when the reading is over (a fault, a foreign root, the limit)."""
        try:
            self._parser.feed(data)
        except etree.XMLSyntaxError as error:
            self._read_events()  # what a release yields before the fault; earlier steps are kept
            self._fault(error)
            return True
        return self._read_events()

    def close(self, *, finished: bool) -> tuple[SitemapKind, bool]:
        """``(kind, whether the entry limit cut the file)``; ``finished``: the parsing was not
        stopped, so the end of the document is checked (a file cut short fails that)."""
        if finished:
            try:
                self._parser.close()
            except etree.XMLSyntaxError as error:
                self._read_events()
                self._fault(error)
            else:
                self._read_events()
        return self._kind, self._is_full

    def _fault(self, error: etree.XMLSyntaxError) -> None:
        line = error.lineno if error.lineno else None
        self._problems.append(SitemapProblem(line, f"bad XML: {error.msg}"))

    def _read_events(self) -> bool:
        return any(self._on(event, element) for event, element in self._parser.read_events())

    def _on(self, event: str, element: etree._Element) -> bool:
        """One parser event; True when the reading is over."""
        name = _local(element.tag)
        if event == "start":
            self._depth += 1
            if self._depth == 1:
                self._kind = _root_kind(name)
                if self._kind == "unknown":
                    message = f"not a sitemap: <{name}>"
                    self._problems.append(SitemapProblem(element.sourceline, message))
                    return True
            return False
        self._depth -= 1
        in_entry = _local(getattr(element.getparent(), "tag", None)) in _CONTAINERS
        if name in ("loc", "link") and in_entry:
            self._take_loc(element)
        elif in_entry and (
            name == "lastmod" or (self._kind == "feed" and name in ("updated", "pubdate"))
        ):
            self._lastmod = (element.text or "").strip() or None
        elif name in _CONTAINERS and self._end_entry(element, name):
            return True
        if self._depth <= 1:
            _forget(element)
        return False

    def _take_loc(self, element: etree._Element) -> None:
        if len(element):  # an entity reference or markup inside: its text is not the URL
            self._loc_line = self._loc_line or element.sourceline
            self._loc = ""
            return
        found = _loc_of(element, self._kind)
        if found is not None and self._loc is None:
            self._loc, self._loc_line = found, element.sourceline

    def _end_entry(self, element: etree._Element, name: str) -> bool:
        """A container ended: its entry is kept; True at the entry limit."""
        loc, line, lastmod = self._loc, self._loc_line, self._lastmod
        self._loc = self._lastmod = self._loc_line = None
        if loc == "":
            message = "malformed <loc> (an entity reference or markup inside): entry ignored"
            self._problems.append(SitemapProblem(line, message))
        elif loc is not None:
            entry = _entry(loc, lastmod, line, self._problems)
            return self._keep(entry, element.sourceline, "entries")
        elif self._kind != "feed":
            self._problems.append(SitemapProblem(element.sourceline, f"<{name}> without <loc>"))
        return False


def _forget(element: etree._Element) -> None:
    """Drop a finished element of the root, and those before it: memory stays flat."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""  # a comment or processing instruction
    return tag.rpartition("}")[2].lower()


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


class _TextEntries(_Entries):
    """sitemaps.org's text format: one URL a line, UTF-8, nothing else; read line by line."""

    def __init__(
        self, limits: SitemapLimits, entries: list[SitemapEntry], problems: list[SitemapProblem]
    ) -> None:
        super().__init__(limits, entries, problems)
        self._rest = b""  # an unfinished last line
        self._line = 0

    def feed(self, data: bytes) -> bool:
        """Read ``data``; True at the entry limit."""
        lines, newline, self._rest = (self._rest + data).rpartition(b"\n")
        return bool(newline) and self._read(lines + newline)

    def close(self, *, finished: bool) -> tuple[SitemapKind, bool]:
        """``("text", whether the entry limit cut the file)``."""
        if self._rest and not self._is_full:
            self._read(self._rest)
        del finished  # a text file cut short ends with its last whole line all the same
        return "text", self._is_full

    def _read(self, data: bytes) -> bool:
        for line in data.decode("utf-8", "replace").splitlines():
            self._line += 1
            value = line.strip()
            if not value:
                continue
            if not _HTTP_URL.fullmatch(value):
                self._problems.append(SitemapProblem(self._line, "not an http(s) URL, ignored"))
                continue
            if self._keep(SitemapEntry(value, None, None, self._line), self._line, "URLs"):
                return True
        return False
