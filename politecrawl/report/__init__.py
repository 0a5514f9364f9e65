"""The site-maintenance report: a crawl database read back for people and tools.

``build`` reads the crawl database (through the store's reading queries) into the ``model``;
``page_sections`` builds its sections on the pages and the crawl itself, ``sitemaps`` its
sitemap audit (S4, values in ``sitemap_model``), ``checks`` its link
checks (L1-L4, values in ``check_model``), and ``exclusions`` reads a URL row's robots verdict
for all; the crawl's own span and requests over time are values in ``crawl_model``.
``tables`` holds the cells every renderer shares, ``page_tables``, ``check_tables`` and
``sitemap_tables`` lay the model out once for every renderer (``grouping`` folds long lists of
URLs into groups by host and reason); ``headline`` says what every form says first (the site,
when, the verdict, the pass, the counts problems first) and what the text ends with (the
broken targets); ``text`` renders text, CSV and JSON, ``html`` one self-contained page
(``assets`` holds its style and script, ``pictures`` its inline SVG), ``junit`` JUnit XML for
CI (L5); ``compare`` renders the change report between two passes of a maintenance recrawl.
``history`` tells one URL's story for ``politecrawl why``. Only ``build``, ``page_sections``,
``sitemaps``, ``checks``, ``use_preferences`` and ``compare`` read the database (through the
store); the rest is pure.
"""

from politecrawl.report.build import build_report
from politecrawl.report.history import render_history
from politecrawl.report.junit import render_junit
from politecrawl.report.model import broken_count
from politecrawl.report.page_sections import redirect_chains
from politecrawl.report.text import render_csv, render_json, render_text

__all__ = [
    "broken_count",
    "build_report",
    "redirect_chains",
    "render_csv",
    "render_history",
    "render_json",
    "render_junit",
    "render_text",
]
