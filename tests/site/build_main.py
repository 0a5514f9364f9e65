"""The main origin: robots rules, page directives, links of every shape, redirects, errors,
slow, huge, gzip and trap pages. What each page is for is said next to it (SPEC ids)."""

from __future__ import annotations

import base64
import gzip
from functools import cache
from typing import Any

from .model import LAST_MODIFIED, Page, redirect, text_page
from .pages import Link, html_page
from .traps import CALENDAR_START, QUERY_START, REPEAT_START

CHAIN_REDIRECTS = 12  # /redir/chain/0 -> ... -> /redir/chain/12: more than C4's 10 hops
HUGE_BODY_BYTES = 11 << 20  # C7: more than 10 MiB; the only link comes after the cut
BOMB_INFLATED_BYTES = 20 << 20  # C7: a gzip bomb, its only link after 10 MiB inflated
_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
_GIF = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")

# name -> (meta tags, X-Robots-Tag header values); each page links to t/after-<name>.html.
META_CASES: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "noindex": ((("robots", "noindex"),), ()),  # T1: links still followed
    "nofollow": ((("robots", "nofollow"),), ()),  # T1, T5: target never fetched
    "none": ((("robots", "none"),), ()),  # T1: none = noindex + nofollow
    "all": ((("robots", "all"),), ()),  # T1: all = index + follow
    "noindex-follow": ((("robots", "noindex,follow"),), ()),
    "upper-spaces": ((("ROBOTS", "NOINDEX NOFOLLOW"),), ()),  # T1: case, space separated
    "conflict": ((("robots", "index, follow"), ("robots", "nofollow")), ()),  # T2
    "conflict-terms": ((("robots", "index, noindex"),), ()),  # T2: most restrictive
    "agent": ((("politecrawl", "nofollow"),), ()),  # T3: our own token applies
    "agent-case": ((("PoliteCrawl", "noindex"),), ()),  # T3: name is case-insensitive
    "googlebot": ((("googlebot", "noindex, nofollow"),), ()),  # T3: must NOT apply
    "xrobots": ((), ("noindex, nofollow",)),  # T4: header, no agent prefix
    "xrobots-agent": ((), ("politecrawl: nofollow",)),  # T4: prefixed with our token
    "xrobots-other": ((), ("googlebot: noindex, nofollow",)),  # T4: another robot's: ignored
    "xrobots-two": ((), ("noarchive", "politecrawl: noindex")),  # T4: two headers combine
}


def main_robots(crawl_delay_seconds: float) -> str:
    """Different records for politecrawl and ``*``; draft first-match order matters (M1)."""
    return f"""# The politecrawl test site, main origin. Draft semantics: the first match decides.
User-agent: otherbot
Disallow: /

User-agent: politecrawl
Allow: /private/open.html
Disallow: /private/
Disallow: /docs/
Allow: /docs/public.html
Disallow: /%7Ejoe/private/
Disallow: /a%2Fb/
Disallow: /search?
Crawl-delay: {crawl_delay_seconds:g}

User-agent: *
Disallow: /products/
Disallow: /meta/
Crawl-delay: 2

Sitemap: @@main@@/sitemap.xml
"""


