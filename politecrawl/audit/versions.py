"""robots.txt as it stood when each request came: versions, and the rules each asks of a crawler.

[G4] A site's robots.txt may change during a log; each version applies from the time it took
effect until the next. A request older than every version is judged by the oldest (the file
most likely in force then). A version may belong to one origin (``https://www.example.org``)
or, with ``origin=""``, to every origin of the log (one site, one file).

What one crawler may do under one version is asked once and kept (``CrawlerRules``): the
``is_allowed`` of its group, its Crawl-delay and Request-rate. A crawler no record names obeys
the ``*`` group, which the empty name selects in both readings, so the policy's per-agent
caches hold one entry for all of them, however many crawlers a log has.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from politecrawl.robots import RequestRate, RobotsPolicy, Verdict

_MAX_UNMATCHED = 20


@dataclass(frozen=True, slots=True)
class RobotsVersion:
    """One robots.txt, the time it took effect (None: from the start) and where it came from."""

    policy: RobotsPolicy
    source: str
    """A file name or URL, for the report."""
    effective_from: datetime | None = None
    origin: str = ""
    """The origin it belongs to, ``scheme://host[:port]``; "" for every origin of the log."""


@dataclass(frozen=True, slots=True)
class CrawlerRules:
    """What one version asks of one crawler."""

    version: RobotsVersion
    agent: str
    """The name the policy is asked with: the crawler's, or "" when no record names it."""
    crawl_delay: float | None
    request_rate: RequestRate | None
    rfc9309: RobotsPolicy
    """The same file in RFC 9309's reading alone (it shares the parse and its caches)."""

    def is_allowed(self, target: str) -> bool:
        """May the crawler fetch ``target`` (path and query), in the strict reading (M7)?"""
        return self.version.policy.is_allowed(self.agent, target)

    def is_draft_only(self, target: str) -> bool:
        """For a forbidden ``target``: does RFC 9309 alone allow it (the draft's letter forbids)?
        One look-up, where ``explain`` builds both readings' verdicts."""
        return self.rfc9309.is_allowed(self.agent, target)

    def explain(self, crawler: str, target: str) -> Verdict:
        """The strict verdict with both readings' deciding lines (M7)."""
        return self.version.policy.explain(crawler, target, semantics="strict")


def _named_agents(policy: RobotsPolicy) -> tuple[str, ...]:
    names = {agent for record in policy.records for agent in record.agents}
    rfc = policy.with_semantics("rfc9309").records
    names.update(agent for record in rfc for agent in record.agents)
    names.discard("*")
    return tuple(sorted(names))


class RobotsTimeline:
    """The versions of robots.txt by origin and time, and each crawler's rules under each."""

    def __init__(self, versions: Sequence[RobotsVersion]) -> None:
        if not versions:
            raise ValueError("an audit needs at least one robots.txt version")
        self.versions = tuple(versions)
        by_origin: dict[str, list[tuple[float, int]]] = {}
        for index, version in enumerate(self.versions):
            start = float("-inf")
            if version.effective_from is not None:
                start = version.effective_from.timestamp()
            by_origin.setdefault(version.origin, []).append((start, index))
        self._starts: dict[str, tuple[float, ...]] = {}
        self._indexes: dict[str, tuple[int, ...]] = {}
        for origin, entries in by_origin.items():
            entries.sort()
            self._starts[origin] = tuple(start for start, _ in entries)
            self._indexes[origin] = tuple(index for _, index in entries)
        self.only = 0 if len(self.versions) == 1 and not self.versions[0].origin else None
        """The one version's index when one is all there is, for every origin (the common
        case, asked per line)."""
        self._named = [_named_agents(version.policy) for version in self.versions]
        self._rules: dict[tuple[int, str], CrawlerRules] = {}
        self.unmatched: set[str] = set()
        """Origins of the log no version belongs to (judged by the first origin's; said)."""

    @property
    def changes(self) -> bool:
        """True when some origin has more than one version."""
        return any(len(starts) > 1 for starts in self._starts.values())

    def version_index(self, origin: str, time: float) -> int:
        """The version in force for ``origin`` at ``time``."""
        key = origin if origin in self._starts else ""
        starts = self._starts.get(key)
        if starts is None:  # versions only for other origins: the first of the first origin
            if len(self.unmatched) < _MAX_UNMATCHED:
                self.unmatched.add(origin)
            key = next(iter(self._starts))
            starts = self._starts[key]
        if len(starts) == 1:
            return self._indexes[key][0]
        return self._indexes[key][max(bisect_right(starts, time) - 1, 0)]

    def rules(self, index: int, crawler: str) -> CrawlerRules:
        """What version ``index`` asks of ``crawler`` (a product token)."""
        rules = self._rules.get((index, crawler))
        if rules is None:
            named = any(crawler in agent for agent in self._named[index])
            agent = crawler if named else ""
            policy = self.versions[index].policy
            rules = CrawlerRules(
                self.versions[index],
                agent,
                policy.crawl_delay(agent),
                policy.request_rate(agent),
                policy.with_semantics("rfc9309"),
            )
            self._rules[(index, crawler)] = rules
        return rules
