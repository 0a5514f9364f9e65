"""politecrawl against Scrapy on a local multi-host web: one table (issue 7).

    .venv/bin/python bench/run.py --quick                          # H=5, P=40: a smoke run
    .venv/bin/python bench/run.py --hosts 20 --pages 500 --delay 0
    .venv/bin/python bench/run.py --hosts 20 --pages 50 --delay 0.2
    .venv/bin/python bench/run.py --hosts 100 --pages 1000 --kill-resume
    make bench-million     # H=200 P=5000 on PostgreSQL, --processes 2, killed and resumed

Generates the web (``web_gen.py``) in a temporary directory, serves it with nginx
(``web_serve.py``; ``apt-get install -y nginx``), then runs, one after the other, each on a
fresh access log:

- politecrawl: the command line in a subprocess, ``politecrawl run seeds.txt --db <tmp>.db
  --delay D --workers N --max-depth 10 --quiet`` (``--procs N``: N processes on one database,
  the first ``run``, the others ``resume``); ``--kill-resume`` kills it (SIGKILL, every
  process: a crash; ``--kill-signal TERM``: a stop, as Ctrl-C) once half the truth's URLs are
  in the log, then runs ``politecrawl resume``;
- Scrapy (``scrapy_spider.py``): ROBOTSTXT_OBEY, one request per domain, DOWNLOAD_DELAY=D
  unrandomised, AutoThrottle off, DEPTH_LIMIT=10.

Each is measured from outside: wall time, CPU time (user + system), peak RSS of its whole process
tree and of its largest process (psutil, sampled every 50 ms), for politecrawl its database's
size after the run (and per million URLs), and audited from the server's log (``audit_log.py``,
with useful pages/s for each tenth of the crawl). The table gives both and the ratio
politecrawl / Scrapy. Nothing is asserted; ``--json`` keeps the
figures. Only loopback addresses are used (127.0.0.2 ... and 127.0.1.1).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from audit_log import Audit, audit, read_log  # noqa: E402
from installed import compile_politecrawl  # noqa: E402
from postgres_load import ServerLoad  # noqa: E402
from web_gen import OUTSIDE_ADDRESS, canonical, generate, split_url  # noqa: E402
from web_serve import NGINX, Nginx, free_port  # noqa: E402

BIN = Path(sys.executable).parent
MAX_DEPTH = 10


@dataclass
class Measure:
    wall: float = 0.0
    cpu: float = 0.0
    peak_rss: int = 0
    peak_rss_process: int = 0  # the largest RSS seen for any one process of the tree
    db_bytes: int | None = None  # the crawl database on disk after the run (politecrawl)
    db_urls: int | None = None  # rows in its urls table
    returncodes: list[int] = field(default_factory=list)
    timed_out: bool = False
    kill_at: float | None = None
    note: str = ""


class TreeSampler(threading.Thread):
    """Peak summed RSS of some processes and all their descendants (``peak``), and the peak
    RSS of any single one of them (``peak_process``)."""

    def __init__(self, interval: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.roots: list[psutil.Process] = []
        self.peak = 0
        self.peak_process = 0
        self.done = threading.Event()
        self.lock = threading.Lock()

    def add(self, pid: int) -> None:
        with self.lock, contextlib.suppress(psutil.NoSuchProcess):
            self.roots.append(psutil.Process(pid))

    def run(self) -> None:
        while not self.done.is_set():
            total = 0
            with self.lock:
                roots = list(self.roots)
            for root in roots:
                try:
                    processes = [root, *root.children(recursive=True)]
                except psutil.NoSuchProcess:
                    continue
                for process in processes:
                    with contextlib.suppress(psutil.NoSuchProcess):
                        rss = process.memory_info().rss
                        total += rss
                        self.peak_process = max(self.peak_process, rss)
            self.peak = max(self.peak, total)
            self.done.wait(self.interval)


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class LineCounter:
    """Lines in a growing file, reading only what was appended since the last call (a
    million-line access log is not read again every 50 ms)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.lines = 0

    def __call__(self) -> int:
        try:
            with self.path.open("rb") as file:
                file.seek(self.offset)
                for chunk in iter(lambda: file.read(1 << 20), b""):
                    self.lines += chunk.count(b"\n")
                    self.offset += len(chunk)
        except FileNotFoundError:
            pass
        return self.lines


