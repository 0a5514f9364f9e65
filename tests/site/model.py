"""The test web as data: ``Page`` (one response), ``OriginSpec`` (one server), ``Site`` (all).

Everything a server answers is a field here (status, headers, body, delay, Last-Modified, the
answers to the first requests), so the server and the ground truth read the same description.
Bodies and header values may hold placeholders, ``@@key@@`` (an origin's base URL, e.g.
``http://127.0.0.2:41234``) and ``@@key:netloc@@`` (``127.0.0.2:41234``); ``Site.bind`` fills
them in once the servers have their ports.
"""

from __future__ import annotations

import dataclasses
import hashlib
import struct
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .canonical import canonical, host_of, origin_of, path_of, request_key
from .traps import trap_body

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .truth import Truth

HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
LAST_MODIFIED = 1_704_067_200  # 2024-01-01T00:00:00Z: fixed, so If-Modified-Since is exact
_TEMPLATE_LIMIT = 1 << 20  # bigger bodies (and gzip bodies) are never templates
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, mtime 0, no name


@dataclass(frozen=True)
class GzipTemplate:
    """A gzip *file* (a body served as is, without Content-Encoding: a ``.xml.gz`` sitemap)
    whose text ends with placeholders. ``head`` is the raw deflate data of the text before
    ``tail``, flushed to a byte boundary, so filling in the ports only compresses the tail: a
    head inflating to 50 MiB (a bomb) stays cheap to bind. Build it with ``gzip_template``."""

    head: bytes
    head_crc: int
    head_size: int
    tail: str

    def compress(self, tail: str | None = None) -> bytes:
        """The gzip file: one member, ``head`` then ``tail`` (default: the template's own)."""
        data = (self.tail if tail is None else tail).encode("utf-8")
        packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
        deflated = packer.compress(data) + packer.flush()
        crc = zlib.crc32(data, self.head_crc)
        size = (self.head_size + len(data)) & 0xFFFFFFFF
        return _GZIP_HEADER + self.head + deflated + struct.pack("<II", crc, size)


def gzip_template(head: Iterable[bytes], tail: str) -> GzipTemplate:
    """A ``GzipTemplate`` from the head's pieces (streamed: a huge head is never held whole)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    deflated, crc, size = [], 0, 0
    for piece in head:
        deflated.append(packer.compress(piece))
        crc, size = zlib.crc32(piece, crc), size + len(piece)
    deflated.append(packer.flush(zlib.Z_SYNC_FLUSH))  # byte-aligned, no final block yet
    return GzipTemplate(b"".join(deflated), crc, size, tail)


@dataclass(frozen=True)
class Page:
    """One resource. ``first`` holds the answers to the first requests for it (a robots.txt
    that fails once, then works); after those, this page answers."""

    body: bytes = b""
    status: int = 200
    content_type: str = HTML
    headers: tuple[tuple[str, str], ...] = ()
    delay_seconds: float = 0.0
    trickle_seconds: float = 0.0
    """The body is sent a byte at a time, spread over this long (a body that trickles, C7)."""
    last_modified: int = LAST_MODIFIED
    first: tuple[Page, ...] = ()
    note: str = ""
    gzip: GzipTemplate | None = None
    """A gzip file with placeholders: ``Site.bind`` makes ``body`` from it (see ``gzip_page``)."""
    head: Page | None = None
    """The answer to HEAD when it is not this page's own head: a server that refuses HEAD
    (405 or 501) but answers GET (L2). ``None``: HEAD gets this page's status and headers."""

    @cached_property
    def etag(self) -> str:
        """A strong validator from the body (E3)."""
        return '"' + hashlib.sha256(self.body).hexdigest()[:24] + '"'

    def header(self, name: str) -> str | None:
        values = self.header_values(name)
        return values[0] if values else None

    def header_values(self, name: str) -> tuple[str, ...]:
        return tuple(value for key, value in self.headers if key.lower() == name.lower())

    @property
    def location(self) -> str | None:
        return self.header("Location") if 300 <= self.status < 400 else None

    @property
    def is_html(self) -> bool:
        return self.content_type.split(";")[0].strip().lower() == "text/html"


NOT_FOUND = Page(b"<!DOCTYPE html>\n<html><body>not found</body></html>\n", status=404)


def redirect(status: int, location: str) -> Page:
    return Page(b"", status=status, headers=(("Location", location),), note="redirect")


def text_page(text: str, *, status: int = 200, **fields: Any) -> Page:
    return Page(text.encode("utf-8"), status=status, content_type=TEXT, **fields)