def _home() -> Page:
    links = [
        Link("about.html"),  # relative
        Link("about.html#team"),  # fragment: the same URL (C2)
        Link("@@main@@/products/"),  # absolute
        Link("%7Ejoe/"),  # %7E is ~ (C2)
        Link("list.html?page=2"),  # query: a URL of its own
        Link("search"),  # allowed: "Disallow: /search?" needs the ? (M4)
        Link("search?q=robots"),  # M4: disallowed
        Link("private/open.html"),  # M1: Allow line before the Disallow
        Link("private/secret.html"),  # M1: disallowed
        Link("docs/public.html"),  # M1: draft first match disallows (RFC 9309 would allow)
        Link("a%2Fb/c.html"),  # M2: %2F stays encoded: disallowed by /a%2Fb/
        Link("a/b/c.html"),  # M2: ... and /a/b/ is another path: allowed
        Link("meta/"),
        Link("redir/"),
        Link("base/index.html"),
        Link(CALENDAR_START),
        Link(REPEAT_START),
        Link(QUERY_START),
        Link("files/notes.txt"),
        Link("files/logo.png"),
        Link("big/huge.html"),
        Link("big/bomb.html"),
        Link("gz/page.html"),
        Link("slow.html"),
        Link("errors/missing.html"),
        Link("errors/gone.html"),
        Link("errors/broken.html"),
        Link("hidden/nofollowed.html", rel="nofollow"),  # T6: never fetched
        Link("hidden/external.html", rel="external nofollow"),  # T6: rel is a token list
        Link("both.html", rel="nofollow"),  # T6 here, but followed from about.html
        Link("//@@friend:netloc@@/"),  # protocol-relative, cross-origin
        Link("@@outside@@/"),  # C1: not a seed's host: never fetched
        Link("javascript:void(0)"),  # P4
        Link("mailto:webmaster@example.org"),
    ]
    return Page(
        html_page("Main", links, forms=["/form/submit"], images=["files/pixel.gif"]),
        note="home: every kind of link",
    )


def _simple(title: str, links: list[Link | str] | None = None, **fields: Any) -> Page:
    return Page(html_page(title, links or []), **fields)


def _meta_pages() -> dict[str, Page]:
    pages = {"/meta/": _simple("Directives", [f"{name}.html" for name in META_CASES])}
    for name, (metas, x_robots) in META_CASES.items():
        body = html_page(f"meta {name}", [Link(f"t/after-{name}.html")], metas=metas)
        headers = tuple(("X-Robots-Tag", value) for value in x_robots)
        pages[f"/meta/{name}.html"] = Page(body, headers=headers, note=f"directives: {name}")
        pages[f"/meta/t/after-{name}.html"] = _simple(f"after {name}")
    return pages


def _redirect_pages() -> dict[str, Page]:
    codes = {
        301: "@@main@@/redir/landing-301/index.html",  # absolute Location
        302: "/redir/landing-302/index.html",  # absolute-path Location
        303: "landing-303/index.html",  # relative Location
        307: "landing-307/index.html",
        308: "@@main@@/redir/landing-308/index.html",
    }
    more = ["to-friend", "to-outside", "to-private", "loop-a", "chain/0"]
    pages = {"/redir/": _simple("Redirects", [str(code) for code in codes] + more)}
    for code, location in codes.items():
        pages[f"/redir/{code}"] = redirect(code, location)
        # T7: relative links resolve against the final URL, not /redir/<code>
        pages[f"/redir/landing-{code}/index.html"] = _simple(f"landing {code}", ["next.html"])
        pages[f"/redir/landing-{code}/next.html"] = _simple(f"after landing {code}")
    pages["/redir/to-friend"] = redirect(302, "@@friend@@/from-redirect.html")  # C4: in scope
    pages["/redir/to-outside"] = redirect(302, "@@outside@@/landing.html")  # C4: out of scope
    pages["/redir/to-private"] = redirect(301, "/private/redirected.html")  # C4: robots
    pages["/redir/loop-a"] = redirect(302, "/redir/loop-b")  # C2: each fetched once
    pages["/redir/loop-b"] = redirect(302, "/redir/loop-a")
    for hop in range(CHAIN_REDIRECTS):
        pages[f"/redir/chain/{hop}"] = redirect(307, str(hop + 1))
    pages[f"/redir/chain/{CHAIN_REDIRECTS}"] = _simple("end of a long chain")
    return pages


@cache
def _huge_body() -> bytes:
    head = b"<!DOCTYPE html>\n<html><head><title>Huge</title></head><body>\n<!--"
    tail = b'-->\n<p><a href="huge-tail.html">tail</a>\n</body></html>\n'
    return head + b"x" * HUGE_BODY_BYTES + tail


@cache
def _bomb_body() -> bytes:
    head = b"<!DOCTYPE html>\n<html><head><title>Bomb</title></head><body>\n"
    tail = b'<p><a href="bomb-tail.html">tail</a>\n</body></html>\n'
    return gzip.compress(head + b" " * BOMB_INFLATED_BYTES + tail, mtime=0)


