"""The initial schema: crawl runs, hosts, origins (with robots state), URLs and links.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "crawl_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pass_number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(precision=53), nullable=False),
        sa.Column("ended_at", sa.Float(precision=53), nullable=True),
        sa.Column("config_json", sa.Text(), nullable=False),
        sa.Column("counters_json", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_crawl_runs")),
    )
    op.create_table(
        "hosts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=300), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("next_fetch_at", sa.Float(precision=53), nullable=False),
        sa.Column("in_flight", sa.Integer(), nullable=False),
        sa.Column("max_in_flight", sa.Integer(), nullable=False),
        sa.Column("delay_seconds", sa.Float(), nullable=False),
        sa.Column("crawl_delay_seconds", sa.Float(), nullable=True),
        sa.Column("backoff_seconds", sa.Float(), nullable=False),
        sa.Column("retry_after_until", sa.Float(precision=53), nullable=True),
        sa.Column("last_response_seconds", sa.Float(), nullable=True),
        sa.Column("error_streak", sa.Integer(), nullable=False),
        sa.Column("wait_reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hosts")),
        sa.UniqueConstraint("host", name=op.f("uq_hosts_host")),
    )
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.create_index("ix_hosts_due", ["active", "next_fetch_at"], unique=False)

    op.create_table(
        "origins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("origin", sa.String(length=330), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("robots_outcome", sa.String(length=16), nullable=True),
        sa.Column("robots_status", sa.Integer(), nullable=True),
        sa.Column("robots_body", sa.LargeBinary(), nullable=True),
        sa.Column("robots_etag", sa.Text(), nullable=True),
        sa.Column("robots_last_modified", sa.Text(), nullable=True),
        sa.Column("robots_fetched_at", sa.Float(precision=53), nullable=True),
        sa.Column("robots_expires_at", sa.Float(precision=53), nullable=True),
        sa.Column("robots_retry_at", sa.Float(precision=53), nullable=True),
        sa.Column("robots_failures", sa.Integer(), nullable=False),
        sa.Column("robots_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["host_id"], ["hosts.id"], name=op.f("fk_origins_host_id_hosts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_origins")),
        sa.UniqueConstraint("origin", name=op.f("uq_origins_origin")),
    )
    with op.batch_alter_table("origins", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_origins_host_id"), ["host_id"], unique=False)

    op.create_table(
        "urls",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("url_key", sa.LargeBinary(length=16), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("origin_id", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("pass_number", sa.Integer(), nullable=False),
        sa.Column(
            "discovered_from", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("discovered_at", sa.Float(precision=53), nullable=False),
        sa.Column("lease_owner", sa.String(length=200), nullable=True),
        sa.Column("lease_expires_at", sa.Float(precision=53), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.Float(precision=53), nullable=True),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("final_url", sa.Text(), nullable=True),
        sa.Column("content_type", sa.String(length=200), nullable=True),
        sa.Column("etag", sa.Text(), nullable=True),
        sa.Column("last_modified", sa.Text(), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=True),
        sa.Column("noindex", sa.Boolean(), nullable=True),
        sa.Column("nofollow", sa.Boolean(), nullable=True),
        sa.Column("fetched_at", sa.Float(precision=53), nullable=True),
        sa.Column("elapsed_seconds", sa.Float(), nullable=True),
        sa.Column("size_bytes", sa.BigInteger(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("reason", sa.String(length=32), nullable=True),
        sa.Column("reason_detail", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["discovered_from"], ["urls.id"], name=op.f("fk_urls_discovered_from_urls")
        ),
        sa.ForeignKeyConstraint(["host_id"], ["hosts.id"], name=op.f("fk_urls_host_id_hosts")),
        sa.ForeignKeyConstraint(
            ["origin_id"], ["origins.id"], name=op.f("fk_urls_origin_id_origins")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_urls")),
        sa.UniqueConstraint("url_key", name=op.f("uq_urls_url_key")),
    )
    with op.batch_alter_table("urls", schema=None) as batch_op:
        batch_op.create_index(
            "ix_urls_claim", ["host_id", "state", "depth", "priority", "id"], unique=False
        )
        batch_op.create_index(
            "ix_urls_deferred_until",
            ["next_attempt_at"],
            unique=False,
            sqlite_where=sa.text("state = 'deferred'"),
            postgresql_where=sa.text("state = 'deferred'"),
        )
        batch_op.create_index(
            "ix_urls_lease_expiry",
            ["lease_expires_at"],
            unique=False,
            sqlite_where=sa.text("state = 'leased'"),
            postgresql_where=sa.text("state = 'leased'"),
        )
        batch_op.create_index("ix_urls_origin_state", ["origin_id", "state"], unique=False)

    op.create_table(
        "links",
        sa.Column("from_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("to_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("nofollow", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["from_id"], ["urls.id"], name=op.f("fk_links_from_id_urls")),
        sa.ForeignKeyConstraint(["to_id"], ["urls.id"], name=op.f("fk_links_to_id_urls")),
        sa.PrimaryKeyConstraint("from_id", "to_id", name=op.f("pk_links")),
    )
    with op.batch_alter_table("links", schema=None) as batch_op:
        batch_op.create_index("ix_links_to_id", ["to_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("links", schema=None) as batch_op:
        batch_op.drop_index("ix_links_to_id")

    op.drop_table("links")
    with op.batch_alter_table("urls", schema=None) as batch_op:
        batch_op.drop_index("ix_urls_origin_state")
        batch_op.drop_index(
            "ix_urls_lease_expiry",
            sqlite_where=sa.text("state = 'leased'"),
            postgresql_where=sa.text("state = 'leased'"),
        )
        batch_op.drop_index(
            "ix_urls_deferred_until",
            sqlite_where=sa.text("state = 'deferred'"),
            postgresql_where=sa.text("state = 'deferred'"),
        )
        batch_op.drop_index("ix_urls_claim")

    op.drop_table("urls")
    with op.batch_alter_table("origins", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_origins_host_id"))

    op.drop_table("origins")
    with op.batch_alter_table("hosts", schema=None) as batch_op:
        batch_op.drop_index("ix_hosts_due")

    op.drop_table("hosts")
    op.drop_table("crawl_runs")
