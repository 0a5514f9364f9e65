"""The gate: may this URL be fetched now? Robots knowledge joined with its edges [O2-O8, E1-E4].

``Gate.check`` answers from the origin's robots.txt outcome: allowed, disallowed (with the
deciding line), deferred until a time, or "robots.txt first" when the origin's policy is missing
or stale (O2, E3). An allowed verdict carries the rest of what robots.txt says of the URL, read
once per outcome: the delay it asks between requests (P2) and its use preferences (U1).
``Gate.fetch_robots`` is the only code that fetches robots.txt: one request per hop,
redirects followed to at most ``robots_max_redirects`` hops (O7) with the hops' own hosts kept
polite and each hop checked by the anti-steering guard before it is requested (C4: a robots.txt
redirect may leave the site, never from a public origin into a non-public address), a
conditional GET when a stale policy is revalidated (E3), the outcome stored in the crawl
database (E1) and cached in memory until it expires.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol

from politecrawl.config.robots_values import OutcomeSettings
from politecrawl.errors import FetchError
from politecrawl.politeness import busy_retry_at, next_start_after, robots_delay_seconds
from politecrawl.robots import RobotsLimits, RobotsPolicy, Verdict, parse_robots
from politecrawl.robots.outcome import (
    RobotsOutcome,
    outcome_of_failure,
    outcome_of_refusal,
    outcome_of_response,
    renewed,
)
from politecrawl.robots.preferences import RobotsPreferences, read_robots_preferences
from politecrawl.scope import Scope, check_steering
from politecrawl.urls import InvalidURL, canonicalize, split_canonical
from politecrawl.usage import NO_PREFERENCES, UsePreferences

if TYPE_CHECKING:
    from politecrawl.clock import Clock
    from politecrawl.config import RobotsSettings
    from politecrawl.fetch import Fetcher

GateKind = Literal["allowed", "disallowed", "deferred", "robots_first"]


@dataclass(frozen=True, slots=True)
class GateVerdict:
    """What the gate says about one URL."""

    kind: GateKind
    reason: str
    verdict: Verdict | None = None
    """For allowed and disallowed URLs of a parsed robots.txt: the deciding record and line."""
    until: datetime | None = None
    """For deferred URLs: when to try again (None: not in this run)."""
    status: int | None = None
    """The robots.txt status behind an allow-all or disallow-all outcome."""
    robots_delay: float = 0.0
    """For allowed URLs: what robots.txt asks between requests (Crawl-delay, Request-rate)."""
    said: UsePreferences = NO_PREFERENCES
    """For allowed URLs: robots.txt's use preferences for the URL and the crawl's agent (U1)."""


@dataclass(frozen=True, slots=True)
class RobotsFetch:
    """What fetching an origin's robots.txt did: its outcome, and whether the last response on
    the origin's own host was closed before its end (its host's pace counts it as ending later,
    ``politeness.server_end``)."""

    outcome: RobotsOutcome
    cut_short: bool


@dataclass(frozen=True, slots=True)
class _Known:
    outcome: RobotsOutcome
    policy: RobotsPolicy | None
    robots_delay: float
    preferences: RobotsPreferences | None  # None when the file has none: no URL asks


class OutcomeStore(Protocol):
    """Where outcomes are kept: the crawl database's ``store.RobotsOutcomeStore`` (E1), or a
    one-off fetch's memory (``politecrawl robots explain --fetch``)."""

    def get(self, origin: str) -> RobotsOutcome | None: ...

    def put(self, origin: str, outcome: RobotsOutcome, *, now: datetime) -> None: ...


class MemoryOutcomes:
    """An ``OutcomeStore`` in memory, for a one-off fetch with no crawl database
    (``robots explain --fetch``, ``audit --robots URL``)."""

    def __init__(self) -> None:
        self._outcomes: dict[str, RobotsOutcome] = {}

    def get(self, origin: str) -> RobotsOutcome | None:
        """The outcome kept for ``origin``, if any."""
        return self._outcomes.get(origin)

    def put(self, origin: str, outcome: RobotsOutcome, *, now: datetime) -> None:
        """Keep ``outcome`` (``now`` is for a database's record of when; unused here)."""
        del now
        self._outcomes[origin] = outcome


