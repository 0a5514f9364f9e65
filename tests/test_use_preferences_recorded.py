"""Each page's use preferences recorded at fetch time (issue 41) [U6]: in the crawl database,
read back by ``why`` and the report's "Use preferences" section (with a page that disagrees
with its site), in ``--output`` JSON lines; on SQLite and PostgreSQL.

A scripted fetcher and a fake clock (the WARC metadata record and the real servers:
tests/test_purpose_e2e.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from tests.store.conftest import postgres_schema_url, require_postgres

from politecrawl import CrawlConfig, Crawler
from politecrawl.cli.main import main
from politecrawl.cli.run import page_record
from politecrawl.report import build_report, render_csv, render_json, render_text
from politecrawl.report.html import render_html
from politecrawl.results import Page
from politecrawl.store import open_database
from politecrawl.store.reading import page_use
from politecrawl.testing import Answer, FakeClock, ScriptedFetcher
from politecrawl.usage import Protocol, Stance, Use

SITE = "https://site.example"
TEXT = (("Content-Type", "text/plain"),)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROBOTS = """\
Content-Signal: search=yes, ai-train=yes
User-agent: *
Allow: /
Content-Usage: /members/ train-ai=n
"""


def html(*links: str, head: str = "") -> str:
    anchors = "".join(f'<a href="{link}">{link}</a>' for link in links)
    return f"<!DOCTYPE html><html><head>{head}</head><body>{anchors}</body></html>"


SCRIPT = {
    SITE + "/robots.txt": Answer(200, ROBOTS, TEXT),
    SITE + "/": Answer(200, html("/plain.html", "/noai.html", "/members/a.html")),
    SITE + "/plain.html": Answer(200, html()),
    SITE + "/noai.html": Answer(200, html(head='<meta name="robots" content="noai, noimageai">')),
    SITE + "/members/a.html": Answer(200, html()),
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "crawl.db")
        return
    require_postgres()
    yield from postgres_schema_url()


def crawl(target: str, script=SCRIPT, clock: FakeClock | None = None, **settings) -> list[Page]:
    config = CrawlConfig(database=target, sitemaps=False, **settings)
    with Crawler(config, clock=clock or FakeClock(NOW), fetcher=ScriptedFetcher(script)) as c:
        c.add_seeds([SITE + "/"])
        return list(c.crawl())


def rows(target: str, query: str) -> list[tuple]:
    database = open_database(target)
    try:
        with database.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        database.close()


def report_of(target: str, purpose: str = "none"):
    database = open_database(target, create=False)
    try:
        return build_report(database, agent="politecrawl", purpose=purpose)
    finally:
        database.close()


def test_u6_each_page_signals_are_recorded_with_their_sources(target):
    pages = {page.url: page for page in crawl(target)}
    recorded = rows(
        target,
        "SELECT u.url, s.position, s.protocol, s.source, s.ai_train, s.line_number "
        "FROM use_signals s JOIN urls u ON u.id = s.url_id ORDER BY u.url, s.position",
    )
    by_url: dict[str, list[tuple]] = {}
    for url, *rest in recorded:
        by_url.setdefault(url, []).append(tuple(rest))
    assert by_url[SITE + "/plain.html"] == [
        (0, "content-signal", "robots.txt line 1 (before any User-agent group, for every robot)",
         "allowed", 1),
    ]  # fmt: skip
    assert [row[2] for row in by_url[SITE + "/members/a.html"]] == [
        "robots.txt line 1 (before any User-agent group, for every robot)",
        "robots.txt line 4 (User-agent: *)",
    ]
    assert by_url[SITE + "/members/a.html"][1][3:] == ("refused", 4)
    noai = by_url[SITE + "/noai.html"][-1]
    assert noai[1:] == ("noai", 'meta robots: "noai, noimageai"', "refused", None)
    # read back, they are the signals the page was handed out with
    database = open_database(target, create=False)
    try:
        found = page_use(database, SITE + "/noai.html")
    finally:
        database.close()
    assert found is not None
    assert found.signals == pages[SITE + "/noai.html"].use_preferences.signals
    assert found.refused is None  # no purpose: nothing refused, everything recorded
    assert rows(target, "SELECT count(*) FROM urls WHERE use_refused IS NOT NULL") == [(0,)]


def test_u6_a_purpose_records_which_pages_refused_it(target):
    crawl(target, purpose="ai-train")
    refused = rows(target, "SELECT url, use_refused FROM urls WHERE use_refused IS NOT NULL")
    assert dict(refused) == {
        SITE + "/": False,
        SITE + "/plain.html": False,
        SITE + "/noai.html": True,
    }
    reason = rows(target, "SELECT url, state, reason FROM urls WHERE reason = 'use-preference'")
    assert reason == [(SITE + "/members/a.html", "excluded", "use-preference")]


def test_u6_a_page_read_again_has_its_signals_replaced_not_added(target):
    clock = FakeClock(NOW)
    crawl(target, clock=clock)
    script = dict(SCRIPT)
    script[SITE + "/noai.html"] = Answer(
        200, html(), (("Content-Type", "text/html"), ("Content-Usage", "train-ai=y"))
    )
    config = CrawlConfig(database=target, sitemaps=False)
    with Crawler(config, clock=clock, fetcher=ScriptedFetcher(script)) as crawler:
        list(crawler.recrawl())
    signals = rows(
        target,
        "SELECT s.protocol, s.ai_train FROM use_signals s JOIN urls u ON u.id = s.url_id "
        f"WHERE u.url = '{SITE}/noai.html' ORDER BY s.position",
    )
    assert signals == [("content-signal", "allowed"), ("content-usage", "allowed")]


def test_u6_why_prints_the_signals_each_with_its_source(tmp_path, capsys):
    database = str(tmp_path / "crawl.db")
    crawl(database, purpose="ai-train")
    assert main(["why", SITE + "/noai.html", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "use preferences when fetched (2 signals):" in out
    assert (
        "robots.txt line 1 (before any User-agent group, for every robot): Content-Signal: "
        "search=yes, ai-train=yes (search allowed, ai-train allowed)"
    ) in out
    assert 'meta robots: "noai, noimageai": noai, noimageai (ai-input refused, ai-train' in out
    assert "together: search allowed; ai-input refused; ai-train refused" in out
    assert "refused for the crawl's purpose (ai-train): recorded, never indexable" in out
    assert "tdmrep.json of https://site.example: allow_all: 404: no tdmrep.json" in out
    assert main(["why", SITE + "/members/a.html", "--db", database]) == 0
    excluded = capsys.readouterr().out
    assert "excluded (use-preference)" in excluded
    assert "robots.txt line 4" in excluded


def test_u6_the_report_says_per_origin_what_the_site_says_and_where_a_page_disagrees(target):
    crawl(target, purpose="ai-train")
    report = report_of(target, purpose="ai-train")
    found = report.use_preferences
    assert found.purpose == "ai-train"
    (origin,) = found.origins
    assert (origin.origin, origin.pages, origin.excluded, origin.refused_pages) == (
        SITE,
        3,
        1,
        1,
    )
    tallies = {tally.use: tally for tally in origin.tallies}
    assert (tallies[Use.AI_TRAIN].refused, tallies[Use.AI_TRAIN].allowed) == (1, 2)
    assert (tallies[Use.SEARCH].allowed, tallies[Use.SEARCH].silent) == (3, 0)
    assert (tallies[Use.AI_INPUT].refused, tallies[Use.AI_INPUT].silent) == (1, 2)
    assert origin.said_by[0].pages == 3  # robots.txt's file-wide line, on every page
    assert origin.tdmrep.startswith("404: no tdmrep.json")
    (disagreement,) = found.disagreements
    assert disagreement.url == SITE + "/noai.html"
    assert disagreement.uses == (Use.AI_TRAIN,)
    assert disagreement.site.line_number == 1
    assert disagreement.page.protocol is Protocol.NOAI
    assert disagreement.site.stance(Use.AI_TRAIN) is Stance.ALLOWED


def test_u6_every_form_of_the_report_has_the_section(tmp_path):
    database = str(tmp_path / "crawl.db")
    crawl(database, purpose="ai-train")
    report = report_of(database, purpose="ai-train")
    shown = render_text(report)
    assert "Use preferences" in shown
    assert "Use preferences: a page disagrees with its site" in shown
    assert "1 not fetched: refused for ai-train" in shown
    csv_rows = [line for line in render_csv(report).splitlines() if "use_" in line]
    assert any(
        line.startswith("use_disagreements,https://site.example/noai.html") for line in csv_rows
    )
    data = json.loads(render_json(report))
    assert data["use_preferences"]["origins"][0]["excluded"] == 1
    assert "a page disagrees with its site" in render_html(report)


def test_u6_a_crawl_in_which_nothing_was_said_gets_one_line(tmp_path):
    database = str(tmp_path / "crawl.db")
    script = dict(SCRIPT)
    script[SITE + "/robots.txt"] = Answer(200, "User-agent: *\nAllow: /\n", TEXT)
    script[SITE + "/noai.html"] = Answer(200, html())
    crawl(database, script)
    shown = render_text(report_of(database))
    assert "nothing said: no robots.txt line, tdmrep.json rule, header or meta" in shown
    assert "a page disagrees" not in shown


def test_u6_output_json_lines_carry_each_signal_and_its_source(tmp_path):
    pages = {page.url: page for page in crawl(str(tmp_path / "crawl.db"), purpose="ai-train")}
    record = json.loads(json.dumps(page_record(pages[SITE + "/noai.html"])))
    assert record["use_refused"] is True
    assert record["indexable"] is False
    assert record["use_signals"][-1] == {
        "protocol": "noai",
        "source": 'meta robots: "noai, noimageai"',
        "statement": "noai, noimageai",
        "line": None,
        "policy": None,
        "search": None,
        "ai-input": "refused",
        "ai-train": "refused",
    }
    assert record["use_signals"][0]["line"] == 1
