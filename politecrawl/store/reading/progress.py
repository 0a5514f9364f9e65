"""Reading a pass back: how far the current pass got, and what earlier passes found on the URLs
it has not settled yet [C5, O6, L5].

A pass is complete when nothing of it waits (no URL queued, leased or deferred), no
``max_pages_per_host`` limit left pages out, and the robots.txt of every seed origin is known
and lets the seed in; ``pass_state`` counts each. A recrawl pass queues every URL again
(``passes.start_pass``), so while it runs the URL rows no longer say what the last pass found:
``carried_broken`` and ``carried_fragment_links`` give, for each URL still waiting, the
verdict of the latest earlier pass that settled it (``pass_results``), so that a report of
an unfinished pass keeps those findings. Nothing here writes (but for the links' target index,
see ``link_targets``); rows leave as the frozen values of ``reading_types``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import Select, and_, func, or_, select

from politecrawl.store.database import Database
from politecrawl.store.frontier.counts import seed_origins
from politecrawl.store.reading.checks import fetched_with_anchors, fragment_links_select
from politecrawl.store.reading.pages import with_referrers
from politecrawl.store.reading.passes import current_pass
from politecrawl.store.reading.rows import query_rows, url_row, url_select
from politecrawl.store.reading.values import FragmentLink, PassState, ReferredUrl
from politecrawl.store.schema import (
    CHECK,
    DEFERRED,
    DONE,
    EXCLUDED,
    FAILED,
    LEASED,
    OUT_OF_SCOPE,
    PAGE,
    QUEUED,
    crawl_runs_table as _runs,
    origins_table as _origins,
    pass_results_table as _passes,
    urls_table as _urls,
)

__all__ = ["carried_broken", "carried_fragment_links", "pass_state"]

WAITING = (QUEUED, LEASED, DEFERRED)
_waiting = _urls.c.state.in_(WAITING)
_linked = _urls.c.kind.in_([PAGE, CHECK])  # link targets: sitemaps are no link
# The seeds, as ``frontier_reading`` has them: added at depth 0, no redirect's target.
_is_seed = (_urls.c.depth == 0) & (_urls.c.redirect_hops == 0) & (_urls.c.kind == PAGE)
# What ``visit`` records for a page over ``max_pages_per_host`` (C1): a scope exclusion whose
# rule is "more than N pages on this host".
_PER_HOST_RULE = '%pages on this host"%'


def pass_state(database: Database, *, listed: int) -> PassState:
    """How far the current pass got; ``listed``: how many waiting pages and checks to name."""
    with database.engine.connect() as connection:
        number = current_pass(connection)
        by_state: dict[str, int] = dict(
            connection.execute(
                select(_urls.c.state, func.count()).where(_waiting).group_by(_urls.c.state)
            ).all()
        )
        limited = connection.execute(
            select(func.count()).where(
                _urls.c.state == OUT_OF_SCOPE,
                _urls.c.reason == "scope",
                _urls.c.reason_detail.like(_PER_HOST_RULE),
            )
        ).scalar()
        refused = connection.execute(
            select(func.count()).where(
                _is_seed, _urls.c.state == EXCLUDED, _urls.c.reason == "robots"
            )
        ).scalar()
        seeds = seed_origins(connection)
        known = dict(
            connection.execute(
                select(_origins.c.origin, _origins.c.robots_outcome).where(
                    _origins.c.origin.in_(seeds)
                )
            ).all()
        )
        last_run = connection.execute(
            select(_runs.c.outcome, _runs.c.ended_at).order_by(_runs.c.id.desc()).limit(1)
        ).first()
        unchecked_total = connection.execute(select(func.count()).where(_waiting, _linked)).scalar()
    unchecked = query_rows(
        database, url_select().where(_waiting, _linked).order_by(_urls.c.url).limit(listed)
    )
    return PassState(
        number=number,
        queued=int(by_state.get(QUEUED, 0)),
        leased=int(by_state.get(LEASED, 0)),
        deferred=int(by_state.get(DEFERRED, 0)),
        limited=int(limited or 0),
        seeds_refused=int(refused or 0),
        robots_unknown=tuple(origin for origin in seeds if known.get(origin) in (None, DEFERRED)),
        last_outcome=_outcome(last_run),
        unchecked=tuple(unchecked),
        unchecked_total=int(unchecked_total or 0),
    )


def _outcome(last_run: Any) -> str | None:
    """How the last run ended; "" when it has not (under way, or killed); None: no run."""
    if last_run is None:
        return None
    return (last_run.outcome or "") if last_run.ended_at is not None else ""


def _latest_verdicts() -> Any:
    """For each URL still waiting, the latest earlier pass that settled it (done or failed)."""
    return (
        select(_passes.c.url_id, func.max(_passes.c.pass_number).label("pass_number"))
        .join(_urls, _urls.c.id == _passes.c.url_id)
        .where(_waiting, _passes.c.state.in_([DONE, FAILED]))
        .group_by(_passes.c.url_id)
        .subquery("latest")
    )


def carried_broken(database: Database, *, kind: str) -> list[ReferredUrl]:
    """The URLs of ``kind`` (page or check) still waiting in the current pass whose latest
    earlier verdict was broken (status >= 400, or failed), by URL, each with every page
    linking to it: ``row`` carries that verdict (state, status; its error only when it
    failed) and ``from_pass`` the pass that gave it."""
    latest = _latest_verdicts()
    earlier = _passes.alias("earlier")
    statement: Select[Any] = (
        url_select()
        .add_columns(
            earlier.c.state.label("earlier_state"),
            earlier.c.status.label("earlier_status"),
            earlier.c.pass_number.label("earlier_pass"),
        )
        .join(latest, latest.c.url_id == _urls.c.id)
        .join(
            earlier,
            and_(
                earlier.c.url_id == latest.c.url_id, earlier.c.pass_number == latest.c.pass_number
            ),
        )
        .where(
            _urls.c.kind == kind,
            or_(earlier.c.state == FAILED, and_(earlier.c.state == DONE, earlier.c.status >= 400)),
        )
        .order_by(_urls.c.url)
    )
    rows, passes = [], []
    with database.engine.connect() as connection:
        for found in connection.execute(statement):
            values = found._asdict()
            state = values.pop("earlier_state")
            status = values.pop("earlier_status")
            passes.append(int(values.pop("earlier_pass")))
            row = url_row(values)
            error = row.error if state == FAILED else None
            rows.append(dataclasses.replace(row, state=state, status=status, error=error))
    return [
        dataclasses.replace(item, from_pass=number)
        for item, number in zip(with_referrers(database, rows), passes, strict=True)
    ]


def carried_fragment_links(database: Database) -> list[FragmentLink]:
    """The ``#fragment`` links (L4) to pages still waiting in the current pass whose latest
    earlier verdict was a fetch with anchors (2xx, or 304), as ``check_reading.fragment_links``
    gives those of the pages the current pass fetched; ``from_pass``: that earlier pass."""
    latest = _latest_verdicts()
    earlier = _passes.alias("earlier")
    statement = (
        fragment_links_select(earlier.c.pass_number)
        .join(latest, latest.c.url_id == _urls.c.id)
        .join(
            earlier,
            and_(
                earlier.c.url_id == latest.c.url_id, earlier.c.pass_number == latest.c.pass_number
            ),
        )
        .where(fetched_with_anchors(earlier.c.state, earlier.c.status))
    )
    with database.engine.connect() as connection:
        return [FragmentLink(*row) for row in connection.execute(statement)]
