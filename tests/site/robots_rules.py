"""A minimal draft-semantics robots.txt reader for the oracle (A2-A4, M1-M4, F2, F4, F6).

It only has to be right for the robots.txt files the test site serves; it is independent of
``politecrawl.robots`` on purpose, so the ground truth does not inherit the engine's bugs.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r|\n")
_HEX = frozenset("0123456789abcdefABCDEF")


@dataclass(frozen=True)
class Record:
    agents: tuple[str, ...]
    rules: tuple[tuple[bool, str], ...]  # (is_allow, path) in file order
    crawl_delay_seconds: float | None = None


@dataclass(frozen=True)
class RobotsFile:
    records: tuple[Record, ...]
    sitemaps: tuple[str, ...] = ()

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

    def verdict(self, agent: str, path: str) -> tuple[bool, str | None]:
        """``(allowed, deciding rule)`` for a path with its ``?query`` (M1-M4)."""
        record = self.record_for(agent)
        if record is None or path == "/robots.txt":
            return True, None  # O2: robots.txt itself is always allowed
        target = octets(path)
        for is_allow, rule in record.rules:
            if rule and target.startswith(octets(rule)):  # M3: an empty value matches nothing
                return is_allow, f"{'Allow' if is_allow else 'Disallow'}: {rule}"
        return True, None

    def crawl_delay_seconds(self, agent: str) -> float | None:
        record = self.record_for(agent)
        return None if record is None else record.crawl_delay_seconds


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


def parse_robots(text: str) -> RobotsFile:
    """Read records: User-agent lines, then rule lines; a blank line after rules ends a record,
    a comment-only line does not (F2, F4); unknown fields are ignored (F3)."""
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
            if not raw.strip() and rules:
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
                delay = float(value)
        elif field == "sitemap":
            sitemaps.append(value)
    close()
    return RobotsFile(tuple(records), tuple(sitemaps))
