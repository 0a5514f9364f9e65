"""The ground truth of a polite crawl of the test web, computed from its description.

A breadth-first walk from the seeds over the pages the servers would answer, applying the rules
below; nothing is hand-listed. Each rule names its SPEC id:

- C1  scope is the seeds' hosts; other hosts are never fetched, their robots.txt included.
- C3  a URL failing the ``TrapGuard`` is never fetched (its values are a judgment call).
- O2  an origin's robots.txt (and its redirect hops, O7) is fetched once it has a URL to fetch.
- O3/M1-M4  2xx: the record for the agent (A2, A3), first matching Allow/Disallow, draft.
- O4  other 4xx: no restrictions.  O5: 401/403 disallow the whole origin (setting).
- O6  5xx, 429, and (O7) a redirect loop or more than 5 hops: every URL deferred: never fetched.
      The truth uses a page's steady answer: a robots.txt that fails first and later answers
      is read as its later answer (the crawler retries, O6).
- O8  only the first 512 KiB of robots.txt is read; when the file goes on, a URL that no rule
      read decides is not fetched (its unread part might forbid it).
- C4  page redirects are followed hop by hop, at most 10 (a chain's start and 10 targets are
      fetched, the 11th target never); each hop passes C1, C3 and robots.
- C7  bodies are read up to 10 MiB after decompression: links beyond are never seen.
- T1-T5  meta robots / X-Robots-Tag: nofollow pages' links are not followed; noindex pages
      are fetched and listed in ``noindex``.  T6: rel=nofollow links are not followed.
- T7  links resolve against <base href>, else the URL after redirects.
- P4  form actions are never requested; javascript: and mailto: are not URLs to fetch.
- S1  (``sitemaps=True``, the default) when an in-scope origin's robots.txt is fetched and
      its outcome is "rules" or "allow-all", its Sitemap URLs (file order, once each, invalid
      ones dropped, at most ``max_sitemaps_per_origin``), else (``sitemap_guess``)
      ``<origin>/sitemap.xml``, are queued at depth 0; each is then fetched like any URL (C1,
      C3, robots.txt of its own origin). A page URL still queued becomes a sitemap; a page
      already fetched stays one. A sitemap's redirect target is a sitemap (C4 hops).
- S2  a 2xx sitemap is read by ``sitemap_reader`` (urlset, index, gzip file, text; at most
      ``max_sitemap_entries`` entries and ``max_sitemap_bytes`` decompressed). An entry of an
      origin other than the sitemap's own or the one whose robots.txt named it is ignored.
      Index entries are sitemaps one nesting deeper, queued only while the index's nesting is
      below ``max_sitemap_nesting``; other entries are pages, queued at the sitemap's depth + 1
      and from there treated exactly like links. A sitemap is never a page: not in
      ``indexable``, its "links" are not links (orphans, S4). 5xx/429 sitemaps are retried.
- S4  the audit the crawler's report must agree with: the ``listed_*`` fields, ``orphans``,
      ``missing_from_sitemaps``, ``lastmod_*`` and ``sitemaps_failed`` of ``Truth``.
- L1  (``check_outbound``) every http(s) link found on a fetched in-scope page whose host is
      out of scope (C1 by host only: not max_depth, not a trap), and every redirect from an
      in-scope page to such a host, is a *check*: requested once (robots.txt of its own origin
      first, O2; a URL robots.txt forbids is never requested, ``checked_forbidden``; C3 guards
      apply; max_depth does not), never parsed (its links are ``never``: no second level),
      no sitemap of its origin read. Judgment call (``check_nofollow``, default False, as
      politecrawl does): links skipped as nofollow (T5 page, T6 rel) are not checked either, a
      check being a request; ``check_nofollow=True`` models a checker that checks every link
      it finds (LinkChecker).
- L2  a check is a HEAD; a HEAD answered 405 or 501 is followed by a GET (``head_then_get``).
      A check whose answer comes later than ``response_timeout_seconds`` fails (time-out: no
      GET after it) and is retried (``repeatable``), as 5xx/429 are. A check's redirect target
      is a check of its own (C4 hop by hop, ``max_redirects``).
- L3  (``check_resources``) every resource of a fetched page (img src/srcset, link rel
      stylesheet/icon/..., script, media, embed, object; see ``pages.Resource``) is a check,
      in scope or not; without it, in-scope resources are ``may`` (as <img> always was).
- L4  (``check_fragments``) a link's ``#fragment`` (percent-decoded; "", "top" and ``:~:``
      text fragments never recorded) to a fetched 2xx HTML page without that id or
      ``<a name>`` is in ``missing_fragments``. Changes no request.
- Permanent redirects: every link target (an <a>/<area> href; a resource with
  ``check_resources``) requested and answering 301 or 308 is in ``permanent_redirects``,
  with the URL at the end of its chain (as far as the crawl follows it).
- Judgment calls, all parameters of ``compute_truth``: the trap guard's values; a robots.txt
  redirect target on another origin counts as part of robots.txt (exempt from O2 there);
  <img src> (embedded, not a link) is in ``may``, and so are Sitemap URLs with
  ``sitemaps=False`` (F6 reads them; then a crawl need not follow them). Every sitemap,
  index entries included, is at depth 0 (only matters with ``max_depth``). The site avoids
  the other open questions: error pages and cut-off pages carry no links before the cut.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote, urljoin, urlsplit

from .canonical import TrapGuard, canonical, host_of, origin_of, path_of
from .model import NOT_FOUND, Page
from .pages import Resource, decoded_body, directives, read_html
from .robots_rules import RobotsFile, parse_robots
from .sitemap_reader import lastmod_seconds, read_sitemap

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .model import Site

_UNREACHED = "unreached: linked only by pages, links or redirects a polite crawl never follows"
OUT_OF_SCOPE = "C1: host outside the crawl's scope"
_SECOND_LEVEL = "L1: not linked from an in-scope page: an outbound check is never parsed"


@dataclass(frozen=True)
class RobotsOutcome:
    kind: str  # "rules", "allow-all", "disallow-all" or "deferred"
    chain: tuple[str, ...]  # robots.txt and each redirect hop fetched for it
    reason: str
    rules: RobotsFile | None = None


@dataclass(frozen=True)
class SitemapTruth:
    """One sitemap a correct crawl fetches, and what reading it gives (S1, S2).

    ``source``: "robots", "guess" or "index"; ``for_origin``: the origin whose robots.txt named
    it (or guessed it), which it may list besides its own (cross-submission); ``nesting``: 0,
    one more per index above it. ``status``: its answer; ``format``: "urlset", "index", "text"
    or "unknown", None when not read (not 2xx). ``listed``: canonical page URLs taken (file
    order, once each); ``children``: canonical sitemap URLs an index lists and that are queued;
    ``other_origins``: entries ignored (S2); ``lastmods``: listed URL -> lastmod as written;
    ``children_ignored``: an index too deep (nesting >= max) whose entries are not queued."""

    url: str
    source: str
    for_origin: str
    nesting: int
    status: int
    format: str | None = None
    listed: tuple[str, ...] = ()
    children: tuple[str, ...] = ()
    other_origins: tuple[str, ...] = ()
    lastmods: Mapping[str, str] = field(default_factory=dict)
    truncated: bool = False
    problems: tuple[str, ...] = ()
    children_ignored: bool = False

    @property
    def ok(self) -> bool:
        """Read successfully (S4): 2xx, and entries, or neither problems nor a cut. A judgment
        call: a sitemap cut at the byte limit before its first entry (the bomb) failed."""
        if not 200 <= self.status < 300:
            return False
        return bool(self.entries or self.other_origins) or not (self.problems or self.truncated)

    @property
    def entries(self) -> tuple[str, ...]:
        return self.listed + self.children


@dataclass(frozen=True)
class Referrer:
    """A fetched page's link to a URL (L1, L3): the first such link on that page, as
    politecrawl's ``links`` row keeps it (text whitespace-collapsed, at most 200 characters;
    an image's alt, else its title; "" for other resources)."""

    page: str
    line: int
    text: str
    resource: bool = False


