"""``Prepared`` statements hand the driver a row's values in the compiled order, whatever their
number (SQLite's positional parameters; psycopg's named ones)."""

from __future__ import annotations

from sqlalchemy import Integer, bindparam, literal_column, select

from politecrawl.store.prepared import Prepared


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
