"""Link checking (L1-L5): one seeded origin whose pages link out, and the outbound origins.

- ``linkcheck`` (seeded, in scope): three pages and an anchors page. They link to every outbound
  case below (some from two pages, each link with its text, so a report can name every
  referrer), to one outbound page with rel=nofollow, have resources (an image that exists, one
  that 404s, a stylesheet, an outbound script that 404s, a srcset of two candidates), an
  in-scope permanent redirect (308), and internal ``#fragment`` links: present as an id,
  present as an ``<a name>``, percent-encoded, absent, and the ones never recorded (``#``,
  ``#top``, a ``:~:`` text fragment). Its robots.txt names its sitemap (every page listed).
- The outbound origins are not seeded (out of scope, like ``outside``), each its own host:
  ``out-status`` answers 200, 404, 410 and 500 (always); ``out-redirect`` a 301 -> 301 chain
  ending on ``out-status`` (200); ``out-head`` refuses HEAD (405, and 501 on a second page)
  and answers GET 200; ``out-robots`` forbids the linked ``/private/`` page (``Disallow`` for
  ``*``); ``out-delay`` asks ``Crawl-delay: 0.3`` and is linked four times; ``out-slow`` answers
  one page after ``slow_seconds`` (3 s by default: a test sets a response time-out below it).
  Outbound pages link further (to their own origin and to another outbound origin): never
  requested, a check is never parsed (no second level).

Without link checking none of this leaves the ``linkcheck`` origin: its outbound links are out
of scope (C1), and its resources, like any ``<img>``, are ``may``.
"""

from __future__ import annotations

from .build_main import _GIF, _PNG
from .model import NOT_FOUND, Page, redirect, text_page
from .pages import Link, html_page

# key, last octet of its loopback address, what it is for (continues build.ORIGINS)
OUTBOUND_ORIGINS = (
    ("linkcheck", 25, "L1-L5: seeded; links to every outbound case, resources, fragments"),
    ("out-status", 26, "L1: not seeded; answers 200, 404, 410 and 500 (always)"),
    ("out-redirect", 27, "L1/C4: not seeded; 301 -> 301 -> 200 (the 200 on out-status)"),
    ("out-head", 28, "L2: not seeded; HEAD answers 405 (or 501), GET 200"),
    ("out-robots", 29, "L1/O3: not seeded; robots.txt forbids the linked /private/ page"),
    ("out-delay", 30, "L1/P2: not seeded; Crawl-delay: 0.3, linked four times"),
    ("out-slow", 31, "L1/C7: not seeded; /slow.html answers after slow_seconds (3 s)"),
)
OUTBOUND_KEYS = frozenset(key for key, _, _ in OUTBOUND_ORIGINS) - {"linkcheck"}
OUTBOUND_SLOW_SECONDS = 3.0  # out-slow's /slow.html: tests set a response time-out of 1 s
OUTBOUND_CRAWL_DELAY = 0.3  # out-delay's Crawl-delay
# L4: fragments of links to /anchors.html: as written -> present on the target?
FRAGMENTS = {
    "present": True,  # an element's id
    "named": True,  # an <a name>
    "caf%C3%A9": True,  # percent-decoded: the id is "café"
    "absent": False,
}
NEVER_RECORDED_FRAGMENTS = ("", "top", ":~:text=checked")  # L4: never recorded, never missing

_ALLOW_ALL = "User-agent: *\nDisallow:\n"
_CSS = "body { font-family: sans-serif; }\n"


def _page(title: str, links: list[Link | str], **options: object) -> Page:
    return Page(html_page(title, links, **options))  # type: ignore[arg-type]