@dataclass(frozen=True)
class CheckTruth:
    """One check a correct crawl makes (L1-L3): URL of kind 'check', requested.

    ``status``: the final answer (the GET's after a refused HEAD), None for a time-out;
    ``method``: "HEAD" or "HEAD,GET" (``urls.check_method``); ``location``: the canonical
    redirect target, queued as a check of its own; ``error``: "time-out" or None;
    ``referrers``: the fetched pages linking to it (sorted by page); ``redirected_from``: the
    URL whose redirect led here (a chain's later hops have no referrers)."""

    url: str
    status: int | None
    method: str = "HEAD"
    location: str | None = None
    error: str | None = None
    referrers: tuple[Referrer, ...] = ()
    redirected_from: str | None = None

    @property
    def broken(self) -> bool:
        return self.error is not None or (self.status or 0) >= 400

    @property
    def resource(self) -> bool:
        """Every referrer links to it as a resource (img, script, ...)."""
        return bool(self.referrers) and all(r.resource for r in self.referrers)


@dataclass(frozen=True)
class Truth:
    """What a correct polite crawl from ``seeds`` fetches. URLs are canonical (C2).

    ``must``: fetched at least once (robots chains included). ``never``: URL -> why not, with
    the SPEC id. ``may``: either is correct. ``repeatable``: may be fetched more than once
    (robots chains, 5xx/429 answers, pages whose first answers differ). ``crawl_delays``: host
    -> the Crawl-delay its robots.txt asks of the agent (None: none asked), for every host
    whose robots.txt is read (in scope, and checked hosts, L1).

    The sitemap audit (S4; empty with ``sitemaps=False``), every URL canonical:
    ``sitemaps``: sitemap URL -> ``SitemapTruth``, for every sitemap fetched (all in ``must``).
    ``listed``: page URLs listed by those sitemaps (taken entries, not index entries).
    ``orphans``: listed URLs that no fetched page links to (an ``<a>``/``<area>`` of any rel,
    nofollow pages included: the crawler's ``links`` rows; a redirect is not a link).
    ``listed_broken``: listed and fetched, answering >= 400. ``listed_redirected``: listed and
    answering 3xx. ``listed_noindex``: listed and noindex (T1-T4). ``listed_disallowed``:
    listed, never fetched because robots.txt forbids it (M7 rules or O5). ``listed_out_of_scope``:
    listed, never fetched because of C1. ``listed_not_canonical``: listed URL -> the other URL
    its ``<link rel=canonical>`` names. ``missing_from_sitemaps``: indexable 2xx HTML pages
    fetched (seeds and redirect targets included) on an origin with a sitemap read successfully
    (``SitemapTruth.ok``), listed by no sitemap. ``lastmod_future`` / ``lastmod_malformed``:
    listed URLs with a lastmod later than now / not a W3C datetime. ``sitemaps_failed``:
    sitemap URL -> why (its status, or its problems when it listed nothing); a sitemap only
    truncated (the bomb) is not failed: see ``SitemapTruth.truncated``.

    Link checking (L1-L4; empty unless the ``check_*`` options say otherwise):
    ``checked``: URL -> ``CheckTruth`` for every check requested (all in ``must``).
    ``checked_broken``: checks answering >= 400 or timing out. ``checked_forbidden``: URL ->
    why, for checks never requested because robots.txt forbids them (M7, O5); they are in
    ``never`` too (a check deferred by O6 is only in ``never``). ``head_then_get``: checks
    whose HEAD is refused (405/501), so a GET follows. ``missing_fragments``: (page, target,
    fragment) for each fragment link to a fetched 2xx HTML page lacking the anchor (with
    ``check_fragments``). ``permanent_redirects``: link target answering 301/308 -> the URL
    at the end of its chain (pages always; checks when checked).
    """

    agent: str
    seeds: tuple[str, ...]
    must: frozenset[str]
    never: Mapping[str, str]
    may: frozenset[str]
    indexable: frozenset[str]
    noindex: frozenset[str]
    repeatable: frozenset[str]
    crawl_delays: Mapping[str, float | None]
    robots_chains: Mapping[str, tuple[str, ...]]  # origin -> its robots.txt chain
    outcomes: Mapping[str, str]  # origin -> RobotsOutcome.kind
    sitemaps: Mapping[str, SitemapTruth] = field(default_factory=dict)
    listed: frozenset[str] = frozenset()
    orphans: frozenset[str] = frozenset()
    listed_broken: frozenset[str] = frozenset()
    listed_redirected: frozenset[str] = frozenset()
    listed_noindex: frozenset[str] = frozenset()
    listed_disallowed: frozenset[str] = frozenset()
    listed_out_of_scope: frozenset[str] = frozenset()
    listed_not_canonical: Mapping[str, str] = field(default_factory=dict)
    missing_from_sitemaps: frozenset[str] = frozenset()
    lastmod_future: frozenset[str] = frozenset()
    lastmod_malformed: frozenset[str] = frozenset()
    sitemaps_failed: Mapping[str, str] = field(default_factory=dict)
    checked: Mapping[str, CheckTruth] = field(default_factory=dict)
    checked_broken: frozenset[str] = frozenset()
    checked_forbidden: Mapping[str, str] = field(default_factory=dict)
    head_then_get: frozenset[str] = frozenset()
    missing_fragments: frozenset[tuple[str, str, str]] = frozenset()
    permanent_redirects: Mapping[str, str] = field(default_factory=dict)

    def delays(self, default_seconds: float) -> dict[str, float]:
        """Host -> the least gap a polite crawler leaves (P2): the larger of its own delay
        and the Crawl-delay; ready for ``audit(..., delays=)``."""
        return {
            host: max(default_seconds, asked or 0.0) for host, asked in self.crawl_delays.items()
        }


