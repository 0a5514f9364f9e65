"""The maintenance report and ``why``: a crawl database read back for people [C4, O3-O6, M6, T5].

``build_report(database, agent=...)`` reads the crawl database (through
``politecrawl.store``; this module never touches SQL) into a ``Report``: broken links
with every page linking to them, redirect chains followed hop by hop (loops and chains longer
than the crawl follows marked, C4), URLs excluded by robots.txt with the deciding line, URLs
out of scope or caught by a trap guard (C1, C3), noindex and nofollow pages (T5), deferred
origins and URLs with why and until when (O6), slow pages, each origin's robots.txt outcome
(O3-O8), the crawled URLs on which the draft and RFC 9309 semantics disagree (M6), the
sitemap audit (S4, built by ``politecrawl.report.sitemaps``) and the link checks (L1-L4, built
by ``politecrawl.report.checks``); and the crawl itself: its site, when its current pass ran,
and its requests per host over time (bounded, however large the crawl). Sitemaps appear in the
audit only, checks (links leaving the site, resources) in the link checks only, never among
the pages.
Render it with ``politecrawl.report.text`` (``render_text``, ``render_csv``, ``render_json``)
or ``politecrawl.report.html.render_html``. ``render_history`` tells one URL's story for
``politecrawl why``: for a page, the sitemaps that list it; for a sitemap, what reading it
found; for a check, that it is one and how it was asked (L2).
"""

from __future__ import annotations

from politecrawl.config import FetchingSettings
from politecrawl.report.checks import build_link_checks, referrer
from politecrawl.report.crawl_model import CrawlOverview, HostTimeline, Timeline, TimelineMark
from politecrawl.report.exclusions import as_text, robots_exclusion
from politecrawl.report.model import (
    MAX_UNCHECKED_LISTED,
    BrokenLink,
    ChainStep,
    DeferredOrigin,
    DeferredUrl,
    DirectivePage,
    Disagreement,
    PassProgress,
    RedirectChain,
    Report,
    RobotsOutcomeRow,
    ScopeExclusion,
    SlowPage,
    UncheckedUrl,
)
from politecrawl.report.sitemaps import build_sitemap_audit, sitemap_outcome
from politecrawl.report.tables import (
    describe,
    number,
    printable,
    referrer_note,
    when,
    without_spec_ids,
)
from politecrawl.report.use_preferences import build_use_report
from politecrawl.robots import RobotsLimits, Verdict, parse_robots
from politecrawl.store import PAGE, Database
from politecrawl.store.reading import (
    OriginRobots,
    RequestTimeline,
    SitemapEntryRow,
    SitemapRow,
    UrlHistory,
    UrlRow,
    broken_urls,
    carried_broken,
    crawl_span,
    deferred_urls,
    directive_pages,
    origin_robots,
    origin_urls,
    out_of_scope,
    pass_state,
    redirect_rows,
    request_timeline,
    robots_body,
    robots_exclusions,
    rows_by_url,
    sitemap_entries_of,
    slow_pages,
    state_counts,
)
from politecrawl.urls import InvalidURL, canonicalize

__all__ = ["build_report", "redirect_chains", "render_history"]

MAX_REDIRECTS = (
    FetchingSettings().max_redirects
)  # C4: the crawl's default; a longer chain is marked too long


def build_report(
    database: Database,
    *,
    agent: str,
    slow_seconds: float = 2.0,
    max_redirects: int = MAX_REDIRECTS,
    robots_limits: RobotsLimits | None = None,
    purpose: str = "none",
) -> Report:
    """Read the whole report out of ``database``; ``agent`` is the robot name whose robots.txt
    verdicts are compared, under ``robots_limits`` (the crawl's: O8 decides what a cut file
    allows); pages slower than ``slow_seconds`` are listed; ``purpose``: the crawl's (U5)."""
    origins = origin_robots(database)
    outcomes, disagreements = _robots_sections(database, origins, agent, robots_limits)
    progress = _progress(database)
    # L5: while a recrawl pass is unfinished, what earlier passes found on the URLs it has not
    # settled yet stands (marked with their pass): its queued URLs hold no verdict of their own.
    carry = progress.number > 1 and bool(progress.queued or progress.leased or progress.deferred)
    return Report(
        agent=agent,
        database=database.target,
        slow_seconds=slow_seconds,
        totals=state_counts(database),
        broken_links=_broken_links(database, carry=carry),
        redirect_chains=redirect_chains(database, max_redirects=max_redirects),
        robots_excluded=tuple(map(robots_exclusion, robots_exclusions(database))),
        out_of_scope=tuple(
            ScopeExclusion(
                row.url, row.reason or "scope", as_text(row.detail.get("rule")), row.discovered_from
            )
            for row in out_of_scope(database)
        ),
        directive_pages=tuple(
            DirectivePage(row.url, row.status, bool(row.noindex), bool(row.nofollow))
            for row in directive_pages(database)
        ),
        deferred_origins=tuple(
            DeferredOrigin(o.origin, o.reason or "", o.failures, o.retry_at, o.status, o.url_count)
            for o in origins
            if o.outcome == "deferred"
        ),
        deferred_urls=tuple(
            DeferredUrl(
                row.url, row.reason or "", row.next_attempt_at, row.detail, row.attempts, row.error
            )
            for row in deferred_urls(database)
        ),
        slow_pages=tuple(
            SlowPage(row.url, row.elapsed_seconds or 0.0, row.status, row.size_bytes)
            for row in slow_pages(database, min_seconds=slow_seconds)
        ),
        robots_outcomes=outcomes,
        disagreements=disagreements,
        sitemaps=build_sitemap_audit(database),
        use_preferences=build_use_report(database, purpose=purpose),
        checks=build_link_checks(database, max_redirects=max_redirects, carry=carry),
        progress=progress,
        overview=_overview(database),
        timeline=_timeline(request_timeline(database)),
    )


