"""Alembic environment: runs revisions on the connection politecrawl hands over.

politecrawl applies migrations itself when it opens a crawl database (``politecrawl.store``), so
the connection arrives in ``config.attributes["connection"]``. The ``alembic`` command line also
works from a checkout: ``alembic -c migrations/alembic.ini -x url=sqlite:///crawl.db upgrade head``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from politecrawl.store.schema import metadata

VERSION_TABLE = "politecrawl_version"


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=VERSION_TABLE,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying tables
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///crawl.db ...")
    with create_engine(url).connect() as connection:
        _run(connection)


_main()