def run_phase(
    commands: list[list[str]],
    *,
    logs: Path,
    name: str,
    timeout: float,
    sampler: TreeSampler,
    stagger_until: Path | None = None,
    kill_when_lines: int | None = None,
    access_log: Path | None = None,
    kill_signal: signal.Signals = signal.SIGKILL,
) -> tuple[list[int], bool, float | None]:
    """Start the commands (each in its own process group), wait for them; (returncodes,
    timed out, kill time). ``kill_when_lines``: send ``kill_signal`` to every group once the
    access log has that many lines (SIGTERM lets politecrawl finish what is in flight)."""
    processes: list[subprocess.Popen[bytes]] = []
    deadline = time.monotonic() + timeout
    stagger_lines = LineCounter(stagger_until) if stagger_until is not None else None
    log_lines = LineCounter(access_log) if access_log is not None else None
    for index, command in enumerate(commands):
        if index and stagger_lines is not None:  # let the first create the database
            while stagger_lines() == 0 and time.monotonic() < deadline:
                time.sleep(0.02)
        out = (logs / f"{name}-{index}.out").open("wb")
        err = (logs / f"{name}-{index}.err").open("wb")
        process = subprocess.Popen(command, stdout=out, stderr=err, start_new_session=True)
        processes.append(process)
        sampler.add(process.pid)
    timed_out = False
    kill_at = None
    while any(p.poll() is None for p in processes):
        if time.monotonic() > deadline:
            timed_out = True
            break
        if (
            kill_when_lines is not None
            and log_lines is not None
            and kill_at is None
            and log_lines() >= kill_when_lines
        ):
            kill_at = time.time()
            for process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, kill_signal)
            break
        time.sleep(0.05)
    if timed_out:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
    codes = [p.wait() for p in processes]
    return codes, timed_out, kill_at


def politecrawl_commands(
    site: Path,
    db: Path | str,
    *,
    delay: float,
    workers: int,
    procs: int,
    processes: int = 1,
    resume: bool = False,
    warc: Path | None = None,
) -> list[list[str]]:
    common = ["--db", str(db), "--delay", f"{delay:g}", "--workers", str(workers), "--quiet"]
    common += ["--processes", str(processes)]
    if warc is not None:
        common += ["--warc", str(warc)]
    first = [str(BIN / "politecrawl"), "run", str(site / "seeds.txt"), *common]
    first += ["--max-depth", str(MAX_DEPTH)]
    again = [str(BIN / "politecrawl"), "resume", *common]
    return [again if resume or index else first for index in range(procs)]


PROFILE_GIL = False
"""``--profile-gil``: sample only the thread holding the GIL (Python's CPU time, waits left out)."""


def profiled(commands: list[list[str]], profile_dir: Path | None, tag: str) -> list[list[str]]:
    if profile_dir is None:
        return commands
    spy = shutil.which("py-spy", path=str(BIN)) or shutil.which("py-spy")
    if spy is None:
        print("py-spy not installed: pip install py-spy", file=sys.stderr)
        return commands
    profile_dir.mkdir(parents=True, exist_ok=True)
    return [
        [spy, "record", "--rate", "200", "--format", "raw", "--threads", "--nonblocking",
         *(["--gil"] if PROFILE_GIL else []),
         "-o", str(profile_dir / f"{tag}-{i}.txt"), "--", *command]
        for i, command in enumerate(commands)
    ]  # fmt: skip


def fresh_postgres(url: str) -> str:
    """A SQLAlchemy URL whose connections use a new, empty schema of the server at ``url``."""
    import psycopg  # noqa: PLC0415 (only with --postgres)

    schema = f"bench_{int(time.time())}"
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    return f"{url}?options=-csearch_path%3D{schema}"