def _content_pages(slow_seconds: float) -> dict[str, Page]:
    gzip_headers = (("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding"))
    return {
        "/about.html": _simple("About", ["both.html", "../products/", "./team/people.html"]),
        "/team/people.html": _simple("People", ["../about.html", "../%7Ejoe/notes.html"]),
        "/both.html": _simple("Linked nofollow and followed"),
        "/products/": _simple(
            "Products", ["item-1.html", "item-2.html#reviews", "/products/item-1.html?", "../"]
        ),
        "/products/item-1.html": _simple("Item 1", ["item-2.html"]),
        "/products/item-2.html": _simple("Item 2", ["../~joe/"]),
        "/~joe/": _simple("Joe", ["notes.html", "private/diary.html", "/%7ejoe/notes.html"]),
        "/~joe/notes.html": _simple("Joe's notes"),
        "/~joe/private/diary.html": _simple("Joe's diary"),
        "/list.html?page=2": _simple("List, page 2", ["list.html?page=3"]),
        "/list.html?page=3": _simple("List, page 3", ["list.html?page=2"]),
        "/search": _simple("Search"),
        "/search?q=robots": _simple("Search results"),
        "/private/open.html": _simple("Open despite /private/"),
        "/private/secret.html": _simple("Secret"),
        "/private/redirected.html": _simple("Reached only by a redirect into /private/"),
        "/docs/public.html": _simple("Docs"),
        "/a%2Fb/c.html": _simple("a%2Fb"),
        "/a/b/c.html": _simple("a/b"),
        "/base/index.html": Page(
            html_page("Base", ["page.html", "../up.html"], base="@@main@@/base/target/")
        ),
        "/base/target/page.html": _simple("Resolved against <base href>"),  # T7
        "/base/up.html": _simple("Resolved against <base href>, one up"),
        "/files/notes.txt": text_page(
            "Plain text, noindex by header.\n", headers=(("X-Robots-Tag", "noindex"),)
        ),
        "/files/logo.png": Page(_PNG, content_type="image/png"),
        "/files/pixel.gif": Page(_GIF, content_type="image/gif"),
        "/big/huge.html": Page(_huge_body(), note="C7: cut off at 10 MiB"),
        "/big/huge-tail.html": _simple("Linked only after 11 MiB"),
        "/big/bomb.html": Page(_bomb_body(), headers=gzip_headers, note="C7: gzip bomb"),
        "/big/bomb-tail.html": _simple("Linked only after 20 MiB inflated"),
        "/gz/page.html": Page(
            gzip.compress(html_page("Gzip", ["from-gzip.html"]), mtime=0), headers=gzip_headers
        ),
        "/gz/from-gzip.html": _simple("Linked from a gzip page"),
        "/slow.html": _simple("Slow", delay_seconds=slow_seconds, note="P3: slow answer"),
        "/errors/missing.html": Page(html_page("Missing"), status=404),
        "/errors/gone.html": Page(html_page("Gone"), status=410),
        "/errors/broken.html": Page(html_page("Broken"), status=500),
        "/hidden/nofollowed.html": _simple("Only behind rel=nofollow", ["deeper.html"]),
        "/hidden/external.html": _simple("Only behind rel=external nofollow"),
        "/hidden/deeper.html": _simple("Only linked from a page never fetched"),
        "/form/submit": _simple("A form's action", note="P4: never requested"),
        "/sitemap.xml": Page(
            b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            b"<url><loc>@@main@@/</loc></url><url><loc>@@main@@/about.html</loc></url>"
            b"</urlset>\n",
            content_type="application/xml",
        ),
    }


def main_pages(crawl_delay_seconds: float, slow_seconds: float) -> dict[str, Page]:
    pages = {
        "/robots.txt": text_page(main_robots(crawl_delay_seconds), last_modified=LAST_MODIFIED),
        "/": _home(),
    }
    pages |= _content_pages(slow_seconds)
    pages |= _meta_pages()
    pages |= _redirect_pages()
    return pages
