"""The crawl database: the only package that imports SQLAlchemy and Alembic [C5, C6, E1].

``open_database`` opens (creating or upgrading) a SQLite file or a PostgreSQL database;
``Frontier`` schedules, leases and records URLs on it. Values crossing this boundary are frozen
dataclasses; ORM rows never leave the package.
"""

from politecrawl.store.database import (
    Database,
    DatabaseSettings,
    is_database_error,
    open_database,
    schema_head,
)
from politecrawl.store.frontier import Frontier
from politecrawl.store.frontier_types import (
    AddResult,
    Completion,
    FrontierStats,
    HostPaceRecord,
    Lease,
    LeaseEnd,
    LinkOut,
    OriginDeferral,
    PageOutcome,
    Wait,
    worker_id,
)
from politecrawl.store.schema import CHECK, PAGE, SITEMAP

__all__ = [
    "CHECK",
    "PAGE",
    "SITEMAP",
    "AddResult",
    "Completion",
    "Database",
    "DatabaseSettings",
    "Frontier",
    "FrontierStats",
    "HostPaceRecord",
    "Lease",
    "LeaseEnd",
    "LinkOut",
    "OriginDeferral",
    "PageOutcome",
    "Wait",
    "is_database_error",
    "open_database",
    "schema_head",
    "worker_id",
]
