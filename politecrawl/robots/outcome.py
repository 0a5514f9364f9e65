"""What an HTTP answer for /robots.txt means, and how long it holds [O3-O7, E2-E4]. Pure.

``outcome_of_response`` turns a final (non-redirect) answer into an outcome; ``outcome_of_failure``
does the same for a request that got no usable answer (or a redirect loop, O7), and
``outcome_of_refusal`` for a robots.txt that cannot be had without a request the crawler refuses
to make (a redirect into a non-public address: the anti-steering guard). Each outcome says
until when it holds: a fetched policy for its HTTP freshness lifetime (E2), clamped; a 401/403
for its own shorter lifetime (E4); a temporary failure until its next retry, with back-off (O6).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from politecrawl.config.robots_values import OutcomeSettings
from politecrawl.httpdates import parse_http_date
from politecrawl.politeness import robots_retry_at

OutcomeKind = Literal["parsed", "allow_all", "disallow_all", "deferred"]
_MAX_AGE = re.compile(r"(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*\"?(\d+)", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-cache|no-store)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RobotsOutcome:
    """The state of an origin's robots.txt after one fetch attempt."""

    kind: OutcomeKind
    status: int | None
    body: bytes | None
    reason: str
    """Why, for people, with the SPEC id."""
    expires_at: datetime | None
    """Until when a parsed / allow_all / disallow_all outcome holds."""
    retry_at: datetime | None
    """When a deferred origin is tried again; None when the attempts are used up for this run."""
    failures: int
    """Consecutive temporary failures (0 after an answer)."""
    etag: str | None = None
    last_modified: str | None = None

    @property
    def is_usable(self) -> bool:
        """True when URLs of the origin can be judged (not deferred)."""
        return self.kind != "deferred"


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def freshness_seconds(
    headers: Mapping[str, str], settings: OutcomeSettings, *, received_at: datetime | None = None
) -> float:
    """E2: Cache-Control max-age, else Expires minus Date (without a Date, the time the response
    was received, RFC 9111 4.2.1), else 7 days; clamped to the bounds."""
    lifetime = settings.max_lifetime_seconds
    cache_control = _header(headers, "cache-control") or ""
    max_age = _MAX_AGE.search(cache_control)
    if max_age:
        lifetime = float(max_age.group(1))
    elif _NO_CACHE.search(cache_control):
        lifetime = 0.0
    else:
        expires = parse_http_date(_header(headers, "expires"))
        date = parse_http_date(_header(headers, "date")) or received_at
        if expires is not None and date is not None:
            lifetime = (expires - date).total_seconds()
        elif _header(headers, "expires") is not None:
            lifetime = 0.0  # an invalid Expires means already expired (RFC 9111 5.3)
    return min(max(lifetime, settings.min_lifetime_seconds), settings.max_lifetime_seconds)


def outcome_of_response(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    now: datetime,
    failures_before: int,
    settings: OutcomeSettings,
    retry_after_seconds: float | None = None,
) -> RobotsOutcome:
    """The outcome of a final answer (redirects already followed, O7)."""
    etag = _header(headers, "etag")
    last_modified = _header(headers, "last-modified")
    fresh_until = now + timedelta(seconds=freshness_seconds(headers, settings, received_at=now))
    if 200 <= status < 300:
        return RobotsOutcome(
            "parsed",
            status,
            body,
            f"{status}: parsed and obeyed (O3)",
            fresh_until,
            None,
            0,
            etag,
            last_modified,
        )
    if status in (401, 403):
        denied_until = now + timedelta(seconds=settings.denied_lifetime_seconds)
        if settings.unauthorized_means_allowed:
            return RobotsOutcome(
                "allow_all",
                status,
                None,
                f"{status}: no restrictions (RFC 9309 reading, O5)",
                denied_until,
                None,
                0,
            )
        return RobotsOutcome(
            "disallow_all",
            status,
            None,
            f"{status}: the whole origin is disallowed (O5)",
            denied_until,
            None,
            0,
        )
    if 400 <= status < 500 and status != 429:
        return RobotsOutcome(
            "allow_all",
            status,
            None,
            f"{status}: no robots.txt, no restrictions (O4)",
            fresh_until,
            None,
            0,
            etag,
            last_modified,
        )
    return outcome_of_failure(
        f"HTTP {status}",
        now=now,
        failures_before=failures_before,
        settings=settings,
        status=status,
        retry_after_seconds=retry_after_seconds,
    )


def outcome_of_failure(
    error: str,
    *,
    now: datetime,
    failures_before: int,
    settings: OutcomeSettings,
    status: int | None = None,
    retry_after_seconds: float | None = None,
) -> RobotsOutcome:
    """O6: a temporary failure defers the origin; retries back off (1 s, doubling; a longer
    Retry-After wins: ``politeness.robots_retry_at``) until ``max_attempts`` are used, then the
    origin waits for the next run."""
    failures = failures_before + 1
    retry_at = robots_retry_at(
        now,
        failures=failures,
        retry_seconds=settings.retry_seconds,
        max_attempts=settings.max_attempts,
        retry_after_seconds=retry_after_seconds,
    )
    if retry_at is None:
        return RobotsOutcome(
            "deferred",
            status,
            None,
            f"{error}: robots.txt unreachable after {failures} attempts; origin deferred (O6)",
            None,
            None,
            failures,
        )
    wait = (retry_at - now).total_seconds()
    return RobotsOutcome(
        "deferred",
        status,
        None,
        f"{error}: robots.txt temporarily unavailable; retry in {wait:g} s (O6)",
        None,
        retry_at,
        failures,
    )


REFUSED = "not retried this run"
"""In the reason of every ``outcome_of_refusal`` outcome (``is_refusal``)."""


def outcome_of_refusal(error: str, *, failures_before: int) -> RobotsOutcome:
    """O7 ends in O6's last case at once: the origin is deferred for this run, never retried in
    it. The redirect (or the name) was refused, not unanswered: asking again asks the origin for
    the same answer and refuses it again, so retries would only spend its requests; a resumed
    run asks once more (O6). Not O4 (an unread robots.txt is no permission: that reading would
    fetch the origin's pages) and not O5 (the site did not forbid anything): the reading that
    fetches least without saying what the site did not say."""
    return RobotsOutcome(
        "deferred",
        None,
        None,
        f"{error}: robots.txt refused, origin deferred, {REFUSED} (O7)",
        None,
        None,
        failures_before + 1,
    )


def is_refusal(reason: str) -> bool:
    """Whether an outcome's ``reason`` is an ``outcome_of_refusal``'s."""
    return reason.endswith(f"{REFUSED} (O7)")


def renewed(
    previous: RobotsOutcome, headers: Mapping[str, str], *, now: datetime, settings: OutcomeSettings
) -> RobotsOutcome:
    """E3: a 304 answer to a revalidation keeps the policy and renews its lifetime."""
    fresh_until = now + timedelta(seconds=freshness_seconds(headers, settings, received_at=now))
    return RobotsOutcome(
        previous.kind,
        previous.status,
        previous.body,
        "304: still fresh, renewed (E3)",
        fresh_until,
        None,
        0,
        _header(headers, "etag") or previous.etag,
        _header(headers, "last-modified") or previous.last_modified,
    )
