"""``politecrawl run`` / ``resume`` / ``status`` / ``db upgrade`` run as a person runs them: in a
subprocess, against the loopback test web [C5, P1, P2, P5, B1]."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.site import TrapGuard, audit, build_site, serve
from tests.site.audit import url_of

GUARD = TrapGuard()
DELAY = 0.05
SETTINGS = [
    f"--delay={DELAY}",
    "--workers=4",
]
ENV = {
    "POLITECRAWL_ROBOTS_RETRY_SECONDS": "0.2",
    "POLITECRAWL_ROBOTS_MAX_ATTEMPTS": "3",
    "POLITECRAWL_MAX_PATH_SEGMENTS": str(GUARD.max_path_depth),
    "POLITECRAWL_MAX_REPEATED_SEGMENT": str(GUARD.max_segment_repeats),
    "POLITECRAWL_MAX_QUERY_BYTES": str(GUARD.max_query_length),
    "POLITECRAWL_RESPONSE_TIMEOUT_SECONDS": "30",  # on a loaded machine: no time-out, no retry
}


def politecrawl(*args: str, cwd: Path, timeout: float = 240, stdin: str | None = None):
    env = {**os.environ, **ENV}
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
        input=stdin,
        check=False,
    )


@pytest.fixture
def fast_web():
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as running:
        yield running


def seeds_file(web, tmp_path: Path) -> Path:
    path = tmp_path / "seeds.txt"
    path.write_text("# the test web\n" + "\n".join(web.seeds) + "\n\nnot-a-url\n")
    return path


@pytest.mark.timeout(400)
def test_run_crawls_writes_jsonl_and_reports(fast_web, tmp_path):
    web = fast_web
    seeds = seeds_file(web, tmp_path)
    result = politecrawl(
        "run",
        str(seeds),
        "--db",
        "crawl.db",
        "--output",
        "pages.jsonl",
        "--contact",
        "https://example.org/bot",
        *SETTINGS,
        cwd=tmp_path,
    )
    assert result.returncode in (0, 1), result.stderr
    bad_line = len(web.seeds) + 3  # after the comment, the seeds and a blank line
    assert f"{seeds}:{bad_line}: " in result.stderr  # the bad line, by number; the rest crawled
    assert "pages fetched" in result.stdout
    truth = web.truth(guard=GUARD)
    report = audit(web.log, truth, delays=truth.delays(DELAY))
    assert report.ok, report.report()
    lines = (tmp_path / "pages.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert {
        "url",
        "final_url",
        "status",
        "depth",
        "content_type",
        "indexable",
        "follow",
        "title",
        "fetched_at",
    } <= set(records[0])
    assert {r["url"] for r in records if r["indexable"]} == set(truth.indexable)
    user_agents = {request.header("User-Agent") for request in web.log}
    assert len(user_agents) == 1
    assert user_agents.pop().endswith("(+https://example.org/bot)")  # P5

    status = politecrawl("status", "--db", "crawl.db", cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert "done" in status.stdout
    assert "robots.txt per origin:" in status.stdout

    report = politecrawl("report", "--db", "crawl.db", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "Broken links" in report.stdout
    assert "Excluded by robots.txt" in report.stdout
    html = politecrawl(
        "report", "--db", "crawl.db", "--format", "html", "--out", "r.html", cwd=tmp_path
    )
    assert html.returncode == 0, html.stderr
    assert (tmp_path / "r.html").read_text().lstrip().lower().startswith("<!doctype html>")
    data = politecrawl("report", "--db", "crawl.db", "--format", "json", cwd=tmp_path)
    assert json.loads(data.stdout)["counts"]
    excluded = next(url for url, why in truth.never.items() if "robots" in why.lower())
    why = politecrawl("why", excluded, "--db", "crawl.db", cwd=tmp_path)
    assert why.returncode in (0, 1), why.stderr
    assert excluded in why.stdout

    again = politecrawl("resume", "--db", "crawl.db", "--quiet", cwd=tmp_path)
    assert again.returncode in (0, 1), again.stderr
    assert "0 pages fetched" in again.stdout  # nothing is fetched twice
    # What it continued, as the database counts it (``status``): done or failed, and to go.
    counts = {
        state: int(count) for state, count in re.findall(r"^  (\w+) +(\d+)$", status.stdout, re.M)
    }
    done = counts.get("done", 0) + counts.get("failed", 0)
    to_go = sum(counts.get(state, 0) for state in ("queued", "leased", "deferred"))
    assert f"politecrawl: resuming crawl.db: {done} of {done + to_go} URLs done, {to_go} to go" in (
        again.stderr
    )


def test_p5_a_missing_contact_is_warned_about(fast_web, tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(fast_web.url("robots-404", "/") + "\n")
    result = politecrawl(
        "run", str(seeds), "--db", "c.db", "--max-pages", "1", "--quiet", cwd=tmp_path
    )
    assert "no contact URL configured" in result.stderr


@pytest.mark.postgres
@pytest.mark.timeout(400)  # three crawls of the whole test web on two cores
def test_p1_three_processes_share_one_postgres_crawl(fast_web, tmp_path):
    from tests.store.conftest import postgres_schema_url, require_postgres

    require_postgres()
    web = fast_web
    seeds = seeds_file(web, tmp_path)
    for database in postgres_schema_url():
        env = {**os.environ, **ENV}
        command = [
            sys.executable,
            "-m",
            "politecrawl",
            "run",
            str(seeds),
            "--db",
            database,
            "--quiet",
            "--contact",
            "https://example.org/bot",
            *SETTINGS,
        ]
        children = [
            subprocess.Popen(
                command,
                cwd=tmp_path,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        try:
            outputs = [child.communicate(timeout=240) for child in children]
        finally:
            for child in children:
                if child.poll() is None:
                    child.kill()
                    child.wait()
        for child, (_, err) in zip(children, outputs, strict=True):
            assert child.returncode in (0, 1), err
            assert "Traceback" not in err, err
        truth = web.truth(guard=GUARD)
        report = audit(web.log, truth, delays=truth.delays(DELAY))
        assert report.ok, report.report()
        fetched = [out for out, _ in outputs]
        counts = [re.search(r"(\d+) pages? fetched", out) for out in fetched]
        assert sum(int(found[1]) for found in counts if found) > 0


def test_exit_status_0_when_finished_and_1_when_work_is_left_deferred(fast_web, tmp_path):
    clean = tmp_path / "clean.txt"
    clean.write_text(fast_web.url("robots-404", "/") + "\n")
    finished = politecrawl("run", str(clean), "--db", "a.db", "--quiet", *SETTINGS, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert "(finished)" in finished.stdout
    unreachable = tmp_path / "deferred.txt"
    unreachable.write_text(fast_web.url("robots-503", "/") + "\n")
    deferred = politecrawl(
        "run", str(unreachable), "--db", "b.db", "--quiet", *SETTINGS, cwd=tmp_path
    )
    assert deferred.returncode == 1, deferred.stderr  # O6: the origin stays deferred; says so
    assert "1 deferred" in deferred.stdout


# --- M7: real robots.txt files, read as their owners mean them --------------------------------

REAL_SHAPES = ("robots-real-docs", "robots-real-gitlab", "robots-longest")


@pytest.mark.timeout(300)
def test_m7_f4_m6_real_robots_files_nothing_either_reading_forbids_is_requested(tmp_path):
    with serve(build_site(crawl_delay_seconds=0.1)) as web:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text("".join(web.url(key) + "\n" for key in REAL_SHAPES))
        result = politecrawl("run", str(seeds), "--db", "crawl.db", *SETTINGS, cwd=tmp_path)
        assert result.returncode in (0, 1), result.stderr
        truth = web.truth(seeds=[web.url(key) for key in REAL_SHAPES], guard=GUARD)
        report = audit(web.log, truth, delays=truth.delays(DELAY))
        requested = {url_of(request) for request in web.log}
        status = politecrawl("report", "--db", "crawl.db", cwd=tmp_path)
    assert report.ok, report.report()
    # What the draft's letter alone would have fetched, strict did not (the owners forbid it).
    draft_only = sorted(url for url, why in truth.never.items() if "rfc9309:" in why)
    assert len(draft_only) >= 8, draft_only
    assert not set(draft_only) & requested
    for key, path in [
        ("robots-real-docs", "/3.12/index.html"),
        ("robots-real-gitlab", "/gitlab-org/gitlab/issues.html"),
        ("robots-longest", "/example/page/index.html"),
        ("robots-longest", "/docs/manual.pdf.html"),
    ]:
        assert web.url(key, path) in requested  # what both readings allow is fetched
    assert "strict: rfc9309" in status.stdout  # the report names the reading that forbade
    print("\nM7: draft alone would have fetched, strict did not:\n  " + "\n  ".join(draft_only))


def test_a_command_hides_the_modules_it_imported_from_the_garbage_collector(tmp_path):
    """What a command imports lives as long as its process: frozen, the collector's full passes
    during a crawl and the interpreter's exit do not walk it. Only in the command's own process:
    a program that calls ``main`` goes on after it, with nothing frozen."""
    program = (
        "import gc, sys\n"
        "from politecrawl.cli.main import console, main\n"
        "before = gc.get_freeze_count()\n"
        "sys.argv = ['politecrawl', 'db', 'upgrade', '--db', sys.argv[1]]\n"
        "assert main(sys.argv[1:]) == 0 and gc.get_freeze_count() == 0\n"
        "status = console()\n"
        "print(before, gc.get_freeze_count(), status)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", program, str(tmp_path / "crawl.db")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, after, status = (int(word) for word in shown.stdout.splitlines()[-1].split())
    assert (before, status) == (0, 0)
    assert after > 10_000
