"""Keep each finished pass's outcome per URL, so a recrawl can say what changed (issue 6).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "pass_results",
        sa.Column("pass_number", sa.Integer(), nullable=False),
        sa.Column("url_id", _ID, nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=True),
        sa.Column("final_url", sa.Text(), nullable=True),
        sa.Column("noindex", sa.Boolean(), nullable=True),
        sa.Column("nofollow", sa.Boolean(), nullable=True),
        sa.Column("reason", sa.String(length=32), nullable=True),
        sa.Column("fetched_at", sa.Float(precision=53), nullable=True),
        sa.ForeignKeyConstraint(["url_id"], ["urls.id"], name=op.f("fk_pass_results_url_id_urls")),
        sa.PrimaryKeyConstraint("pass_number", "url_id", name=op.f("pk_pass_results")),
    )


def downgrade() -> None:
    op.drop_table("pass_results")
