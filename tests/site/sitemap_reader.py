"""A minimal sitemap reader for the oracle (S2, S3): urlset, sitemapindex, plain text, each
possibly a gzip file; at most so many entries and so many bytes after decompression.

Independent of ``politecrawl.sitemaps`` on purpose, so the ground truth does not inherit the
crawler's bugs. It only has to be right for the sitemaps the test web serves. It reads as a
stream: a gzip bomb is inflated a piece at a time and never held whole, and whitespace-only
pieces are not even parsed (a ``<loc>`` value is stripped, so they cannot matter).
"""

from __future__ import annotations

import re
import zlib
from calendar import timegm
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING
from xml.parsers import expat

if TYPE_CHECKING:
    from collections.abc import Iterator

_PIECE = 1 << 20
_BEYOND_LIMIT = 1 << 20  # non-blank text kept after the cut, only to name what it lists
_LOC = re.compile(rb"<(?:\w+:)?loc>\s*(.*?)\s*</(?:\w+:)?loc>", re.DOTALL)
_W3C = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?"
)


@dataclass(frozen=True)
class Entry:
    """One ``<url>``/``<sitemap>`` (or a text line): its ``loc`` stripped and unescaped."""

    loc: str
    lastmod: str | None = None
    line: int = 0


@dataclass(frozen=True)
class SitemapRead:
    """``format``: "urlset", "index", "text" or "unknown" (XML of another root);
    ``truncated``: more than ``max_bytes`` decompressed or more than ``max_entries``;
    ``beyond``: locs found after the cut (never read, S2: only to say why); ``problems``:
    "line N: message" (bad XML ends the reading, never the crawl)."""

    format: str
    entries: tuple[Entry, ...]
    truncated: bool = False
    beyond: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def lastmod_seconds(text: str) -> float | None:
    """A W3C datetime (sitemaps.org's lastmod) as epoch seconds, or None when malformed. A date
    alone is midnight UTC; a time without a zone is read as UTC."""
    found = _W3C.fullmatch(text.strip())
    if found is None:
        return None
    year, month, day, hour, minute, second, zone = found.groups()
    numbers = (int(year), int(month or 1), int(day or 1))
    clock = (int(hour or 0), int(minute or 0), int(second or 0))
    if not (1 <= numbers[1] <= 12 and 1 <= numbers[2] <= _days(numbers[0], numbers[1])):
        return None
    if clock[0] > 23 or clock[1] > 59 or clock[2] > 60:
        return None
    offset = 0
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        offset = sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    return float(timegm((*numbers, *clock, 0, 0, 0)) - offset)


