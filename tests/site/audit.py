"""Auditors of a request log against the ground truth: pure functions over ``Request`` rows.

``audit(web.log, truth, delays=truth.delays(1.0))`` checks, per SPEC id:

- forbidden: URLs fetched (any method) that the truth says are never fetched (C1, C3, C4, C7,
  M1, O5, O6, P4, T5, T6), with the reason.
- missed: URLs the truth says must be fetched that no GET fetched (a check: no request of
  any method, L2).
- unexpected: URLs fetched that are in no list (a link resolved wrongly, T7).
- duplicates: URLs fetched by GET more than once (C2), except robots.txt and its redirect hops
  (revalidation, O6 retries) and the truth's ``repeatable`` (5xx retries); a check (the
  truth's ``checked``) counts its HEADs and its GETs apart, so HEAD then GET is one check.
- check_methods: a check that is not HEAD first, a GET of a check whose HEAD the truth says
  is answered (P4: no body needed), or no GET after a refused HEAD (L2).
- robots_first: a request to an origin before its robots.txt chain was requested and answered
  with an outcome (not 5xx/429) (O2). Robots chain URLs themselves are exempt.
- overlaps: two requests to one host in flight at once (P1).
- gap_violations: end of one request to the start of the next on one host, shorter than
  ``delays[host]`` (P2); ``min_gap_seconds`` per host. Every method counts: the GET after a
  refused HEAD waits the host's delay too (L2). A request the client gave up on ends when it
  closed the connection (logged 499, ``web.CLIENT_CLOSED``).
- bad_methods: anything but GET and HEAD (P4).

Sitemaps (S1, S2) are URLs like any other here: the truth puts each one a crawl fetches (a
guessed ``/sitemap.xml`` answering 404 included) in ``must``, and those it may not fetch in
``never``. What a crawl's sitemap audit should say (S4) is in the truth's ``listed_*`` fields.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .canonical import canonical, origin_of, path_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .truth import Truth
    from .web import Request

_INFINITY = float("inf")
_CLIENT_CLOSED = 499  # web.CLIENT_CLOSED: the client gave up (a time-out), no answer


@dataclass(frozen=True)
class Gap:
    host: str
    before: str  # URL of the earlier request
    after: str
    gap_seconds: float  # negative when they overlap
    required_seconds: float


@dataclass(frozen=True)
class Audit:
    forbidden: tuple[tuple[str, str], ...] = ()  # (url, why never)
    missed: tuple[str, ...] = ()
    unexpected: tuple[str, ...] = ()
    duplicates: Mapping[str, int] = field(default_factory=dict)
    robots_first: tuple[str, ...] = ()  # URLs requested before their origin's robots.txt
    overlaps: tuple[Gap, ...] = ()
    gap_violations: tuple[Gap, ...] = ()
    min_gap_seconds: Mapping[str, float] = field(default_factory=dict)
    bad_methods: tuple[str, ...] = ()  # "POST http://..."
    check_methods: tuple[str, ...] = ()  # "HEAD,GET for http://...: expected HEAD"

    @property
    def ok(self) -> bool:
        return not (
            self.forbidden
            or self.missed
            or self.unexpected
            or self.duplicates
            or self.robots_first
            or self.overlaps
            or self.gap_violations
            or self.bad_methods
            or self.check_methods
        )

    def report(self) -> str:
        """Every finding, one per line: for ``assert audit.ok, audit.report()``."""
        lines = [f"forbidden fetch: {url} ({why})" for url, why in self.forbidden]
        lines += [f"missed: {url}" for url in self.missed]
        lines += [f"unexpected fetch: {url}" for url in self.unexpected]
        lines += [f"fetched {n} times: {url}" for url, n in self.duplicates.items()]
        lines += [f"before robots.txt was answered: {url}" for url in self.robots_first]
        lines += [f"overlap on {g.host}: {g.before} / {g.after}" for g in self.overlaps]
        lines += [
            f"gap {g.gap_seconds:.3f}s < {g.required_seconds}s on {g.host}: {g.before} -> {g.after}"
            for g in self.gap_violations
        ]
        lines += [f"method not GET/HEAD: {entry}" for entry in self.bad_methods]
        lines += [f"check methods: {entry}" for entry in self.check_methods]
        return "\n".join(lines) or "clean"


def url_of(request: Request) -> str:
    """The canonical URL a logged request asked for (C2)."""
    return canonical(request.url) or request.url


def _is_robots(url: str, chain_urls: set[str]) -> bool:
    return url in chain_urls or path_of(url) == "/robots.txt"


def robots_settled_at(log: Iterable[Request], truth: Truth) -> dict[str, float]:
    """Origin -> when its robots.txt chain was complete: every URL of the chain answered with
    an outcome (not 5xx, not 429). Origins never settled are absent (O2, O6)."""
    first_answer: dict[str, float] = {}
    for request in log:
        if request.status not in (429, _CLIENT_CLOSED) and request.status < 500:
            url = url_of(request)
            first_answer[url] = min(first_answer.get(url, _INFINITY), request.finished_at)
    settled = {}
    origins = {origin_of(url_of(r)) for r in log} | set(truth.robots_chains)
    for origin in origins:
        chain = truth.robots_chains.get(origin, (origin + "/robots.txt",))
        at = max(first_answer.get(url, _INFINITY) for url in chain)
        if at < _INFINITY:
            settled[origin] = at
    return settled


def politeness(
    log: Iterable[Request], delays: Mapping[str, float], *, tolerance_seconds: float = 1e-6
) -> tuple[tuple[Gap, ...], tuple[Gap, ...], dict[str, float]]:
    """``(overlaps, gap violations, min gap per host)`` (P1, P2); hosts without a delay in
    ``delays`` are checked for overlaps only. The tolerance absorbs float rounding only: the
    server's times already favour the crawler (it logs a request's end before the last bytes
    leave, and its start after the request arrived)."""
    by_host: dict[str, list[Request]] = defaultdict(list)
    for request in log:
        by_host[request.host].append(request)
    overlaps, violations, min_gap = [], [], {}
    for host, requests in by_host.items():
        requests.sort(key=lambda r: r.started_at)
        latest = requests[0]  # the request that finished last so far
        for request in requests[1:]:
            gap = Gap(
                host,
                url_of(latest),
                url_of(request),
                request.started_at - latest.finished_at,
                delays.get(host, 0.0),
            )
            min_gap[host] = min(min_gap.get(host, _INFINITY), gap.gap_seconds)
            if gap.gap_seconds < -tolerance_seconds:
                overlaps.append(gap)
            if host in delays and gap.gap_seconds < delays[host] - tolerance_seconds:
                violations.append(gap)
            if request.finished_at > latest.finished_at:
                latest = request
    return tuple(overlaps), tuple(violations), min_gap


def audit(
    log: Iterable[Request],
    truth: Truth,
    *,
    delays: Mapping[str, float],
    tolerance_seconds: float = 1e-6,
) -> Audit:
    """Check a request log against the truth and per-host delays (host -> seconds, P2)."""
    entries = sorted(log, key=lambda r: r.started_at)
    chain_urls = {url for chain in truth.robots_chains.values() for url in chain}
    fetched = {url_of(r) for r in entries}
    checks = truth.checked
    got = Counter(url_of(r) for r in entries if r.method == "GET")
    requested = set(got) | {url for url in fetched if url in checks}
    per_method = Counter((url_of(r), r.method) for r in entries if url_of(r) in checks)
    counts = {url: n for url, n in got.items() if url not in checks} | {
        f"{url} ({method})": n for (url, method), n in per_method.items()
    }
    settled = robots_settled_at(entries, truth)
    early = [
        url
        for request in entries
        if not _is_robots(url := url_of(request), chain_urls)
        and request.started_at < settled.get(origin_of(url), _INFINITY)
    ]
    overlaps, violations, min_gap = politeness(entries, delays, tolerance_seconds=tolerance_seconds)
    known = truth.must | truth.may | set(truth.never)
    return Audit(
        forbidden=tuple((url, truth.never[url]) for url in sorted(fetched) if url in truth.never),
        missed=tuple(sorted(truth.must - requested)),
        unexpected=tuple(sorted(fetched - known)),
        duplicates={
            url: count
            for url, count in sorted(counts.items())
            if count > 1
            and not _is_robots(url.split(" ")[0], chain_urls)
            and url.split(" ")[0] not in truth.repeatable
        },
        robots_first=tuple(early),
        overlaps=overlaps,
        gap_violations=violations,
        min_gap_seconds=min_gap,
        bad_methods=tuple(
            f"{r.method} {url_of(r)}" for r in entries if r.method not in ("GET", "HEAD")
        ),
        check_methods=check_methods(entries, truth),
    )


def check_methods(log: Iterable[Request], truth: Truth) -> tuple[str, ...]:
    """L2, P4: each check the log shows is HEAD first; a GET follows only a refused HEAD (the
    truth's ``head_then_get``), and always does. Sequences are per URL, in start order."""
    methods: dict[str, list[str]] = defaultdict(list)
    for request in sorted(log, key=lambda r: r.started_at):
        if (url := url_of(request)) in truth.checked:
            methods[url].append(request.method)
    found = []
    for url, sequence in sorted(methods.items()):
        said = ",".join(sequence)
        if sequence[0] != "HEAD":
            found.append(f"{said} for {url}: a check starts with HEAD")
        elif url in truth.head_then_get and "GET" not in sequence:
            found.append(f"{said} for {url}: HEAD is refused there, a GET must follow")
        elif url not in truth.head_then_get and "GET" in sequence:
            found.append(f"{said} for {url}: its HEAD is answered, no GET needed")
    return tuple(found)
