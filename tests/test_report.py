"""The maintenance report and ``why``, over a crawl database built by hand through the store API
[C1, C3, C4, M6, O3-O6, T5].

``build_crawl`` records a small crawl whose every finding is known: two broken links (one linked
with rel=nofollow), a redirect chain and a redirect loop, robots.txt exclusions (a deciding line,
and a whole origin refused by 403), a robots.txt whose draft and RFC 9309 readings differ on two
crawled URLs, noindex and nofollow pages, a deferred origin and a URL waiting for a retry, a slow
page, and URLs out of scope or caught by a trap guard. The store half runs on SQLite and, when
a server is there, on PostgreSQL.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from tests.store.conftest import BACK_ENDS, built_database

from politecrawl.cli.inspect import _crawl_settings
from politecrawl.errors import UserInputError
from politecrawl.report import build_report, render_csv, render_history, render_json, render_text
from politecrawl.report.html import render_html
from politecrawl.report.model import (
    SECTION_TITLES,
    BrokenLink,
    ChainStep,
    DeferredOrigin,
    DeferredUrl,
    DirectivePage,
    Disagreement,
    RedirectChain,
    Referrer,
    RobotsExclusion,
    RobotsOutcomeRow,
    ScopeExclusion,
    SlowPage,
)
from politecrawl.robots import RobotsLimits
from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import (
    Frontier,
    Lease,
    LinkOut,
    RobotsOutcomeStore,
    ends,
    open_database,
    start_run,
)
from politecrawl.store.reading import url_history

T0 = datetime(2026, 1, 1, tzinfo=UTC)
AGENT = "examplebot"
A = "http://a.test"
ROBOTS_A = b"User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf\n"
HOSTILE_ERROR = "connection reset \x1b[2J<script>alert('err')</script>"
DEFERRED_WHY = "HTTP 503: robots.txt unreachable after 4 attempts; origin deferred (O6)"
RETRY_UNTIL = T0 + timedelta(days=1)


O3 = "200: parsed and obeyed (O3)"
O4 = "404: no robots.txt, no restrictions (O4)"
O5 = "403: the whole origin is disallowed (O5)"
WHY_LINE_2 = "line 2 (Disallow) decides: Disallow: /private"


class Recorder:
    """Records a crawl through the frontier, one second per step, leasing URLs in the order the
    test wants (no delay and many slots per host, so every URL of a host can be claimed)."""

    def __init__(self, database) -> None:
        self.frontier = Frontier(database, default_delay_seconds=0.0, max_in_flight_per_host=100)
        self.seconds = 0

    def take(self, url: str) -> tuple[Lease, datetime]:
        """Lease ``url``: claim until it comes, then give the others back."""
        self.seconds += 1
        now = T0 + timedelta(seconds=self.seconds)
        others = []
        while True:
            lease = self.frontier.claim("w1", now=now)
            assert isinstance(lease, Lease), (url, lease)
            if lease.url == url:
                for other in others:
                    self.frontier.record(ends.Released(other, next_fetch_at=now), now=now)
                return lease, now
            others.append(lease)

    def page(self, path: str, outcome: ends.PageOutcome | None = None, **kwargs) -> None:
        lease, now = self.take(f"{A}/{path}")
        outcome = outcome or ends.PageOutcome(200, elapsed_seconds=0.1)
        assert self.frontier.record(ends.Completed(lease, outcome, now, **kwargs), now=now).recorded

    def redirect(self, path: str, status: int, target: str) -> None:
        outcome = ends.PageOutcome(status, final_url=f"{A}/{target}")
        self.page(path, outcome, redirect_to=f"{A}/{target}")

    def exclude(self, url: str, state: str, reason: str, detail: dict) -> None:
        lease, now = self.take(url)
        assert self.frontier.record(
            ends.Excluded(lease, state=state, reason=reason, detail=detail), now=now
        ).recorded


def build_crawl(database) -> None:
    """The crawl every test reads (see the module docstring)."""
    crawl = Recorder(database)
    crawl.frontier.add([f"{A}/", "http://b.test/page", "http://c.test/", "http://d.test/x"], now=T0)
    week = T0 + timedelta(days=7)
    for origin, outcome in (
        (A, RobotsOutcome("parsed", 200, ROBOTS_A, O3, week, None, 0)),
        ("http://b.test", RobotsOutcome("deferred", 503, None, DEFERRED_WHY, None, None, 4)),
        ("http://c.test", RobotsOutcome("allow_all", 404, None, O4, week, None, 0)),
        ("http://d.test", RobotsOutcome("disallow_all", 403, None, O5, week, None, 0)),
    ):
        RobotsOutcomeStore(database).put(origin, outcome, now=T0)
    paths = ["about", "missing", "old", "loop-a", "private/x", "private/open/page", "doc.pdf"]
    paths += ["slow", "noindex", "nofollow", "a/a/a/a/a/a/a/"]
    links = [LinkOut(f"{A}/{path}") for path in paths] + [LinkOut("http://other.test/")]
    crawl.page("", links=links)
    crawl.page("about", links=[LinkOut(f"{A}/missing", nofollow=True), LinkOut(f"{A}/gone")])
    crawl.page("missing", ends.PageOutcome(404, elapsed_seconds=0.05))
    lease, now = crawl.take(f"{A}/gone")
    assert crawl.frontier.record(
        ends.Failed(lease, HOSTILE_ERROR, at=now, next_fetch_at=now), now=now
    ).recorded
    crawl.redirect("old", 301, "older")  # a chain: 301, 302, 200
    crawl.redirect("older", 302, "new")
    crawl.page("new")
    crawl.redirect("loop-a", 301, "loop-b")  # a loop
    crawl.redirect("loop-b", 301, "loop-a")
    crawl.page("doc.pdf")
    crawl.page("slow", ends.PageOutcome(200, elapsed_seconds=3.5, size_bytes=1234))
    crawl.page("noindex", ends.PageOutcome(200, noindex=True, nofollow=False))
    crawl.page("nofollow", ends.PageOutcome(200, noindex=False, nofollow=True), follow_links=False)
    line_2 = {"line": 2, "text": "Disallow: /private", "why": WHY_LINE_2, "robots_status": 200}
    for path in ("private/x", "private/open/page"):
        detail = {"origin": A, "semantics": "draft", **line_2}
        crawl.exclude(f"{A}/{path}", "excluded", "robots", detail)
    detail = {"origin": "http://d.test", "semantics": "draft", "why": O5, "robots_status": 403}
    crawl.exclude("http://d.test/x", "excluded", "robots", detail)
    rule = "host other.test is not in scope (C1)"
    crawl.exclude("http://other.test/", "out_of_scope", "scope", {"rule": rule})
    rule = "path segment 'a' repeated 7 times > 3 (C3)"
    crawl.exclude(f"{A}/a/a/a/a/a/a/a/", "out_of_scope", "trap", {"rule": rule})
    lease, now = crawl.take("http://b.test/page")
    detail = {"robots": DEFERRED_WHY}
    crawl.frontier.record(
        ends.Deferred(lease, until=None, reason="robots-deferred", detail=detail), now=now
    )
    lease, now = crawl.take("http://c.test/")
    crawl.frontier.record(
        ends.Failed(lease, "HTTP 503", at=now, status=503, next_fetch_at=now, retry_at=RETRY_UNTIL),
        now=now,
    )


@pytest.fixture(scope="module", params=BACK_ENDS)
def crawl(request, tmp_path_factory):
    """A crawl database built by ``build_crawl``, on each back end (read-only: shared)."""
    yield from built_database(request.param, tmp_path_factory, build_crawl, "report")


@pytest.fixture
def report(crawl):
    return build_report(crawl, agent=AGENT)


def test_totals_count_urls_per_state(report):
    assert dict(report.totals) == {
        "queued": 0,
        "leased": 0,
        "done": 12,
        "failed": 1,
        "excluded": 3,
        "deferred": 2,
        "out_of_scope": 2,
    }
    assert report.total_urls == 20
    assert report.agent == AGENT


def test_broken_links_name_every_page_linking_to_them(report):
    assert report.broken_links == (
        BrokenLink(f"{A}/gone", None, "failed", HOSTILE_ERROR, (Referrer(f"{A}/about"),)),
        BrokenLink(
            f"{A}/missing",
            404,
            "done",
            None,
            (Referrer(f"{A}/"), Referrer(f"{A}/about", nofollow=True)),
        ),
    )
    assert report.broken_links[1].problem == "HTTP 404"


def test_c4_redirect_chains_are_followed_hop_by_hop_and_loops_marked(report):
    assert report.redirect_chains == (
        RedirectChain(
            (
                ChainStep(f"{A}/loop-a", 301, "done"),
                ChainStep(f"{A}/loop-b", 301, "done"),
                ChainStep(f"{A}/loop-a", 301, "done"),
            ),
            loop=True,
            too_long=False,
        ),
        RedirectChain(
            (
                ChainStep(f"{A}/old", 301, "done"),
                ChainStep(f"{A}/older", 302, "done"),
                ChainStep(f"{A}/new", 200, "done"),
            ),
            loop=False,
            too_long=False,
        ),
    )
    assert [chain.problem for chain in report.redirect_chains] == ["redirect loop", ""]


def test_c4_a_chain_longer_than_the_limit_is_marked(crawl):
    chains = build_report(crawl, agent=AGENT, max_redirects=1).redirect_chains
    assert [(chain.steps[0].url, chain.too_long) for chain in chains] == [
        (f"{A}/loop-a", True),
        (f"{A}/old", True),
    ]
    assert chains[1].problem == "too long (2 redirects)"


def test_o3_o5_robots_exclusions_carry_the_deciding_line(report):
    why = "line 2 (Disallow) decides: Disallow: /private"
    assert report.robots_excluded == (
        RobotsExclusion(f"{A}/private/open/page", A, "draft", 2, "Disallow: /private", why, 200),
        RobotsExclusion(f"{A}/private/x", A, "draft", 2, "Disallow: /private", why, 200),
        RobotsExclusion(
            "http://d.test/x",
            "http://d.test",
            "draft",
            None,
            None,
            "403: the whole origin is disallowed (O5)",
            403,
        ),
    )


def test_o3_o5_a_robots_verdict_is_worded_by_its_line_or_why_the_origin_is_refused(report):
    by_line, whole_origin = report.robots_excluded[0], report.robots_excluded[2]
    assert (by_line.rule, by_line.deciding) == ("Disallow: /private", "line 2: Disallow: /private")
    refused = "403: the whole origin is disallowed (O5)"
    assert (whole_origin.rule, whole_origin.deciding) == (refused, refused)


def test_c1_c3_out_of_scope_and_traps_with_their_rule(report):
    assert report.out_of_scope == (
        ScopeExclusion(
            f"{A}/a/a/a/a/a/a/a/", "trap", "path segment 'a' repeated 7 times > 3 (C3)", f"{A}/"
        ),
        ScopeExclusion(
            "http://other.test/", "scope", "host other.test is not in scope (C1)", f"{A}/"
        ),
    )


def test_t5_noindex_and_nofollow_pages(report):
    assert report.directive_pages == (
        DirectivePage(f"{A}/nofollow", 200, noindex=False, nofollow=True),
        DirectivePage(f"{A}/noindex", 200, noindex=True, nofollow=False),
    )


def test_o6_deferred_origins_and_urls_say_why_and_until_when(report):
    assert report.deferred_origins == (
        DeferredOrigin("http://b.test", DEFERRED_WHY, 4, None, 503, 1),
    )
    assert report.deferred_urls == (
        DeferredUrl("http://c.test/", "retry", RETRY_UNTIL, {}, 1, "HTTP 503"),
        DeferredUrl(
            "http://b.test/page", "robots-deferred", None, {"robots": DEFERRED_WHY}, 0, None
        ),
    )


def test_slow_pages_slowest_first_above_the_threshold(crawl, report):
    assert report.slow_pages == (SlowPage(f"{A}/slow", 3.5, 200, 1234),)
    slower = build_report(crawl, agent=AGENT, slow_seconds=0.06).slow_pages
    assert [(page.url, page.elapsed_seconds) for page in slower][:2] == [
        (f"{A}/slow", 3.5),
        (f"{A}/", 0.1),
    ]
    assert f"{A}/missing" not in [page.url for page in slower]


def test_robots_outcome_per_origin(report):
    expires = T0 + timedelta(days=7)
    assert report.robots_outcomes == (
        RobotsOutcomeRow(
            A, "parsed", 200, "200: parsed and obeyed (O3)", T0, expires, len(ROBOTS_A), 0, 16
        ),
        RobotsOutcomeRow("http://b.test", "deferred", 503, DEFERRED_WHY, T0, None, None, 0, 1),
        RobotsOutcomeRow(
            "http://c.test",
            "allow_all",
            404,
            "404: no robots.txt, no restrictions (O4)",
            T0,
            expires,
            None,
            0,
            1,
        ),
        RobotsOutcomeRow(
            "http://d.test",
            "disallow_all",
            403,
            "403: the whole origin is disallowed (O5)",
            T0,
            expires,
            None,
            0,
            1,
        ),
        RobotsOutcomeRow("http://other.test", None, None, "", None, None, None, 0, 1),
    )


def test_m6_urls_where_draft_and_rfc9309_disagree(report):
    assert report.disagreements == (
        Disagreement(
            f"{A}/doc.pdf",
            A,
            True,
            None,
            "no rule of the record at line 1 matches (M1)",
            False,
            4,
            "Disallow: /*.pdf",
        ),
        Disagreement(
            f"{A}/private/open/page",
            A,
            False,
            2,
            "Disallow: /private",
            True,
            3,
            "Allow: /private/open",
        ),
    )


def test_report_is_the_same_when_built_twice(crawl, report):
    assert build_report(crawl, agent=AGENT) == report


# --- renderers ---------------------------------------------------------------------------------


def test_text_has_headed_aligned_sections_and_escapes_control_characters(report):
    text = render_text(report)
    assert "URLs by state\n" in text
    assert "  all URLs                     20\n" in text
    assert "Broken links (2)\n" in text
    assert "Redirect chains (2)\n" in text
    lines = text.splitlines()
    header = lines.index("Broken links (2)") + 1
    assert lines[header].split() == ["URL", "STATUS", "PROBLEM", "LINKED", "FROM"]
    missing = lines[header + 2]
    assert missing.startswith(f"  {A}/missing ")
    assert missing.endswith(f"  {A}/")
    column = len(missing) - len(f"{A}/")
    assert lines[header + 3][column:] == f"{A}/about (nofollow)"  # the next referrer, aligned
    assert "\x1b" not in text
    assert "\\x1b[2J" in text
    assert "line 2: Disallow: /private" in text


def test_m7_the_disagreement_section_counts_what_strict_skipped(report):
    # One URL the draft alone would fetch (doc.pdf), one RFC 9309 alone would (private/open).
    text = render_text(report)
    note = (
        "strict semantics (the default) fetches only what both readings allow: it skips 1 of "
        "these URLs that the draft alone would fetch, and 1 that RFC 9309 alone would fetch"
    )
    assert f"Draft and RFC 9309 disagree (2)\n  {note}\n" in text
    assert f'<p class="note">{note}</p>' in render_html(report)


def test_text_names_the_empty_sections_in_one_line(tmp_path):
    database = open_database(str(tmp_path / "empty.db"))
    text = render_text(build_report(database, agent=AGENT))
    database.close()
    nothing = [line for line in text.splitlines() if "Nothing found" in line]
    assert nothing == ["  Nothing found: " + ", ".join(SECTION_TITLES.values())]
    assert "Broken links (" not in text  # no empty table
    assert "(0)" not in text


def test_csv_has_one_row_per_finding(report):
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert rows[0] == ["section", "url", "status", "reason", "detail", "related_url"]
    assert rows[1][:4] == [
        "summary",
        f"{A} http://b.test http://c.test http://d.test",
        "",
        ("2 broken links found: 2 broken pages."),
    ]
    assert rows[1][4].startswith("crawled no run recorded; 13 pages fetched; Pass 1 is incomplete")
    by_section: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        assert len(row) == 6
        by_section.setdefault(row[0], []).append(row[1:])
    assert by_section["broken_links"] == [
        [f"{A}/gone", "", HOSTILE_ERROR.replace("\x1b", "\\x1b"), "", f"{A}/about"],
        [f"{A}/missing", "404", "HTTP 404", "", f"{A}/"],
        [f"{A}/missing", "404", "HTTP 404", "nofollow link", f"{A}/about"],
    ]
    assert by_section["redirect_chains"][1] == [
        f"{A}/old",
        "301",
        "",
        f"{A}/old (301) -> {A}/older (302) -> {A}/new (200)",
        f"{A}/new",
    ]
    assert by_section["robots_excluded"][0] == [
        f"{A}/private/open/page",
        "200",
        "robots (draft)",
        "line 2: Disallow: /private",
        A,
    ]
    assert by_section["disagreements"][1] == [
        f"{A}/private/open/page",
        "",
        "draft: disallowed; rfc9309: allowed",
        "draft: line 2: Disallow: /private | rfc9309: line 3: Allow: /private/open",
        A,
    ]
    assert by_section["deferred_urls"][1] == [
        "http://b.test/page",
        "",
        "robots-deferred",
        f"until: next run; robots: {DEFERRED_WHY.removesuffix(' (O6)')}",  # no SPEC ids for people
        "",
    ]
    counts = {key: len(value) for key, value in by_section.items()}
    assert counts == {
        "summary": 1,  # first: the site, the verdict, when, the pass
        "broken_links": 3,
        "redirect_chains": 2,
        "robots_excluded": 3,
        "out_of_scope": 2,
        "directive_pages": 2,
        "deferred_origins": 1,
        "deferred_urls": 2,
        "slow_pages": 1,
        "robots_outcomes": 5,
        "disagreements": 2,
        "pass_incomplete": 1,  # L5: a deferred origin, a URL waiting for a retry, ...
    }


# What the store API records of a link without link checking: no text, line or kind (L1).
NO_LINK_DETAIL = {"text": None, "line": None, "resource": False, "redirect": False}


def test_json_is_stable_with_iso_times(report):
    text = render_json(report)
    data = json.loads(text)
    assert list(data) == ["summary", *sorted(set(data) - {"summary"})]  # what matters first
    assert data["summary"]["broken_count"] == 2
    assert data["summary"]["broken"][0] == {
        "url": f"{A}/gone",
        "problem": HOSTILE_ERROR,
        "linked_from": 1,
        "from_pass": None,
    }
    assert data["totals"]["done"] == 12
    assert data["counts"]["broken_links"] == 2
    assert data["broken_links"][1] == {
        "url": f"{A}/missing",
        "status": 404,
        "state": "done",
        "error": None,
        "referrers": [
            {"url": f"{A}/", "nofollow": False, **NO_LINK_DETAIL},
            {"url": f"{A}/about", "nofollow": True, **NO_LINK_DETAIL},
        ],
        "listed_in": [],
        "from_pass": None,  # found by this pass (an earlier one's findings carry its number)
    }
    assert data["deferred_urls"][0]["until"] == "2026-01-02T00:00:00+00:00"
    assert data["redirect_chains"][0]["loop"] is True
    assert data["disagreements"][0]["rfc9309_line"] == 4
    assert render_json(report) == text


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_html_is_self_contained_with_one_sortable_table_per_section(report):
    html = render_html(report)
    parser = _Tags()
    parser.feed(html)
    tags = parser.tags
    assert [tag for tag, _ in tags].count("table") == 10
    assert all(attrs.get("data-sortable") == "pending" for tag, attrs in tags if tag == "table")
    assert [tag for tag, _ in tags].count("script") == 1
    assert not [
        attrs for tag, attrs in tags if tag in ("link", "img", "iframe") or attrs.get("src")
    ]
    assert "@import" not in html
    assert "url(" not in html
    shown = f"{A}/<wbr>missing"  # a long URL may wrap at its slashes, never inside "://"
    assert f'<a href="{A}/missing" rel="noreferrer noopener">{shown}</a>' in html


def test_html_says_so_for_empty_sections(tmp_path):
    database = open_database(str(tmp_path / "empty.db"))
    html = render_html(build_report(database, agent=AGENT))
    database.close()
    assert html.count('<p class="empty">None found.</p>') == 10  # folded and muted
    assert html.count('<section id="broken_links" class="nothing">\n<details>\n<summary>') == 1
    assert "<details open" not in html
    assert "Nothing found in 10 sections" in html
    assert "<table" not in html
    assert '<p class="verdict good">Nothing broken found.</p>' in html


def test_html_escapes_hostile_urls_and_lines(report):
    hostile = "http://a.test/<script>alert(1)</script>"
    report = dataclasses.replace(
        report,
        broken_links=(
            BrokenLink(hostile, 404, "done", "<b>bad</b>", (Referrer("javascript:alert(2)"),)),
        ),
        robots_excluded=(
            RobotsExclusion(
                f"{A}/x", A, "draft", 1, 'Disallow: /"><img src=x onerror=alert(3)>', "", 200
            ),
        ),
    )
    html = render_html(report)
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bad</b>" not in html
    assert "<img" not in html
    assert 'href="javascript:' not in html
    parser = _Tags()
    parser.feed(html)
    tags = [tag for tag, _ in parser.tags]
    assert tags.count("script") == 1
    hrefs = [attrs["href"] for tag, attrs in parser.tags if tag == "a"]
    assert all(href.startswith(("http://", "https://", "#")) for href in hrefs)
    assert hostile in hrefs  # a link still, escaped in the attribute and unescaped by the parser


# --- why -----------------------------------------------------------------------------------------


def test_url_history_tells_the_story_of_one_url(crawl):
    history = url_history(crawl, "HTTP://A.test:80/private/open/page#frag")
    assert history is not None
    assert history.row.url == f"{A}/private/open/page"
    assert (history.row.state, history.row.reason, history.row.detail["line"]) == (
        "excluded",
        "robots",
        2,
    )
    assert history.row.discovered_from == f"{A}/"
    assert [ref.url for ref in history.referrers] == [f"{A}/"]
    assert history.origin is not None
    assert history.origin.body == ROBOTS_A
    text = render_history(history, agent=AGENT)
    assert text.startswith(f"{A}/private/open/page\n")
    assert "excluded (robots)" in text
    assert "text: Disallow: /private" in text
    assert "disallowed (draft): line 2 (Disallow) decides" in text
    assert "allowed (rfc9309): line 3 (Allow) decides: Allow: /private/open" in text
    assert re.search(r"strict now +not fetched: forbidden by draft\n", text)
    assert f"    {A}/\n" in text


def test_url_history_of_a_broken_link_lists_nofollow_referrers(crawl):
    history = url_history(crawl, f"{A}/missing")
    assert history is not None
    assert [(ref.url, ref.nofollow) for ref in history.referrers] == [
        (f"{A}/", False),
        (f"{A}/about", True),
    ]
    assert f"{A}/about (nofollow)" in render_history(history)


def test_o8_why_and_the_report_read_robots_txt_under_the_crawls_byte_limit(crawl):
    # The crawl read at most 40 bytes of a.test's robots.txt: the rest was never read, so what
    # no rule of those 40 bytes decides was not fetched, and the report must say the same.
    limits = RobotsLimits(max_bytes=40)
    history = url_history(crawl, f"{A}/about")
    assert history is not None
    assert re.search(r"strict now +fetched", render_history(history, agent=AGENT))
    text = render_history(history, agent=AGENT, robots_limits=limits)
    assert re.search(r"strict now +not fetched", text)
    assert "not read to its end (it is longer than 40 bytes)" in text
    # Cut at 40 bytes, "Allow: /private/open" is gone, so the readings no longer part there.
    whole = build_report(crawl, agent=AGENT)
    cut = build_report(crawl, agent=AGENT, robots_limits=limits)
    assert f"{A}/private/open/page" in {row.url for row in whole.disagreements}
    assert f"{A}/private/open/page" not in {row.url for row in cut.disagreements}


def test_o8_report_commands_take_the_byte_limit_the_crawl_ran_with(tmp_path):
    path = str(tmp_path / "c.db")
    database = open_database(path)
    try:
        assert _crawl_settings(path).robots_limits == RobotsLimits()  # before any run
        start_run(database, config={"agent": AGENT, "robots_max_bytes": 40}, now=T0)
    finally:
        database.close()
    settings = _crawl_settings(path)
    assert settings.agent == AGENT
    assert settings.robots_limits.max_bytes == 40


def test_url_history_unknown_and_invalid(crawl):
    assert url_history(crawl, "http://nowhere.test/") is None
    with pytest.raises(UserInputError, match="not http or https"):
        url_history(crawl, "ftp://a.test/")


def test_spec_ids_stay_out_of_what_people_read(report):
    """Reasons cite SPEC ids in the model (and JSON, for tools); text, CSV and HTML leave them
    out: "403: the whole origin is disallowed", not "... (O5)"."""
    spec_id = re.compile(r"\([A-Z]\d+(?:-[A-Z]?\d+)?\)")
    assert any(spec_id.search(row.reason) for row in report.robots_outcomes)  # the data keeps them
    for rendered in (render_text(report), render_csv(report), render_html(report)):
        assert not spec_id.search(rendered), spec_id.search(rendered)
