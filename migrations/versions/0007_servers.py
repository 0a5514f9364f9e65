"""Politeness per server (issue 42, P6): the ``servers`` table (an address or an IPv6 /64, its
requests in flight, next start and gap), each host's server, address and when it was learnt,
and the server whose slot a lease holds.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_EPOCH = sa.Float(precision=53)


def upgrade() -> None:
    op.create_table(
        "servers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("in_flight", sa.Integer(), nullable=False),
        sa.Column("max_in_flight", sa.Integer(), nullable=False),
        sa.Column("next_fetch_at", _EPOCH, nullable=False),
        sa.Column("delay_seconds", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_servers")),
        sa.UniqueConstraint("address", name=op.f("uq_servers_address")),
    )
    # Added columns only, no foreign key: SQLite alters in place rather than copying tables.
    op.add_column("hosts", sa.Column("server_id", sa.Integer(), nullable=True))
    op.add_column("hosts", sa.Column("address", sa.String(length=64), nullable=True))
    op.add_column("hosts", sa.Column("address_resolved_at", _EPOCH, nullable=True))
    op.create_index(op.f("ix_hosts_server_id"), "hosts", ["server_id"], unique=False)
    op.add_column("urls", sa.Column("lease_server_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("urls") as batch_op:
        batch_op.drop_column("lease_server_id")
    op.drop_index(op.f("ix_hosts_server_id"), table_name="hosts")
    with op.batch_alter_table("hosts") as batch_op:
        batch_op.drop_column("address_resolved_at")
        batch_op.drop_column("address")
        batch_op.drop_column("server_id")
    op.drop_table("servers")
