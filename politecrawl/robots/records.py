"""Directives to records: which lines belong to which User-agent group [F2, F4, F5, F6].

Both semantics share these rules: a User-agent line after a rule line starts a new record, and
rule lines before any User-agent line are ignored (F4). Rule lines are Allow, Disallow and the
extensions read here, Crawl-delay and Request-rate (the draft's grammar counts extensions as
rule lines; so do CPython and Protego): ``User-agent: *`` then ``Crawl-delay: 10`` ends with
the next User-agent line, never swallowing it. They differ on blank lines: the draft ends a
record at a blank line once it has a rule line, while a blank line between User-agent lines
and the first rule keeps them together (F4); RFC 9309 ignores blank lines. A rule line's paths
are each reading's own (``rule_paths``: the draft splits a Disallow at blanks, F5). The draft
also drops a record with no rule line at all (its grammar requires one), so a trailing
``User-agent: x`` does not take x out of the ``*`` record; RFC 9309 keeps it as an empty group.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from politecrawl.robots.parse import (
    Directive,
    Field,
    RequestRate,
    parse_crawl_delay,
    parse_request_rate,
)


class Rule(NamedTuple):
    """One Allow or Disallow path (as written, octets carried as latin-1 text), with the line
    it came from. A NamedTuple: one is made per path, and it is as immutable as a dataclass."""

    allow: bool
    path: str
    directive: Directive

    @property
    def line_number(self) -> int:
        """The 1-based line of robots.txt this rule is on."""
        return self.directive.line_number

    @property
    def line(self) -> str:
        """The line as a person reads it (UTF-8 decoded, comment and spacing kept)."""
        return self.directive.display_line


@dataclass(frozen=True, slots=True)
class Record:
    """A group: the robots it names (lower-cased) and its rules in file order."""

    agents: tuple[str, ...]
    rule_lines: tuple[Directive, ...]
    """Its Allow and Disallow lines; ``rules`` has one ``Rule`` per path of them."""
    crawl_delay: float | None
    request_rate: RequestRate | None
    line_number: int
    """The line of its first User-agent line."""
    first_agents: tuple[str, ...] = ()
    """The first word of each of its User-agent lines (lower-cased): RFC 9309 and Google read
    a line's first word as the robot's name, and the rest as no name of their own."""
    draft_reading: bool = True
    """Its rules take each line's draft paths (``Directive.values``), else RFC 9309's
    (``Directive.rfc9309_values``)."""

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The record's rules in file order (built on demand: most records are never asked)."""
        return tuple(
            Rule(line.field is Field.ALLOW, path, line)
            for line in self.rule_lines
            for path in (line.values if self.draft_reading else line.rfc9309_values)
        )


class _RecordBuilder:
    def __init__(self, line_number: int) -> None:
        self.line_number = line_number
        self.agents: list[str] = []
        self.first_agents: list[str] = []
        self.rule_lines: list[Directive] = []
        self.has_rule_line = False
        self.crawl_delay: float | None = None
        self.request_rate: RequestRate | None = None

    def add(self, directive: Directive) -> None:
        kind = directive.field
        self.has_rule_line = True
        if kind is Field.ALLOW or kind is Field.DISALLOW:
            self.rule_lines.append(directive)
        elif kind is Field.CRAWL_DELAY:
            delay = parse_crawl_delay(directive.values[0])
            if delay is not None:  # F6: invalid values are ignored; several: the slowest wins
                self.crawl_delay = (
                    delay if self.crawl_delay is None else max(self.crawl_delay, delay)
                )
        elif kind is Field.REQUEST_RATE:
            rate = parse_request_rate(directive.values[0])
            if rate is not None and (
                self.request_rate is None
                or rate.seconds / rate.requests
                > self.request_rate.seconds / self.request_rate.requests
            ):
                self.request_rate = rate

    def build(self, *, draft: bool) -> Record:
        return Record(
            tuple(self.agents),
            tuple(self.rule_lines),
            self.crawl_delay,
            self.request_rate,
            self.line_number,
            tuple(self.first_agents),
            draft_reading=draft,
        )


def group_records(directives: tuple[Directive, ...], *, draft: bool) -> tuple[Record, ...]:
    """Group directives into records, in file order, the draft's way or RFC 9309's."""
    builders: list[_RecordBuilder] = []
    current: _RecordBuilder | None = None
    for directive in directives:
        kind = directive.field
        if kind is Field.BLANK:
            if draft and current is not None and current.has_rule_line:
                current = None
            continue
        if kind is Field.USER_AGENT:
            if current is None or current.has_rule_line:
                current = _RecordBuilder(directive.line_number)
                builders.append(current)
            current.agents.extend(agent.lower() for agent in directive.values)
            if directive.values:
                current.first_agents.append(directive.values[0].lower())
        elif current is not None:
            current.add(directive)
        # else: a rule line outside any record is ignored (F4)
    return tuple(
        builder.build(draft=draft) for builder in builders if builder.has_rule_line or not draft
    )
