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
- O8  only the first 512 KiB of robots.txt is read.
- C4  page redirects are followed hop by hop, at most 10 (a chain's start and 10 targets are
      fetched, the 11th target never); each hop passes C1, C3 and robots.
- C7  bodies are read up to 10 MiB after decompression: links beyond are never seen.
- T1-T5  meta robots / X-Robots-Tag: nofollow pages' links are not followed; noindex pages
      are fetched and listed in ``noindex``.  T6: rel=nofollow links are not followed.
- T7  links resolve against <base href>, else the URL after redirects.
- P4  form actions are never requested; javascript: and mailto: are not URLs to fetch.
- Judgment calls, all parameters of ``compute_truth``: the trap guard's values; a robots.txt
  redirect target on another origin counts as part of robots.txt (exempt from O2 there);
  Sitemap URLs (F6 reads them, the SPEC does not say a crawl follows them) and <img src>
  (embedded, not a link) are in ``may``. The site avoids the other open questions: error
  pages and cut-off pages carry no links before the cut.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .canonical import TrapGuard, canonical, host_of, origin_of, path_of
from .model import NOT_FOUND, Page
from .pages import decoded_body, directives, read_html
from .robots_rules import RobotsFile, parse_robots

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .model import Site

_UNREACHED = "unreached: linked only by pages, links or redirects a polite crawl never follows"


@dataclass(frozen=True)
class RobotsOutcome:
    kind: str  # "rules", "allow-all", "disallow-all" or "deferred"
    chain: tuple[str, ...]  # robots.txt and each redirect hop fetched for it
    reason: str
    rules: RobotsFile | None = None


@dataclass(frozen=True)
class Truth:
    """What a correct polite crawl from ``seeds`` fetches. URLs are canonical (C2).

    ``must``: fetched at least once (robots chains included). ``never``: URL -> why not, with
    the SPEC id. ``may``: either is correct. ``repeatable``: may be fetched more than once
    (robots chains, 5xx/429 answers, pages whose first answers differ). ``crawl_delays``: host
    -> the Crawl-delay its robots.txt asks of the agent (None: none asked), for in-scope hosts.
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
            return RobotsOutcome("rules", tuple(chain), "O3", parse_robots(text))
        if status in (401, 403) and disallow_on_401_403:
            return RobotsOutcome("disallow-all", tuple(chain), f"O5: robots.txt {status}")
        if status == 429 or status >= 500:
            return RobotsOutcome("deferred", tuple(chain), f"O6: robots.txt {status}")
        return RobotsOutcome("allow-all", tuple(chain), f"O4: robots.txt {status}")
    raise AssertionError("unreachable")  # the loop returns on its last hop


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
) -> Truth:
    """The ground truth (see the module docstring). Defaults are the SPEC's; ``guard``
    defaults to ``TrapGuard()``; ``max_depth`` (C1, link hops from a seed; a redirect is not
    a link hop) defaults to unlimited."""
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
        return outcomes[origin]

    def blocked(url: str, depth: int, *, fetch_robots: bool = True) -> str | None:
        if host_of(url) not in scope:
            return "C1: host outside the crawl's scope"
        if max_depth is not None and depth > max_depth:
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

    def enqueue(url: str, hops: int, depth: int) -> None:
        if url not in seen:
            seen.add(url)
            queue.append((url, hops, depth))

    for seed in seed_urls:
        if (url := canonical(seed)) is not None:
            enqueue(url, 0, 0)
    while queue:
        url, hops, depth = queue.popleft()
        if (why := blocked(url, depth)) is not None:
            dropped.setdefault(url, why)
            continue
        must.add(url)
        page = site.page_at(url) or NOT_FOUND
        if page.first or page.status == 429 or page.status >= 500:
            repeatable.add(url)  # O6/C7: retried, or a changing answer
        if page.location is not None:
            target = canonical(page.location, url)
            if target is None:
                continue
            if hops + 1 > max_redirects:
                dropped.setdefault(target, f"C4: more than {max_redirects} redirect hops")
            else:
                enqueue(target, hops + 1, depth)
            continue
        if not 200 <= page.status < 300:
            continue
        links = _read(page, url, agent, max_body_bytes, indexable=indexable, noindex=noindex)
        if links is None:
            continue
        for target in links.forms:
            dropped.setdefault(target, "P4: a form's action is never requested")
        for target in links.beyond_cut:
            dropped.setdefault(target, f"C7: linked only after the first {max_body_bytes} bytes")
        for target in links.images:
            if blocked(target, depth + 1) is None:
                may.add(target)
        for target, rel in links.anchors:
            if links.nofollow:
                dropped.setdefault(target, "T5: linked from a nofollow page")
            elif rel_nofollow and "nofollow" in rel.lower().split():
                dropped.setdefault(target, "T6: rel=nofollow link")
            else:
                enqueue(target, 0, depth + 1)

    for outcome in outcomes.values():  # F6: sitemaps, a judgment call
        for sitemap in outcome.rules.sitemaps if outcome.rules else ():
            if (url := canonical(sitemap)) and blocked(url, 0, fetch_robots=False) is None:
                may.add(url)
    may -= must
    candidates = set(dropped)
    for origin in site.origins:
        candidates.update(canonical(origin.base + path) or "" for path in origin.pages)
    never = {}
    for url in sorted(candidates - must - may - {""}):
        never[url] = dropped.get(url) or blocked(url, 0, fetch_robots=False) or _UNREACHED
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
            if host_of(origin) in scope
        },
        robots_chains={origin: outcome.chain for origin, outcome in outcomes.items()},
        outcomes={origin: outcome.kind for origin, outcome in outcomes.items()},
    )


@dataclass(frozen=True)
class _Links:
    nofollow: bool
    anchors: list[tuple[str, str]]  # (canonical target, rel)
    forms: list[str]
    images: list[str]
    beyond_cut: list[str]  # C7: in the body, but after the limit


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
    return _Links(nofollow, anchors, resolve(facts.forms), resolve(facts.images), beyond)
