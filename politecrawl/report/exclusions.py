"""A URL row's recorded robots.txt verdict as the report shows it [O3-O5, M1, M7].

Owns ``robots_exclusion``: the deciding line, rule text and reading of a URL that robots.txt
kept the crawl from, read out of its ``reason_detail``. The robots exclusions section
(``build``) and the sitemap audit (``sitemaps``, a listed URL robots.txt forbids) show the
verdict the same way. Reads no database: it takes the store's ``UrlRow``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from politecrawl.report.model import RobotsExclusion

if TYPE_CHECKING:
    from politecrawl.store.reading import UrlRow

__all__ = ["as_int", "as_text", "robots_exclusion"]


def as_text(value: Any) -> str:
    """A detail value as text ("" for None)."""
    return "" if value is None else str(value)


def as_int(value: Any) -> int | None:
    """A detail value that is an int (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _semantics(detail: Mapping[str, Any]) -> str:
    """How the exclusion was read: ``strict: rfc9309`` names the reading that forbade (M7)."""
    semantics = as_text(detail.get("semantics")) or "draft"
    forbidden_by = detail.get("forbidden_by")
    if semantics == "strict" and isinstance(forbidden_by, list) and forbidden_by:
        return f"strict: {' + '.join(map(str, forbidden_by))}"
    return semantics


def robots_exclusion(row: UrlRow) -> RobotsExclusion:
    """The robots.txt verdict recorded on ``row`` (a URL excluded with reason ``robots``)."""
    detail = row.detail
    return RobotsExclusion(
        url=row.url,
        origin=as_text(detail.get("origin")) or row.origin,
        semantics=_semantics(detail),
        line=as_int(detail.get("line")),
        text=None if detail.get("text") is None else str(detail["text"]),
        why=as_text(detail.get("why")),
        robots_status=as_int(detail.get("robots_status")),
    )