def robots_outcome(
    site: Site,
    origin: str,
    agent: str,
    *,
    max_redirects: int = 5,
    max_bytes: int = 512 * 1024,
    disallow_on_401_403: bool = True,
) -> RobotsOutcome:
    """What an origin's robots.txt means for ``agent`` (O3-O8)."""
    url = origin + "/robots.txt"
    chain = [url]
    for hop in range(max_redirects + 1):
        page = site.page_at(url) or NOT_FOUND
        location = page.location
        if location is not None:
            target = canonical(location, url)
            if target is None or target in chain or hop == max_redirects:
                return RobotsOutcome("deferred", tuple(chain), "O7: loop or too many redirects")
            chain.append(target)
            url = target
            continue
        status = page.status
        if 200 <= status < 300:
            text = page.body[:max_bytes].decode("utf-8", "replace")  # O8
            # A page over the limit with no User-agent line read is no robots.txt (O8).
            tail_unread = len(page.body) > max_bytes and "user-agent" in text.lower()
            return RobotsOutcome(
                "rules", tuple(chain), "O3", parse_robots(text, tail_unread=tail_unread)
            )
        if status in (401, 403) and disallow_on_401_403:
            return RobotsOutcome("disallow-all", tuple(chain), f"O5: robots.txt {status}")
        if status == 429 or status >= 500:
            return RobotsOutcome("deferred", tuple(chain), f"O6: robots.txt {status}")
        return RobotsOutcome("allow-all", tuple(chain), f"O4: robots.txt {status}")
    raise AssertionError("unreachable")  # the loop returns on its last hop