def _days(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _pieces(body: bytes, gzipped: bool) -> Iterator[bytes]:
    """The body in pieces of at most ``_PIECE`` bytes, inflated (every member) if gzipped."""
    if not gzipped:
        for start in range(0, len(body), _PIECE):
            yield body[start : start + _PIECE]
        return
    data = body
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            while data and not inflater.eof:
                piece = inflater.decompress(data, _PIECE)
                data = inflater.unconsumed_tail
                if piece:
                    yield piece
        except zlib.error:
            return
        data = inflater.unused_data


class _Xml:
    """expat with handlers: the root names the format; ``loc``/``lastmod`` directly under a
    ``url``/``sitemap`` under the root make an entry (extensions such as image:loc do not)."""

    def __init__(self, max_entries: int) -> None:
        self.parser = expat.ParserCreate(namespace_separator="}")
        self.parser.buffer_text = True
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._text
        self.max_entries = max_entries
        self.format = "unknown"
        self.entries: list[Entry] = []
        self.over = False  # more entries than max_entries
        self.stack: list[str] = []
        self.capturing: list[str] | None = None
        self.current: dict[str, str] = {}
        self.line = 0

    @staticmethod
    def _local(name: str) -> str:
        return name.rsplit("}", 1)[-1]

    def _start(self, name: str, attrs: object) -> None:
        local = self._local(name)
        if not self.stack:
            self.format = {"urlset": "urlset", "sitemapindex": "index"}.get(local, "unknown")
        elif len(self.stack) == 1 and local in ("url", "sitemap"):
            self.current, self.line = {}, self.parser.CurrentLineNumber
        elif len(self.stack) == 2 and local in ("loc", "lastmod"):
            self.capturing = []
        self.stack.append(local)

    def _end(self, name: str) -> None:
        local = self.stack.pop()
        if self.capturing is not None and len(self.stack) == 2:
            self.current[local] = "".join(self.capturing).strip()
            self.capturing = None
        elif len(self.stack) == 1 and local in ("url", "sitemap") and "loc" in self.current:
            if len(self.entries) >= self.max_entries:
                self.over = True
            else:
                entry = Entry(self.current["loc"], self.current.get("lastmod"), self.line)
                self.entries.append(entry)

    def _text(self, data: str) -> None:
        if self.capturing is not None:
            self.capturing.append(data)


def read_sitemap(
    body: bytes,
    *,
    content_encoding: str | None = None,
    max_bytes: int = 50 << 20,
    max_entries: int = 50_000,
) -> SitemapRead:
    """Read a sitemap body as served: gzip-inflated when it is a gzip file (magic bytes) or
    sent with ``Content-Encoding: gzip``; cut after ``max_bytes`` decompressed."""
    return _read(bytes(body), (content_encoding or "").lower(), max_bytes, max_entries)


def _cut(pieces: Iterator[bytes], max_bytes: int) -> Iterator[tuple[bytes, bool]]:
    """``(piece, after the cut)``: the first ``max_bytes``, then what comes after."""
    kept = 0
    for piece in pieces:
        room = max(max_bytes - kept, 0)
        kept += len(piece)
        if piece[:room]:
            yield piece[:room], False
        if piece[room:]:
            yield piece[room:], True


@lru_cache(maxsize=32)  # one truth reads each sitemap once; a test asks for several truths
def _read(body: bytes, encoding: str, max_bytes: int, max_entries: int) -> SitemapRead:
    gzipped = encoding == "gzip" or body[:2] == b"\x1f\x8b"
    head = b""  # the first bytes, until the format is known
    xml: _Xml | None = None
    text: list[bytes] | None = None
    problems: list[str] = []
    truncated = False
    beyond: list[bytes] = []
    beyond_size = 0
    for piece, after in _cut(_pieces(body, gzipped), max_bytes):
        if after:  # never read: kept only to say what was listed there
            truncated = True
            if not piece.isspace() and beyond_size < _BEYOND_LIMIT:
                beyond.append(piece)
                beyond_size += len(piece)
            continue
        data = piece
        if xml is None and text is None:
            head += piece
            if not head.lstrip(b"\xef\xbb\xbf \t\r\n"):
                continue
            data, head = head, b""
            if head_is_xml(data):
                xml = _Xml(max_entries)
            else:
                text = []
        if text is not None:
            text.append(data)
        elif xml is not None and not problems and not (data.isspace() and xml.capturing is None):
            try:
                xml.parser.Parse(data, False)
            except expat.ExpatError as error:
                problems.append(f"line {error.lineno}: {expat.ErrorString(error.code)}")
    if xml is not None and not truncated and not problems:
        try:
            xml.parser.Parse(b"", True)
        except expat.ExpatError as error:
            problems.append(f"line {error.lineno}: {expat.ErrorString(error.code)}")
    locs = tuple(m.group(1).decode("utf-8", "replace") for m in _LOC.finditer(b"".join(beyond)))
    if xml is not None:
        over = truncated or xml.over
        return SitemapRead(xml.format, tuple(xml.entries), over, locs, tuple(problems))
    lines = b"".join(text or []).decode("utf-8", "replace").splitlines()
    if truncated and lines:
        lines.pop()  # a line cut in two is not read
    entries = [Entry(line.strip(), None, n) for n, line in enumerate(lines, 1) if line.strip()]
    over = truncated or len(entries) > max_entries
    return SitemapRead("text", tuple(entries[:max_entries]), over, locs)


def head_is_xml(head: bytes) -> bool:
    """XML starts with ``<`` after an optional byte order mark and blanks; text does not."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")
