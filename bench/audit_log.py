"""Audit an nginx access log of a benchmark crawl against the web's ground truth (issue 7).

``audit(requests, truth, delay=D)`` returns the figures of one crawl:

- recall: the share of the truth's ``must`` URLs fetched (canonical URLs, any status);
- forbidden: URLs fetched that the truth says are never fetched (``never`` and ``never_patterns``),
  with the reason (SPEC id); allowed extras: URLs beyond the walk's that robots.txt allows and
  ``may_patterns`` names (a sitemap guess, S1); unexpected: URLs in no list at all;
- duplicates: canonical URLs fetched more than once, except robots.txt and ``repeatable`` URLs
  (5xx answers are retried); with ``kill_at``, a duplicate whose first fetch started before
  the kill and ended between ``kill_window`` seconds before it and the resumed crawl's first
  request counts as in flight at the kill (excused);
- robots_first: a request to an origin that started before its robots.txt was answered with an
  outcome (not 5xx/429) (O2);
- overlaps: two requests to one host in flight at once (P1); gap violations: from the end of one
  request to a host to the start of the next, less than the host's required gap, the larger of
  the crawl's delay and the host's Crawl-delay (P2); the minimum gap per host;
- useful pages/s: distinct ``must`` URLs fetched per second of crawl (first request's start to
  last request's end); raw requests/s likewise;
- makespan efficiency: the busiest host's ``(n - 1) x required gap`` for its n requests, divided
  by the crawl's duration (1.0 is the limit of a polite crawl);
- noindex_indexable: pages the truth says are noindex that the crawler handed out as indexable
  (from the crawler's own output, passed in);
- by_tenth: useful pages/s for each tenth of the crawl, idle stretches left out
  (``pages_per_second_by_tenth``, issue 14): does the cost per page grow with the frontier?

Times come from the log: start = $msec - $request_time, end = $msec (millisecond resolution, so
comparisons allow ``tolerance`` seconds).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from web_gen import canonical, split_url, strict_verdict
except ImportError:  # imported as bench.audit_log
    from bench.web_gen import canonical, split_url, strict_verdict

_LINE = re.compile(r'^(\S+) (\S+) (\S+) (\d+) (\d+) (\d+) "(.*)" "(.*)"(?: (\d+) (\d+))?$')
_INFINITY = float("inf")


@dataclass(frozen=True, slots=True)
class Request:
    start: float
    end: float
    host: str
    url: str  # canonical
    method: str
    status: int
    size: int
    agent: str
    connection: int = 0  # nginx's connection serial number: keep-alive reuse shows here


def read_log(path: Path) -> list[Request]:
    requests = []
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        found = _LINE.match(line)
        if found is None:
            continue
        msec, took, address, port, status, size, request, agent, connection, _ = found.groups()
        method, _, rest = request.partition(" ")
        target = rest.rpartition(" ")[0] or rest
        url = canonical(f"http://{address}:{port}{target}") or target
        end = float(msec)
        requests.append(
            Request(
                end - float(took),
                end,
                address,
                url,
                method,
                int(status),
                int(size),
                agent,
                int(connection or 0),
            )
        )
    requests.sort(key=lambda r: (r.start, r.end))
    return requests


@dataclass
class Audit:
    requests: int = 0
    connections: int = 0  # TCP connections used (keep-alive reuse)
    must: int = 0
    fetched_must: int = 0
    missed: list[str] = field(default_factory=list)
    forbidden: list[tuple[str, str]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    allowed_extras: list[tuple[str, str]] = field(default_factory=list)
    """Fetched beyond the walk's URLs, allowed by robots.txt and the truth's ``may_patterns``."""
    duplicates: dict[str, int] = field(default_factory=dict)
    duplicates_in_flight: dict[str, int] = field(default_factory=dict)
    robots_first: list[str] = field(default_factory=list)
    overlaps: list[str] = field(default_factory=list)
    gap_violations: list[str] = field(default_factory=list)
    crawl_delay_violations: int = 0
    min_gap: dict[str, float] = field(default_factory=dict)
    noindex_indexable: list[str] = field(default_factory=list)
    span: float = 0.0
    useful_per_second: float = 0.0
    raw_per_second: float = 0.0
    makespan_ideal: float = 0.0
    makespan_host: str = ""
    makespan_efficiency: float = 0.0
    forbidden_by_reason: dict[str, int] = field(default_factory=dict)
    by_tenth: list[float] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.fetched_must / self.must if self.must else 1.0

    @property
    def last_over_first(self) -> float | None:
        """Useful pages/s of the last tenth over the first's (1.0: the cost did not grow)."""
        if len(self.by_tenth) < 2 or not self.by_tenth[0]:
            return None
        return self.by_tenth[-1] / self.by_tenth[0]

    def report(self, limit: int = 10) -> str:
        """The findings, a few of each kind."""
        lines = []

        def some(title: str, items: list[Any]) -> None:
            if items:
                lines.append(f"  {title}: {len(items)}")
                lines.extend(f"    {item}" for item in items[:limit])

        some("missed", self.missed)
        some("forbidden", [f"{url}  ({why})" for url, why in self.forbidden])
        some("unexpected", self.unexpected)
        some("allowed extras", [f"{url}  ({why})" for url, why in self.allowed_extras])
        some("duplicates", [f"{url} x{n}" for url, n in self.duplicates.items()])
        some(
            "duplicates in flight at the kill (excused)",
            [f"{url} x{n}" for url, n in self.duplicates_in_flight.items()],
        )
        some("before robots.txt was answered", self.robots_first)
        some("overlaps (P1)", self.overlaps)
        some("gap violations (P2)", self.gap_violations)
        some("noindex pages handed out as indexable (T5)", self.noindex_indexable)
        return "\n".join(lines) or "  clean"


