"""Count redirect hops per URL, so a chain stops after the configured number of hops (C4).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("urls") as batch_op:
        batch_op.add_column(
            sa.Column("redirect_hops", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("urls") as batch_op:
        batch_op.drop_column("redirect_hops")
