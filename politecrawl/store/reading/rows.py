"""One URL row as the read side hands it out: the shared SELECT and its decoding (``UrlRow``).

Owns the query every read-back module starts from (a URL with its origin and the URL it was
found on), the decoding of ``reason_detail`` JSON, the IN-list chunking (which the enqueuer
shares) and the one way of asking a question for many ids (``grouped_by_id``). Used by
``reading`` (the maintenance report, ``why``), ``sitemap_reading`` (the sitemap audit, S4) and
``check_reading`` (link checks, L1-L4), so all hand out the same ``UrlRow``. Nothing here
writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, select

from politecrawl.store.database import Database
from politecrawl.store.reading.values import UrlRow
from politecrawl.store.schema import origins_table, urls_table

_parent = urls_table.alias("parent")
_CHUNK = 500  # ids per IN list: well under every back end's parameter limit


def url_select() -> Select[Any]:
    """The columns of a ``UrlRow``: a URL joined to its origin and its discovering URL."""
    urls = urls_table
    return (
        select(
            urls.c.id,
            urls.c.url,
            origins_table.c.origin,
            urls.c.state,
            urls.c.depth,
            urls.c.status,
            urls.c.final_url,
            urls.c.content_type,
            urls.c.noindex,
            urls.c.nofollow,
            urls.c.attempts,
            urls.c.redirect_hops,
            urls.c.discovered_at,
            _parent.c.url.label("discovered_from"),
            urls.c.fetched_at,
            urls.c.elapsed_seconds,
            urls.c.size_bytes,
            urls.c.error,
            urls.c.reason,
            urls.c.reason_detail,
            urls.c.next_attempt_at,
            urls.c.kind,
            urls.c.canonical_url,
            urls.c.check_method,
        )
        .join_from(urls, origins_table, urls.c.origin_id == origins_table.c.id)
        .outerjoin(_parent, _parent.c.id == urls.c.discovered_from)
    )


def decode_detail(text: str | None) -> Mapping[str, Any]:
    """``reason_detail`` JSON as a mapping (``{}`` when none, ``{"raw": ...}`` when not JSON)."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {"raw": text}
    return value if isinstance(value, dict) else {"value": value}


def url_row(values: dict[str, Any]) -> UrlRow:
    """A row of ``url_select`` (as a dict, consumed) as a ``UrlRow``."""
    values["detail"] = decode_detail(values.pop("reason_detail"))
    values["attempts"] = values["attempts"] or 0
    values["redirect_hops"] = values["redirect_hops"] or 0
    return UrlRow(**values)


def query_rows(database: Database, statement: Select[Any]) -> list[UrlRow]:
    """The ``UrlRow``s a ``url_select()`` statement finds."""
    with database.engine.connect() as connection:
        return [url_row(row._asdict()) for row in connection.execute(statement)]


def chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """``items`` in slices short enough for one IN list."""
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def grouped_by_id(
    database: Database, statement: Select[Any], id_column: ColumnElement[int], ids: Iterable[int]
) -> dict[int, list[list[Any]]]:
    """``statement``, whose first column is ``id_column``, asked for ``ids`` (an IN list per
    few hundred): its rows grouped by that id, each without it, in the statement's order. Ids
    with no row are absent."""
    found: dict[int, list[list[Any]]] = {}
    with database.engine.connect() as connection:
        for chunk in chunks(sorted(set(ids))):
            for first, *rest in connection.execute(statement.where(id_column.in_(chunk))):
                found.setdefault(first, []).append(rest)
    return found
