"""``build_site``: the origins of the test web, one per robots.txt outcome (O2-O8) plus the main
origin (``build_main``), a friendly second origin, one outside the crawl's scope (C1), the
sitemap origins (``build_sitemaps``, S1-S4), and the link-checking origins (``build_outbound``,
L1-L5: one seeded, six outbound and out of scope)."""

from __future__ import annotations

import dataclasses
import random
import zlib
from functools import cache
from pathlib import Path

from .build_main import main_pages
from .build_outbound import OUTBOUND_KEYS, OUTBOUND_ORIGINS, OUTBOUND_SLOW_SECONDS, outbound_pages
from .build_sitemaps import SITEMAP_ORIGINS, sitemap_pages
from .model import LAST_MODIFIED, OriginSpec, Page, Site, redirect, text_page
from .pages import Link, html_page

ROBOTS_MAX_BYTES = 512 * 1024  # O8's default: the oversized robots.txt exceeds it
_PRIVATE_RULES = "User-agent: *\nDisallow: /private/\n"
# The shapes a generic page's links take; every one resolves to /p/<k>.html (C2).
_LINK_SHAPES = (
    "{k}.html",
    "/p/{k}.html",
    "@@{key}@@/p/{k}.html",
    "../p/{k}.html",
    "./{k}.html",
    "{k}.html#part-{k}",
    "{k}.html?",
)
# key, last octet of its loopback address, what it is for
ORIGINS = (
    ("main", 2, "robots 200, two records; every page-level feature"),
    ("friend", 3, "robots 200 (Disallow: /private/); cross-origin link and redirect target"),
    ("robots-404", 4, "O4: robots.txt 404: no restrictions"),
    ("robots-410", 5, "O4: robots.txt 410: no restrictions"),
    ("robots-401", 6, "O5: robots.txt 401: whole origin disallowed"),
    ("robots-403", 7, "O5: robots.txt 403: whole origin disallowed"),
    ("robots-500-then-200", 8, "O6: robots.txt fails once (500), then answers 200"),
    ("robots-503", 9, "O6: robots.txt always 503 with Retry-After: origin deferred"),
    ("robots-redirect", 10, "O7: robots.txt 301 to another path on the origin"),
    ("robots-redirect-cross", 11, "O7: robots.txt 302 to another origin; applies here"),
    ("robots-huge", 12, "O8: robots.txt over 512 KiB: what no rule before the cut decides"),
    ("robots-slow", 13, "O6/O8: robots.txt answers slowly (within the time limit)"),
    ("robots-disallow-all", 14, "M1: Disallow: / for *"),
    ("robots-redirect-loop", 15, "O7: robots.txt redirect loop: counts as O6, deferred"),
    ("outside", 16, "C1: not seeded, so out of scope: never fetched, robots.txt included"),
    ("robots-real-docs", 17, "M7/F4: docs.python.org's robots.txt, rules after a blank line"),
    ("robots-real-gitlab", 18, "M7/M6: GitLab's robots.txt, three '*' groups, wildcards"),
    ("robots-longest", 19, "M7/M6: Sitemap first; a longer Disallow after an Allow; '$'"),
    ("robots-request-rate", 20, "F6/P2: Request-rate asks for more time than the delay"),
    *SITEMAP_ORIGINS,  # 21-24: sitemaps (S1-S4), see build_sitemaps
    *OUTBOUND_ORIGINS,  # 25-31: link checking (L1-L5), see build_outbound; 26-31 not seeded
)
_SITEMAP_KEYS = frozenset(key for key, _, _ in SITEMAP_ORIGINS)
_LINKCHECK_KEYS = frozenset(key for key, _, _ in OUTBOUND_ORIGINS)
UNSEEDED = frozenset({"outside"}) | OUTBOUND_KEYS  # out of the crawl's scope (C1)
# F6: one request every 0.3 s, slower than the tests' delays; the truth's delays include it.
_REQUEST_RATE_ROBOTS = "User-agent: *\nRequest-rate: 3/0.9s\nDisallow: /private/\n"
_REAL_ROBOTS = Path(__file__).parent.parent / "robots_files"
# M7: a Sitemap line before the first record; RFC 9309's longest match and '$' forbid what the
# draft's first match and literal prefixes allow.
_LONGEST_ROBOTS = (
    "Sitemap: @@robots-longest@@/sitemap.xml\n"
    "User-agent: *\n"
    "Allow: /example/page/\n"
    "Disallow: /example/page/disallowed.gif\n"
    "Disallow: /*.pdf$\n"
)


