"""A seeded, static, multi-host test web for the crawler benchmark, and its ground truth (issue 7).

``generate(directory, hosts=H, pages=P, port=N, delay=D, seed=S)`` writes:

- ``hosts/<address>/...``: the files of H hosts, one per loopback address ``127.0.0.2`` ...,
  all on one port, plus an unseeded host (``127.0.1.1``) that pages link to (C1: never fetched);
- ``site.json``: what a server needs beyond files (robots.txt statuses, redirects, headers, traps);
- ``truth.json``: what a correct polite crawl from the seeds fetches, and what it never fetches,
  computed from the description (never from a crawler);
- ``seeds.txt``: the home page of every seeded host.

Every host has P content pages (``/s<k>/p<j>.html``, 50 to a section) plus a fixed set of special
pages: links of every form (relative, ``./``, ``../``, absolute-path, absolute, protocol-relative,
``%7E``, fragments, queries, mailto), robots rules (Allow before Disallow, the draft's first match
against RFC 9309's longest match, ``%7E`` rules, ``/search?``), META robots noindex / nofollow /
none pages, an X-Robots-Tag page, rel=nofollow links, redirects (301, 302, 307, 308, relative
Location, cross-host, into a disallowed path, out of scope, a loop), 404s, and an endless trap
(``/trap/x/x/x/...``). robots.txt kinds, in host order: a record naming both benchmarked robots
with a Crawl-delay, a ``*`` record, 403, 500, ``Disallow: /``, none (404), then named / ``*`` /
404 in turn.

With ``faults`` (what real sites have, issue 12): every third host has a page that always
answers 500 (``/error/e1.html``, linked from its home page), and the first ``named`` host asks
for a ``Request-rate`` slower than the crawl's delay. With ``trickle``: the sixth host (robots.txt
404) has a page whose body nginx sends one byte a second (``/slow/trickle.html``), which every
crawler must cut off, and a page that hangs (``/slow/hang.html``: nginx passes the request to a
socket that never answers), which every crawler must time out; and the robots.txt of the fourth
(500 without ``trickle``) hangs: nginx sends it one byte a second, so no crawler reads it within
a time-out, and its origin stays unreachable (O6) exactly as with the 500.

The robots records name both robots (``politecrawl`` and the Scrapy spider's ``scrapybench``) in
one record, or neither (``*``), so the truth is the same for both crawlers. Semantics are the
1996 draft's (SPEC O2-O8, A1-A4, M1-M5); the trap guard values are politecrawl's defaults (C3).

Self-contained on purpose (standard library only, nothing from ``tests/`` or ``politecrawl``):
the ground truth must not inherit the crawler's bugs.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import random
import re
import string
import sys
from collections import deque
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

AGENTS = ("politecrawl", "scrapybench", "wget")
OUTSIDE_ADDRESS = "127.0.1.1"  # linked to, served, never a seed: C1 says never fetched
PAGES_PER_SECTION = 50
KINDS_FIRST = ("named-delay", "star", "403", "500", "disallow-all", "404")
KINDS_CYCLE = ("named", "star", "404", "real-docs", "real-gitlab", "longest")
TRAP_ROOT = "/trap/x/"
TRAP_RE = r"/trap/(?:x/)+"
_WORDS = (
    *("polite", "crawler", "robots", "delay", "origin", "frontier", "lease", "host", "page"),
    *("link", "index", "follow", "archive", "section", "content", "static", "server", "request"),
    *("response", "header", "record", "agent", "token", "rule", "path", "query", "fragment"),
    *("canonical", "redirect", "target", "loop", "trap", "guard", "depth", "scope", "seed"),
)


# --- the description --------------------------------------------------------------------------


@dataclass
class Link:
    href: str
    rel: str = ""


@dataclass
class Page:
    title: str
    links: list[Link] = field(default_factory=list)
    meta: str | None = None  # <meta name="robots" content=...>
    x_robots: str | None = None  # X-Robots-Tag header (served by nginx's add_header)
    words: int = 0  # filler text


@dataclass
class Host:
    address: str
    kind: str  # robots.txt kind
    seeded: bool = True
    robots: str | None = None  # robots.txt text when the status is 200
    robots_status: int = 404
    pages: dict[str, Page] = field(default_factory=dict)  # canonical path (no query) -> page
    # path -> (status, Location as sent, absolute_redirect): nginx "return"
    redirects: dict[str, tuple[int, str, bool]] = field(default_factory=dict)
    trap: bool = True
    errors: dict[str, int] = field(default_factory=dict)  # path -> status, always (nginx return)
    trickle: set[str] = field(default_factory=set)  # paths sent at one byte a second
    hang: set[str] = field(default_factory=set)  # paths never answered (a silent server)
    # robots.txt sent at one byte a second (a robots.txt that hangs): never read in time, so
    # unreachable (O6), as robots_status (500) tells the truth; served as a file, not a 500
    robots_trickle: bool = False


@dataclass
class Web:
    seed: int
    port: int
    delay: float
    crawl_delay: float
    max_depth: int
    hosts: list[Host]

    def origin(self, address: str) -> str:
        return f"http://{address}:{self.port}"

    def host(self, address: str) -> Host | None:
        return next((h for h in self.hosts if h.address == address), None)

    @property
    def seeds(self) -> list[str]:
        return [self.origin(h.address) + "/" for h in self.hosts if h.seeded]


def crawl_delay_for(delay: float) -> float:
    """The Crawl-delay the first host asks for: above the crawl's own delay, so it matters."""
    return max(round(1.25 * delay, 3), 0.01)


