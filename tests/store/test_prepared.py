"""``Prepared`` statements: they hand the driver a row's values in the compiled order, whatever
their number (SQLite's positional parameters; psycopg's named ones), and none of the frontier's
binds a value compared with the URL state (``schema.in_state``)."""

from __future__ import annotations

import pytest
from sqlalchemy import Integer, bindparam, literal_column, select
from sqlalchemy.sql import visitors
from sqlalchemy.sql.elements import BinaryExpression, BindParameter

from politecrawl.store.frontier import claim_statements, statements
from politecrawl.store.frontier.prepared import Prepared
from politecrawl.store.schema import urls_table


def test_none_one_and_many_parameters_reach_the_driver_in_order(database):
    def number(name: str):
        return bindparam(name, type_=Integer())

    none = Prepared(select(literal_column("7")))
    one = Prepared(select(number("a") + 1))
    many = Prepared(select(number("b") * 100 + number("a") * 10 + number("c")))
    with database.transaction() as connection:
        assert none.first(connection, {}) == (7,)
        assert one.first(connection, {"a": 4}) == (5,)
        assert many.first(connection, {"a": 2, "b": 1, "c": 3}) == (123,)


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_no_prepared_statement_binds_a_value_compared_with_the_url_state(dialect):
    # SQLite decides by a bound value compared with urls.state whether a partial index on
    # state applies, and so prepares such a statement again at every execution (a claim's
    # lease: 120 us instead of 27); PostgreSQL matches a partial index only to a constant.
    # The frontier's statements write the state in (schema.in_state).
    state = urls_table.c.state
    found = []
    names = {**vars(statements), **vars(claim_statements)}
    for name, prepared in names.items():
        if not isinstance(prepared, Prepared):
            continue
        statement = prepared._statement(dialect)
        for element in visitors.iterate(statement):
            if (
                isinstance(element, BinaryExpression)
                and element.left is state
                and isinstance(element.right, BindParameter)
            ):
                found.append(name)
    assert found == []
