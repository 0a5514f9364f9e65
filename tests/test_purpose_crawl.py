"""A crawl with a purpose (issue 41) [U3, U5]: tdmrep.json fetched once per origin like
robots.txt, URLs refused by robots.txt or tdmrep.json never requested, pages refused by their
own headers or metas fetched once and recorded as refused; without a purpose nothing withheld.

A scripted fetcher and a fake clock: the requests are the fetcher's own list, and expiry and
retries are exact (end to end on real servers: tests/test_purpose_e2e.py).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from politecrawl import CrawlConfig, Crawler
from politecrawl.config import RobotsSettings
from politecrawl.crawl.processes import HelperSlot
from politecrawl.preferences.tdmrep_outcome import (
    tdmrep_file,
    tdmrep_outcome,
    tdmrep_settings,
)
from politecrawl.results import CrawlSummary, Excluded, Page
from politecrawl.robots.outcome import outcome_of_failure, outcome_of_response
from politecrawl.store import TdmRepOutcomeStore, open_database
from politecrawl.testing import Answer, FakeClock, ScriptedFetcher
from politecrawl.usage import Protocol, Stance, Use

SITE = "https://site.example"
TDMREP = SITE + "/.well-known/tdmrep.json"
TEXT = (("Content-Type", "text/plain"),)
JSON = (("Content-Type", "application/json"),)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
SETTINGS = tdmrep_settings(RobotsSettings().outcome_settings)

ROBOTS = """\
User-agent: *
Allow: /
Content-Usage: /members/ train-ai=n
Content-Signal: search=yes
"""
TDMREP_RULES = """[
  {"location": "/reserved/*", "tdm-reservation": 1, "tdm-policy": "https://site.example/licence"},
  {"location": "/", "tdm-reservation": 0}
]
"""


def html(*links: str, head: str = "") -> str:
    anchors = "".join(f'<a href="{link}">{link}</a>' for link in links)
    return f"<!DOCTYPE html><html><head>{head}</head><body>{anchors}</body></html>"


def site_script(*, tdmrep: Answer | list[Answer] | None = None) -> dict[str, Answer | list[Answer]]:
    script: dict[str, Answer | list[Answer]] = {
        SITE + "/robots.txt": Answer(200, ROBOTS, TEXT),
        SITE + "/": Answer(
            200,
            html(
                "/open.html",
                "/members/a.html",
                "/reserved/b.html",
                "/meta-noai.html",
                "/header-refused.html",
            ),
        ),
        SITE + "/open.html": Answer(200, html()),
        SITE + "/members/a.html": Answer(200, html()),
        SITE + "/reserved/b.html": Answer(200, html()),
        SITE + "/meta-noai.html": Answer(200, html(head='<meta name="robots" content="noai">')),
        SITE + "/header-refused.html": Answer(
            200,
            html(),
            (("Content-Type", "text/html"), ("Content-Usage", "train-ai=n, search=y")),
        ),
    }
    if tdmrep is not None:
        script[TDMREP] = tdmrep
    return script


def crawl(
    tmp_path, fetcher: ScriptedFetcher, clock: FakeClock | None = None, **settings: object
) -> tuple[list[Page], list[Excluded]]:
    excluded: list[Excluded] = []
    config = CrawlConfig(
        database=str(tmp_path / "crawl.db"), delay_seconds=1.0, sitemaps=False, **settings
    )
    with Crawler(config, clock=clock or FakeClock(NOW), fetcher=fetcher) as crawler:
        crawler.on_excluded = excluded.append
        crawler.add_seeds([SITE + "/"])
        pages = list(crawler.crawl())
    return pages, excluded


def by_url(pages: list[Page]) -> dict[str, Page]:
    return {page.url: page for page in pages}


# --- tdmrep.json's outcome, pure -------------------------------------------------------------


def test_u3_a_2xx_tdmrep_json_is_read_and_fresh_for_its_http_lifetime():
    fetched = outcome_of_response(
        200, {"Cache-Control": "max-age=600"}, TDMREP_RULES.encode(), now=NOW,
        failures_before=0, settings=SETTINGS,
    )  # fmt: skip
    outcome = tdmrep_outcome(fetched, now=NOW, settings=SETTINGS)
    assert (outcome.kind, outcome.reason) == ("parsed", "200: read (U3)")
    assert (outcome.expires_at - NOW).total_seconds() == 600
    rules = tdmrep_file(outcome)
    assert rules is not None
    assert rules.for_url("/reserved/x").refuses(Use.AI_TRAIN)


@pytest.mark.parametrize("status", [404, 410, 401, 403, 400])
def test_u3_any_4xx_means_no_reservation(status):
    fetched = outcome_of_response(
        status, {}, b"nope", now=NOW, failures_before=0, settings=SETTINGS
    )
    outcome = tdmrep_outcome(fetched, now=NOW, settings=SETTINGS)
    assert outcome.kind == "allow_all"
    assert outcome.reason == f"{status}: no tdmrep.json, no reservation (U3)"
    rules = tdmrep_file(outcome)
    assert rules is not None
    assert rules.rules == ()


def test_u3_a_5xx_waits_for_robots_txt_back_off_then_reads_as_no_reservation():
    first = outcome_of_response(503, {}, b"", now=NOW, failures_before=0, settings=SETTINGS)
    waiting = tdmrep_outcome(first, now=NOW, settings=SETTINGS)
    assert waiting.kind == "deferred"
    assert waiting.reason == "HTTP 503: tdmrep.json temporarily unavailable; retry in 1 s (U3, O6)"
    assert tdmrep_file(waiting) is None  # unknown: its URLs wait
    last = outcome_of_failure(
        "connection refused", now=NOW, failures_before=SETTINGS.max_attempts - 1,
        settings=SETTINGS,
    )  # fmt: skip
    given_up = tdmrep_outcome(last, now=NOW, settings=SETTINGS)
    assert given_up.kind == "allow_all"
    assert given_up.reason.startswith("connection refused: tdmrep.json not had after 4 attempts")
    assert (given_up.expires_at - NOW).total_seconds() == SETTINGS.denied_lifetime_seconds


# --- in a crawl -------------------------------------------------------------------------------


def test_u5_ai_train_never_requests_what_robots_txt_or_tdmrep_json_refuse(tmp_path):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(200, TDMREP_RULES, JSON)))
    _pages, excluded = crawl(tmp_path, fetcher, purpose="ai-train")
    assert SITE + "/members/a.html" not in fetcher.requests  # robots.txt Content-Usage
    assert SITE + "/reserved/b.html" not in fetcher.requests  # tdmrep.json location
    assert fetcher.requests.count(TDMREP) == 1  # once per origin (U3)
    assert fetcher.requests[:2] == [SITE + "/robots.txt", TDMREP]  # robots.txt first (O2)
    refused = {item.url: item for item in excluded if item.reason == "use-preference"}
    assert set(refused) == {SITE + "/members/a.html", SITE + "/reserved/b.html"}
    members = refused[SITE + "/members/a.html"].detail
    assert members["purpose"] == "ai-train"
    assert members["lines"] == [3]
    assert members["signals"] == [
        "robots.txt line 3 (User-agent: *): Content-Usage: /members/ train-ai=n (ai-train refused)"
    ]
    reserved = refused[SITE + "/reserved/b.html"].detail
    assert reserved["lines"] == [2]
    assert reserved["signals"][0].startswith("tdmrep.json line 2 (location /reserved/*): ")
    assert reserved["tdm_policy"] == ["https://site.example/licence"]


def test_u5_pages_refused_by_their_own_meta_or_header_are_fetched_once_and_never_indexable(
    tmp_path,
):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(404, "", TEXT)))
    pages, _ = crawl(tmp_path, fetcher, purpose="ai-train")
    got = by_url(pages)
    for path in ("/meta-noai.html", "/header-refused.html"):
        assert fetcher.requests.count(SITE + path) == 1
        assert got[SITE + path].refused
        assert not got[SITE + path].indexable
    assert got[SITE + "/open.html"].indexable
    noai = got[SITE + "/meta-noai.html"].use_preferences.verdict(Use.AI_TRAIN)
    assert noai.stance is Stance.REFUSED
    assert [one.protocol for one in noai.deciding] == [Protocol.NOAI]
    header = got[SITE + "/header-refused.html"].use_preferences
    assert header.verdict(Use.SEARCH).stance is Stance.ALLOWED


def test_u5_search_reads_no_tdmrep_json_and_keeps_pages_that_refuse_only_training(tmp_path):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(200, TDMREP_RULES, JSON)))
    pages, excluded = crawl(tmp_path, fetcher, purpose="search")
    assert TDMREP not in fetcher.requests  # TDMRep says nothing of a search index
    assert not [item for item in excluded if item.reason == "use-preference"]
    assert all(page.indexable for page in pages)


def test_u5_without_a_purpose_nothing_is_withheld_and_signals_are_still_recorded(tmp_path):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(200, TDMREP_RULES, JSON)))
    pages, excluded = crawl(tmp_path, fetcher)
    assert TDMREP not in fetcher.requests
    assert not excluded
    got = by_url(pages)
    assert len(got) == 6
    assert not any(page.refused for page in pages)
    members = got[SITE + "/members/a.html"].use_preferences
    assert members.refuses(Use.AI_TRAIN)  # recorded, not withheld (U6)
    assert got[SITE + "/meta-noai.html"].indexable


def test_u3_tdmrep_json_is_stored_per_origin_and_not_fetched_again_while_fresh(tmp_path):
    answer = Answer(200, TDMREP_RULES, (*JSON, ("Cache-Control", "max-age=3600")))
    fetcher = ScriptedFetcher(site_script(tdmrep=answer))
    clock = FakeClock(NOW)
    crawl(tmp_path, fetcher, clock, purpose="ai-train")
    database = open_database(str(tmp_path / "crawl.db"))
    try:
        stored = TdmRepOutcomeStore(database).get(SITE)
    finally:
        database.close()
    assert stored is not None
    assert stored.kind == "parsed"
    assert stored.body == TDMREP_RULES.encode()
    with Crawler(
        CrawlConfig(database=str(tmp_path / "crawl.db"), purpose="ai-train", sitemaps=False),
        clock=clock,
        fetcher=fetcher,
    ) as crawler:
        list(crawler.recrawl())  # within the hour: the stored file holds (E1)
    assert fetcher.requests.count(TDMREP) == 1
    assert SITE + "/reserved/b.html" not in fetcher.requests


def test_u3_an_expired_tdmrep_json_is_revalidated_before_it_is_used_again(tmp_path):
    answer = Answer(200, TDMREP_RULES, (*JSON, ("Cache-Control", "max-age=60"), ("ETag", '"v1"')))
    fetcher = ScriptedFetcher(site_script(tdmrep=[answer, Answer(304, "", (("ETag", '"v1"'),))]))
    clock = FakeClock(NOW)
    crawl(tmp_path, fetcher, clock, purpose="ai-train")
    clock.advance(3600)
    with Crawler(
        CrawlConfig(database=str(tmp_path / "crawl.db"), purpose="ai-train", sitemaps=False),
        clock=clock,
        fetcher=fetcher,
    ) as crawler:
        list(crawler.recrawl())
    assert fetcher.requests.count(TDMREP) == 2
    assert SITE + "/reserved/b.html" not in fetcher.requests  # the 304 kept the rules (E3)


def test_u3_a_failing_tdmrep_json_holds_the_pages_until_its_retry_then_they_go(tmp_path):
    failing = Answer(503, "busy", TEXT)
    fetcher = ScriptedFetcher(site_script(tdmrep=[failing, Answer(200, TDMREP_RULES, JSON)]))
    pages, excluded = crawl(tmp_path, fetcher, purpose="ai-train")
    assert fetcher.requests.count(TDMREP) == 2
    first_page = fetcher.requests.index(SITE + "/")
    second_tdmrep = [i for i, url in enumerate(fetcher.requests) if url == TDMREP][1]
    assert first_page > second_tdmrep  # no page before tdmrep.json was read
    assert any(item.reason == "tdmrep-deferred" for item in excluded)
    assert SITE + "/reserved/b.html" not in fetcher.requests
    assert SITE + "/open.html" in by_url(pages)


def test_u3_a_tdmrep_json_that_never_answers_never_blocks_the_site(tmp_path):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(503, "down", TEXT)))
    pages, _ = crawl(tmp_path, fetcher, purpose="ai-train", robots_max_attempts=2)
    assert fetcher.requests.count(TDMREP) == 2  # robots.txt's attempts, then no reservation
    assert SITE + "/reserved/b.html" in by_url(pages)
    assert SITE + "/members/a.html" not in fetcher.requests  # robots.txt's refusal stands


def test_u3_robots_txt_that_forbids_tdmrep_json_keeps_it_unrequested(tmp_path):
    script = site_script(tdmrep=Answer(200, TDMREP_RULES, JSON))
    script[SITE + "/robots.txt"] = Answer(200, ROBOTS + "Disallow: /.well-known/\n", TEXT)
    fetcher = ScriptedFetcher(script)
    pages, _ = crawl(tmp_path, fetcher, purpose="ai-train")
    assert TDMREP not in fetcher.requests
    assert SITE + "/reserved/b.html" in by_url(pages)


def test_u5_the_summary_counts_refusals(tmp_path):
    fetcher = ScriptedFetcher(site_script(tdmrep=Answer(200, TDMREP_RULES, JSON)))
    config = CrawlConfig(database=str(tmp_path / "crawl.db"), purpose="ai-train", sitemaps=False)
    with Crawler(config, clock=FakeClock(NOW), fetcher=fetcher) as crawler:
        crawler.add_seeds([SITE + "/"])
        summary = crawler.run()
    assert (summary.excluded_by_preferences, summary.refused) == (2, 2)
    assert summary.excluded_by_robots == 0


def test_u5_a_sitemap_whose_url_refuses_the_purpose_is_not_read(tmp_path):
    script = site_script(tdmrep=Answer(404, "", TEXT))
    script[SITE + "/robots.txt"] = Answer(
        200, ROBOTS + "Sitemap: https://site.example/members/sitemap.xml\n", TEXT
    )
    fetcher = ScriptedFetcher(script)
    config = CrawlConfig(database=str(tmp_path / "crawl.db"), purpose="ai-train")
    with Crawler(config, clock=FakeClock(NOW), fetcher=fetcher) as crawler:
        crawler.add_seeds([SITE + "/"])
        crawler.run()
    assert SITE + "/members/sitemap.xml" not in fetcher.requests
    with Crawler(config.replace(purpose="none"), clock=FakeClock(NOW), fetcher=fetcher) as c:
        list(c.recrawl())
    assert SITE + "/members/sitemap.xml" in fetcher.requests  # no purpose: read as before


def test_u5_helper_processes_post_what_the_purpose_withheld():
    slot = HelperSlot()
    slot.post(CrawlSummary(excluded_by_preferences=3, refused=2))
    counters = slot.counters()
    assert (counters["excluded_by_preferences"], counters["refused"]) == (3, 2)
