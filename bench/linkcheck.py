"""Link checking, politecrawl against LinkChecker, on the test web's link-checking origins.

    .venv/bin/pip install -e '.[bench,peers]'  # LinkChecker (GPL) is in the peers extra
    make bench-linkcheck                         # the same, and the run
    .venv/bin/python bench/linkcheck.py [--delay 0.1] [--timeout 1] [--only linkchecker]

Serves the test web (tests/site: one loopback server per origin, 127.0.0.2 ...; its request
log is the servers' own) and points each tool at its ``linkcheck`` origin, whose pages link to
six outbound origins (tests/site/build_outbound.py): 200/404/410/500, a 301 -> 301 -> 200
chain, a server refusing HEAD, a robots.txt forbidding the linked page, a Crawl-delay of 0.3 s,
a page slower than the time-out; plus page resources and #fragment links.

- politecrawl: ``politecrawl check SITE --db <tmp>.db --delay D --timeout T --quiet`` (L5:
  outbound links, resources, fragments and sitemaps on); its findings read from its database.
- LinkChecker: ``linkchecker --check-extern -o csv --verbose --timeout T`` with a
  configuration file asking ``maxrequestspersecond = 1/D`` (its only pacing: a random wait of
  1 to 6 times that between requests to a host) and its AnchorCheck plugin on; its findings
  parsed from its CSV.

Each runs against fresh servers. The table: broken links reported (against the oracle's
``checked_broken``), missing fragments reported, requests made (HEAD / GET), wall time, and,
from the log: requests robots.txt forbids (the tool's own agent token), requests to pages
never linked from the site (second level), requests closer than the host's delay (the
larger of D and its Crawl-delay, P2), two requests in flight at once (P1), requests before
the origin's robots.txt was answered (O2). Prints; asserts nothing. Only 127.0.0.0/8.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.installed import compile_politecrawl  # noqa: E402
from tests.site import build_site, serve  # noqa: E402
from tests.site.audit import audit, url_of  # noqa: E402
from tests.site.canonical import canonical, origin_of, path_of  # noqa: E402
from tests.site.truth import robots_outcome  # noqa: E402

BIN = Path(sys.executable).parent
_LINKCHECKER_RC = """[checking]
maxrequestspersecond={rate:g}
timeout={timeout:g}
threads=10

[output]
verbose=1

[AnchorCheck]
"""


def _loopback_only(url: str) -> str:
    host = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[0]
    if not host.startswith("127."):
        raise SystemExit(f"refusing to point a tool at {url}: only 127.0.0.0/8")
    return url


def run_politecrawl(site_url: str, work: Path, args: argparse.Namespace) -> dict:
    db = work / "politecrawl.db"
    command = [
        str(BIN / "politecrawl"), "check", _loopback_only(site_url), "--db", str(db),
        "--delay", f"{args.delay:g}", "--timeout", f"{args.timeout:g}", "--quiet",
        "--contact", "https://example.org/bench",
    ]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    broken, fragments, note = set(), set(), f"exit {done.returncode}"
    if done.returncode not in (0, 1):
        note += ": " + (done.stderr.strip().splitlines() or ["?"])[-1][:120]
    if db.exists():
        broken, fragments = _politecrawl_findings(db)
    return {"wall": wall, "broken": broken, "fragments": fragments, "note": note}


def _politecrawl_findings(db: Path) -> tuple[set[str], set[tuple[str, str, str]]]:
    """Broken pages and checks, and missing fragments, as the contract's schema holds them."""
    broken: set[str] = set()
    fragments: set[tuple[str, str, str]] = set()
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
        rows = connection.execute(
            "SELECT url, status, state FROM urls WHERE state IN ('done', 'failed')"
        ).fetchall()
        broken = {
            canonical(url) or url
            for url, status, state in rows
            if state == "failed" or (status is not None and status >= 400)
        }
        with contextlib.suppress(sqlite3.Error):  # link_fragments: only with link checking
            found = connection.execute(
                "SELECT f.url, t.url, lf.fragment, t.anchors FROM link_fragments lf "
                "JOIN urls f ON f.id = lf.from_id JOIN urls t ON t.id = lf.to_id "
                "WHERE t.state = 'done' AND t.status BETWEEN 200 AND 299 "
                "AND t.anchors IS NOT NULL"
            ).fetchall()
            fragments = {
                (canonical(page) or page, canonical(target) or target, fragment)
                for page, target, fragment, anchors in found
                if fragment not in anchors.split("\n")
            }
    return broken, fragments


