"""The HTML report in a real browser: headless Chromium shows it and runs its script.

What a person would see: a screenshot that is not blank, a DOM (after the script ran) whose
tables are all marked ``data-sortable="ready"``, the summary counts, and a broken link with the
page that links to it; a click on a column header that really sorts; and a hostile URL shown
as text, never as markup. Chromium is the Debian package ``chromium``; without it these tests
skip, except in CI (``CI=true``), where a missing browser is a failure. Each run is bounded by
a time-out and uses a throw-away profile.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tests.test_report import AGENT, build_crawl

from politecrawl.report import build_report
from politecrawl.report.compare import render_compare_html
from politecrawl.report.html import render_html
from politecrawl.report.model import BrokenLink, Referrer
from politecrawl.store import open_database
from politecrawl.store.reading import PassComparison, ReferrerRow

A = "http://a.test"
TIMEOUT_SECONDS = 60
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return found


def _run(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    command = [_chromium(), *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result


@pytest.fixture(scope="module")
def report_html(tmp_path_factory) -> str:
    database = open_database(str(tmp_path_factory.mktemp("browser") / "crawl.db"))
    try:
        build_crawl(database)
        return render_html(build_report(database, agent=AGENT))
    finally:
        database.close()


class _Dom(HTMLParser):
    """The dumped DOM: tables' attributes, each cell's text, and all text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, str | None]] = []
        self.section: str | None = None
        self.rows: dict[str, list[list[str]]] = {}
        self.cards: list[str] = []
        self._cell: list[str] | None = None
        self._card: list[str] | None = None
        self._card_tag = ""

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "section":
            self.section = found.get("id")
        elif tag == "table":
            self.tables.append(found)
        elif tag == "tr" and self.section is not None:
            self.rows.setdefault(self.section, []).append([])
        elif tag == "td":
            self._cell = []
        elif "card" in (found.get("class") or "").split():
            self._card, self._card_tag = [], tag

    def handle_endtag(self, tag):
        if tag in ("div", "span", "a") and self._cell is not None:
            self._cell.append(" ")  # lines and notes are words apart; <wbr> splits nothing
        if tag == "td" and self._cell is not None and self.section is not None:
            self.rows[self.section][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == self._card_tag and self._card is not None:
            self.cards.append(" ".join("".join(self._card).split()))
            self._card = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._card is not None:
            self._card.append(data + " ")


def _dom(text: str) -> _Dom:
    dom = _Dom()
    dom.feed(text)
    return dom


def test_screenshot_shows_a_page(tmp_path, report_html):
    page = tmp_path / "report.html"
    page.write_text(report_html, encoding="utf-8")
    shot = tmp_path / "report.png"
    _run(tmp_path, page, f"--screenshot={shot}", "--window-size=1280,2000")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 50_000  # a blank 1280x2000 page is about 12 kB; this report ~190 kB
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(shot) as image:
        assert image.size == (1280, 2000)
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 24) or ()) > 10


def test_the_script_runs_and_the_page_shows_counts_and_broken_links(tmp_path, report_html):
    page = tmp_path / "report.html"
    page.write_text(report_html, encoding="utf-8")
    dom = _dom(_run(tmp_path, page, "--dump-dom").stdout)
    assert len(dom.tables) == 10
    assert {table.get("data-sortable") for table in dom.tables} == {"ready"}
    assert "20 all URLs" in dom.cards
    assert "12 done" in dom.cards
    assert "2 Broken links" in dom.cards
    assert "2 Draft and RFC 9309 disagree" in dom.cards
    assert [
        "http://a.test/missing",
        "404",
        "HTTP 404",
        "http://a.test/ http://a.test/about nofollow",
    ] in dom.rows["broken_links"]


def _with_test_script(html: str, script: str) -> str:
    """The report plus one more script, admitted by the page's CSP through its hash."""
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    html = html.replace("script-src 'sha256-", f"script-src 'sha256-{digest}' 'sha256-", 1)
    return html.replace("</body>", f"<script>{script}</script>\n</body>", 1)