@cache
def _huge_robots() -> str:
    head = "# O8: this file is over 512 KiB; the rule for /late/ comes after the cut, so every\n"
    head += "# URL no rule before the cut decides is in doubt, and is not fetched.\n"
    head += "User-agent: *\nDisallow: /early/\n"
    filler = "# padding padding padding padding padding padding padding pad\n"
    count = (ROBOTS_MAX_BYTES + 64 * 1024) // len(filler)
    return head + filler * count + "Disallow: /late/\n"


def _robots(key: str, slow_seconds: float, retry_after_seconds: int) -> dict[str, Page]:
    """The robots.txt of each origin but main, and any page its redirects lead to."""
    retry_after = (("Retry-After", str(retry_after_seconds)),)
    return {
        "friend": {"/robots.txt": text_page(_PRIVATE_RULES)},
        "robots-404": {"/robots.txt": text_page("not found\n", status=404)},
        "robots-410": {"/robots.txt": text_page("gone\n", status=410)},
        "robots-401": {
            "/robots.txt": text_page(
                "who are you?\n", status=401, headers=(("WWW-Authenticate", 'Basic realm="t"'),)
            )
        },
        "robots-403": {"/robots.txt": text_page("forbidden\n", status=403)},
        "robots-500-then-200": {
            "/robots.txt": text_page(
                _PRIVATE_RULES, first=(text_page("temporary failure\n", status=500),)
            )
        },
        "robots-503": {
            "/robots.txt": text_page("busy\n", status=503, headers=retry_after),
        },
        "robots-redirect": {
            "/robots.txt": redirect(301, "/policies/robots.txt"),
            "/policies/robots.txt": text_page("User-agent: *\nDisallow: /blocked-by-redirect/\n"),
        },
        "robots-redirect-cross": {
            "/robots.txt": redirect(302, "@@friend@@/shared-robots.txt"),
        },
        "robots-huge": {"/robots.txt": text_page(_huge_robots())},
        "robots-slow": {"/robots.txt": text_page(_PRIVATE_RULES, delay_seconds=slow_seconds)},
        "robots-disallow-all": {"/robots.txt": text_page("User-agent: *\nDisallow: /\n")},
        "robots-redirect-loop": {
            "/robots.txt": redirect(302, "/robots-b.txt"),
            "/robots-b.txt": redirect(302, "/robots.txt"),
        },
        "outside": {"/robots.txt": text_page("User-agent: *\nDisallow:\n")},
        "robots-real-docs": {
            "/robots.txt": text_page((_REAL_ROBOTS / "docs-python-org.txt").read_text())
        },
        "robots-real-gitlab": {"/robots.txt": text_page((_REAL_ROBOTS / "gitlab.txt").read_text())},
        "robots-longest": {"/robots.txt": text_page(_LONGEST_ROBOTS)},
        "robots-request-rate": {"/robots.txt": text_page(_REQUEST_RATE_ROBOTS)},
    }[key]


# Pages an origin has beyond its generic little site, linked from its home page.
_EXTRA: dict[str, dict[str, str]] = {
    "friend": {"/from-redirect.html": "", "/about.html": "about.html"},
    "robots-redirect": {"/blocked-by-redirect/page.html": "blocked-by-redirect/page.html"},
    "robots-redirect-cross": {"/blocked-by-cross/page.html": "blocked-by-cross/page.html"},
    "robots-huge": {"/early/page.html": "early/page.html", "/late/page.html": "late/page.html"},
    "outside": {"/landing.html": ""},
    # M7: pages behind rules only RFC 9309 reads (never fetched) beside pages both allow.
    "robots-real-docs": {
        "/2.7/library/os.html": "2.7/library/os.html",  # orphaned by the blank line (F4)
        "/3.5/index.html": "3.5/index.html",
        "/dev/index.html": "dev/index.html",  # both readings forbid
        "/3.12/index.html": "3.12/index.html",  # both allow
    },
    "robots-real-gitlab": {
        "/gitlab-org/gitlab/raw/main/README.md": "gitlab-org/gitlab/raw/main/README.md",
        "/gitlab-org/gitlab/blame/main/Gemfile": "gitlab-org/gitlab/blame/main/Gemfile",
        "/gitlab-org/-/archive/v1.html": "gitlab-org/-/archive/v1.html",
        "/s/snippet.html": "s/snippet.html",  # the second '*' group
        "/groups/gitlab-org/edit": "groups/gitlab-org/edit",
        "/users/sign_in": "users/sign_in",  # RFC 9309 allows; the draft's first match does not
        "/api/v4.html": "api/v4.html",  # both forbid
        "/gitlab-org/gitlab/issues.html": "gitlab-org/gitlab/issues.html",  # both allow
    },
    "robots-longest": {
        "/example/page/index.html": "example/page/index.html",  # both allow
        "/example/page/disallowed.gif": "example/page/disallowed.gif",
        "/docs/manual.pdf": "docs/manual.pdf",  # '$': RFC 9309 only
        "/docs/manual.pdf.html": "docs/manual.pdf.html",  # '$' anchors: allowed
    },
}


