"""Links of a parsed page, made absolute and canonical, with their rel=nofollow [T6, T7, P4, C1].

Owns ``extract_links`` and its value ``Link``. The links are the ``href`` of ``<a>`` and
``<area>`` and the ``src`` of ``<frame>`` and ``<iframe>`` (``html`` collects them). They resolve
against ``<base href>`` when the page has one (itself resolved against the final URL), else
against the final URL after redirects (T7). What ``canonicalize`` refuses is dropped: every scheme
but http and https (``javascript:``, ``mailto:``, ``data:``, ``tel:``, ``ftp:``: P4, C1), hosts
that are not valid, links longer than ``MAX_LINK_LENGTH`` (64 KiB). A long link below that is kept:
the trap guard of ``scope`` refuses it (C3, ``max_url_length``) and the crawl records it as a
trap, where a reader of the report can find it. Fragments go (C2). A URL is listed once, where it
first appears; it is followable when any of its occurrences is.

With link checking (``parse_html(details=True)``) each link also carries its text and line,
the page's resources (images, stylesheets, scripts, media: L3) come as links marked
``resource`` that are checked and never followed; a link's ``#fragments`` are kept unless
``with_fragments`` is false (a crawl that does not check them, L4).

Not followed: ``<link>`` elements, ``rel="alternate"`` included. Feeds, translations and print
versions are not pages a site maintainer expects a robot to crawl, and a polite robot fetches
less when in doubt; stylesheets, icons and the rest are not pages at all. Forms are never
followed (P4). ``rel="ugc"`` and ``rel="sponsored"`` are ranking hints, not T6's ``nofollow``.

Pure (L1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar
from urllib.parse import unquote

from politecrawl.html import ParsedPage
from politecrawl.urls import MAX_LINK_LENGTH, InvalidURL, LinkResolver, canonicalize

_SCHEME = re.compile(r"\s*([A-Za-z][A-Za-z0-9+.\-]*):")
# HTML: a <base> that does not parse, or whose scheme is data: or javascript:, is ignored.
_IGNORED_BASE_SCHEMES = frozenset({"data", "javascript"})


@dataclass(frozen=True, slots=True)
class Link:
    """A link found on a page: absolute canonical ``url``; ``nofollow`` from its rel (T6)."""

    url: str
    nofollow: bool
    tag: str  # "a", "area", "frame" or "iframe"; a resource's element name
    # Where and how the page wrote it: notes for reports, not part of what the link is.
    line: int | None = field(default=None, compare=False)
    text: str | None = field(default=None, compare=False)
    resource: bool = False
    """An image, stylesheet, script or media source (L3): checked, never followed as a page."""
    fragments: tuple[str, ...] = field(default=(), compare=False)
    """The ``#fragments`` the page links to on it, decoded, each once (L4)."""
    canonical: ClassVar[bool] = True
    """``url`` is canonical already (what the frontier asks of a link it is handed)."""


def extract_links(
    page: ParsedPage,
    final_url: str,
    *,
    honour_rel_nofollow: bool = True,
    with_fragments: bool = True,
) -> list[Link]:
    """The page's links in document order, de-duplicated [T6, T7, P4].

    ``final_url`` is the page's URL after redirects. With ``honour_rel_nofollow`` false (T6's
    setting), no link is marked ``nofollow``. ``with_fragments`` false: no link carries the
    ``#fragments`` it names (a crawl that does not check them, L4). Never raises on what the
    page wrote.
    """
    # None: the base has a scheme we never fetch, which relative links would inherit; only
    # absolute http(s) links remain.
    base = _base_url(page.base_href, final_url)
    resolve = (
        partial(canonicalize, max_length=MAX_LINK_LENGTH)
        if base is None
        else LinkResolver(base, max_length=MAX_LINK_LENGTH).canonicalize
    )
    found: dict[str, Link] = {}
    fragments: dict[str, dict[str, None]] = {}
    for raw in (*page.links, *page.resources):
        try:
            url = resolve(raw.href)
        except InvalidURL:
            continue  # P4, C1: javascript:, mailto:, data:, tel:, ftp:, broken hosts ...
        nofollow = honour_rel_nofollow and "nofollow" in raw.rel
        fragment = _fragment(raw.href) if with_fragments else None
        if fragment is not None and not raw.resource:
            fragments.setdefault(url, {})[fragment] = None
        earlier = found.get(url)
        if earlier is None:
            found[url] = Link(url, nofollow, raw.tag, raw.line, raw.text, raw.resource)
        elif earlier.nofollow and not nofollow:
            # one followable occurrence is enough
            found[url] = Link(url, False, earlier.tag, earlier.line, earlier.text, earlier.resource)
        elif earlier.resource and not raw.resource:
            found[url] = Link(url, earlier.nofollow, raw.tag, raw.line, raw.text)  # a page too
    for url, names in fragments.items():
        link = found[url]  # (dataclasses.replace costs five times as much)
        found[url] = Link(
            url, link.nofollow, link.tag, link.line, link.text, link.resource, tuple(names)
        )
    return list(found.values())


def _fragment(href: str) -> str | None:
    """The ``#fragment`` of a link as a page would look it up (decoded); None for none, for
    ``#`` and ``#top`` (the top of any page) and for a text fragment (``#:~:text=``)."""
    _, hash_sign, fragment = href.partition("#")
    if not hash_sign:
        return None
    fragment = unquote(fragment.partition(":~:")[0])
    if not fragment or fragment.lower() == "top":
        return None
    return fragment[:300]


def canonical_link(page: ParsedPage, final_url: str) -> str | None:
    """The page's ``<link rel="canonical">``, absolute and canonical (S4); None when it names
    none or names no URL we could fetch."""
    if page.canonical_href is None:
        return None
    base = _base_url(page.base_href, final_url)
    try:
        return canonicalize(page.canonical_href, base)
    except InvalidURL:
        return None


def _base_url(base_href: str | None, final_url: str) -> str | None:
    """The URL links resolve against (T7); ``None`` when it has a scheme we never fetch."""
    if base_href is None:
        return final_url
    try:
        return canonicalize(base_href, final_url)
    except InvalidURL:
        pass
    scheme = _SCHEME.match(base_href)
    if scheme is None or scheme.group(1).lower() in {"http", "https", *_IGNORED_BASE_SCHEMES}:
        return final_url  # a base that does not parse is ignored, as browsers ignore it
    return None
