"""``--processes N``: one crawl on several cores, the per-host rules held across them, counted
as one run, stopped as one [P1, P2, C2, C5]."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.site import audit, build_site, serve
from tests.test_cli_crawl import ENV, GUARD, politecrawl, seeds_file

from politecrawl.config import CrawlConfig
from politecrawl.crawl import processes
from politecrawl.crawl.processes import HelperProcesses, share
from politecrawl.errors import UserInputError
from politecrawl.results import CrawlSummary
from politecrawl.warc import iter_records

DELAY = 0.05


def test_limits_are_shared_out_and_add_up_to_the_limit():
    for limit in (0, 1, 2, 7, 100):
        for count in (1, 2, 3, 4):
            shares = [share(limit, index, count) for index in range(count)]
            assert sum(s for s in shares if s is not None) == limit
            assert max(shares) - min(shares) <= 1  # type: ignore[operator]
    assert share(None, 1, 3) is None
    config = CrawlConfig(processes=3, max_pages=10)
    assert [share(config.scope.max_pages, i, config.crawl.processes) for i in range(3)] == [4, 3, 3]


def test_a_per_host_limit_is_refused_with_several_processes():
    with pytest.raises(UserInputError, match=r"processes.*max_pages_per_host"):
        CrawlConfig(processes=2, max_pages_per_host=5).validate()
    CrawlConfig(processes=1, max_pages_per_host=5).validate()


class _BusyCrawl:
    """A helper's crawl without a web: it counts a page every millisecond for ``seconds``, and
    fails at the end when ``failure`` is given."""

    def __init__(self, seconds: float, failure: str | None) -> None:
        self.summary = CrawlSummary()
        self._seconds = seconds
        self._failure = failure

    def stop(self) -> None:
        pass

    def interrupt(self) -> None:
        pass

    def crawl(self, *, handle_signals: bool = False):
        ends = time.monotonic() + self._seconds
        while time.monotonic() < ends:
            self.summary.pages += 1
            time.sleep(0.001)
            yield None
        if self._failure is not None:
            raise RuntimeError(self._failure)


def _busy_helper(config: dict, index: int, parent: int, slot) -> None:
    """A helper posting its counters a thousand times a second (2,000 times the real pace):
    through a queue that nobody reads, that fills a pipe in well under a second."""
    processes._REPORT_SECONDS = 0.001
    processes.serve(_BusyCrawl(config["seconds"], config["failure"]), parent, slot)


@pytest.mark.timeout(120)
def test_c5_a_helper_whose_parent_reads_nothing_still_ends_and_its_counters_arrive():
    helpers = HelperProcesses(_busy_helper, {"seconds": 1.5, "failure": None}, count=3)
    helpers.start()
    assert helpers.join() is None  # no read of progress before: nothing may block on us
    total = helpers.combined(CrawlSummary(pages=7))
    assert total.pages > 2 * 50 + 7  # both helpers' last counts (each counted for 1.5 s)


@pytest.mark.timeout(120)
def test_c5_a_helper_failure_reaches_the_parent_cut_to_size():
    helpers = HelperProcesses(_busy_helper, {"seconds": 0.2, "failure": "disk full " * 1000}, 2)
    helpers.start()
    failure = helpers.join()
    assert failure is not None
    assert failure.startswith(
        "a helper process of the crawl failed (what it recorded is kept): "
        "helper 1: RuntimeError: disk full disk full"
    )
    assert len(failure) < 2200


def _slow_starting_helper(config: dict, index: int, parent: int, slot) -> None:
    """A helper still starting (as while it imports and opens the database): SIGTERM has its
    default action, so it ends the process."""
    time.sleep(config["seconds"])


@pytest.mark.timeout(120)
def test_c5_a_helper_stopped_while_it_starts_is_not_a_failure():
    helpers = HelperProcesses(_slow_starting_helper, {"seconds": 60}, count=2)
    helpers.start()
    helpers.stop()  # as on Ctrl-C in the crawl's first second
    assert helpers.join() is None


@pytest.mark.timeout(120)
def test_c5_a_helper_ended_by_anyone_else_is_a_failure():
    helpers = HelperProcesses(_slow_starting_helper, {"seconds": 60}, count=2)
    helpers.start()
    (process,) = helpers._processes
    assert process.pid is not None
    os.kill(process.pid, signal.SIGTERM)
    failure = helpers.join()
    assert failure is not None
    assert failure.endswith(f"helper 1: exit status {-signal.SIGTERM}")


def _processes_working_in(directory: Path) -> list[int]:
    """Processes (other than this one) whose working directory is ``directory`` (Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if (entry / "cwd").readlink() == directory:
                    found.append(int(entry.name))
            except OSError:
                continue  # ended meanwhile, or not ours to read
    return found


def runs(database: Path) -> list[tuple[str | None, dict]]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT outcome, counters_json FROM crawl_runs ORDER BY id")
        return [(outcome, json.loads(counters)) for outcome, counters in rows]


TWO_PROCESSES = ["--db", "crawl.db", "--quiet", "--contact", "https://x.org/", "--processes=2"]


def _start_two_processes(web, tmp_path: Path, **output: object) -> subprocess.Popen:
    """``politecrawl run --processes=2`` on ``web`` at delay 0.3 s (a slow web: a stop or a kill
    comes mid-crawl), returned once both processes crawl; ``output``: where its standard output
    and error go (nowhere by default)."""
    seeds = seeds_file(web, tmp_path)
    streams = output or {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    parent = subprocess.Popen(
        [sys.executable, "-m", "politecrawl", "run", str(seeds), *TWO_PROCESSES, "--delay=0.3"],
        cwd=tmp_path,
        env={**os.environ, **ENV},
        text=True,
        **streams,
    )
    _wait_until_both_crawl(web, tmp_path / "crawl.db", parent)
    return parent


def _wait_until_both_crawl(web, database: Path, parent: subprocess.Popen) -> None:
    """Until both processes have started their runs and the server has had 20 requests: mid-
    crawl for both. (A helper takes a second or more to start on a busy machine; one stopped
    before then has nothing to stop, and a test of that is above.)"""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and parent.poll() is None:
        if len(web.log) >= 20 and database.exists():  # (connecting would make the file)
            try:
                if len(runs(database)) == 2:
                    return
            except sqlite3.Error:
                pass  # the database is still being made
        time.sleep(0.05)


@pytest.fixture
def web():
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as running:
        yield running


@pytest.mark.timeout(400)
def test_p1_p2_two_processes_crawl_one_sqlite_crawl_as_one_run(web, tmp_path):
    seeds = seeds_file(web, tmp_path)
    result = politecrawl(
        "run",
        str(seeds),
        "--db",
        "crawl.db",
        "--processes",
        "2",
        "--workers",
        "2",
        f"--delay={DELAY}",
        "--quiet",
        "--contact",
        "https://example.org/bot",
        "--warc",
        "warc",
        cwd=tmp_path,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    # Each process wrote WARC files of its own (its pid in the name), every one closed; between
    # them, one response or revisit record per request the server answered.
    files = sorted((tmp_path / "warc").glob("*.warc.gz"))
    assert len({path.name.rsplit("-", 1)[1] for path in files}) == 2
    assert not list((tmp_path / "warc").glob("*.open"))
    answers = sum(
        record.rec_type in ("response", "revisit")
        for path in files
        for record in iter_records(path)
    )
    assert answers == len(web.log)
    # From the server's log: every page the truth lists, nothing forbidden, no two requests to
    # a host at once or closer than its delay, nothing fetched twice.
    truth = web.truth(guard=GUARD)
    report = audit(web.log, truth, delays=truth.delays(DELAY))
    assert report.ok, report.report()
    # Both processes crawled (each records its own run), and the summary counts them both.
    recorded = runs(tmp_path / "crawl.db")
    assert len(recorded) == 2
    assert all(outcome == "finished" for outcome, _ in recorded)
    assert all(counters["pages"] > 0 for _, counters in recorded)
    total = sum(counters["pages"] for _, counters in recorded)
    assert f"{total} pages fetched" in result.stdout


@pytest.mark.timeout(400)
def test_c5_sigterm_stops_every_process_and_resume_finishes_the_crawl(tmp_path):
    # A slower web (delay 0.3 s) so that the stop comes mid-crawl.
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        parent = _start_two_processes(web, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert parent.poll() is None, "the crawl ended before the stop"
        parent.send_signal(signal.SIGTERM)
        _, err = parent.communicate(timeout=120)
        assert parent.returncode == 130, err
        assert "Traceback" not in err, err
        recorded = runs(tmp_path / "crawl.db")
        assert len(recorded) == 2
        assert all(outcome == "interrupted" for outcome, _ in recorded), recorded
        with sqlite3.connect(tmp_path / "crawl.db") as connection:
            leased = connection.execute("SELECT count(*) FROM urls WHERE state = 'leased'")
            assert leased.fetchone() == (0,)  # every request in flight was recorded
        requests_before = len(web.log)
        again = politecrawl("resume", *TWO_PROCESSES, f"--delay={DELAY}", cwd=tmp_path)
        assert again.returncode in (0, 1), again.stderr
        assert len(web.log) > requests_before
        truth = web.truth(guard=GUARD)
        report = audit(web.log, truth, delays=truth.delays(DELAY))  # 0.3 s, then DELAY
        assert report.ok, report.report()


def _helper_of(parent: int) -> int:
    """The pid of the helper process that ``parent`` started (Linux)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # ended meanwhile
        if int(stat.rpartition(")")[2].split()[1]) == parent and b"spawn_main" in command:
            return int(entry.name)
    raise AssertionError(f"no helper process of {parent}")


@pytest.mark.timeout(400)
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_c5_a_helper_signalled_twice_still_records_its_requests_in_flight(tmp_path):
    # As when a service manager signals every process of the crawl and the parent forwards its
    # own: the helper stops as on Ctrl-C, however often told, and records what it had in flight;
    # the parent crawls on to the end.
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        seeds = seeds_file(web, tmp_path)
        parent = subprocess.Popen(
            [sys.executable, "-m", "politecrawl", "run", str(seeds), "--db", "crawl.db",
             "--quiet", "--contact", "https://x.org/", "--processes=2", "--delay=0.3"],
            cwd=tmp_path,
            env={**os.environ, **ENV},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        _wait_until_both_crawl(web, tmp_path / "crawl.db", parent)
        helper = _helper_of(parent.pid)
        os.kill(helper, signal.SIGTERM)
        time.sleep(0.05)  # the slow pages take 0.3 s: its requests are still in flight
        os.kill(helper, signal.SIGTERM)
        _, err = parent.communicate(timeout=300)
        assert parent.returncode in (0, 1), err
        assert "helper process of the crawl failed" not in err, err
        assert [outcome for outcome, _ in runs(tmp_path / "crawl.db")] == [
            "finished",
            "interrupted",
        ]
        with sqlite3.connect(tmp_path / "crawl.db") as connection:
            leased = connection.execute("SELECT count(*) FROM urls WHERE state = 'leased'")
            assert leased.fetchone() == (0,)
        truth = web.truth(guard=GUARD)
        report = audit(web.log, truth, delays=truth.delays(0.3))
        assert report.ok, report.report()  # nothing fetched twice, nothing too close


def _is_running(pid: int) -> bool:
    """Whether ``pid`` is alive: not ended, nor a zombie waiting for its new parent to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


@contextlib.contextmanager
def _write_lock(database: Path) -> Iterator[None]:
    """Hold SQLite's write lock on ``database`` (taken as soon as no one else holds it)."""
    connection = sqlite3.connect(database, timeout=30, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        yield
        connection.execute("ROLLBACK")
    finally:
        connection.close()


@pytest.mark.timeout(200)
def test_c5_helpers_exit_at_once_when_the_parent_is_killed_and_resume_ends(tmp_path):
    # Issue 40: an orphaned helper that went on flushing kept a resumed run waiting. A helper
    # whose parent is killed now exits at once; what it had in flight returns to the queue.
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        parent = _start_two_processes(web, tmp_path)
        assert parent.poll() is None, "the crawl ended before the kill"
        helper = _helper_of(parent.pid)
        parent.kill()
        parent.wait()
        # The database stays locked meanwhile, as a dead parent's transaction or a slow flush
        # would keep it: a helper that tried to record anything before leaving would wait here.
        with _write_lock(tmp_path / "crawl.db"):
            deadline = time.monotonic() + 10  # it checks every 50 ms; slack for a busy machine
            while _is_running(helper) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not _is_running(helper), "the helper outlived its killed parent by 10 s"
        # Gone without recording its run as ended (as after a kill -9), and quiet from then on.
        assert [outcome for outcome, _ in runs(tmp_path / "crawl.db")] == [None, None]
        quiet_from = len(web.log)
        time.sleep(1.0)
        assert len(web.log) == quiet_from
        again = politecrawl("resume", *TWO_PROCESSES, f"--delay={DELAY}", cwd=tmp_path, timeout=150)
        assert again.returncode in (0, 1), again.stderr
        truth = web.truth(guard=GUARD)
        report = audit(web.log, truth, delays=truth.delays(DELAY))  # 0.3 s, then DELAY
        workers = CrawlConfig().crawl.workers
        # Fetched twice only what was in flight at the kill: a worker's request in each process.
        assert len(report.duplicates) <= 2 * workers, report.report()
        assert not report.forbidden, report.report()
        assert not report.missed, report.report()
        assert not report.robots_first, report.report()
        assert not report.overlaps, report.report()
        assert not report.gap_violations, report.report()


_PR_SET_CHILD_SUBREAPER = 36  # prctl(2): orphans below this process are reparented to it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.timeout(200)
def test_c5_a_helper_is_killed_with_its_parent_not_after_it(tmp_path):
    # A helper that outlived its killed parent even by the 50 ms of its own check could start a
    # request it would never record, fetched again by the resumed crawl beyond what was in
    # flight at the kill (seen in bench/run.py's kill-resume audit). The kernel now kills it
    # with its parent: it ends by SIGKILL, not by its own exit (status 3). This process adopts
    # the orphan (a subreaper) to read how it ended.
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        parent = _start_two_processes(web, tmp_path)
        libc = ctypes.CDLL(None, use_errno=True)
        try:
            helper = _helper_of(parent.pid)
            assert libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            parent.kill()
            parent.wait()
            deadline = time.monotonic() + 30
            ended, status = 0, 0
            while not ended and time.monotonic() < deadline:
                ended, status = os.waitpid(helper, os.WNOHANG)
                time.sleep(0.01)
        finally:
            libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
            if parent.poll() is None:
                parent.kill()
        assert ended == helper, "the helper outlived its killed parent by 30 s"
        assert os.WIFSIGNALED(status), f"the helper exited by itself ({os.WEXITSTATUS(status)})"
        assert os.WTERMSIG(status) == signal.SIGKILL