def run_politecrawl(args: argparse.Namespace, site: Path, work: Path, truth: dict) -> tuple:
    db: Path | str = work / "politecrawl.db"
    for suffix in ("", "-wal", "-shm", "-lock"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    if args.postgres:
        db = fresh_postgres(args.postgres)
    measure = Measure()
    sampler = TreeSampler()
    sampler.start()
    load = ServerLoad(*_postgres_schema(db)) if isinstance(db, str) else contextlib.nullcontext()
    with Nginx(site, work / "nginx", log_name="politecrawl.log") as server, load:
        cpu0, start = _cpu_children(), time.monotonic()
        commands = politecrawl_commands(
            site,
            db,
            delay=args.delay,
            workers=args.workers,
            procs=args.procs,
            processes=args.processes,
            warc=work / "warc" if args.warc else None,
        )
        commands = profiled(commands, args.profile, "politecrawl")
        kill_lines = len(truth["must"]) // 2 if args.kill_resume else None
        codes, timed_out, kill_at = run_phase(
            commands,
            logs=work,
            name="politecrawl",
            timeout=args.timeout,
            sampler=sampler,
            stagger_until=server.log_path,
            kill_when_lines=kill_lines,
            access_log=server.log_path,
            kill_signal=signal.Signals[f"SIG{args.kill_signal}"],
        )
        measure.returncodes += codes
        measure.timed_out = timed_out
        if kill_at is not None:
            measure.kill_at = kill_at
            after = kill_at - time.time() + time.monotonic() - start
            measure.note = f"killed (SIG{args.kill_signal}) after {after:.1f} s, resumed"
            commands = politecrawl_commands(
                site,
                db,
                delay=args.delay,
                workers=args.workers,
                procs=args.procs,
                processes=args.processes,
                resume=True,
            )
            codes, timed_out, _ = run_phase(
                profiled(commands, args.profile, "politecrawl-resume"),
                logs=work,
                name="politecrawl-resume",
                timeout=max(1.0, args.timeout - (time.monotonic() - start)),
                sampler=sampler,
                stagger_until=None,
            )
            measure.returncodes += codes
            measure.timed_out |= timed_out
        measure.wall = time.monotonic() - start
        measure.cpu = _cpu_children() - cpu0
    sampler.done.set()
    sampler.join()
    measure.peak_rss = sampler.peak
    measure.peak_rss_process = sampler.peak_process
    measure.db_bytes, measure.db_urls = database_size(db)
    indexable = politecrawl_indexable(db)
    result = audit(
        read_log(server.log_path),
        truth,
        delay=args.delay,
        handed_out_indexable=indexable,
        kill_at=measure.kill_at,
    )
    if isinstance(load, ServerLoad):
        print(load.report(result.requests), flush=True)
    return measure, result


def _postgres_schema(db: str) -> tuple[str, str]:
    """(libpq URL, schema) of a URL made by ``fresh_postgres``."""
    base, _, options = db.partition("?options=")
    return base.replace("+psycopg", ""), options.rpartition("%3D")[2]


def database_size(db: Path | str) -> tuple[int, int]:
    """(bytes on disk, rows in ``urls``) of the crawl's database after the run. SQLite: the
    file plus its -wal; PostgreSQL: pg_total_relation_size (heap, indexes, TOAST) summed over
    the tables of the bench's fresh schema."""
    count = "SELECT count(*) FROM urls"
    if isinstance(db, str):  # PostgreSQL
        import psycopg  # noqa: PLC0415 (only with --postgres)

        base, schema = _postgres_schema(db)
        with psycopg.connect(base, autocommit=True) as connection:
            size = connection.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind IN ('r', 'p')",
                (schema,),
            ).fetchone()
            connection.execute(f'SET search_path TO "{schema}"')
            urls = connection.execute(count).fetchone()
        return int(size[0]) if size else 0, int(urls[0]) if urls else 0
    size = sum(
        Path(str(db) + suffix).stat().st_size
        for suffix in ("", "-wal")
        if Path(str(db) + suffix).exists()
    )
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        urls = connection.execute(count).fetchone()[0]
    return size, int(urls)


def politecrawl_indexable(db: Path | str) -> set[str]:
    """URLs politecrawl recorded as indexable (a 2xx page without noindex, T5)."""
    query = "SELECT url, status, noindex FROM urls WHERE state = 'done'"
    if isinstance(db, str):  # PostgreSQL
        import psycopg  # noqa: PLC0415 (only with --postgres)

        base, schema = _postgres_schema(db)
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f'SET search_path TO "{schema}"')
            rows = connection.execute(query).fetchall()
    else:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            rows = connection.execute(query).fetchall()
    return {
        canonical(url) or url
        for url, status, noindex in rows
        if status is not None and 200 <= status < 300 and not noindex
    }


