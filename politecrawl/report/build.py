"""The maintenance report and ``why``: a crawl database read back for people [C4, O3-O6, M6, T5].

``build_report(database, agent=...)`` reads the crawl database (through
``politecrawl.store.reading``; this module never touches SQL) into a ``Report``: broken links
with every page linking to them, redirect chains followed hop by hop (loops and chains longer
than the crawl follows marked, C4), URLs excluded by robots.txt with the deciding line, URLs
out of scope or caught by a trap guard (C1, C3), noindex and nofollow pages (T5), deferred
origins and URLs with why and until when (O6), slow pages, each origin's robots.txt outcome
(O3-O8), and the crawled URLs on which the draft and RFC 9309 semantics disagree (M6).
Render it with ``politecrawl.report.text`` (``render_text``, ``render_csv``, ``render_json``)
or ``politecrawl.report.html.render_html``. ``render_history`` tells one URL's story for
``politecrawl why``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from politecrawl.report.model import (
    BrokenLink,
    ChainStep,
    DeferredOrigin,
    DeferredUrl,
    DirectivePage,
    Disagreement,
    RedirectChain,
    Referrer,
    Report,
    RobotsExclusion,
    RobotsOutcomeRow,
    ScopeExclusion,
    SlowPage,
)
from politecrawl.report.tables import describe, number, printable, when, without_spec_ids
from politecrawl.robots import Verdict, parse_robots
from politecrawl.store import Database, reading
from politecrawl.store.reading_types import OriginRobots, UrlHistory, UrlRow
from politecrawl.urls import InvalidURL, canonicalize

__all__ = ["build_report", "redirect_chains", "render_history"]

MAX_REDIRECTS = 10  # C4: the crawl's default; a longer chain is marked too long


def build_report(
    database: Database,
    *,
    agent: str,
    slow_seconds: float = 2.0,
    max_redirects: int = MAX_REDIRECTS,
) -> Report:
    """Read the whole report out of ``database``; ``agent`` is the robot name whose robots.txt
    verdicts are compared; pages slower than ``slow_seconds`` are listed."""
    origins = reading.origins(database)
    outcomes, disagreements = _robots_sections(database, origins, agent)
    return Report(
        agent=agent,
        database=database.target,
        slow_seconds=slow_seconds,
        totals=reading.state_counts(database),
        broken_links=tuple(
            BrokenLink(
                item.row.url,
                item.row.status,
                item.row.state,
                item.row.error,
                tuple(Referrer(ref.url, ref.nofollow) for ref in item.referrers),
            )
            for item in reading.broken_urls(database)
        ),
        redirect_chains=redirect_chains(database, max_redirects=max_redirects),
        robots_excluded=tuple(map(_robots_exclusion, reading.robots_exclusions(database))),
        out_of_scope=tuple(
            ScopeExclusion(
                row.url, row.reason or "scope", _text(row.detail.get("rule")), row.discovered_from
            )
            for row in reading.out_of_scope(database)
        ),
        directive_pages=tuple(
            DirectivePage(row.url, row.status, bool(row.noindex), bool(row.nofollow))
            for row in reading.directive_pages(database)
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
            for row in reading.deferred_urls(database)
        ),
        slow_pages=tuple(
            SlowPage(row.url, row.elapsed_seconds or 0.0, row.status, row.size_bytes)
            for row in reading.slow_pages(database, min_seconds=slow_seconds)
        ),
        robots_outcomes=outcomes,
        disagreements=disagreements,
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _semantics(detail: Mapping[str, Any]) -> str:
    """How the exclusion was read: ``strict: rfc9309`` names the reading that forbade (M7)."""
    semantics = _text(detail.get("semantics")) or "draft"
    forbidden_by = detail.get("forbidden_by")
    if semantics == "strict" and isinstance(forbidden_by, list) and forbidden_by:
        return f"strict: {' + '.join(map(str, forbidden_by))}"
    return semantics


def _robots_exclusion(row: UrlRow) -> RobotsExclusion:
    detail = row.detail
    return RobotsExclusion(
        url=row.url,
        origin=_text(detail.get("origin")) or row.origin,
        semantics=_semantics(detail),
        line=_int(detail.get("line")),
        text=None if detail.get("text") is None else str(detail["text"]),
        why=_text(detail.get("why")),
        robots_status=_int(detail.get("robots_status")),
    )


def redirect_chains(
    database: Database, *, max_redirects: int = MAX_REDIRECTS
) -> tuple[RedirectChain, ...]:
    """Every redirect chain, from a URL no other redirect leads to (or, for a pure loop, its
    first URL), followed through the redirect rows to where it ends; sorted by first URL."""
    redirects = reading.redirect_rows(database)
    by_url = {row.url: row for row in redirects}
    target = {row.url: _canonical(row.final_url or "") for row in redirects}
    ends = reading.rows_by_url(database, {url for url in target.values() if url not in by_url})
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
    database: Database, origins: list[OriginRobots], agent: str
) -> tuple[tuple[RobotsOutcomeRow, ...], tuple[Disagreement, ...]]:
    """Each origin's outcome, and (M6) every fetched or excluded URL of an origin with a
    parsed robots.txt on which the draft and RFC 9309 readings of it disagree."""
    outcomes = []
    disagreements: list[Disagreement] = []
    for origin in origins:
        warnings = 0
        body = reading.robots_body(database, origin.id) if origin.outcome == "parsed" else None
        if body is not None:
            policy = parse_robots(body, semantics="draft")
            other = policy.with_semantics("rfc9309")
            warnings = len(policy.warnings)
            for url in reading.origin_urls(database, origin.id):
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


def render_history(history: UrlHistory, *, agent: str | None = None) -> str:
    """One URL's story for ``politecrawl why``: its state and the reason as recorded, who
    links to it, its origin's robots.txt, and (with ``agent``) what that robots.txt says of it
    now in both semantics."""
    row = history.row
    facts: list[tuple[str, str]] = [
        ("state", row.state + (f" ({row.reason})" if row.reason else "")),
        ("detail", without_spec_ids(describe(row.detail))),
        ("status", number(row.status)),
        ("redirects to", row.final_url or ""),
        ("error", row.error or ""),
        ("attempts", str(row.attempts)),
        ("fetched at", when(row.fetched_at)),
        ("next attempt", when(row.next_attempt_at, "next run" if row.state == "deferred" else "")),
        ("noindex/nofollow", _flags(row)),
        ("depth", str(row.depth)),
        ("found on", row.discovered_from or "(a seed)"),
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
            policy = parse_robots(origin.body)
            for semantics in ("draft", "rfc9309", "strict"):
                verdict = policy.explain(agent, row.url, semantics=semantics)
                facts.append((f"{semantics} now", without_spec_ids(_verdict_now(verdict))))
    width = max(len(label) for label, _ in facts)
    out = [printable(row.url)]
    out += [f"  {label.ljust(width)}  {printable(value)}" for label, value in facts if value]
    out.append(f"  linked from ({len(history.referrers)}):")
    out += [
        f"    {printable(ref.url)}" + (" (nofollow)" if ref.nofollow else "")
        for ref in history.referrers
    ] or ["    nobody"]
    return "\n".join(out) + "\n"


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