def _linkcheck() -> dict[str, Page]:
    s, o = "@@linkcheck@@", "@@out-status@@"
    home = [
        Link("docs.html", text="Documentation"),
        Link("more.html", text="More"),
        Link("anchors.html", text="Anchors"),
        Link("moved.html", text="An in-scope page that moved (308)"),
        Link(f"{o}/ok.html", text="A working outbound page"),
        Link(f"{o}/missing.html", text="A missing outbound page"),
        Link(f"{o}/gone.html", text="A gone outbound page"),
        Link(f"{o}/broken.html", text="A broken outbound server"),
        Link("@@out-redirect@@/old.html", text="An outbound page that moved twice"),
        Link("@@out-head@@/page.html", text="A server that refuses HEAD"),
        Link("@@out-head@@/page-501.html", text="A server that does not implement HEAD"),
        Link("@@out-robots@@/private/page.html", text="An outbound page robots.txt forbids"),
        Link("@@out-robots@@/public.html", text="An outbound page robots.txt allows"),
        Link("@@out-delay@@/a.html", text="Paced page A"),
        Link("@@out-delay@@/b.html", text="Paced page B"),
        Link("@@out-slow@@/slow.html", text="A slow outbound page"),
        Link(f"{o}/nofollowed.html", rel="nofollow", text="A nofollow outbound link"),
        Link("mailto:webmaster@example.org", text="Mail"),  # P4: never a check
        Link("javascript:void(0)", text="Script"),
    ]
    docs_head = (
        f'<link rel="stylesheet" href="/css/site.css"><script src="{o}/js/missing.js"></script>'
    )
    docs_body = (
        '\n<p><img src="/img/logo.png" alt="The logo">'
        '\n<p><img src="/img/missing.png" alt="A missing picture">'
        '\n<p><img src="/img/small.png" srcset="/img/small.png 1x, /img/large.png 2x" alt="">'
    )
    docs = [
        Link("/", text="Home"),
        Link(f"{o}/missing.html", text="The missing page, again"),  # a second referrer
        Link(f"{o}/ok.html#usage", text="The working page, a section"),  # same URL as ok.html
        Link("@@out-delay@@/c.html", text="Paced page C"),
        *(Link(f"anchors.html#{f}", text=f"fragment {f}") for f in FRAGMENTS),
        *(Link(f"anchors.html#{f}", text=f"never recorded #{f}") for f in ("", "top")),
        Link("anchors.html#:~:text=checked", text="a text fragment"),
    ]
    more = [
        Link("/", text="Home"),
        Link(f"{o}/broken.html", text="The broken server, again"),
        Link("@@out-redirect@@/old.html", text="The old address, again"),
        Link("@@out-delay@@/d.html", text="Paced page D"),
        Link("#here", text="This page, a section it has"),
        Link("#nowhere", text="This page, a section it lacks"),
    ]
    anchors_body = (
        '\n<h2 id="present">Present</h2>\n<p><a name="named">Named</a>'
        '\n<p id="café">Café</p>\n<p id="checked">checked</p>'
    )
    sitemap = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "".join(
            f"<url><loc>{s}{path}</loc></url>\n"
            for path in ("/", "/docs.html", "/more.html", "/anchors.html", "/new-home.html")
        )
        + "</urlset>\n"
    )
    return {
        "/robots.txt": text_page(f"User-agent: *\nDisallow: /private/\nSitemap: {s}/sitemap.xml\n"),
        "/sitemap.xml": Page(sitemap.encode(), content_type="application/xml"),
        "/": _page("Link checking", home),
        "/docs.html": _page("Docs", docs, head_extra=docs_head, extra=docs_body),
        "/more.html": _page("More", more, extra='\n<h2 id="here">Here</h2>'),
        "/anchors.html": _page(
            "Anchors",
            [Link("/", text="Home"), Link("new-home.html", text="Where moved.html went")],
            extra=anchors_body,
        ),
        "/moved.html": redirect(308, "/new-home.html"),  # a permanent redirect: update the link
        "/new-home.html": _page("Moved here", [Link("/", text="Home")]),
        "/img/logo.png": Page(_PNG, content_type="image/png"),
        "/img/small.png": Page(_PNG, content_type="image/png"),
        "/img/large.png": Page(_GIF, content_type="image/gif"),
        "/css/site.css": Page(_CSS.encode(), content_type="text/css"),
        # /img/missing.png is not described: 404
    }


def _onward(key: str) -> list[Link]:
    """An outbound page's own links: never requested (a check is never parsed)."""
    return [
        Link(f"@@{key}@@/deeper.html", text="deeper"),
        Link("@@out-delay@@/from-outbound.html", text="another outbound origin"),
    ]


def outbound_pages(key: str, slow_seconds: float) -> dict[str, Page]:
    """The pages of the link-checking origins (see the module docstring)."""
    if key == "linkcheck":
        return _linkcheck()
    deeper = {"/deeper.html": _page("Linked only from an outbound page", [])}
    home = {"/": _page(f"{key} home", _onward(key))}
    pages: dict[str, dict[str, Page]] = {
        "out-status": {
            "/robots.txt": text_page(_ALLOW_ALL),
            "/ok.html": _page("OK", _onward("out-status")),
            "/missing.html": Page(NOT_FOUND.body, status=404),
            "/gone.html": Page(html_page("Gone", _onward("out-status")), status=410),
            "/broken.html": Page(html_page("Broken"), status=500),
            "/nofollowed.html": _page("Linked with rel=nofollow", _onward("out-status")),
            "/moved-here.html": _page("End of out-redirect's chain", _onward("out-status")),
            # /js/missing.js is not described: 404
        },
        "out-redirect": {
            "/robots.txt": text_page("not found\n", status=404),  # O4: no restrictions
            "/old.html": redirect(301, "/older.html"),
            "/older.html": redirect(301, "@@out-status@@/moved-here.html"),
        },
        "out-head": {
            "/robots.txt": text_page(_ALLOW_ALL),
            "/page.html": Page(
                html_page("GET only", _onward("out-head")),
                head=text_page("HEAD not allowed\n", status=405, headers=(("Allow", "GET"),)),
            ),
            "/page-501.html": Page(
                html_page("GET only", _onward("out-head")),
                head=text_page("HEAD not implemented\n", status=501),
            ),
        },
        "out-robots": {
            "/robots.txt": text_page("User-agent: *\nDisallow: /private/\n"),
            "/private/page.html": _page("Forbidden by robots.txt", _onward("out-robots")),
            "/public.html": _page("Allowed by robots.txt", _onward("out-robots")),
        },
        "out-delay": {
            "/robots.txt": text_page(
                f"User-agent: *\nCrawl-delay: {OUTBOUND_CRAWL_DELAY:g}\nDisallow:\n"
            ),
            **{f"/{n}.html": _page(f"Paced {n}", _onward("out-delay")) for n in "abcd"},
            "/from-outbound.html": _page("Linked only from outbound pages", []),
        },
        "out-slow": {
            "/robots.txt": text_page(_ALLOW_ALL),
            "/slow.html": Page(
                html_page("Slow", _onward("out-slow")),
                delay_seconds=slow_seconds,
                note="answers after slow_seconds: a client time-out below it fails",
            ),
        },
    }
    return home | deeper | pages[key]
