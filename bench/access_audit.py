"""The access-log audit on a million lines: time and peak memory (issue 43, G1).

Writes a 1,000,000-line combined-format log of eight crawlers (``tests.audit_logs.bench_lines``)
and a real-shaped robots.txt, then runs, each in a process of its own:

- ``politecrawl audit`` on it (every check: robots.txt first, forbidden URLs in the strict
  reading, Crawl-delay, Request-rate, 429s, in flight), its JSON report written to a file;
- a peer: the short script site owners write, ``urllib.robotparser`` and a regular expression,
  doing the forbidden-request part alone (``PEER``).

Prints wall time and peak RSS of each; asserts nothing. ``--lines N`` for another size,
``--gzip`` to audit the log gzip-compressed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.audit_logs import ROBOTS, SITE, bench_lines

PEER = r"""
import re, sys, collections, urllib.robotparser
line_re = re.compile(r'\S+ \S+ \S+ \[[^\]]+\] "\S+ (\S+)[^"]*" \d{3} \S+ "[^"]*" "([^"]*)"')
parser = urllib.robotparser.RobotFileParser()
parser.parse(open(sys.argv[2]).read().splitlines())
forbidden = collections.Counter()
with open(sys.argv[1]) as log:
    for line in log:
        found = line_re.match(line)
        if found and not parser.can_fetch(found.group(2), found.group(1)):
            forbidden[found.group(2)] += 1
print(sum(forbidden.values()), "forbidden requests,", len(forbidden), "user agents")
"""


def measured(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MiB and standard output of a command in a process of its own
    (its own peak, from ``wait4``: not the largest of every child so far)."""
    with tempfile.TemporaryFile("w+") as out:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0 and process.stderr is not None:
            print(process.stderr.read().decode(), file=sys.stderr)
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--gzip", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "access.log"
        robots = Path(folder) / "robots.txt"
        robots.write_text(ROBOTS)
        with log.open("w") as out:
            for text in bench_lines(args.lines):
                out.write(text + "\n")
        audited = log
        if args.gzip:
            audited = Path(folder) / "access.log.gz"
            with log.open("rb") as raw, gzip.open(audited, "wb") as packed:
                # Streamed: a child's peak RSS starts from this process's at the fork.
                shutil.copyfileobj(raw, packed)
        size_mib = audited.stat().st_size / 2**20
        print(f"log: {args.lines:,} lines, {size_mib:.0f} MiB{' gzip' if args.gzip else ''}")
        print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
        audit = [sys.executable, "-m", "politecrawl", "audit", str(audited)]
        report = Path(folder) / "audit.json"
        audit += ["--robots", str(robots), "--site", SITE, "--format", "json", "--out", str(report)]
        load = os.getloadavg()[0]
        wall, peak, _ = measured(audit)
        print(
            f"politecrawl audit, every check:             {wall:6.1f} s, peak RSS {peak:5.1f} MiB"
        )
        crawlers = json.loads(report.read_text())["crawlers"]
        ours = sum(crawler["forbidden_requests"] for crawler in crawlers)
        print(f"  it found {ours} forbidden requests (strict reading)")
        wall, peak, out = measured([sys.executable, "-c", PEER, str(log), str(robots)])
        print(
            f"urllib.robotparser + regex, forbidden only: {wall:6.1f} s, peak RSS {peak:5.1f} MiB"
        )
        print(f"  the peer found {out.strip()}")
        print(f"load average before the runs: {load:.1f}")


if __name__ == "__main__":
    main()
