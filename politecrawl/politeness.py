"""A host's pace: when may it be asked next, and when is a failing URL tried again [P1-P3, O6, O7].

The one place that decides. Arithmetic only, on values and ``now``: the crawl loop and the
frontier pass what happened and what the crawl database holds (a host's delay, its error
streak, its next start), and store what comes back, so the pace holds across worker threads,
processes and restarts. The frontier's statements take these results as parameters; none
computes a time of its own.

- After a response or a failure (``pace_after``): the delay between the end of one request to a
  host and the start of the next is the largest of the configured delay, what robots.txt asks
  (Crawl-delay, or Request-rate as seconds per request, ``robots_delay_seconds``), and a
  multiple of the host's last response time, capped (a slow server gets more room, but never
  minutes of it; a time-out is not a response time). A success ends any back-off for the very
  next request. Back-off grows with the host's *consecutive* failures, doubling per failure,
  up to a cap: the signals that the server itself is in trouble (429, 503, time-outs, refused or
  reset connections) back off from the first one; any other failure (a 500 or 502 on one page
  among healthy ones) is that page's problem, and the host slows only when such failures come
  in a row. A Retry-After pushes the next start further when it is later.
- After a request that has no pace of its own (robots.txt in a lease's slot, a hop of its
  redirects, a lease given back by a failed worker): its delays after its end
  (``next_start_after``).
- A response we closed before its end (a body cut at the byte cap, a time-out, a body that does
  not decode) ends, for the server, only when it notices the closed connection at its next
  write, a moment after ours; its end counts as ``CUT_SHORT_SECONDS`` after our close
  (``server_end``), so that the server's log does not show the next request closer than the
  delay (P1, P2).
- At claim time (``claim_order``, ``slot_at_claim``): which due host goes first, when its lease
  starts, and the host's next start from then (taken at once, so a worker killed mid-request
  still leaves the host its delay). When a lease expires (``next_start_after_lost``), and when a
  host is held outside a lease (``hold_until``) or is busy (``busy_retry_at``).
- A failing URL is retried on its own schedule (``url_retry_at``: doubling from a base, a
  Retry-After wins), while the host goes on with its other URLs; an origin whose robots.txt
  failed, on its own (``robots_retry_at``, O6).
- A server (P6): an IP address or an IPv6 /64 behind host names (``server_of``; none in an
  exempt network), with a cap on requests in flight and a gap between their *starts* (a rate),
  by default its hosts' smallest delay (``server_delay``): one host name is never held back by
  its server. A claim takes both slots (``server_slot_at_claim``); an address is learnt again
  once older than a setting (``address_is_stale``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from politecrawl.config import PolitenessSettings

Failure = Literal["host", "page"]
"""What a failed request says: ``host``, the server is in trouble; ``page``, this URL is."""

_TROUBLE_STATUSES = frozenset((429, 503))
_MIN_BACKOFF_BASE_SECONDS = 1.0
_MIN_BUSY_RETRY_SECONDS = 0.1
CUT_SHORT_SECONDS = 0.05
"""How much later than our close a response we cut short counts as ended. The server learns
of the close at its next write; on a busy machine that was seen 1.6 ms after ours, so this is
a margin of thirty times that, paid only by the rare responses closed early."""
CLAIM_ORDER_DELAYS = 2
"""How many times its delay a due host's next start is moved forward in the claim's order
(``claim_order``)."""


@dataclass(frozen=True, slots=True)
class HostPace:
    """A host's pace after a request: its delay, its next start, and why. The one pace value:
    the frontier stores it on the host's row (every field but ``next_start`` is a column of the
    same name; ``next_start`` is the host's next start), so that every worker and process, and
    a resumed run, paces the host alike, and ``politecrawl status`` can say why it waits."""

    delay_seconds: float
    """The host's delay now, back-off included."""
    next_start: datetime
    error_streak: int
    """Consecutive failed requests to the host (0 after a success)."""
    backoff_seconds: float
    """How much of ``delay_seconds`` is back-off."""
    retry_after_until: datetime | None
    wait_reason: str
    """Why the host waits until ``next_start``, for people (``politecrawl status``)."""
    last_response_seconds: float | None = None
    """How long the server took to answer (None: it did not, a time-out or a refusal)."""
    crawl_delay_seconds: float | None = None
    """What the host's robots.txt asks between requests (Crawl-delay, Request-rate), if any."""


