"""The index of links by target is built when a report reads it, not kept while a crawl writes
(issue 14: it was a quarter of a page's transaction); ``store.link_targets`` owns it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_links_to_id")


def downgrade() -> None:
    op.execute("CREATE INDEX IF NOT EXISTS ix_links_to_id ON links (to_id)")
