"""``politecrawl status``: what a newcomer reads of a crawl in progress [B1; issue 44]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from politecrawl.cli.main import main
from politecrawl.store import Frontier, Lease, ends, open_database

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SITE = "http://site.example"


def test_status_lists_the_origins_with_work_and_counts_those_with_nothing_to_fetch(
    tmp_path, capsys
):
    # A site's crawl that met links to 30 other sites, all out of scope: status names the
    # site's origin, whose robots.txt is still to come, and counts the 30 in one line.
    path = str(tmp_path / "crawl.db")
    database = open_database(path)
    try:
        frontier = Frontier(database)
        frontier.add([f"{SITE}/"], now=NOW)
        others = [f"http://other{index}.example/page" for index in range(30)]
        frontier.add(others, now=NOW, depth=1)
        for _ in range(
            31
        ):  # every URL once: the others excluded, the site's given back (its host due tomorrow)
            lease = frontier.claim("w", now=NOW)
            assert isinstance(lease, Lease)
            if lease.origin == SITE:
                end: ends.LeaseEnd = ends.Released(lease, NOW + timedelta(days=1))
            else:
                end = ends.Excluded(lease, state="out_of_scope", reason="scope")
            assert frontier.record(end, now=NOW).recorded
    finally:
        database.close()
    assert main(["status", "--db", path]) == 0
    out = capsys.readouterr().out
    assert f"  {SITE}: not fetched yet" in out
    assert "other0.example" not in out
    assert "and 30 other origins with nothing to fetch" in out