class _Rate(Protocol):
    """A Request-rate (``robots.RequestRate``): ``requests`` every ``seconds``. Described, not
    imported: ``robots`` sits above this module (its outcomes take their retries from here)."""

    @property
    def requests(self) -> int: ...
    @property
    def seconds(self) -> float: ...


def robots_delay_seconds(crawl_delay: float | None, request_rate: _Rate | None) -> float:
    """What robots.txt asks for between requests (F6): Crawl-delay or seconds per request."""
    per_request = request_rate.seconds / request_rate.requests if request_rate else 0.0
    return max(crawl_delay or 0.0, per_request)


def failure_of_status(status: int) -> Failure:
    """Whose problem a failed answer is: 429 and 503 are the server's; other 5xx the page's."""
    return "host" if status in _TROUBLE_STATUSES else "page"


def pace_after(
    pace: PolitenessSettings,
    *,
    finished_at: datetime,
    robots_delay: float = 0.0,
    response_seconds: float | None = None,
    failure: Failure | None = None,
    error_streak_before: int = 0,
    retry_after_seconds: float | None = None,
    cut_short: bool = False,
) -> HostPace:
    """The host's pace after a request that ended at ``finished_at`` (P2, P3).

    ``response_seconds`` is the time the server took to answer, ``None`` when it did not (a
    time-out, a refused connection). ``error_streak_before`` is the host's stored streak.
    ``cut_short``: we closed the response before its end, so the server's end comes later than
    ours (``server_end``).
    """
    finished_at = server_end(finished_at, cut_short=cut_short)
    slowdown = min(pace.slowdown_factor * (response_seconds or 0.0), pace.max_slowdown_seconds)
    base = max(pace.delay_seconds, robots_delay, slowdown)
    streak = 0 if failure is None else error_streak_before + 1
    # The server in trouble backs off from its first failure; a page's failure is free once.
    steps = streak if failure == "host" else max(streak - 1, 0)
    delay = base
    if steps:
        backoff = max(base, _MIN_BACKOFF_BASE_SECONDS) * 2.0 ** min(steps, 30)
        delay = max(min(backoff, pace.max_backoff_seconds), base)
    wait = delay
    retry_after_until = None
    if retry_after_seconds is not None and retry_after_seconds > delay:
        wait = retry_after_seconds
        retry_after_until = finished_at + timedelta(seconds=retry_after_seconds)
    return HostPace(
        delay_seconds=delay,
        next_start=finished_at + timedelta(seconds=wait),
        error_streak=streak,
        backoff_seconds=delay - base,
        retry_after_until=retry_after_until,
        wait_reason=_why(
            pace,
            base=base,
            robots_delay=robots_delay,
            slowdown=slowdown,
            delay=delay,
            streak=streak,
            retry_after_until=retry_after_until,
        ),
        last_response_seconds=response_seconds,
        crawl_delay_seconds=robots_delay or None,
    )


def server_end(finished_at: datetime, *, cut_short: bool) -> datetime:
    """When the server ends a request that ended for us at ``finished_at``: the same moment,
    or ``CUT_SHORT_SECONDS`` later when we closed it before its end (``cut_short``)."""
    return finished_at + timedelta(seconds=CUT_SHORT_SECONDS) if cut_short else finished_at


def next_start_after(
    finished_at: datetime,
    *,
    delay_seconds: float,
    robots_delay: float = 0.0,
    cut_short: bool = False,
) -> datetime:
    """When a host may be asked again after a request that ended at ``finished_at`` and has no
    pace of its own (no response time, no failure of the host: robots.txt, a hop of its
    redirects, a lease given back by a failed worker): the configured delay or robots.txt's,
    the longer, after the server's end (P2). What ``pace_after`` gives such a request."""
    ended = server_end(finished_at, cut_short=cut_short)
    return ended + timedelta(seconds=max(delay_seconds, robots_delay))