def run_scrapy(args: argparse.Namespace, site: Path, work: Path, truth: dict) -> tuple:
    items = work / "scrapy-items.jsonl"
    items.unlink(missing_ok=True)
    command = [
        sys.executable, str(HERE / "scrapy_spider.py"), "--seeds", str(site / "seeds.txt"),
        "--delay", f"{args.delay:g}", "--depth", str(MAX_DEPTH), "--out", str(items),
        "--concurrency", str(args.scrapy_concurrency), "--order", args.scrapy_order,
    ]  # fmt: skip
    measure, log = _run_peer(
        args, site, work, "scrapy", profiled([command], args.profile, "scrapy")
    )
    indexable = set()
    if items.exists():
        for line in items.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item.get("indexable") and 200 <= item.get("status", 0) < 300:
                indexable.add(canonical(item["url"]) or item["url"])
    return measure, audit(read_log(log), truth, delay=args.delay, handed_out_indexable=indexable)


def run_wget(args: argparse.Namespace, site: Path, work: Path, truth: dict) -> tuple:
    """GNU wget, recursive, robots.txt on, the same delay and depth, across the seeded hosts
    (``-H -D``): the tool many site owners reach for first."""
    hosts = sorted({split_url(seed)[1] for seed in truth["seeds"]})
    target = work / "wget"
    shutil.rmtree(target, ignore_errors=True)
    command = [
        "wget", "--recursive", f"--level={MAX_DEPTH}", "--execute", "robots=on",
        f"--wait={args.delay:g}", "--span-hosts", f"--domains={','.join(hosts)}",
        "--input-file", str(site / "seeds.txt"), "--directory-prefix", str(target),
        "--no-verbose", "--tries=2", "--timeout=30", "--user-agent=wget/bench",
    ]  # fmt: skip
    measure, log = _run_peer(args, site, work, "wget", [command])
    return measure, audit(read_log(log), truth, delay=args.delay, handed_out_indexable=set())


def _run_peer(
    args: argparse.Namespace, site: Path, work: Path, name: str, commands: list[list[str]]
) -> tuple[Measure, Path]:
    """Run a peer crawler against a fresh nginx, measured from outside; its access log."""
    measure = Measure()
    sampler = TreeSampler()
    sampler.start()
    with Nginx(site, work / "nginx", log_name=f"{name}.log") as server:
        cpu0, start = _cpu_children(), time.monotonic()
        codes, timed_out, _ = run_phase(
            commands, logs=work, name=name, timeout=args.timeout, sampler=sampler
        )
        measure.wall = time.monotonic() - start
        measure.cpu = _cpu_children() - cpu0
        measure.returncodes, measure.timed_out = codes, timed_out
    sampler.done.set()
    sampler.join()
    measure.peak_rss = sampler.peak
    measure.peak_rss_process = sampler.peak_process
    return measure, server.log_path


# --- the table ----------------------------------------------------------------------------------


Row = float | int | str | list[float] | None


def rows(measure: Measure, result: Audit) -> dict[str, Row]:
    per_million = None
    if measure.db_bytes is not None and measure.db_urls:
        per_million = measure.db_bytes / measure.db_urls  # bytes per URL = MB per 1M URLs
    return {
        "recall": result.recall,
        "missed": len(result.missed),
        "forbidden fetches": len(result.forbidden),
        "  of which only RFC 9309 forbids": sum(
            "RFC 9309 reading" in why for _, why in result.forbidden
        ),
        "robots.txt-first violations (O2)": len(result.robots_first),
        "overlaps (P1)": len(result.overlaps),
        "gap violations (P2)": len(result.gap_violations),
        "  of which Crawl-delay": result.crawl_delay_violations,
        "duplicates (C2/C5)": len(result.duplicates),
        "  in flight at the kill": len(result.duplicates_in_flight),
        "noindex handed out as indexable": len(result.noindex_indexable),
        "requests": result.requests,
        "TCP connections": result.connections,
        "useful pages/s": result.useful_per_second,
        "pages/s by tenth": result.by_tenth,
        "last tenth / first tenth": result.last_over_first,
        "raw requests/s": result.raw_per_second,
        "makespan efficiency": result.makespan_efficiency,
        "crawl span (s)": result.span,
        "wall time (s)": measure.wall,
        "CPU time (s)": measure.cpu,
        "peak RSS (MB)": measure.peak_rss / 1e6,
        "peak RSS per process (MB)": measure.peak_rss_process / 1e6,
        "database size (MB)": None if measure.db_bytes is None else measure.db_bytes / 1e6,
        "URLs in the database": measure.db_urls,
        "database MB per 1M URLs": per_million,
    }


