"""robots.txt use preferences: ``Content-Signal`` and ``Content-Usage`` lines, per group [U1].

``Content-Signal: search=yes, ai-train=no`` (Content Signals) is read inside a User-agent group,
where it speaks for that group's robots, or before any group, where it speaks for every robot
(real files do both). ``Content-Usage: /path train-ai=n`` (draft-ietf-aipref-attach-05, section 3)
is read inside a group; the rule whose path is the longest match for a URL decides, paths
matched exactly as RFC 9309 matches Allow and Disallow (``*``, ``$``, escapes), a rule without a
path matching every URL, rules with the same path combined. A robot's groups are RFC 9309's:
every group naming it, merged, else every ``*`` group; and what the file says before any group
is combined with them. A line belongs to the group of the User-agent lines above it, as RFC 9309
groups lines (blank lines do not end a group), so the robots engine's own grouping is reused.

These lines never change what robots.txt allows: the robots parser does not read them, and this
module only reads the file again beside it (U1). Lenient as the parser is (F3): misspelled field
names (``Content-Signals``, ``ContentUsage``) and a missing colon are read, but only for what they
refuse; a value the vocabularies do not know says nothing; every such reading is a warning with
its line number. Pure, never raises on content.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from politecrawl.config.robots_values import RobotsLimits
from politecrawl.robots.match import READING, agent_name_token, rfc9309_normalise, rfc9309_pattern
from politecrawl.robots.parse import (
    octets_to_text,
    parse_robots_text,
    split_lines,
    text_to_bytes,
)
from politecrawl.robots.records import Record, group_records
from politecrawl.robots.rule_paths import BLANKS
from politecrawl.urls import robots_match_path
from politecrawl.usage.statements import (
    read_content_signal,
    read_content_usage,
    refusals_only,
    shorten,
)
from politecrawl.usage.values import (
    Protocol,
    Signal,
    UsageWarning,
    UsePreferences,
    signal,
)

_WHERE = "robots.txt"
_MAX_CACHED_AGENTS = 64
# Field names read, and whether the name is a misspelling (then only refusals are kept, F3).
_FIELDS: dict[str, tuple[Protocol, bool]] = {
    "content-signal": (Protocol.CONTENT_SIGNAL, False),
    "content-signals": (Protocol.CONTENT_SIGNAL, True),  # kept as a variant by crawler-commons
    "contentsignal": (Protocol.CONTENT_SIGNAL, True),
    "content signal": (Protocol.CONTENT_SIGNAL, True),
    "content-usage": (Protocol.CONTENT_USAGE, False),
    "content-usages": (Protocol.CONTENT_USAGE, True),
    "contentusage": (Protocol.CONTENT_USAGE, True),
    "content usage": (Protocol.CONTENT_USAGE, True),
}
_NAME_WITHOUT_COLON = re.compile(
    r"[ \t]*(content[ -]?(?:signal|usage)s?)[ \t]+(?=\S*=|/|\*)(.*)", re.IGNORECASE
)
_PATH_END = re.compile(r"[ \t]")


@dataclass(frozen=True, slots=True)
class UsageRule:
    """One ``Content-Usage`` line: its path (``""`` when it has none) and its signal."""

    path: str
    """The path as written (octets as latin-1 text); ``""``: every path."""
    signal: Signal
    matches: Callable[[str], bool]
    """Whether the rule's path matches a URL's normalised match path (RFC 9309)."""


@dataclass(frozen=True, slots=True)
class Scope:
    """What one group, or the file before any group, says."""

    label: str
    signals: tuple[Signal, ...]
    """Its ``Content-Signal`` lines."""
    usage_rules: tuple[UsageRule, ...]
    """Its ``Content-Usage`` lines."""


class RobotsPreferences:
    """The use preferences of one robots.txt. Build one with ``read_robots_preferences``."""

    __slots__ = ("_records", "_scopes", "_views", "file_wide", "warnings")

    def __init__(
        self,
        file_wide: Scope,
        records: tuple[Record, ...],
        scopes: tuple[Scope, ...],
        warnings: tuple[UsageWarning, ...],
    ) -> None:
        self.file_wide = file_wide
        """What the file says before its first User-agent line: for every robot."""
        self.warnings = warnings
        """What was read leniently or ignored, with line numbers."""
        self._records = records
        self._scopes = scopes  # scopes[i] is what records[i] says
        self._views: dict[str, tuple[Scope, ...]] = {}

    @property
    def is_silent(self) -> bool:
        """The file has no use preference line (most files): it says nothing of any URL."""
        return not any(
            scope.signals or scope.usage_rules for scope in (self.file_wide, *self._scopes)
        )

    @property
    def scopes(self) -> tuple[Scope, ...]:
        """What each group says, in file order (RFC 9309 groups)."""
        return self._scopes

    def scopes_for(self, user_agent: str) -> tuple[Scope, ...]:
        """The file-wide scope and the scopes of the groups that apply to ``user_agent`` (a
        header value or a bare name token): RFC 9309's, every group naming it merged, else
        every ``*`` group."""
        view = self._views.get(user_agent)
        if view is None:
            selected = READING["rfc9309"].select(self._records, agent_name_token(user_agent))
            chosen = {id(record) for record in selected}
            view = (
                self.file_wide,
                *(
                    scope
                    for record, scope in zip(self._records, self._scopes, strict=True)
                    if id(record) in chosen
                ),
            )
            if len(self._views) >= _MAX_CACHED_AGENTS:
                self._views.clear()
            self._views[user_agent] = view
        return view

    def for_url(self, user_agent: str, url: str) -> UsePreferences:
        """The signals that apply to ``url`` for ``user_agent``: every ``Content-Signal`` of its
        groups and of the file, and the longest-matching ``Content-Usage`` rules of its groups
        (and, apart, of the file). Combine them with ``UsePreferences.verdict`` (U4). The
        file's warnings are ``self.warnings``, not repeated for every URL."""
        scopes = self.scopes_for(user_agent)
        path = rfc9309_normalise(robots_match_path(url))
        group_rules = [rule for scope in scopes[1:] for rule in scope.usage_rules]
        found = [one for scope in scopes for one in scope.signals]
        found.extend(_longest_matches(group_rules, path))
        found.extend(_longest_matches(list(self.file_wide.usage_rules), path))
        return UsePreferences(tuple(found))

    def __repr__(self) -> str:
        said = sum(len(scope.signals) + len(scope.usage_rules) for scope in self._scopes)
        return f"<RobotsPreferences groups={len(self._scopes)} lines={said}>"


