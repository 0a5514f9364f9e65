"""Use preferences in a page's visit: what robots.txt and tdmrep.json say of its URL before it
is fetched, and tdmrep.json fetched in a lease's slot when the purpose needs it [U1, U3, U5].

With a crawl purpose (``[crawl] purpose``), a page URL that robots.txt allows is first judged by
the signals known before a fetch (``PreferenceVisits.before_fetch``): robots.txt's
``Content-Signal`` and ``Content-Usage`` lines for the crawl's agent (the gate's verdict
carries them, ``GateVerdict.said``), then, for ai-input and
ai-train (what TDMRep reserves), the origin's ``/.well-known/tdmrep.json``. A URL either refuses
is excluded, never requested, with the signals that refused it (reason ``use-preference``).

tdmrep.json is fetched as robots.txt is (``Gate.fetch_like_robots``), once per origin and again
when its HTTP lifetime is over (E2, E3), in the slot of the page URL that found it unknown, which
then waits for its host's next slot (as robots.txt's, O2). It is a URL of the origin like any
other: a robots.txt that forbids it keeps it unread (no reservation known). While it is
temporarily unavailable (5xx, no answer) the page URLs of its origin wait for its next retry,
with robots.txt's back-off; once the attempts are used up it reads as no reservation for a
while (``preferences.tdmrep_outcome``): a missing or broken tdmrep.json never blocks a site.

Sitemaps are judged as pages are: a sitemap whose URL refuses the purpose would only list URLs
that are not to be fetched either. Checks (L1-L3: a link leaving the site, a page's resource)
ask for a status and take no content: they are never withheld, and no tdmrep.json is fetched
for them. Without a purpose nothing is withheld and tdmrep.json is not fetched; ``before_fetch``
still gives what robots.txt says of a URL, which is recorded with its page (U6).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from politecrawl.crawl.visit_result import Ended
from politecrawl.gate import MemoryOutcomes
from politecrawl.politeness import next_start_after
from politecrawl.preferences import NO_TDMREP, TdmRepFile
from politecrawl.preferences.tdmrep import MAX_TDMREP_BYTES
from politecrawl.preferences.tdmrep_outcome import (
    TDMREP_PATH,
    is_current,
    tdmrep_file,
    tdmrep_outcome,
    tdmrep_settings,
)
from politecrawl.results import Excluded
from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import CHECK, Lease, ends
from politecrawl.usage import Use, UsePreferences, use_of_purpose
from politecrawl.usage.statements import TDM_RESERVED_USES

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.config import CrawlConfig
    from politecrawl.gate import Gate, GateVerdict, OutcomeStore

USE_PREFERENCE = "use-preference"
"""The reason of a URL excluded because a signal refuses the crawl's purpose (U5)."""
TDMREP_DEFERRED = "tdmrep-deferred"
"""The reason of a page URL waiting for its origin's tdmrep.json (U3)."""
_NOT_READ = (
    RobotsOutcome(
        "allow_all",
        None,
        None,
        "robots.txt forbids /.well-known/tdmrep.json: not read, no reservation known (U3)",
        None,
        None,
        0,
    ),
    NO_TDMREP,
)