def _small_site(rng: random.Random, key: str) -> dict[str, Page]:
    """A generic site of 4-8 pages in a chain plus random cross links of every shape, a
    /private/ page, and a link back to main; the seed decides sizes, links and shapes."""
    count = rng.randint(4, 8)

    def shaped(target: int) -> str:
        return rng.choice(_LINK_SHAPES).format(k=target, key=key)

    extra = _EXTRA.get(key, {})
    home_links = ["p/1.html", "private/secret.html", "@@main@@/"]
    home_links += [href for href in extra.values() if href]
    pages = {"/": Page(html_page(f"{key} home", home_links))}
    for index in range(1, count + 1):
        links = [shaped(index + 1)] if index < count else ["../"]
        links += [shaped(k) for k in rng.sample(range(1, count + 1), rng.randint(0, 2))]
        pages[f"/p/{index}.html"] = Page(html_page(f"{key} page {index}", links))
    pages["/private/secret.html"] = Page(html_page(f"{key} private"))
    for path in extra:
        pages[path] = Page(html_page(f"{key} {path}", [Link("/", text="home")]))
    return pages


def _with_dates(pages: dict[str, Page]) -> dict[str, Page]:
    """A fixed Last-Modified per page, distinct between pages (E3: If-Modified-Since)."""
    return {
        path: dataclasses.replace(
            page, last_modified=LAST_MODIFIED + (zlib.crc32(path.encode()) % 1000) * 3600
        )
        for path, page in pages.items()
    }


@cache
def build_site(
    seed: int = 0,
    *,
    crawl_delay_seconds: float = 0.2,
    slow_seconds: float = 1.0,
    retry_after_seconds: int = 1,
    outbound_slow_seconds: float = OUTBOUND_SLOW_SECONDS,
) -> Site:
    """The test web, deterministic for a seed (the seed shapes the generic sites). Unbound: no
    ports yet; ``serve`` binds it. ``crawl_delay_seconds`` is main's Crawl-delay for
    politecrawl, ``slow_seconds`` the delay of /slow.html and of the slow robots.txt,
    ``outbound_slow_seconds`` that of out-slow's /slow.html (L1: a check that times out)."""
    origins = []
    for key, octet, note in ORIGINS:
        rng = random.Random(f"{seed}:{key}")
        if key == "main":
            pages = main_pages(crawl_delay_seconds, slow_seconds)
            traps: tuple[str, ...] = ("calendar", "repeat", "query")
        elif key in _SITEMAP_KEYS:
            pages = sitemap_pages(key, _small_site(rng, key))
            traps = ()
        elif key in _LINKCHECK_KEYS:
            pages = outbound_pages(key, outbound_slow_seconds)
            traps = ()
        else:
            pages = _small_site(rng, key) | _robots(key, slow_seconds, retry_after_seconds)
            traps = ()
        if key == "friend":
            pages["/shared-robots.txt"] = text_page(
                "User-agent: *\nDisallow: /blocked-by-cross/\n", note="robots-redirect-cross's"
            )
        origins.append(
            OriginSpec(
                key,
                f"127.0.0.{octet}",
                _with_dates(pages),
                traps=traps,
                seeded=key not in UNSEEDED,
                note=note,
            )
        )
    options = {
        "slow_seconds": slow_seconds,
        "retry_after_seconds": retry_after_seconds,
        "outbound_slow_seconds": outbound_slow_seconds,
    }
    return Site(seed, tuple(origins), crawl_delay_seconds, options)
