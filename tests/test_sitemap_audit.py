"""The sitemap audit of the report, and ``why`` for listed URLs and sitemaps [S3, S4].

``build_crawl`` records a crawl through the store's API, then writes the sitemap rows the way
the crawl does (``urls.kind``, ``canonical_url``, ``sitemaps``, ``sitemap_entries``), with one
example of every finding: sitemaps read (one truncated, one index), failed (503 after retries,
404, a guessed /sitemap.xml that is not there, a file with nothing readable) and one robots.txt
forbids; listed URLs that are broken, redirected, noindex, disallowed, out of scope and not
canonical; a page missing from every sitemap; an orphan; a lastmod in the future and a
malformed one; fetches a recrawl spared on lastmod. Next to each, a near miss that must not be
found (a canonical naming the page itself, a noindex or PDF page that no sitemap lists, a page
of an origin without a sitemap, a link from a sitemap, an index's entries).
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, select, update
from tests.store.conftest import BACK_ENDS, built_database
from tests.test_report import AGENT, Recorder

from politecrawl.cli import main
from politecrawl.report import build_report, render_csv, render_history, render_json, render_text
from politecrawl.report.html import render_html
from politecrawl.report.sitemap_model import (
    LastmodProblem,
    ListedProblem,
    MissingPage,
    OrphanUrl,
    SitemapAudit,
    SitemapListing,
)
from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import LinkOut, RobotsOutcomeStore, ends, open_database
from politecrawl.store.reading import url_history
from politecrawl.store.schema import (
    links_table,
    sitemap_entries_table,
    sitemaps_table,
    urls_table as _urls,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
A = "http://a.test"
C = "http://c.test"
HTML = "text/html; charset=utf-8"
ROBOTS_A = b"User-agent: *\nDisallow: /private\nSitemap: http://a.test/sitemap.xml\n"
LINE_2 = {
    "origin": A,
    "semantics": "draft",
    "line": 2,
    "text": "Disallow: /private",
    "why": "line 2 (Disallow) decides: Disallow: /private",
    "robots_status": 200,
}
TRAP_RULE = "path segment 'a' repeated 4 times > 3 (C3)"
HOSTILE = "line 1: not XML: <script>alert(1)</script>\x1b[2J"
BROKEN_PROBLEMS = [HOSTILE] + [f"line {n}: junk" for n in range(2, 8)]
PAST = T0 - timedelta(days=1)
FUTURE = T0 + timedelta(days=30)

# The pages A/ links to: every listed URL but the orphan, and two pages no sitemap lists.
LINKED = ["about", "gone", "old", "new", "hidden", "private/x", "trap/a/a/a/a/", "dup"]
LINKED += ["self-canonical", "future", "badmod", "alias", "unlisted-noindex", "doc.pdf"]
LINKED += ["revalidated"]
SITEMAPS = {  # path: (source, for_origin, nesting, format, entries, other, truncated, problems)
    "sitemap.xml": ("robots", A, 0, "urlset", 12, 1, False, ["line 40: <url> without <loc>"]),
    "sitemap_index.xml": ("robots", A, 0, "index", 2, 0, False, []),
    "sitemap-news.xml": ("index", A, 1, None, None, 0, None, []),
    "sitemap-big.xml": ("index", A, 1, "urlset", 50_000, 0, True, []),
    "sitemap-missing.xml": ("robots", A, 0, None, None, 0, None, []),
    "private/sitemap.xml": ("robots", A, 0, None, None, 0, None, []),
    "sitemap-broken.xml": ("robots", A, 0, "unknown", 0, 0, False, BROKEN_PROBLEMS),
}
# sitemap path: [(listed path, line, lastmod, lastmod_text)]
ENTRIES = {
    "sitemap.xml": [
        ("", 3, PAST, "2025-12-31"),
        ("gone", 4, None, None),
        ("old", 5, None, None),
        ("new", 6, None, None),
        ("hidden", 7, None, None),
        ("private/x", 8, None, None),
        ("trap/a/a/a/a/", 9, None, None),
        ("dup", 10, None, None),
        ("self-canonical", 11, None, None),
        ("future", 12, FUTURE, "2026-01-31"),
        ("badmod", 13, None, "yesterday"),
        ("orphan", 14, None, None),
    ],
    "sitemap-big.xml": [("gone", 2, None, None), ("", 3, None, None)],
    # An index lists sitemaps: never audited as listed pages (sitemap-news.xml failed).
    "sitemap_index.xml": [("sitemap-news.xml", 2, None, None), ("sitemap-big.xml", 3, None, None)],
}


def _ids(connection) -> dict[str, int]:
    return {url: id_ for id_, url in connection.execute(select(_urls.c.id, _urls.c.url))}


def build_crawl(database) -> None:
    """The crawl every test here reads (see the module docstring)."""
    crawl = Recorder(database)
    sitemap_urls = [f"{A}/{path}" for path in SITEMAPS] + [f"{C}/sitemap.xml"]
    crawl.frontier.add([f"{A}/", f"{C}/", f"{A}/orphan", *sitemap_urls], now=T0)
    week = T0 + timedelta(days=7)
    store = RobotsOutcomeStore(database)
    store.put(A, RobotsOutcome("parsed", 200, ROBOTS_A, "200: parsed", week, None, 0), now=T0)
    store.put(C, RobotsOutcome("allow_all", 404, None, "404: no robots.txt", week, None, 0), now=T0)

    html = ends.PageOutcome(200, content_type=HTML, elapsed_seconds=0.1)
    crawl.page("", html, links=[LinkOut(f"{A}/{path}") for path in LINKED])
    crawl.page("about", html, links=[LinkOut(f"{A}/")])
    crawl.page("gone", ends.PageOutcome(404, content_type=HTML))
    crawl.redirect("old", 301, "new")
    for path in (
        "new",
        "dup",
        "self-canonical",
        "future",
        "badmod",
        "alias",
        "orphan",
        "revalidated",
    ):
        crawl.page(path, html)
    crawl.page("hidden", ends.PageOutcome(200, content_type=HTML, noindex=True, nofollow=False))
    crawl.page("unlisted-noindex", ends.PageOutcome(200, content_type=HTML, noindex=True))
    crawl.page("doc.pdf", ends.PageOutcome(200, content_type="application/pdf"))
    crawl.exclude(f"{A}/private/x", "excluded", "robots", LINE_2)
    crawl.exclude(f"{A}/trap/a/a/a/a/", "out_of_scope", "trap", {"rule": TRAP_RULE})
    lease, now = crawl.take(f"{C}/")
    assert crawl.frontier.record(ends.Completed(lease, html, now), now=now).recorded

    # The sitemaps, fetched like any URL.
    xml = ends.PageOutcome(200, content_type="application/xml", elapsed_seconds=5.0)
    for path in ("sitemap.xml", "sitemap_index.xml", "sitemap-big.xml", "sitemap-broken.xml"):
        crawl.page(path, xml)
    crawl.page("sitemap-missing.xml", ends.PageOutcome(404, content_type=HTML))
    lease, now = crawl.take(f"{A}/sitemap-news.xml")
    assert crawl.frontier.record(
        ends.Failed(lease, "HTTP 503", at=now, status=503, next_fetch_at=now), now=now
    ).recorded
    crawl.exclude(f"{A}/private/sitemap.xml", "excluded", "robots", LINE_2)
    lease, now = crawl.take(f"{C}/sitemap.xml")
    assert crawl.frontier.record(
        ends.Completed(lease, ends.PageOutcome(404), now), now=now
    ).recorded

    # What the crawl writes when it reads them (S1, S2, S3).
    with database.engine.begin() as connection:
        ids = _ids(connection)
        sitemap_ids = [ids[url] for url in sitemap_urls]
        connection.execute(update(_urls).where(_urls.c.id.in_(sitemap_ids)).values(kind="sitemap"))
        for path in ("sitemap-news.xml", "sitemap-big.xml"):
            connection.execute(
                update(_urls)
                .where(_urls.c.id == ids[f"{A}/{path}"])
                .values(discovered_from=ids[f"{A}/sitemap_index.xml"])
            )
        for path, canonical in (
            ("dup", f"{A}/canonical"),
            ("self-canonical", "HTTP://A.test:80/self-canonical"),  # itself, spelt otherwise
            ("alias", f"{A}/about"),  # names another: belongs in no sitemap, not missing
        ):
            connection.execute(
                update(_urls)
                .where(_urls.c.id == ids[f"{A}/{path}"])
                .values(canonical_url=canonical)
            )
        rows = [
            {
                "url_id": ids[f"{A}/{path}"],
                "source": source,
                "for_origin": origin,
                "nesting": nesting,
                "format": format_,
                "entries": entries,
                "other_origins": other,
                "truncated": truncated,
                "problems": json.dumps(problems) if problems else None,
            }
            for path, (source, origin, nesting, format_, entries, other, truncated, problems) in (
                SITEMAPS.items()
            )
        ]
        rows.append(
            {
                "url_id": ids[f"{C}/sitemap.xml"],
                "source": "guess",
                "for_origin": C,
                "nesting": 0,
                "format": None,
                "entries": None,
                "other_origins": 0,
                "truncated": None,
                "problems": None,
            }
        )
        connection.execute(insert(sitemaps_table), rows)
        connection.execute(
            insert(sitemap_entries_table),
            [
                {
                    "sitemap_id": ids[f"{A}/{sitemap}"],
                    "url_id": ids[f"{A}/{path}"],
                    "line": line,
                    "lastmod": lastmod,
                    "lastmod_text": text,
                }
                for sitemap, entries in ENTRIES.items()
                for path, line, lastmod, text in entries
            ],
        )
        # A listing is not a link: a links row from a sitemap (were one written) links nothing.
        link = {"from_id": ids[f"{A}/sitemap.xml"], "to_id": ids[f"{A}/orphan"], "nofollow": False}
        connection.execute(insert(links_table), [link])
        # A recrawl's 304 (E3): still the page it was.
        revalidated = _urls.c.id == ids[f"{A}/revalidated"]
        connection.execute(update(_urls).where(revalidated).values(status=304))
        # S3: two fetches a recrawl spared because no lastmod was newer.
        spared = [ids[f"{A}/new"], ids[f"{A}/future"]]
        connection.execute(
            update(_urls).where(_urls.c.id.in_(spared)).values(reason="sitemap-unchanged")
        )


@pytest.fixture(scope="module", params=BACK_ENDS)
def crawl(request, tmp_path_factory):
    """A crawl database built by ``build_crawl``, on each back end (read-only: shared)."""
    yield from built_database(request.param, tmp_path_factory, build_crawl, "sitemap-audit")


@pytest.fixture
def report(crawl):
    return build_report(crawl, agent=AGENT)


@pytest.fixture
def audit(report) -> SitemapAudit:
    return report.sitemaps


def _in(*listings: tuple[str, int]) -> tuple[SitemapListing, ...]:
    """Listings without a lastmod: (sitemap path, line)."""
    return tuple(SitemapListing(f"{A}/{path}", line, None, None) for path, line in listings)


# --- the model ---------------------------------------------------------------------------------


def test_s4_each_sitemap_with_what_became_of_it(audit):
    found = {
        item.url: (item.source, item.named_by, item.outcome, item.reason, item.format)
        for item in audit.sitemaps
    }
    assert list(found) == sorted(found)
    assert found == {
        f"{A}/private/sitemap.xml": (
            "robots",
            f"{A}/robots.txt",
            "not fetched",
            "disallowed by robots.txt: line 2: Disallow: /private (draft)",
            None,
        ),
        f"{A}/sitemap-big.xml": ("index", f"{A}/sitemap_index.xml", "read", "", "urlset"),
        f"{A}/sitemap-broken.xml": (
            "robots",
            f"{A}/robots.txt",
            "failed",
            "nothing readable (see its problems)",
            "unknown",
        ),
        f"{A}/sitemap-missing.xml": ("robots", f"{A}/robots.txt", "failed", "HTTP 404", None),
        f"{A}/sitemap-news.xml": ("index", f"{A}/sitemap_index.xml", "failed", "HTTP 503", None),
        f"{A}/sitemap.xml": ("robots", f"{A}/robots.txt", "read", "", "urlset"),
        f"{A}/sitemap_index.xml": ("robots", f"{A}/robots.txt", "read", "", "index"),
        f"{C}/sitemap.xml": (
            "guess",
            "",
            "absent",
            "HTTP 404: no sitemap there (robots.txt names none)",
            None,
        ),
    }
    main = next(item for item in audit.sitemaps if item.url == f"{A}/sitemap.xml")
    assert (main.entries, main.other_origins, main.truncated, main.status) == (12, 1, False, 200)
    assert main.problems == ("line 40: <url> without <loc>",)
    big = next(item for item in audit.sitemaps if item.url == f"{A}/sitemap-big.xml")
    assert (big.entries, big.truncated, big.nesting) == (50_000, True, 1)
    assert len(audit.unread) == 4  # the guessed /sitemap.xml that is absent is no fault
    assert [item.url for item in audit.sitemaps if item.failed] == [
        f"{A}/sitemap-broken.xml",
        f"{A}/sitemap-missing.xml",
        f"{A}/sitemap-news.xml",
    ]


def test_s4_listed_urls_that_are_broken_redirected_noindex_disallowed_out_of_scope_or_not_canonical(
    audit,
):
    assert audit.listed_problems == (
        ListedProblem(
            f"{A}/dup", "not_canonical", 200, f"canonical: {A}/canonical", _in(("sitemap.xml", 10))
        ),
        ListedProblem(
            f"{A}/gone",
            "broken",
            404,
            "HTTP 404",
            _in(("sitemap-big.xml", 2), ("sitemap.xml", 4)),
        ),
        ListedProblem(f"{A}/hidden", "noindex", 200, "noindex", _in(("sitemap.xml", 7))),
        ListedProblem(
            f"{A}/old", "redirected", 301, f"HTTP 301 to {A}/new", _in(("sitemap.xml", 5))
        ),
        ListedProblem(
            f"{A}/private/x",
            "disallowed",
            None,
            "line 2: Disallow: /private (draft)",
            _in(("sitemap.xml", 8)),
        ),
        ListedProblem(
            f"{A}/trap/a/a/a/a/",
            "out_of_scope",
            None,
            "path segment 'a' repeated 4 times > 3",
            _in(("sitemap.xml", 9)),
        ),
    )
    # The near misses: a canonical naming the page itself; an index's entries (sitemaps).
    listed = {item.url for item in audit.listed_problems}
    assert f"{A}/self-canonical" not in listed
    assert f"{A}/sitemap-news.xml" not in listed


def test_s4_pages_missing_from_every_sitemap(audit):
    # Not missing: noindex or PDF pages, a page naming another as canonical, the pages of an
    # origin whose only sitemap was not there (c.test), sitemaps themselves.
    assert audit.missing == (
        MissingPage(f"{A}/about", A, f"{A}/"),
        MissingPage(f"{A}/revalidated", A, f"{A}/"),  # a 304 of a recrawl is a page too
    )


def test_s4_orphans_are_listed_urls_no_page_links_to(audit):
    # The links row from sitemap.xml to /orphan is no link from a page.
    assert audit.orphans == (OrphanUrl(f"{A}/orphan", "done", 200, _in(("sitemap.xml", 14))),)


def test_s4_lastmod_in_the_future_or_malformed(audit, crawl):
    with crawl.engine.connect() as connection:
        read_at = connection.execute(
            select(_urls.c.fetched_at).where(_urls.c.url == f"{A}/sitemap.xml")
        ).scalar_one()
    assert audit.lastmod_problems == (
        LastmodProblem(
            f"{A}/badmod", "malformed", "yesterday", None, f"{A}/sitemap.xml", 13, read_at
        ),
        LastmodProblem(
            f"{A}/future", "future", "2026-01-31", FUTURE, f"{A}/sitemap.xml", 12, read_at
        ),
    )


def test_s3_fetches_spared_by_sitemap_lastmod_are_counted(audit):
    assert audit.skipped_unchanged == 2
    assert audit.counts == {
        "sitemaps": 8,
        "unread": 4,
        "listed_problems": 6,
        "missing": 2,
        "orphans": 1,
        "lastmod_problems": 2,
        "skipped_unchanged": 2,
    }


def test_s4_sitemaps_are_never_pages_in_the_other_sections(report):
    sitemap_urls = {item.url for item in report.sitemaps.sitemaps}
    assert [item.url for item in report.broken_links] == [f"{A}/gone"]
    assert f"{A}/private/x" in [item.url for item in report.robots_excluded]
    in_page_sections = {
        item.url
        for section in ("broken_links", "robots_excluded", "out_of_scope", "slow_pages")
        for item in report.section(section)
    }
    in_page_sections |= {step.url for chain in report.redirect_chains for step in chain.steps}
    in_page_sections |= {d.url for d in report.disagreements}
    assert not in_page_sections & sitemap_urls
    assert report.slow_pages == ()  # the sitemaps took 5 s each: they are not slow pages


def test_s4_the_audit_is_the_same_when_built_twice(crawl, report):
    assert build_report(crawl, agent=AGENT).sitemaps == report.sitemaps


# --- renderings ----------------------------------------------------------------------------------


def _section(text: str, title: str) -> str:
    """The lines of the text section headed ``title (n)``, up to the next blank line."""
    start = text.index(f"\n{title} (") + 1
    end = text.find("\n\n", start)
    return text[start : None if end < 0 else end]


def test_s4_text_shows_every_sitemap_section(report):
    text = render_text(report)
    sitemaps = _section(text, "Sitemaps")
    assert sitemaps.startswith("Sitemaps (8)\n")
    assert "this recrawl pass spared 2 fetches" in sitemaps
    assert re.search(
        rf"\n  {re.escape(A)}/sitemap-missing\.xml +robots\.txt +failed\n +{re.escape(A)}/robots"
        r"\.txt +HTTP 404\n",
        sitemaps,
    )
    assert sitemaps.splitlines()[1] == (
        "  3 read, 3 failed, 1 absent, 1 not fetched; this recrawl pass spared 2 fetches: no "
        "sitemap lastmod was newer than the page's last fetch"
    )
    assert "HTTP 404: no sitemap there (robots.txt names none)" in sitemaps
    assert "disallowed by robots.txt: line 2: Disallow: /private (draft)" in sitemaps
    assert "1 of other origins ignored" in sitemaps
    assert "truncated" in sitemaps
    assert "... and 2 more" in sitemaps
    assert "\x1b" not in text
    assert "\\x1b[2J" in text

    problems = _section(text, "Sitemap: listed URLs with problems")
    assert problems.startswith("Sitemap: listed URLs with problems (6)\n")
    for expected in (
        "not canonical",
        "broken",
        "redirected",
        "noindex",
        "disallowed by robots.txt",
        "out of scope",
        f"HTTP 301 to {A}/new",
        "line 2: Disallow: /private (draft)",
        f"{A}/sitemap.xml (line 4)",
        f"{A}/sitemap-big.xml (line 2)",
    ):
        assert expected in problems, expected
    missing = _section(text, "Sitemap: pages missing from every sitemap")
    assert missing.splitlines()[0] == "Sitemap: pages missing from every sitemap (2)"
    assert f"  {A}/about " in missing
    orphans = _section(text, "Sitemap: orphans (listed, never linked)")
    assert f"  {A}/orphan " in orphans
    assert orphans.count(f"{A}/") == 2  # the orphan and its sitemap
    lastmod = _section(text, "Sitemap: lastmod in the future or malformed")
    assert "malformed lastmod" in lastmod
    assert "yesterday" in lastmod
    assert "lastmod in the future" in lastmod
    assert "2026-01-31" in lastmod
    summary = text[: text.index("\n\nBroken links")]
    assert re.search(r"\n  Listed URLs with problems +6\n", summary)
    assert summary.endswith("\n  Fetches spared by lastmod     2")


def test_s4_csv_rows_for_every_sitemap_finding(report):
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert rows[0] == ["section", "url", "status", "reason", "detail", "related_url"]
    by_section: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        assert len(row) == 6
        by_section.setdefault(row[0], []).append(row[1:])
    sitemaps = by_section["sitemaps"]
    assert len(sitemaps) == 9  # eight sitemaps, and the count of fetches spared
    assert sitemaps[-1] == [
        "",
        "",
        "skipped: sitemap lastmod unchanged",
        "2 fetches spared this pass",
        "",
    ]
    assert [
        f"{C}/sitemap.xml",
        "404",
        "absent: HTTP 404: no sitemap there (robots.txt names none)",
        "source: guess",
        "",
    ] in sitemaps
    main_row = next(row for row in sitemaps if row[0] == f"{A}/sitemap.xml")
    assert main_row == [
        f"{A}/sitemap.xml",
        "200",
        "read",
        "source: robots; format: urlset; entries: 12; other origins: 1; "
        "problem: line 40: <url> without <loc>",
        f"{A}/robots.txt",
    ]
    assert by_section["sitemap_problems"] == [
        [
            f"{A}/dup",
            "200",
            "not canonical",
            f"canonical: {A}/canonical; line 10",
            f"{A}/sitemap.xml",
        ],
        [f"{A}/gone", "404", "broken", "HTTP 404; line 2", f"{A}/sitemap-big.xml"],
        [f"{A}/gone", "404", "broken", "HTTP 404; line 4", f"{A}/sitemap.xml"],
        [f"{A}/hidden", "200", "noindex", "noindex; line 7", f"{A}/sitemap.xml"],
        [f"{A}/old", "301", "redirected", f"HTTP 301 to {A}/new; line 5", f"{A}/sitemap.xml"],
        [
            f"{A}/private/x",
            "",
            "disallowed by robots.txt",
            "line 2: Disallow: /private (draft); line 8",
            f"{A}/sitemap.xml",
        ],
        [
            f"{A}/trap/a/a/a/a/",
            "",
            "out of scope",
            "path segment 'a' repeated 4 times > 3; line 9",
            f"{A}/sitemap.xml",
        ],
    ]
    assert by_section["sitemap_missing"] == [
        [f"{A}/about", "", "missing from sitemaps", "", f"{A}/"],
        [f"{A}/revalidated", "", "missing from sitemaps", "", f"{A}/"],
    ]
    assert by_section["sitemap_orphans"] == [
        [f"{A}/orphan", "200", "orphan: never linked", "line 14", f"{A}/sitemap.xml"]
    ]
    assert [row[:3] for row in by_section["sitemap_lastmod"]] == [
        [f"{A}/badmod", "", "malformed lastmod"],
        [f"{A}/future", "", "lastmod in the future"],
    ]
    assert by_section["sitemap_lastmod"][0][3] == "line 13: lastmod yesterday"
    assert by_section["sitemap_lastmod"][1][3].startswith(
        "line 12: lastmod 2026-01-31; sitemap read 2026-01-01T"
    )
    assert "sitemap-news.xml" not in {row[0] for row in by_section["broken_links"]}


def test_s4_json_has_the_audit_and_its_counts(report):
    data = json.loads(render_json(report))
    audit = data["sitemaps"]
    assert audit["counts"]["listed_problems"] == 6
    assert audit["skipped_unchanged"] == 2
    assert [item["outcome"] for item in audit["sitemaps"]] == [
        "not fetched",
        "read",
        "failed",
        "failed",
        "failed",
        "read",
        "read",
        "absent",
    ]
    assert audit["listed_problems"][1] == {
        "url": f"{A}/gone",
        "problem": "broken",
        "status": 404,
        "detail": "HTTP 404",
        "listed_in": [
            {"sitemap": f"{A}/sitemap-big.xml", "line": 2, "lastmod": None, "lastmod_text": None},
            {"sitemap": f"{A}/sitemap.xml", "line": 4, "lastmod": None, "lastmod_text": None},
        ],
    }
    assert audit["missing"][0] == {"url": f"{A}/about", "origin": A, "found_on": f"{A}/"}
    assert audit["orphans"][0]["url"] == f"{A}/orphan"
    assert audit["lastmod_problems"][1]["lastmod"] == "2026-01-31T00:00:00+00:00"
    assert audit["lastmod_problems"][0]["lastmod_text"] == "yesterday"


def test_s4_html_has_a_section_per_finding_escaped(report):
    html = render_html(report)
    for key in ("sitemaps", "sitemap_problems", "sitemap_missing", "sitemap_orphans"):
        assert f'<section id="{key}">' in html
    lastmod = html[html.index('<section id="sitemap_lastmod">') :]
    assert "malformed lastmod" in lastmod[: lastmod.index("</section>")]
    audit = html[html.index('<section id="sitemaps">') : html.index("</main>")]
    assert audit.count("<table") == 5
    assert "<script>alert(1)" not in html
    assert "not XML: &lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J" in html
    assert f'<a href="{A}/orphan" rel="noreferrer noopener">' in html
    assert '<a class="card" href="#sitemap_problems">' in html
    # The count of sitemaps is no alarm; the count of listed URLs with problems is.
    assert '<h2>Sitemaps <span class="count">8</span></h2>' in html
    assert '<h2>Sitemap: listed URLs with problems <span class="count nonzero">6</span>' in html


def test_s4_spec_ids_stay_out_of_what_people_read(report):
    spec_id = re.compile(r"\([A-Z]\d+(?:-[A-Z]?\d+)?\)")
    sitemap_part = render_text(report)[render_text(report).index("\nSitemaps (") :]
    for rendered in (sitemap_part, render_csv(report), render_html(report)):
        assert not spec_id.search(rendered), spec_id.search(rendered)


def test_s4_a_crawl_without_sitemaps_says_so_in_one_line(tmp_path):
    database = open_database(str(tmp_path / "none.db"))
    report = build_report(database, agent=AGENT)
    database.close()
    assert report.sitemaps == SitemapAudit()
    text = render_text(report)
    assert text.endswith(
        "\nSitemaps: none in this crawl (robots.txt named none, and /sitemap.xml was not tried)\n"
    )
    assert "Sitemap:" not in text  # no empty audit tables
    html = render_html(report)
    assert '<section id="sitemaps">\n<h2>Sitemaps</h2>\n<p class="empty">none in this crawl' in html
    assert "sitemap_problems" not in html
    assert not [row for row in csv.reader(io.StringIO(render_csv(report))) if "sitemap" in row[0]]
    assert json.loads(render_json(report))["sitemaps"]["sitemaps"] == []


# --- why -----------------------------------------------------------------------------------------


def test_s4_why_names_the_sitemaps_listing_a_url(crawl):
    history = url_history(crawl, f"{A}/")
    assert history is not None
    assert history.sitemap is None
    assert [(item.sitemap, item.line) for item in history.listings] == [
        (f"{A}/sitemap-big.xml", 3),
        (f"{A}/sitemap.xml", 3),
    ]
    text = render_history(history)
    assert "  listed in sitemaps (2):\n" in text
    assert f"    {A}/sitemap-big.xml (line 3)\n" in text
    assert f"    {A}/sitemap.xml (line 3, lastmod 2025-12-31T00:00:00+00:00)\n" in text
    text = render_history(url_history(crawl, f"{A}/badmod"))
    assert f"    {A}/sitemap.xml (line 13, lastmod 'yesterday' (malformed))\n" in text
    text = render_history(url_history(crawl, f"{A}/dup"))
    assert re.search(rf"\n  canonical +{re.escape(A)}/canonical\n", text)
    assert "listed in sitemaps (1):" in text
    assert "listed in sitemaps" not in render_history(url_history(crawl, f"{A}/about"))


def test_s4_why_says_a_sitemap_is_one_and_what_reading_it_found(crawl):
    text = render_history(url_history(crawl, f"{A}/sitemap.xml"))
    assert re.search(
        r"\n  kind +sitemap \(read for the URLs it lists, not a page\); named by robots\.txt: "
        rf"{re.escape(A)}/robots\.txt\n",
        text,
    )
    assert re.search(
        r"\n  sitemap +read, urlset, 12 entries, 1 entries of other origins ignored\n", text
    )
    assert re.search(r"\n  problem +line 40: <url> without <loc>\n", text)
    assert "found on" not in text
    text = render_history(url_history(crawl, f"{A}/sitemap-news.xml"))
    assert f"listed by an index: {A}/sitemap_index.xml" in text
    assert re.search(r"\n  sitemap +failed: HTTP 503\n", text)
    text = render_history(url_history(crawl, f"{C}/sitemap.xml"))
    assert "; guessed\n" in text
    assert "absent: HTTP 404: no sitemap there (robots.txt names none)" in text


def test_s4_why_on_the_command_line(crawl, capsys):
    assert main(["why", f"{A}/gone", "--db", crawl.target]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{A}/gone\n")
    assert f"    {A}/sitemap-big.xml (line 2)\n    {A}/sitemap.xml (line 4)\n" in out