# robots.txt shaped like real sites' files (M7), each with the paths its hosts link to: what the
# draft's letter alone would fetch although the owner forbids it, and what both readings allow.
REAL_SHAPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "real-docs": (  # docs.python.org: rule lines after a blank line and a comment (F4)
        "User-agent: *\nDisallow: /dev\nDisallow: /release\n\n# Disallow EOL versions\n"
        "Disallow: /2/\nDisallow: /2.7/\nDisallow: /3.5/\n",
        ("/2.7/index.html", "/3.5/library.html", "/dev/index.html", "/3.12/index.html"),
    ),
    "real-gitlab": (  # GitLab: three "*" groups, wildcards
        "User-Agent: *\nDisallow: /search\nDisallow: /groups/*/edit\nDisallow: /users\n"
        "Allow: /users/sign_in\n\n# Global snippets\nUser-Agent: *\nDisallow: /s/\n\n"
        "# Project details\nUser-Agent: *\nDisallow: /*/*/raw\nDisallow: /*/-/archive/\n"
        "Disallow: /*lat=\n",
        (
            "/grp/proj/raw/main.html",
            "/grp/-/archive/v1.html",
            "/s/snippet.html",
            "/groups/grp/edit",
            "/map.html?lat=1",
            "/users/sign_in",
            "/grp/proj/issues.html",
        ),
    ),
    "longest": (  # a longer Disallow after a shorter Allow; "$"
        "Sitemap: http://127.0.0.1/sitemap.xml\nUser-agent: *\nAllow: /example/page/\n"
        "Disallow: /example/page/disallowed.gif\nDisallow: /*.pdf$\n",
        (
            "/example/page/index.html",
            "/example/page/disallowed.gif",
            "/docs/manual.pdf",
            "/docs/manual.pdf.html",
        ),
    ),
}


def robots_text(kind: str, address: str, crawl_delay: float) -> tuple[int, str | None]:
    """(status, body) of a host's robots.txt. ``named-rate`` asks for one request per two
    Crawl-delays (Request-rate, F6)."""
    rules = (
        "Allow: /private/open.html\n"
        "Disallow: /private/\n"
        "Disallow: /docs/\n"
        "Allow: /docs/public.html\n"  # the draft's first match disallows; RFC 9309 allows (M1, M6)
        "Disallow: /%7Eu/private/\n"  # M2: %7E is ~
        "Disallow: /search?\n"  # M4: /search itself stays allowed
    )
    head = f"# politecrawl benchmark web, host {address}: robots.txt kind {kind}\n"
    named = "".join(f"User-agent: {agent}\n" for agent in AGENTS)
    if kind in ("named", "named-delay", "named-rate"):
        delay = f"Crawl-delay: {crawl_delay:g}\n" if kind == "named-delay" else ""
        if kind == "named-rate":
            delay = f"Request-rate: 1/{2 * crawl_delay:g}\n"
        body = (
            f"{head}User-agent: otherbot\nDisallow: /\n\n{named}{rules}{delay}\n"
            "User-agent: *\nDisallow: /s0/\nDisallow: /about.html\n"  # never ours (A2)
        )
        return 200, body
    if kind == "star":
        return 200, f"{head}User-agent: otherbot\nDisallow: /s1/\n\nUser-agent: *\n{rules}"
    if kind in REAL_SHAPES:
        return 200, head + REAL_SHAPES[kind][0]
    if kind == "disallow-all":
        return 200, f"{head}{named}Disallow: /\n\nUser-agent: *\nDisallow: /private/\n"
    if kind in ("403", "500"):
        return int(kind), None
    return 404, None


