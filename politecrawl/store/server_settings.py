"""What a crawl should know about the database server it runs on, said once at the start.

A crawl rewrites its host's row and its URL's row with every page. PostgreSQL keeps the old
versions of a row until a vacuum clears them, and on a server with autovacuum off (or with
``track_counts`` off, which autovacuum needs) they pile up: on a million-URL crawl the hosts
table held 470,166 dead rows for 202 live ones after 15 minutes, and the rate had fallen from
324 to 190 requests a second. The crawl still works; it says so, so that the owner can act.
SQLite reuses its pages in place and needs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from politecrawl.store.database import Database

_CHECKED = ("autovacuum", "track_counts")


def advice_for(settings: Mapping[str, str]) -> list[str]:
    """What to tell the user about a PostgreSQL server whose settings are ``settings`` (name to
    ``SHOW`` value)."""
    off = [name for name in _CHECKED if settings.get(name, "on") != "on"]
    if not off:
        return []
    names = " and ".join(off)
    turn_on = "; ".join(f"ALTER SYSTEM SET {name} = on" for name in off)
    return [
        f"{names} {'is' if len(off) == 1 else 'are'} off on this PostgreSQL server: a crawl "
        "rewrites a row per page and, without vacuuming, slows as dead rows pile up (a "
        "million-URL crawl fell from 324 to 190 requests/s in 15 minutes); as a superuser: "
        f"{turn_on}; SELECT pg_reload_conf()"
    ]


def server_advice(database: Database) -> list[str]:
    """What to tell the user about ``database``'s server (nothing for SQLite)."""
    if database.is_sqlite:
        return []
    with database.engine.connect() as connection:
        settings = {
            name: str(connection.exec_driver_sql(f"SHOW {name}").scalar()) for name in _CHECKED
        }
    return advice_for(settings)
