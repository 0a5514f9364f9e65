"""robots.txt in a URL's slot, the sitemaps it names, and a URL it forbids [O2-O7, S1, M7].

When the gate finds an origin's robots.txt unread (or due again), the URL leased on it gives
its slot to robots.txt (``RobotsVisits.fetch``); the URL itself waits for the host's next slot.
An in-scope origin whose robots.txt was read has its sitemaps queued (its Sitemap lines, else
/sitemap.xml when guessing is on). ``exclude`` describes a URL robots.txt forbids: which line,
under which semantics, and (strict, M7) which reading forbade it.

A link leaving the site whose host name does not resolve (the resolver says it does not exist:
``fetch.HostNotFoundError``, on robots.txt's own request) is broken at once, a finding of the
check (L1): not deferred and retried as a crawled origin's robots.txt is (O6), which would keep
the link unreported and the check waiting. ``host_not_found`` records it, and every later link to
that host while its robots.txt outcome stands: none of them makes a request.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from politecrawl.crawl.visit_result import CheckVisit, Ended, RobotsVisit
from politecrawl.fetch import host_not_found_in
from politecrawl.politeness import next_start_after
from politecrawl.results import Excluded
from politecrawl.scope import Scope, check_scope
from politecrawl.sitemaps import SitemapSeed, robots_sitemaps
from politecrawl.store import CHECK, Frontier, Lease, ends

if TYPE_CHECKING:
    from collections.abc import Iterable
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.config import PolitenessSettings, SitemapSettings
    from politecrawl.gate import Gate, GateVerdict
    from politecrawl.robots import SemanticsName
    from politecrawl.robots.outcome import RobotsOutcome


class RobotsVisits:
    """robots.txt fetches in a lease's slot; shared by a crawl's worker threads."""

    def __init__(
        self,
        gate: Gate,
        *,
        frontier: Frontier,
        scope: Scope,
        clock: Clock,
        politeness: PolitenessSettings,
        sitemaps: SitemapSettings,
        semantics: SemanticsName,
    ) -> None:
        self.gate = gate
        self.frontier = frontier
        self.scope = scope
        self.clock = clock
        self.politeness = politeness
        self.sitemaps = sitemaps
        self.semantics = semantics

    def fetch(self, lease: Lease, *, of_site: bool) -> RobotsVisit | CheckVisit:
        """robots.txt of the lease's origin, in the lease's slot; ``of_site``: the origin is in
        the crawl's scope, so its sitemaps are read too (S1), unlike a checked link's."""
        fetched = self.gate.fetch_robots(lease.origin)
        outcome = fetched.outcome
        finished = self.clock.now()
        next_at = next_start_after(
            finished,
            delay_seconds=self.politeness.delay_seconds,
            robots_delay=self.gate.robots_delay(lease.origin),
            cut_short=fetched.cut_short,
        )
        if outcome.kind == "deferred" and not of_site:
            found = self.host_not_found(lease, outcome.reason, next_fetch_at=next_at)
            if found is not None:
                return replace(found, robots_fetched=True)
        if outcome.kind == "deferred":
            detail = {"robots": outcome.reason}
            until = outcome.retry_at
            end: ends.LeaseEnd = ends.Deferred(
                lease,
                until=until,
                reason="robots-deferred",
                detail=detail,
                next_fetch_at=next_at,
                origin_deferred=ends.OriginDeferral(lease.origin, until, "robots-deferred", detail),
            )
        else:
            # The robots.txt request used this slot; the URL waits for the host's next one.
            sitemaps = self._sitemaps_of(lease.origin, outcome) if of_site else []
            end = ends.Released(lease, next_fetch_at=next_at, sitemaps=tuple(sitemaps))
        return RobotsVisit(end)

    def host_not_found(
        self, lease: Lease, robots_reason: str, *, next_fetch_at: datetime | None = None
    ) -> CheckVisit | None:
        """L1: the check ``lease`` broken at once, when its origin's robots.txt outcome
        (``robots_reason``) says that its host name does not resolve; else None. The lease's
        origin is not the site's (a crawled origin's robots.txt is deferred, O6).
        ``next_fetch_at``: the host's next start after robots.txt's request; None, no request
        was made (the outcome was known): the host gets its slot back."""
        error = host_not_found_in(robots_reason, lease.origin + "/robots.txt")
        if error is None:
            return None
        end = ends.Failed(
            lease,
            error,
            at=self.clock.now(),
            next_fetch_at=lease.claimed_at if next_fetch_at is None else next_fetch_at,
            kind=CHECK,
        )
        return CheckVisit(end, broken=True)

    def queue_missed_sitemaps(self, origins: Iterable[str]) -> int:
        """S1 for origins whose robots.txt was read without their sitemaps being queued (the
        crawl was killed between the two writes): queue them now; how many origins."""
        found: list[SitemapSeed] = []
        count = 0
        for origin in origins:
            if not check_scope(origin + "/", 0, self.scope).allowed:
                continue
            outcome = self.gate.outcome(origin)
            if outcome is not None:
                found += self._sitemaps_of(origin, outcome)
                count += 1
        if found:
            self.frontier.add_sitemaps(found, now=self.clock.now())
        return count

    def _sitemaps_of(self, origin: str, outcome: RobotsOutcome) -> list[SitemapSeed]:
        """S1: the sitemaps of an origin whose robots.txt was just read (its Sitemap lines,
        else /sitemap.xml), when the origin may be crawled at all."""
        if not self.sitemaps.sitemaps or outcome.kind not in ("parsed", "allow_all"):
            return []  # the whole origin disallowed (401/403): nothing to read
        policy = self.gate.policy(origin)
        return robots_sitemaps(
            origin,
            policy.sitemaps if policy is not None else (),
            guess=self.sitemaps.sitemap_guess,
            limit=self.sitemaps.max_sitemaps_per_origin,
        )

    def exclude(self, lease: Lease, gate: GateVerdict, *, becomes: str | None = None) -> Ended:
        """robots.txt forbids the lease's URL: excluded, with the deciding line, the semantics
        and (strict, M7) which reading forbade it; ``becomes``: the URL's new kind (L1)."""
        detail: dict[str, object] = {
            "origin": lease.origin,
            "semantics": self.semantics,
            "why": gate.reason,
        }
        if gate.verdict is not None:
            # M7: under strict, which reading forbade (the draft, RFC 9309, or both)
            detail["forbidden_by"] = list(gate.verdict.forbidden_by)
            if gate.verdict.rule is not None:
                detail["line"] = gate.verdict.rule.line_number
                detail["text"] = gate.verdict.rule.line
        if gate.status is not None:
            detail["robots_status"] = gate.status
        return Ended(
            ends.Excluded(lease, state="excluded", reason="robots", detail=detail, kind=becomes),
            Excluded(lease.url, "excluded", "robots", detail),
        )
