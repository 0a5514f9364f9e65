"""Link checking: a check's method, a page's anchors, a link's text, line and kind, and the
fragments pages link to (L1-L4, issue 17).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("urls") as batch_op:
        batch_op.add_column(sa.Column("check_method", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("anchors", sa.Text(), nullable=True))
    with op.batch_alter_table("links") as batch_op:
        batch_op.add_column(sa.Column("text", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("line", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("resource", sa.Boolean(), nullable=False, server_default="0"))
    op.create_table(
        "link_fragments",
        sa.Column("from_id", _ID, nullable=False),
        sa.Column("to_id", _ID, nullable=False),
        sa.Column("fragment", sa.String(length=300), nullable=False),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["from_id"], ["urls.id"], name=op.f("fk_link_fragments_from_id_urls")
        ),
        sa.ForeignKeyConstraint(["to_id"], ["urls.id"], name=op.f("fk_link_fragments_to_id_urls")),
        sa.PrimaryKeyConstraint("from_id", "to_id", "fragment", name=op.f("pk_link_fragments")),
    )


def downgrade() -> None:
    op.drop_table("link_fragments")
    with op.batch_alter_table("links") as batch_op:
        batch_op.drop_column("resource")
        batch_op.drop_column("line")
        batch_op.drop_column("text")
    with op.batch_alter_table("urls") as batch_op:
        batch_op.drop_column("anchors")
        batch_op.drop_column("check_method")