class PreferenceVisits:
    """Use preferences before a page is fetched; shared by a crawl's worker threads."""

    def __init__(
        self,
        gate: Gate,
        tdmrep_outcomes: OutcomeStore | None,
        config: CrawlConfig,
        *,
        clock: Clock,
    ) -> None:
        """``tdmrep_outcomes``: where tdmrep.json outcomes are kept (the crawl database's
        ``store.TdmRepOutcomeStore``, E1); None: in memory."""
        self.gate = gate
        self.tdmrep_outcomes = MemoryOutcomes() if tdmrep_outcomes is None else tdmrep_outcomes
        self.clock = clock
        self.politeness = config.politeness
        self.purpose = use_of_purpose(config.crawl.purpose)
        self.agent = config.user_agent
        """The User-Agent robots.txt groups are chosen by (A1)."""
        self._settings = tdmrep_settings(config.robots.outcome_settings)
        self._tdmrep: dict[str, tuple[RobotsOutcome, TdmRepFile | None]] = {}
        self._lock = threading.Lock()

    @property
    def needs_tdmrep(self) -> bool:
        """tdmrep.json is read for this crawl: its purpose is one TDMRep speaks of (U3)."""
        return self.purpose in TDM_RESERVED_USES

    def before_fetch(
        self, lease: Lease, allowed: GateVerdict, becomes: str | None = None
    ) -> Ended | UsePreferences:
        """What robots.txt and, when this crawl reads it, tdmrep.json say of the lease's URL
        (recorded with its page, U6) when it may be fetched (U5). Otherwise how its visit
        ends: excluded (a signal refuses the purpose), given back after tdmrep.json was fetched
        in its slot, or deferred until tdmrep.json's next retry. ``allowed``: the gate's verdict
        (robots.txt's signals for the URL and its delay, P2); ``becomes``: the URL's new kind
        (L1)."""
        said = allowed.said
        purpose = self.purpose
        if purpose is None or (becomes or lease.kind) == CHECK:
            return said
        if said.refuses(purpose):
            return self._exclude(lease, said, purpose)  # refused already: tdmrep.json unneeded
        if not self.needs_tdmrep:
            return said
        now = self.clock.now()
        known = self._tdmrep_known(lease.origin, now)
        if known is None:
            return self._fetch_tdmrep(lease, allowed.robots_delay)
        outcome, rules = known
        if rules is None:  # deferred: wait for its next retry (O6's back-off)
            detail: dict[str, object] = {"tdmrep": outcome.reason}
            until = outcome.retry_at
            return Ended(
                ends.Deferred(lease, until=until, reason=TDMREP_DEFERRED, detail=detail),
                Excluded(lease.url, "deferred", TDMREP_DEFERRED, detail),
            )
        said = said.merged(rules.for_url(lease.url))
        return self._exclude(lease, said, purpose) if said.refuses(purpose) else said

    def _tdmrep_known(
        self, origin: str, now: datetime
    ) -> tuple[RobotsOutcome, TdmRepFile | None] | None:
        """``origin``'s tdmrep.json as known now: its outcome and rules (``None`` rules while
        deferred), or None when it is to be fetched (never fetched, expired, a retry due)."""
        with self._lock:
            known = self._tdmrep.get(origin)
        if known is None or not is_current(known[0], now):
            if self._forbidden(origin, now):
                return _NOT_READ
            outcome = self.tdmrep_outcomes.get(origin)  # another worker or process's fetch
            if outcome is None or not is_current(outcome, now):
                return None
            known = self._remember(origin, outcome)
        return known

    def _forbidden(self, origin: str, now: datetime) -> bool:
        """robots.txt forbids tdmrep.json to this crawl: it is not requested (O3)."""
        return self.gate.check(origin, origin + TDMREP_PATH, now=now).kind == "disallowed"

    def _remember(
        self, origin: str, outcome: RobotsOutcome
    ) -> tuple[RobotsOutcome, TdmRepFile | None]:
        known = (outcome, tdmrep_file(outcome))
        with self._lock:
            self._tdmrep[origin] = known
        return known

    def _fetch_tdmrep(self, lease: Lease, robots_delay: float) -> Ended:
        """tdmrep.json in the lease's slot; the URL waits for the host's next one (U3)."""
        origin = lease.origin
        fetched = self.gate.fetch_like_robots(
            origin + TDMREP_PATH,
            self.tdmrep_outcomes.get(origin),
            max_bytes=MAX_TDMREP_BYTES + 1,  # one octet more: the reader says it went on
            settings=self._settings,
        )
        finished = self.clock.now()
        outcome = tdmrep_outcome(fetched.outcome, now=finished, settings=self._settings)
        self.tdmrep_outcomes.put(origin, outcome, now=finished)
        self._remember(origin, outcome)
        next_at = next_start_after(
            finished,
            delay_seconds=self.politeness.delay_seconds,
            robots_delay=robots_delay,
            cut_short=fetched.cut_short,
        )
        if outcome.kind == "deferred":
            detail: dict[str, object] = {"tdmrep": outcome.reason}
            return Ended(
                ends.Deferred(
                    lease,
                    until=outcome.retry_at,
                    reason=TDMREP_DEFERRED,
                    detail=detail,
                    next_fetch_at=next_at,
                ),
                Excluded(lease.url, "deferred", TDMREP_DEFERRED, detail),
            )
        return Ended(ends.Released(lease, next_fetch_at=next_at))

    def _exclude(self, lease: Lease, said: UsePreferences, purpose: Use) -> Ended:
        """U5: the URL is not fetched; the detail names the refusing signals and their lines."""
        verdict = said.verdict(purpose)
        detail: dict[str, object] = {
            "origin": lease.origin,
            "purpose": purpose.value,
            "signals": [one.describe() for one in verdict.deciding],
            "lines": [one.line_number for one in verdict.deciding],
        }
        if policies := [one.policy for one in verdict.deciding if one.policy]:
            detail["tdm_policy"] = policies  # TDMRep: where to ask for a licence
        return Ended(
            ends.Excluded(lease, state="excluded", reason=USE_PREFERENCE, detail=detail),
            Excluded(lease.url, "excluded", USE_PREFERENCE, detail),
        )