RATIO_ROWS = (
    "useful pages/s",
    "raw requests/s",
    "makespan efficiency",
    "crawl span (s)",
    "wall time (s)",
    "CPU time (s)",
    "peak RSS (MB)",
    "peak RSS per process (MB)",
)


def fmt(name: str, value: Row) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(f"{figure:.0f}" for figure in value) or "-"
    if name == "recall":
        return f"{value:.2%}"
    if isinstance(value, int):
        return f"{value:,}"
    if name in ("makespan efficiency", "last tenth / first tenth"):
        return f"{value:.3f}"
    return f"{value:,.1f}"


def table(results: dict[str, dict], *, markdown: bool = False) -> str:
    names = list(results)
    header = ["", *names]
    if len(names) == 2:
        header.append(f"{names[0]}/{names[1]}")
    body = []
    for row in next(iter(results.values())):
        line = [row, *(fmt(row, results[n][row]) for n in names)]
        if len(names) == 2:
            a, b = results[names[0]][row], results[names[1]][row]
            ratio = f"{a / b:.2f}" if row in RATIO_ROWS and a is not None and b else ""
            line.append(ratio)
        body.append(line)
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(line) + " |" for line in body]
        return "\n".join(out)
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    out = []
    for line in [header, *body]:
        cells = [line[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells))
    return "\n".join(out)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = psutil.virtual_memory().total / 2**30
    versions = []
    for package in ("scrapy", "twisted"):
        with contextlib.suppress(PackageNotFoundError):
            versions.append(f"{package} {version(package)}")
    nginx = subprocess.run(
        [NGINX, "-v"], capture_output=True, text=True, check=False
    ).stderr.strip()
    return (
        f"{os.cpu_count()} cores ({cpu}), {memory:.0f} GiB, Python {platform.python_version()}, "
        f"{', '.join(versions)}, {nginx.replace('nginx version: ', '')}"
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    option = parser.add_argument
    option("--quick", action="store_true", help="H=5, P=40: a smoke run")
    option("--hosts", type=int, default=20)
    option("--pages", type=int, default=500)
    option("--delay", type=float, default=0.0)
    option("--seed", type=int, default=7)
    option("--faults", action="store_true", help="a page that always answers 500 on every "
           "third host, a host asking for Request-rate (what real sites have)")  # fmt: skip
    option("--trickle", action="store_true",
           help="a page and a robots.txt sent at one byte a second, a page that "
           "never answers")  # fmt: skip
    option("--workers", type=int, default=4, help="politecrawl threads per process")
    option("--procs", type=int, default=1, help="politecrawl commands on one database")
    option("--processes", type=int, default=1, help="politecrawl run --processes N")
    option("--warc", action="store_true", help="politecrawl writes WARC files (work dir/warc)")
    option(
        "--postgres",
        metavar="URL",
        help="politecrawl's database on this PostgreSQL server (a fresh schema), e.g. "
        "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    )
    option("--scrapy-concurrency", type=int, default=None, help="default: max(16, hosts)")
    option("--scrapy-order", choices=("bfs", "dfs"), default="bfs", help="see scrapy_spider.py")
    option("--kill-resume", action="store_true", help="politecrawl: kill mid-way, resume")
    option(
        "--kill-signal",
        choices=("KILL", "TERM"),
        default="KILL",
        help="KILL: a crash (requests in flight are lost and fetched again); TERM: a stop",
    )
    option("--only", choices=("politecrawl", "scrapy", "wget"), default=None)
    option("--wget", action="store_true", help="also GNU wget -r (robots=on, --wait)")
    option("--timeout", type=float, default=1800, help="seconds per crawler")
    option("--work", type=Path, default=None, help="keep everything here")
    option(
        "--reuse-web",
        action="store_true",
        help="with --work: serve the web an earlier run generated there (same options)",
    )
    option("--profile", type=Path, default=None, help="py-spy raw profiles here")
    option(
        "--profile-gil",
        action="store_true",
        help="profile only the thread holding the GIL: Python's CPU time, not its waits",
    )
    option("--details", action="store_true", help="print every finding")
    option("--json", type=Path, default=None, help="write the figures here")
    option("--markdown", action="store_true", help="the table as Markdown")
    args = parser.parse_args(argv)
    if args.quick:
        args.hosts, args.pages = 5, 40
    if args.scrapy_concurrency is None:
        args.scrapy_concurrency = max(16, args.hosts)
    return args


def main(argv: list[str] | None = None) -> int:
    global PROFILE_GIL  # noqa: PLW0603 (one switch for profiled())
    args = parse_args(argv)
    PROFILE_GIL = args.profile_gil
    compile_politecrawl()
    if not Path(NGINX).exists():
        print("run.py needs nginx: apt-get install -y nginx", file=sys.stderr)
        return 2
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        compare(args, args.work)
    else:
        with tempfile.TemporaryDirectory(prefix="politecrawl-bench-") as temporary:
            # nginx's workers run as an unprivileged user when it is started by root: they must
            # be able to read the site (mkdtemp makes the directory private to its owner).
            Path(temporary).chmod(0o755)
            compare(args, Path(temporary))
    return 0


def compare(args: argparse.Namespace, work: Path) -> None:
    """Generate the web, run each crawler on it, print the table."""
    addresses = [f"127.0.0.{i + 2}" for i in range(args.hosts)] + [OUTSIDE_ADDRESS]
    site = work / "site"
    started = time.monotonic()
    if args.reuse_web and (site / "truth.json").exists():
        # the web of an earlier run with the same options, kept with --work (minutes saved)
        truth = json.loads((site / "truth.json").read_text(encoding="utf-8"))
    else:
        if site.exists():
            shutil.rmtree(site)
        truth = generate(
            site, hosts=args.hosts, pages=args.pages, port=free_port(addresses),
            delay=args.delay, seed=args.seed, max_depth=MAX_DEPTH, faults=args.faults,
            trickle=args.trickle,
        )  # fmt: skip
    scenario = (
        f"H={args.hosts} P={args.pages} delay={args.delay:g}s depth={MAX_DEPTH} "
        f"seed={args.seed}: {len(truth['must']):,} URLs to fetch, {len(truth['never']):,} "
        f"never (+ trap, outside){'; faults' if args.faults else ''}"
        f"{'; a trickling page and robots.txt, a hanging page' if args.trickle else ''}; "
        f"politecrawl --workers {args.workers} "
        f"--procs {args.procs} --processes {args.processes}"
        f"{' --kill-resume' if args.kill_resume else ''}; Scrapy CONCURRENT_REQUESTS="
        f"{args.scrapy_concurrency}, {args.scrapy_order}"
    )
    print(f"{scenario}\n(web generated in {time.monotonic() - started:.1f} s)", flush=True)
    results: dict[str, dict] = {}
    audits: dict[str, Audit] = {}
    kills: dict[str, float | None] = {}
    runners = {"politecrawl": run_politecrawl, "scrapy": run_scrapy}
    if args.wget or args.only == "wget":
        runners["wget"] = run_wget
    for name, runner in runners.items():
        if args.only and args.only != name:
            continue
        print(f"running {name} ...", flush=True)
        measure, audits[name] = runner(args, site, work, truth)
        kills[name] = measure.kill_at
        results[name] = rows(measure, audits[name])
        status = f"exit {measure.returncodes}"
        status += ", TIMED OUT" if measure.timed_out else ""
        status += f", {measure.note}" if measure.note else ""
        print(f"  {name}: {status}, wall {measure.wall:.1f} s", flush=True)
    about = machine()
    print(f"\nmachine: {about}\n{scenario}")
    print(table(results, markdown=args.markdown))
    for name, result in audits.items():
        if args.details or name == "politecrawl":
            print(f"\n{name} findings:\n{result.report(limit=1000 if args.details else 10)}")
    if args.json:
        figures = {
            "scenario": scenario,
            "machine": about,
            "results": results,
            "kill_at": kills,  # for audit_log.py --kill-at on a kept log
        }
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
