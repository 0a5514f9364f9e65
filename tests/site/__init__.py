"""The end-to-end test web: a generated multi-origin site on 127.0.0.2+, its servers and request
log, the ground truth of a polite crawl of it (sitemaps included, S1-S4; link checking, L1-L5),
and auditors of a crawl's log.

Import it as ``tests.site`` (plain ``site`` is the standard library's module).
"""

from .audit import Audit, Gap, audit
from .build import build_site
from .canonical import TrapGuard, canonical
from .model import Page, Site
from .truth import CheckTruth, Referrer, SitemapTruth, Truth
from .web import Request, RequestLog, RunningWeb, serve

__all__ = [
    "Audit",
    "CheckTruth",
    "Gap",
    "Page",
    "Referrer",
    "Request",
    "RequestLog",
    "RunningWeb",
    "Site",
    "SitemapTruth",
    "TrapGuard",
    "Truth",
    "audit",
    "build_site",
    "canonical",
    "serve",
]