@dataclass(frozen=True)
class _SitemapJob:
    source: str  # "robots", "guess" or "index"
    for_origin: str
    nesting: int


def compute_truth(
    site: Site,
    agent: str = "politecrawl",
    *,
    seeds: Iterable[str] | None = None,
    guard: TrapGuard | None = None,
    max_redirects: int = 10,
    robots_max_redirects: int = 5,
    robots_max_bytes: int = 512 * 1024,
    max_body_bytes: int = 10 * 1024 * 1024,
    max_depth: int | None = None,
    disallow_on_401_403: bool = True,
    rel_nofollow: bool = True,
    sitemaps: bool = True,
    sitemap_guess: bool = True,
    max_sitemaps_per_origin: int = 50,
    max_sitemap_nesting: int = 2,
    max_sitemap_entries: int = 50_000,
    max_sitemap_bytes: int = 50 * 1024 * 1024,
    check_outbound: bool = False,
    check_resources: bool = False,
    check_fragments: bool = False,
    check_nofollow: bool = False,
    response_timeout_seconds: float = 30.0,
) -> Truth:
    """The ground truth (see the module docstring). Defaults are the SPEC's; ``guard``
    defaults to ``TrapGuard()``; ``max_depth`` (C1, link hops from a seed; a redirect is not
    a link hop) defaults to unlimited. The sitemap options are ``CrawlConfig``'s (S1, S2);
    the ``check_*`` ones too (L1, L3, L4; ``politecrawl check`` turns the three on, with
    sitemaps); ``response_timeout_seconds`` is C7's whole-response time-out (only a check
    meets a page slower than it: out-slow)."""
    if not site.is_bound:
        raise ValueError("the truth names real URLs: bind the site first (serve it)")
    guard = guard or TrapGuard()
    seed_urls = tuple(seeds) if seeds is not None else site.seeds
    scope = {host_of(seed) for seed in seed_urls}
    outcomes: dict[str, RobotsOutcome] = {}
    must: set[str] = set()
    may: set[str] = set()
    repeatable: set[str] = set()
    indexable: set[str] = set()
    noindex: set[str] = set()
    dropped: dict[str, str] = {}
    jobs: dict[str, _SitemapJob] = {}  # URLs read as sitemaps (S1)
    read: dict[str, SitemapTruth] = {}  # every sitemap fetched, and what it gave
    statuses: dict[str, int] = {}  # every URL fetched -> its answer
    html_pages: set[str] = set()  # pages fetched 2xx and read as HTML
    linked: set[str] = set()  # every <a>/<area> target on those (the crawler's links rows)
    canonicals: dict[str, str] = {}  # page -> the URL its <link rel=canonical> names
    check_urls: set[str] = set()  # URLs of kind 'check' (L1, L3)
    checked: dict[str, CheckTruth] = {}
    forbidden_checks: dict[str, str] = {}
    head_then_get: set[str] = set()
    locations: dict[str, str] = {}  # every URL requested that redirected -> its target
    redirected_from: dict[str, str] = {}
    referrers: dict[str, dict[str, Referrer]] = {}  # link target -> page -> its first link
    anchors_of: dict[str, frozenset[str]] = {}  # fetched 2xx HTML page -> its ids and names
    fragment_links: set[tuple[str, str, str]] = set()  # (page, target, fragment)

    def outcome_for(origin: str) -> RobotsOutcome:
        if origin not in outcomes:
            outcome = robots_outcome(
                site,
                origin,
                agent,
                max_redirects=robots_max_redirects,
                max_bytes=robots_max_bytes,
                disallow_on_401_403=disallow_on_401_403,
            )
            outcomes[origin] = outcome
            must.update(outcome.chain)  # O2: asked before anything else of the origin
            repeatable.update(outcome.chain)
            in_scope = host_of(origin) in scope  # L1: no sitemap of a checked origin is read
            if sitemaps and in_scope and outcome.kind in ("rules", "allow-all"):
                discover(origin, outcome)
        return outcomes[origin]

    def discover(origin: str, outcome: RobotsOutcome) -> None:
        """S1: queue the Sitemap URLs of an origin's robots.txt, else its /sitemap.xml."""
        named = dict.fromkeys(
            url
            for value in (outcome.rules.sitemaps if outcome.rules else ())
            if (url := canonical(value))
        )
        urls = list(named)[:max_sitemaps_per_origin]
        source = "robots"
        if not urls and sitemap_guess:
            urls, source = [origin + "/sitemap.xml"], "guess"
        for url in urls:
            enqueue_sitemap(url, _SitemapJob(source, origin, 0))

    def blocked(
        url: str, depth: int, *, fetch_robots: bool = True, check: bool = False
    ) -> str | None:
        """Why ``url`` is not fetched, or None. ``check``: a check (L1, L3): scope and depth
        do not apply, the trap guard and robots.txt do."""
        if not check and host_of(url) not in scope:
            return OUT_OF_SCOPE
        if not check and max_depth is not None and depth > max_depth:
            return f"C1: more than {max_depth} links from a seed"
        if (trap := guard.violation(url)) is not None:
            return f"C3: {trap}"
        origin = origin_of(url)
        if not fetch_robots and origin not in outcomes:
            return None
        outcome = outcome_for(origin)
        if outcome.kind == "deferred":
            return f"O6: deferred ({outcome.reason})"
        if outcome.kind == "disallow-all":
            return outcome.reason
        if outcome.rules is not None:
            allowed, rule = outcome.rules.verdict(agent, path_of(url))
            if not allowed:
                return f"M7: robots.txt {rule!r}"
        return None

    queue: deque[tuple[str, int, int]] = deque()  # (url, redirect hops so far, link depth)
    seen: set[str] = set()
    popped: set[str] = set()

    def enqueue(url: str, hops: int, depth: int) -> None:
        if url not in seen:
            seen.add(url)
            queue.append((url, hops, depth))

    def enqueue_check(url: str, hops: int, depth: int) -> None:
        """L1, L3: a new URL is queued as a check; one already known keeps its kind."""
        if url not in seen:
            check_urls.add(url)
            enqueue(url, hops, depth)

    def check(url: str, hops: int, depth: int) -> None:
        """L1-L3: HEAD (then GET when HEAD is refused), never parsed; redirects are checks."""
        if (why := blocked(url, depth, check=True)) is not None:
            dropped.setdefault(url, why)
            if why.startswith(("M7", "O5")):
                forbidden_checks[url] = why
            return
        must.add(url)
        page = site.page_at(url) or NOT_FOUND
        answer, method = page.head or page, "HEAD"
        if answer.delay_seconds < response_timeout_seconds and answer.status in (405, 501):
            answer, method = page, "HEAD,GET"
            head_then_get.add(url)
        if answer.delay_seconds >= response_timeout_seconds:
            repeatable.add(url)  # C7/P3: a time-out is retried, then the check failed
            checked[url] = CheckTruth(url, None, method, error="time-out")
            return
        if answer.first or answer.status == 429 or answer.status >= 500:
            repeatable.add(url)
        statuses[url] = answer.status
        target = canonical(answer.location, url) if answer.location is not None else None
        checked[url] = CheckTruth(url, answer.status, method, target)
        if target is not None:
            locations[url] = target
            redirected_from.setdefault(target, url)
            if hops + 1 > max_redirects:
                dropped.setdefault(target, f"C4: more than {max_redirects} redirect hops")
            else:
                enqueue_check(target, hops + 1, depth)

    def note_links(page_url: str, links: _Links) -> None:
        """The links rows of a fetched page: first link per target wins (L1, L3)."""
        rows = [(t, line, text, False) for t, _, text, line in links.anchors_full]
        if check_resources:
            rows += [(t, r.line, r.text, True) for t, r in links.resources]
        for target, line, text, resource in rows:
            referrers.setdefault(target, {}).setdefault(
                page_url, Referrer(page_url, line, text, resource)
            )

    def enqueue_sitemap(url: str, job: _SitemapJob, hops: int = 0) -> None:
        """S1: a new URL, or one still queued as a page, is read as a sitemap (at depth 0)."""
        if url not in jobs and url not in popped:
            jobs[url] = job
            enqueue(url, hops, 0)

    def read_one(url: str, job: _SitemapJob, page: Page, depth: int) -> SitemapTruth:
        """S2: read a fetched sitemap; queue the pages it lists and the sitemaps it indexes."""
        if not 200 <= page.status < 300:
            return SitemapTruth(url, job.source, job.for_origin, job.nesting, page.status)
        found = read_sitemap(
            page.body,
            content_encoding=page.header("Content-Encoding"),
            max_bytes=max_sitemap_bytes,
            max_entries=max_sitemap_entries,
        )
        listed: dict[str, None] = {}
        children: dict[str, None] = {}
        others: dict[str, None] = {}
        lastmods: dict[str, str] = {}
        too_deep = False
        for entry in found.entries:
            target = canonical(entry.loc)
            if target is None:
                continue  # not an absolute http(s) URL
            if origin_of(target) not in (origin_of(url), job.for_origin):
                others[target] = None
                dropped.setdefault(target, "S2: listed by a sitemap of another origin: ignored")
            elif found.format != "index":
                listed[target] = None
                if entry.lastmod is not None:
                    lastmods.setdefault(target, entry.lastmod)
                enqueue(target, 0, depth + 1)
            elif job.nesting < max_sitemap_nesting:
                children[target] = None
                enqueue_sitemap(target, _SitemapJob("index", job.for_origin, job.nesting + 1))
            else:
                too_deep = True
                dropped.setdefault(target, "S2: listed by an index nested too deep: not read")
        for loc in found.beyond:
            if target := canonical(loc):
                why = f"S2: listed only after the first {max_sitemap_bytes} bytes decompressed"
                dropped.setdefault(target, why)
        return SitemapTruth(
            url,
            job.source,
            job.for_origin,
            job.nesting,
            page.status,
            found.format,
            tuple(listed),
            tuple(children),
            tuple(others),
            lastmods,
            found.truncated,
            found.problems,
            too_deep,
        )

    for seed in seed_urls:
        if (url := canonical(seed)) is not None:
            enqueue(url, 0, 0)
    while queue:
        url, hops, depth = queue.popleft()
        popped.add(url)
        if url in check_urls:
            check(url, hops, depth)
            continue
        if (why := blocked(url, depth)) is not None:
            if why == OUT_OF_SCOPE and check_outbound and url not in jobs:
                check_urls.add(url)  # L1: a link (or a page's redirect) leaving the site
                check(url, hops, depth)
                continue
            dropped.setdefault(url, why)
            continue
        must.add(url)
        page = site.page_at(url) or NOT_FOUND
        statuses[url] = page.status
        job = jobs.get(url)
        if page.first or page.status == 429 or page.status >= 500:
            repeatable.add(url)  # O6/C7/S2: retried, or a changing answer
        if page.location is not None:
            target = canonical(page.location, url)
            if target is None:
                continue
            locations[url] = target
            redirected_from.setdefault(target, url)
            if hops + 1 > max_redirects:
                dropped.setdefault(target, f"C4: more than {max_redirects} redirect hops")
            elif job is not None:
                enqueue_sitemap(target, job, hops + 1)  # S2: the target is the sitemap
            else:
                enqueue(target, hops + 1, depth)
            continue
        if job is not None:
            read[url] = read_one(url, job, page, depth)
            continue
        if not 200 <= page.status < 300:
            continue
        links = _read(page, url, agent, max_body_bytes, indexable=indexable, noindex=noindex)
        if links is None:
            continue
        html_pages.add(url)
        anchors_of[url] = links.ids
        linked.update(target for target, _ in links.anchors)
        note_links(url, links)
        fragment_links.update((url, target, f) for target, f in links.fragments)
        if links.canonical is not None:
            canonicals[url] = links.canonical
        for target in links.forms:
            dropped.setdefault(target, "P4: a form's action is never requested")
        for target in links.beyond_cut:
            dropped.setdefault(target, f"C7: linked only after the first {max_body_bytes} bytes")
        for target, _ in links.resources:
            if check_resources and (check_nofollow or not links.nofollow):
                enqueue_check(target, 0, depth + 1)  # L3: in scope or not
            elif not check_resources and blocked(target, depth + 1) is None:
                may.add(target)
        for target, rel in links.anchors:
            skipped = None
            if links.nofollow:
                skipped = "T5: linked from a nofollow page"
            elif rel_nofollow and "nofollow" in rel.lower().split():
                skipped = "T6: rel=nofollow link"
            if skipped is None:
                enqueue(target, 0, depth + 1)
            elif check_outbound and check_nofollow and host_of(target) not in scope:
                enqueue_check(target, 0, depth + 1)  # L1: found, so checked (never crawled)
            else:
                dropped.setdefault(target, skipped)

    if not sitemaps:
        for outcome in outcomes.values():  # F6: read, but a crawl need not follow them
            for sitemap in outcome.rules.sitemaps if outcome.rules else ():
                if (url := canonical(sitemap)) and blocked(url, 0, fetch_robots=False) is None:
                    may.add(url)
    may -= must
    candidates = set(dropped)
    for origin in site.origins:
        candidates.update(canonical(origin.base + path) or "" for path in origin.pages)
    checked_origins = {origin_of(url) for url in checked}
    never = {}
    for url in sorted(candidates - must - may - {""}):
        why = dropped.get(url) or blocked(url, 0, fetch_robots=False) or _UNREACHED
        if why == OUT_OF_SCOPE and url not in dropped and origin_of(url) in checked_origins:
            why = _SECOND_LEVEL  # a page of a checked origin that no in-scope page links to
        never[url] = why
    checks = {
        url: dataclasses.replace(
            found,
            referrers=tuple(sorted(referrers.get(url, {}).values(), key=lambda r: r.page)),
            redirected_from=redirected_from.get(url),
        )
        for url, found in sorted(checked.items())
    }
    link_targets = set(linked)
    if check_resources:
        link_targets |= {
            target for target, rows in referrers.items() if any(r.resource for r in rows.values())
        }

    listed = frozenset(url for sitemap in read.values() for url in sitemap.listed)
    unfetched = {url: blocked(url, 1, fetch_robots=False) or "" for url in listed - must}
    with_sitemap = {sitemap.for_origin for sitemap in read.values() if sitemap.ok}
    now = time.time()
    lastmods = [
        (url, lastmod_seconds(text)) for s in read.values() for url, text in s.lastmods.items()
    ]
    return Truth(
        agent=agent,
        seeds=seed_urls,
        must=frozenset(must),
        never=never,
        may=frozenset(may),
        indexable=frozenset(indexable),
        noindex=frozenset(noindex),
        repeatable=frozenset(repeatable),
        crawl_delays={
            host_of(origin): outcome.rules.crawl_delay_seconds(agent) if outcome.rules else None
            for origin, outcome in outcomes.items()
        },
        robots_chains={origin: outcome.chain for origin, outcome in outcomes.items()},
        outcomes={origin: outcome.kind for origin, outcome in outcomes.items()},
        sitemaps=read,
        listed=listed,
        orphans=listed - linked,
        listed_broken=frozenset(url for url in listed & must if statuses[url] >= 400),
        listed_redirected=frozenset(url for url in listed & must if 300 <= statuses[url] < 400),
        listed_noindex=listed & noindex,
        listed_disallowed=frozenset(
            url for url, why in unfetched.items() if why.startswith(("M7", "O5"))
        ),
        listed_out_of_scope=frozenset(
            url for url, why in unfetched.items() if why.startswith("C1")
        ),
        listed_not_canonical={
            url: canonicals[url] for url in sorted(listed) if canonicals.get(url, url) != url
        },
        missing_from_sitemaps=frozenset(
            url for url in html_pages & indexable if origin_of(url) in with_sitemap
        )
        - listed,
        lastmod_future=frozenset(url for url, at in lastmods if at is not None and at > now),
        lastmod_malformed=frozenset(url for url, at in lastmods if at is None),
        sitemaps_failed={
            url: _failure(sitemap)
            for url, sitemap in sorted(read.items())
            if not sitemap.ok and not 300 <= sitemap.status < 400  # a redirect is followed
        },
        checked=checks,
        checked_broken=frozenset(url for url, found in checks.items() if found.broken),
        checked_forbidden=dict(sorted(forbidden_checks.items())),
        head_then_get=frozenset(head_then_get),
        missing_fragments=frozenset(
            (page, target, fragment)
            for page, target, fragment in fragment_links
            if target in anchors_of and fragment not in anchors_of[target]
        )
        if check_fragments
        else frozenset(),
        permanent_redirects={
            url: _chain_end(url, locations, max_redirects)
            for url in sorted(link_targets & must)
            if statuses.get(url) in (301, 308)
        },
    )


