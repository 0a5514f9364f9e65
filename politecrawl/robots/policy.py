"""``RobotsPolicy``: one parsed robots.txt, asked about robots and URLs, in any semantics.

A policy is immutable. It keeps the parse and, per reading (the draft's and RFC 9309's), the
grouped records and the compiled rules of each robot that asked, so that ``is_allowed`` costs a
look-up or two. ``strict`` (M7, the default) asks both readings and allows only what both allow;
its verdicts carry both readings' verdicts, so every refusal names the reading and the line that
forbade. ``with_semantics`` gives another reading of the same parse; ``disagreement`` compares
the draft with RFC 9309 (M6) so a crawler can record where they part.
"""

from __future__ import annotations

from dataclasses import dataclass

from politecrawl.config.robots_values import (
    DEFAULT_SEMANTICS,
    SEMANTICS_NAMES,
    RobotsLimits,
    SemanticsName,
)
from politecrawl.robots.match import READING, READINGS, ReadingName, RuleMatcher, agent_name_token
from politecrawl.robots.parse import ParsedRobots, ParseWarning, RequestRate, parse_robots_text
from politecrawl.robots.records import Record, Rule
from politecrawl.urls import robots_match_path

_MAX_CACHED_AGENTS = 64
_ROBOTS_TXT_PATHS = frozenset(("/robots.txt", "/robots.txt?"))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a URL is allowed or not: the deciding record and line, or the reason none decided."""

    allowed: bool
    semantics: SemanticsName
    agent_token: str
    path: str
    """The path and query that was matched (M4)."""
    rule: Rule | None
    """The deciding Allow or Disallow line; ``None`` when no rule decided."""
    record_line: int | None
    """The first User-agent line of the record that applied (with RFC 9309, of the first group)."""
    reason: str
    readings: tuple[Verdict, ...] = ()
    """Under ``strict``: the draft's and RFC 9309's own verdicts, in that order (M7)."""

    @property
    def forbidden_by(self) -> tuple[ReadingName, ...]:
        """The readings that disallow the URL: under ``strict`` one or both, else this one."""
        if self.readings:
            return tuple(name for v in self.readings if not v.allowed for name in v.forbidden_by)
        return () if self.allowed or self.semantics == "strict" else (self.semantics,)

    def describe(self) -> str:
        """One line for people: the verdict and what decided it."""
        word = "allowed" if self.allowed else "disallowed"
        return f"{word} ({self.semantics}): {self.reason}"


@dataclass(frozen=True, slots=True)
class _AgentView:
    """What one robot sees of a policy in one semantics."""

    token: str
    records: tuple[Record, ...]
    matcher: RuleMatcher
    crawl_delay: float | None
    request_rate: RequestRate | None


class _PolicyData:
    """The parse and the caches shared by every semantic view of one policy."""

    __slots__ = ("parsed", "records", "views")

    def __init__(self, parsed: ParsedRobots) -> None:
        self.parsed = parsed
        self.records: dict[ReadingName, tuple[Record, ...]] = {}
        self.views: dict[ReadingName, dict[str, _AgentView]] = {name: {} for name in READINGS}


def _check_semantics(semantics: str) -> SemanticsName:
    for name in SEMANTICS_NAMES:
        if semantics == name:
            return name
    raise ValueError(f"unknown robots semantics {semantics!r}; use one of {SEMANTICS_NAMES}")


def _readings(semantics: SemanticsName) -> tuple[ReadingName, ...]:
    return READINGS if semantics == "strict" else (semantics,)


class RobotsPolicy:
    """A parsed robots.txt. Build one with ``parse_robots``."""

    __slots__ = ("_data", "_readings", "semantics")

    def __init__(self, parsed: ParsedRobots, semantics: str = DEFAULT_SEMANTICS) -> None:
        self._data = _PolicyData(parsed)
        self._set_semantics(_check_semantics(semantics))

    def _set_semantics(self, semantics: SemanticsName) -> None:
        self.semantics: SemanticsName = semantics
        self._readings = tuple((name, self._data.views[name]) for name in _readings(semantics))

    # --- facts about the file -----------------------------------------------------------------

    @property
    def sitemaps(self) -> list[str]:
        """``Sitemap`` URLs in file order, without repeats (F6)."""
        return list(self._data.parsed.sitemaps)

    @property
    def truncated(self) -> bool:
        """True when a limit (bytes, line length, rule count) cut the file short (O8)."""
        return self._data.parsed.truncated

    @property
    def limits(self) -> RobotsLimits:
        """The limits the file was parsed under."""
        return self._data.parsed.limits

    @property
    def warnings(self) -> list[ParseWarning]:
        """What the parser ignored or read leniently, with line numbers."""
        return list(self._data.parsed.warnings)

    @property
    def records(self) -> tuple[Record, ...]:
        """The records in this policy's semantics, in file order (``strict``: the draft's)."""
        return self._records(_readings(self.semantics)[0])

    def with_semantics(self, semantics: str) -> RobotsPolicy:
        """The same parsed file read with another semantics (shares the parse and caches)."""
        view = RobotsPolicy.__new__(RobotsPolicy)
        view._data = self._data
        view._set_semantics(_check_semantics(semantics))
        return view

    # --- questions a crawler asks -------------------------------------------------------------

    def is_allowed(self, user_agent: str, url: str) -> bool:
        """May the robot ``user_agent`` (a header value or a bare name token) fetch ``url``?

        ``url`` is an absolute URL or a path; its path and query are matched (M4). The URL's host
        is not checked: a policy is the caller's for the origin it was fetched from (O1).
        """
        path = robots_match_path(url)
        if path in _ROBOTS_TXT_PATHS:
            return True  # O2, draft 3.2.2
        for name, views in self._readings:
            view = views.get(user_agent) or self._view(name, user_agent)
            if not view.matcher.is_allowed(path):
                return False  # M7: under strict, either reading may forbid
        return True

    def crawl_delay(self, user_agent: str) -> float | None:
        """Seconds asked for by ``Crawl-delay`` in the record that applies, or ``None`` (F6).

        Under ``strict`` the longer of the two readings' delays (fetching slower never breaks
        either)."""
        delays = [
            delay
            for name, _ in self._readings
            if (delay := self._view(name, user_agent).crawl_delay) is not None
        ]
        return max(delays) if delays else None

    def request_rate(self, user_agent: str) -> RequestRate | None:
        """The ``Request-rate`` of the record that applies, or ``None`` (F6); under ``strict``
        the slower of the two readings' rates."""
        rates = [
            rate
            for name, _ in self._readings
            if (rate := self._view(name, user_agent).request_rate) is not None
        ]
        return max(rates, key=_seconds_per_request) if rates else None

    def explain(self, user_agent: str, url: str, *, semantics: str | None = None) -> Verdict:
        """The verdict for ``url`` with the record and line that decided it, or why none did.

        Under ``strict`` (M7) the verdict is allowed only when both readings allow; it names the
        reading(s) that forbade, and ``readings`` holds both readings' own verdicts."""
        name = self.semantics if semantics is None else _check_semantics(semantics)
        if name == "strict":
            return _combine(
                tuple(self._explain_reading(reading, user_agent, url) for reading in READINGS)
            )
        return self._explain_reading(name, user_agent, url)

    def _explain_reading(self, name: ReadingName, user_agent: str, url: str) -> Verdict:
        path = robots_match_path(url)
        view = self._view(name, user_agent)
        token = view.token
        if path in _ROBOTS_TXT_PATHS:
            return Verdict(
                True, name, token, path, None, None, "/robots.txt is always allowed (O2)"
            )
        record_line = view.records[0].line_number if view.records else None
        rule = view.matcher.first_match(path)
        if rule is None:
            if record_line is None:
                reason = f"no record names {_shown(token)} and there is no '*' record (A4)"
            else:
                reason = f"no rule of the record at line {record_line} matches (M1)"
            if self._data.parsed.tail_unread:
                return Verdict(
                    False,
                    name,
                    token,
                    path,
                    None,
                    record_line,
                    f"{reason}, but the file was not read to its end "
                    f"({self._data.parsed.unread_because}), and its unread part may forbid it "
                    "(O8: when in doubt, fetch less)",
                )
            return Verdict(True, name, token, path, None, record_line, reason)
        kind = "Allow" if rule.allow else "Disallow"
        return Verdict(
            rule.allow,
            name,
            token,
            path,
            rule,
            record_line,
            f"line {rule.line_number} ({kind}) decides: {rule.line}",
        )

    def disagreement(self, user_agent: str, url: str) -> tuple[Verdict, Verdict] | None:
        """``(this reading's verdict, the other's)`` when the draft and RFC 9309 differ on
        ``url``, else ``None``; under ``strict``, ``(draft's, rfc9309's)``."""
        mine: ReadingName = "rfc9309" if self.semantics == "rfc9309" else "draft"
        other: ReadingName = "draft" if mine == "rfc9309" else "rfc9309"
        first = self._explain_reading(mine, user_agent, url)
        second = self._explain_reading(other, user_agent, url)
        return None if first.allowed == second.allowed else (first, second)

    # --- caches ------------------------------------------------------------------------------

    def _records(self, name: ReadingName) -> tuple[Record, ...]:
        records = self._data.records.get(name)
        if records is None:
            records = READING[name].records(self._data.parsed.directives)
            self._data.records[name] = records
        return records

    def _view(self, name: ReadingName, user_agent: str) -> _AgentView:
        views = self._data.views[name]
        view = views.get(user_agent)
        if view is not None:
            return view
        reading = READING[name]
        token = agent_name_token(user_agent)
        records = reading.select(self._records(name), token)
        rules = [rule for record in records for rule in record.rules]
        delays = [record.crawl_delay for record in records if record.crawl_delay is not None]
        rates = [record.request_rate for record in records if record.request_rate is not None]
        view = _AgentView(
            token,
            records,
            reading.compile(rules, tail_unread=self._data.parsed.tail_unread),
            max(delays) if delays else None,
            max(rates, key=_seconds_per_request) if rates else None,
        )
        if len(views) >= _MAX_CACHED_AGENTS:
            views.clear()  # callers pass one or two agents; never grow without bound
        views[user_agent] = view
        return view

    def __repr__(self) -> str:
        return (
            f"<RobotsPolicy {self.semantics} records={len(self.records)} "
            f"sitemaps={len(self.sitemaps)} truncated={self.truncated}>"
        )


