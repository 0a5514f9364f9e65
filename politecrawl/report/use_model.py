"""The report's "Use preferences" as values [U3-U6]: per origin what its site says of each use,
and where a page contradicts its site's files.

``politecrawl.report.use_preferences.build_use_report`` fills a ``UseReport`` from a crawl
database; it is the ``use_preferences`` field of a ``Report``. Pure: no I/O, no clock. Every
tuple is in a stable order (by origin, then by how many pages a statement applied to).
"""

from __future__ import annotations

from dataclasses import dataclass

from politecrawl.usage import Signal, Use

MAX_STATEMENTS_SHOWN = 8
"""Statements listed per origin, most widespread first; the rest are counted."""
MAX_CONFLICTS_SHOWN = 200
"""Disagreements listed; the rest are counted."""


@dataclass(frozen=True, slots=True)
class UseTally:
    """What one origin's pages said of one use: pages whose signals refuse it, allow it (and
    refuse it nowhere), and say nothing of it."""

    use: Use
    refused: int
    allowed: int
    silent: int


@dataclass(frozen=True, slots=True)
class SaidBy:
    """A statement as recorded (a robots.txt line, a tdmrep.json rule, a header, a meta), and
    the pages of the origin it applied to."""

    signal: Signal
    pages: int


@dataclass(frozen=True, slots=True)
class OriginUse:
    """What one origin says of the uses, from the pages the crawl fetched."""

    origin: str
    pages: int
    """Pages fetched."""
    tallies: tuple[UseTally, ...]
    """One per use, in ``Use`` order."""
    said_by: tuple[SaidBy, ...]
    """The most widespread statements (at most ``MAX_STATEMENTS_SHOWN``)."""
    more_statements: int
    """Statements recorded beyond those."""
    excluded: int
    """URLs not fetched: robots.txt or tdmrep.json refused the crawl's purpose (U5)."""
    refused_pages: int
    """Pages fetched whose own signals refused the crawl's purpose (U5)."""
    tdmrep: str
    """Its tdmrep.json, when the crawl read it (``parsed: 200: read``), else ""."""


@dataclass(frozen=True, slots=True)
class UseDisagreement:
    """A page whose own signal contradicts its site's files: robots.txt says ai-train=yes, the
    page's meta says noai."""

    url: str
    origin: str
    uses: tuple[Use, ...]
    site: Signal
    page: Signal


@dataclass(frozen=True, slots=True)
class UseReport:
    """The "Use preferences" section and its disagreements."""

    purpose: str = "none"
    """The crawl's purpose (U5)."""
    origins: tuple[OriginUse, ...] = ()
    disagreements: tuple[UseDisagreement, ...] = ()
    more_disagreements: int = 0
    """Disagreements beyond those listed."""

    @property
    def said_anything(self) -> bool:
        """Some page or file of the crawl said something of a use, or withheld a URL."""
        return any(
            origin.said_by or origin.excluded or origin.refused_pages for origin in self.origins
        )
