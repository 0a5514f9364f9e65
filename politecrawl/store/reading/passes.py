"""Crawl passes: a recrawl turns the finished crawl into the baseline of the next (issue 6).

``start_pass`` keeps every URL's outcome of the current pass in ``pass_results``, queues again
what the new pass must revisit (all fetched, failed, excluded and deferred URLs, or only those
older than ``max_age``), puts the pages that changed last time first, and marks every robots.txt
stale so it is revalidated (conditional GET, E3) before the pass uses it. The URL rows keep their
validators (ETag, Last-Modified) and content hash, so each revisit is a conditional GET and a
200 is compared with what was there. ``compare_passes`` classifies each page and each checked
link between two passes (sitemaps are read again each pass, but the sitemap audit covers them),
with each URL's outcome in both; a page gone (404, 410) that pages still link to is newly
broken too, with the pages linking to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)

from politecrawl.store.database import Database
from politecrawl.store.reading.pages import referrers
from politecrawl.store.reading.values import ReferrerRow
from politecrawl.store.schema import (
    DEFERRED,
    DONE,
    EXCLUDED,
    FAILED,
    LEASED,
    QUEUED,
    SITEMAP,
    hosts_table as _hosts,
    in_state,
    origins_table as _origins,
    pass_results_table as _passes,
    urls_table as _urls,
)

_REVISITED = (DONE, FAILED, EXCLUDED, DEFERRED)
_WAITING = (QUEUED, LEASED, DEFERRED)


def current_pass(connection: Connection) -> int:
    """The number of the pass the URL table holds (1 before any recrawl)."""
    number = connection.execute(select(func.max(_urls.c.pass_number))).scalar()
    return int(number or 1)


def start_pass(database: Database, *, now: datetime, max_age: timedelta | None = None) -> int:
    """Begin the next pass; returns its number. Unfinished URLs of the current pass stay queued
    and are simply part of the new pass."""
    return database.run(lambda connection: _start_pass_in(connection, now, max_age))


def _start_pass_in(connection: Connection, now: datetime, max_age: timedelta | None) -> int:
    previous = current_pass(connection)
    number = previous + 1
    connection.execute(
        insert(_passes).from_select(
            [
                "pass_number",
                "url_id",
                "state",
                "status",
                "content_hash",
                "final_url",
                "noindex",
                "nofollow",
                "reason",
                "fetched_at",
            ],
            select(
                _urls.c.pass_number,
                _urls.c.id,
                _urls.c.state,
                _urls.c.status,
                _urls.c.content_hash,
                _urls.c.final_url,
                _urls.c.noindex,
                _urls.c.nofollow,
                _urls.c.reason,
                _urls.c.fetched_at,
            ).where(_urls.c.pass_number == previous),
        )
    )
    revisit: ColumnElement[bool] = _urls.c.state.in_(_REVISITED)
    if max_age is not None:
        cutoff = now - max_age
        revisit = and_(revisit, or_(_urls.c.fetched_at.is_(None), _urls.c.fetched_at < cutoff))
    # Pages whose content changed in the last pass come first in the new one.
    earlier = _passes.alias("earlier")
    changed_last_time = exists().where(
        earlier.c.url_id == _urls.c.id,
        earlier.c.pass_number == previous - 1,
        earlier.c.content_hash.is_not(None),
        earlier.c.content_hash != _urls.c.content_hash,
    )
    connection.execute(
        update(_urls)
        .where(revisit)
        .values(
            state=QUEUED,
            attempts=0,
            lease_owner=None,
            lease_expires_at=None,
            next_attempt_at=None,
            reason=None,
            reason_detail=None,
            priority=0,
        )
    )
    connection.execute(
        update(_urls)
        .where(in_state(QUEUED), _urls.c.priority <= 0, changed_last_time)
        .values(priority=-1)
    )
    connection.execute(update(_urls).values(pass_number=number))
    connection.execute(update(_hosts).values(active=True))
    connection.execute(
        update(_origins)
        .where(_origins.c.robots_outcome.is_not(None))
        .values(robots_expires_at=now, robots_retry_at=now, robots_failures=0)
    )
    return number


@dataclass(frozen=True, slots=True)
class PassComparison:
    """What changed between pass ``before`` and pass ``after`` (the URLs of each category)."""

    before: int
    after: int
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    newly_broken: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    newly_excluded_by_robots: list[str] = field(default_factory=list)
    newly_noindex: list[str] = field(default_factory=list)
    redirect_changed: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    outcomes: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each URL of a category: what it was in pass ``before`` and in pass ``after`` (its
    status, ``failed``, ``excluded (robots)``; ``""`` for a URL new in ``after``)."""
    linked_from: dict[str, tuple[ReferrerRow, ...]] = field(default_factory=dict)
    """The pages linking to each newly broken URL."""
    unsettled: int = 0
    """URLs the ``after`` pass has not settled yet (queued, leased, deferred): it is
    unfinished, and they are in no category."""

    def counts(self) -> dict[str, int]:
        """How many URLs in each category."""
        return {
            name: len(getattr(self, name))
            for name in (
                "new",
                "changed",
                "unchanged",
                "gone",
                "newly_broken",
                "fixed",
                "newly_excluded_by_robots",
                "newly_noindex",
                "redirect_changed",
            )
        }


