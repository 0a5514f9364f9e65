"""The robots.txt engine: parse a file, then ask which URLs a robot may fetch. Pure: no I/O.

    >>> from politecrawl.robots import parse_robots
    >>> policy = parse_robots("User-agent: *\\nDisallow: /private\\n")
    >>> policy.is_allowed("examplebot/1.0", "https://example.org/private/x")
    False

Three semantics: ``strict`` (the default, SPEC M7: a URL is allowed only when both readings
allow it), ``draft`` (the 1996 Internet-Draft's letter alone) and ``rfc9309`` (RFC 9309 alone).
"""

from politecrawl.config.robots_values import (
    DEFAULT_SEMANTICS,
    SEMANTICS_NAMES,
    RobotsLimits,
    SemanticsName,
)
from politecrawl.robots.match import READINGS, ReadingName, agent_name_token
from politecrawl.robots.parse import ParseWarning, RequestRate
from politecrawl.robots.policy import RobotsPolicy, Verdict, parse_robots
from politecrawl.robots.records import Record, Rule

__all__ = [
    "DEFAULT_SEMANTICS",
    "READINGS",
    "SEMANTICS_NAMES",
    "ParseWarning",
    "ReadingName",
    "Record",
    "RequestRate",
    "RobotsLimits",
    "RobotsPolicy",
    "Rule",
    "SemanticsName",
    "Verdict",
    "agent_name_token",
    "parse_robots",
]