def _filler(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def build_web(  # noqa: PLR0915 (one description, read top to bottom)
    *,
    hosts: int,
    pages: int,
    port: int,
    delay: float,
    seed: int = 7,
    max_depth: int = 10,
    words: int = 250,
    faults: bool = False,
    trickle: bool = False,
) -> Web:
    """The whole web as data; nothing written."""
    if not 1 <= hosts <= 250:
        raise ValueError("hosts: 1 to 250 (127.0.0.2 .. 127.0.0.251)")
    rng = random.Random(seed)
    addresses = [f"127.0.0.{i + 2}" for i in range(hosts)]
    kinds = [
        KINDS_FIRST[i] if i < len(KINDS_FIRST) else KINDS_CYCLE[i % len(KINDS_CYCLE)]
        for i in range(hosts)
    ]
    if faults and "named" in kinds:
        kinds[kinds.index("named")] = "named-rate"
    crawl_delay = crawl_delay_for(delay)
    web = Web(seed, port, delay, crawl_delay, max_depth, [])
    outside = f"http://{OUTSIDE_ADDRESS}:{port}"
    sections = max(1, math.ceil(pages / PAGES_PER_SECTION))
    for index, (address, kind) in enumerate(zip(addresses, kinds, strict=True)):
        status, text = robots_text(kind, address, crawl_delay)
        host = Host(address, kind, robots=text, robots_status=status)
        me = f"http://{address}:{port}"
        neighbour = addresses[(index + 1) % hosts]
        there = f"http://{neighbour}:{port}"
        home = [Link(f"s{k}/") for k in range(sections)]
        home += [
            Link("about.html"),
            Link("about.html#team"),  # fragment: the same URL (C2)
            Link(f"{me}/about.html"),  # absolute, same host
            Link("%7Eu/"),  # %7E is ~ (C2)
            Link("list.html?page=1"),  # queries: URLs of their own
            Link("search"),  # allowed: "Disallow: /search?" needs the ? (M4)
            Link("search?q=robots"),  # disallowed by "/search?" (M4)
            Link("private/open.html"),  # Allow before Disallow (M1)
            Link("private/secret.html"),  # disallowed
            Link("docs/public.html"),  # draft: disallowed (first match); RFC 9309: allowed
            Link("docs/guide.html"),  # disallowed by both
            Link("meta/noindex.html"),
            Link("meta/nofollow.html"),
            Link("meta/none.html"),
            Link("meta/xrobots.html"),
            Link("hidden/nofollowed.html", rel="nofollow"),  # T6: never fetched
            Link("hidden/external.html", rel="external nofollow"),  # T6: rel is a token list
            *(Link(f"r/{name}") for name in ("perm", "moved", "temp", "cross", "private")),
            *(Link(f"r/{name}") for name in ("outside", "relative", "loop-a", "perm308")),
            Link(TRAP_ROOT.lstrip("/")),  # C3: an endless family of pages
            Link("missing.html"),  # 404
            Link(f"//{neighbour}:{port}/"),  # protocol-relative, cross-host
            Link(f"{outside}/"),  # C1: not a seed: never fetched
            Link("mailto:webmaster@example.org"),
            Link("javascript:void(0)"),  # P4
        ]
        for path in REAL_SHAPES.get(kind, ("", ()))[1]:
            home.append(Link(path.lstrip("/")))
            host.pages[path.partition("?")[0]] = Page(f"{kind} {path}", [Link("/")], words=words)
        if faults and index % 3 == 0:
            host.errors["/error/e1.html"] = 500
            home.append(Link("error/e1.html"))
        if trickle and kind == "500":
            host.robots_trickle = True
            host.robots = "User-agent: *\nDisallow:\n" + "# hangs: sent a byte a second\n" * 8
        if trickle and index == 5:
            host.trickle.add("/slow/trickle.html")
            home.append(Link("slow/trickle.html"))
            host.pages["/slow/trickle.html"] = Page("A page sent a byte a second", [], words=words)
            host.hang.add("/slow/hang.html")
            home.append(Link("slow/hang.html"))
        host.pages["/"] = Page(f"Host {address}", home, words=words // 2)
        host.pages["/about.html"] = Page(
            "About",
            [Link("s0/"), Link("./team/people.html"), Link("/%7eu/notes.html")],
            words=words,
        )
        host.pages["/team/people.html"] = Page(
            "People", [Link("../about.html"), Link("../%7Eu/notes.html#top")], words=words
        )
        host.pages["/~u/"] = Page(
            "User u", [Link("notes.html"), Link("private/diary.html"), Link("/~u/notes.html")]
        )
        host.pages["/~u/notes.html"] = Page("Notes", [Link("../%7Eu/")], words=words)
        host.pages["/~u/private/diary.html"] = Page("Diary", [])
        # the file list.html answers every ?page=N: its links are the same for all of them
        host.pages["/list.html"] = Page("List", [Link(f"list.html?page={n}") for n in (1, 2, 3)])
        host.pages["/search"] = Page("Search", [])
        host.pages["/private/open.html"] = Page("Open despite /private/", [])
        host.pages["/private/secret.html"] = Page("Secret", [])
        host.pages["/private/redirected.html"] = Page("Reached by a redirect into /private/", [])
        host.pages["/docs/public.html"] = Page("Docs", [Link("guide.html")])
        host.pages["/docs/guide.html"] = Page("Guide", [])
        for name, meta in (("noindex", "noindex"), ("nofollow", "nofollow"), ("none", "none")):
            host.pages[f"/meta/{name}.html"] = Page(
                f"meta {name}", [Link(f"after-{name}.html")], meta=meta, words=words
            )
            host.pages[f"/meta/after-{name}.html"] = Page(f"after {name}", [])
        host.pages["/meta/xrobots.html"] = Page(
            "X-Robots-Tag", [Link("after-xrobots.html")], x_robots="noindex, nofollow"
        )
        host.pages["/meta/after-xrobots.html"] = Page("after X-Robots-Tag", [])
        host.pages["/hidden/nofollowed.html"] = Page("Behind rel=nofollow", [Link("deeper.html")])
        host.pages["/hidden/external.html"] = Page("Behind rel=external nofollow", [])
        host.pages["/hidden/deeper.html"] = Page("Linked only from a page never fetched", [])
        host.pages["/moved/target.html"] = Page("Target of a 302", [Link("../s0/")])
        host.pages["/moved/temp.html"] = Page("Target of a 307", [])
        host.pages["/moved/relative.html"] = Page("Target of a relative Location", [])
        host.pages["/moved/from-neighbour.html"] = Page("Target of a cross-host 301", [])
        host.redirects = {
            "/r/perm": (301, "/s0/", True),  # to a page that is linked too
            "/r/perm308": (308, f"{me}/moved/target.html", True),
            "/r/moved": (302, "/moved/target.html", True),
            "/r/temp": (307, "/moved/temp.html", True),
            "/r/cross": (301, f"{there}/moved/from-neighbour.html", True),
            "/r/private": (301, "/private/redirected.html", True),  # C4: robots on every hop
            "/r/outside": (302, f"{outside}/landing.html", True),  # C4: out of scope
            "/r/relative": (302, "/moved/relative.html", False),  # Location: /moved/...
            "/r/loop-a": (302, "/r/loop-b", True),  # C2: each fetched once
            "/r/loop-b": (302, "/r/loop-a", True),
        }
        for k in range(sections):
            members = range(k * PAGES_PER_SECTION, min(pages, (k + 1) * PAGES_PER_SECTION))
            forms = (
                "p{j}.html",
                "./p{j}.html",
                f"/s{k}/p{{j}}.html",
                f"{me}/s{k}/p{{j}}.html",
                "p{j}.html#part-2",
            )
            links = [Link(forms[j % len(forms)].format(j=j)) for j in members]
            links += [Link("../")]
            if k + 1 < sections:
                links.append(Link(f"../s{k + 1}/"))
            host.pages[f"/s{k}/"] = Page(f"Section {k}", links)
        for j in range(pages):
            k = j // PAGES_PER_SECTION
            links = []
            if j + 1 < pages and (j + 1) // PAGES_PER_SECTION == k:
                links.append(Link(f"p{j + 1}.html"))
            other = rng.randrange(pages)
            links.append(Link(f"../s{other // PAGES_PER_SECTION}/p{other}.html"))
            other = rng.randrange(pages)
            links.append(Link(f"/s{other // PAGES_PER_SECTION}/p{other}.html#x"))
            far = addresses[rng.randrange(hosts)]
            other = rng.randrange(pages)
            form = f"//{far}:{port}" if j % 7 == 0 else f"http://{far}:{port}"
            links.append(Link(f"{form}/s{other // PAGES_PER_SECTION}/p{other}.html"))
            if j % 10 == 3:
                links.append(Link(f"p{j}.html?print=1"))  # a query: another URL
            if j % 13 == 5:
                links.append(Link(f"missing-{j}.html"))  # 404
            if j % 17 == 2:
                links.append(Link("/%7Eu/notes.html"))
            if j % 19 == 4:
                links.append(Link(f"{outside}/s0/p{j}.html"))  # C1
            if j % 23 == 6:
                links.append(Link("/hidden/nofollowed.html", rel="nofollow"))
            meta = "noindex" if j % 25 == 11 else "nofollow" if j % 31 == 12 else None
            host.pages[f"/s{k}/p{j}.html"] = Page(
                f"Page {j} of {address}", links, meta, None, words
            )
        web.hosts.append(host)
    outside_host = Host(OUTSIDE_ADDRESS, "404", seeded=False, trap=False)
    outside_host.pages["/"] = Page("Outside", [])
    outside_host.pages["/landing.html"] = Page("Outside landing", [])
    web.hosts.append(outside_host)
    return web


# --- HTML ---------------------------------------------------------------------------------------


def render(page: Page, rng: random.Random) -> bytes:
    head = f'<meta charset="utf-8"><title>{escape(page.title)}</title>'
    if page.meta:
        head += f'<meta name="robots" content="{escape(page.meta)}">'
    body = [f"<h1>{escape(page.title)}</h1>"]
    if page.words:
        body.append(f"<p>{_filler(rng, page.words)}</p>")
    body.append("<ul>")
    for link in page.links:
        rel = f' rel="{escape(link.rel)}"' if link.rel else ""
        body.append(f'<li><a href="{escape(link.href)}"{rel}>{escape(link.href)}</a></li>')
    body.append("</ul>")
    return (
        "<!DOCTYPE html>\n<html><head>"
        + head
        + "</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    ).encode()


def trap_html() -> bytes:
    return (
        b"<!DOCTYPE html>\n<html><head><title>Again</title></head>\n"
        b'<body><a href="x/">again</a>\n</body></html>\n'
    )


def file_for(path: str) -> str:
    return path + "index.html" if path.endswith("/") else path


# --- URLs (C2, C3) ------------------------------------------------------------------------------

_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_HEX = frozenset("0123456789abcdefABCDEF")


def _fix_escape(found: re.Match[str]) -> str:
    char = chr(int(found.group()[1:], 16))
    return char if char in _UNRESERVED else found.group().upper()


def _dot_segments(path: str) -> str:
    kept: list[str] = []
    segments = path.split("/")
    for segment in segments[1:]:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")
    return "/" + "/".join(kept)


def canonical(url: str, base: str | None = None) -> str | None:
    """Resolve and canonicalise (C2); None for anything but http(s)."""
    joined = urljoin(base, url.strip()) if base else url.strip()
    parts = urlsplit(joined)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    netloc = parts.hostname.lower()
    if port is not None and port != {"http": 80, "https": 443}[scheme]:
        netloc = f"{netloc}:{port}"
    path = _dot_segments(_ESCAPE.sub(_fix_escape, parts.path or "/"))
    query = _ESCAPE.sub(_fix_escape, parts.query)
    return f"{scheme}://{netloc}{path}{'?' + query if query else ''}"


def split_url(url: str) -> tuple[str, str, str]:
    """(origin, host, path with ?query) of a canonical URL."""
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return f"{parts.scheme}://{parts.netloc}", parts.hostname or "", path


def trap_rule(url: str) -> str | None:
    """politecrawl's default C3 guards (URL 2048, 32 segments, a segment at most 3 times,
    query 1024 bytes / 32 parameters)."""
    if len(url) > 2048:
        return "C3: URL longer than 2048"
    _, _, target = split_url(url)
    path, _, query = target.partition("?")
    segments = [s or "/" for s in path[1:].split("/")]
    if segments and segments[-1] == "/":
        segments.pop()
    if len(segments) > 32:
        return "C3: more than 32 path segments"
    if segments and max(segments.count(s) for s in segments) > 3:
        return "C3: a path segment repeated more than 3 times"
    if len(query) > 1024 or sum(1 for p in query.split("&") if p) > 32:
        return "C3: query too long"
    return None


# --- robots.txt, draft semantics (A2-A4, M1-M5, F2-F6) -----------------------------------------


def _octets(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        escape_ = text[i + 1 : i + 3]
        if text[i] == "%" and len(escape_) == 2 and set(escape_) <= _HEX:
            byte = int(escape_, 16)
            out += b"%2F" if byte == 0x2F else bytes([byte])
            i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


@dataclass
class Record:
    agents: list[str]
    rules: list[tuple[bool, str]]
    crawl_delay: float | None = None


def parse_robots(text: str, *, draft: bool = True) -> list[Record]:
    """Records in file order: the draft's (a blank line after rules ends one, F4), or with
    ``draft=False`` RFC 9309's groups (blank lines ignored)."""
    records: list[Record] = []
    current: Record | None = None
    for raw in re.split(r"\r\n|\r|\n", text):
        line = raw.split("#", 1)[0].strip()
        if not line:
            if draft and not raw.strip() and current is not None and current.rules:
                current = None
            continue
        name, colon, value = line.partition(":")
        if not colon:
            continue
        name, value = name.strip().lower(), value.strip()
        if name == "user-agent":
            if current is None or current.rules or current.crawl_delay is not None:
                current = Record([], [])
                records.append(current)
            current.agents.append(value)
        elif current is not None and name in ("allow", "disallow"):
            current.rules.append((name == "allow", value))
        elif current is not None and name == "crawl-delay":
            with contextlib.suppress(ValueError):  # F6: an invalid value is ignored
                current.crawl_delay = float(value)
        elif current is not None and name == "request-rate":
            requests, _, seconds = value.partition("/")
            with contextlib.suppress(ValueError, ZeroDivisionError):  # F6: n/seconds
                per_request = float(seconds) / int(requests)
                current.crawl_delay = max(current.crawl_delay or 0.0, per_request)
    return records


def record_for(records: list[Record], agent: str) -> Record | None:
    token = agent.lower()
    for record in records:
        if any(token in value.lower() for value in record.agents if value != "*"):
            return record
    return next((r for r in records if "*" in r.agents), None)


def robots_verdict(record: Record | None, path: str) -> str | None:
    """The deciding Disallow line, or None when allowed (M1-M4)."""
    if record is None or path == "/robots.txt":
        return None
    target = _octets(path)
    for is_allow, rule in record.rules:
        if rule and target.startswith(_octets(rule)):
            return None if is_allow else f"M1: robots.txt 'Disallow: {rule}'"
    return None


# --- robots.txt, RFC 9309 (M6), and strict, what a crawl obeys by default (M7) -------------------


def _rfc9309_matches(rule: str, path: str) -> bool:
    anchored = rule.endswith("$")
    parts = _octets(rule.rstrip("$")).decode("latin-1").split("*")
    pattern = ".*".join(re.escape(part) for part in parts) + (r"\Z" if anchored else "")
    return re.match(pattern, _octets(path).decode("latin-1"), re.DOTALL) is not None


def rfc9309_verdict(groups: list[Record], agent: str, path: str) -> str | None:
    """The deciding Disallow of RFC 9309 (groups naming the agent exactly, else every ``*``
    group, merged; the longest match wins, Allow on ties), or None when allowed."""
    if path == "/robots.txt":
        return None
    token = agent.lower()
    chosen = [g for g in groups if token in (a.lower() for a in g.agents)]
    chosen = chosen or [g for g in groups if "*" in g.agents]
    best: tuple[int, bool, str] | None = None
    for group in chosen:
        for is_allow, rule in group.rules:
            if (
                rule
                and _rfc9309_matches(rule, path)
                and (best is None or (len(rule), is_allow) > best[:2])
            ):
                best = (len(rule), is_allow, rule)
    if best is None or best[1]:
        return None
    return f"M7: robots.txt 'Disallow: {best[2]}' (RFC 9309 reading; the draft's allows it)"


@functools.cache
def _parsed(text: str) -> tuple[list[Record], list[Record]]:
    return parse_robots(text), parse_robots(text, draft=False)


def strict_verdict(text: str, agent: str, path: str) -> str | None:
    """M7: the forbidding line of either reading (the draft's first), or None when both allow."""
    records, groups = _parsed(text)
    return robots_verdict(record_for(records, agent), path) or rfc9309_verdict(groups, agent, path)


# --- the ground truth ---------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    page: Page | None = None
    location: str | None = None
    trap: bool = False


def answer(web: Web, url: str) -> Answer:
    """What the server answers for a canonical URL (query ignored, as a static server does)."""
    origin, address, target = split_url(url)
    host = web.host(address)
    if host is None or origin != web.origin(address):
        return Answer(0)
    path = target.partition("?")[0]
    if path == "/robots.txt":
        return Answer(host.robots_status)
    if path in host.redirects:
        status, location, _ = host.redirects[path]
        return Answer(status, location=urljoin(url, location))
    if path in host.errors:
        return Answer(host.errors[path])
    if path in host.trickle or path in host.hang:
        return Answer(0)  # cut off or timed out: no page, no links
    if path in host.pages:
        return Answer(200, host.pages[path])
    if host.trap and re.fullmatch(TRAP_RE, path):
        return Answer(200, Page("Again", [Link("x/")]), trap=True)
    return Answer(404)


def compute_truth(  # noqa: PLR0915 (one walk, its rules in order)
    web: Web, agent: str = AGENTS[0], *, max_redirects: int = 10
) -> dict:
    """A breadth-first walk from the seeds over the description (see the module docstring)."""
    seed_origins = {split_url(s)[0] for s in web.seeds}
    robots: dict[str, tuple[str, Record | None]] = {}  # origin -> (outcome, record)
    must: set[str] = set()
    repeatable: set[str] = set()
    noindex: set[str] = set()
    indexable: set[str] = set()
    never: dict[str, str] = {}

    def outcome(origin: str) -> tuple[str, Record | None]:
        if origin not in robots:
            url = origin + "/robots.txt"
            must.add(url)
            found = answer(web, url)
            host = web.host(split_url(url)[1])
            if found.status == 200 and host is not None and host.robots is not None:
                robots[origin] = ("rules", host.robots)
            elif found.status in (401, 403):
                robots[origin] = (f"O5: robots.txt answered {found.status}", None)
            elif found.status == 429 or found.status >= 500:
                robots[origin] = (f"O6: robots.txt answered {found.status}: deferred", None)
                repeatable.add(url)
            else:
                robots[origin] = ("allow-all", None)
        return robots[origin]

    def blocked(url: str, depth: int) -> str | None:
        origin, _, path = split_url(url)
        if origin not in seed_origins:
            return "C1: not a seed origin"
        if depth > web.max_depth:
            return f"C1: deeper than {web.max_depth} links from a seed"
        if (trap := trap_rule(url)) is not None:
            return trap
        kind, text = outcome(origin)
        if kind.startswith(("O5", "O6")):
            return kind
        return strict_verdict(text, agent, path) if text else None

    queue: deque[tuple[str, int, int]] = deque()
    seen: set[str] = set()

    def enqueue(url: str, hops: int, depth: int) -> None:
        if url not in seen:
            seen.add(url)
            queue.append((url, hops, depth))

    for seed in web.seeds:
        enqueue(canonical(seed) or seed, 0, 0)
    while queue:
        url, hops, depth = queue.popleft()
        if (why := blocked(url, depth)) is not None:
            never.setdefault(url, why)
            continue
        must.add(url)
        found = answer(web, url)
        if found.status == 0 or found.status >= 500:
            repeatable.add(url)  # a failing page is retried (C7, P3)
        if found.location is not None:
            target = canonical(found.location)
            if target is not None and hops < max_redirects:
                enqueue(target, hops + 1, depth)
            continue
        if found.page is None:
            continue
        page = found.page
        terms = set()
        for value in (page.meta, page.x_robots):
            terms |= set(re.split(r"[\s,]+", (value or "").lower()))
        is_noindex = bool(terms & {"noindex", "none"})
        nofollow = bool(terms & {"nofollow", "none"})
        (noindex if is_noindex else indexable).add(url)
        for link in page.links:
            target = canonical(link.href, url)
            if target is None:
                continue
            if nofollow:
                never.setdefault(target, "T5: linked only from nofollow pages")
            elif "nofollow" in link.rel.lower().split():
                never.setdefault(target, "T6: rel=nofollow link")
            else:
                enqueue(target, 0, depth + 1)
    # every described URL not fetched is never fetched, with a reason
    for host in web.hosts:
        origin = web.origin(host.address)
        for path in list(host.pages) + list(host.redirects):
            url = origin + path
            if url not in must and url not in never:
                never[url] = blocked(url, 0) or "unreached: linked only from pages never followed"
        if host.robots_status and host.address not in {split_url(o)[1] for o in robots}:
            never.setdefault(origin + "/robots.txt", "C1: robots.txt of a host out of scope")
    for url in must:
        never.pop(url, None)
    crawl_delays = {}
    for origin, (_kind, text) in robots.items():
        record = record_for(parse_robots(text), agent) if text else None
        crawl_delays[split_url(origin)[1]] = record.crawl_delay if record else None
    per_host: dict[str, int] = {}
    for url in must:
        host_name = split_url(url)[1]
        per_host[host_name] = per_host.get(host_name, 0) + 1
    return {
        "agent": agent,
        "seeds": web.seeds,
        "port": web.port,
        "delay": web.delay,
        "max_depth": web.max_depth,
        "must": sorted(must),
        "never": dict(sorted(never.items())),
        # URLs described by a pattern: an endless family (C3) and the unseeded host (C1)
        "never_patterns": [
            [rf"^http://127\.0\.0\.\d+:{web.port}/trap/(?:x/){{4,}}$", "C3: trap"],
            [rf"^http://{re.escape(OUTSIDE_ADDRESS)}:{web.port}/", "C1: not a seed origin"],
        ],
        # URLs a crawler may fetch beyond the walk's, when robots.txt allows them: politecrawl
        # guesses each in-scope origin's /sitemap.xml (S1), which this web does not serve
        "may_patterns": [
            [rf"^http://127\.0\.0\.\d+:{web.port}/sitemap\.xml$", "S1: a sitemap guess"],
        ],
        "repeatable": sorted(repeatable),
        "noindex": sorted(noindex),
        "indexable": sorted(indexable),
        "crawl_delays": crawl_delays,
        "robots": {origin: kind for origin, (kind, _) in sorted(robots.items())},
        # origin -> its robots.txt, so that an auditor can judge URLs the walk never met (a
        # crawler that ignored a rule), strictly (M7)
        "robots_text": {origin: text for origin, (_, text) in sorted(robots.items())},
        "must_per_host": dict(sorted(per_host.items())),
    }


# --- writing ------------------------------------------------------------------------------------


def write_web(web: Web, directory: Path) -> None:
    rng = random.Random(web.seed + 1)
    root = directory / "hosts"
    for host in web.hosts:
        base = root / host.address
        made: set[Path] = set()
        for path, page in host.pages.items():
            target = base / file_for(path).lstrip("/")
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            target.write_bytes(render(page, rng))
        base.mkdir(parents=True, exist_ok=True)
        if host.robots is not None:
            (base / "robots.txt").write_text(host.robots, encoding="utf-8")
        if host.trap:
            (base / "_trap.html").write_bytes(trap_html())
    description = {
        "port": web.port,
        "seed": web.seed,
        "delay": web.delay,
        "crawl_delay": web.crawl_delay,
        "hosts": [
            {
                "address": h.address,
                "kind": h.kind,
                "seeded": h.seeded,
                "root": str(root / h.address),
                "robots_status": h.robots_status,
                "redirects": {p: list(r) for p, r in h.redirects.items()},
                "headers": {
                    file_for(p): {"X-Robots-Tag": page.x_robots}
                    for p, page in h.pages.items()
                    if page.x_robots
                },
                "trap": TRAP_RE if h.trap else None,
                "errors": h.errors,
                "trickle": sorted(h.trickle),
                "hang": sorted(h.hang),
                "robots_trickle": h.robots_trickle,
            }
            for h in web.hosts
        ],
    }
    (directory / "site.json").write_text(json.dumps(description, indent=1), encoding="utf-8")
    (directory / "seeds.txt").write_text("\n".join(web.seeds) + "\n", encoding="utf-8")


def generate(
    directory: Path,
    *,
    hosts: int,
    pages: int,
    port: int,
    delay: float,
    seed: int = 7,
    max_depth: int = 10,
    faults: bool = False,
    trickle: bool = False,
) -> dict:
    """Write the web, site.json, seeds.txt and truth.json into ``directory``; return the truth."""
    directory.mkdir(parents=True, exist_ok=True)
    web = build_web(
        hosts=hosts,
        pages=pages,
        port=port,
        delay=delay,
        seed=seed,
        max_depth=max_depth,
        faults=faults,
        trickle=trickle,
    )
    write_web(web, directory)
    truth = compute_truth(web)
    (directory / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--hosts", type=int, default=5)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-depth", type=int, default=10)
    args = parser.parse_args(argv)
    truth = generate(
        args.directory,
        hosts=args.hosts,
        pages=args.pages,
        port=args.port,
        delay=args.delay,
        seed=args.seed,
        max_depth=args.max_depth,
    )
    print(
        f"{args.directory}: {len(truth['must'])} URLs to fetch, {len(truth['never'])} never "
        f"(+ patterns), {len(truth['noindex'])} noindex"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
