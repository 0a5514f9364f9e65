"""Alembic revisions, oldest first: ``0001_initial`` and onwards."""