def gzip_page(template: GzipTemplate, **fields: Any) -> Page:
    """A gzip file served as ``application/gzip`` without Content-Encoding (S2: a ``.xml.gz``
    sitemap is compressed as a file, not as a transfer)."""
    fields.setdefault("content_type", "application/gzip")
    return Page(template.compress(), gzip=template, **fields)


@dataclass(frozen=True)
class OriginSpec:
    """One origin, served by its own server on its own loopback address (O1, P1)."""

    key: str
    address: str
    pages: Mapping[str, Page]  # canonical path (with ?query) -> page; never mutated
    port: int = 0
    traps: tuple[str, ...] = ()
    seeded: bool = True  # its home page is a seed (so its host is in scope, C1)
    note: str = ""

    @property
    def base(self) -> str:
        return f"http://{self.address}:{self.port}"

    def page(self, path: str) -> Page | None:
        """The page at a canonical path with query: a described one, a trap page, or None."""
        found = self.pages.get(path)
        if found is None and self.traps:
            body = trap_body(self.traps, path)
            found = None if body is None else Page(body, note="trap")
        return found


@dataclass(frozen=True)
class Site:
    """The whole test web. Build it with ``build_site``; ``bind`` gives it ports (``serve``)."""

    seed: int
    origins: tuple[OriginSpec, ...]
    crawl_delay_seconds: float
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_bound(self) -> bool:
        return all(origin.port for origin in self.origins)

    def origin(self, key: str) -> OriginSpec:
        for origin in self.origins:
            if origin.key == key:
                return origin
        raise KeyError(key)

    def origin_for(self, url: str) -> OriginSpec | None:
        """The origin serving ``url`` (matched by address and port), or None."""
        found = canonical(url)
        wanted = None if found is None else origin_of(found)
        return next((o for o in self.origins if o.base == wanted), None)

    def url(self, key: str, path: str = "/") -> str:
        return self.origin(key).base + path

    def host(self, key: str) -> str:
        return host_of(self.origin(key).base)

    @property
    def seeds(self) -> tuple[str, ...]:
        """The home page of every seeded origin: seed a crawl with all of these (C1 scope)."""
        return tuple(o.base + "/" for o in self.origins if o.seeded)

    def page_at(self, url: str) -> Page | None:
        """The page a canonical absolute URL names, or None (a 404)."""
        origin = self.origin_for(url)
        return None if origin is None else origin.page(path_of(url))

    def bind(self, ports: Mapping[str, int]) -> Site:
        """This site with ports, and every placeholder filled in. Pure: no sockets."""
        origins = tuple(dataclasses.replace(o, port=ports[o.key]) for o in self.origins)
        bound = dataclasses.replace(self, origins=origins)
        return dataclasses.replace(
            bound,
            origins=tuple(
                dataclasses.replace(
                    o, pages={path: bound.fill(page) for path, page in o.pages.items()}
                )
                for o in origins
            ),
        )

    def fill(self, page: Page) -> Page:
        """``page`` with its placeholders replaced by this (bound) site's addresses."""
        headers = tuple((name, self._fill_text(value)) for name, value in page.headers)
        body = page.body
        if page.gzip is not None:
            body = page.gzip.compress(self._fill_text(page.gzip.tail))
        elif len(body) <= _TEMPLATE_LIMIT and page.header("Content-Encoding") is None:
            body = self._fill_text(body.decode("utf-8", "surrogateescape")).encode(
                "utf-8", "surrogateescape"
            )
        first = tuple(self.fill(earlier) for earlier in page.first)
        head = None if page.head is None else self.fill(page.head)
        return dataclasses.replace(page, body=body, headers=headers, first=first, head=head)

    def _fill_text(self, text: str) -> str:
        if "@@" not in text:
            return text
        for origin in self.origins:
            text = text.replace(f"@@{origin.key}@@", origin.base)
            text = text.replace(f"@@{origin.key}:netloc@@", f"{origin.address}:{origin.port}")
        return text

    def with_page(self, key: str, path: str, page: Page | None) -> Site:
        """This site with one page replaced, added (``page``) or removed (``None``)."""
        path = request_key(path)
        origins = []
        for origin in self.origins:
            if origin.key == key:
                pages = dict(origin.pages)
                if page is None:
                    pages.pop(path, None)
                else:
                    pages[path] = self.fill(page) if self.is_bound else page
                origin = dataclasses.replace(origin, pages=pages)  # noqa: PLW2901 (rebuilt)
            origins.append(origin)
        return dataclasses.replace(self, origins=tuple(origins))

    def truth(self, agent: str = "politecrawl", **options: Any) -> Truth:
        """The ground truth of a polite crawl of this (bound) site; see ``truth.compute_truth``
        for the options (seeds, guard, limits)."""
        from .truth import compute_truth

        return compute_truth(self, agent, **options)