def _longest_matches(rules: list[UsageRule], path: str) -> list[Signal]:
    """The signals of the matching rules with the longest path (draft-ietf-aipref-attach-05
    3.1): several rules with that path all apply, combined by the vocabulary's rule."""
    matching = [rule for rule in rules if rule.matches(path)]
    if not matching:
        return []
    longest = max(len(rule.path) for rule in matching)
    return [rule.signal for rule in matching if len(rule.path) == longest]


def path_matcher(path: str) -> Callable[[str], bool]:
    """A test of whether a rule path (octets as latin-1 text) matches a URL's match path once
    ``rfc9309_normalise``-d, as RFC 9309 matches Allow and Disallow; ``""`` matches every path.
    Content-Usage rules and TDMRep locations share it."""
    if not path:
        return lambda _path: True
    is_regex, pattern = rfc9309_pattern(path)
    if is_regex:
        match = re.compile(pattern, re.DOTALL).match
        return lambda normalised: match(normalised) is not None
    return lambda normalised: normalised.startswith(pattern)


class _Builder:
    """The reader's state: lines sorted into the file-wide scope and each group's."""

    def __init__(self, records: tuple[Record, ...]) -> None:
        self.records = records
        self.starts = [record.line_number for record in records]
        self.signals: list[list[Signal]] = [[] for _ in range(len(records) + 1)]
        self.rules: list[list[UsageRule]] = [[] for _ in range(len(records) + 1)]
        self.warnings: list[UsageWarning] = []
        self.read = 0

    def warn(self, line_number: int, message: str) -> None:
        self.warnings.append(UsageWarning(_WHERE, line_number, message))

    def group_of(self, line_number: int) -> int:
        """0 for the file-wide scope, else 1 + the index of the line's group."""
        return bisect_right(self.starts, line_number)

    def label(self, group: int) -> str:
        if group == 0:
            return "before any User-agent group, for every robot"
        record = self.records[group - 1]
        return "User-agent: " + ", ".join(record.first_agents or record.agents)

    def add(self, number: int, line: str, protocol: Protocol, value: str, misread: str) -> None:
        """Read one line; ``misread`` names a field name read leniently (only refusals kept)."""
        group = self.group_of(number)
        source = f"{_WHERE} line {number} ({self.label(group)})"
        shown = shorten(octets_to_text(line.strip(BLANKS)))
        if protocol is Protocol.CONTENT_SIGNAL:
            stances, notes = read_content_signal(octets_to_text(value))
            path = None
        else:
            split = _split_usage_value(value, number, self)
            if split is None:
                return
            path, statement = split
            stances, notes = read_content_usage(statement.encode("latin-1"))
            if group == 0:
                self.warn(
                    number, "Content-Usage outside any User-agent group: read for every robot"
                )
        for note in notes:
            self.warn(number, note)
        if misread:
            stances = refusals_only(stances)
            self.warn(number, f"{misread} read as {protocol.value}: only its refusals are kept")
        found = signal(protocol, source, shown, stances, line_number=number)
        if not found.says_anything and not notes:
            self.warn(number, "says nothing of search, ai-input or ai-train")
        if path is None:
            self.signals[group].append(found)
        else:
            self.rules[group].append(UsageRule(path, found, path_matcher(path)))

    def build(self) -> RobotsPreferences:
        scopes = [
            Scope(self.label(group), tuple(self.signals[group]), tuple(self.rules[group]))
            for group in range(len(self.records) + 1)
        ]
        return RobotsPreferences(scopes[0], self.records, tuple(scopes[1:]), tuple(self.warnings))


