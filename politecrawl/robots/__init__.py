"""The robots.txt engine: parse a file, then ask which URLs a robot may fetch. Pure: no I/O.

    >>> from politecrawl.robots import parse_robots
    >>> policy = parse_robots("User-agent: *\\nDisallow: /private\\n")
    >>> policy.is_allowed("examplebot/1.0", "https://example.org/private/x")
    False

Two semantics: ``draft`` (the 1996 Internet-Draft, the default) and ``rfc9309``.
"""

from politecrawl.robots.match import SEMANTICS_NAMES, SemanticsName, agent_name_token
from politecrawl.robots.parse import ParseWarning, RequestRate, RobotsLimits
from politecrawl.robots.policy import RobotsPolicy, Verdict, parse_robots
from politecrawl.robots.records import Record, Rule

__all__ = [
    "SEMANTICS_NAMES",
    "ParseWarning",
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