def run_linkchecker(site_url: str, work: Path, args: argparse.Namespace) -> dict:
    exe = shutil.which("linkchecker", path=str(BIN)) or shutil.which("linkchecker")
    if exe is None:
        return {"note": "not installed: pip install linkchecker"}
    rc = work / "linkcheckerrc"
    rc.write_text(_LINKCHECKER_RC.format(rate=1 / max(args.delay, 0.001), timeout=args.timeout))
    rc.chmod(0o644)  # run as root, LinkChecker drops to nobody
    command = [
        exe, "--config", str(rc), "--check-extern", "--output", "csv", "--verbose",
        "--no-status", "--timeout", f"{args.timeout:g}",
        "--ignore-url", "^mailto:",  # syntax only: its MX look-up would leave loopback
        _loopback_only(site_url),
    ]  # fmt: skip
    environment = os.environ | {"HOME": str(work)}
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=work, capture_output=True, text=True, check=False, env=environment
    )
    wall = time.monotonic() - started
    broken, fragments = set(), set()
    lines = [line for line in done.stdout.splitlines() if line and not line.startswith("#")]
    for row in csv.DictReader(io.StringIO("\n".join(lines)), delimiter=";"):
        url = canonical(row.get("url") or "") or row.get("url") or ""
        if row.get("valid", "").strip() in ("False", "0"):
            broken.add(url)
        warning = row.get("warningstring") or ""
        if "Anchor" in warning and (parent := canonical(row.get("parentname") or "")):
            fragment = warning.split("`", 1)[-1].split("'", 1)[0]
            fragments.add((parent, url, fragment))
    return {
        "wall": wall,
        "broken": broken,
        "fragments": fragments,
        "note": f"exit {done.returncode}",
    }