def _robots_reason(url: str, truth: dict[str, Any]) -> str | None:
    """Why robots.txt forbids a URL the truth's walk never met (O5, O6, M1), or None."""
    origin, _, path = split_url(url)
    if path == "/robots.txt":
        return None
    kind = truth["robots"].get(origin, "")
    if kind.startswith(("O5", "O6")):
        return kind
    text = truth["robots_text"].get(origin)
    return strict_verdict(text, truth["agent"], path) if text else None


def _is_robots(url: str) -> bool:
    return split_url(url)[2] == "/robots.txt"


def audit(
    requests: list[Request],
    truth: dict[str, Any],
    *,
    delay: float,
    handed_out_indexable: set[str] | None = None,
    kill_at: float | None = None,
    kill_window: float = 2.0,
    tolerance: float = 0.002,
) -> Audit:
    """Every figure of one crawl's log (see the module docstring)."""
    result = Audit(requests=len(requests), connections=len({r.connection for r in requests}))
    _coverage(result, requests, truth)
    _duplicates(
        result, requests, truth, kill_at=kill_at, kill_window=kill_window, tolerance=tolerance
    )
    _robots_first(result, requests, tolerance)
    busiest = _politeness(result, requests, truth["crawl_delays"], delay, tolerance)
    if handed_out_indexable is not None:  # T5
        result.noindex_indexable = sorted(set(truth["noindex"]) & handed_out_indexable)
    if requests:
        result.span = max(r.end for r in requests) - requests[0].start
    if result.span > 0:
        result.useful_per_second = result.fetched_must / result.span
        result.raw_per_second = len(requests) / result.span
        result.makespan_ideal = busiest
        result.makespan_efficiency = busiest / result.span
    result.by_tenth = pages_per_second_by_tenth(requests, set(truth["must"]))
    return result


