"""Reading use preferences back: what each page's signals were when it was fetched, per page
and per origin [U3, U5, U6].

``page_use`` answers ``politecrawl why`` (one URL's signals, whether they refused the crawl's
purpose, its origin's tdmrep.json); the report's "Use preferences" section asks
``origin_use_states`` (each origin's pages, refusals and tdmrep.json), ``use_statements`` (each
distinct statement with the number of pages it applied to), ``use_page_counts`` (per origin and
use, the pages whose signals together refuse or allow it) and ``use_conflicts`` (pages whose own
signals contradict their site's files on a use: robots.txt says ai-train=yes, the page's meta
says noai). Each is one query, bounded by what it counts or by ``limit``, never a scan per row;
rows leave as frozen values, the signals as ``usage.Signal``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from politecrawl.errors import UserInputError
from politecrawl.store.database import Database
from politecrawl.store.schema import (
    DONE,
    PAGE,
    origins_table as _origins,
    urls_table as _urls,
    use_signals_table as _signals,
)
from politecrawl.urls import InvalidURL, canonicalize, url_key
from politecrawl.usage import Protocol, Signal, Stance, Use

__all__ = [
    "OriginUseState",
    "PageUse",
    "SignalConflict",
    "StatementCount",
    "UseCount",
    "origin_use_states",
    "page_use",
    "use_conflicts",
    "use_page_counts",
    "use_statements",
]

USE_PREFERENCE = "use-preference"
_COLUMN_OF = {Use.SEARCH: "search", Use.AI_INPUT: "ai_input", Use.AI_TRAIN: "ai_train"}


@dataclass(frozen=True, slots=True)
class PageUse:
    """One URL's use preferences as recorded (``why``)."""

    url: str
    origin: str
    state: str
    reason: str | None
    signals: tuple[Signal, ...]
    """The signals that applied when it was last fetched, with their sources (U6)."""
    refused: bool | None
    """They refused the crawl's purpose (U5); None: fetched without a purpose, or not fetched."""
    tdmrep: str | None
    """Its origin's tdmrep.json outcome and reason, when the crawl read it (U3)."""


@dataclass(frozen=True, slots=True)
class OriginUseState:
    """An origin's pages, what use preferences withheld of them, and its tdmrep.json."""

    origin: str
    pages: int
    """Pages fetched (state done)."""
    refused_pages: int
    """... whose signals refused the crawl's purpose (U5)."""
    excluded: int
    """URLs not fetched: robots.txt or tdmrep.json refused the purpose (U5)."""
    tdmrep_outcome: str | None
    tdmrep_reason: str | None


@dataclass(frozen=True, slots=True)
class StatementCount:
    """A statement as recorded, and the pages of its origin it applied to."""

    origin: str
    signal: Signal
    pages: int


@dataclass(frozen=True, slots=True)
class UseCount:
    """For one origin and use: the pages whose signals together refuse it, and allow it."""

    origin: str
    use: Use
    refused: int
    allowed: int
    """Allowed by some signal and refused by none (U4)."""


@dataclass(frozen=True, slots=True)
class SignalConflict:
    """A page whose own signal contradicts a signal of its site's files on some uses."""

    url: str
    origin: str
    uses: tuple[Use, ...]
    """The uses one allows and the other refuses."""
    site: Signal
    """From robots.txt or tdmrep.json (recorded with a line number)."""
    page: Signal
    """From the page's headers or metas."""


def _signal(row: Any, prefix: str = "") -> Signal:
    def value(name: str) -> Any:
        return getattr(row, prefix + name)

    def stance(column: str) -> Stance:
        return Stance(value(column) or Stance.NONE.value)

    return Signal(
        Protocol(value("protocol")),
        value("source"),
        value("statement"),
        search=stance("search"),
        ai_input=stance("ai_input"),
        ai_train=stance("ai_train"),
        line_number=value("line_number"),
        policy=value("policy"),
    )