def _chain_end(url: str, locations: Mapping[str, str], max_hops: int) -> str:
    """Where a redirect chain ends, as far as the crawl followed it."""
    for _ in range(max_hops):
        if url not in locations:
            break
        url = locations[url]
    return url


def _failure(sitemap: SitemapTruth) -> str:
    if sitemap.status >= 300:
        return f"status {sitemap.status}"
    why = list(sitemap.problems) + ["cut at the byte limit"] * sitemap.truncated
    return "; ".join(why) + ": nothing listed"


@dataclass(frozen=True)
class _Links:
    nofollow: bool
    anchors: list[tuple[str, str]]  # (canonical target, rel)
    forms: list[str]
    images: list[str]
    beyond_cut: list[str]  # C7: in the body, but after the limit
    canonical: str | None = None  # S4: the first <link rel=canonical>, resolved
    anchors_full: list[tuple[str, str, str, int]] = field(default_factory=list)
    """(canonical target, rel, text, line) of each of ``anchors`` (L1)"""
    resources: list[tuple[str, Resource]] = field(default_factory=list)  # L3: canonical
    fragments: list[tuple[str, str]] = field(default_factory=list)  # L4: (target, fragment)
    ids: frozenset[str] = frozenset()  # L4: the page's ids and <a name>s


