"""When the crawl asked what: the current pass's span, and its requests per host over time.

``crawl_span`` answers "which site, when, how long" for the top of a report: the seed origins
and the runs of the current pass (C5: a recrawl is a new pass; its report is about it).
``request_timeline`` answers "what did each host see": every URL fetched in the current pass
(pages, sitemaps and checks, each one request as the URL row last recorded it: ``fetched_at``
is when the answer ended, ``elapsed_seconds`` how long it took) and each origin's last
robots.txt fetch, for the busiest hosts. It stays bounded whatever the crawl's size: at most
``max_hosts`` hosts (the rest counted), and each request a mark of its own only while the
chosen hosts have at most ``max_marks`` of them; beyond that the requests are counted in
``buckets`` slices of time, in SQL (one scan of the URL table, grouped), so a report of 100k
URLs reads a few thousand rows, not 100k. Nothing here writes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Float,
    case,
    cast,
    func,
    literal_column,
    or_,
    select,
    type_coerce,
)
from sqlalchemy.engine import Connection

from politecrawl.store.database import Database
from politecrawl.store.frontier.counts import seed_origins
from politecrawl.store.reading.passes import current_pass
from politecrawl.store.schema import (
    FAILED,
    crawl_runs_table as _runs,
    hosts_table as _hosts,
    origins_table as _origins,
    urls_table as _urls,
)

__all__ = [
    "CrawlSpan",
    "HostActivity",
    "RequestMark",
    "RequestTimeline",
    "crawl_span",
    "request_timeline",
]

MAX_HOSTS = 8
MAX_MARKS = 3000
BUCKETS = 240


@dataclass(frozen=True, slots=True)
class CrawlSpan:
    """The current pass: the site it crawls and when its runs ran."""

    seed_origins: tuple[str, ...]
    """The origins of the seeds, sorted: the site."""
    pass_number: int
    runs: int
    """Runs of the current pass (an interrupted run and its resumption are two)."""
    started_at: datetime | None
    """When its first run began; None: no run recorded (a database filled by hand)."""
    ended_at: datetime | None
    """When its last run ended; None: no run, or the last has not ended (under way, killed)."""
    run_seconds: float
    """The ended runs' durations added up (time between runs left out)."""


@dataclass(frozen=True, slots=True)
class RequestMark:
    """One request, or (bucketed) every request of a host in one slice of time."""

    at: datetime
    """When the request began (its answer's end less its elapsed time), or the slice."""
    seconds: float
    """How long the request took, or the slice's width."""
    requests: int
    failures: int
    """Answered 4xx or 5xx, or failed (a network error, a cut body, ...)."""


@dataclass(frozen=True, slots=True)
class HostActivity:
    """A host's requests in the current pass, in time order."""

    host: str
    requests: int
    failures: int
    delay_seconds: float
    """The host's delay between requests as the crawl last set it (Crawl-delay, back-off)."""
    robots_fetches: tuple[datetime, ...]
    """When each of its origins last fetched robots.txt, in order."""
    marks: tuple[RequestMark, ...]


@dataclass(frozen=True, slots=True)
class RequestTimeline:
    """The current pass's requests per host: the busiest hosts, the rest counted."""

    start: datetime | None
    """The first request's (or robots.txt fetch's) beginning; None: nothing was fetched."""
    end: datetime | None
    bucket_seconds: float | None
    """None: each mark is one request; else the marks count requests in slices this wide."""
    hosts: tuple[HostActivity, ...] = ()
    """Busiest first (requests and robots.txt fetches), then by name."""
    other_hosts: int = 0
    other_requests: int = 0

    @property
    def requests(self) -> int:
        """Every request of the pass, the other hosts' included."""
        return sum(host.requests for host in self.hosts) + self.other_requests


def crawl_span(database: Database) -> CrawlSpan:
    """The seed origins and the runs of the current pass."""
    with database.engine.connect() as connection:
        number = current_pass(connection)
        seeds = seed_origins(connection)
        runs = connection.execute(
            select(_runs.c.started_at, _runs.c.ended_at)
            .where(_runs.c.pass_number == number)
            .order_by(_runs.c.id)
        ).all()
    return CrawlSpan(
        seed_origins=tuple(seeds),
        pass_number=number,
        runs=len(runs),
        started_at=runs[0].started_at if runs else None,
        ended_at=runs[-1].ended_at if runs else None,
        run_seconds=sum(
            (run.ended_at - run.started_at).total_seconds() for run in runs if run.ended_at
        ),
    )


_fetched = type_coerce(_urls.c.fetched_at, Float())  # epoch seconds, for arithmetic
_began = _fetched - func.coalesce(_urls.c.elapsed_seconds, 0.0)
_failed = case(
    (or_(_urls.c.state == FAILED, _urls.c.status >= 400, _urls.c.error.is_not(None)), 1),
    else_=0,
)


