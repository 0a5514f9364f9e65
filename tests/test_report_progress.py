"""How far a pass got, in the report [L5, L1-L4]: a report never looks clean when it is not.

``PassProgress`` (complete: nothing queued, in flight or deferred, no ``max_pages_per_host``
limit hit, every seed's robots.txt known and letting it in) is unit-tested on its own. Then a
crawl recorded through the store's API (a broken page, a broken outbound link, a missing
fragment) is set into a second pass, as a recrawl starts one: every URL queued again, so its
rows hold no verdict of their own. The report of that unfinished pass must keep what pass 1
found, marked as pass 1's, say the pass is incomplete, and fail JUnit; once the pass fetches
the broken page again and finds it fixed, that finding is gone. On SQLite and PostgreSQL.
Also here: bidirectional controls in a link's text are shown escaped (issue 38, item 5).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest
from tests.store.conftest import BACK_ENDS, built_database
from tests.test_report import AGENT, Recorder, build_crawl

from politecrawl.report import (
    broken_count,
    build_report,
    render_csv,
    render_json,
    render_junit,
    render_text,
)
from politecrawl.report.html import render_html
from politecrawl.report.model import BrokenLink, PassProgress, Referrer, UncheckedUrl
from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import LinkOut, RobotsOutcomeStore, ends, open_database

T0 = datetime(2026, 1, 1, tzinfo=UTC)
A = "http://a.test"
E = "http://ext.test"
HTML = "text/html"


# --- the model -----------------------------------------------------------------------------------


def test_l5_a_pass_is_complete_when_nothing_waits_and_nothing_was_left_out():
    assert PassProgress().complete
    assert PassProgress(number=3).incomplete_because == ()
    waiting = PassProgress(number=2, queued=613, leased=1, deferred=3)
    assert not waiting.complete
    assert waiting.incomplete_because == ("613 URLs queued", "1 URL in flight", "3 URLs deferred")
    for left_out, said in (
        (PassProgress(limited=2), "2 pages over max_pages_per_host"),
        (PassProgress(seeds_refused=1), "1 seed robots.txt forbids"),
        (PassProgress(robots_unknown=(A,)), f"robots.txt of {A} not known"),
    ):
        assert left_out.incomplete_because == (said,)


@pytest.fixture(scope="module", params=BACK_ENDS)
def waiting(request, tmp_path_factory):
    """test_report's crawl: a seed robots.txt forbids, an origin deferred, a retry waiting."""
    yield from built_database(request.param, tmp_path_factory, build_crawl, "waiting")


def test_l5_the_report_counts_what_keeps_the_pass_incomplete(waiting):
    progress = build_report(waiting, agent=AGENT).progress
    assert (progress.number, progress.queued, progress.leased, progress.deferred) == (1, 0, 0, 2)
    assert progress.seeds_refused == 1  # http://d.test/x: robots.txt answered 403 (O5)
    assert progress.robots_unknown == ("http://b.test",)  # deferred (O6)
    assert progress.incomplete_because == (
        "2 URLs deferred",
        "1 seed robots.txt forbids",
        "robots.txt of http://b.test not known",
    )
    assert [(item.url, item.state, item.reason) for item in progress.unchecked] == [
        ("http://b.test/page", "deferred", "robots-deferred"),
        ("http://c.test/", "deferred", "retry"),
    ]
    assert progress.unchecked_total == 2
    assert progress.last_outcome is None  # no run recorded: the store's API built it


# --- a recrawl pass, unfinished ------------------------------------------------------------------


