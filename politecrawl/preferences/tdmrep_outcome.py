"""What an answer for ``/.well-known/tdmrep.json`` means, and how long it holds [U3, E1-E4]. Pure.

tdmrep.json is fetched as robots.txt is (``Gate.fetch_like_robots``: redirects, the
anti-steering guard, conditional GETs, O6's back-off), so its outcome is a ``RobotsOutcome``
read under ``tdmrep_settings``, then restated here by ``tdmrep_outcome``:

- a 2xx is read (``parsed``), fresh for its HTTP lifetime as robots.txt is (E2, E3);
- any 4xx, 401 and 403 included, means no reservation (U3: ``allow_all``), for the same lifetime;
- a temporary failure (5xx, 429, no answer) defers the URLs that wait for it, retried with
  robots.txt's back-off (O6); once those attempts are used up, or when the file cannot be had
  without a request the crawler refuses (O7), it is read as no reservation for the shorter
  lifetime of a refused robots.txt (E4), then asked again. A tdmrep.json that cannot be had so
  never blocks its origin: the pages' own headers and metas are still read (U2).

``tdmrep_file`` is what a URL is judged by: the rules read, none, or ``None`` while unknown.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from politecrawl.config.robots_values import OutcomeSettings
from politecrawl.preferences.tdmrep import NO_TDMREP, TdmRepFile, read_tdmrep
from politecrawl.robots.outcome import RobotsOutcome

TDMREP_PATH = "/.well-known/tdmrep.json"
_ROBOTS_WORDING = ": robots.txt"


def tdmrep_settings(robots: OutcomeSettings) -> OutcomeSettings:
    """robots.txt's lifetimes and back-off, with 401 and 403 read as no reservation (U3)."""
    return dataclasses.replace(robots, unauthorized_means_allowed=True)


def tdmrep_outcome(
    outcome: RobotsOutcome, *, now: datetime, settings: OutcomeSettings
) -> RobotsOutcome:
    """``outcome`` (of fetching tdmrep.json like robots.txt) said of tdmrep.json; a deferral
    with no retry left becomes no reservation until ``settings.denied_lifetime_seconds`` from
    ``now``."""
    if outcome.kind == "parsed":
        renewed = outcome.reason.startswith("304")  # E3: its lifetime renewed
        reason = outcome.reason if renewed else f"{outcome.status}: read (U3)"
        return dataclasses.replace(outcome, reason=reason)
    if outcome.kind != "deferred":  # allow_all (every 4xx): disallow_all cannot come of it
        return dataclasses.replace(
            outcome,
            kind="allow_all",
            body=None,
            reason=f"{outcome.status}: no tdmrep.json, no reservation (U3)",
        )
    error = outcome.reason.split(_ROBOTS_WORDING, 1)[0]
    if outcome.retry_at is not None:
        wait = max((outcome.retry_at - now).total_seconds(), 0.0)
        return dataclasses.replace(
            outcome,
            reason=f"{error}: tdmrep.json temporarily unavailable; retry in {wait:g} s (U3, O6)",
        )
    until = now + timedelta(seconds=settings.denied_lifetime_seconds)
    return RobotsOutcome(
        "allow_all",
        outcome.status,
        None,
        f"{error}: tdmrep.json not had after {outcome.failures} attempts: no reservation known "
        f"until {until:%Y-%m-%d %H:%M:%S} UTC (U3)",
        until,
        None,
        outcome.failures,
    )


def tdmrep_file(outcome: RobotsOutcome | None) -> TdmRepFile | None:
    """The rules an outcome gives (``NO_TDMREP`` when there is no file); ``None`` while the
    file is unknown (never fetched, or deferred)."""
    if outcome is None or outcome.kind == "deferred":
        return None
    if outcome.kind == "parsed":
        return read_tdmrep(outcome.body or b"")
    return NO_TDMREP


def is_current(outcome: RobotsOutcome, now: datetime) -> bool:
    """Whether ``outcome`` may still be used at ``now``: before its expiry, or, deferred,
    before its next retry (then the URLs wait)."""
    if outcome.kind == "deferred":
        return outcome.retry_at is not None and outcome.retry_at > now
    return outcome.expires_at is None or outcome.expires_at > now
