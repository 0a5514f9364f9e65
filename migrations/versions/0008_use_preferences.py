"""Use preferences (issue 41, U3, U5, U6): each origin's tdmrep.json outcome, fetched as
robots.txt is; whether a page's signals refused the crawl's purpose; and ``use_signals``, the
signals that applied to a page when it was fetched, with their sources. Columns added without
foreign keys, so that SQLite alters in place.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_EPOCH = sa.Float(precision=53)
_TDMREP_COLUMNS = (
    ("tdmrep_outcome", sa.String(length=16)),
    ("tdmrep_status", sa.Integer()),
    ("tdmrep_body", sa.LargeBinary()),
    ("tdmrep_etag", sa.Text()),
    ("tdmrep_last_modified", sa.Text()),
    ("tdmrep_fetched_at", _EPOCH),
    ("tdmrep_expires_at", _EPOCH),
    ("tdmrep_retry_at", _EPOCH),
)


def upgrade() -> None:
    for name, column_type in _TDMREP_COLUMNS:
        op.add_column("origins", sa.Column(name, column_type, nullable=True))
    op.add_column(
        "origins",
        sa.Column("tdmrep_failures", sa.Integer(), server_default="0", nullable=False),
    )
    op.add_column("origins", sa.Column("tdmrep_error", sa.Text(), nullable=True))
    op.add_column("urls", sa.Column("use_refused", sa.Boolean(), nullable=True))
    op.create_table(
        "use_signals",
        sa.Column("url_id", _ID, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("protocol", sa.String(length=16), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("search", sa.String(length=16), nullable=True),
        sa.Column("ai_input", sa.String(length=16), nullable=True),
        sa.Column("ai_train", sa.String(length=16), nullable=True),
        sa.Column("line_number", sa.Integer(), nullable=True),
        sa.Column("policy", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["url_id"], ["urls.id"], name=op.f("fk_use_signals_url_id_urls")),
        sa.PrimaryKeyConstraint("url_id", "position", name=op.f("pk_use_signals")),
    )


def downgrade() -> None:
    op.drop_table("use_signals")
    with op.batch_alter_table("urls") as batch_op:
        batch_op.drop_column("use_refused")
    with op.batch_alter_table("origins") as batch_op:
        batch_op.drop_column("tdmrep_error")
        batch_op.drop_column("tdmrep_failures")
        for name, _ in reversed(_TDMREP_COLUMNS):
            batch_op.drop_column(name)