def _pass_one(database) -> Recorder:
    """Pass 1, complete: / links to a page that is there, a page that answers 404, an outbound
    link that answers 404, and a #fragment the page lacks."""
    crawl = Recorder(database)
    crawl.frontier.add([f"{A}/"], now=T0)
    allow = RobotsOutcome("allow_all", 404, None, "404", T0 + timedelta(days=7), None, 0)
    for origin in (A, E):
        RobotsOutcomeStore(database).put(origin, allow, now=T0)
    links = [
        LinkOut(f"{A}/ok", text="OK", line=3, fragments=("absent",)),
        LinkOut(f"{A}/missing", text="Missing", line=4),
        LinkOut(f"{E}/gone", text="Gone", line=5),
    ]
    crawl.page("", ends.PageOutcome(200, content_type=HTML, anchors=frozenset()), links=links)
    crawl.page("ok", ends.PageOutcome(200, content_type=HTML, anchors=frozenset({"there"})))
    crawl.page("missing", ends.PageOutcome(404, content_type=HTML))
    lease, now = crawl.take(f"{E}/gone")
    outcome = ends.PageOutcome(404, kind="check", check_method="HEAD")
    assert crawl.frontier.record(ends.Completed(lease, outcome, now), now=now).recorded
    return crawl


def build_unfinished(database) -> None:
    """Pass 1, then pass 2 begun: every URL queued again, nothing fetched yet."""
    crawl = _pass_one(database)
    crawl.frontier.start_pass(now=T0 + timedelta(days=1))


def build_partly_redone(database) -> None:
    """Pass 2 has fetched / again, and /missing, which is fixed now; the rest still waits."""
    crawl = _pass_one(database)
    crawl.frontier.start_pass(now=T0 + timedelta(days=1))
    crawl.seconds = 86400
    links = [
        LinkOut(f"{A}/ok", fragments=("absent",)),
        LinkOut(f"{A}/missing"),
        LinkOut(f"{E}/gone"),
    ]
    crawl.page("", ends.PageOutcome(200, content_type=HTML, anchors=frozenset()), links=links)
    crawl.page("missing", ends.PageOutcome(200, content_type=HTML))


@pytest.fixture(scope="module", params=BACK_ENDS)
def unfinished(request, tmp_path_factory):
    yield from built_database(request.param, tmp_path_factory, build_unfinished, "unfinished")


@pytest.fixture(scope="module", params=BACK_ENDS)
def partly_redone(request, tmp_path_factory):
    yield from built_database(request.param, tmp_path_factory, build_partly_redone, "redone")


def test_l5_an_unfinished_recrawl_keeps_what_the_last_pass_found_marked_as_its(unfinished):
    report = build_report(unfinished, agent=AGENT)
    progress = report.progress
    assert (progress.number, progress.queued, progress.complete) == (2, 4, False)
    assert progress.unchecked_total == 4
    assert [item.url for item in progress.unchecked] == [
        f"{A}/",
        f"{A}/missing",
        f"{A}/ok",
        f"{E}/gone",
    ]
    assert report.broken_links == (
        BrokenLink(
            f"{A}/missing", 404, "done", None, (Referrer(f"{A}/", text="Missing", line=4),), (), 1
        ),
    )
    assert [(item.url, item.status, item.from_pass) for item in report.checks.broken] == [
        (f"{E}/gone", 404, 1)
    ]
    assert [(item.link, item.from_pass) for item in report.checks.missing_fragments] == [
        (f"{A}/ok#absent", 1)
    ]
    assert broken_count(report) == 3
    assert report.carried_count == 3