def idle_stretches(requests: list[Request], idle: float = 2.0) -> list[tuple[float, float]]:
    """The stretches of more than ``idle`` seconds in which no request at all was in flight
    (between the end of every request begun so far and the start of the next), in order."""
    stretches = []
    busy_until = -_INFINITY
    for request in sorted(requests, key=lambda r: r.start):
        if busy_until > -_INFINITY and request.start - busy_until > idle:
            stretches.append((busy_until, request.start))
        busy_until = max(busy_until, request.end)
    return stretches


def pages_per_second_by_tenth(
    requests: list[Request], must: set[str], *, parts: int = 10, idle: float = 2.0
) -> list[float]:
    """Useful pages/s for each tenth of the crawl, from the server's log alone (issue 14).

    Each useful URL's (``must``) first fetch (the earliest-starting request for it, any
    status) is taken, and these are ordered by the time their request ended. They are split
    into ``parts`` groups of equal count (group k holds those ranked ``k*n//parts`` to
    ``(k+1)*n//parts - 1``). Group k spans the wall seconds from the end of group k-1's last
    page (for the first group: the start of the log's first request) to the end of its own
    last page, so the groups tile the crawl. Its active seconds are that span minus the parts
    of it lying in idle stretches: more than ``idle`` seconds in which the log shows no request
    at all in flight (for example between a kill and the resume; ``idle_stretches``). The
    figure for group k is its pages / its active seconds (0.0 if it has none). Fewer than
    ``parts`` useful pages fetched: an empty list.
    """
    first: dict[str, Request] = {}
    for request in sorted(requests, key=lambda r: r.start):
        if request.url in must and request.url not in first:
            first[request.url] = request
    ends = sorted(r.end for r in first.values())
    n = len(ends)
    if n < parts:
        return []
    stretches = idle_stretches(requests, idle)
    figures = []
    begin = min(r.start for r in requests)
    for k in range(parts):
        low, high = k * n // parts, (k + 1) * n // parts
        finish = ends[high - 1]
        active = finish - begin
        for gap_start, gap_end in stretches:
            active -= max(0.0, min(finish, gap_end) - max(begin, gap_start))
        figures.append((high - low) / active if active > 0 else 0.0)
        begin = finish
    return figures


def check_pages_per_second_by_tenth() -> None:
    """A self-check on a tiny synthetic log (``audit_log.py --self-check``; bench has no tests,
    and tests/ must not need nginx): 20 useful pages, one finishing every 0.5 s, with a 10 s
    stop after the 10th (a kill and a resume), a duplicate, a robots.txt and a useless page."""

    def request(start: float, end: float, path: str) -> Request:
        url = f"http://127.0.0.2:8080{path}"
        return Request(start, end, "127.0.0.2", url, "GET", 200, 10, "t")

    must = {f"http://127.0.0.2:8080/p{i}.html" for i in range(20)}
    log = [request(0.0, 0.1, "/robots.txt")]
    for i in range(20):
        end = 0.5 * (i + 1) + (10.0 if i >= 10 else 0.0)  # the stop: 5.0 .. 15.5
        log.append(request(end - 0.2, end, f"/p{i}.html"))
    log.append(request(16.0, 16.1, "/p3.html"))  # a duplicate: its first fetch counts
    log.append(request(16.2, 16.3, "/other.html"))  # not useful, yet the log is not idle
    log.sort(key=lambda r: r.start)
    stretches = idle_stretches(log)
    assert stretches == [(5.0, 15.3)], stretches
    tenths = pages_per_second_by_tenth(log, must)
    # two pages a tenth; each tenth spans 1 s (the first from 0.0), the sixth 11.0 s of which
    # 10.3 s idle: 0.7 s active
    expected = [2.0, 2.0, 2.0, 2.0, 2.0, 2 / 0.7, 2.0, 2.0, 2.0, 2.0]
    assert all(abs(a - b) < 1e-9 for a, b in zip(tenths, expected, strict=True)), tenths
    assert pages_per_second_by_tenth(log, set(list(must)[:9])) == []
    assert pages_per_second_by_tenth(log, must, idle=20.0)[5] == 2 / 11.0


