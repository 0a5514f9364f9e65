"""The formats a sitemap comes in, read entry by entry within the limits [S2]. Pure.

``XmlEntries`` reads a urlset, a sitemap index and RSS 2.0 or Atom feeds through lxml's pull
parser (entities never resolved, the network never reached, each finished entry dropped from
the tree); ``TextEntries`` a plain-text sitemap, one URL a line. ``parse.SitemapReader`` picks
one from the first bytes and feeds it.
"""

from __future__ import annotations

import re

from lxml import etree

from politecrawl.sitemaps.entries import (
    SitemapEntry,
    SitemapKind,
    SitemapLimits,
    SitemapProblem,
    parse_lastmod,
)

_HTTP_URL = re.compile(r"https?://\S+", re.IGNORECASE)
_FEED_ROOTS = frozenset(("rss", "feed", "rdf"))
# The elements that hold one entry; only their own <loc>, <link> and <lastmod> count, so an
# image extension's <image:loc> inside a <url> is not taken for the page's.
_CONTAINERS = frozenset(("url", "sitemap", "item", "entry"))


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


class XmlEntries(_Entries):
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


class TextEntries(_Entries):
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
