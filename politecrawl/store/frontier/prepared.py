"""``Prepared``: a statement compiled once per dialect and run on the driver's own cursor.

The frontier's hot statements (``statements``) run through it: it skips SQLAlchemy's
execution layer, which costs more than SQLite spends running the statement. Parameters go to
the driver as they are (times as epoch seconds), results come back as plain tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect

__all__ = ["Prepared"]


class _Compiled(NamedTuple):
    sql: str
    constants: dict[str, Any]
    positional: Callable[[dict[str, Any]], tuple[Any, ...]] | None
    """For positional drivers (SQLite): a row's values in the order of the compiled parameters
    (``itemgetter``, in C: a page's link rows were a tenth of their own insert's time as a
    Python loop); None for named ones (psycopg)."""


def _positional(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if not names:  # itemgetter needs a name
        return lambda _values: ()
    if len(names) == 1:  # itemgetter of one name gives the value, not a 1-tuple
        (name,) = names
        return lambda values: (values[name],)
    return itemgetter(*names)


class Prepared:
    """A statement compiled once per dialect and run on the driver's own cursor.

    The hot path of the frontier (a handful of statements per page) spends most of its time in
    SQLAlchemy's execution machinery rather than in the database. A ``Prepared`` statement skips
    it: the SQL string is compiled once per dialect and set of SET columns, and parameters are
    handed to the driver as they are, so callers pass plain values (times as epoch seconds,
    ``epoch()``), not objects that need a type's processing.
    """

    __slots__ = ("_compiled", "_statement")

    def __init__(self, statement: Any) -> None:
        """``statement``: a SQLAlchemy statement, or a function of the dialect's name that
        builds one (for constructs of one dialect, such as ``ON CONFLICT``)."""
        self._statement: Callable[[str], Any] = (
            statement if callable(statement) else lambda _dialect: statement
        )
        self._compiled: dict[tuple[str, frozenset[str]], _Compiled] = {}

    def _sql(self, dialect: Dialect, keys: frozenset[str]) -> _Compiled:
        cache_key = (dialect.name, keys)
        compiled = self._compiled.get(cache_key)
        if compiled is None:
            # for_executemany: no implicit RETURNING of the new row's key (PostgreSQL).
            statement = self._statement(dialect.name).compile(
                dialect=dialect, column_keys=sorted(keys), for_executemany=True
            )
            names = tuple(statement.positiontup) if statement.positional else None
            # Values SQLAlchemy bound itself (the 1 of "+ 1", LIMIT's count, state names).
            constants = {
                name: value for name, value in statement.params.items() if name not in keys
            }
            positional = None if names is None else _positional(names)
            compiled = _Compiled(statement.string, constants, positional)
            self._compiled[cache_key] = compiled
        return compiled

    def _run(self, connection: Connection, params: dict[str, Any]) -> Any:
        compiled = self._sql(connection.dialect, frozenset(params))
        values = {**compiled.constants, **params}
        driver_connection = connection.connection.driver_connection
        assert driver_connection is not None
        cursor = driver_connection.cursor()
        if compiled.positional is None:
            cursor.execute(compiled.sql, values)
        else:
            cursor.execute(compiled.sql, compiled.positional(values))
        return cursor

    def many(self, connection: Connection, rows: Sequence[dict[str, Any]]) -> int:
        """Execute once per row (the driver's executemany; every row has the same keys);
        the number of rows changed in all."""
        if not rows:
            return 0
        compiled = self._sql(connection.dialect, frozenset(rows[0]))
        driver_connection = connection.connection.driver_connection
        assert driver_connection is not None
        cursor = driver_connection.cursor()
        try:
            constants, positional = compiled.constants, compiled.positional
            if positional is None:
                cursor.executemany(compiled.sql, [{**constants, **row} for row in rows])
            elif constants:
                cursor.executemany(compiled.sql, [positional({**constants, **row}) for row in rows])
            else:
                cursor.executemany(compiled.sql, [positional(row) for row in rows])
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def first(self, connection: Connection, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """Execute with ``params`` (plain values); the first row returned, if any."""
        cursor = self._run(connection, params)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        return None if row is None else tuple(row)

    def all(self, connection: Connection, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Execute with ``params`` (plain values); every row returned."""
        cursor = self._run(connection, params)
        try:
            return [tuple(row) for row in cursor.fetchall()]
        finally:
            cursor.close()

    def rowcount(self, connection: Connection, params: dict[str, Any]) -> int:
        """Execute with ``params`` (plain values); the number of rows changed."""
        cursor = self._run(connection, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()
