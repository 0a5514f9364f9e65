"""The audit's loop: log lines in, one ``CrawlerChecks`` per crawler, an ``AuditResult`` out.

[G1-G4] ``Auditor`` streams: ``read`` takes lines (any iterable), ``read_files`` takes access-log
files (``reading``), ``result`` can be asked at any time. A line that does not parse is counted
and sampled with its file and line number, never fatal; a file whose first lines are all
unreadable is said to be in no known format, once, and skipped. ``audit_log`` is the library's
one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from politecrawl.audit.checks import CrawlerChecks, is_robots_txt
from politecrawl.audit.crawlers import CrawlerNames, is_judged
from politecrawl.audit.formats import to_datetime
from politecrawl.audit.reading import (
    UNKNOWN_FORMAT_LINES,
    in_time_order,
    looks_binary,
    parse_line,
)
from politecrawl.audit.records import BadLine, LogRecord
from politecrawl.audit.results import AuditResult
from politecrawl.audit.timeline import Timeline
from politecrawl.audit.verdicts import crawler_audit, report_order
from politecrawl.audit.versions import RobotsTimeline, RobotsVersion
from politecrawl.robots import RobotsPolicy, parse_robots

if TYPE_CHECKING:
    from pathlib import Path

MAX_BAD_SAMPLES = 20
_MAX_ORIGINS = 100  # a site log names a few; a hostile Host header must not grow the state
OTHER_ORIGINS = "(other hosts)"
_EXCERPT_CHARACTERS = 120


class Auditor:
    """Feed it a log; ask it for the result."""

    def __init__(
        self,
        robots: Sequence[RobotsVersion],
        *,
        site: str = "",
        retry_after_seconds: float | None = None,
        max_crawlers: int = 1000,
    ) -> None:
        """``site``: the origin of requests whose log line names none (combined and common
        never do). ``retry_after_seconds``: the Retry-After the site sends with 429/503, for
        logs that do not record it."""
        self.robots = RobotsTimeline(robots)
        self.site = site.rstrip("/")
        self.retry_after_seconds = retry_after_seconds
        self.names = CrawlerNames(max_crawlers=max_crawlers)
        self.crawlers: dict[str, CrawlerChecks] = {}
        self.timeline = Timeline()
        self.lines = 0
        self.requests = 0
        self.bad_lines = 0
        self.bad_samples: list[BadLine] = []
        self.problems: list[str] = []
        self.first = float("inf")
        self.last = float("-inf")
        self.has_durations = False
        self._origins: dict[str, str] = {}

    def read_files(self, paths: Sequence[Path]) -> None:
        """Read access-log files, oldest first, gzip or not."""
        for log_file in in_time_order(list(paths)):
            self.read(log_file.lines(), source=log_file.name)
            self.problems.extend(log_file.problems)

    def read(self, lines: Iterable[str], *, source: str = "<log>") -> None:
        """Read one log's lines (without or with their line ends)."""
        unread: list[BadLine] | None = []  # bad lines before the first good one
        for number, line in enumerate(lines, 1):
            record = parse_line(line)
            if type(record) is LogRecord:
                if unread is not None:
                    for bad in unread:
                        self._bad(bad)
                    unread = None
                self.lines += 1
                self.add(record)
                continue
            if not line.strip():
                continue
            self.lines += 1
            bad = BadLine(source, number, str(record), line.rstrip("\r\n")[:_EXCERPT_CHARACTERS])
            if unread is None:
                self._bad(bad)
            elif looks_binary(line) or len(unread) >= UNKNOWN_FORMAT_LINES:
                self._unknown_format(source, unread or [bad])
                return
            else:
                unread.append(bad)
        if unread:
            self._unknown_format(source, unread)

    def _unknown_format(self, source: str, unread: list[BadLine]) -> None:
        self.lines -= len(unread)
        first = unread[0]
        self.problems.append(
            f"{source}: not an access log in a known format (combined, common, JSON lines): "
            f"line {first.line_number}: {first.reason}; the file was skipped"
        )

    def _bad(self, bad: BadLine) -> None:
        self.bad_lines += 1
        if len(self.bad_samples) < MAX_BAD_SAMPLES:
            self.bad_samples.append(bad)

    def _origin(self, logged: str) -> str:
        origin = self._origins.get(logged)
        if origin is None:
            if not logged:
                origin = self.site
            elif logged.startswith("//"):  # the host without its scheme: the site's, or https
                scheme = self.site.partition("//")[0] or "https:"
                origin = scheme + logged
            else:
                origin = logged
            if len(self._origins) >= _MAX_ORIGINS:
                origin = OTHER_ORIGINS
            else:
                self._origins[logged] = origin
        return origin

    def add(self, record: LogRecord) -> None:
        """Audit one request. The hot path: a million lines pass here, so it reads plainly
        rather than in small calls."""
        self.requests += 1
        time = record.time
        self.first = min(self.first, time)
        self.last = max(self.last, time)
        start = time
        if record.duration is not None:
            self.has_durations = True
            start = time - record.duration
        agent = record.user_agent
        name = self.names.name(agent)
        checks = self.crawlers.get(name)
        if checks is None:
            checks = CrawlerChecks(
                name, judged=is_judged(name), retry_after_seconds=self.retry_after_seconds
            )
            self.crawlers[name] = checks
        checks.requests += 1
        if agent in checks.agents:
            checks.agents[agent] += 1
        else:
            checks.count_agent(agent)
        checks.first = min(checks.first, time)
        checks.last = max(checks.last, time)
        target = record.target
        forbidden = False
        if checks.judged and target is not None:
            origin = self._origin(record.origin) if record.origin else self.site
            if is_robots_txt(target):
                checks.robots_fetch(record, origin)
            else:
                index = self.robots.only
                if index is None:
                    index = self.robots.version_index(origin, time)
                rules = checks.rules.get(index)
                if rules is None:
                    rules = checks.rules[index] = self.robots.rules(index, name)
                forbidden = checks.check(record, target, origin, rules, start)
        self.timeline.add(name, start, forbidden=forbidden)

    def result(self) -> AuditResult:
        """What the audit found so far."""
        crawlers = sorted(
            (crawler_audit(checks, self.timeline) for checks in self.crawlers.values()),
            key=report_order,
        )
        sources = tuple(
            version.source
            + (f" for {version.origin}" if version.origin else "")
            + (
                f" from {version.effective_from.isoformat()}"
                if version.effective_from is not None
                else ""
            )
            for version in self.robots.versions
        )
        seen = self.requests > 0
        return AuditResult(
            crawlers=tuple(crawlers),
            lines=self.lines,
            requests=self.requests,
            bad_lines=self.bad_lines,
            bad_samples=tuple(self.bad_samples),
            problems=(
                *self.problems,
                *(
                    f"no robots.txt given for {origin or 'the log'} (name it with --site, or "
                    f"give its robots.txt): judged by {self.robots.versions[0].source}"
                    for origin in sorted(self.robots.unmatched)
                ),
            ),
            robots_sources=sources,
            first_at=to_datetime(self.first) if seen else None,
            last_at=to_datetime(self.last) if seen else None,
            timeline_start=(
                None if self.timeline.start is None else to_datetime(self.timeline.start)
            ),
            bucket_seconds=self.timeline.width,
            has_durations=self.has_durations,
        )


def audit_log(
    lines: Iterable[str],
    *,
    robots: str | bytes | RobotsPolicy | Sequence[RobotsVersion],
    site: str = "",
    retry_after_seconds: float | None = None,
) -> AuditResult:
    """Audit an access log's lines (combined, common or JSON lines, mixed freely) against a
    robots.txt: its text, a parsed policy, or versions with the time each took effect (G4).

        >>> result = audit_log(open("access.log"), robots=open("robots.txt").read())
        >>> [(crawler.name, crawler.verdict) for crawler in result.crawlers]  # doctest: +SKIP
    """
    if isinstance(robots, str | bytes):
        versions: Sequence[RobotsVersion] = (RobotsVersion(parse_robots(robots), "robots.txt"),)
    elif isinstance(robots, RobotsPolicy):
        versions = (RobotsVersion(robots, "robots.txt"),)
    else:
        versions = robots
    auditor = Auditor(versions, site=site, retry_after_seconds=retry_after_seconds)
    auditor.read(lines)
    return auditor.result()
