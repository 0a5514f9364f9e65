"""The maintenance report as values: one frozen dataclass per kind of finding, and ``Report``.

``politecrawl.report.build_report`` fills it from a crawl database; the renderers (text, CSV,
JSON in ``report_text``, HTML in ``report_html``) only read it. Pure: no I/O, no clock.
Times are aware UTC datetimes; every section is a tuple in a stable order (by URL, or as the
section says), so two reports of one database are equal. The sitemap audit (S4) is its own
set of values, in ``sitemap_model``; so are the link checks (L1-L4, and ``Referrer``), in
``check_model``, and the crawl's own span and requests over time, in ``crawl_model``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from politecrawl.report.check_model import LinkChecks, Referrer, RobotsVerdict
from politecrawl.report.crawl_model import CrawlOverview, Timeline
from politecrawl.report.server_model import SharedServer
from politecrawl.report.sitemap_model import SitemapAudit
from politecrawl.report.use_model import UseReport

__all__ = [
    "MAX_UNCHECKED_LISTED",
    "SECTION_TITLES",
    "BrokenLink",
    "ChainStep",
    "DeferredOrigin",
    "DeferredUrl",
    "DirectivePage",
    "Disagreement",
    "PassProgress",
    "RedirectChain",
    "Referrer",
    "Report",
    "RobotsExclusion",
    "RobotsOutcomeRow",
    "ScopeExclusion",
    "SlowPage",
    "UncheckedUrl",
    "broken_count",
    "broken_parts",
    "counted",
]


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """A page (in scope) answered with status >= 400, or that failed, and every page linking
    to it. Links leaving the site and resources that broke are ``LinkChecks.broken``."""

    url: str
    status: int | None
    state: str
    error: str | None
    referrers: tuple[Referrer, ...]
    listed_in: tuple[str, ...] = ()
    """The sitemaps listing it (S4): how a URL no page links to came to be fetched."""
    from_pass: int | None = None
    """None: found by the current pass; else the earlier pass that found it, which the
    current (unfinished) pass has not re-checked yet."""

    @property
    def problem(self) -> str:
        """What went wrong, in a few words."""
        return self.error or (f"HTTP {self.status}" if self.status is not None else self.state)


@dataclass(frozen=True, slots=True)
class ChainStep:
    """One URL of a redirect chain; ``state`` is None when the crawl never recorded the URL."""

    url: str
    status: int | None
    state: str | None

    @property
    def outcome(self) -> str:
        """The status, else the state (a URL not fetched), else ``not crawled``."""
        return str(self.status) if self.status is not None else (self.state or "not crawled")


@dataclass(frozen=True, slots=True)
class RedirectChain:
    """Redirects followed URL by URL (C4): the first step is the URL linked, the last where
    the chain ends (a page, an error, a URL not fetched, or the repeated URL of a loop)."""

    steps: tuple[ChainStep, ...]
    loop: bool
    too_long: bool
    """More redirects than the crawl follows (C4, ``max_redirects``)."""

    @property
    def hops(self) -> int:
        """The number of redirects."""
        return len(self.steps) - 1

    @property
    def problem(self) -> str:
        """ "" for a healthy chain, else what is wrong with it."""
        problems = []
        if self.loop:
            problems.append("redirect loop")
        if self.too_long:
            problems.append(f"too long ({self.hops} redirects)")
        last = self.steps[-1]
        if not self.loop and last.status is not None and last.status >= 400:
            problems.append(f"ends in HTTP {last.status}")
        elif not self.loop and last.state == "failed":
            problems.append("ends in a failure")
        return "; ".join(problems)


@dataclass(frozen=True, slots=True)
class RobotsExclusion(RobotsVerdict):
    """A URL robots.txt kept the crawl from (O3-O5, M1), with the line that decided."""

    robots_status: int | None


@dataclass(frozen=True, slots=True)
class ScopeExclusion:
    """A URL refused by a scope rule, a trap guard or the anti-steering guard (C1, C3)."""

    url: str
    reason: str
    """scope, trap or steering."""
    rule: str
    found_on: str | None


@dataclass(frozen=True, slots=True)
class DirectivePage:
    """A fetched page with noindex or nofollow (META robots or X-Robots-Tag, T1-T5)."""

    url: str
    status: int | None
    noindex: bool
    nofollow: bool


@dataclass(frozen=True, slots=True)
class DeferredOrigin:
    """An origin whose robots.txt could not be had: all its URLs wait (O6)."""

    origin: str
    reason: str
    failures: int
    retry_at: datetime | None
    """None: its attempts are used up for this run; a resumed run tries again (O6)."""
    robots_status: int | None
    urls: int


@dataclass(frozen=True, slots=True)
class DeferredUrl:
    """A URL put aside until a time (robots.txt unreachable, Retry-After, back-off, a
    Crawl-delay above the cap: O6, P2, P3)."""

    url: str
    reason: str
    until: datetime | None
    """None: not in this run; a resumed run takes it up again."""
    detail: Mapping[str, Any]
    attempts: int
    error: str | None


@dataclass(frozen=True, slots=True)
class SlowPage:
    """A fetched URL that took longer than the report's threshold."""

    url: str
    elapsed_seconds: float
    status: int | None
    size_bytes: int | None