def _split_usage_value(value: str, number: int, builder: _Builder) -> tuple[str, str] | None:
    """``(path, statement)`` of a Content-Usage value, or ``None`` for a path alone: a value
    starting with ``/`` has a path up to the first blank (draft-ietf-aipref-attach-05 3.2); a
    first word starting with ``*`` and holding no ``=`` is read as a path too."""
    if value.startswith("/") or (value.startswith("*") and "=" not in value.split(maxsplit=1)[0]):
        end = _PATH_END.search(value)
        if end is None:
            builder.warn(number, "Content-Usage path without a preference, ignored")
            return None
        if not value.startswith("/"):
            builder.warn(number, "Content-Usage path does not start with '/': read as a pattern")
        return value[: end.start()], value[end.end() :].strip(BLANKS)
    return "", value


def read_robots_preferences(
    data: str | bytes, limits: RobotsLimits | None = None
) -> RobotsPreferences:
    """Read the ``Content-Signal`` and ``Content-Usage`` lines of robots.txt content, within the
    robots parser's limits (O8). Never raises on content."""
    limits = limits or RobotsLimits()
    if isinstance(data, str):
        data = text_to_bytes(data)
    parsed = parse_robots_text(data, limits)
    builder = _Builder(group_records(parsed.directives, draft=False))
    last_line = None
    if parsed.tail_unread and "rules" in parsed.unread_because and parsed.directives:
        last_line = parsed.directives[-1].line_number  # the parser stopped there (O8)
    for index, line in enumerate(split_lines(data, limits)):
        number = index + 1
        if last_line is not None and number > last_line:
            break
        _read_line(builder, number, line[: limits.max_line_bytes], limits)
    return builder.build()


def _read_line(builder: _Builder, number: int, line: str, limits: RobotsLimits) -> None:
    content = line.split("#", 1)[0]  # '#' always starts a comment (attach-05 3.2)
    colon = content.find(":")
    name = content[:colon].strip(BLANKS).lower() if colon >= 0 else ""
    if name in _FIELDS:
        value = content[colon + 1 :]
        protocol, misspelled = _FIELDS[name]
        misread = f"{name!r}" if misspelled else ""
    else:
        without = _NAME_WITHOUT_COLON.fullmatch(content)
        if without is None:
            return  # another field: the robots parser's business
        name = re.sub(r"[ -]", "-", without.group(1).lower())
        protocol = Protocol.CONTENT_SIGNAL if "signal" in name else Protocol.CONTENT_USAGE
        value, misread = without.group(2), f"{name!r} without a colon"
    value = value.strip(BLANKS)
    if builder.read >= limits.max_rules:
        builder.warn(number, "too many preference lines, ignored")
        return
    builder.read += 1
    if not value:
        builder.warn(number, f"empty {protocol.value} value, ignored")
        return
    builder.add(number, content, protocol, value, misread)
