"""A fetched page as the crawler reads it (``crawl.response_reading.PageReader``) [L1, L3, L4].

What the frontier is handed of a page's links follows the crawl's checks: fragments only when
they are checked (L4), resources only when they are (L3), each link's text and line whenever
links are checked (L1).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from politecrawl.config import CheckingSettings, CrawlConfig
from politecrawl.crawl.response_reading import PageReader
from politecrawl.fetch import FetchResult
from politecrawl.store import Lease

T0 = datetime(2026, 1, 1, tzinfo=UTC)
URL = "http://site.test/docs/"
BODY = (
    b"<html><head><link rel=stylesheet href=/style.css></head><body>\n"
    b'<a href="install.html#linux">Install</a>\n'
    b'<img src="logo.png" alt="logo"></body></html>'
)


def links_read(**checks: bool) -> dict[str, tuple[tuple[str, ...], str | None, bool]]:
    lease = Lease(1, URL, "http://site.test", "site.test", 0, 0, "w", T0, 1, T0)
    result = FetchResult(URL, 200, (("Content-Type", "text/html"),), BODY, False, 0.01, None)
    config = CrawlConfig(checking=CheckingSettings(**checks))
    reading = PageReader(config).read(lease, result, T0)
    return {link.url: (link.fragments, link.text, link.resource) for link in reading.links}


@pytest.mark.parametrize("fragments", [False, True])
def test_l1_l4_fragments_reach_the_frontier_only_when_checked(fragments):
    read = links_read(check_outbound=True, check_fragments=fragments)
    assert read == {
        "http://site.test/docs/install.html": (("linux",) if fragments else (), "Install", False)
    }


def test_l3_resources_reach_the_frontier_only_when_checked():
    read = links_read(check_resources=True)
    assert read["http://site.test/docs/logo.png"] == ((), "logo", True)  # its alt
    assert read["http://site.test/style.css"][2]
    assert read["http://site.test/docs/install.html"] == ((), "Install", False)
