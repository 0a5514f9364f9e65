"""The sitemap origins of the test web (S1-S4): what each sitemap lists and why, next to it.

- ``sitemaps``: robots.txt names two sitemaps: an index (of a gzip-file urlset and a plain-text
  sitemap) and a urlset with extensions; together they list one page of every audit finding.
- ``sitemap-guess``: robots.txt 404, so ``/sitemap.xml`` is guessed; it lists an orphan.
- ``sitemap-outside``: robots.txt names a sitemap on the ``outside`` origin (C1: never fetched).
- ``sitemap-bomb``: robots.txt names a gzip bomb; its only entry comes after 50 MiB inflated.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from .model import NOT_FOUND, GzipTemplate, Page, gzip_page, gzip_template, text_page
from .pages import Link, html_page

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

XML = "application/xml"
SITEMAP_MAX_BYTES = 50 << 20  # S2: a sitemap is read up to 50 MiB decompressed
BOMB_INFLATED_BYTES = SITEMAP_MAX_BYTES + (6 << 20)  # the bomb's filler, then its only entry
_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
_PRIVATE = "User-agent: *\nDisallow: /private/\n"

# key, last octet of its loopback address, what it is for (continues build.ORIGINS)
SITEMAP_ORIGINS = (
    ("sitemaps", 21, "S1-S4: two Sitemap lines, an index, .xml.gz and .txt; every audit finding"),
    ("sitemap-guess", 22, "S1: robots.txt 404, so /sitemap.xml is guessed; it lists an orphan"),
    ("sitemap-outside", 23, "S1/C1: robots.txt names a sitemap on the outside origin"),
    ("sitemap-bomb", 24, "S2: robots.txt names a gzip bomb; its only entry after 50 MiB"),
)


def _urlset(*entries: str) -> str:
    """A urlset of ``<url>`` elements, one a line; an entry is a loc or a whole element."""
    urls = [e if e.startswith("<") else f"<url><loc>{e}</loc></url>" for e in entries]
    return f"{_DECLARATION}<urlset {_NS}>\n" + "\n".join(urls) + "\n</urlset>\n"


def _simple(title: str, links: Iterable[Link | str] = (), **options: Any) -> Page:
    return Page(html_page(title, links, **options))


def _sitemaps_origin() -> dict[str, Page]:
    """One origin, every S1-S4 case; each page's comment says what the oracle expects of it."""
    s = "@@sitemaps@@"
    robots = f"{_PRIVATE}\nSitemap: {s}/sitemap_index.xml\nSitemap: {s}/sitemap-news.xml\n"
    index = (  # S2: an index (nesting 0) of two sitemaps (nesting 1): a gzip file, a text file
        f"{_DECLARATION}<sitemapindex {_NS}>\n"
        f"<sitemap><loc>{s}/sitemaps/pages.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>\n"
        f"<sitemap><loc>{s}/sitemaps/more.txt</loc></sitemap>\n"
        "</sitemapindex>\n"
    )
    pages = _urlset(
        f"<url><loc>{s}/</loc><lastmod>2024-01-01</lastmod></url>",
        f"<url><loc>{s}/a.html</loc><lastmod>2999-01-01T00:00:00+00:00</lastmod></url>",  # S4
        f"<url><loc>{s}/b.html</loc><lastmod>last Tuesday</lastmod></url>",  # S4: malformed
        f"{s}/noindex.html",  # S4: listed, noindex
        f"{s}/canonical-elsewhere.html",  # S4: listed, its rel=canonical names a.html
        f"{s}/old.html",  # S4: listed, redirected (301 to new.html)
        f"{s}/new.html",
        f"{s}/orphan.html",  # S2/S4: listed, linked from no page: fetched only thanks to this
    )
    more = (  # S2: a plain-text sitemap, one URL a line
        f"{s}/private/listed.html\n"  # S4: listed, disallowed by robots.txt: never fetched
        f"{s}/gone.html\n"  # S4: listed, broken (404)
        "@@sitemap-guess@@/listed-elsewhere.html\n"  # S2: another origin's URL: ignored
    )
    news = (  # S2: namespaces, extensions, whitespace around a loc, &amp; in it
        f"{_DECLARATION}<urlset\n    {_NS}\n"
        '    xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"\n'
        '    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        "  <url>\n"
        f"    <loc>\n      {s}/catalog?kind=news&amp;page=2\n    </loc>\n"
        "    <news:news>\n"
        "      <news:publication><news:name>Test</news:name>"
        "<news:language>en</news:language></news:publication>\n"
        "      <news:publication_date>2024-01-02</news:publication_date>\n"
        "      <news:title>News &amp; more</news:title>\n"
        "    </news:news>\n"
        # an image extension's loc is not a page the sitemap lists: never fetched
        f"    <image:image><image:loc>{s}/images/photo.html</image:loc></image:image>\n"
        "  </url>\n"
        "</urlset>\n"
    )
    home = [
        "a.html",
        "b.html",
        "noindex.html",
        "canonical-elsewhere.html",
        "old.html",
        "unlisted.html",  # S4: linked, indexable, listed by no sitemap: missing from sitemaps
        "catalog?kind=news&page=2",
        "@@main@@/",
    ]
    return {
        "/robots.txt": text_page(robots),
        "/sitemap_index.xml": Page(index.encode(), content_type=XML),
        "/sitemaps/pages.xml.gz": gzip_page(gzip_template((), pages), note="S2: a gzip file"),
        "/sitemaps/more.txt": text_page(more),
        "/sitemap-news.xml": Page(news.encode(), content_type=XML),
        "/": _simple("sitemaps home", home),
        "/a.html": _simple("A", ["/"], canonical=f"{s}/a.html"),  # canonical: itself
        "/b.html": _simple("B", ["new.html", "/"]),
        "/noindex.html": _simple("Noindex", ["/"], metas=[("robots", "noindex")]),
        "/canonical-elsewhere.html": _simple("Copy of A", ["/"], canonical=f"{s}/a.html"),
        "/old.html": Page(b"", status=301, headers=(("Location", "/new.html"),)),
        "/new.html": _simple("New", ["/"]),
        "/orphan.html": _simple("Orphan", ["orphan-child.html"]),
        "/orphan-child.html": _simple("Linked only from the orphan"),  # S2: crawled too
        "/unlisted.html": _simple("Unlisted", ["/"]),
        "/catalog?kind=news&page=2": _simple("Catalog, news, page 2", ["/"]),
        "/private/listed.html": _simple("Listed but disallowed"),
        "/gone.html": NOT_FOUND,
        "/images/photo.html": _simple("Only an image:loc names this"),
    }


