"""One parse of a page: what the crawl needs from HTML, and nothing else [T1, T3, T6, T7, P4, B1].

Owns ``is_html`` (is this response a page whose links we read?), ``parse_html`` (bytes to a
``ParsedPage``: the title, the first ``<base href>``, every named ``<meta>``, the raw links of
``<a>``, ``<area>``, ``<frame>`` and ``<iframe>`` in document order, and the first
``<link rel="canonical">``) and the values ``ParsedPage``
and ``RawLink``. ``directives`` reads the metas (T1-T3); ``links`` resolves the links (T6, T7).

Pure (L1): lxml's HTML parser, in memory. The body is decoded once here (``_encoding``: as
browsers find it), then lxml builds the tree and only the eight tags above are visited. lxml
alone is about ten times faster than BeautifulSoup over lxml even with a ``SoupStrainer`` (12 ms
a page on a 52 KB documentation page): for a crawl of one site, the parse is most of a page's
cost. Users who want a soup of a page build one from ``Page.body`` when they ask for it.
Of ``<link>`` elements only ``rel="canonical"`` is read (for the sitemap audit, S4), never
followed: ``rel="alternate"`` feeds and translations are not pages a site maintainer expects a
robot to crawl (see ``links``). Never raises on any bytes (B1, STYLE
9): HTML that cannot be parsed at all is an empty page.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# WHATWG MIME sniffing treats these as "no type given".
_UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})
_SNIFF_BYTES = 1024  # how much of an untyped body is looked at
_CHARSET = re.compile(r"""charset\s*=\s*["']?([^"';,\s]+)""", re.IGNORECASE)
# As browsers do (WHATWG Encoding): these labels mean windows-1252, a superset.
_WINDOWS_1252_ALIASES = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii"})
_BYTE_ORDER_MARKS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# An encoding the page declares, found as BeautifulSoup's EncodingDetector finds it (the same
# patterns, in the same first bytes); bs4 is not imported for two patterns: with soupsieve, its
# import was 0.13 s of every crawl's start.
_XML_DECLARED = re.compile(rb"""^\s*<\?.*encoding=['"](.*?)['"].*\?>""", re.IGNORECASE)
_META_DECLARED = re.compile(rb"""<\s*meta[^>]+charset\s*=\s*["']?([^>]*?)[ /;'">]""", re.IGNORECASE)
_LINK_ATTRIBUTE = {"a": "href", "area": "href", "frame": "src", "iframe": "src"}
_TAG_NAMES = (*_LINK_ATTRIBUTE, "base", "link", "meta", "title")
# L3: what a page loads, by element, and the <link> rels that load something.
_RESOURCE_ATTRIBUTES = {
    "img": ("src", "srcset"),
    "link": ("href",),
    "script": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "source": ("src", "srcset"),
    "track": ("src",),
    "embed": ("src",),
    "object": ("data",),
}
_RESOURCE_RELS = frozenset(
    ("stylesheet", "icon", "apple-touch-icon", "preload", "modulepreload", "manifest")
)
_DETAILED_TAG_NAMES = tuple(dict.fromkeys((*_TAG_NAMES, *_RESOURCE_ATTRIBUTES)))
_ANCHORS = etree.XPath("//@id | //a/@name")
# The body reaches lxml as UTF-8 whatever it was sent in, so lxml never guesses (nor follows a
# <meta charset> that the Content-Type overrules).
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
_ENCODING_ERRORS = "replace"  # B1: undecodable bytes become U+FFFD, as browsers show them


@dataclass(frozen=True, slots=True)
class RawLink:
    """A link as the page wrote it: ``href`` (``src`` for frames) stripped, ``rel`` lower-cased."""

    href: str
    rel: tuple[str, ...]
    tag: str  # "a", "area", "frame" or "iframe"; for a resource, its element's name
    line: int | None = field(default=None, compare=False)
    """The element's line in the page (a note: not part of what the link is)."""
    text: str | None = field(default=None, compare=False)
    """With ``details``: the link's text (an image's alt or title), whitespace collapsed."""
    resource: bool = False
    """An image, stylesheet, icon, script or media source, not a link to follow (L3)."""


@dataclass(frozen=True, slots=True)
class ParsedPage:
    """What one parse of a page yields; ``links`` and ``robots_metas`` are in document order."""

    title: str | None
    base_href: str | None  # the first <base href>, stripped; resolved by ``links`` (T7)
    robots_metas: tuple[tuple[str, str], ...]  # (name lower-cased, content) of every named meta
    links: tuple[RawLink, ...]
    canonical_href: str | None = None  # the first <link rel="canonical" href>, stripped (S4)
    resources: tuple[RawLink, ...] = ()
    """With ``details``: images, stylesheets, icons, scripts, media, in document order (L3)."""
    anchors: frozenset[str] | None = None
    """With ``details``: every ``id`` and ``<a name>`` a ``#fragment`` may name (L4)."""


_EMPTY_PAGE = ParsedPage(title=None, base_href=None, robots_metas=(), links=())


def is_html(content_type: str | None, body: bytes) -> bool:
    """Whether a response is HTML: ``text/html`` or ``application/xhtml+xml``.

    A declared type is believed (an HTML body served as ``text/plain`` is not read: fetch less).
    Without one, the body is sniffed: after a byte-order mark, whitespace, an XML declaration and
    comments, it must begin with ``<!doctype html`` or ``<html``, case-insensitively.
    """
    if content_type is not None:
        mime = content_type.partition(";")[0].strip().lower()
        if mime not in _UNKNOWN_TYPES:
            return mime in _HTML_TYPES
    return _looks_like_html(body[:_SNIFF_BYTES])


def parse_html(
    body: bytes, *, content_type: str | None = None, details: bool = False
) -> ParsedPage | None:
    """Parse ``body`` once; ``None`` when it is not HTML (``is_html``). Never raises (B1).

    The encoding is found as browsers find it (``_encoding``): byte-order mark, the charset of
    ``content_type`` when Python knows it, ``<meta charset>``, valid UTF-8, then a guess.
    ``details`` (link checking, L1-L4) also reads each link's text, the page's resources and
    its anchors; a crawl that does not check links skips that work.
    """
    if not is_html(content_type, body):
        return None
    if b"<" not in body:
        return _EMPTY_PAGE  # no tags at all: nothing to find
    root = _tree(decode_body(body, content_type))
    if root is None:
        return _EMPTY_PAGE
    title: str | None = None
    seen_title = False
    base_href: str | None = None
    metas: list[tuple[str, str]] = []
    links: list[RawLink] = []
    resources: list[RawLink] = []
    canonical_href: str | None = None
    for element in root.iter(_DETAILED_TAG_NAMES if details else _TAG_NAMES):
        name = element.tag
        if name in _LINK_ATTRIBUTE:
            href = element.get(_LINK_ATTRIBUTE[name])
            if href is not None:
                rel = tuple((element.get("rel") or "").lower().split())
                text = _text_of(element) if details else None
                links.append(RawLink(href.strip(), rel, name, element.sourceline, text))
        elif name == "meta":
            meta_name, content = element.get("name"), element.get("content")
            if meta_name and meta_name.strip() and content is not None:
                metas.append((meta_name.strip().lower(), content))
        elif name == "base":
            href = element.get("href")
            if base_href is None and href is not None:
                base_href = href.strip()  # only the first <base> with an href counts (HTML)
        elif name == "title" and not seen_title:
            seen_title = True
            title = " ".join(element.text_content().split()) or None
        elif name == "link" and canonical_href is None:
            href = element.get("href")
            if href is not None and "canonical" in (element.get("rel") or "").lower().split():
                canonical_href = href.strip()
        if details and name in _RESOURCE_ATTRIBUTES:
            resources.extend(_resources_of(element))
    anchors = frozenset(str(value) for value in _ANCHORS(root)) if details else None
    return ParsedPage(
        title, base_href, tuple(metas), tuple(links), canonical_href, tuple(resources), anchors
    )


def as_parsed_page(
    html: ParsedPage | str | bytes | None, *, content_type: str | None
) -> ParsedPage | None:
    """``html`` as a parsed page, for readers that take a page in any form: ``None`` and a
    ``ParsedPage`` as given, text as UTF-8 HTML, body bytes as ``content_type`` (the response's
    Content-Type; ``text/html`` when it has none) says."""
    if html is None or isinstance(html, ParsedPage):
        return html
    if isinstance(html, str):
        data = html.encode("utf-8", "replace")  # lone surrogates cannot be encoded
        return parse_html(data, content_type="text/html; charset=utf-8")
    return parse_html(html, content_type=content_type or "text/html")


def _text_of(element: lxml.html.HtmlElement) -> str | None:
    """A link's text for a report: its words, or an image's alt inside it; at most 200."""
    words = " ".join(element.text_content().split())
    if not words:
        image = next(element.iter("img"), None)
        if image is not None:
            words = " ".join((image.get("alt") or image.get("title") or "").split())
    return words[:200] or None


def _resources_of(element: lxml.html.HtmlElement) -> list[RawLink]:
    """The resource URLs of one element (``srcset`` gives one per candidate), L3."""
    name = element.tag
    if name == "link":
        rel = tuple((element.get("rel") or "").lower().split())
        if not _RESOURCE_RELS.intersection(rel):
            return []  # alternate, canonical, next, ...: not something a page loads
    else:
        rel = ()
    found: list[RawLink] = []
    text = " ".join((element.get("alt") or element.get("title") or "").split())[:200] or None
    for attribute in _RESOURCE_ATTRIBUTES[name]:
        value = element.get(attribute)
        if not value:
            continue
        values = _srcset(value) if attribute == "srcset" else [value.strip()]
        found += [RawLink(url, rel, name, element.sourceline, text, True) for url in values]
    return found


def _srcset(value: str) -> list[str]:
    """The URLs of a ``srcset``, as WHATWG parses it: each candidate's URL is a run of
    non-space characters (a ``data:`` URL keeps its commas), then descriptors up to a comma."""
    urls: list[str] = []
    position, end = 0, len(value)
    while position < end:
        while position < end and (value[position].isspace() or value[position] == ","):
            position += 1
        start = position
        while position < end and not value[position].isspace():
            position += 1
        url = value[start:position]
        if url.endswith(","):
            url = url.rstrip(",")  # no descriptors: the comma ends the candidate
        else:
            depth = 0  # descriptors run to the next comma outside parentheses
            while position < end and (value[position] != "," or depth):
                depth += {"(": 1, ")": -1}.get(value[position], 0)
                position += 1
        if url:
            urls.append(url)
    return urls


def _looks_like_html(head: bytes) -> bool:
    """Sniff the start of an untyped body for an HTML document."""
    head = head.removeprefix(b"\xef\xbb\xbf").lower()
    while True:
        head = head.lstrip(b" \t\r\n\f")
        for opening, closing in ((b"<?xml", b"?>"), (b"<!--", b"-->")):
            if head.startswith(opening):
                end = head.find(closing, len(opening))
                if end < 0:
                    return False
                head = head[end + len(closing) :]
                break
        else:
            return head.startswith((b"<!doctype html", b"<html"))


def _charset(content_type: str | None) -> str | None:
    """The charset parameter of ``content_type`` when Python knows it, else ``None`` (an
    unknown label is ignored, as browsers do; detection takes over)."""
    if content_type is None:
        return None
    found = _CHARSET.search(content_type.partition(";")[2])
    return None if found is None else _known_label(found.group(1))


def _encoding(body: bytes, content_type: str | None) -> str:
    """The encoding to read ``body`` in, as browsers find it: a byte-order mark, then the
    header's charset, then ``<meta charset>`` when Python knows it, then UTF-8 when the bytes
    are valid UTF-8 (a statistical guess on a short page is often wrong), else windows-1252
    (the WHATWG default for an unlabelled page)."""
    if body.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if body.startswith(_BYTE_ORDER_MARKS):
        return "utf-16"
    charset = _charset(content_type)
    if charset is not None:
        return charset
    declared = _declared_encoding(body)
    if declared:
        known = _known_label(declared)
        if known is not None:
            return known
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "windows-1252"
    return "utf-8"


def _declared_encoding(body: bytes) -> str | None:
    """The encoding an XML declaration (in the first 1024 bytes) or a ``<meta charset>`` (in
    the first 2048 bytes or twentieth of the body) names, lower case; None for none."""
    found = _XML_DECLARED.search(body, 0, 1024) or _META_DECLARED.search(
        body, 0, max(2048, len(body) // 20)
    )
    if found is None or not found.group(1):
        return None
    return found.group(1).decode("ascii", "replace").lower()


def _known_label(label: str) -> str | None:
    label = label.strip().lower()
    if label in _WINDOWS_1252_ALIASES:
        return "windows-1252"
    try:
        codecs.lookup(label)
    except LookupError:
        return None
    return label


def decode_body(body: bytes, content_type: str | None) -> str:
    """A body as text, in the encoding browsers would read it in (``_encoding``); bytes that do
    not decode become U+FFFD. ``Page.text`` and the parse share it."""
    return body.decode(_encoding(body, content_type), _ENCODING_ERRORS)


def _tree(text: str) -> lxml.html.HtmlElement | None:
    """The parsed tree, or ``None`` when lxml finds no document at all."""
    text = text.replace("\x00", "\ufffd")  # as browsers read a NUL in text
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8"), parser=_PARSER)
    except Exception:  # B1: bad HTML is content, not an error; lxml's failures are not a fixed set
        return None
    return root
