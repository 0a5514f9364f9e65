"""A crawler's checks to its verdict: the faults, in words a site owner reads [G3].

=========================================  ==================================================
``ignores robots.txt``                     it fetched URLs its own group forbids (RFC 9309's
                                           reading, or both readings)
``fetches what the draft's letter forbids``  only the 1996 draft's reading forbids them
``skips robots.txt``                       it never fetched robots.txt of an origin it crawled
``reads robots.txt late``                  it fetched other URLs of an origin before its
                                           robots.txt (O2)
``too fast``                               gaps shorter than its Crawl-delay, or more requests
                                           than its Request-rate allows
``ignores 429/503``                        requests sooner than a Retry-After or back-off (P3)
``several requests at once``               requests in flight at the same time (P1)
``obeys``                                  none of these
=========================================  ==================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from politecrawl.audit.formats import to_datetime
from politecrawl.audit.results import CrawlerAudit, ForbiddenUrl, RobotsReads

if TYPE_CHECKING:
    from politecrawl.audit.checks import CrawlerChecks
    from politecrawl.audit.timeline import Timeline

OBEYS = "obeys"
NOT_JUDGED = "browser: not judged (people are not bound by robots.txt)"


def faults_of(checks: CrawlerChecks) -> tuple[str, ...]:
    """The faults a crawler's checks found, most serious first."""
    faults = []
    if checks.forbidden_requests > checks.forbidden_draft_only:
        faults.append("ignores robots.txt")
    elif checks.forbidden_requests:
        faults.append("fetches what the draft's letter forbids")
    crawled = [pace for pace in checks.origins.values() if pace.before_robots or pace.last_start]
    if any(pace.robots_fetches == 0 for pace in crawled):
        faults.append("skips robots.txt")
    elif any(pace.before_robots for pace in crawled):
        faults.append("reads robots.txt late")
    if checks.counts["gap"] or checks.counts["rate"]:
        faults.append("too fast")
    if checks.counts["retry"]:
        faults.append("ignores 429/503")
    if checks.counts["in_flight"]:
        faults.append("several requests at once")
    return tuple(faults)


def crawler_audit(checks: CrawlerChecks, timeline: Timeline) -> CrawlerAudit:
    """The plain-value result of one crawler's checks."""
    faults = faults_of(checks) if checks.judged else ()
    verdict = ("; ".join(faults) or OBEYS) if checks.judged else NOT_JUDGED
    counts, forbidden_counts = timeline.series(checks.name)
    forbidden = tuple(
        ForbiddenUrl(
            entry.url.origin,
            entry.url.target,
            entry.requests,
            entry.url.first_at,
            entry.url.first_status,
            entry.url.forbidden_by,
            entry.url.deciding,
            entry.url.robots,
        )
        for entry in sorted(checks.forbidden.values(), key=lambda entry: -entry.requests)
    )
    robots = tuple(
        RobotsReads(
            origin,
            pace.robots_fetches,
            None if pace.robots_at is None else to_datetime(pace.robots_at),
            pace.before_robots,
        )
        for origin, pace in sorted(checks.origins.items())
    )
    agents = tuple(sorted(checks.agents.items(), key=lambda item: (-item[1], item[0])))
    incidents = tuple(sample for samples in checks.incidents.values() for sample in samples)
    return CrawlerAudit(
        name=checks.name,
        judged=checks.judged,
        verdict=verdict,
        faults=faults,
        requests=checks.requests,
        user_agents=agents,
        first_at=to_datetime(checks.first),
        last_at=to_datetime(checks.last),
        robots=robots,
        forbidden_requests=checks.forbidden_requests,
        forbidden_draft_only=checks.forbidden_draft_only,
        forbidden=forbidden,
        crawl_delay_seconds=checks.crawl_delay,
        request_rate=checks.request_rate,
        short_gaps=checks.counts["gap"],
        rate_breaches=checks.counts["rate"],
        early_retries=checks.counts["retry"],
        in_flight_overlaps=checks.counts["in_flight"],
        max_in_flight=checks.max_in_flight,
        incidents=incidents,
        timeline=counts,
        forbidden_timeline=forbidden_counts,
    )


def report_order(audit: CrawlerAudit) -> tuple[int, int, str]:
    """Crawlers with faults first, then those that obey, then browsers; busiest first."""
    rank = 2 if not audit.judged else (0 if audit.faults else 1)
    return rank, -audit.requests, audit.name