def claim_order(due_epoch: float, delay_seconds: float) -> float:
    """Where a due host comes in the claim's order, lower first; times in epoch seconds (as the
    claim reads them: no datetimes on its path).

    Of the hosts due first, the one that has waited longest since its last request (next start
    - delay), counting its delay once more (next start - 2 x delay), goes first. A host with a
    long delay (a Crawl-delay, a Request-rate, a back-off) bounds when the crawl can end: it is
    served the moment it is due, ahead of the quick hosts that took their turns meanwhile, and
    not behind every one that finished before it. Hosts with the same delay (the configured
    one) keep their turns since their last requests. At delay 0 a host's delay is its last
    response time: a host whose delay is a few milliseconds longer goes first by up to twice the
    difference, so a claim ahead may leave its worker idle that long while another host is due;
    none is starved. The delay includes a back-off: a host backing off is served the moment it
    is due too (once per back-off)."""
    return due_epoch - CLAIM_ORDER_DELAYS * delay_seconds


def slot_at_claim(due_epoch: float, now_epoch: float, delay_seconds: float) -> tuple[float, float]:
    """A claimed host's lease start and its next start, in epoch seconds (P1, P2).

    The lease starts when the host is due (a claim may take it a moment ahead of that), or now
    if later; the host's next start is taken at once, one delay after that start, so that a
    worker killed mid-request still leaves the host its delay. The lease's end sets it again
    from the finished request."""
    start = max(due_epoch, now_epoch)
    return start, start + delay_seconds


def server_slot_at_claim(
    host_due_epoch: float,
    server_due_epoch: float,
    now_epoch: float,
    *,
    host_delay_seconds: float,
    server_delay_seconds: float,
) -> tuple[float, float, float]:
    """A claimed host's lease start, its next start and its server's, in epoch seconds (P6).

    The lease starts when both the host and its server are due, or now if later
    (``slot_at_claim``); the host's next start is one host delay after that, the server's one
    server delay after it (between starts: the server's gap is a rate)."""
    start, host_next = slot_at_claim(
        max(host_due_epoch, server_due_epoch), now_epoch, host_delay_seconds
    )
    return start, host_next, start + server_delay_seconds


def server_delay(
    configured_seconds: float | None, host_delay_seconds: float, robots_delays: Iterable[float]
) -> float:
    """The gap between the starts of two requests to a server (P6): the configured one, else
    its hosts' smallest delay as set or asked by robots.txt (``robots_delays``, one a host),
    not their slow-downs and back-offs, each host's own (0 with no host yet)."""
    if configured_seconds is not None:
        return configured_seconds
    return min((max(host_delay_seconds, robots) for robots in robots_delays), default=0.0)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def exempt_networks(networks: Iterable[str]) -> tuple[Network, ...]:
    """The ``server_exempt_networks`` setting as networks (validated with the settings)."""
    return tuple(ipaddress.ip_network(network.strip(), strict=False) for network in networks)


def server_of(address: str, exempt: Iterable[Network] = ()) -> str | None:
    """The server an address belongs to (P6): an IPv4 address itself, an IPv6 address's /64
    (one machine's or one customer's usual share), written as a network; None when the address
    is in an ``exempt`` network (a CDN's, where one address fronts unrelated sites) or is not
    an address."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip.version == network.version and ip in network for network in exempt):
        return None
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def address_is_stale(
    resolved_at: datetime | None, now: datetime, *, max_age_seconds: float
) -> bool:
    """Whether a host's address, learnt at ``resolved_at`` (None: never), is to be learnt again."""
    return resolved_at is None or (now - resolved_at).total_seconds() >= max_age_seconds


def next_start_after_lost(now: datetime, *, next_start: datetime, delay_seconds: float) -> datetime:
    """A host's next start when its leases were lost (expired, or their process is gone, C5):
    the lost requests may still be ending on the server, so the host gets its delay again from
    ``now`` (a resumed crawl never follows a killed one too closely, P2), unless its
    ``next_start`` is later."""
    return max(next_start, now + timedelta(seconds=delay_seconds))


def hold_until(now: datetime, *, hold_seconds: float, delay_seconds: float) -> datetime:
    """How long a host is held for one request outside a lease (a robots.txt redirect to
    another host, O7): past the longest the request can take (``hold_seconds``), then its
    delay. Held by time, so a holder killed mid-request (C5) leaves it free once that is up;
    the holder gives it back sooner with ``next_start_after``."""
    return now + timedelta(seconds=hold_seconds + delay_seconds)


