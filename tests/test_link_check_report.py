"""The link checks of the report, and its JUnit XML [L1-L5].

``build_crawl`` records a crawl through the store's API, then writes what link checking adds the
way the crawl does (``urls.kind = 'check'``, ``check_method``, ``anchors``; ``links.text``,
``line`` and ``resource``; ``link_fragments``), with one example of every finding: outbound
links that broke (a 404 linked from two pages, a connection refused after HEAD and GET, a page
redirecting off the site to a 404), a resource that broke, links to URLs that moved for good
(one hop to another site; two permanent hops, 301 then 308; a redirect off the site), a link
robots.txt forbids to check, and missing fragments (on another page, and on the page itself).
Next to each, a near miss that must not be found: an outbound link that answers 200, a
temporary redirect (302), a permanent redirect only a redirect links to, a fragment that is
there, fragments on a page fetched without its anchors or on a broken page, a check not made
yet. The broken in-scope page stays in "Broken links". On SQLite and PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import and_, insert, select, update
from tests.store.conftest import BACK_ENDS, built_database
from tests.test_report import AGENT, Recorder

from politecrawl.report import (
    broken_count,
    build_report,
    render_csv,
    render_history,
    render_json,
    render_junit,
    render_text,
)
from politecrawl.report.check_model import (
    BrokenCheck,
    ForbiddenCheck,
    LinkChecks,
    MissingFragment,
    RedirectToUpdate,
    Referrer,
)
from politecrawl.report.check_tables import NOT_CHECKED
from politecrawl.report.html import render_html
from politecrawl.robots.outcome import RobotsOutcome
from politecrawl.store import LinkOut, RobotsOutcomeStore, ends, open_database, start_run
from politecrawl.store.reading import url_history
from politecrawl.store.schema import (
    link_fragments_table,
    links_table as _links,
    urls_table as _urls,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
A = "http://a.test"  # the site
E = "http://ext.test"  # another site, linked to
CDN = "http://cdn.test"  # where the images are
R = "http://robots.test"  # another site, whose robots.txt forbids /private
SLOW = "http://slow.test"  # another site, whose robots.txt does not answer
HTML = "text/html; charset=utf-8"
ROBOTS_R = b"User-agent: *\nDisallow: /private\n"
LINE_2 = {
    "origin": R,
    "semantics": "draft",
    "line": 2,
    "text": "Disallow: /private",
    "why": "line 2 (Disallow) decides: Disallow: /private",
    "robots_status": 200,
}
REFUSED = "connection refused \x1b[2J"
HOSTILE_TEXT = "<script>alert(1)</script>"

# (from, to): (text, line, resource) as the crawl records the links it finds (L1, L3).
LINKS = {
    (f"{A}/", f"{A}/docs"): ("Docs", 4, False),
    (f"{A}/", f"{E}/gone"): ("Gone page", 5, False),
    (f"{A}/", f"{E}/refused"): (HOSTILE_TEXT, 6, False),
    (f"{A}/", f"{CDN}/logo.png"): ("Logo", 3, True),
    (f"{A}/", f"{E}/moved"): ("Moved", 7, False),
    (f"{A}/", f"{A}/old"): ("Old", 8, False),
    (f"{A}/", f"{A}/temp"): ("Temporary", 9, False),
    (f"{A}/", f"{A}/missing"): ("Missing", 10, False),
    (f"{A}/", f"{R}/private/x"): ("Private", 11, False),
    (f"{A}/", f"{E}/ok"): ("Fine", 13, False),
    (f"{A}/", f"{A}/moved-out"): ("Out", 14, False),
    (f"{A}/", f"{A}/plain"): ("Plain", 15, False),
    (f"{A}/", f"{SLOW}/x"): ("Slow", 16, False),
    (f"{A}/docs", f"{E}/gone"): ("again", 30, False),
}
# (from, to, fragment, line): the #fragment links (L4).
FRAGMENTS = [
    (f"{A}/", f"{A}/docs", "install", 12),  # there
    (f"{A}/", f"{A}/docs", "missing-one", 12),
    (f"{A}/", f"{A}/", "intro", 18),  # on the page itself, there
    (f"{A}/", f"{A}/", "nowhere", 20),
    (f"{A}/", f"{A}/plain", "x", 15),  # fetched without its anchors: not judged
    (f"{A}/", f"{A}/missing", "sec", 10),  # a broken page: "Broken links" has it
]
ANCHORS = {f"{A}/": "intro\nusage", f"{A}/docs": "install\nusage"}
CHECKS = {  # URL: check_method (None: not requested)
    f"{E}/gone": "HEAD",
    f"{E}/refused": "HEAD,GET",
    f"{CDN}/logo.png": "HEAD",
    f"{E}/moved": "HEAD",
    f"{E}/new": "HEAD",
    f"{E}/ok": "HEAD",
    f"{E}/elsewhere": "HEAD",
    f"{R}/private/x": None,
    f"{SLOW}/x": None,
}


class Crawl(Recorder):
    """``Recorder`` on full URLs, any origin."""

    def fetch(self, url: str, outcome: ends.PageOutcome, **kwargs) -> None:
        lease, now = self.take(url)
        assert self.frontier.record(ends.Completed(lease, outcome, now, **kwargs), now=now).recorded

    def moved(self, url: str, status: int, target: str) -> None:
        self.fetch(url, ends.PageOutcome(status, final_url=target), redirect_to=target)


def build_crawl(database) -> None:
    """The crawl every test here reads (see the module docstring)."""
    crawl = Crawl(database)
    crawl.frontier.add([f"{A}/"], now=T0)
    html = ends.PageOutcome(200, content_type=HTML, elapsed_seconds=0.1)
    home = [LinkOut(to) for start, to in LINKS if start == f"{A}/"]
    crawl.fetch(f"{A}/", html, links=home)
    week = T0 + timedelta(days=7)
    store = RobotsOutcomeStore(database)
    allow = RobotsOutcome("allow_all", 404, None, "404: no robots.txt", week, None, 0)
    for origin in (A, E, CDN):
        store.put(origin, allow, now=T0)
    store.put(R, RobotsOutcome("parsed", 200, ROBOTS_R, "200: parsed", week, None, 0), now=T0)
    crawl.fetch(f"{A}/docs", html, links=[LinkOut(f"{E}/gone")])
    crawl.fetch(f"{A}/plain", html)
    crawl.fetch(f"{A}/missing", ends.PageOutcome(404, content_type=HTML))
    crawl.moved(f"{A}/old", 301, f"{A}/older")  # two permanent hops
    crawl.moved(f"{A}/older", 308, f"{A}/new")
    crawl.fetch(f"{A}/new", html)
    crawl.moved(f"{A}/temp", 302, f"{A}/new")  # temporary: no link to update
    crawl.moved(f"{A}/moved-out", 301, f"{E}/elsewhere")  # off the site: a check (L1)

    # The checks: asked for their status only (L1-L3).
    crawl.fetch(f"{E}/gone", ends.PageOutcome(404, content_type=HTML))
    lease, now = crawl.take(f"{E}/refused")
    assert crawl.frontier.record(
        ends.Failed(lease, REFUSED, at=now, next_fetch_at=now), now=now
    ).recorded
    crawl.fetch(f"{CDN}/logo.png", ends.PageOutcome(404))
    crawl.moved(f"{E}/moved", 301, f"{E}/new")
    crawl.fetch(f"{E}/new", html)
    crawl.fetch(f"{E}/ok", html)
    crawl.fetch(f"{E}/elsewhere", ends.PageOutcome(404))
    lease, now = crawl.take(f"{R}/private/x")
    assert crawl.frontier.record(
        ends.Excluded(lease, state="excluded", reason="robots", detail=LINE_2), now=now
    ).recorded
    lease, now = crawl.take(f"{SLOW}/x")
    assert crawl.frontier.record(
        ends.Deferred(lease, until=None, reason="robots-deferred"), now=now
    ).recorded

    # What link checking writes besides (L1-L4).
    with database.engine.begin() as connection:
        ids = {url: id_ for id_, url in connection.execute(select(_urls.c.id, _urls.c.url))}
        for url, method in CHECKS.items():
            connection.execute(
                update(_urls)
                .where(_urls.c.id == ids[url])
                .values(kind="check", check_method=method)
            )
        for url, names in ANCHORS.items():
            connection.execute(update(_urls).where(_urls.c.id == ids[url]).values(anchors=names))
        for (start, to), (text, line, resource) in LINKS.items():
            found = and_(_links.c.from_id == ids[start], _links.c.to_id == ids[to])
            written = connection.execute(
                update(_links).where(found).values(text=text, line=line, resource=resource)
            )
            assert written.rowcount == 1, (start, to)
        connection.execute(
            insert(link_fragments_table),
            [
                {"from_id": ids[start], "to_id": ids[to], "fragment": fragment, "line": line}
                for start, to, fragment, line in FRAGMENTS
            ],
        )


@pytest.fixture(scope="module", params=BACK_ENDS)
def crawl(request, tmp_path_factory):
    """A crawl database built by ``build_crawl``, on each back end (read-only: shared)."""
    yield from built_database(request.param, tmp_path_factory, build_crawl, "link-checks")


@pytest.fixture
def report(crawl):
    return build_report(crawl, agent=AGENT)


@pytest.fixture
def checks(report) -> LinkChecks:
    return report.checks


def _ref(url: str, text: str | None = None, line: int | None = None, **flags) -> Referrer:
    return Referrer(url, False, text, line, **flags)


# --- the model ---------------------------------------------------------------------------------


def test_l1_l3_broken_outbound_links_and_resources_with_every_linking_page(checks):
    assert checks.broken == (
        BrokenCheck(
            f"{CDN}/logo.png",
            CDN,
            404,
            "done",
            None,
            "HEAD",
            (_ref(f"{A}/", "Logo", 3, resource=True),),
        ),
        BrokenCheck(
            f"{E}/elsewhere", E, 404, "done", None, "HEAD", (_ref(f"{A}/moved-out", redirect=True),)
        ),
        BrokenCheck(
            f"{E}/gone",
            E,
            404,
            "done",
            None,
            "HEAD",
            (_ref(f"{A}/", "Gone page", 5), _ref(f"{A}/docs", "again", 30)),
        ),
        BrokenCheck(
            f"{E}/refused",
            E,
            None,
            "failed",
            REFUSED,
            "HEAD,GET",
            (_ref(f"{A}/", HOSTILE_TEXT, 6),),
        ),
    )
    assert [item.problem for item in checks.broken] == ["HTTP 404"] * 3 + [REFUSED]
    assert [item.is_resource for item in checks.broken] == [True, False, False, False]


def test_l1_redirects_to_update_lead_through_the_permanent_redirects(checks):
    assert checks.redirects == (
        RedirectToUpdate(
            f"{A}/moved-out", 301, f"{E}/elsewhere", "404", 1, (_ref(f"{A}/", "Out", 14),)
        ),
        RedirectToUpdate(f"{A}/old", 301, f"{A}/new", "200", 2, (_ref(f"{A}/", "Old", 8),)),
        RedirectToUpdate(f"{E}/moved", 301, f"{E}/new", "200", 1, (_ref(f"{A}/", "Moved", 7),)),
    )
    assert [item.is_ok for item in checks.redirects] == [False, True, True]
    # The near misses: a 302 (temporary) and a 308 only a redirect links to.
    assert not {f"{A}/temp", f"{A}/older"} & {item.url for item in checks.redirects}


def test_l1_checks_robots_txt_forbids_are_reported_with_the_deciding_line(checks):
    assert checks.robots_forbidden == (
        ForbiddenCheck(
            f"{R}/private/x",
            R,
            "draft",
            2,
            "Disallow: /private",
            "line 2 (Disallow) decides: Disallow: /private",
            (_ref(f"{A}/", "Private", 11),),
        ),
    )


def test_l4_missing_fragments_with_the_linking_page_and_line(checks):
    assert checks.missing_fragments == (
        MissingFragment(f"{A}/", A, "nowhere", (_ref(f"{A}/", line=20),)),
        MissingFragment(f"{A}/docs", A, "missing-one", (_ref(f"{A}/", line=12),)),
    )
    assert checks.missing_fragments[1].link == f"{A}/docs#missing-one"


def test_l1_l4_counts_of_what_was_checked(checks):
    assert checks.enabled
    assert checks.counts == {
        "pages_checked": 9,
        "checks_made": 7,  # done or failed; not the one robots.txt forbids, nor the deferred
        "checks_waiting": 1,
        "fragments_checked": 4,  # not on a page without anchors, nor on a broken page
        "broken": 4,
        "redirects": 3,
        "robots_forbidden": 1,
        "missing_fragments": 2,
    }


def test_l5_broken_count_is_broken_pages_checks_and_fragments(report):
    assert [item.url for item in report.broken_links] == [f"{A}/missing"]
    assert broken_count(report) == 1 + 4 + 2


def test_l1_checks_stay_out_of_the_page_sections(report):
    checks = set(CHECKS)
    in_page_sections = {
        item.url
        for section in ("broken_links", "robots_excluded", "out_of_scope", "deferred_urls")
        for item in report.section(section)
    }
    assert not in_page_sections & checks
    assert report.broken_links[0].referrers == (_ref(f"{A}/", "Missing", 10),)


def test_l1_the_checks_are_the_same_when_built_twice(crawl, report):
    assert build_report(crawl, agent=AGENT).checks == report.checks


# --- renderings ----------------------------------------------------------------------------------


def _section(text: str, title: str) -> list[str]:
    """The lines of the text section headed ``title (n)``, up to the next blank line."""
    start = text.index(f"\n{title} (") + 1
    end = text.find("\n\n", start)
    return text[start : None if end < 0 else end].splitlines()


def test_l1_l4_text_has_a_section_per_finding(report):
    text = render_text(report)
    assert "\nLink checks\n  Checks made " in text
    assert re.search(r"\n  Missing fragments +2\n", text)
    broken = _section(text, "Broken outbound links and resources")
    assert broken[0] == "Broken outbound links and resources (4)"
    assert broken[1] == "  7 links leaving the site and resources checked (HEAD, else GET); " + (
        "1 not checked yet (queued or deferred)"
    )
    assert broken[2].split() == ["URL", "STATUS", "PROBLEM", "METHOD", "LINKED", "FROM"]
    gone = broken.index(next(line for line in broken if line.startswith(f"  {E}/gone ")))
    assert broken[gone].endswith(f'{A}/ (line 5, "Gone page")')
    column = len(broken[gone]) - len(f'{A}/ (line 5, "Gone page")')
    assert broken[gone + 1][column:] == f'{A}/docs (line 30, "again")'
    assert f'{A}/ (line 3, "Logo", resource)' in text
    assert f"{A}/moved-out (redirect)" in text
    assert "connection refused \\x1b[2J" in text
    assert "\x1b" not in text
    redirects = _section(text, "Redirects to update")
    row = next(line for line in redirects if line.startswith(f"  {A}/old "))
    assert re.search(rf"301 +{re.escape(A)}/new \(200; 2 redirects\) +{re.escape(A)}/ ", row)
    robots = _section(text, "Not checked: disallowed by robots.txt")
    assert re.search(r"/private/x +2 +Disallow: /private +draft +http://a\.test/ ", robots[3])
    fragments = _section(text, "Missing fragments")
    assert (
        fragments[1]
        == "  4 #fragment links checked against the ids and <a name> anchors of their page"
    )
    assert re.search(
        rf"^  {re.escape(A)}/docs +#missing-one +{re.escape(A)}/ \(line 12\)$", fragments[4]
    )
    # The broken page stays in "Broken links", with its link's line and text.
    assert f'{A}/ (line 10, "Missing")' in "\n".join(_section(text, "Broken links"))


def test_l1_l4_csv_has_one_row_per_finding_and_linking_page(report):
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    by_section: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        assert len(row) == 6
        by_section.setdefault(row[0], []).append(row[1:])
    assert by_section["broken_checks"] == [
        [
            f"{CDN}/logo.png",
            "404",
            "HTTP 404",
            "method: HEAD; line 3; text: Logo; resource",
            f"{A}/",
        ],
        [f"{E}/elsewhere", "404", "HTTP 404", "method: HEAD; redirect", f"{A}/moved-out"],
        [f"{E}/gone", "404", "HTTP 404", "method: HEAD; line 5; text: Gone page", f"{A}/"],
        [f"{E}/gone", "404", "HTTP 404", "method: HEAD; line 30; text: again", f"{A}/docs"],
        [
            f"{E}/refused",
            "",
            "connection refused \\x1b[2J",
            f"method: HEAD,GET; line 6; text: {HOSTILE_TEXT}",
            f"{A}/",
        ],
    ]
    assert by_section["redirects_to_update"][1] == [
        f"{A}/old",
        "301",
        "redirects for good",
        f"update to: {A}/new (200); line 8; text: Old",
        f"{A}/",
    ]
    assert by_section["robots_forbidden_checks"] == [
        [
            f"{R}/private/x",
            "",
            "disallowed by robots.txt (draft)",
            "line 2: Disallow: /private; line 11; text: Private",
            f"{A}/",
        ]
    ]
    assert by_section["missing_fragments"] == [
        [f"{A}/#nowhere", "", "missing fragment #nowhere", "line 20", f"{A}/"],
        [f"{A}/docs#missing-one", "", "missing fragment #missing-one", "line 12", f"{A}/"],
    ]
    assert by_section["broken_links"] == [
        [f"{A}/missing", "404", "HTTP 404", "line 10; text: Missing", f"{A}/"]
    ]


def test_l1_l4_json_has_the_checks_their_counts_and_the_broken_count(report):
    data = json.loads(render_json(report))
    assert data["broken_count"] == 7
    checks = data["checks"]
    assert checks["enabled"] is True
    assert checks["counts"]["missing_fragments"] == 2
    assert checks["broken"][2] == {
        "url": f"{E}/gone",
        "origin": E,
        "status": 404,
        "state": "done",
        "error": None,
        "method": "HEAD",
        "referrers": [
            {
                "url": f"{A}/",
                "nofollow": False,
                "text": "Gone page",
                "line": 5,
                "resource": False,
                "redirect": False,
            },
            {
                "url": f"{A}/docs",
                "nofollow": False,
                "text": "again",
                "line": 30,
                "resource": False,
                "redirect": False,
            },
        ],
        "from_pass": None,
    }
    assert [item["new_url"] for item in checks["redirects"]] == [
        f"{E}/elsewhere",
        f"{A}/new",
        f"{E}/new",
    ]
    assert checks["robots_forbidden"][0]["line"] == 2
    assert [item["fragment"] for item in checks["missing_fragments"]] == ["nowhere", "missing-one"]


def test_l1_l4_html_has_a_section_per_finding_escaped(report):
    html = render_html(report)
    for key in ("broken_checks", "redirects_to_update", "robots_forbidden_checks"):
        assert f'<section id="{key}">' in html
    fragments = html[html.index('<section id="missing_fragments">') :]
    fragments = fragments[: fragments.index("</section>")]
    assert "#missing-one" in fragments
    assert fragments.count("<tr>") == 3  # the header and two findings
    assert "<script>alert(1)" not in html
    assert "&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;" in html
    assert "connection refused \\x1b[2J" in html
    assert f'<a href="{E}/gone" rel="noreferrer noopener">' in html
    assert '<a class="card" href="#missing_fragments">' in html
    # Broken links are an alarm; redirects to update are not.
    assert (
        '<h2>Broken outbound links and resources <span class="count nonzero bad">4</span>' in html
    )
    assert '<h2>Redirects to update <span class="count">3</span></h2>' in html


def test_l5_junit_fails_a_test_case_per_broken_link_and_missing_fragment(report):
    xml = render_junit(report)
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "testsuites"
    (suite,) = root
    assert suite.get("name") == "politecrawl"
    # L5: the check of slow.test waits for its robots.txt: the pass is incomplete, an error,
    # and that link is skipped.
    for element in (root, suite):
        assert (element.get("tests"), element.get("failures"), element.get("errors")) == (
            "10",
            "7",
            "1",
        )
    assert suite.get("skipped") == "1"
    cases = suite.findall("testcase")
    assert [(case.get("classname"), case.get("name")) for case in cases] == [
        (A, f"{A}/missing"),
        (CDN, f"{CDN}/logo.png"),
        (E, f"{E}/elsewhere"),
        (E, f"{E}/gone"),
        (E, f"{E}/refused"),
        (A, f"{A}/#nowhere"),
        (A, f"{A}/docs#missing-one"),
        ("politecrawl", "pass complete"),
        (SLOW, f"{SLOW}/x"),
        ("politecrawl", "links"),
    ]
    error = cases[7].find("error")
    assert (error.get("type"), error.get("message")) == (
        "incomplete",
        "pass 1 incomplete: 1 URL deferred",
    )
    skipped = cases[8].find("skipped")
    assert skipped.get("message") == "not checked yet: deferred (robots-deferred)"
    failures = [case.find("failure") for case in cases[:8]]
    assert [failure.get("message") for failure in failures[:-1]] == [
        "broken link: HTTP 404",
        "broken resource: HTTP 404",
        "broken outbound link: HTTP 404",
        "broken outbound link: HTTP 404",
        "broken outbound link: connection refused \\x1b[2J",
        "missing fragment: no id or <a name> #nowhere on http://a.test/",
        "missing fragment: no id or <a name> #missing-one on http://a.test/docs",
    ]
    assert failures[-1] is None
    assert [failure.get("type") for failure in failures[:-1]] == ["broken-link"] * 5 + [
        "missing-fragment"
    ] * 2
    assert failures[0].text == f'linked from 1 page:\n  {A}/ (line 10, "Missing")'
    assert failures[3].text == (
        f'linked from 2 pages:\n  {A}/ (line 5, "Gone page")\n  {A}/docs (line 30, "again")\n'
        "checked with HEAD"
    )
    assert failures[4].text.startswith(f'linked from 1 page:\n  {A}/ (line 6, "{HOSTILE_TEXT}")')
    assert failures[6].text == f"linked from 1 page:\n  {A}/ (line 12)"
    assert cases[-1].findtext("system-out") == (
        "16 link targets checked: 9 pages crawled, 7 links leaving the site and resources; "
        "4 #fragment links"
    )
    assert "\x1b" not in xml


# --- a crawl without link checking ----------------------------------------------------------------


def test_l1_a_crawl_without_link_checks_says_so_in_one_line(tmp_path):
    database = open_database(str(tmp_path / "none.db"))
    report = build_report(database, agent=AGENT)
    database.close()
    assert report.checks == LinkChecks()
    text = render_text(report)
    assert f"\nLink checks: {NOT_CHECKED}\n" in text
    assert "--check-outbound" in NOT_CHECKED
    assert "politecrawl check SITE_URL" in NOT_CHECKED
    assert "Broken outbound links" not in text
    html = render_html(report)
    assert (
        f'<section id="link_checks">\n<h2>Link checks</h2>\n<p class="empty">{NOT_CHECKED}' in html
    )
    assert "broken_checks" not in html
    sections = {row[0] for row in csv.reader(io.StringIO(render_csv(report)))}
    assert not sections & {"broken_checks", "redirects_to_update", "missing_fragments"}
    data = json.loads(render_json(report))
    assert data["checks"]["enabled"] is False
    assert data["broken_count"] == 0
    root = ET.fromstring(render_junit(report).encode("utf-8"))
    assert (root.get("tests"), root.get("failures")) == ("1", "0")
    assert root.find("testsuite/testcase/system-out").text == (
        "0 link targets checked: 0 pages crawled, 0 links leaving the site and resources "
        "(outbound links, resources and #fragments were not checked)"
    )


@pytest.mark.parametrize(
    ("config", "enabled"),
    [
        ({"check_outbound": True}, True),
        ({"check_fragments": True, "check_outbound": False}, True),
        ({"checking": {"check_resources": True}}, True),
        ({"check_outbound": False, "check_resources": False, "check_fragments": False}, False),
    ],
)
def test_l1_checking_on_with_nothing_to_check_shows_empty_sections(tmp_path, config, enabled):
    database = open_database(str(tmp_path / "quiet.db"))
    start_run(database, config=config, now=T0)
    report = build_report(database, agent=AGENT)
    database.close()
    assert report.checks.enabled is enabled
    text = render_text(report)
    nothing = next(line for line in text.splitlines() if line.startswith("  Nothing found: "))
    assert ("Broken outbound links and resources" in nothing) is enabled  # named, no table
    assert "Broken outbound links and resources (" not in text
    assert ("\nLink checks: outbound links" in text) is not enabled


# --- why -----------------------------------------------------------------------------------------


def test_l1_why_says_a_check_is_one_how_it_was_asked_and_where_it_is_linked(crawl):
    text = render_history(url_history(crawl, f"{E}/gone"))
    assert re.search(
        r"\n  kind +check \(a link leaving the site or a resource: status only\)\n", text
    )
    assert re.search(r"\n  checked with +HEAD\n", text)
    assert (
        f'  linked from (2):\n    {A}/ (line 5, "Gone page")\n    {A}/docs (line 30, "again")\n'
        in text
    )
    text = render_history(url_history(crawl, f"{E}/refused"))
    assert re.search(r"\n  checked with +HEAD,GET\n", text)
    assert "kind" not in render_history(url_history(crawl, f"{A}/docs"))