# Reserve a slot on another host (for a cross-host robots.txt redirect): returns the time the
# hop may start, or None if the host is busy; and give it back with its next start time.
ReserveHost = Callable[[str, datetime], bool]
ReleaseHost = Callable[[str, datetime], None]


class Gate:
    """Robots decisions for the crawl loop; thread-safe."""

    def __init__(
        self,
        settings: RobotsSettings,
        policies: OutcomeStore,
        fetcher: Fetcher,
        clock: Clock,
        *,
        user_agent: str,
        delay_seconds: float,
        reserve_host: ReserveHost,
        release_host: ReleaseHost,
        scope: Scope | None = None,
    ) -> None:
        """``scope``: the crawl's, for its seeds and trusted networks, which the anti-steering
        guard judges each redirect hop by; without it, no hop from a public origin may lead
        into a non-public address."""
        self.settings = settings
        self.scope = Scope() if scope is None else scope
        self.user_agent = user_agent
        self.delay_seconds = delay_seconds
        """The host's delay between the hops of a robots.txt redirect to the same host (P2)."""
        self.policies = policies
        self.fetcher = fetcher
        self.clock = clock
        self._reserve_host = reserve_host
        self._release_host = release_host
        self._outcome_settings = settings.outcome_settings
        self._limits = RobotsLimits(max_bytes=settings.robots_max_bytes)
        self._known: dict[str, _Known] = {}
        self._lock = threading.Lock()

    # --- deciding ---------------------------------------------------------------------------

    def check(self, origin: str, url: str, *, now: datetime) -> GateVerdict:
        """The verdict for ``url`` of ``origin`` at ``now``; never fetches."""
        if url == origin + "/robots.txt":
            return self._allowed(self._current(origin), url, "/robots.txt is always allowed (O2)")
        known = self._current(origin)
        if known is None:
            return GateVerdict("robots_first", "robots.txt not fetched yet (O2)")
        outcome = known.outcome
        if outcome.kind == "deferred":
            if outcome.retry_at is not None and outcome.retry_at <= now:
                return GateVerdict("robots_first", "robots.txt retry due (O6)")
            return GateVerdict("deferred", outcome.reason, until=outcome.retry_at)
        if outcome.expires_at is not None and outcome.expires_at <= now:
            return GateVerdict("robots_first", "robots.txt expired, revalidate (E3)")
        if outcome.kind == "allow_all":
            return GateVerdict("allowed", outcome.reason, status=outcome.status)
        if outcome.kind == "disallow_all":
            return GateVerdict("disallowed", outcome.reason, status=outcome.status)
        assert known.policy is not None
        verdict = known.policy.explain(self.user_agent, url)
        if not verdict.allowed:
            return GateVerdict("disallowed", verdict.reason, verdict)
        return self._allowed(known, url, verdict.reason, verdict)

    def _allowed(
        self, known: _Known | None, url: str, reason: str, verdict: Verdict | None = None
    ) -> GateVerdict:
        """An allowed verdict, with what robots.txt (``known``, when read) says of the URL."""
        if known is None:
            return GateVerdict("allowed", reason, verdict)
        preferences = known.preferences
        said = NO_PREFERENCES if preferences is None else preferences.for_url(self.user_agent, url)
        return GateVerdict("allowed", reason, verdict, robots_delay=known.robots_delay, said=said)

    def outcome(self, origin: str) -> RobotsOutcome | None:
        """The stored outcome of ``origin``'s robots.txt, if it was fetched; never fetches."""
        known = self._current(origin)
        return None if known is None else known.outcome

    def policy(self, origin: str) -> RobotsPolicy | None:
        """The parsed policy of ``origin`` when it has one."""
        known = self._current(origin)
        return None if known is None else known.policy

    def robots_delay(self, origin: str) -> float:
        """What the origin's robots.txt asks between requests (Crawl-delay, Request-rate)."""
        known = self._current(origin)
        return 0.0 if known is None else known.robots_delay

    def forget(self, origin: str) -> None:
        """Drop the in-memory copy (another process may have stored a newer outcome)."""
        with self._lock:
            self._known.pop(origin, None)

    def _current(self, origin: str) -> _Known | None:
        with self._lock:
            known = self._known.get(origin)
        now = self.clock.now()
        if known is not None and _still_good(known.outcome, now):
            return known
        outcome = self.policies.get(origin)  # another worker or process may have fetched it
        if outcome is None:
            return None
        return self._remember(origin, outcome)

    def _remember(self, origin: str, outcome: RobotsOutcome) -> _Known:
        if outcome.kind != "parsed":
            known = _Known(outcome, None, 0.0, None)
        else:
            body = outcome.body or b""
            policy = parse_robots(body, semantics=self.settings.semantics, limits=self._limits)
            agent = self.user_agent
            delay = robots_delay_seconds(policy.crawl_delay(agent), policy.request_rate(agent))
            preferences = read_robots_preferences(body, self._limits)
            known = _Known(outcome, policy, delay, None if preferences.is_silent else preferences)
        with self._lock:
            self._known[origin] = known
        return known

    # --- fetching ---------------------------------------------------------------------------

    def fetch_robots(self, origin: str) -> RobotsFetch:
        """Fetch (or revalidate) the robots.txt of ``origin`` in the caller's host slot: its
        outcome, and whether the last response on the origin's host was closed before its end
        (P2)."""
        fetched = self.fetch_like_robots(
            origin + "/robots.txt",
            self.policies.get(origin),
            # One octet past the limit tells the parser the file went on (O8).
            max_bytes=self.settings.robots_max_bytes + 1,
            settings=self._outcome_settings,
        )
        self.policies.put(origin, fetched.outcome, now=self.clock.now())
        self._remember(origin, fetched.outcome)
        return fetched

    def fetch_like_robots(
        self,
        url: str,
        previous: RobotsOutcome | None,
        *,
        max_bytes: int,
        settings: OutcomeSettings,
    ) -> RobotsFetch:
        """Fetch a file of an origin as robots.txt is fetched, in the caller's host slot, and
        store nothing: redirects (O7), the anti-steering guard, a conditional GET when
        ``previous`` was read (E3), O6's back-off counted on from ``previous``, the outcome
        read under ``settings``. ``/.well-known/tdmrep.json`` is fetched so (U3)."""
        failures = previous.failures if previous is not None and previous.kind == "deferred" else 0
        revalidate = previous if previous is not None and previous.kind == "parsed" else None
        host = split_canonical(canonicalize(url))[1]
        cut_by_host: dict[str, bool] = {}
        outcome = self._follow(
            url, host, failures, revalidate, cut_by_host, max_bytes=max_bytes, settings=settings
        )
        return RobotsFetch(outcome, cut_by_host.get(host, False))

    def _follow(
        self,
        url: str,
        host: str,
        failures: int,
        revalidate: RobotsOutcome | None,
        cut_by_host: dict[str, bool],
        *,
        max_bytes: int,
        settings: OutcomeSettings,
    ) -> RobotsOutcome:
        """The outcome of ``url`` (on ``host``) and its redirects; ``cut_by_host`` gets, for
        each host asked, whether its last response was closed before its end."""
        reserved: str | None = None
        try:
            for hop in range(self.settings.robots_max_redirects + 1):
                try:
                    result = self.fetcher.fetch(
                        url,
                        etag=revalidate.etag if revalidate and hop == 0 else None,
                        last_modified=revalidate.last_modified if revalidate and hop == 0 else None,
                        max_bytes=max_bytes,
                    )
                except FetchError as error:
                    cut_by_host[host] = error.closed_early
                    if not error.temporary:  # refused (anti-steering guard), or unrequestable
                        return outcome_of_refusal(str(error), failures_before=failures)
                    return self._failure(str(error), failures, settings)
                cut_by_host[host] = result.truncated
                now = self.clock.now()
                headers = dict(result.headers)
                if result.status == 304 and revalidate is not None:
                    return renewed(revalidate, headers, now=now, settings=settings)
                if 300 <= result.status < 400 and result.location:
                    refused = self._steering(result.location, url)
                    if refused is not None:
                        return outcome_of_refusal(refused, failures_before=failures)
                    next_url, host, reserved = self._next_hop(
                        result.location, host, reserved, cut_short=result.truncated
                    )
                    if next_url is None:
                        return self._busy(host, failures)
                    if not next_url:
                        return self._failure("redirect to an invalid URL", failures, settings)
                    url = next_url
                    continue
                return outcome_of_response(
                    result.status,
                    headers,
                    result.body,
                    now=now,
                    failures_before=failures,
                    settings=settings,
                    retry_after_seconds=result.retry_after_seconds(now),
                )
            return self._failure(
                f"more than {self.settings.robots_max_redirects} redirects (O7)",
                failures,
                settings,
            )
        finally:
            if reserved is not None:
                self._release_host(reserved, self._next_start(cut_by_host.get(reserved, False)))

    def _steering(self, location: str, from_url: str) -> str | None:
        """Why the anti-steering guard refuses the hop to ``location``, or None (C4: before
        it is requested; an invalid location is ``_next_hop``'s to say)."""
        try:
            target = canonicalize(location)
        except InvalidURL:
            return None
        verdict = check_steering(target, self.scope, from_url=from_url)
        if verdict.allowed:
            return None
        return f"redirect to {target} refused: {verdict.rule} (anti-steering guard)"

    def _next_start(self, cut_short: bool) -> datetime:
        """When a host asked just now may be asked again: the delay after the server's end."""
        return next_start_after(
            self.clock.now(), delay_seconds=self.delay_seconds, cut_short=cut_short
        )

    def _next_hop(
        self, location: str, host: str, reserved: str | None, *, cut_short: bool
    ) -> tuple[str | None, str, str | None]:
        """The next hop's URL, its host and the host slot held; waits out the delay on the same
        host, takes a slot on another (P1, P2). The URL is empty when the location is invalid,
        and ``None`` when the other host is busy (then the host named is that one).
        ``cut_short``: the redirect's own response was closed before its end."""
        try:
            target = canonicalize(location)
        except InvalidURL:
            return "", host, reserved
        target_host = split_canonical(target)[1]
        if target_host == host:  # the same host: its delay first
            wait = (self._next_start(cut_short) - self.clock.now()).total_seconds()
            self.clock.sleep(wait)
            return target, host, reserved
        if reserved is not None:
            self._release_host(reserved, self._next_start(cut_short))
            reserved = None
        if not self._reserve_host(target_host, self.clock.now()):
            return None, target_host, None
        return target, target_host, target_host

    def _busy(self, host: str, failures: int) -> RobotsOutcome:
        """O7 across hosts: the redirect's target host is busy or not due (another worker or
        process is asking it). That is politeness, not a failure of this robots.txt: it counts
        no attempt, so a busy machine can never use up the origin's attempts (O6) and leave it
        uncrawled; the origin tries again after about one delay."""
        now = self.clock.now()
        retry_at = busy_retry_at(now, delay_seconds=self.delay_seconds)
        wait = (retry_at - now).total_seconds()
        return RobotsOutcome(
            "deferred",
            None,
            None,
            f"robots.txt redirects to {host}, which is busy; retry in {wait:g} s (O7)",
            None,
            retry_at,
            failures,
        )

    def _failure(self, error: str, failures: int, settings: OutcomeSettings) -> RobotsOutcome:
        return outcome_of_failure(
            error, now=self.clock.now(), failures_before=failures, settings=settings
        )


def _still_good(outcome: RobotsOutcome, now: datetime) -> bool:
    if outcome.kind == "deferred":
        return outcome.retry_at is None or outcome.retry_at > now
    return outcome.expires_at is None or outcome.expires_at > now