def check_in_flight_at_kill() -> None:
    """A self-check of the duplicates' kill rule on a synthetic log: a kill at 10.0, the resumed
    crawl's first request at 11.0."""

    def request(start: float, end: float, path: str) -> Request:
        url = f"http://127.0.0.2:8080{path}"
        return Request(start, end, "127.0.0.2", url, "GET", 200, 10, "t")

    log = [
        request(9.5, 10.008, "/cut.html"),  # in flight, logged by nginx just after the kill
        request(4.0, 5.0, "/old.html"),  # answered long before the kill
        request(11.0, 11.1, "/cut.html"),
        request(11.2, 11.3, "/old.html"),
    ]
    log.sort(key=lambda r: r.start)
    truth = {"repeatable": []}
    result = Audit()
    _duplicates(result, log, truth, kill_at=10.0, kill_window=2.0, tolerance=0.002)
    assert result.duplicates_in_flight == {"http://127.0.0.2:8080/cut.html": 2}, result
    assert result.duplicates == {"http://127.0.0.2:8080/old.html": 2}, result
    unkilled = Audit()
    _duplicates(unkilled, log, truth, kill_at=None, kill_window=2.0, tolerance=0.002)
    assert len(unkilled.duplicates) == 2, unkilled
    assert not unkilled.duplicates_in_flight, unkilled


def _coverage(result: Audit, requests: list[Request], truth: dict[str, Any]) -> None:
    """Recall, missed, forbidden (with reasons), allowed extras and unexpected URLs."""
    must = set(truth["must"])
    never: dict[str, str] = truth["never"]
    patterns = [(re.compile(p), why) for p, why in truth["never_patterns"]]
    may = [(re.compile(p), why) for p, why in truth.get("may_patterns", [])]
    result.must = len(must)
    fetched = {r.url for r in requests}
    result.fetched_must = len(must & fetched)
    result.missed = sorted(must - fetched)
    reasons: Counter[str] = Counter()
    for url in sorted(fetched - must):
        why = (
            never.get(url)
            or next((w for p, w in patterns if p.search(url)), None)
            or _robots_reason(url, truth)
        )
        allowed = None if why else next((w for p, w in may if p.search(url)), None)
        if allowed is not None:
            result.allowed_extras.append((url, allowed))
        elif why is None:
            result.unexpected.append(url)
        else:
            result.forbidden.append((url, why))
            reasons[why.split(":")[0]] += 1
    result.forbidden_by_reason = dict(reasons.most_common())


def _duplicates(
    result: Audit,
    requests: list[Request],
    truth: dict[str, Any],
    *,
    kill_at: float | None,
    kill_window: float,
    tolerance: float,
) -> None:
    """GETs of a canonical URL that had already been answered (C2, C5). A retry after a 5xx or
    429 answer is not a duplicate, nor is robots.txt (revalidation, O6 retries)."""
    repeatable = set(truth["repeatable"])
    answered: dict[str, Request] = {}  # url -> its first answer that was not 5xx/429
    counts: Counter[str] = Counter()
    excused: Counter[str] = Counter()
    # A request in flight at the kill may be logged a little after it (nginx logs when it sees
    # the client gone: 8 ms after a SIGKILL was seen), but before the resumed crawl's first.
    resumed_at = (
        None
        if kill_at is None
        else min((r.start for r in requests if r.start > kill_at), default=kill_at)
    )
    for request in requests:  # in order of start
        url = request.url
        if request.method != "GET" or _is_robots(url) or url in repeatable:
            continue
        if url in answered:
            first = answered[url]
            in_flight = (
                kill_at is not None
                and resumed_at is not None  # set with kill_at, never before it
                and first.start <= kill_at + tolerance
                and kill_at - kill_window <= first.end <= resumed_at + tolerance
                and request.start > kill_at
            )
            (excused if in_flight and not excused[url] else counts)[url] += 1
        elif request.status != 429 and request.status < 500:
            answered[url] = request
    for url in sorted(set(counts) | set(excused)):
        if counts[url]:
            result.duplicates[url] = counts[url] + excused[url] + 1
        else:
            result.duplicates_in_flight[url] = excused[url] + 1


