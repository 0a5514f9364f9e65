"""Sitemap bytes to entries, within sitemaps.org's limits and a hostile file's [S2]. Pure.

Owns ``SitemapReader``, which reads one sitemap file as its bytes come (``feed``, then
``close``), and ``parse_sitemap`` (the same for a body already in memory); what they read into is
in ``entries``, the format readers in ``formats``. It reads
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

import zlib

from politecrawl.sitemaps.entries import (
    ParsedSitemap,
    SitemapEntry,
    SitemapKind,
    SitemapLimits,
    SitemapProblem,
)
from politecrawl.sitemaps.formats import TextEntries, XmlEntries

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_STEP_BYTES = 64 * 1024
_DAMAGED = zlib.decompressobj()  # stands for a gzip stream that broke: nothing more is read


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
        self._format: XmlEntries | TextEntries | None = None
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
        make = XmlEntries if first == b"<" else TextEntries
        self._format = make(self._limits, self._entries, self._problems)
        return held