@dataclass(frozen=True, slots=True)
class RobotsOutcomeRow:
    """An origin's robots.txt as the crawl last knew it (O3-O8, E1-E4)."""

    origin: str
    outcome: str | None
    """parsed, allow_all, disallow_all, deferred; None: never fetched."""
    status: int | None
    reason: str
    fetched_at: datetime | None
    expires_at: datetime | None
    body_bytes: int | None
    warnings: int
    """Lines the parser ignored or read leniently (F3, O8)."""
    urls: int


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A crawled URL on which the draft and RFC 9309 semantics decide differently (M6)."""

    url: str
    origin: str
    draft_allowed: bool
    draft_line: int | None
    draft_text: str
    """The deciding line, or why no line decided."""
    rfc9309_allowed: bool
    rfc9309_line: int | None
    rfc9309_text: str


@dataclass(frozen=True, slots=True)
class UncheckedUrl:
    """A page or a check the current pass has not settled: queued, leased or deferred."""

    url: str
    origin: str
    state: str
    reason: str
    """Why it waits (``robots-deferred``, ``retry``, ...); "" when it is just queued."""


@dataclass(frozen=True, slots=True)
class PassProgress:
    """How far the crawl's current pass got (L5). Complete: nothing queued, in flight or
    deferred, no ``max_pages_per_host`` limit hit, and every seed origin's robots.txt known
    and letting its seed in. A report of an incomplete pass says so, and ``politecrawl
    check`` does not pass it."""

    number: int = 1
    queued: int = 0
    leased: int = 0
    deferred: int = 0
    limited: int = 0
    """Pages a ``max_pages_per_host`` limit left out."""
    seeds_refused: int = 0
    """Seeds robots.txt forbids (nothing behind them crawled)."""
    robots_unknown: tuple[str, ...] = ()
    """Seed origins whose robots.txt is not known yet (not fetched, or deferred: O6)."""
    last_outcome: str | None = None
    """How the last run ended (finished, max_pages, interrupted, ...); "": it has not ended
    (under way, or killed); None: no run recorded."""
    unchecked: tuple[UncheckedUrl, ...] = ()
    """Pages and checks still waiting, by URL (the first ``MAX_UNCHECKED_LISTED``)."""
    unchecked_total: int = 0

    @property
    def complete(self) -> bool:
        """Nothing of the pass is left to do, and nothing was left out."""
        return not self.incomplete_because

    @property
    def incomplete_because(self) -> tuple[str, ...]:
        """What keeps the pass from being complete, in a few words each (empty: complete)."""
        reasons = [
            counted(count, one, many)
            for count, one, many in (
                (self.queued, "URL queued", "URLs queued"),
                (self.leased, "URL in flight", "URLs in flight"),
                (self.deferred, "URL deferred", "URLs deferred"),
                (self.limited, "page over max_pages_per_host", "pages over max_pages_per_host"),
                (self.seeds_refused, "seed robots.txt forbids", "seeds robots.txt forbids"),
            )
            if count
        ]
        reasons += [f"robots.txt of {origin} not known" for origin in self.robots_unknown]
        return tuple(reasons)


MAX_UNCHECKED_LISTED = 10_000
"""Waiting pages and checks a report names one by one (JUnit's skipped cases); it counts all."""


SECTION_TITLES: Mapping[str, str] = {
    "broken_links": "Broken links",
    "redirect_chains": "Redirect chains",
    "robots_excluded": "Excluded by robots.txt",
    "out_of_scope": "Out of scope and traps",
    "directive_pages": "noindex and nofollow pages",
    "deferred_origins": "Deferred origins",
    "deferred_urls": "Deferred URLs",
    "slow_pages": "Slow pages",
    "robots_outcomes": "robots.txt per origin",
    "disagreements": "Draft and RFC 9309 disagree",
}
"""Every section of a report, in the order reports show them."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a crawl found, section by section (``SECTION_TITLES`` names them)."""

    agent: str
    database: str
    slow_seconds: float
    totals: Mapping[str, int]
    """URLs per state (every state, zero included)."""
    broken_links: tuple[BrokenLink, ...]
    redirect_chains: tuple[RedirectChain, ...]
    robots_excluded: tuple[RobotsExclusion, ...]
    out_of_scope: tuple[ScopeExclusion, ...]
    directive_pages: tuple[DirectivePage, ...]
    deferred_origins: tuple[DeferredOrigin, ...]
    deferred_urls: tuple[DeferredUrl, ...]
    slow_pages: tuple[SlowPage, ...]
    robots_outcomes: tuple[RobotsOutcomeRow, ...]
    disagreements: tuple[Disagreement, ...]
    sitemaps: SitemapAudit = field(default_factory=SitemapAudit)
    """The sitemap audit (S4): not a section of ``SECTION_TITLES``, but sections of its own."""
    checks: LinkChecks = field(default_factory=LinkChecks)
    """The link checks (L1-L4): sections of their own too."""
    progress: PassProgress = field(default_factory=PassProgress)
    """How far the current pass got (L5): findings marked ``from_pass`` are an earlier
    pass's, on URLs this pass has not re-checked yet."""
    overview: CrawlOverview = field(default_factory=CrawlOverview)
    """The site and when the current pass ran: what a report says first."""
    timeline: Timeline = field(default_factory=Timeline)
    """The current pass's requests per host over time (the HTML report's picture)."""
    use_preferences: UseReport = field(default_factory=UseReport)
    """What each origin says of search, ai-input and ai-train (U6): sections of its own."""
    shared_servers: tuple[SharedServer, ...] = ()
    """The servers that served more than one host name (P6): a section of its own."""

    def section(self, key: str) -> tuple[Any, ...]:
        """The findings of the section called ``key`` (a key of ``SECTION_TITLES``)."""
        if key not in SECTION_TITLES:
            raise KeyError(key)
        found: tuple[Any, ...] = getattr(self, key)
        return found

    @property
    def counts(self) -> dict[str, int]:
        """Findings per section."""
        return {key: len(self.section(key)) for key in SECTION_TITLES}

    @property
    def total_urls(self) -> int:
        """Every URL the crawl knows."""
        return sum(self.totals.values())

    @property
    def carried_count(self) -> int:
        """Findings of an earlier pass that this (unfinished) pass has not re-checked yet."""
        passes = [item.from_pass for item in self.broken_links]
        passes += [item.from_pass for item in self.checks.broken]
        passes += [item.from_pass for item in self.checks.missing_fragments]
        return sum(1 for number in passes if number is not None)


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``1 page``, ``2 pages``: ``count`` and the noun it takes (``plural`` when it is not the
    singular with an s: ``URL queued``, ``URLs queued``)."""
    if count == 1:
        return f"1 {singular}"
    return f"{count} {plural or singular + 's'}"


def broken_count(report: Report) -> int:
    """The findings that make ``politecrawl check`` (and ``run``) exit 1 (L5): broken pages,
    broken links leaving the site and resources, and missing fragments."""
    return (
        len(report.broken_links) + len(report.checks.broken) + len(report.checks.missing_fragments)
    )


def broken_parts(report: Report) -> tuple[str, ...]:
    """``broken_count`` by kind, in words: ``3 broken pages``, ``1 broken outbound link or
    resource``, ``2 missing fragments`` (kinds with none left out)."""
    checks = report.checks
    kinds = (
        (len(report.broken_links), "broken page", "broken pages"),
        (
            len(checks.broken),
            "broken outbound link or resource",
            "broken outbound links and resources",
        ),
        (len(checks.missing_fragments), "missing fragment", "missing fragments"),
    )
    return tuple(counted(count, one, many) for count, one, many in kinds if count)
