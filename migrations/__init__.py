"""Alembic migrations of the crawl database, shipped as ``politecrawl.migrations`` [C6]."""
