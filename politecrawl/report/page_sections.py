"""The report's sections on the crawl's pages and on the crawl itself, read from its database
[C4, O3-O8, M6, L5].

Broken links with every page linking to them and the sitemaps listing them, redirect chains
followed hop by hop (loops and chains longer than the crawl follows marked, C4), each origin's
robots.txt outcome and the URLs on which the draft and RFC 9309 readings disagree (M6), how far
the current pass got (L5), the crawl's span and its requests per host over time.
``politecrawl.report.build`` assembles them, with the other sections, into a ``Report``;
``page_tables`` lays them out. Reads through ``politecrawl.store.reading`` only.
"""

from __future__ import annotations

from politecrawl.report.checks import MAX_REDIRECTS, referrer
from politecrawl.report.crawl_model import CrawlOverview, HostTimeline, Timeline, TimelineMark
from politecrawl.report.model import (
    MAX_UNCHECKED_LISTED,
    BrokenLink,
    ChainStep,
    Disagreement,
    PassProgress,
    RedirectChain,
    RobotsOutcomeRow,
    UncheckedUrl,
)
from politecrawl.robots import RobotsLimits, Verdict, parse_robots
from politecrawl.store import PAGE, Database
from politecrawl.store.reading import (
    OriginRobots,
    broken_urls,
    carried_broken,
    crawl_span,
    origin_urls,
    pass_state,
    redirect_rows,
    request_timeline,
    robots_body,
    rows_by_url,
    sitemap_entries_of,
)
from politecrawl.urls import InvalidURL, canonicalize

__all__ = [
    "broken_links",
    "crawl_overview",
    "pass_progress",
    "redirect_chains",
    "robots_sections",
    "timeline",
]


def crawl_overview(database: Database) -> CrawlOverview:
    """The crawl's seed origins, runs and span."""
    span = crawl_span(database)
    return CrawlOverview(
        span.seed_origins, span.runs, span.started_at, span.ended_at, span.run_seconds
    )


def timeline(database: Database) -> Timeline:
    """The crawl's requests per host over time (bounded, however large the crawl)."""
    found = request_timeline(database)
    hosts = tuple(
        HostTimeline(
            host.host,
            host.requests,
            host.failures,
            host.delay_seconds,
            host.robots_fetches,
            tuple(TimelineMark(m.at, m.seconds, m.requests, m.failures) for m in host.marks),
        )
        for host in found.hosts
    )
    return Timeline(
        found.start,
        found.end,
        found.bucket_seconds,
        hosts,
        found.other_hosts,
        found.other_requests,
    )


def pass_progress(database: Database) -> PassProgress:
    """How far the current pass got (L5), with the first waiting pages and checks named."""
    state = pass_state(database, listed=MAX_UNCHECKED_LISTED)
    return PassProgress(
        number=state.number,
        queued=state.queued,
        leased=state.leased,
        deferred=state.deferred,
        limited=state.limited,
        seeds_refused=state.seeds_refused,
        robots_unknown=state.robots_unknown,
        last_outcome=state.last_outcome,
        unchecked=tuple(
            UncheckedUrl(row.url, row.origin, row.state, row.reason or "")
            for row in state.unchecked
        ),
        unchecked_total=state.unchecked_total,
    )


def broken_links(database: Database, *, carry: bool) -> tuple[BrokenLink, ...]:
    """Broken URLs with every page linking to them, and the sitemaps listing them; with
    ``carry``, also those an earlier pass found that the current one has not re-checked."""
    broken = broken_urls(database)
    if carry:
        broken = sorted([*broken, *carried_broken(database, kind=PAGE)], key=lambda i: i.row.url)
    listed = sitemap_entries_of(database, (item.row.id for item in broken))
    return tuple(
        BrokenLink(
            item.row.url,
            item.row.status,
            item.row.state,
            item.row.error,
            tuple(map(referrer, item.referrers)),
            tuple(listing.sitemap for listing in listed.get(item.row.id, ())),
            item.from_pass,
        )
        for item in broken
    )


def redirect_chains(
    database: Database, *, max_redirects: int = MAX_REDIRECTS
) -> tuple[RedirectChain, ...]:
    """Every redirect chain, from a URL no other redirect leads to (or, for a pure loop, its
    first URL), followed through the redirect rows to where it ends; sorted by first URL."""
    redirects = redirect_rows(database)
    by_url = {row.url: row for row in redirects}
    target = {row.url: _canonical(row.final_url or "") for row in redirects}
    ends = rows_by_url(database, {url for url in target.values() if url not in by_url})
    targets = set(target.values())
    heads = [row.url for row in redirects if row.url not in targets]
    visited: set[str] = set()
    chains = []
    for start in heads + [row.url for row in redirects]:
        if start in visited:
            continue
        steps: list[ChainStep] = []
        seen: set[str] = set()
        url, loop = start, False
        while True:
            row = by_url.get(url) or ends.get(url)
            steps.append(ChainStep(url, row.status if row else None, row.state if row else None))
            if url in seen:
                loop = True
                break
            seen.add(url)
            if url not in by_url:
                break
            url = target[url]
        visited |= seen
        chains.append(RedirectChain(tuple(steps), loop, len(steps) - 1 > max_redirects))
    return tuple(sorted(chains, key=lambda chain: chain.steps[0].url))


def _canonical(url: str) -> str:
    try:
        return canonicalize(url)
    except InvalidURL:
        return url  # not crawlable (another scheme, say): the chain ends there


def robots_sections(
    database: Database, origins: list[OriginRobots], agent: str, limits: RobotsLimits | None
) -> tuple[tuple[RobotsOutcomeRow, ...], tuple[Disagreement, ...]]:
    """Each origin's outcome, and (M6) every fetched or excluded URL of an origin with a
    parsed robots.txt on which the draft and RFC 9309 readings of it disagree."""
    outcomes = []
    disagreements: list[Disagreement] = []
    for origin in origins:
        warnings = 0
        body = robots_body(database, origin.id) if origin.outcome == "parsed" else None
        if body is not None:
            policy = parse_robots(body, semantics="draft", limits=limits)
            other = policy.with_semantics("rfc9309")
            warnings = len(policy.warnings)
            for url in origin_urls(database, origin.id):
                if policy.is_allowed(agent, url) == other.is_allowed(agent, url):
                    continue  # the fast check; ``disagreement`` explains the few that differ
                found = policy.disagreement(agent, url)
                if found is not None:
                    draft, rfc = found
                    disagreements.append(
                        Disagreement(
                            url,
                            origin.origin,
                            draft.allowed,
                            *_deciding(draft),
                            rfc.allowed,
                            *_deciding(rfc),
                        )
                    )
        outcomes.append(
            RobotsOutcomeRow(
                origin.origin,
                origin.outcome,
                origin.status,
                origin.reason or "",
                origin.fetched_at,
                origin.expires_at,
                origin.body_bytes,
                warnings,
                origin.url_count,
            )
        )
    return tuple(outcomes), tuple(sorted(disagreements, key=lambda item: item.url))


def _deciding(verdict: Verdict) -> tuple[int | None, str]:
    if verdict.rule is None:
        return None, verdict.reason
    return verdict.rule.line_number, verdict.rule.line
