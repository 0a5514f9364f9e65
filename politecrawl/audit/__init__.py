"""Who crawls a site: an access log audited against its robots.txt [G1-G4].

    >>> from politecrawl.audit import audit_log
    >>> result = audit_log(open("access.log"), robots=open("robots.txt").read())  # doctest: +SKIP
    >>> for crawler in result.crawlers:  # doctest: +SKIP
    ...     print(crawler.name, crawler.verdict)
    googlebot obeys
    sneakybot ignores robots.txt; too fast

Each crawler is known by its User-Agent's product token, and judged by the robots.txt group it
would obey (the strict reading: what both the 1996 draft and RFC 9309 allow, M7): robots.txt
read first, forbidden URLs with the deciding line, gaps against Crawl-delay and Request-rate,
waits after 429/503, requests in flight at once. ``Auditor`` streams files (gzip or not) for
the ``politecrawl audit`` command; ``render`` writes text, csv, json and html.
"""

from politecrawl.audit.auditor import Auditor, audit_log
from politecrawl.audit.records import BadLine, LogRecord
from politecrawl.audit.results import (
    AuditResult,
    CrawlerAudit,
    ForbiddenUrl,
    Incident,
    RobotsReads,
    as_plain,
)
from politecrawl.audit.versions import RobotsVersion

__all__ = [
    "AuditResult",
    "Auditor",
    "BadLine",
    "CrawlerAudit",
    "ForbiddenUrl",
    "Incident",
    "LogRecord",
    "RobotsReads",
    "RobotsVersion",
    "as_plain",
    "audit_log",
]