def compare_passes(database: Database, *, after: int | None = None) -> PassComparison | None:
    """Compare pass ``after`` (default: the current one) with the pass before it; None when
    there is no earlier pass."""
    with database.engine.connect() as connection:
        latest = current_pass(connection)
        after = latest if after is None else after
        before = after - 1
        if before < 1:
            return None
        old = {
            row.url_id: row
            for row in connection.execute(select(_passes).where(_passes.c.pass_number == before))
        }
        if after == latest:
            rows = connection.execute(
                select(
                    _urls.c.id.label("url_id"),
                    _urls.c.url,
                    _urls.c.state,
                    _urls.c.status,
                    _urls.c.content_hash,
                    _urls.c.final_url,
                    _urls.c.noindex,
                    _urls.c.reason,
                ).where(_urls.c.kind != SITEMAP)
            ).all()
        else:
            rows = connection.execute(
                select(_passes, _urls.c.url)
                .join(_urls, _urls.c.id == _passes.c.url_id)
                .where(_passes.c.pass_number == after, _urls.c.kind != SITEMAP)
            ).all()
    result = PassComparison(
        before, after, unsettled=sum(1 for row in rows if row.state in _WAITING)
    )
    for row in sorted(rows, key=lambda r: r.url):
        _classify(result, row, old.get(row.url_id))
    _linked_gone(database, result, {row.url: row.url_id for row in rows})
    return result


def _linked_gone(database: Database, result: PassComparison, ids: dict[str, int]) -> None:
    """A page gone (404, 410) that pages still link to is a link newly broken too (L5): the
    links to it fail now. Every newly broken URL gets the pages linking to it."""
    candidates = {url: ids[url] for url in (*result.gone, *result.newly_broken)}
    linking = referrers(database, candidates.values())
    broken = set(result.newly_broken)
    broken |= {url for url in result.gone if candidates[url] in linking}
    result.newly_broken[:] = sorted(broken)
    result.linked_from.update(
        (url, linking[candidates[url]]) for url in result.newly_broken if candidates[url] in linking
    )


def _outcome(row: Any | None) -> str:
    """A URL's outcome in one pass, in a word or two."""
    if row is None:
        return ""
    if row.status is not None and row.state in (DONE, FAILED):
        return str(row.status)
    if row.state == EXCLUDED and row.reason:
        return f"excluded ({row.reason})"
    return str(row.state).replace("_", " ")


def _classify(result: PassComparison, now: Any, was: Any | None) -> None:
    """Put one URL in its category; ``now`` and ``was`` are its rows of the two passes."""
    url = now.url
    state, status = now.state, now.status
    fetched = state in (DONE, FAILED)
    if fetched or state == EXCLUDED:
        result.outcomes[url] = (_outcome(was), _outcome(now))
    if was is None:
        if fetched:
            result.new.append(url)
        return
    was_fetched = was.state in (DONE, FAILED)
    was_status = was.status
    if state == EXCLUDED and now.reason == "robots" and was_fetched:
        result.newly_excluded_by_robots.append(url)
        return
    if not fetched:
        return
    if not was_fetched:
        result.new.append(url)
        return
    broken_now = status is None or status >= 400 or state == FAILED
    broken_before = was_status is None or was_status >= 400 or was.state == FAILED
    if status in (404, 410) and not broken_before:
        result.gone.append(url)
    elif broken_now and not broken_before:
        result.newly_broken.append(url)
    elif broken_before and not broken_now:
        result.fixed.append(url)
    elif status == 304 or now.content_hash == was.content_hash:
        result.unchanged.append(url)
    else:
        result.changed.append(url)
    if now.noindex and not was.noindex:
        result.newly_noindex.append(url)
    redirected = any(code is not None and 300 <= code < 400 for code in (status, was_status))
    if redirected and was.final_url != now.final_url:
        result.redirect_changed.append((url, was.final_url, now.final_url))