def request_timeline(
    database: Database,
    *,
    max_hosts: int = MAX_HOSTS,
    max_marks: int = MAX_MARKS,
    buckets: int = BUCKETS,
) -> RequestTimeline:
    """The current pass's requests of its ``max_hosts`` busiest hosts, one mark a request up
    to ``max_marks`` requests, else counted in ``buckets`` slices of the pass's span."""
    if max_hosts < 1 or max_marks < 0 or buckets < 1:
        raise ValueError("request_timeline needs max_hosts >= 1, max_marks >= 0, buckets >= 1")
    with database.engine.connect() as connection:
        since = _pass_start(connection)
        in_pass: list[ColumnElement[bool]] = [_urls.c.fetched_at.is_not(None)]
        robots_in_pass: list[ColumnElement[bool]] = [_origins.c.robots_fetched_at.is_not(None)]
        if since is not None:
            in_pass.append(_fetched >= since)
            robots_in_pass.append(type_coerce(_origins.c.robots_fetched_at, Float()) >= since)
        per_host = connection.execute(
            select(
                _urls.c.host_id,
                func.count(),
                func.sum(_failed),
                func.min(_began),
                func.max(_fetched),
            )
            .where(*in_pass)
            .group_by(_urls.c.host_id)
        ).all()
        robots: dict[int, list[float]] = {}
        for host_id, fetched in connection.execute(
            select(_origins.c.host_id, type_coerce(_origins.c.robots_fetched_at, Float())).where(
                *robots_in_pass
            )
        ):
            robots.setdefault(host_id, []).append(float(fetched))
        counts = {row[0]: (int(row[1]), int(row[2] or 0)) for row in per_host}
        times = [float(row[3]) for row in per_host] + [float(row[4]) for row in per_host]
        times += [moment for moments in robots.values() for moment in moments]
        if not times:
            return RequestTimeline(None, None, None)
        start, end = min(times), max(times)
        busy = sorted(set(counts) | set(robots))
        names = dict(
            connection.execute(
                select(_hosts.c.id, _hosts.c.host).where(_hosts.c.id.in_(busy))
            ).all()
        )

        def busyness(host_id: int) -> int:  # its requests and robots.txt fetches
            return counts.get(host_id, (0, 0))[0] + len(robots.get(host_id, ()))

        busy.sort(key=lambda host_id: (-busyness(host_id), names[host_id]))
        chosen, others = busy[:max_hosts], busy[max_hosts:]
        delays = dict(
            connection.execute(
                select(_hosts.c.id, _hosts.c.delay_seconds).where(_hosts.c.id.in_(chosen))
            ).all()
        )
        marked = sum(counts.get(host_id, (0, 0))[0] for host_id in chosen)
        where = [*in_pass, _urls.c.host_id.in_(chosen)]
        if marked <= max_marks:
            bucket_seconds = None
            marks = _each_request(connection, where)
        else:
            bucket_seconds, marks = _bucketed(connection, where, start, end, buckets)
    hosts = tuple(
        HostActivity(
            host=names[host_id],
            requests=counts.get(host_id, (0, 0))[0],
            failures=counts.get(host_id, (0, 0))[1],
            delay_seconds=float(delays.get(host_id) or 0.0),
            robots_fetches=tuple(_at(moment) for moment in sorted(robots.get(host_id, ()))),
            marks=tuple(marks.get(host_id, ())),
        )
        for host_id in chosen
    )
    return RequestTimeline(
        start=_at(start),
        end=_at(end),
        bucket_seconds=bucket_seconds,
        hosts=hosts,
        other_hosts=len(others),
        other_requests=sum(counts.get(host_id, (0, 0))[0] for host_id in others),
    )


def _pass_start(connection: Connection) -> float | None:
    """When the current pass's first run began (epoch seconds); None: no run recorded."""
    number = current_pass(connection)
    started = connection.execute(
        select(func.min(type_coerce(_runs.c.started_at, Float()))).where(
            _runs.c.pass_number == number
        )
    ).scalar()
    return None if started is None else float(started)


def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _each_request(
    connection: Connection, where: list[ColumnElement[bool]]
) -> dict[int, list[RequestMark]]:
    rows = connection.execute(
        select(_urls.c.host_id, _began, _urls.c.elapsed_seconds, _failed)
        .where(*where)
        .order_by(_began, _urls.c.id)
    )
    marks: dict[int, list[RequestMark]] = {}
    for host_id, began, elapsed, failed in rows:
        mark = RequestMark(_at(float(began)), float(elapsed or 0.0), 1, int(failed))
        marks.setdefault(host_id, []).append(mark)
    return marks


def _bucketed(
    connection: Connection, where: list[ColumnElement[bool]], start: float, end: float, buckets: int
) -> tuple[float, dict[int, list[RequestMark]]]:
    """Requests per host and slice of ``(end - start) / buckets`` seconds (whole milliseconds:
    integer division, which SQLite and PostgreSQL both do alike on integers)."""
    width_ms = max(math.ceil((end - start) * 1000 / buckets), 1)
    index = cast((_began - start) * 1000, BigInteger) // width_ms
    # Grouped by the column's name: PostgreSQL cannot tell that two copies of an expression
    # with bound parameters are the same expression.
    slot: ColumnElement[int] = literal_column("slot")
    rows = connection.execute(
        select(_urls.c.host_id, index.label("slot"), func.count(), func.sum(_failed))
        .where(*where)
        .group_by(_urls.c.host_id, slot)
        .order_by(_urls.c.host_id, slot)
    )
    width = width_ms / 1000
    marks: dict[int, list[RequestMark]] = {}
    for host_id, number, count, failed in rows:
        at = start + max(int(number), 0) * width
        mark = RequestMark(_at(at), width, int(count), int(failed or 0))
        marks.setdefault(host_id, []).append(mark)
    return width, marks
