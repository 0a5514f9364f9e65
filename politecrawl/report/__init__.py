"""The site-maintenance report: a crawl database read back for people and tools.

``build`` reads the crawl database (through the store's reading queries) into the ``model``;
``sitemaps`` builds its sitemap audit (S4, values in ``sitemap_model``) and ``exclusions`` reads
a URL row's robots verdict for both; ``tables`` and ``sitemap_tables`` lay the model out once
for every renderer; ``text`` renders text, CSV and JSON, ``html`` one self-contained page
(``assets`` holds its style and script); ``compare`` renders the change report between two
passes of a maintenance recrawl. Only ``build``, ``sitemaps`` and ``compare`` read the
database (through the store); the rest is pure.
"""

from politecrawl.report.build import build_report, redirect_chains, render_history
from politecrawl.report.text import render_csv, render_json, render_text

__all__ = [
    "build_report",
    "redirect_chains",
    "render_csv",
    "render_history",
    "render_json",
    "render_text",
]