def busy_retry_at(now: datetime, *, delay_seconds: float) -> datetime:
    """When an origin whose robots.txt redirects to a busy host (another worker or process is
    asking it, O7) tries again: after about one delay (at least a tenth of a second)."""
    return now + timedelta(seconds=max(delay_seconds, _MIN_BUSY_RETRY_SECONDS))


def url_retry_at(
    pace: PolitenessSettings,
    *,
    finished_at: datetime,
    attempts_before: int,
    retry_after_seconds: float | None = None,
) -> datetime:
    """When a URL whose request failed is tried again: its own back-off, doubling per attempt
    (``attempts_before`` failed attempts came before this one), or a later Retry-After."""
    wait = pace.retry_backoff_seconds * 2.0 ** min(attempts_before, 30)
    wait = min(max(wait, retry_after_seconds or 0.0), max(pace.max_backoff_seconds, 1.0))
    if retry_after_seconds is not None:
        wait = max(wait, retry_after_seconds)  # never sooner than the server asked
    return finished_at + timedelta(seconds=wait)


def robots_retry_at(
    now: datetime,
    *,
    failures: int,
    retry_seconds: float,
    max_attempts: int,
    retry_after_seconds: float | None = None,
) -> datetime | None:
    """When an origin whose robots.txt failed ``failures`` times in a row is tried again (O6):
    ``retry_seconds``, doubling per failure, or a later Retry-After; None once ``max_attempts``
    are used (not in this run)."""
    if failures >= max_attempts:
        return None
    wait = max(retry_seconds * 2.0 ** (failures - 1), retry_after_seconds or 0.0)
    return now + timedelta(seconds=wait)


def _why(
    pace: PolitenessSettings,
    *,
    base: float,
    robots_delay: float,
    slowdown: float,
    delay: float,
    streak: int,
    retry_after_until: datetime | None,
) -> str:
    if retry_after_until is not None:
        return "Retry-After"
    if delay > base:
        return f"back-off after {streak} failed request(s) in a row"
    if base == pace.delay_seconds:
        return "delay"
    if base == robots_delay:
        return "robots.txt Crawl-delay or Request-rate"
    return f"slow responses ({slowdown:.2f} s)"


SERVER_WAIT = "for their server"
"""A ``HostQueue``'s reason when its host could be asked but its server is busy (P6)."""


@dataclass(frozen=True, slots=True)
class HostQueue:
    """One host's queue as a progress display sees it."""

    host: str
    queued: int
    in_flight: int
    delay_seconds: float
    next_start: datetime
    reason: str = "delay"
    """Why it waits when it does: delay, back-off, Retry-After, robots.txt, deferred, its
    server."""
    server: str | None = None
    """The server it shares with other host names (P6), if known."""
    server_delay_seconds: float = 0.0


def time_left(hosts: list[HostQueue], *, now: datetime) -> tuple[float, str | None]:
    """An estimate of the seconds a polite crawl still needs, and the host (or server) that
    bounds it.

    A host asked one request at a time needs its delay between requests, so the crawl can end
    no sooner than its busiest host's queue allows: the wait until that host's next start, then
    one delay per queued URL (a request in flight counts as one more). The host names of one
    server (P6) share its gap: together they need one gap per queued URL. Links yet to be found
    and response times are not known: the estimate grows as the crawl finds more.
    """
    best, busiest = 0.0, None
    on_servers: dict[str, tuple[float, int, float]] = {}
    for queue in hosts:
        count = queue.queued + queue.in_flight
        if not count:
            continue
        first = max((queue.next_start - now).total_seconds(), 0.0)
        needed = first + max(count - 1, 0) * queue.delay_seconds
        if busiest is None or needed > best:
            best, busiest = needed, queue.host
        if queue.server is not None:
            soonest, total, _ = on_servers.get(queue.server, (first, 0, 0.0))
            gap = queue.server_delay_seconds
            on_servers[queue.server] = (min(soonest, first), total + count, gap)
    for server, (first, count, gap) in on_servers.items():
        if first + (count - 1) * gap > best:
            best, busiest = first + (count - 1) * gap, server
    return best, busiest
