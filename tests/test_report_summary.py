"""What every form of the report says first and last, and how it keeps long lists short (issue 44).

Reports built by hand as values (no database): the summary (site, when, how long, pages, the
verdict, the pass, the counts problems first, the empty sections named together), a finding
naming three linking pages and "and N more" (all of them in CSV and JSON, the rest behind a
closed disclosure in HTML), long lists of deferred URLs and of robots.txt outcomes grouped, the
text's last lines naming the broken targets, JUnit's summary and its grouped skipped cases.
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.report import render_csv, render_json, render_junit, render_text
from politecrawl.report.check_model import LinkChecks, MissingFragment
from politecrawl.report.crawl_model import CrawlOverview
from politecrawl.report.grouping import group_urls, host_of
from politecrawl.report.headline import (
    closing_lines,
    crawled,
    duration,
    finding_counts,
    measure_groups,
    site,
    verdict,
)
from politecrawl.report.html import render_html
from politecrawl.report.model import (
    SECTION_TITLES,
    BrokenLink,
    DeferredUrl,
    PassProgress,
    Referrer,
    Report,
    RobotsOutcomeRow,
    UncheckedUrl,
)
from politecrawl.report.tables import MAX_FOLDED, Line, folded, referrer_lines

T0 = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)
A = "http://docs.test"
STATES = ("queued", "leased", "done", "failed", "excluded", "deferred", "out_of_scope")


def _report(**changes) -> Report:
    fields = dict.fromkeys(SECTION_TITLES, ())
    fields.update(
        agent="examplebot",
        database="crawl.db",
        slow_seconds=2.0,
        totals=dict.fromkeys(STATES, 0) | {"done": 530},
        checks=LinkChecks(pages_checked=530),
        overview=CrawlOverview((A,), 1, T0, T0 + timedelta(seconds=754), 754.0),
    )
    fields.update(changes)
    return Report(**fields)


def _pages(count: int, target: str = "moved") -> tuple[Referrer, ...]:
    return tuple(Referrer(f"{A}/page-{n:03}.html", line=12, text=target) for n in range(count))


BROKEN = tuple(
    BrokenLink(f"{A}/{name}.html", 404, "done", None, _pages(527, name))
    for name in ("moved", "old", "gone")
)


# --- the summary ---------------------------------------------------------------------------------


def test_the_summary_says_site_when_how_long_and_what_is_broken_first():
    report = _report(broken_links=BROKEN)
    assert site(report) == A
    assert crawled(report) == "2026-05-04 09:30:00 to 09:42:34 UTC (12 min 34 s, 1 run)"
    assert verdict(report) == "3 broken links found: 3 broken pages."
    lines = render_text(report).splitlines()
    assert lines[:5] == [
        f"politecrawl report: {A}",
        "Pass 1 is complete: nothing left to fetch.",  # the second line, as ever (L5)
        "3 broken links found: 3 broken pages.",
        "  crawled 2026-05-04 09:30:00 to 09:42:34 UTC (12 min 34 s, 1 run); 530 pages "
        "fetched, 530 URLs known",
        "  database crawl.db (agent examplebot)",
    ]


def test_the_summary_names_a_few_origins_and_says_when_no_run_was_recorded():
    several = CrawlOverview(("http://a.test", "http://b.test", "http://c.test"))
    assert site(_report(overview=several)) == "http://a.test and 2 more origins"
    assert site(_report(overview=CrawlOverview(("http://a.test", "http://b.test")))) == (
        "http://a.test and http://b.test"
    )
    assert site(_report(overview=CrawlOverview())) == "crawl.db"
    assert crawled(_report(overview=CrawlOverview())) == "no run recorded"
    running = CrawlOverview((A,), 2, T0, None, 30.0)
    assert crawled(_report(overview=running)) == (
        "2026-05-04 09:30:00 UTC, not ended (2 runs; under way, or killed)"
    )
    days = CrawlOverview((A,), 1, T0, T0 + timedelta(days=1, hours=2), 93600.0)
    assert crawled(_report(overview=days)) == (
        "2026-05-04 09:30:00 to 2026-05-05 11:30:00 UTC (26 h 0 min, 1 run)"
    )


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0.42, "0.42 s"), (3.25, "3.2 s"), (12.4, "12 s"), (754, "12 min 34 s"), (7440, "2 h 4 min")],
)
def test_durations_read_as_people_say_them(seconds, said):
    assert duration(seconds) == said


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0.42, "0s"), (12.4, "12s"), (754, "12m34s"), (725, "12m05s"), (7440, "2h04m")],
)
def test_compact_durations_for_the_progress_line(seconds, said):
    assert duration(seconds, compact=True) == said


def test_nothing_broken_is_said_and_so_far_while_the_pass_is_incomplete():
    assert verdict(_report()) == "Nothing broken found."
    assert verdict(_report(progress=PassProgress(queued=3))) == "Nothing broken found so far."


def test_problems_come_before_the_other_counts_and_the_measures_after():
    report = _report(
        broken_links=BROKEN[:1],
        robots_outcomes=(RobotsOutcomeRow(A, "parsed", 200, "ok", T0, None, 10, 0, 530),),
        deferred_urls=(DeferredUrl(f"{A}/x", "retry", None, {}, 1, None),),
    )
    found = [(count.label, count.tone) for count in finding_counts(report) if count.count]
    assert found == [
        ("Broken links", "bad"),
        ("Deferred URLs", "warn"),
        ("robots.txt per origin", "neutral"),
    ]
    assert [heading for heading, _ in measure_groups(report)] == ["URLs by state"]
    text = render_text(report)
    counts = text[text.index("\nFindings\n") : text.index("\nURLs by state\n")]
    assert counts.index("Broken links") < counts.index("Deferred URLs") < counts.index("robots")
    nothing = [line for line in counts.splitlines() if line.startswith("  Nothing found: ")]
    assert nothing == [
        "  Nothing found: Redirect chains, Excluded by robots.txt, Out of scope and traps, "
        "noindex and nofollow pages, Deferred origins, Slow pages, Draft and RFC 9309 disagree"
    ]
    assert "Slow pages (" not in text  # an empty section is named, not printed


def test_the_html_summary_leads_with_the_verdict_and_folds_the_zeros():
    html = render_html(_report(broken_links=BROKEN))
    assert f"<title>{A} · 2026-05-04 · politecrawl report</title>" in html
    assert f"<h1>{A}</h1>" in html
    assert "crawl.db" not in html[: html.index("<h1>")]  # the database is no title
    summary = html[html.index('<section id="summary">') :]
    assert summary.index('<p class="verdict bad">3 broken links found') < summary.index(
        '<span class="value bad">3</span><span class="label">Broken links</span>'
    )
    zeros = summary[summary.index('<details class="nothing">') :]
    assert zeros.startswith('<details class="nothing"><summary>Nothing found in 9 sections')
    assert '<span class="value zero">0</span><span class="label">Slow pages</span>' in zeros
    assert '<section id="slow_pages" class="nothing">\n<details>\n' in html
    assert '<h2>Broken links <span class="count nonzero bad">3</span></h2>' in html


def test_csv_and_json_say_the_summary_first():
    report = _report(broken_links=BROKEN)
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert rows[1][:4] == ["summary", A, "", "3 broken links found: 3 broken pages."]
    assert rows[1][4].startswith("crawled 2026-05-04 09:30:00 to 09:42:34 UTC")
    data = json.loads(render_json(report))
    assert next(iter(data)) == "summary"
    summary = data["summary"]
    assert summary["site"] == [A]
    assert (summary["started_at"], summary["run_seconds"]) == ("2026-05-04T09:30:00+00:00", 754.0)
    assert (summary["pages_fetched"], summary["broken_count"], summary["complete"]) == (
        530,
        3,
        True,
    )
    assert summary["broken"][0] == {
        "url": f"{A}/moved.html",
        "problem": "HTTP 404",
        "linked_from": 527,
        "from_pass": None,
    }
    assert summary["findings"] == [
        {"section": "broken_links", "label": "Broken links", "count": 3, "tone": "bad"}
    ]


# --- a finding names a few linking pages -------------------------------------------------------


def test_a_finding_names_three_linking_pages_and_counts_the_rest():
    cell = referrer_lines(_pages(527))
    assert [line.text for line in cell] == [
        f"{A}/page-000.html",
        f"{A}/page-001.html",
        f"{A}/page-002.html",
        "and 524 more",
    ]
    assert len(cell[-1].folded) == 524
    assert cell[0].note == 'line 12, "moved"'
    four = tuple(Line(str(n)) for n in range(4))
    assert folded(four, lambda line: line) == four  # never "and 1 more": the one more is shown


def test_a_fold_holds_a_thousand_lines_and_counts_the_rest():
    cell = referrer_lines(_pages(100_000))
    assert cell[-1].text == "and 99997 more"
    inside = cell[-1].folded
    assert len(inside) == MAX_FOLDED + 1
    assert inside[-1].text == "and 98997 more, in the CSV and JSON reports"


def test_text_cuts_the_referrers_csv_and_json_list_them_all():
    report = _report(broken_links=BROKEN)
    text = render_text(report)
    assert text.count("page-") == 3 * 3
    assert text.count("and 524 more (every one in the CSV and JSON reports)") == 3
    csv_rows = [row for row in csv.reader(io.StringIO(render_csv(report))) if row[0] != "summary"]
    assert sum(row[0] == "broken_links" for row in csv_rows) == 3 * 527
    data = json.loads(render_json(report))
    assert [len(item["referrers"]) for item in data["broken_links"]] == [527] * 3


def test_html_keeps_the_rest_behind_a_closed_disclosure():
    html = render_html(_report(broken_links=BROKEN[:1]))
    assert html.count('<details class="more"><summary>and 524 more</summary>') == 1
    assert html.count("/<wbr>page-") == 527
    assert "<details open" not in html


def test_junit_names_three_linking_pages_and_says_the_suite_s_summary():
    report = _report(broken_links=BROKEN[:1])
    suite = ET.fromstring(render_junit(report).encode()).find("testsuite")
    assert suite is not None
    failure = suite.find("testcase/failure")
    assert failure is not None
    assert failure.text is not None
    assert failure.text.splitlines() == [
        "linked from 527 pages:",
        f'  {A}/page-000.html (line 12, "moved")',
        f'  {A}/page-001.html (line 12, "moved")',
        f'  {A}/page-002.html (line 12, "moved")',
        "  and 524 more (every one in the CSV and JSON reports)",
    ]
    assert (suite.get("timestamp"), suite.get("time")) == ("2026-05-04T09:30:00", "754.000")
    properties = {item.get("name"): item.get("value") for item in suite.iter("property")}
    assert properties["site"] == A
    assert properties["verdict"] == "1 broken link found: 1 broken page."
    assert properties["pass"] == "Pass 1 is complete: nothing left to fetch."
    assert properties["pages_fetched"] == "530"


# --- long lists grouped --------------------------------------------------------------------------


def _deferred(count: int, host: str, reason: str, until: datetime | None) -> list[DeferredUrl]:
    return [DeferredUrl(f"http://{host}/{n:04}", reason, until, {}, 1, None) for n in range(count)]


DEFERRED = tuple(
    _deferred(3000, "cdn.test", "robots-deferred", None)
    + _deferred(600, "api.test", "retry", T0)
    + _deferred(62, "api.test", "retry-after", T0 + timedelta(hours=1))
)


def test_urls_group_by_host_and_reason_biggest_first():
    groups = group_urls(
        DEFERRED,
        url=lambda item: item.url,
        reason=lambda item: item.reason,
        until=lambda i: i.until,
    )
    assert [(group.host, group.reason, group.count) for group in groups] == [
        ("cdn.test", "robots-deferred", 3000),
        ("api.test", "retry", 600),
        ("api.test", "retry-after", 62),
    ]
    assert groups[0].examples == (
        "http://cdn.test/0000",
        "http://cdn.test/0001",
        "http://cdn.test/0002",
    )
    assert (groups[0].first_until, groups[1].first_until) == (None, T0)
    assert host_of("http://user@h.test:8080/x") == "h.test:8080"


def test_a_long_list_of_deferred_urls_shows_as_groups_in_text_and_html():
    report = _report(deferred_urls=DEFERRED)
    text = render_text(report)
    section = text[text.index("\nDeferred URLs (3662)\n") :].split("\n\n")[0]
    assert "3 groups by host and reason; every one is in the CSV and JSON reports" in section
    assert "cdn.test  robots-deferred  3000  next run" in section
    assert "and 2997 more" in section
    assert len(section.splitlines()) < 20
    html = render_html(report)
    assert '<h2>Deferred URLs <span class="count nonzero">3662</span></h2>' in html
    assert html.count('href="http://cdn.test/') == 3  # three examples
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert sum(row[0] == "deferred_urls" for row in rows) == 3662
    assert len(json.loads(render_json(report))["deferred_urls"]) == 3662


def test_a_short_list_of_deferred_urls_is_listed_url_by_url():
    report = _report(deferred_urls=DEFERRED[:20])
    text = render_text(report)
    assert "\nDeferred URLs (20)\n  URL " in text


def test_a_long_list_of_robots_outcomes_shows_as_groups_by_outcome():
    origins = tuple(
        RobotsOutcomeRow(
            f"http://h{n:03}.test",
            "parsed" if n % 4 else "deferred",
            200,
            "why",
            T0,
            None,
            10,
            0,
            3,
        )
        for n in range(328)
    )
    text = render_text(_report(robots_outcomes=origins))
    section = text[text.index("\nrobots.txt per origin (328)\n") :].split("\n\n")[0]
    assert "2 groups by outcome" in section
    assert "parsed    246" in section
    assert len(section.splitlines()) < 15


def test_junit_groups_a_long_list_of_pages_not_checked_yet():
    waiting = tuple(
        UncheckedUrl(f"http://{host}/{n}", f"http://{host}", "deferred", "robots-deferred")
        for host in ("a.test", "b.test")
        for n in range(30)
    )
    progress = PassProgress(deferred=60, unchecked=waiting, unchecked_total=60)
    suite = ET.fromstring(render_junit(_report(progress=progress)).encode()).find("testsuite")
    assert suite is not None
    skipped = [case for case in suite if case.find("skipped") is not None]
    assert [case.get("name") for case in skipped] == [
        "30 URLs of a.test not checked yet: deferred (robots-deferred)",
        "30 URLs of b.test not checked yet: deferred (robots-deferred)",
    ]
    assert (
        skipped[0]
        .find("skipped")
        .get("message")
        .endswith(  # type: ignore[union-attr]
            "such as http://a.test/0, http://a.test/1, http://a.test/10"
        )
    )
    assert suite.get("skipped") == "2"


# --- the last lines ------------------------------------------------------------------------------


def test_the_text_ends_naming_the_broken_targets():
    report = _report(
        broken_links=BROKEN,
        checks=LinkChecks(
            enabled=True,
            pages_checked=530,
            missing_fragments=(MissingFragment(f"{A}/api.html", A, "intro", _pages(2)),),
        ),
    )
    last = render_text(report).splitlines()[-5:]
    assert last == [
        "4 broken links found: 3 broken pages, 1 missing fragment.",
        f"  {A}/moved.html      HTTP 404; linked from 527 pages",
        f"  {A}/old.html        HTTP 404; linked from 527 pages",
        f"  {A}/gone.html       HTTP 404; linked from 527 pages",
        f"  {A}/api.html#intro  missing fragment; linked from 2 pages",
    ]


def test_the_last_lines_name_ten_targets_and_count_the_rest():
    many = tuple(BrokenLink(f"{A}/{n:02}", 404, "done", None, ()) for n in range(25))
    lines = closing_lines(_report(broken_links=many))
    assert len(lines) == 12
    assert lines[1] == f"  {A}/00  HTTP 404; linked from no page"
    assert lines[-1] == "  and 15 more (listed above)"
    assert render_text(_report(broken_links=many)).endswith("  and 15 more (listed above)\n")


def test_a_report_with_nothing_broken_has_no_closing_list():
    assert closing_lines(_report()) == []


def test_the_last_lines_show_control_characters_escaped():
    hostile = BrokenLink(f"{A}/\x1b[2J", None, "failed", "reset \x1b[31m", ())
    last = render_text(_report(broken_links=(hostile,))).splitlines()[-1]
    assert "\x1b" not in last
    assert last == f"  {A}/\\x1b[2J  reset \\x1b[31m; linked from no page"