def link_fragment(href: str, base: str) -> str | None:
    """L4: the fragment a link asks for, percent-decoded, or None when none is recorded:
    no fragment, an empty one, ``top`` (the top of any page), a ``:~:`` text fragment."""
    fragment = urlsplit(urljoin(base, href.strip())).fragment
    fragment = unquote(fragment.split(":~:", 1)[0])
    if not fragment or fragment.lower() == "top":
        return None
    return fragment


def _read(
    page: Page, url: str, agent: str, max_bytes: int, *, indexable: set[str], noindex: set[str]
) -> _Links | None:
    """Record a 2xx page as indexable or not (T1-T5); return its links, or None (no HTML)."""
    x_robots = page.header_values("X-Robots-Tag")
    encoding = page.header("Content-Encoding")
    facts = read_html(decoded_body(page.body, encoding, max_bytes)) if page.is_html else None
    is_noindex, nofollow = directives(facts.metas if facts else (), x_robots, agent)
    (noindex if is_noindex else indexable).add(url)
    if facts is None:
        return None
    base = url  # T7: the final URL after redirects, unless <base href> says otherwise
    if facts.base_href and (resolved := canonical(facts.base_href, url)):
        base = resolved

    def resolve(hrefs: Iterable[str]) -> list[str]:
        return [target for href in hrefs if (target := canonical(href, base))]

    beyond: list[str] = []
    whole = decoded_body(page.body, encoding, 1 << 26)
    if len(whole) > max_bytes:  # only to say why a link is never followed
        beyond = sorted(set(resolve(h for h, _ in read_html(whole).anchors)))
    anchors = [(target, rel) for href, rel in facts.anchors if (target := canonical(href, base))]
    beyond = [target for target in beyond if target not in {a for a, _ in anchors}]
    named = canonical(facts.canonical_href, base) if facts.canonical_href else None
    full = [
        (target, rel, text, line)
        for (href, rel), text, line in zip(
            facts.anchors, facts.anchor_texts, facts.anchor_lines, strict=True
        )
        if (target := canonical(href, base))
    ]
    fragments = [
        (target, fragment)
        for href, _ in facts.anchors
        if (target := canonical(href, base)) and (fragment := link_fragment(href, base))
    ]
    resources = [(t, r) for r in facts.resources if (t := canonical(r.src, base))]
    return _Links(
        nofollow,
        anchors,
        resolve(facts.forms),
        resolve(facts.images),
        beyond,
        named,
        full,
        resources,
        fragments,
        facts.ids,
    )
