"""The crawl database: the only package that imports SQLAlchemy and Alembic [C5, C6, E1].

Two public faces, and no module outside ``politecrawl.store`` imports any other (an
import-linter contract in ``pyproject.toml`` checks every submodule, present and future):

- this one, for the crawl that writes: ``open_database`` opens (creating or upgrading) a SQLite
  file or a PostgreSQL database; ``Frontier`` schedules, leases and records URLs on it, with the
  values it takes and gives (``ends``: the six ways a lease ends, which ``Frontier.record``
  takes); ``RobotsOutcomeStore`` keeps each origin's robots.txt outcome and
  ``TdmRepOutcomeStore`` its tdmrep.json's (U3);
  ``start_run``/``finish_run``/``last_config`` record crawl runs; ``server_advice`` says what to
  tell the user about the database server;
- ``politecrawl.store.reading``, for the reports: the read-only questions (``broken_urls``,
  ``sitemap_rows``, ``check_counts``, ``pass_state``, ``host_waits``, ...) and the frozen values
  they hand out.

Inside, ``frontier/`` holds the scheduler and ``reading/`` the questions; ``database``,
``schema``, ``runs``, ``file_outcomes`` and ``server_settings`` sit beside them. Values
crossing this boundary are frozen dataclasses; table rows never leave the package.
"""

from politecrawl.store import reading
from politecrawl.store.database import (
    Database,
    DatabaseSettings,
    is_database_error,
    open_database,
    schema_head,
    upgrade_database,
)
from politecrawl.store.file_outcomes import RobotsOutcomeStore, TdmRepOutcomeStore
from politecrawl.store.frontier import Frontier, ends
from politecrawl.store.frontier.values import (
    AddResult,
    FoundLink,
    FrontierStats,
    HostAddress,
    Lease,
    LinkOut,
    Recorded,
    ServerSettings,
    Wait,
    worker_id,
)
from politecrawl.store.reading.link_targets import (
    drop_link_target_index,
    ensure_link_target_index,
)
from politecrawl.store.runs import finish_run, last_config, start_run
from politecrawl.store.schema import CHECK, PAGE, SITEMAP
from politecrawl.store.server_settings import server_advice

__all__ = [
    "CHECK",
    "PAGE",
    "SITEMAP",
    "AddResult",
    "Database",
    "DatabaseSettings",
    "FoundLink",
    "Frontier",
    "FrontierStats",
    "HostAddress",
    "Lease",
    "LinkOut",
    "Recorded",
    "RobotsOutcomeStore",
    "ServerSettings",
    "TdmRepOutcomeStore",
    "Wait",
    "drop_link_target_index",
    "ends",
    "ensure_link_target_index",
    "finish_run",
    "is_database_error",
    "last_config",
    "open_database",
    "reading",
    "schema_head",
    "server_advice",
    "start_run",
    "upgrade_database",
    "worker_id",
]
