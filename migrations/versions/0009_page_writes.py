"""Fewer trees written a page (issue 40, item 3): no index on ``urls (origin_id, state)``, and
on SQLite ``links`` as a table without rowid (its rows in their primary key's tree).

A page's commit wrote 6.9 of its 30.7 log pages into ``ix_urls_origin_state`` (bench/
frontier_bench.py, 1,000,000 queued); its readers find an origin's URLs through its host in
``ix_urls_claim``. A rowid table kept each link twice, in the table and in its primary key's
index (1.4 + 3.6 log pages a page); without rowid it is kept once (3.7). The upgrade copies
every link of a SQLite crawl once, in primary key order.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-09
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_COPY_LINKS = (
    "INSERT INTO _links_new (from_id, to_id, nofollow, text, line, resource) "
    "SELECT from_id, to_id, nofollow, text, line, resource FROM links ORDER BY from_id, to_id"
)
_LINK_TARGETS = "ix_links_to_id"  # built when a report reads it (store/reading/link_targets.py)


def upgrade() -> None:
    op.drop_index("ix_urls_origin_state", table_name="urls")
    if op.get_bind().dialect.name == "sqlite":
        _copy_links(with_rowid=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _copy_links(with_rowid=True)
    op.create_index("ix_urls_origin_state", "urls", ["origin_id", "state"], unique=False)


def _copy_links(*, with_rowid: bool) -> None:
    """``links`` made again, with or without rowid, its rows copied in primary key order (and
    the index by target, if a report had built it)."""
    bind = op.get_bind()
    had_targets = bool(
        bind.execute(
            sa.text("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = :name"),
            {"name": _LINK_TARGETS},
        ).scalar()
    )
    op.create_table(
        "_links_new",
        sa.Column("from_id", _ID, nullable=False),
        sa.Column("to_id", _ID, nullable=False),
        sa.Column("nofollow", sa.Boolean(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("resource", sa.Boolean(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(["from_id"], ["urls.id"], name=op.f("fk_links_from_id_urls")),
        sa.ForeignKeyConstraint(["to_id"], ["urls.id"], name=op.f("fk_links_to_id_urls")),
        sa.PrimaryKeyConstraint("from_id", "to_id", name=op.f("pk_links")),
        sqlite_with_rowid=with_rowid,
    )
    op.execute(_COPY_LINKS)
    op.drop_table("links")
    op.rename_table("_links_new", "links")
    if had_targets:
        op.execute(f"CREATE INDEX {_LINK_TARGETS} ON links (to_id)")
