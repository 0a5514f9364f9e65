"""HTML for the test site: writing pages, and reading them back for the oracle (T1-T7, C7).

The ground truth reads the very bytes the server sends (cut at the body limit, gzip inflated with
a cap), with the standard library's parser, so the truth and the site cannot drift apart.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

_TERMS = re.compile(r"[\s,]+")
_DIRECTIVES = frozenset({"all", "none", "index", "noindex", "follow", "nofollow"})
_AGENT_PREFIX = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*:\s*(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Link:
    """An ``<a href>``; ``rel`` as written (``"nofollow"``, ``"external nofollow"``)."""

    href: str
    rel: str = ""
    text: str = ""


def html_page(
    title: str,
    links: Iterable[Link | str] = (),
    *,
    metas: Iterable[tuple[str, str]] = (),
    base: str | None = None,
    forms: Iterable[str] = (),
    images: Iterable[str] = (),
    extra: str = "",
    canonical: str | None = None,
    head_extra: str = "",
) -> bytes:
    """A small, valid HTML page. Hrefs may hold ``@@key@@`` placeholders (see ``Site.bind``);
    ``canonical`` is a ``<link rel="canonical">`` (S4); ``head_extra`` and ``extra`` are raw
    HTML at the end of the head and of the body (stylesheets, scripts, anchors: L3, L4)."""
    head = [f"<title>{escape(title)}</title>"]
    if base is not None:
        head.append(f'<base href="{escape(base)}">')
    if canonical is not None:
        head.append(f'<link rel="canonical" href="{escape(canonical)}">')
    head += [f'<meta name="{escape(n)}" content="{escape(c)}">' for n, c in metas]
    head += [head_extra] if head_extra else []
    body = [f"<h1>{escape(title)}</h1>"]
    for item in links:
        link = Link(item) if isinstance(item, str) else item
        rel = f' rel="{escape(link.rel)}"' if link.rel else ""
        body.append(f'<p><a href="{escape(link.href)}"{rel}>{escape(link.text or link.href)}</a>')
    body += [f'<form action="{escape(a)}" method="post"><input name="q"></form>' for a in forms]
    body += [f'<img src="{escape(src)}" alt="">' for src in images]
    text = (
        "<!DOCTYPE html>\n<html><head>"
        + "".join(head)
        + "</head>\n<body>\n"
        + "\n".join(body)
        + extra
        + "\n</body></html>\n"
    )
    return text.encode("utf-8")


@dataclass(frozen=True)
class HtmlFacts:
    """What the oracle reads from a page: the first ``<base href>``, meta tags, links, and the
    first ``<link rel="canonical">`` (S4); for link checking, each link's text and line, the
    page's resources (L3) and anchors (L4)."""

    base_href: str | None
    metas: tuple[tuple[str, str], ...]  # (name lower-cased, content)
    anchors: tuple[tuple[str, str], ...]  # (href, rel) of <a> and <area>
    forms: tuple[str, ...]  # form actions: never requested (P4)
    images: tuple[str, ...]  # <img src>: embedded, not links (a judgment call: "may")
    canonical_href: str | None = None
    anchor_texts: tuple[str, ...] = ()  # the text of each of ``anchors``, collapsed (L1)
    anchor_lines: tuple[int, ...] = ()  # the source line of each of ``anchors``
    resources: tuple[Resource, ...] = ()  # every resource reference, in page order (L3)
    ids: frozenset[str] = frozenset()  # every id, and every <a name> (L4)


@dataclass(frozen=True)
class Resource:
    """A page resource (L3): ``src`` as written; ``text`` the alt (else title) of an image,
    "" for others; ``line`` its element's source line."""

    src: str
    text: str = ""
    line: int = 0


# L3: the elements and attributes naming a resource; srcset holds several candidates.
_RESOURCE_ATTRIBUTES = {
    "img": ("src", "srcset"),
    "script": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "source": ("src", "srcset"),
    "track": ("src",),
    "embed": ("src",),
    "object": ("data",),
}
_RESOURCE_RELS = frozenset(
    {"stylesheet", "icon", "apple-touch-icon", "preload", "modulepreload", "manifest"}
)
_TEXT_LIMIT = 200
_SPACE = re.compile(r"\s+")


def _srcset(value: str) -> list[str]:
    """The URLs of a srcset: comma-separated candidates, each a URL and a descriptor."""
    return [part.split()[0] for part in value.split(",") if part.strip()]


