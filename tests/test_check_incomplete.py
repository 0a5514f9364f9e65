"""``politecrawl check`` never looks clean when it is not (issue 38) [L5, L1-L4, S1].

Each test serves a small web on loopback (tests/site), runs the command line in a subprocess
and reads what it printed, its exit status and the files it wrote: a check a limit stopped is
incomplete (exit 1, an error and skipped cases in JUnit); a report of an unfinished recrawl
pass keeps what the last pass found, marked so; Ctrl-C still writes the JUnit file, marked
incomplete; the closing lines agree with each other and with the report; ``check --help``
says where the crawl is kept; ``report --compare`` calls a deleted page that pages still link
to newly broken, with the linking page.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from tests.site import Page, Site, serve
from tests.site.model import OriginSpec

DELAY = "0.02"
ENV = {"POLITECRAWL_MAX_RETRIES": "0", "PATH": "/usr/bin:/bin"}
HOME_LINKS = (
    '<a href="/a.html">A page</a>',
    '<a href="/a.html#nowhere">A section that is not there</a>',
    '<a href="/missing.html">A page that is not there</a>',
    '<a href="/gone.html">A page deleted later</a>',
    '<a href="@@elsewhere@@/ok.html">Another site</a>',
)


def _home(*links: str) -> Page:
    return Page(("<html><body>\n" + "\n".join(links) + "\n</body></html>\n").encode())


def _filler(count: int) -> dict[str, Page]:
    pages = {f"/p/{n}.html": Page(f"<p id='s{n}'>page {n}</p>".encode()) for n in range(count)}
    pages["/"] = _home(*(f'<a href="/p/{n}.html">{n}</a>' for n in range(count)))
    return pages


def _sitemap() -> Page:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>@@mapped@@/</loc></url>\n"
        "</urlset>\n"
    )
    return Page(body.encode(), content_type="application/xml")


def small_web() -> Site:
    """``site``: a broken page, a missing fragment, a page to delete, an outbound link, no
    robots.txt and no sitemap (both 404); ``mapped``: one clean page and its sitemap;
    ``many``: a home page linking to 40 pages (a check long enough to interrupt)."""
    return Site(
        0,
        (
            OriginSpec(
                "site",
                "127.0.0.91",
                {
                    "/": _home(*HOME_LINKS),
                    "/a.html": Page(b'<p id="here">a</p>'),
                    "/gone.html": Page(b"<p>here for now</p>"),
                },
            ),
            OriginSpec("elsewhere", "127.0.0.92", {"/ok.html": Page(b"ok")}, seeded=False),
            OriginSpec(
                "mapped",
                "127.0.0.93",
                {"/": _home("<p>nothing to link</p>"), "/sitemap.xml": _sitemap()},
            ),
            OriginSpec("many", "127.0.0.94", _filler(40)),
        ),
        0.0,
    )


def politecrawl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=ENV,
    )


def check(site: str, database: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return politecrawl("check", site, "--db", str(database), "--delay", DELAY, "--quiet", *extra)


def _suite(xml: str) -> ET.Element:
    suite = ET.fromstring(xml.encode("utf-8")).find("testsuite")
    assert suite is not None
    return suite


def _named(suite: ET.Element, tag: str) -> list[str]:
    return [str(case.get("name")) for case in suite if case.find(tag) is not None]


def test_l5_a_check_a_limit_stopped_is_incomplete_exits_1_and_its_junit_says_so(tmp_path):
    junit = tmp_path / "links.xml"
    with serve(small_web()) as web:
        base = web.url("site").rstrip("/")
        result = check(
            f"{base}/",
            tmp_path / "c.db",
            "--max-pages",
            "1",
            "--format",
            "junit",
            "--out",
            str(junit),
        )
    assert result.returncode == 1, result.stderr
    assert "nothing broken found, but the check is incomplete (" in result.stderr
    assert re.search(r"incomplete \(\d+ URLs queued\)", result.stderr), result.stderr
    suite = _suite(junit.read_text(encoding="utf-8"))
    (error,) = [case.find("error") for case in suite if case.find("error") is not None]
    assert error.get("type") == "incomplete"
    assert str(error.get("message")).startswith("pass 1 incomplete: ")
    assert "the last run ended: max_pages" in str(error.text).lower()
    skipped = _named(suite, "skipped")
    assert f"{base}/missing.html" in skipped
    assert suite.get("skipped") == str(len(skipped))
    assert suite.get("errors") == "1"


def test_l5_a_report_of_an_unfinished_recrawl_pass_keeps_the_last_passes_findings(tmp_path):
    database = tmp_path / "c.db"
    with serve(small_web()) as web:
        base = web.url("site").rstrip("/")
        first = check(f"{base}/", database)
        assert first.returncode == 1, first.stderr
        # The next check is a recrawl pass; a limit stops it after the home page, so that the
        # pages pass 1 found broken are queued again, not fetched yet: the pass is unfinished.
        second = check(f"{base}/", database, "--max-pages", "1")
    assert second.returncode == 1, second.stderr
    assert "found by an earlier pass, not re-checked yet" in second.stderr
    assert "and the check is incomplete (" in second.stderr

    text = politecrawl("report", "--db", str(database)).stdout
    assert text.splitlines()[1].startswith("Pass 2 is incomplete: ")
    broken = text[text.index("\nBroken links (") :]
    broken = broken[: broken.index("\n\n")]
    assert "Broken links (1)" in broken
    assert f"{base}/missing.html" in broken
    assert "HTTP 404 (found by pass 1, not re-checked yet)" in broken
    assert "#nowhere (found by pass 1, not re-checked yet)" in text

    suite = _suite(politecrawl("report", "--db", str(database), "--format", "junit").stdout)
    assert f"{base}/missing.html" in _named(suite, "failure")
    assert f"{base}/a.html#nowhere" in _named(suite, "failure")
    assert _named(suite, "error") == ["pass complete"]
    assert suite.get("failures") == "2"


def test_l5_ctrl_c_during_a_check_still_writes_its_junit_file_marked_incomplete(tmp_path):
    junit = tmp_path / "links.xml"
    with serve(small_web()) as web:
        base = web.url("many").rstrip("/")
        command = [sys.executable, "-m", "politecrawl", "check", f"{base}/", "--db"]
        command += [str(tmp_path / "c.db"), "--delay", "0.3", "--quiet"]
        command += ["--format", "junit", "--out", str(junit)]
        child = subprocess.Popen(
            command, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        deadline = time.monotonic() + 60
        while (
            sum(1 for r in web.log if r.path_with_query.startswith("/p/")) < 2
            and time.monotonic() < deadline
            and child.poll() is None
        ):
            time.sleep(0.05)
        running = child.poll() is None
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=120)
    assert running  # interrupted while it checked, not after
    assert child.returncode == 130, stderr
    assert "interrupted" in stderr
    suite = _suite(junit.read_text(encoding="utf-8"))
    (error,) = [case.find("error") for case in suite if case.find("error") is not None]
    assert error.get("type") == "incomplete"
    assert "interrupted" in str(error.text)
    assert len(_named(suite, "skipped")) > 0


def test_l5_s1_the_closing_lines_agree_with_each_other_and_the_report(tmp_path):
    with serve(small_web()) as web:
        site = check(web.url("site"), tmp_path / "site.db")
        mapped = check(web.url("mapped"), tmp_path / "mapped.db")
    assert site.returncode == 1, site.stderr
    lines = site.stderr.splitlines()
    # The checks line counts links leaving the site and resources only; the last line every
    # kind of broken link, by kind, with its plural.
    assert "1 outbound link or resource checked, 0 broken." in lines
    assert lines[-1] == "politecrawl: 2 broken links found: 1 broken page, 1 missing fragment"
    # S1: the site's only sitemap, the guessed /sitemap.xml, answered 404: none was read.
    assert "sitemap" not in site.stderr
    assert mapped.returncode == 0, mapped.stderr
    assert "1 sitemap read." in mapped.stderr.splitlines()
    assert mapped.stderr.splitlines()[-1] == "politecrawl: nothing broken"


def test_l5_check_help_says_the_crawl_is_kept_in_the_users_cache():
    shown = " ".join(politecrawl("check", "--help").stdout.split())
    assert "(default: ./crawl.db)" not in shown
    assert "--db DB crawl database: a path or a SQLAlchemy URL (default: one per site in the " in (
        shown
    )
    assert "$XDG_CACHE_HOME/politecrawl/HOST.db" in shown


class _Rows(HTMLParser):
    """Each section's rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[list[str]]] = {}
        self.section = ""
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.section = dict(attrs).get("id") or ""
        elif tag == "tr":
            self.rows.setdefault(self.section, []).append([])
        elif tag == "td":
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.rows[self.section][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_l5_compare_calls_a_deleted_page_pages_still_link_to_newly_broken(tmp_path):
    database = tmp_path / "c.db"
    with serve(small_web()) as web:
        base = web.url("site").rstrip("/")
        assert check(f"{base}/", database).returncode == 1
        web.remove_page("site", "/gone.html")
        assert check(f"{base}/", database).returncode == 1
    gone = f"{base}/gone.html"
    linked = f'200 -> 404; linked from {base}/ (line 5, "A page deleted later")'

    text = politecrawl("report", "--db", str(database), "--compare").stdout
    assert re.search(r"\n  Newly broken +1\n", text), text
    newly = text[text.index("\nNewly broken (1)\n") :]
    assert newly.splitlines()[2] == f"  {gone}  {linked}"

    data = json.loads(
        politecrawl("report", "--db", str(database), "--compare", "--format", "json").stdout
    )
    assert data["urls"]["newly_broken"] == [gone]
    assert data["urls"]["gone"] == [gone]  # it is gone too
    assert data["details"]["newly_broken"] == {gone: linked}

    page = _Rows()
    page.feed(politecrawl("report", "--db", str(database), "--compare", "--format", "html").stdout)
    assert [gone, linked] in page.rows["newly_broken"]
    assert all(row[1] for row in page.rows["unchanged"] if row)  # every Detail cell says something
