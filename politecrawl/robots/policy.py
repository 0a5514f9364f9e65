"""``RobotsPolicy``: one parsed robots.txt, asked about robots and URLs, in either semantics.

A policy is immutable. It keeps the parse and, per semantics, the grouped records and the
compiled rules of each robot that asked, so that ``is_allowed`` costs one regular-expression
match. ``with_semantics`` gives the other reading of the same parse; ``disagreement`` compares the
two (M6) so a crawler can record where they part.
"""

from __future__ import annotations

from dataclasses import dataclass

from politecrawl.robots.match import (
    SEMANTICS,
    SEMANTICS_NAMES,
    RuleMatcher,
    SemanticsName,
    agent_name_token,
)
from politecrawl.robots.parse import (
    ParsedRobots,
    ParseWarning,
    RequestRate,
    RobotsLimits,
    parse_robots_text,
)
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
    """The parse and the caches shared by both semantic views of one policy."""

    __slots__ = ("parsed", "records", "views")

    def __init__(self, parsed: ParsedRobots) -> None:
        self.parsed = parsed
        self.records: dict[SemanticsName, tuple[Record, ...]] = {}
        self.views: dict[SemanticsName, dict[str, _AgentView]] = {
            name: {} for name in SEMANTICS_NAMES
        }


def _check_semantics(semantics: str) -> SemanticsName:
    for name in SEMANTICS_NAMES:
        if semantics == name:
            return name
    raise ValueError(f"unknown robots semantics {semantics!r}; use one of {SEMANTICS_NAMES}")


class RobotsPolicy:
    """A parsed robots.txt. Build one with ``parse_robots``."""

    __slots__ = ("_data", "_views", "semantics")

    def __init__(self, parsed: ParsedRobots, semantics: str = "draft") -> None:
        self._data = _PolicyData(parsed)
        self.semantics: SemanticsName = _check_semantics(semantics)
        self._views = self._data.views[self.semantics]

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
        """The records in this policy's semantics, in file order."""
        return self._records(self.semantics)

    def with_semantics(self, semantics: str) -> RobotsPolicy:
        """The same parsed file read with the other semantics (shares the parse and caches)."""
        view = RobotsPolicy.__new__(RobotsPolicy)
        view._data = self._data
        view.semantics = _check_semantics(semantics)
        view._views = self._data.views[view.semantics]
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
        view = self._views.get(user_agent) or self._view(self.semantics, user_agent)
        return view.matcher.is_allowed(path)

    def crawl_delay(self, user_agent: str) -> float | None:
        """Seconds asked for by ``Crawl-delay`` in the record that applies, or ``None`` (F6)."""
        return self._view(self.semantics, user_agent).crawl_delay

    def request_rate(self, user_agent: str) -> RequestRate | None:
        """The ``Request-rate`` of the record that applies, or ``None`` (F6)."""
        return self._view(self.semantics, user_agent).request_rate

    def explain(self, user_agent: str, url: str, *, semantics: str | None = None) -> Verdict:
        """The verdict for ``url`` with the record and line that decided it, or why none did."""
        name = self.semantics if semantics is None else _check_semantics(semantics)
        path = robots_match_path(url)
        view = self._view(name, user_agent)
        token = view.token
        if path in _ROBOTS_TXT_PATHS:
            return Verdict(
                True, name, token, path, None, None, "/robots.txt is always allowed (O2)"
            )
        if not view.records:
            return Verdict(
                True,
                name,
                token,
                path,
                None,
                None,
                f"no record names {_shown(token)} and there is no '*' record (A4)",
            )
        record_line = view.records[0].line_number
        rule = view.matcher.first_match(path)
        if rule is None:
            return Verdict(
                True,
                name,
                token,
                path,
                None,
                record_line,
                f"no rule of the record at line {record_line} matches (M1)",
            )
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
        """``(this semantics' verdict, the other's)`` when they differ on ``url``, else ``None``."""
        other: SemanticsName = "rfc9309" if self.semantics == "draft" else "draft"
        mine = self.explain(user_agent, url)
        theirs = self.explain(user_agent, url, semantics=other)
        return None if mine.allowed == theirs.allowed else (mine, theirs)

    # --- caches ------------------------------------------------------------------------------

    def _records(self, name: SemanticsName) -> tuple[Record, ...]:
        records = self._data.records.get(name)
        if records is None:
            records = SEMANTICS[name].records(self._data.parsed.directives)
            self._data.records[name] = records
        return records

    def _view(self, name: SemanticsName, user_agent: str) -> _AgentView:
        views = self._data.views[name]
        view = views.get(user_agent)
        if view is not None:
            return view
        semantics = SEMANTICS[name]
        token = agent_name_token(user_agent)
        records = semantics.select(self._records(name), token)
        rules = [rule for record in records for rule in record.rules]
        delays = [record.crawl_delay for record in records if record.crawl_delay is not None]
        rates = [record.request_rate for record in records if record.request_rate is not None]
        view = _AgentView(
            token,
            records,
            semantics.compile(rules),
            max(delays) if delays else None,
            max(rates, key=lambda rate: rate.seconds / rate.requests) if rates else None,
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


def parse_robots(
    text: str | bytes, *, semantics: str = "draft", limits: RobotsLimits | None = None
) -> RobotsPolicy:
    """Parse robots.txt content into a policy read with ``semantics`` ("draft" or "rfc9309").

    Never raises on content: undecodable octets, NUL bytes and garbage lines are read leniently
    and noted in ``policy.warnings``; resource limits (``limits``, O8) are reported by
    ``policy.truncated``. Raises ``ValueError`` only for an unknown ``semantics``.
    """
    name = _check_semantics(semantics)
    return RobotsPolicy(parse_robots_text(text, limits), name)