def link_text(text: str) -> str:
    """A link's text as politecrawl's ``links.text`` keeps it: whitespace collapsed, at most
    200 characters."""
    return _SPACE.sub(" ", text).strip()[:_TEXT_LIMIT]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.base_href: str | None = None
        self.metas: list[tuple[str, str]] = []
        self.anchors: list[tuple[str, str]] = []
        self.forms: list[str] = []
        self.images: list[str] = []
        self.canonical_href: str | None = None
        self.texts: list[list[str]] = []  # one per anchor; the open <a> collects data
        self.lines: list[int] = []
        self.collecting: list[str] | None = None
        self.resources: list[Resource] = []
        self.ids: set[str] = set()

    def handle_data(self, data: str) -> None:
        if self.collecting is not None:
            self.collecting.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self.collecting = None

    def _read_resources(self, tag: str, values: dict[str, str]) -> None:
        line = self.getpos()[0]
        text = (values.get("alt") or values.get("title") or "") if tag == "img" else ""
        for name in _RESOURCE_ATTRIBUTES.get(tag, ()):
            if name in values:
                found = _srcset(values[name]) if name == "srcset" else [values[name]]
                self.resources += [Resource(src.strip(), text, line) for src in found]
        rels = set(values.get("rel", "").lower().split())
        if tag == "link" and "href" in values and rels & _RESOURCE_RELS:
            self.resources.append(Resource(values["href"].strip(), "", line))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "a":
            self.collecting = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"])
        self._read_resources(tag, values)
        if tag == "a":
            self.collecting = None
        if tag in ("a", "area") and "href" in values:
            self.anchors.append((values["href"], values.get("rel", "")))
            self.lines.append(self.getpos()[0])
            self.texts.append([])
            if tag == "a":
                self.collecting = self.texts[-1]
            else:
                self.texts[-1].append(values.get("alt") or values.get("title") or "")
        elif tag == "base" and "href" in values and self.base_href is None:
            self.base_href = values["href"]
        elif tag == "meta" and "name" in values:
            self.metas.append((values["name"].lower(), values.get("content", "")))
        elif tag == "form":
            self.forms.append(values.get("action", ""))
        elif tag == "img" and "src" in values:
            self.images.append(values["src"])
        elif (
            tag == "link"
            and "href" in values
            and self.canonical_href is None
            and "canonical" in values.get("rel", "").lower().split()
        ):
            self.canonical_href = values["href"].strip()


def read_html(body: bytes) -> HtmlFacts:
    reader = _Reader()
    reader.feed(body.decode("utf-8", "replace"))
    reader.close()
    return HtmlFacts(
        reader.base_href,
        tuple(reader.metas),
        tuple(reader.anchors),
        tuple(reader.forms),
        tuple(reader.images),
        reader.canonical_href,
        tuple(link_text("".join(text)) for text in reader.texts),
        tuple(reader.lines),
        tuple(reader.resources),
        frozenset(reader.ids),
    )


def _restrictions(content: str) -> tuple[bool, bool]:
    """T1: ``(noindex, nofollow)`` of one directive list; index/follow/all restrict nothing."""
    terms = {term.lower() for term in _TERMS.split(content) if term}
    noindex = bool(terms & {"noindex", "none"})
    nofollow = bool(terms & {"nofollow", "none"})
    return noindex, nofollow


def directives(
    metas: Iterable[tuple[str, str]], x_robots_tags: Iterable[str], agent: str
) -> tuple[bool, bool]:
    """``(noindex, nofollow)`` for a page: meta ``robots`` and meta ``<agent>`` (T1, T3), and
    X-Robots-Tag headers, bare or prefixed by this agent's token (T4); every source combines to
    the most restrictive reading (T2). Tags for other robots do not apply (T3)."""
    noindex = nofollow = False
    applicable = [content for name, content in metas if name in ("robots", agent.lower())]
    for value in x_robots_tags:
        prefixed = _AGENT_PREFIX.match(value)
        if prefixed and prefixed.group(1).lower() not in _DIRECTIVES:
            if prefixed.group(1).lower() == agent.lower():
                applicable.append(prefixed.group(2))
        else:
            applicable.append(value)
    for content in applicable:
        one_noindex, one_nofollow = _restrictions(content)
        noindex, nofollow = noindex or one_noindex, nofollow or one_nofollow
    return noindex, nofollow


def decoded_body(body: bytes, content_encoding: str | None, max_bytes: int) -> bytes:
    """The body as a crawler reads it (C7): gzip inflated without ever holding more than
    ``max_bytes`` + 1 bytes (a bomb is cut, not inflated), then cut at ``max_bytes``."""
    if content_encoding and content_encoding.lower() == "gzip":
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        body = inflater.decompress(body, max_bytes + 1)
    return body[:max_bytes]