def test_l5_every_rendering_says_the_pass_is_unfinished_and_marks_the_earlier_findings(
    unfinished,
):
    report = build_report(unfinished, agent=AGENT)
    text = render_text(report)
    assert text.splitlines()[1] == (
        "Pass 2 is incomplete: 4 URLs queued. 3 findings of earlier passes, on URLs this pass "
        "has not re-checked yet, stand (marked with their pass)."
    )
    assert "HTTP 404 (found by pass 1, not re-checked yet)" in text
    assert "#absent (found by pass 1, not re-checked yet)" in text
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    verdict = (
        "3 broken links found: 1 broken page, 1 broken outbound link or resource, 1 missing "
        "fragment (3 of them found by an earlier pass)."
    )
    assert rows[1][:4] == ["summary", A, "", verdict]
    assert "Pass 2 is incomplete: 4 URLs queued." in rows[1][4]
    assert rows[2] == ["pass_incomplete", "", "", "pass 2 incomplete", "4 URLs queued", ""]
    broken = [row for row in rows if row[0] == "broken_links"]
    assert broken == [
        [
            "broken_links",
            f"{A}/missing",
            "404",
            "HTTP 404",
            "found by pass 1, not re-checked yet; line 4; text: Missing",
            f"{A}/",
        ]
    ]
    data = json.loads(render_json(report))
    assert data["progress"]["complete"] is False
    assert data["progress"]["incomplete_because"] == ["4 URLs queued"]
    assert data["broken_links"][0]["from_pass"] == 1
    assert "Pass 2 is incomplete: 4 URLs queued" in render_html(report)
    suite = ET.fromstring(render_junit(report).encode()).find("testsuite")
    assert suite is not None
    counts = [suite.get(name) for name in ("tests", "failures", "errors", "skipped")]
    # 3 failures; the pass's error; the URLs not re-checked yet but for those failing as pass
    # 1 found them (/missing, ext.test/gone), skipped; the links summary.
    assert counts == ["7", "3", "1", "2"]
    skipped = [case.get("name") for case in suite if case.find("skipped") is not None]
    assert skipped == [f"{A}/", f"{A}/ok"]
    messages = [
        case.find("failure").get("message") for case in suite if case.find("failure") is not None
    ]
    assert messages[0] == "broken link: HTTP 404 (found by pass 1, not re-checked yet)"


def test_l5_a_finding_the_unfinished_pass_has_re_checked_is_its_own(partly_redone):
    report = build_report(partly_redone, agent=AGENT)
    assert not report.progress.complete
    assert report.broken_links == ()  # /missing answers 200 in pass 2: fixed, not carried
    assert [(item.url, item.from_pass) for item in report.checks.broken] == [(f"{E}/gone", 1)]
    # / was fetched again and still links to /ok#absent; /ok waits: judged as pass 1 saw it.
    assert [(item.link, item.from_pass) for item in report.checks.missing_fragments] == [
        (f"{A}/ok#absent", 1)
    ]


def test_l5_a_page_over_max_pages_per_host_makes_the_pass_incomplete(tmp_path):
    database = open_database(str(tmp_path / "limited.db"))
    try:
        crawl = Recorder(database)
        crawl.frontier.add([f"{A}/", f"{A}/more"], now=T0)
        allow = RobotsOutcome("allow_all", 404, None, "404", T0 + timedelta(days=7), None, 0)
        RobotsOutcomeStore(database).put(A, allow, now=T0)
        crawl.page("")
        rule = {"rule": "more than 1 pages on this host"}  # what the visit records (C1)
        crawl.exclude(f"{A}/more", "out_of_scope", "scope", rule)
        report = build_report(database, agent=AGENT)
    finally:
        database.close()
    assert report.progress.limited == 1
    assert report.progress.incomplete_because == ("1 page over max_pages_per_host",)


# --- bidirectional controls (issue 38, item 5) ---------------------------------------------------

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_bidi_controls_in_a_link_text_are_shown_escaped_in_every_report(tmp_path):
    database = open_database(str(tmp_path / "bidi.db"))
    try:
        report = build_report(database, agent=AGENT)
    finally:
        database.close()
    text = "click \u202eexe.txt\u202c or \u2066here\u2069"
    report = dataclasses.replace(
        report,
        broken_links=(
            BrokenLink(f"{A}/x", 404, "done", f"reset {BIDI}", (Referrer(f"{A}/", text=text),)),
        ),
        progress=PassProgress(
            deferred=1, unchecked=(UncheckedUrl(f"{A}/y", A, "deferred", BIDI),), unchecked_total=1
        ),
    )
    rendered = {
        "text": render_text(report),
        "csv": render_csv(report),
        "html": render_html(report),
        "junit": render_junit(report),
    }
    for name, shown in rendered.items():
        assert not set(BIDI) & set(shown), name
        assert "\\u202eexe.txt\\u202c or \\u2066here\\u2069" in shown, name
        assert "\\u061c" in shown, name