def page_use(database: Database, url: str) -> PageUse | None:
    """What was recorded of ``url``'s use preferences (any spelling), or None when the crawl
    never saw it. Raises ``UserInputError`` when ``url`` is not a crawlable URL (B1)."""
    try:
        canonical = canonicalize(url)
    except InvalidURL as error:
        raise UserInputError(f"{url}: {error.reason}") from None
    statement = (
        select(
            _urls.c.id,
            _urls.c.url,
            _urls.c.state,
            _urls.c.reason,
            _urls.c.use_refused,
            _origins.c.origin,
            _origins.c.tdmrep_outcome,
            _origins.c.tdmrep_error,
        )
        .join(_origins, _origins.c.id == _urls.c.origin_id)
        .where(_urls.c.url_key == url_key(canonical))
    )
    with database.engine.connect() as connection:
        row = connection.execute(statement).first()
        if row is None:
            return None
        found = connection.execute(
            select(_signals).where(_signals.c.url_id == row.id).order_by(_signals.c.position)
        ).all()
    tdmrep = None
    if row.tdmrep_outcome is not None:
        tdmrep = f"{row.tdmrep_outcome}: {row.tdmrep_error or ''}".rstrip(": ")
    return PageUse(
        row.url,
        row.origin,
        row.state,
        row.reason,
        tuple(map(_signal, found)),
        row.use_refused,
        tdmrep,
    )


def origin_use_states(database: Database) -> list[OriginUseState]:
    """Every origin with a fetched page, a URL withheld by use preferences, or a tdmrep.json
    read, in origin order."""
    is_page = _urls.c.kind == PAGE
    done = and_(is_page, _urls.c.state == DONE)
    statement = (
        select(
            _origins.c.origin,
            func.coalesce(func.sum(case((done, 1), else_=0)), 0).label("pages"),
            func.coalesce(
                func.sum(case((and_(done, _urls.c.use_refused.is_(True)), 1), else_=0)), 0
            ).label("refused_pages"),
            func.coalesce(func.sum(case((_urls.c.reason == USE_PREFERENCE, 1), else_=0)), 0).label(
                "excluded"
            ),
            _origins.c.tdmrep_outcome,
            _origins.c.tdmrep_error,
        )
        .select_from(_origins)
        .outerjoin(_urls, _urls.c.origin_id == _origins.c.id)
        .group_by(
            _origins.c.id, _origins.c.origin, _origins.c.tdmrep_outcome, _origins.c.tdmrep_error
        )
        .order_by(_origins.c.origin)
    )
    with database.engine.connect() as connection:
        rows = connection.execute(statement).all()
    return [
        OriginUseState(
            row.origin,
            int(row.pages),
            int(row.refused_pages),
            int(row.excluded),
            row.tdmrep_outcome,
            row.tdmrep_error,
        )
        for row in rows
        if row.pages or row.excluded or row.tdmrep_outcome is not None
    ]


def use_statements(database: Database) -> list[StatementCount]:
    """Each distinct statement recorded, per origin, with how many pages it applied to: the
    most widespread first."""
    columns = [
        _signals.c.protocol,
        _signals.c.source,
        _signals.c.statement,
        *(getattr(_signals.c, column) for column in _COLUMN_OF.values()),
        _signals.c.line_number,
        _signals.c.policy,
    ]
    pages = func.count(func.distinct(_signals.c.url_id)).label("pages")
    statement = (
        select(_origins.c.origin, *columns, pages)
        .select_from(_signals)
        .join(_urls, _urls.c.id == _signals.c.url_id)
        .join(_origins, _origins.c.id == _urls.c.origin_id)
        .group_by(_origins.c.origin, *columns)
        .order_by(_origins.c.origin, pages.desc(), _signals.c.source, _signals.c.statement)
    )
    with database.engine.connect() as connection:
        rows = connection.execute(statement).all()
    return [StatementCount(row.origin, _signal(row), int(row.pages)) for row in rows]


def _says(use: Use, stance: Stance) -> ColumnElement[bool]:
    column: ColumnElement[str] = _signals.c[_COLUMN_OF[use]]
    return column == stance.value