CLICK = """
(function () {
  function click(section, column, times) {
    var table = document.querySelector("#" + section + " table");
    var button = table.tHead.rows[0].cells[column].querySelector("button");
    for (var i = 0; i < times; i++) { button.click(); }
  }
  click("robots_excluded", 0, 2);
  click("broken_links", 1, 1);
})();
"""


def test_clicking_a_header_sorts_its_table(tmp_path, report_html):
    page = tmp_path / "report.html"
    page.write_text(_with_test_script(report_html, CLICK), encoding="utf-8")
    dom = _dom(_run(tmp_path, page, "--dump-dom").stdout)
    robots = [row[0] for row in dom.rows["robots_excluded"] if row]
    assert robots == ["http://d.test/x", f"{A}/private/x", f"{A}/private/open/page"]  # descending
    broken = [row[0] for row in dom.rows["broken_links"] if row]
    assert broken == [f"{A}/missing", f"{A}/gone"]  # by status, numerically; empty last


def test_a_hostile_url_shows_as_text_in_the_browser(tmp_path):
    hostile = "http://a.test/<script>alert(1)</script>"
    database = open_database(str(tmp_path / "hostile.db"))
    try:
        report = build_report(database, agent=AGENT)
    finally:
        database.close()
    report = dataclasses.replace(
        report,
        broken_links=(
            BrokenLink(hostile, 404, "done", "<img src=x onerror=alert(2)>", (Referrer(hostile),)),
        ),
    )
    page = tmp_path / "hostile.html"
    page.write_text(render_html(report), encoding="utf-8")
    dump = _run(tmp_path, page, "--dump-dom").stdout
    dom = _dom(dump)
    assert dom.rows["broken_links"][1][0] == hostile
    assert dump.count("<script") == 1
    assert "<img" not in dump


MEASURE = """
(function () {
  var root = document.documentElement;
  function bottom(selector) {
    var found = document.querySelector(selector);
    return found ? Math.round(found.getBoundingClientRect().bottom + window.scrollY) : -1;
  }
  root.setAttribute("data-page-overflow", String(root.scrollWidth - root.clientWidth));
  root.setAttribute("data-verdict-bottom", String(bottom("#summary .verdict")));
  root.setAttribute("data-findings-bottom", String(bottom("#summary .summary")));
  root.setAttribute("data-summary-bottom", String(bottom("#summary")));
  var worst = 0;
  var pictures = document.querySelectorAll("svg[width='100%']");
  Array.prototype.forEach.call(pictures, function (svg) {
    var box = svg.getBoundingClientRect();
    var frame = svg.parentNode.getBoundingClientRect();
    worst = Math.max(worst, box.right - frame.right, frame.left - box.left);
  });
  root.setAttribute("data-svg-overflow", String(Math.round(worst)));
  root.setAttribute("data-svg-count", String(pictures.length));
  var tallest = 0;
  Array.prototype.forEach.call(document.querySelectorAll("tbody tr"), function (row) {
    tallest = Math.max(tallest, row.getBoundingClientRect().height);
  });
  root.setAttribute("data-tallest-row", String(Math.round(tallest)));
})();
"""


