"""The link checks of the report (L1-L4): a crawl's checks read back and judged.

``build_link_checks(database)`` reads the store's link-check queries
(through ``politecrawl.store``; this module never touches SQL) into a ``LinkChecks``: the
links leaving the site and the resources that broke, the links to URLs that redirect for good
with where the redirects lead, the checks robots.txt forbids (with the deciding line, as for
pages), the ``#fragment`` links whose page has no such anchor, and how much was checked. The
judgements (which fragment is missing, where permanent redirects end) are made here.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

from politecrawl.config import FetchingSettings
from politecrawl.report.check_model import (
    BrokenCheck,
    ForbiddenCheck,
    LinkChecks,
    MissingFragment,
    RedirectToUpdate,
    Referrer,
)
from politecrawl.report.exclusions import robots_exclusion
from politecrawl.store import CHECK, Database, last_config
from politecrawl.store.reading import (
    FragmentLink,
    ReferredUrl,
    ReferrerRow,
    UrlRow,
    broken_checks,
    carried_broken,
    carried_fragment_links,
    check_counts,
    fragment_links,
    page_anchors,
    permanent_redirects,
    robots_forbidden_checks,
    rows_by_url,
)
from politecrawl.urls import InvalidURL, canonicalize

__all__ = ["CHECK_SETTINGS", "MAX_REDIRECTS", "build_link_checks", "referrer"]

CHECK_SETTINGS = ("check_outbound", "check_resources", "check_fragments")
"""The settings that turn link checking on: a crawl run with one says checking was on, even
when it found nothing to check."""
MAX_REDIRECTS = (
    FetchingSettings().max_redirects
)  # C4: the crawl's default; permanent redirects are followed no further
_WAITING = ("queued", "leased", "deferred")


def build_link_checks(
    database: Database, *, max_redirects: int = MAX_REDIRECTS, carry: bool = False
) -> LinkChecks:
    """What link checking found in the crawl in ``database``; sections empty when it was off.
    ``carry``: the current pass is unfinished, and the broken checks and missing fragments
    earlier passes found on what it has not settled yet are kept (marked ``from_pass``)."""
    counts = check_counts(database)
    checks_made = counts.checks.get("done", 0) + counts.checks.get("failed", 0)
    enabled = bool(counts.checks or counts.fragment_links) or _was_on(last_config(database))
    if not enabled:
        return LinkChecks(pages_checked=counts.pages_fetched)
    fragments = fragment_links(database)
    broken = broken_checks(database)
    if carry:  # L5: an unfinished pass keeps what earlier passes found on what it has not redone
        fragments = sorted(
            [*fragments, *carried_fragment_links(database)],
            key=lambda link: (link.url, link.fragment, link.from_url),
        )
        broken = sorted([*broken, *carried_broken(database, kind=CHECK)], key=_url)
    redirects, hops = permanent_redirects(database)
    return LinkChecks(
        enabled=True,
        pages_checked=counts.pages_fetched,
        checks_made=checks_made,
        checks_waiting=sum(counts.checks.get(state, 0) for state in _WAITING),
        fragments_checked=len(fragments),
        # A check no page links to any more (the link was removed since, a recrawl found) is
        # nobody's broken link.
        broken=tuple(_broken(item) for item in broken if item.referrers),
        redirects=_redirects(database, redirects, hops, max_redirects),
        robots_forbidden=tuple(map(_forbidden, robots_forbidden_checks(database))),
        missing_fragments=_missing_fragments(database, fragments),
    )


def _was_on(config: Mapping[str, Any] | None) -> bool:
    """The last run had a link-check setting on (flat, or in a ``checking`` table)."""
    if not config:
        return False
    nested = config.get("checking")
    tables = [config, nested] if isinstance(nested, Mapping) else [config]
    return any(table.get(name) is True for table in tables for name in CHECK_SETTINGS)


def referrer(ref: ReferrerRow) -> Referrer:
    """A linking page as the store gives it, as the report's value (every section's)."""
    return Referrer(ref.url, ref.nofollow, ref.text, ref.line, ref.resource, ref.redirect)


def _referrers(item: ReferredUrl) -> tuple[Referrer, ...]:
    return tuple(map(referrer, item.referrers))


def _url(item: ReferredUrl) -> str:
    return item.row.url


def _broken(item: ReferredUrl) -> BrokenCheck:
    row = item.row
    return BrokenCheck(
        row.url,
        row.origin,
        row.status,
        row.state,
        row.error,
        row.check_method,
        _referrers(item),
        item.from_pass,
    )


def _forbidden(item: ReferredUrl) -> ForbiddenCheck:
    verdict = robots_exclusion(item.row)
    return ForbiddenCheck(
        verdict.url,
        verdict.origin,
        verdict.semantics,
        verdict.line,
        verdict.text,
        verdict.why,
        _referrers(item),
    )


def _location(row: UrlRow) -> str | None:
    """Where ``row`` redirects, canonical (relative to the URL, should it be relative)."""
    if not row.final_url:
        return None
    try:
        return canonicalize(row.final_url, row.url)
    except InvalidURL:
        return None  # not crawlable (another scheme, say): no URL to link to


def _redirects(
    database: Database,
    linked: list[ReferredUrl],
    hops: Mapping[str, UrlRow],
    max_redirects: int,
) -> tuple[RedirectToUpdate, ...]:
    """Each linked permanent redirect, followed through the permanent redirects to the URL to
    link to instead: the first URL that is no permanent redirect (a page, an error, a
    temporary redirect, a URL not fetched)."""
    walks: list[tuple[ReferredUrl, str | None, int, bool]] = []
    for item in linked:
        url: str | None = item.row.url
        seen = {item.row.url}
        count, loop = 0, False
        while url is not None and url in hops and count <= max_redirects:
            url = _location(hops[url])
            count += 1
            if url is None or url in seen:
                loop = url is not None
                break
            seen.add(url)
        walks.append((item, url, count, loop))
    ends = rows_by_url(
        database, {url for _, url, _, _ in walks if url is not None and url not in hops}
    )
    return tuple(
        RedirectToUpdate(
            item.row.url,
            item.row.status or 0,
            url,
            _outcome(url, ends, hops, loop),
            count,
            _referrers(item),
        )
        for item, url, count, loop in walks
    )


def _outcome(
    url: str | None, ends: Mapping[str, UrlRow], hops: Mapping[str, UrlRow], loop: bool
) -> str:
    if loop:
        return "redirect loop"
    if url is None:
        return "no valid location"
    if url in hops:
        return "too many redirects"
    row = ends.get(url)
    if row is None:
        return "not crawled"
    return str(row.status) if row.status is not None else row.state.replace("_", " ")


def _missing_fragments(
    database: Database, links: list[FragmentLink]
) -> tuple[MissingFragment, ...]:
    """The fragments linked to that their page lacks, each with every link to it (by page,
    then fragment, as ``fragment_links`` orders them)."""
    names = page_anchors(database, {link.target_id for link in links})
    missing = (
        link
        for link in links
        if link.target_id in names and link.fragment not in names[link.target_id]
    )
    grouped = groupby(missing, lambda link: (link.url, link.fragment))
    return tuple(_missing(list(group)) for _, group in grouped)


def _missing(found: list[FragmentLink]) -> MissingFragment:
    first = found[0]
    return MissingFragment(
        first.url,
        first.origin,
        first.fragment,
        tuple(Referrer(link.from_url, line=link.line) for link in found),
        first.from_pass,
    )
