"""The HTML reports' pictures (issue 44): the crawl's requests per host over time, and the change
report's counts as bars, both inline SVG with no script and no external asset.

Each picture is parsed as XML (lxml): it must be well formed, hold no ``<script>``, no link or
reference to anything outside the page (``href``, ``url(...)``), no ``style`` attribute (the
page's Content-Security-Policy would refuse it) and no event handler; the crawl's data (a host
name) shows as text. What is drawn is read back from the shapes: a mark per request (merged
within one of ``COLUMNS`` slices, so a row holds a bounded number), failures red and full
height, robots.txt fetches as dots, slices of time as bars as high as their share.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from lxml import etree

from politecrawl.report.compare import (
    render_compare_csv,
    render_compare_html,
    render_compare_json,
    render_compare_text,
)
from politecrawl.report.crawl_model import HostTimeline, Timeline, TimelineMark
from politecrawl.report.pictures import COLUMNS, bars_svg, timeline_html
from politecrawl.store.reading import PassComparison, ReferrerRow

T0 = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)
SVG = "{http://www.w3.org/2000/svg}"


def _mark(seconds: float, *, failed: bool = False, took: float = 0.2) -> TimelineMark:
    return TimelineMark(T0 + timedelta(seconds=seconds), took, 1, int(failed))


def _host(
    name: str, marks: tuple[TimelineMark, ...], robots: tuple[float, ...] = ()
) -> HostTimeline:
    return HostTimeline(
        name,
        sum(mark.requests for mark in marks),
        sum(mark.failures for mark in marks),
        1.0,
        tuple(T0 + timedelta(seconds=at) for at in robots),
        marks,
    )


def _timeline(*hosts: HostTimeline, end: float = 100.0, **fields) -> Timeline:
    return Timeline(T0, T0 + timedelta(seconds=end), None, hosts, **fields)


def _tree(markup: str) -> etree._Element:
    """The figure (or a lone SVG) as XML: it must be well formed."""
    return etree.fromstring(f"<root>{markup}</root>".encode())


def _assert_self_contained(root: etree._Element) -> None:
    for element in root.iter():
        assert etree.QName(element).localname != "script", element
        for name, value in element.attrib.items():
            local = etree.QName(name).localname
            assert local not in ("href", "src", "style"), (element, name)
            assert not local.startswith("on"), (element, name)
            assert "url(" not in value, (element, name, value)


def _shapes(root: etree._Element, kind: str) -> list[etree._Element]:
    """The shapes of class ``kind`` in the rows (the legend's keys left out)."""
    return [
        element
        for strip in root.iter(f"{SVG}svg")
        if strip.get("class") == "strip"
        for element in strip.iter(f"{SVG}rect", f"{SVG}circle")
        if kind in (element.get("class") or "").split()
    ]


def test_the_timeline_is_inline_svg_with_no_script_and_nothing_outside():
    hosts = (
        _host("docs.test", (_mark(1), _mark(30, failed=True), _mark(60)), robots=(0.5,)),
        _host('<script>alert("x")</script>.test', (_mark(10),)),
    )
    root = _tree(timeline_html(_timeline(*hosts)))
    strips = [svg for svg in root.iter(f"{SVG}svg") if svg.get("class") == "strip"]
    assert len(strips) == 2
    assert {svg.get("width") for svg in strips} == {"100%"}  # it fits its container
    _assert_self_contained(root)
    assert '<script>alert("x")</script>.test' in "".join(root.itertext())  # as text
    assert strips[0].get("aria-label") == (
        "docs.test: 3 requests, 1 failure, 1 robots.txt fetch, delay 1 s"
    )


def test_each_request_is_a_mark_failures_red_and_full_height_robots_txt_a_dot():
    host = _host("docs.test", (_mark(0), _mark(50, failed=True), _mark(99.8)), robots=(25,))
    root = _tree(timeline_html(_timeline(host)))
    strip = next(svg for svg in root.iter(f"{SVG}svg") if svg.get("class") == "strip")
    ok = _shapes(strip, "ok")
    assert [(rect.get("x"), rect.get("width")) for rect in ok] == [
        ("0%", "0.3%"),
        ("99.8%", "0.2%"),
    ]
    (fail,) = _shapes(strip, "fail")
    assert (fail.get("x"), fail.get("y"), fail.get("height")) == ("50%", "0", "24")
    assert {rect.get("y") for rect in ok} == {"8"}  # shorter than a failure
    (dot,) = _shapes(strip, "robots")
    assert dot.get("cx") == "25%"


def test_a_row_holds_a_bounded_number_of_marks_however_many_requests():
    marks = tuple(_mark(n * 0.01, failed=n % 7 == 0, took=0.001) for n in range(10_000))
    root = _tree(timeline_html(_timeline(_host("busy.test", marks))))
    assert len(_shapes(root, "ok")) + len(_shapes(root, "fail")) <= COLUMNS


def test_slices_of_time_are_bars_as_high_as_their_share_with_failures_over_them():
    marks = (
        TimelineMark(T0, 25.0, 40, 0),
        TimelineMark(T0 + timedelta(seconds=25), 25.0, 10, 5),
    )
    timeline = Timeline(T0, T0 + timedelta(seconds=100), 25.0, (_host("b.test", marks),))
    root = _tree(timeline_html(timeline))
    ok = _shapes(root, "ok")
    bars = [rect for rect in ok if rect.get("x") in ("0%", "25%")]
    assert [(rect.get("x"), rect.get("width"), rect.get("height")) for rect in bars] == [
        ("0%", "25%", "24"),
        ("25%", "25%", "6"),
    ]
    (fail,) = _shapes(root, "fail")
    assert (fail.get("x"), fail.get("height")) == ("25%", "4")  # at least visible
    assert "requests per 25 s" in "".join(root.itertext())


def test_the_other_hosts_are_counted_and_the_axis_says_when():
    timeline = _timeline(_host("a.test", (_mark(1),)), other_hosts=3, other_requests=40)
    root = _tree(timeline_html(timeline))
    text = " ".join(root.itertext())
    assert "and 3 more hosts (40 requests)" in text
    assert "09:30:00" in text  # the start, and the end
    assert "09:31:40" in text
    assert "+30 s" in text


def test_nothing_fetched_draws_nothing():
    assert timeline_html(Timeline()) == ""
    assert bars_svg([("New pages", 0, "new")], label="changes") == ""


def test_the_bars_are_inline_svg_each_as_long_as_its_count():
    svg = bars_svg(
        [("Newly broken", 3, "bad"), ("Unchanged", 12, "neutral"), ("New pages", 0, "new")],
        label="URLs per kind of change",
    )
    root = _tree(svg)
    _assert_self_contained(root)
    bars = list(root.iter(f"{SVG}rect"))
    assert [(rect.get("class"), rect.get("width")) for rect in bars] == [
        ("bar bad", "25%"),
        ("bar neutral", "100%"),
        ("bar new", "0"),
    ]
    assert "Newly broken · 3" in "".join(root.itertext())


# --- the change report -------------------------------------------------------------------------


@pytest.fixture
def comparison() -> PassComparison:
    linking = [ReferrerRow(f"http://a.test/p{n}", False, "Old", n) for n in range(1, 8)]
    return PassComparison(
        before=1,
        after=2,
        new=["http://a.test/new"],
        changed=["http://a.test/c"],
        unchanged=[f"http://a.test/u{n}" for n in range(5)],
        newly_broken=["http://a.test/gone"],
        fixed=["http://a.test/ok"],
        outcomes={"http://a.test/gone": ("200", "404")},
        linked_from={"http://a.test/gone": linking},
    )


def test_the_change_report_colours_problems_red_and_the_unchanged_plain(comparison):
    html = render_compare_html(comparison)
    assert '<h2>Unchanged pages <span class="count">5</span></h2>' in html
    assert '<h2>Newly broken <span class="count nonzero bad">1</span></h2>' in html
    assert '<h2>New pages <span class="count new">1</span></h2>' in html
    assert '<h2>Changed pages <span class="count changed">1</span></h2>' in html
    assert '<h2>Fixed <span class="count good">1</span></h2>' in html
    chart = html[
        html.index('<svg class="bars"') : html.index("</svg>", html.index('<svg class="bars"'))
    ]
    root = _tree(chart + "</svg>")
    _assert_self_contained(root)
    classes = [rect.get("class") for rect in root.iter(f"{SVG}rect")]
    assert classes[:6] == [
        "bar new",
        "bar changed",
        "bar neutral",
        "bar bad",
        "bar bad",
        "bar good",
    ]
    assert html.index('<div class="changes"><table class="counts"') < html.index(
        '<svg class="bars"'
    )


def test_the_change_report_names_three_linking_pages_in_text_and_html_all_in_csv_and_json(
    comparison,
):
    cut = 'linked from http://a.test/p1 (line 1, "Old"), http://a.test/p2'
    assert cut in render_compare_text(comparison)
    assert "and 4 more" in render_compare_text(comparison)
    assert "and 4 more" in render_compare_html(comparison)
    assert "http://a.test/p7" in render_compare_csv(comparison)
    assert "and 4 more" not in render_compare_csv(comparison)
    assert "http://a.test/p7" in render_compare_json(comparison)