def _robots_first(result: Audit, requests: list[Request], tolerance: float) -> None:
    """Requests that started before their origin's robots.txt was answered (O2)."""
    settled: dict[str, float] = {}
    for request in requests:
        if _is_robots(request.url) and request.status != 429 and request.status < 500:
            origin = split_url(request.url)[0]
            settled[origin] = min(settled.get(origin, _INFINITY), request.end)
    for request in requests:
        if _is_robots(request.url):
            continue
        origin = split_url(request.url)[0]
        if request.start + tolerance < settled.get(origin, _INFINITY):
            result.robots_first.append(f"{request.url} (started {request.start:.3f})")


def _politeness(
    result: Audit,
    requests: list[Request],
    crawl_delays: dict[str, float | None],
    delay: float,
    tolerance: float,
) -> float:
    """Overlaps (P1), gaps shorter than required (P2); returns the busiest host's ideal time."""
    by_host: dict[str, list[Request]] = defaultdict(list)
    for request in requests:
        by_host[request.host].append(request)
    busiest = 0.0
    for host, items in by_host.items():
        required = max(delay, crawl_delays.get(host) or 0.0)
        ideal = (len(items) - 1) * required
        if ideal > busiest:
            busiest, result.makespan_host = ideal, host
        latest = items[0]
        smallest = _INFINITY
        for request in items[1:]:
            gap = request.start - latest.end
            smallest = min(smallest, gap)
            if gap < -tolerance:
                result.overlaps.append(
                    f"{host}: {latest.url} (end {latest.end:.3f}) / {request.url} "
                    f"(start {request.start:.3f})"
                )
            elif gap < required - tolerance:
                result.gap_violations.append(
                    f"{host}: {gap:.3f}s < {required:g}s: {latest.url} -> {request.url}"
                )
                if required > delay:
                    result.crawl_delay_violations += 1
            if request.end > latest.end:
                latest = request
        if smallest < _INFINITY:
            result.min_gap[host] = smallest
    return busiest


def main() -> int:
    parser = argparse.ArgumentParser(description="audit an nginx log against truth.json")
    parser.add_argument("log", type=Path, nargs="?")
    parser.add_argument("truth", type=Path, nargs="?")
    parser.add_argument("--delay", type=float, default=None)
    parser.add_argument(
        "--kill-at",
        type=float,
        default=None,
        help="the kill's time.time() (run.py --json keeps it as kill_at): excuse the requests "
        "in flight at it",
    )
    parser.add_argument("--self-check", action="store_true", help="check the tenths' figures")
    args = parser.parse_args()
    if args.self_check:
        check_pages_per_second_by_tenth()
        check_in_flight_at_kill()
        print("pages_per_second_by_tenth, in flight at the kill: ok")
        return 0
    if args.log is None or args.truth is None:
        parser.error("log and truth are required")
    truth = json.loads(args.truth.read_text(encoding="utf-8"))
    delay = truth["delay"] if args.delay is None else args.delay
    result = audit(read_log(args.log), truth, delay=delay, kill_at=args.kill_at)
    print(
        f"requests {result.requests}, recall {result.recall:.2%}, forbidden "
        f"{len(result.forbidden)}, robots-first {len(result.robots_first)}, overlaps "
        f"{len(result.overlaps)}, gap violations {len(result.gap_violations)}, duplicates "
        f"{len(result.duplicates)}, useful/s {result.useful_per_second:.1f}, makespan "
        f"efficiency {result.makespan_efficiency:.3f}"
    )
    if result.by_tenth:
        tenths = " ".join(f"{figure:.1f}" for figure in result.by_tenth)
        print(f"pages/s by tenth: {tenths}; last / first {result.last_over_first:.2f}")
    print(result.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
