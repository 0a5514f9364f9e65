"""Sitemaps: a URL's kind, its rel=canonical and sitemap lastmod; the sitemaps read and the URLs
they list (S1-S4, issue 16).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_TIME = sa.Float(precision=53)


def upgrade() -> None:
    with op.batch_alter_table("urls") as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), nullable=False, server_default="page")
        )
        batch_op.add_column(sa.Column("canonical_url", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("sitemap_lastmod", _TIME, nullable=True))
    op.create_table(
        "sitemaps",
        sa.Column("url_id", _ID, nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("for_origin", sa.String(length=330), nullable=False),
        sa.Column("nesting", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=True),
        sa.Column("entries", sa.Integer(), nullable=True),
        sa.Column("other_origins", sa.Integer(), nullable=False),
        sa.Column("truncated", sa.Boolean(), nullable=True),
        sa.Column("problems", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["url_id"], ["urls.id"], name=op.f("fk_sitemaps_url_id_urls")),
        sa.PrimaryKeyConstraint("url_id", name=op.f("pk_sitemaps")),
    )
    op.create_table(
        "sitemap_entries",
        sa.Column("sitemap_id", _ID, nullable=False),
        sa.Column("url_id", _ID, nullable=False),
        sa.Column("lastmod", _TIME, nullable=True),
        sa.Column("lastmod_text", sa.Text(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["sitemap_id"], ["urls.id"], name=op.f("fk_sitemap_entries_sitemap_id_urls")
        ),
        sa.ForeignKeyConstraint(
            ["url_id"], ["urls.id"], name=op.f("fk_sitemap_entries_url_id_urls")
        ),
        sa.PrimaryKeyConstraint("sitemap_id", "url_id", name=op.f("pk_sitemap_entries")),
    )
    op.create_index(op.f("ix_sitemap_entries_url_id"), "sitemap_entries", ["url_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sitemap_entries_url_id"), table_name="sitemap_entries")
    op.drop_table("sitemap_entries")
    op.drop_table("sitemaps")
    with op.batch_alter_table("urls") as batch_op:
        batch_op.drop_column("sitemap_lastmod")
        batch_op.drop_column("canonical_url")
        batch_op.drop_column("kind")