class _Layout(HTMLParser):
    """What the report's script and ``MEASURE`` measured in the browser: each table frame's
    overflow and scroll cue, the page's own overflow, where the verdict and the findings'
    cards end, how far the pictures reach past their frame, and the tallest table row."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, str | None]] = []
        self.measured: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "html":
            self.measured = {
                name.removeprefix("data-"): int(value or 0)
                for name, value in found.items()
                if name.startswith("data-")
            }
        if "wrap" in (found.get("class") or "").split():
            self.frames.append(found)


def _layout(tmp_path: Path, html: str, width: int, height: int) -> _Layout:
    page = tmp_path / f"measured-{width}.html"
    page.write_text(_with_test_script(html, MEASURE), encoding="utf-8")
    dump = _run(tmp_path, page, "--dump-dom", f"--window-size={width},{height}").stdout
    layout = _Layout()
    layout.feed(dump)
    return layout


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_report_reads_on_a_phone_and_a_desktop(tmp_path, report_html, width, height):
    """At a phone's width and a desktop's: the summary (the verdict and the findings' cards)
    is on the first screen, nothing is clipped without a cue (the page never scrolls sideways,
    every table fits or carries the scroll cue, the pictures fit their frame)."""
    layout = _layout(tmp_path, report_html, width, height)
    assert len(layout.frames) == 10  # every non-empty table was measured
    for frame in layout.frames:
        overflow = int(frame["data-overflow"] or 0)
        assert (overflow <= 1) == (frame["data-scrolls"] == "false"), frame
    scrolling = sum(frame["data-scrolls"] == "true" for frame in layout.frames)
    assert scrolling == 0, layout.frames  # a desktop shows every column, a phone a card a row
    measured = layout.measured
    assert measured["page-overflow"] <= 0, measured
    assert 0 < measured["verdict-bottom"] < measured["findings-bottom"] <= height, measured
    assert measured["svg-count"] >= 5, measured  # a strip per host (4), the axis
    assert measured["svg-overflow"] <= 1, measured
    shot = tmp_path / f"report-{width}.png"
    _run(
        tmp_path,
        page_of(tmp_path, report_html),
        f"--screenshot={shot}",
        f"--window-size={width},{height}",
    )
    assert shot.stat().st_size > 10_000


def page_of(tmp_path: Path, html: str) -> Path:
    page = tmp_path / "report.html"
    page.write_text(html, encoding="utf-8")
    return page


@pytest.mark.parametrize("width", [390, 1280])
def test_a_link_on_every_page_makes_no_tall_blank_row(tmp_path, report_html, width):
    """Issue 44: a broken link that 500 pages link to made, on a phone, a 2,000-pixel row whose
    visible cells were blank (its referrers, in a column off screen). A finding names three
    and folds the rest; on a phone each row is a card."""
    database = open_database(str(tmp_path / "many.db"))
    try:
        report = build_report(database, agent=AGENT)
    finally:
        database.close()
    pages = tuple(Referrer(f"{A}/docs/page-{n}.html", line=12, text="Old") for n in range(500))
    report = dataclasses.replace(
        report, broken_links=(BrokenLink(f"{A}/moved.html", 404, "done", None, pages),)
    )
    html = render_html(report)
    assert html.count(f"{A}/<wbr>docs/<wbr>page-") == 500  # all there, behind the disclosure
    layout = _layout(tmp_path, html, width, 844)
    assert 0 < layout.measured["tallest-row"] < 300, layout.measured
    assert layout.measured["page-overflow"] <= 0, layout.measured


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_change_report_reads_on_a_phone_and_a_desktop(tmp_path, width, height):
    """The compare page: its counts and their bar chart on the first screen, side by side on a
    desktop, the chart within its frame, nothing wider than the screen."""
    linking = [ReferrerRow(f"{A}/docs/page-{n}.html", False, "Old", 12) for n in range(40)]
    comparison = PassComparison(
        before=1,
        after=2,
        new=[f"{A}/new-{n}" for n in range(12)],
        changed=[f"{A}/changed"],
        unchanged=[f"{A}/same-{n}" for n in range(400)],
        gone=[f"{A}/gone"],
        newly_broken=[f"{A}/gone"],
        fixed=[f"{A}/fixed"],
        outcomes={f"{A}/gone": ("200", "404")},
        linked_from={f"{A}/gone": linking},
    )
    html = render_compare_html(comparison)
    layout = _layout(tmp_path, html, width, height)
    measured = layout.measured
    assert measured["page-overflow"] <= 0, measured
    assert measured["svg-count"] == 1, measured
    assert measured["svg-overflow"] <= 1, measured
    assert 0 < measured["summary-bottom"] <= height, measured
    assert measured["tallest-row"] < 300, measured
    shot = tmp_path / f"compare-{width}.png"
    _run(
        tmp_path, page_of(tmp_path, html), f"--screenshot={shot}", f"--window-size={width},{height}"
    )
    assert shot.stat().st_size > 10_000