def from_log(log: list, truth, site, agent: str, delay: float) -> dict:
    """The request figures of one run, from the servers' log."""
    methods = Counter(r.method for r in log)
    forbidden = []
    outcomes = {}
    for request in log:
        url = url_of(request)
        if path_of(url) == "/robots.txt":
            continue
        origin = origin_of(url)
        if origin not in outcomes:
            outcomes[origin] = robots_outcome(site, origin, agent)
        outcome = outcomes[origin]
        allowed = outcome.kind != "disallow-all" and (
            outcome.rules is None or outcome.rules.verdict(agent, path_of(url))[0]
        )
        if not allowed:
            forbidden.append(url)
    result = audit(log, truth, delays=truth.delays(delay))
    second_level = [url for url, why in result.forbidden if why.startswith("L1")]
    return {
        "requests": len(log),
        "HEAD / GET": f"{methods['HEAD']} / {methods['GET']}",
        "forbidden by robots.txt": len(forbidden),
        "second-level requests (L1)": len(second_level),
        "closer than the host's delay (P2)": len(result.gap_violations),
        "in flight at once (P1)": len(result.overlaps),
        "before robots.txt (O2)": len(result.robots_first),
        "missed, unexpected, duplicates": (
            f"{len(result.missed)}, {len(result.unexpected)}, {len(result.duplicates)}"
        ),
        "_forbidden": forbidden,
        "_gaps": result.gap_violations,
        "_audit": result.report(),
        "_slow": [
            (r.method, round(r.started_at - log[0].started_at, 2), r.status)
            for r in log
            if r.url.endswith("/slow.html")
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.1, help="seconds between requests")
    parser.add_argument("--timeout", type=float, default=1.0, help="response time-out (s)")
    parser.add_argument("--only", choices=("politecrawl", "linkchecker"), default=None)
    parser.add_argument("--details", action="store_true", help="list every finding")
    args = parser.parse_args(argv)
    compile_politecrawl()
    site = build_site(crawl_delay_seconds=args.delay)
    tools = {"politecrawl": (run_politecrawl, "politecrawl")}
    tools["linkchecker"] = (run_linkchecker, "LinkChecker")
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="politecrawl-linkcheck-") as temporary:
        work = Path(temporary)
        work.chmod(0o755)
        for name, (runner, agent) in tools.items():
            if args.only and args.only != name:
                continue
            with serve(site) as web:
                truth = web.truth(
                    seeds=[web.url("linkcheck")],
                    check_outbound=True,
                    check_resources=True,
                    check_fragments=True,
                    response_timeout_seconds=args.timeout,
                )
                expected = set(truth.checked_broken)  # the ports are this run's
                expected_fragments = set(truth.missing_fragments)
                print(f"running {name} ...", flush=True)
                found = runner(web.url("linkcheck"), work, args)
                time.sleep(min(args.timeout, 1.0))  # a slow page's server notices the client left
                if "wall" in found:
                    found |= from_log(list(web.log), truth, web.site, agent, args.delay)
                found["_expected"], found["_expected_fragments"] = expected, expected_fragments
                results[name] = found
    some = next(iter(results.values()), {})
    print(
        f"\nlink checking: the test web's linkcheck origin and six outbound origins, "
        f"delay {args.delay:g} s, time-out {args.timeout:g} s; the oracle expects "
        f"{len(some.get('_expected', ()))} broken links and "
        f"{len(some.get('_expected_fragments', ()))} missing fragments"
    )
    print(table(results))
    for name, found in results.items():
        if "broken" not in found:
            continue
        expected, expected_fragments = found["_expected"], found["_expected_fragments"]
        missed, extra = sorted(expected - found["broken"]), sorted(found["broken"] - expected)
        if args.details or missed or extra:
            print(
                f"\n{name}: broken missed {missed or '-'}; "
                f"reported beyond the oracle {extra or '-'}"
            )
        if args.details:
            for finding in sorted(found["fragments"]):
                mark = "" if finding in expected_fragments else " (not in the oracle)"
                print(f"  missing fragment: {finding}{mark}")
            print(f"  the slow page: {found['_slow']}")
            print("  the oracle's audit: " + found["_audit"].replace("\n", "\n    "))
            for url in found["_forbidden"]:
                print(f"  forbidden by robots.txt: {url}")
            for gap in found["_gaps"]:
                print(
                    f"  {gap.gap_seconds:.3f}s < {gap.required_seconds}s: "
                    f"{gap.before} -> {gap.after}"
                )
    return 0


def table(results: dict[str, dict]) -> str:
    names = list(results)
    rows: list[list[str]] = [["", *names]]

    def cell(found: dict, key: str) -> str:
        if "wall" not in found:
            return "-"
        value = found[key]
        expected, fragments = found["_expected"], found["_expected_fragments"]
        if key == "broken":
            return f"{len(value & expected)}/{len(expected)} (+{len(value - expected)})"
        if key == "fragments":
            return f"{len(value & fragments)}/{len(fragments)} (+{len(value - fragments)})"
        if key == "wall":
            return f"{value:.1f}"
        return str(value)

    keys = {
        "broken links reported": "broken",
        "missing fragments reported": "fragments",
        "requests": "requests",
        "HEAD / GET": "HEAD / GET",
        "wall time (s)": "wall",
        "forbidden by robots.txt": "forbidden by robots.txt",
        "second-level requests (L1)": "second-level requests (L1)",
        "closer than the host's delay (P2)": "closer than the host's delay (P2)",
        "in flight at once (P1)": "in flight at once (P1)",
        "before robots.txt (O2)": "before robots.txt (O2)",
        "missed, unexpected, duplicates": "missed, unexpected, duplicates",
    }
    rows += [[label, *(cell(results[n], key) for n in names)] for label, key in keys.items()]
    rows.append(["run", *(results[n].get("note", "") for n in names)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            [row[0].ljust(widths[0])]
            + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        )
        for row in rows
    )


if __name__ == "__main__":
    raise SystemExit(main())
