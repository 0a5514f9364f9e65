"""One leased URL, start to finish: scope, gate, fetch one hop, parse, directives, record.

The order of ``Visitor.visit`` is the loop of DESIGN.md: scope (C1, C3) -> a host's first
visit learns its server and gives the lease back (P6, ``addresses``) -> gate (robots.txt
first when needed, O2; deferred or disallowed, O3-O7) -> Crawl-delay cap (P2) -> with a crawl
purpose, what robots.txt and tdmrep.json say of it (U5, ``preferences_visit``) -> one request (a
redirect is recorded and its target queued as a URL of its own, so every hop is checked and
paced like any URL, C4) -> parse once -> META robots and X-Robots-Tag (T1-T4), use preferences
(U2, U6) -> links only if the page may be followed (T5, T6) -> the host's pace (P2, P3:
``politeness.pace_after`` decides it from the host's stored error streak; a failing page gets
its own retry time, ``politeness.url_retry_at``). A visit writes nothing itself: it returns
what the frontier records, the lease's end (``politecrawl.store.ends``: completed for a
response; excluded, deferred, failed, released or kept without one) inside a ``VisitResult`` (a
page, a check, a sitemap, robots.txt first, or the end alone), and the worker records the end
together with its next claim: one transaction a lease, one owner of the writes.

A URL is read as what it is (``response_reading`` turns a response into what is recorded): a
page is parsed; a sitemap (S1, S2) is read for the URLs it lists, and an origin's sitemaps are
queued when its robots.txt is read; a check (L1-L3: a link leaving the site, a page's resource)
is asked for its status with HEAD, or GET when HEAD is refused (``checking``), never parsed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from politecrawl.crawl.addresses import Addresses
from politecrawl.crawl.checking import request_check
from politecrawl.crawl.failures import RETRY_STATUSES, Failures
from politecrawl.crawl.freshness import checked_lately, unchanged_per_sitemap
from politecrawl.crawl.preferences_visit import PreferenceVisits
from politecrawl.crawl.response_reading import (
    PageReader,
    decision_record,
    outcome_of,
    read_sitemap,
    redirect_of,
)
from politecrawl.crawl.robots_visit import RobotsVisits
from politecrawl.crawl.visit_result import (
    SITEMAP_UNCHANGED,
    CheckVisit,
    Ended,
    PageVisit,
    SitemapVisit,
    VisitResult,
)
from politecrawl.errors import FetchError
from politecrawl.politeness import HostPace, pace_after
from politecrawl.results import Excluded
from politecrawl.scope import Scope, ScopeVerdict, check_scope, is_steering_target
from politecrawl.sitemaps import SitemapLimits, SitemapSeed
from politecrawl.store import CHECK, PAGE, SITEMAP, Frontier, HostAddress, Lease, ends
from politecrawl.usage import UsePreferences

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.config import CrawlConfig
    from politecrawl.fetch import Fetcher, FetchResult
    from politecrawl.gate import Gate, OutcomeStore
    from politecrawl.warc import WarcArchive


@dataclass(slots=True)
class _HostPages:
    """Pages fetched per host in this run, for ``max_pages_per_host`` (C1)."""

    counts: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, host: str, limit: int | None) -> bool:
        """Count one more page for ``host``; False when the limit is already reached."""
        with self.lock:
            count = self.counts.get(host, 0)
            if limit is not None and count >= limit:
                return False
            self.counts[host] = count + 1
            return True


class Visitor:
    """Visits leased URLs; shared by the worker threads of a crawl."""

    def __init__(
        self,
        config: CrawlConfig,
        *,
        frontier: Frontier,
        gate: Gate,
        fetcher: Fetcher,
        scope: Scope,
        clock: Clock,
        archive: WarcArchive | None = None,
        tdmrep_outcomes: OutcomeStore | None = None,
    ) -> None:
        """``tdmrep_outcomes``: where tdmrep.json outcomes are kept (U3; the crawl database's
        ``store.TdmRepOutcomeStore``), for a purpose that reads tdmrep.json."""
        self.config = config
        self.frontier = frontier
        self.gate = gate
        self.fetcher = fetcher
        self.scope = scope
        self.clock = clock
        self.archive = archive
        self.politeness = config.politeness
        fetching = config.fetching
        self.failures = Failures(
            self.politeness,
            clock,
            max_retries=fetching.max_retries,
            max_timeout_retries=fetching.max_timeout_retries,
            max_check_retries=config.checking.check_retries,
        )
        self.robots = RobotsVisits(
            gate,
            frontier=frontier,
            scope=scope,
            clock=clock,
            politeness=self.politeness,
            sitemaps=config.sitemaps,
            semantics=config.robots.semantics,
        )
        self.preferences = PreferenceVisits(gate, tdmrep_outcomes, config, clock=clock)
        self.addresses = Addresses(self.politeness, fetcher, clock)  # P6: the host's server
        self.hand_over: Callable[[ends.Answered], bool] | None = None
        """Told when a page's response has been read: True when it freed the host's slot
        for its next request (the worker pool's ``hand_over``), so that the lease's end
        records the URL's row alone."""
        self._pages = _HostPages()
        self.reader = PageReader(config)
        self.sitemap_limits = SitemapLimits(
            max_entries=config.sitemaps.max_sitemap_entries,
            max_bytes=config.sitemaps.max_sitemap_bytes,
        )

    def visit(self, lease: Lease) -> VisitResult:
        """Decide, fetch and describe one URL; everything but a page is recorded here."""
        now = self.clock.now()
        referrer = None
        if (
            lease.referrer_id is not None
            and lease.origin not in self.scope.seed_origins
            and is_steering_target(lease.host)
        ):
            # C1: a link or redirect into a loopback or private address is judged by the page
            # that led to it (a name resolving there is judged at connect time, ``connect``).
            referrer = lease.referrer
        verdict = check_scope(lease.url, lease.depth, self.scope, from_url=referrer)
        becomes: str | None = None  # the URL's new kind: a link leaving the site is checked (L1)
        if not verdict.allowed:
            if not self._checkable(lease, verdict):
                reason = verdict.reason or "scope"
                detail: dict[str, object] = {"rule": verdict.rule}
                return Ended(
                    ends.Excluded(lease, state="out_of_scope", reason=reason, detail=detail),
                    Excluded(lease.url, "out_of_scope", reason, detail),
                )
            if lease.kind != CHECK:
                becomes = CHECK
        elif lease.kind == CHECK and lease.redirect_hops:
            # a checked link that redirects back into the site leads to one of its pages: it is
            # crawled, not just checked, however it was found first
            becomes = PAGE
        is_check = becomes == CHECK or (lease.kind == CHECK and becomes is None)
        if (learnt := self.addresses.before_first_request(lease)) is not None:
            return learnt  # P6: the next claim takes the host's server slot with its own
        gate = self.gate.check(lease.origin, lease.url, now=now)
        if gate.kind == "robots_first":
            return self.robots.fetch(lease, of_site=verdict.allowed)
        if gate.kind == "deferred":
            if not verdict.allowed and (found := self.robots.host_not_found(lease, gate.reason)):
                return found  # L1: a host whose name does not resolve is a finding, at once
            return self._defer(lease, gate.until, "robots-deferred", {"robots": gate.reason})
        if gate.kind == "disallowed":
            return self.robots.exclude(lease, gate, becomes=becomes)
        robots_delay = gate.robots_delay
        if robots_delay > self.config.politeness.max_crawl_delay_seconds:
            cap = self.config.politeness.max_crawl_delay_seconds
            return self._defer(
                lease, None, "crawl-delay-above-cap", {"crawl_delay": robots_delay, "cap": cap}
            )
        if is_check:
            if checked_lately(lease, now, self.config.checking.check_fresh_seconds):
                return Ended(ends.Kept(lease, reason="check-fresh"))
            return self._check(lease, robots_delay, becomes)
        known = self.preferences.before_fetch(lease, gate, becomes)
        if isinstance(known, Ended):
            return known  # U5: refused by robots.txt or tdmrep.json, or tdmrep.json read first
        # A retry's first attempt took its place in the host's budget; the retry may come after
        # the host's fresh pages (P3), when they may have used the rest.
        if (
            lease.kind != SITEMAP
            and lease.attempts == 0
            and not self._pages.take(lease.host, self.config.scope.max_pages_per_host)
        ):
            detail = {
                "rule": f"more than {self.config.scope.max_pages_per_host} pages on this host"
            }
            return Ended(
                ends.Excluded(lease, state="out_of_scope", reason="scope", detail=detail),
                Excluded(lease.url, "out_of_scope", "scope", detail),
            )
        if self.config.sitemaps.sitemap_lastmod == "skip" and unchanged_per_sitemap(lease):
            return Ended(ends.Kept(lease, reason=SITEMAP_UNCHANGED))
        return self._fetch_page(lease, robots_delay, becomes, known)

    def queue_missed_sitemaps(self, origins: Iterable[str]) -> int:
        """S1 for origins whose robots.txt was read without their sitemaps being queued
        (``RobotsVisits.queue_missed_sitemaps``); how many origins."""
        return self.robots.queue_missed_sitemaps(origins)

    def _checkable(self, lease: Lease, verdict: ScopeVerdict) -> bool:
        """L1, L3: a URL out of scope only because it is on another site is checked, never
        crawled, when checking is on for what it is (a link, or a resource)."""
        if not verdict.leaves_site or lease.kind == SITEMAP:
            # the crawl's own rules (patterns, depth, traps, steering) hold; and a sitemap on
            # another site is not read, nor checked: no page links to it (S1)
            return False
        if lease.kind == CHECK:  # a resource, or the redirect target of a check: either flag
            return self.config.checking.check_resources or self.config.checking.check_outbound
        return self.config.checking.check_outbound

    def _defer(
        self, lease: Lease, until: datetime | None, reason: str, detail: dict[str, object]
    ) -> Ended:
        return Ended(
            ends.Deferred(lease, until=until, reason=reason, detail=detail),
            Excluded(lease.url, "deferred", reason, detail),
        )

    # --- pages ------------------------------------------------------------------------------

    def _fetch_page(
        self, lease: Lease, robots_delay: float, becomes: str | None, known: UsePreferences
    ) -> VisitResult:
        """``known``: what robots.txt and tdmrep.json say of the URL (U6)."""
        started = self.clock.now()
        try:
            result = self.fetcher.fetch(
                lease.url,
                etag=lease.etag,
                last_modified=lease.last_modified,
                max_bytes=self.config.sitemaps.max_sitemap_bytes
                if lease.kind == "sitemap"
                else None,
            )
        except FetchError as error:
            return self.failures.no_answer(lease, error, started=started, robots_delay=robots_delay)
        finished = self.clock.now()
        if result.status in RETRY_STATUSES:
            return self.failures.failed_status(
                lease, result, started=started, robots_delay=robots_delay
            )
        address = self.addresses.seen(lease, result)
        pace = self._answered(lease, finished, robots_delay, result)
        # The response is read: the host's next request need not wait for this page to be
        # read and recorded, when a worker is free to make it (``hand_over``).
        freed = self.hand_over is not None and self.hand_over(ends.Answered(lease, pace, address))
        if lease.kind == "sitemap":
            visited: PageVisit | SitemapVisit = self._sitemap(lease, result, pace, address)
        else:
            visited = self._page(
                lease, result, finished, pace, address, becomes=becomes, known=known
            )
        end = visited.end
        if not freed:
            return visited
        assert isinstance(end, ends.Completed)  # a response read is recorded as completed
        return replace(visited, end=replace(end, slot_freed=True, address=None))

    def _answered(
        self,
        lease: Lease,
        finished: datetime,
        robots_delay: float,
        result: FetchResult | None,
    ) -> HostPace:
        """The host's pace after a request that was answered (P2, P3: a success ends a
        back-off; ``politeness.pace_after`` decides); ``result`` is ``None`` for a HEAD that
        broke the exchange."""
        return pace_after(
            self.politeness,
            finished_at=finished,
            robots_delay=robots_delay,
            response_seconds=result.elapsed_seconds if result is not None else None,
            error_streak_before=lease.host_error_streak,
            cut_short=result is not None and result.truncated,
        )

    def _page(
        self,
        lease: Lease,
        result: FetchResult,
        finished: datetime,
        pace: HostPace,
        address: HostAddress | None,
        *,
        becomes: str | None,
        known: UsePreferences,
    ) -> PageVisit:
        reading = self.reader.read(lease, result, finished, becomes=becomes, known=known)
        if self.archive is not None and result.archived_as is not None:
            # what the crawl made of the page, beside its response record
            self.archive.record_metadata(
                lease.url, result.archived_as, decision_record(lease, reading)
            )
        completion = self._completion(
            lease,
            pace,
            address,
            reading.outcome,
            links=reading.links,
            follow_links=reading.follow,
            redirect_to=reading.redirect_to,
        )
        return PageVisit(completion, reading.page)

    def _completion(
        self,
        lease: Lease,
        pace: HostPace,
        address: HostAddress | None,
        outcome: ends.PageOutcome,
        **recorded: Any,
    ) -> ends.Completed:
        """Everything the frontier records of a response in one transaction: its outcome, the
        host's next start and pace (P2, P3), its address when news (P6, ``addresses.seen``),
        and ``recorded`` (links, redirect, listing)."""
        return ends.Completed(
            lease=lease,
            outcome=outcome,
            next_fetch_at=pace.next_start,
            host_pace=pace,
            address=address,
            **recorded,
        )

    def _check(self, lease: Lease, robots_delay: float, becomes: str | None) -> VisitResult:
        """L1-L3: ask for the URL's status (HEAD, GET if refused), never read it as a page;
        a redirect is queued as a check of its own."""
        started = self.clock.now()

        def get_at(finished: datetime, head: FetchResult | None) -> datetime:
            return self._answered(lease, finished, robots_delay, head).next_start

        answer = request_check(self.fetcher, self.clock, lease.url, get_at=get_at)
        if answer.result is None:
            assert answer.error is not None
            return self.failures.no_answer(
                lease,
                answer.error,
                started=started,
                robots_delay=robots_delay,
                check_method=answer.method,
            )
        result = answer.result
        finished = self.clock.now()
        if result.status in RETRY_STATUSES:
            return self.failures.failed_status(
                lease,
                result,
                started=started,
                robots_delay=robots_delay,
                check_method=answer.method,
            )
        pace = self._answered(lease, finished, robots_delay, result)
        redirect_to, too_many = redirect_of(
            result, hops=lease.redirect_hops, max_redirects=self.config.fetching.max_redirects
        )
        outcome = outcome_of(result, too_many, check_method=answer.method, kind=becomes)
        address = self.addresses.seen(lease, result)
        completion = self._completion(lease, pace, address, outcome, redirect_to=redirect_to)
        broken = too_many is not None or result.status >= 400
        return CheckVisit(completion, broken)

    def _sitemap(
        self, lease: Lease, result: FetchResult, pace: HostPace, address: HostAddress | None
    ) -> SitemapVisit:
        """S2: a sitemap is read, not parsed as a page: what it lists is queued with it (a
        listing, not links), and nothing of it is a page for consumers or counters."""
        seed = self.frontier.sitemap_of(lease) or SitemapSeed(lease.url, "robots", lease.origin)
        redirect_to, error = redirect_of(
            result, hops=lease.redirect_hops, max_redirects=self.config.fetching.max_redirects
        )
        completion = self._completion(
            lease,
            pace,
            address,
            outcome_of(result, error),
            redirect_to=redirect_to,
            sitemap=read_sitemap(result, seed, self.config, self.sitemap_limits),
            redirect_sitemap=seed if redirect_to is not None else None,
        )
        return SitemapVisit(completion)
