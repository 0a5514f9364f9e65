"""One crawler's requests, checked one by one against its robots.txt group and pace [G3].

Pure: requests come in as ``LogRecord`` values with the rules of the robots.txt version in force
(``CrawlerRules``); nothing here reads a file or a clock. State is bounded per crawler and
origin: the last start (Crawl-delay), the last n starts of a ``Request-rate: n/s`` (n capped),
the ends of a few recent requests (requests in flight), the pending 429/503; forbidden URLs are
counted with the first ``MAX_FORBIDDEN_URLS`` kept as evidence, incidents sampled.

A log's times are often to the second: a gap is called short only when it is short by more than
the time's resolution (a measured 9 s under a 10 s Crawl-delay, to the second, was at most 9.99
s; a measured 10 s may have been 9.01 s and is not held against the crawler). When in doubt,
the audit accuses less.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from politecrawl.audit.formats import to_datetime
from politecrawl.audit.results import ForbiddenUrl, Incident, IncidentKind

if TYPE_CHECKING:
    from politecrawl.audit.records import LogRecord
    from politecrawl.audit.versions import CrawlerRules

MAX_FORBIDDEN_URLS = 100
MAX_INCIDENTS_PER_KIND = 5
MAX_USER_AGENTS = 10
_MAX_RATE_WINDOW = 1000
_MAX_IN_FLIGHT_WINDOW = 16
_TROUBLE = frozenset((429, 503))
BACKOFF_BASE_SECONDS = 1.0
"""After a 429/503 with no Retry-After known, the least wait called sensible: 1 s, doubling
with each further 429/503 in a row (P3), up to ``_MAX_BACKOFF_SECONDS``."""
_MAX_BACKOFF_SECONDS = 300.0
_ROBOTS_TXT = ("/robots.txt", "/robots.txt?")


def is_robots_txt(target: str) -> bool:
    """Is this request robots.txt itself (always allowed, O2; never held against a pace)."""
    return target in _ROBOTS_TXT


class OriginPace:
    """One crawler's requests to one origin: robots.txt first, gaps, rate, 429s, in flight."""

    __slots__ = (
        "before_robots",
        "ends",
        "last_start",
        "robots_at",
        "robots_fetches",
        "starts",
        "trouble_at",
        "trouble_streak",
        "trouble_wait",
    )

    def __init__(self) -> None:
        self.robots_at: float | None = None
        self.robots_fetches = 0
        self.before_robots = 0
        self.last_start: float | None = None
        self.starts: deque[float] = deque()
        self.ends: deque[float] = deque(maxlen=_MAX_IN_FLIGHT_WINDOW)
        self.trouble_at: float | None = None
        self.trouble_wait = 0.0
        self.trouble_streak = 0


class ForbiddenCount:
    """A forbidden URL's evidence (its first request) and how often it was fetched."""

    __slots__ = ("requests", "url")

    def __init__(self, url: ForbiddenUrl) -> None:
        self.url = url
        self.requests = 1


