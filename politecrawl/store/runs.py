"""Crawl runs: when each run started and ended, with which settings, and what it counted."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, cast

from sqlalchemy import insert, select, update

from politecrawl.store.database import Database
from politecrawl.store.schema import crawl_runs_table as _runs


def start_run(
    database: Database, *, config: dict[str, Any], now: datetime, pass_number: int = 1
) -> int:
    """Record the start of a run with its effective configuration; returns the run id."""
    statement = (
        insert(_runs)
        .values(
            pass_number=pass_number,
            started_at=now,
            config_json=json.dumps(config, sort_keys=True, default=str),
            counters_json="{}",
        )
        .returning(_runs.c.id)
    )
    return int(database.run(lambda connection: connection.execute(statement).scalar_one()))


def finish_run(
    database: Database, run_id: int, *, counters: dict[str, Any], outcome: str, now: datetime
) -> None:
    """Record the end of a run, its counters and how it ended."""
    statement = (
        update(_runs)
        .where(_runs.c.id == run_id)
        .values(
            ended_at=now,
            counters_json=json.dumps(counters, sort_keys=True, default=str),
            outcome=outcome,
        )
    )
    database.run(lambda connection: connection.execute(statement))


def last_config(database: Database) -> dict[str, Any] | None:
    """The configuration of the most recent run, or None before the first."""
    with database.engine.connect() as connection:
        text = connection.execute(
            select(_runs.c.config_json).order_by(_runs.c.id.desc()).limit(1)
        ).scalar()
    return None if text is None else cast(dict[str, Any], json.loads(text))
