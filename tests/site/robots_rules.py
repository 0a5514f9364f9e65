"""Minimal robots.txt readers for the oracle: the draft's (A2-A4, M1-M4, F2, F4, F6) and RFC
9309's (M6), and ``strict``, the crawl's default, which allows only what both allow (M7).

They only have to be right for the robots.txt files the test site serves; they are independent
of ``politecrawl.robots`` on purpose, so the ground truth does not inherit the engine's bugs.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r|\n")
_HEX = frozenset("0123456789abcdefABCDEF")
_RATE = re.compile(r"(\d+)\s*/\s*(\d+(?:\.\d*)?)\s*([smhdSMHD]?)")
_RATE_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


@dataclass(frozen=True)
class Record:
    agents: tuple[str, ...]
    rules: tuple[tuple[bool, str], ...]  # (is_allow, path) in file order
    crawl_delay_seconds: float | None = None


@dataclass(frozen=True)
class RobotsFile:
    records: tuple[Record, ...]
    sitemaps: tuple[str, ...] = ()
    groups: tuple[Record, ...] = ()  # RFC 9309's groups: blank lines ignored
    tail_unread: bool = False  # O8: the file went on past the byte limit

    def _undecided(self) -> tuple[bool, str | None]:
        """No rule read decides: allowed, unless the unread tail might forbid (O8)."""
        return (False, "the unread tail (O8)") if self.tail_unread else (True, None)

    def verdict(self, agent: str, path: str) -> tuple[bool, str | None]:
        """M7 (strict): ``(allowed, the forbidding rule)``: allowed only when both readings
        allow; the rule is named with the reading that forbade."""
        allowed, rule = self.draft_verdict(agent, path)
        if not allowed:
            return False, f"draft: {rule}"
        allowed, rule = self.rfc9309_verdict(agent, path)
        return (True, None) if allowed else (False, f"rfc9309: {rule}")

    def rfc9309_verdict(self, agent: str, path: str) -> tuple[bool, str | None]:
        """M6: every group naming the agent exactly, else every ``*`` group, merged; the
        longest matching pattern (``*`` any run, a final ``$`` the end) wins, Allow on ties."""
        if path == "/robots.txt":
            return True, None
        token = agent.lower()
        groups = [g for g in self.groups if token in (a.lower() for a in g.agents)]
        groups = groups or [g for g in self.groups if "*" in g.agents]
        best: tuple[int, bool, str] | None = None
        for group in groups:
            for is_allow, rule in group.rules:
                if rule and _rfc9309_matches(rule, path):
                    candidate = (len(rule), is_allow, rule)
                    if best is None or candidate[:2] > best[:2]:
                        best = candidate
        if best is None:
            return self._undecided()
        return (True, None) if best[1] else (False, f"Disallow: {best[2]}")

    def crawl_delay_seconds(self, agent: str) -> float | None:
        """The slower of the two readings' Crawl-delay (strict fetches no faster than either)."""
        record = self.record_for(agent)
        draft = None if record is None else record.crawl_delay_seconds
        token = agent.lower()
        groups = [g for g in self.groups if token in (a.lower() for a in g.agents)]
        groups = groups or [g for g in self.groups if "*" in g.agents]
        asked = [d for d in [draft, *(g.crawl_delay_seconds for g in groups)] if d is not None]
        return max(asked) if asked else None

    def record_for(self, agent: str) -> Record | None:
        """A2: the first record naming ``agent`` as a substring; A3: else the first ``*``."""
        token = agent.lower()
        for record in self.records:
            if any(token in value.lower() for value in record.agents if value != "*"):
                return record
        for record in self.records:
            if "*" in record.agents:
                return record
        return None  # A4: unlimited

    def draft_verdict(self, agent: str, path: str) -> tuple[bool, str | None]:
        """``(allowed, deciding rule)`` for a path with its ``?query`` (M1-M4)."""
        record = self.record_for(agent)
        if path == "/robots.txt":
            return True, None  # O2: robots.txt itself is always allowed
        if record is None:
            return self._undecided()  # A4: unlimited, as far as the file was read
        target = octets(path)
        for is_allow, rule in record.rules:
            if rule and target.startswith(octets(rule)):  # M3: an empty value matches nothing
                return is_allow, f"{'Allow' if is_allow else 'Disallow'}: {rule}"
        return self._undecided()


def octets(text: str) -> bytes:
    """M2: ``%xx`` decoded to its octet, except ``%2F`` which stays encoded (upper-cased)."""
    out = bytearray()
    index = 0
    while index < len(text):
        escape = text[index + 1 : index + 3]
        if text[index] == "%" and len(escape) == 2 and set(escape) <= _HEX:
            byte = int(escape, 16)
            out += b"%2F" if byte == 0x2F else bytes([byte])
            index += 3
        else:
            out += text[index].encode("utf-8")  # M5: non-ASCII as UTF-8 octets
            index += 1
    return bytes(out)


def _rfc9309_matches(rule: str, path: str) -> bool:
    anchored = rule.endswith("$")
    pattern = ".*".join(
        re.escape(part.decode("latin-1")) for part in octets(rule.rstrip("$")).split(b"*")
    )
    return (
        re.match(pattern + ("\\Z" if anchored else ""), octets(path).decode("latin-1"), re.DOTALL)
        is not None
    )


def parse_robots(text: str, *, tail_unread: bool = False) -> RobotsFile:
    """Read records both ways: the draft's (``_parse(text, draft=True)``) and RFC 9309's.
    ``tail_unread``: the file went on past what was read (O8)."""
    draft = _parse(text, draft=True)
    return RobotsFile(draft.records, draft.sitemaps, _parse(text, draft=False).records, tail_unread)


def _parse(text: str, *, draft: bool) -> RobotsFile:
    """Read records: User-agent lines, then rule lines; for the draft a blank line after rules
    ends a record, a comment-only line does not (F2, F4); unknown fields are ignored (F3)."""
    records: list[Record] = []
    sitemaps: list[str] = []
    agents: list[str] = []
    rules: list[tuple[bool, str]] = []
    delay: float | None = None

    def close() -> None:
        nonlocal agents, rules, delay
        if agents:
            records.append(Record(tuple(agents), tuple(rules), delay))
        agents, rules, delay = [], [], None

    for raw in _LINE_END.split(text):
        line = raw.split("#", 1)[0].strip()
        if not line:
            if draft and not raw.strip() and rules:
                close()
            continue
        field, colon, value = line.partition(":")
        if not colon:
            continue
        field, value = field.strip().lower(), value.strip()
        if field == "user-agent":
            if rules:
                close()
            agents.append(value)
        elif field in ("allow", "disallow") and agents:
            rules.append((field == "allow", value))
        elif field == "crawl-delay" and agents:
            with contextlib.suppress(ValueError):  # F6: an invalid value is ignored
                delay = max(delay or 0.0, float(value))
        elif field == "request-rate" and agents:
            rate = _RATE.fullmatch(value)  # F6: n requests per so many seconds
            if rate and int(rate.group(1)) > 0:
                seconds = float(rate.group(2)) * _RATE_UNITS[rate.group(3).lower()]
                delay = max(delay or 0.0, seconds / int(rate.group(1)))
        elif field == "sitemap":
            sitemaps.append(value)
    close()
    return RobotsFile(tuple(records), tuple(sitemaps))