def _overview(database: Database) -> CrawlOverview:
    span = crawl_span(database)
    return CrawlOverview(
        span.seed_origins, span.runs, span.started_at, span.ended_at, span.run_seconds
    )


def _timeline(found: RequestTimeline) -> Timeline:
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


def _progress(database: Database) -> PassProgress:
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


def _broken_links(database: Database, *, carry: bool) -> tuple[BrokenLink, ...]:
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


def _robots_sections(
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


def render_history(
    history: UrlHistory, *, agent: str | None = None, robots_limits: RobotsLimits | None = None
) -> str:
    """One URL's story for ``politecrawl why``: its state and the reason as recorded, who
    links to it, its origin's robots.txt, and (with ``agent``) what that robots.txt says of it
    now in both semantics, read under ``robots_limits`` (the crawl's, O8); the sitemaps listing
    it, each with the entry's line and lastmod; for a sitemap, that it is one and what reading
    it found (S4)."""
    row = history.row
    facts: list[tuple[str, str]] = []
    if history.sitemap is not None:
        facts += _sitemap_facts(history.sitemap)
    if row.kind == "check":
        facts.append(("kind", "check (a link leaving the site or a resource: status only)"))
    facts += [
        ("state", row.state + (f" ({row.reason})" if row.reason else "")),
        ("checked with", row.check_method or ""),
        ("detail", without_spec_ids(describe(row.detail))),
        ("status", number(row.status)),
        ("redirects to", row.final_url or ""),
        ("error", row.error or ""),
        ("attempts", str(row.attempts)),
        ("fetched at", when(row.fetched_at)),
        ("next attempt", when(row.next_attempt_at, "next run" if row.state == "deferred" else "")),
        ("noindex/nofollow", _flags(row)),
        ("depth", str(row.depth)),
        ("found on", "" if history.sitemap else row.discovered_from or "(a seed)"),
        ("canonical", row.canonical_url or ""),
        ("discovered at", when(row.discovered_at)),
    ]
    origin = history.origin
    if origin is not None:
        outcome = origin.outcome or "not fetched yet"
        said = f"; {origin.reason}" if origin.reason else ""
        facts.append(
            ("robots.txt", f"{origin.origin}/robots.txt: {outcome}{without_spec_ids(said)}")
        )
        if agent is not None and origin.body is not None and origin.outcome == "parsed":
            policy = parse_robots(origin.body, limits=robots_limits)
            for semantics in ("draft", "rfc9309", "strict"):
                verdict = policy.explain(agent, row.url, semantics=semantics)
                facts.append((f"{semantics} now", without_spec_ids(_verdict_now(verdict))))
    width = max(len(label) for label, _ in facts)
    out = [printable(row.url)]
    out += [f"  {label.ljust(width)}  {printable(value)}" for label, value in facts if value]
    out.append(f"  linked from ({len(history.referrers)}):")
    notes = [referrer_note(referrer(ref)) for ref in history.referrers]
    out += [
        f"    {printable(ref.url)}" + (f" ({printable(note)})" if note else "")
        for ref, note in zip(history.referrers, notes, strict=True)
    ] or ["    nobody"]
    if history.listings:
        out.append(f"  listed in sitemaps ({len(history.listings)}):")
        out += [f"    {printable(_listed_at(item))}" for item in history.listings]
    return "\n".join(out) + "\n"


def _sitemap_facts(item: SitemapRow) -> list[tuple[str, str]]:
    """What ``why`` says first of a sitemap: that it is one, who named it, what reading found."""
    outcome, reason = sitemap_outcome(item)
    named = {"robots": "named by robots.txt", "guess": "guessed", "index": "listed by an index"}
    kind = "sitemap (read for the URLs it lists, not a page)"
    if item.source:
        kind += f"; {named.get(item.source, item.source)}"
    if item.source == "robots" and item.for_origin:
        kind += f": {item.for_origin}/robots.txt"
    elif item.source == "index" and item.row.discovered_from:
        kind += f": {item.row.discovered_from}"
    read = [outcome + (f": {reason}" if reason else "")]
    if item.format is not None:
        read.append(item.format)
    if item.entries is not None:
        read.append(f"{item.entries} entries")
    if item.truncated:
        read.append("truncated")
    if item.other_origins:
        read.append(f"{item.other_origins} entries of other origins ignored")
    facts = [("kind", kind), ("sitemap", ", ".join(read))]
    facts += [("problem", problem) for problem in item.problems]
    return facts


def _listed_at(item: SitemapEntryRow) -> str:
    """A sitemap listing a URL: ``sitemap (line N, lastmod ...)``."""
    where = [f"line {item.line}"] if item.line is not None else []
    if item.lastmod is not None:
        where.append(f"lastmod {when(item.lastmod)}")
    elif item.lastmod_text is not None:
        where.append(f"lastmod {item.lastmod_text!r} (malformed)")
    return item.sitemap + (f" ({', '.join(where)})" if where else "")


def _verdict_now(verdict: Verdict) -> str:
    if verdict.semantics != "strict":
        return verdict.describe()
    if verdict.allowed:
        return "fetched: both readings allow it"
    return f"not fetched: forbidden by {' and '.join(verdict.forbidden_by)}"


def _flags(row: UrlRow) -> str:
    return " ".join(
        name for name, on in (("noindex", row.noindex), ("nofollow", row.nofollow)) if on
    )