class CrawlerChecks:
    """Everything the audit keeps about one crawler while the log streams by."""

    def __init__(self, name: str, *, judged: bool, retry_after_seconds: float | None) -> None:
        self.name = name
        self.judged = judged
        self.retry_after_seconds = retry_after_seconds
        self.requests = 0
        self.agents: dict[str, int] = {}
        self.first = float("inf")
        self.last = float("-inf")
        self.origins: dict[str, OriginPace] = {}
        self.forbidden: dict[tuple[str, str], ForbiddenCount] = {}
        self.forbidden_requests = 0
        self.forbidden_draft_only = 0
        self.counts: dict[IncidentKind, int] = {"gap": 0, "rate": 0, "retry": 0, "in_flight": 0}
        self.incidents: dict[IncidentKind, list[Incident]] = {kind: [] for kind in self.counts}
        self.max_in_flight = 1
        self.crawl_delay: float | None = None
        self.request_rate: str | None = None
        self._rules: CrawlerRules | None = None
        self.rules: dict[int, CrawlerRules] = {}
        """Its rules under each robots.txt version, by the version's index."""

    def count_agent(self, user_agent: str) -> None:
        """Keep the full User-Agent string (the first ``MAX_USER_AGENTS`` distinct ones)."""
        if user_agent in self.agents:
            self.agents[user_agent] += 1
        elif len(self.agents) < MAX_USER_AGENTS:
            self.agents[user_agent] = 1
        else:
            self.agents["(others)"] = self.agents.get("(others)", 0) + 1

    def check(
        self, record: LogRecord, target: str, origin: str, rules: CrawlerRules, start: float
    ) -> bool:
        """Check one request (not robots.txt) that started at ``start``; True when its group
        forbids it."""
        pace = self.origins.get(origin)
        if pace is None:
            pace = self.origins[origin] = OriginPace()
        if pace.robots_at is None:
            pace.before_robots += 1
        if rules is not self._rules:  # what robots.txt asks, shown in the report
            self._rules = rules
            self.crawl_delay = rules.crawl_delay
            rate = rules.request_rate
            self.request_rate = None if rate is None else f"{rate.requests}/{rate.seconds:g}s"
        forbidden = not rules.version.policy.is_allowed(rules.agent, target)
        if forbidden:
            self._forbidden(record, target, origin, rules)
        self._pace(record=record, target=target, origin=origin, rules=rules, pace=pace, start=start)
        return forbidden

    def robots_fetch(self, record: LogRecord, origin: str) -> None:
        """A request for robots.txt: when the crawler first read it; a 429/503 still counts."""
        pace = self.origins.get(origin) or self.origins.setdefault(origin, OriginPace())
        pace.robots_fetches += 1
        if pace.robots_at is None:
            pace.robots_at = record.start
        self._trouble(record, pace)

    def _forbidden(self, record: LogRecord, target: str, origin: str, rules: CrawlerRules) -> None:
        self.forbidden_requests += 1
        key = (origin, target)
        entry = self.forbidden.get(key)
        if entry is not None:
            entry.requests += 1
            draft_only = entry.url.forbidden_by == ("draft",)
        elif len(self.forbidden) >= MAX_FORBIDDEN_URLS:
            draft_only = rules.is_draft_only(target)  # counted; its evidence is not kept
        else:
            verdict = rules.explain(self.name, target)
            forbidden_by = verdict.forbidden_by
            draft_only = forbidden_by == ("draft",)
            deciding = tuple(
                f"{reading.semantics}: line {reading.rule.line_number}: {reading.rule.line}"
                if reading.rule is not None
                else f"{reading.semantics}: {reading.reason}"
                for reading in verdict.readings
                if not reading.allowed
            )
            self.forbidden[key] = ForbiddenCount(
                ForbiddenUrl(
                    origin,
                    target,
                    0,
                    to_datetime(record.start),
                    record.status,
                    forbidden_by,
                    deciding,
                    rules.version.source,
                )
            )
        if draft_only:
            self.forbidden_draft_only += 1

    def _pace(
        self,
        *,
        record: LogRecord,
        target: str,
        origin: str,
        rules: CrawlerRules,
        pace: OriginPace,
        start: float,
    ) -> None:
        resolution = record.time_resolution
        delay = rules.crawl_delay
        if delay is not None and pace.last_start is not None:
            gap = abs(start - pace.last_start)
            if gap < delay and gap + resolution <= delay:
                self._incident("gap", start, (origin, target), gap, delay, detail="Crawl-delay")
        pace.last_start = start
        rate = rules.request_rate
        if rate is not None:
            requests, seconds = rate.requests, rate.seconds
            if requests > _MAX_RATE_WINDOW:
                requests, seconds = _MAX_RATE_WINDOW, seconds * _MAX_RATE_WINDOW / requests
            starts = pace.starts
            if len(starts) >= requests:
                window = start - starts[0]
                if window < seconds and window + resolution <= seconds:
                    detail = f"{requests + 1} requests in {window:g} s (Request-rate)"
                    self._incident("rate", start, (origin, target), window, seconds, detail=detail)
                while len(starts) >= requests:
                    starts.popleft()
            starts.append(start)
        if pace.trouble_at is not None:
            waited = start - pace.trouble_at
            if waited < pace.trouble_wait and waited + resolution <= pace.trouble_wait:
                detail = "after a 429/503"
                if pace.trouble_streak > 1:
                    detail = f"after {pace.trouble_streak} answers 429/503 in a row"
                self._incident(
                    "retry", start, (origin, target), waited, pace.trouble_wait, detail=detail
                )
        if record.duration is not None:
            in_flight = 1 + sum(1 for end in pace.ends if end - resolution > start)
            if in_flight > 1:
                self.max_in_flight = max(self.max_in_flight, in_flight)
                detail = f"{in_flight} requests in flight at once"
                self._incident("in_flight", start, (origin, target), in_flight, 1, detail=detail)
            pace.ends.append(record.time)
        self._trouble(record, pace)

    def _trouble(self, record: LogRecord, pace: OriginPace) -> None:
        """A 429/503 asks for a wait (P3): its Retry-After, else the site's, else back-off."""
        if record.status not in _TROUBLE:
            pace.trouble_at = None
            pace.trouble_streak = 0
            return
        pace.trouble_streak += 1
        backoff = BACKOFF_BASE_SECONDS * 2.0 ** min(pace.trouble_streak - 1, 16)
        asked = record.retry_after if record.retry_after is not None else self.retry_after_seconds
        pace.trouble_wait = max(asked or 0.0, min(backoff, _MAX_BACKOFF_SECONDS))
        pace.trouble_at = record.time

    def _incident(
        self,
        kind: IncidentKind,
        start: float,
        where: tuple[str, str],
        measured: float,
        required: float,
        *,
        detail: str,
    ) -> None:
        self.counts[kind] += 1
        samples = self.incidents[kind]
        if len(samples) < MAX_INCIDENTS_PER_KIND:
            samples.append(Incident(kind, to_datetime(start), *where, measured, required, detail))