@cache
def _bomb() -> GzipTemplate:
    """S2: ``<urlset>``, 56 MiB of blanks, then the only entry: inflated 50 MiB are read."""
    block = b" " * (1 << 20)

    def head() -> Iterator[bytes]:  # streamed: the 56 MiB are never held at once
        yield f"{_DECLARATION}<urlset {_NS}>\n".encode()
        for _ in range(BOMB_INFLATED_BYTES // len(block)):
            yield block

    return gzip_template(
        head(), "<url><loc>@@sitemap-bomb@@/after-the-cut.html</loc></url>\n</urlset>\n"
    )


def sitemap_pages(key: str, small_site: dict[str, Page]) -> dict[str, Page]:
    """The pages of a sitemap origin; all but ``sitemaps`` are a generic small site plus these."""
    if key == "sitemaps":
        return _sitemaps_origin()
    own = f"@@{key}@@"
    extra = {
        "sitemap-guess": {
            "/robots.txt": text_page("not found\n", status=404),
            "/sitemap.xml": Page(
                _urlset(f"{own}/", f"{own}/orphan.html").encode(), content_type=XML
            ),
            "/orphan.html": _simple("Listed by the guessed sitemap only"),
            "/listed-elsewhere.html": _simple("Listed only by another origin's sitemap"),
        },
        "sitemap-outside": {
            "/robots.txt": text_page(f"{_PRIVATE}Sitemap: @@outside@@/sitemap.xml\n"),
        },
        "sitemap-bomb": {
            "/robots.txt": text_page(f"{_PRIVATE}Sitemap: {own}/sitemaps/bomb.xml.gz\n"),
            "/sitemaps/bomb.xml.gz": gzip_page(_bomb(), note="S2: a gzip bomb"),
            "/after-the-cut.html": _simple("Listed only after 50 MiB inflated"),
        },
    }[key]
    return small_site | extra
