"""A page's use-preference signals, as recorded when it was read [U6].

``record_use_signals`` writes them in the transaction that records the page's response
(``outcomes``): the signals of robots.txt, tdmrep.json and the page's own headers and metas,
each with its source, replacing those of an earlier read. Most pages say nothing: then nothing is
written (and, on a first read, nothing deleted).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, insert

from politecrawl.store.schema import use_signals_table as _signals
from politecrawl.usage import Signal, Stance, Use


def record_use_signals(
    connection: Connection, url_id: int, signals: tuple[Signal, ...], *, read_before: bool
) -> None:
    """``signals`` as the page ``url_id``'s; ``read_before``: it was read in an earlier pass,
    whose signals go."""
    if read_before:
        connection.execute(delete(_signals).where(_signals.c.url_id == url_id))
    if signals:
        connection.execute(
            insert(_signals),
            [_row(url_id, position, one) for position, one in enumerate(signals)],
        )


def _row(url_id: int, position: int, one: Signal) -> dict[str, Any]:
    return {
        "url_id": url_id,
        "position": position,
        "protocol": one.protocol.value,
        "source": one.source,
        "statement": one.statement,
        "search": _stored(one.stance(Use.SEARCH)),
        "ai_input": _stored(one.stance(Use.AI_INPUT)),
        "ai_train": _stored(one.stance(Use.AI_TRAIN)),
        "line_number": one.line_number,
        "policy": one.policy,
    }


def _stored(stance: Stance) -> str | None:
    return None if stance is Stance.NONE else stance.value