def use_page_counts(database: Database) -> list[UseCount]:
    """Per origin and use, the pages whose recorded signals refuse it, and those they allow
    (U4: refused by any signal wins), among pages with at least one signal."""
    flags = [
        func.max(case((_says(use, stance), 1), else_=0)).label(f"{column}_{stance.name}")
        for use, column in _COLUMN_OF.items()
        for stance in (Stance.REFUSED, Stance.ALLOWED)
    ]
    per_page = (
        select(_urls.c.origin_id, *flags)
        .select_from(_signals)
        .join(_urls, _urls.c.id == _signals.c.url_id)
        .where(_urls.c.state == DONE)
        .group_by(_signals.c.url_id, _urls.c.origin_id)
        .subquery()
    )
    totals = []
    for column in _COLUMN_OF.values():
        refused = per_page.c[f"{column}_REFUSED"]
        allowed = per_page.c[f"{column}_ALLOWED"]
        totals.append(func.sum(refused).label(f"{column}_refused"))
        totals.append(
            func.sum(case((and_(allowed == 1, refused == 0), 1), else_=0)).label(
                f"{column}_allowed"
            )
        )
    statement = (
        select(_origins.c.origin, *totals)
        .select_from(per_page)
        .join(_origins, _origins.c.id == per_page.c.origin_id)
        .group_by(_origins.c.origin)
        .order_by(_origins.c.origin)
    )
    with database.engine.connect() as connection:
        rows = connection.execute(statement).all()
    return [
        UseCount(
            row.origin,
            use,
            int(getattr(row, f"{column}_refused") or 0),
            int(getattr(row, f"{column}_allowed") or 0),
        )
        for row in rows
        for use, column in _COLUMN_OF.items()
    ]


def use_conflicts(database: Database, *, limit: int) -> tuple[list[SignalConflict], int]:
    """Pairs of a page's own signal (a header, a meta) and a signal of its site's files
    (robots.txt, tdmrep.json) recorded with it, one allowing a use the other refuses: at most
    ``limit`` of them, in URL order, and how many there are in all."""
    site = _signals.alias("site")
    page = _signals.alias("page")
    opposed = or_(
        *(
            or_(
                and_(
                    getattr(site.c, column) == Stance.ALLOWED.value,
                    getattr(page.c, column) == Stance.REFUSED.value,
                ),
                and_(
                    getattr(site.c, column) == Stance.REFUSED.value,
                    getattr(page.c, column) == Stance.ALLOWED.value,
                ),
            )
            for column in _COLUMN_OF.values()
        )
    )
    joined = (
        select(_urls.c.url, _origins.c.origin)
        .select_from(site)
        .join(
            page,
            and_(
                page.c.url_id == site.c.url_id,
                page.c.line_number.is_(None),
            ),
        )
        .join(_urls, _urls.c.id == site.c.url_id)
        .join(_origins, _origins.c.id == _urls.c.origin_id)
        .where(site.c.line_number.is_not(None), opposed)
    )
    named = [
        column.label(f"site_{column.name}") for column in site.c if column.name != "url_id"
    ] + [column.label(f"page_{column.name}") for column in page.c if column.name != "url_id"]
    listed = joined.add_columns(*named).order_by(_urls.c.url, site.c.position, page.c.position)
    with database.engine.connect() as connection:
        total = connection.execute(select(func.count()).select_from(joined.subquery())).scalar_one()
        rows = connection.execute(listed.limit(limit)).all()
    conflicts: list[SignalConflict] = []
    for row in rows:
        site_signal, page_signal = _signal(row, "site_"), _signal(row, "page_")
        uses = tuple(
            use
            for use in Use
            if {site_signal.stance(use), page_signal.stance(use)}
            == {Stance.ALLOWED, Stance.REFUSED}
        )
        conflicts.append(SignalConflict(row.url, row.origin, uses, site_signal, page_signal))
    return conflicts, int(total)