def _shown(token: str) -> str:
    return repr(token) if token else "no name token"


def _seconds_per_request(rate: RequestRate) -> float:
    return rate.seconds / rate.requests


def _combine(readings: tuple[Verdict, ...]) -> Verdict:
    """The ``strict`` verdict of the draft's and RFC 9309's verdicts (M7)."""
    draft = readings[0]
    forbidding = [verdict for verdict in readings if not verdict.allowed]
    if not forbidding:
        reason = "; ".join(f"{verdict.semantics}: {verdict.reason}" for verdict in readings)
        decided = next((verdict for verdict in readings if verdict.rule is not None), draft)
        return Verdict(
            True,
            "strict",
            draft.agent_token,
            draft.path,
            decided.rule,
            decided.record_line,
            f"both readings allow it ({reason})",
            readings,
        )
    first = forbidding[0]
    reason = "; ".join(f"{verdict.semantics}: {verdict.reason}" for verdict in forbidding)
    return Verdict(
        False,
        "strict",
        first.agent_token,
        first.path,
        first.rule,
        first.record_line,
        reason,
        readings,
    )


def parse_robots(
    text: str | bytes, *, semantics: str = DEFAULT_SEMANTICS, limits: RobotsLimits | None = None
) -> RobotsPolicy:
    """Parse robots.txt content into a policy read with ``semantics``.

    ``"strict"`` (the default, SPEC M7) allows a URL only when both the 1996 draft's reading and
    RFC 9309's allow it: robots.txt only grants permission, so fetching less never breaks the
    draft, while real files are written for RFC 9309 (wildcards, several ``User-agent: *``
    groups, rule lines after a blank line, a longer Disallow after a shorter Allow). ``"draft"``
    keeps the draft's letter exactly; ``"rfc9309"`` is RFC 9309 alone.

    Never raises on content: undecodable octets, NUL bytes and garbage lines are read leniently
    and noted in ``policy.warnings``; resource limits (``limits``, O8) are reported by
    ``policy.truncated``. Raises ``ValueError`` only for an unknown ``semantics``.
    """
    name = _check_semantics(semantics)
    return RobotsPolicy(parse_robots_text(text, limits), name)
