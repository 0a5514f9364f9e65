"""Looking at a crawl from the command line: ``status``, ``report``, ``why``, ``robots show``
and ``db upgrade``.

Read-only but for ``db upgrade`` (which only migrates). Each opens the database given by
``--db`` (a path or a SQLAlchemy URL); a path that is not a crawl database is refused untouched.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from politecrawl.errors import UserInputError
from politecrawl.report.model import Report, counted
from politecrawl.report.tables import without_spec_ids
from politecrawl.robots import RobotsLimits
from politecrawl.store import Frontier, RobotsOutcomeStore, open_database, upgrade_database
from politecrawl.store.reading import ServerHosts, host_waits
from politecrawl.urls import InvalidURL, canonicalize, origin_of, split_canonical


def status_command(args: argparse.Namespace) -> int:
    """Frontier counts by state, hosts and what they wait for, robots.txt outcome per origin."""
    database = open_database(args.db, create=False)
    try:
        now = datetime.now(UTC)
        stats = Frontier(database).stats(now=now)
        waits = host_waits(database)
        outcomes = RobotsOutcomeStore(database).all()
    finally:
        database.close()
    out = sys.stdout
    print(f"crawl database {args.db}: {counted(stats.total, 'URL')}", file=out)
    for state, count in stats.by_state.items():
        if count:
            print(f"  {state:<13} {count:>8}", file=out)
    if stats.next_ready_at is not None:
        wait = (stats.next_ready_at - now).total_seconds()
        when = "now" if wait <= 0 else f"in {wait:.1f} s"
        print(f"next URL ready: {when}", file=out)
    print("hosts with work left:" if waits else "hosts with work left: none", file=out)
    for host in waits:
        print(
            f"  {host.host}: {host.queued} queued, {host.deferred} deferred; {host.why(now)}",
            file=out,
        )
    held = sorted({host.server for host in waits if host.server_wait(now) and host.server})
    if held:  # P6: host names on one machine share its pace
        count = sum(1 for host in waits if host.server_wait(now))
        print(f"{counted(count, 'host')} waiting for their server: {', '.join(held)}", file=out)
    print("robots.txt per origin:", file=out)
    # An origin whose robots.txt is unknown is listed only while its host has work left; the
    # others (links out of scope, checks made by HEAD without robots.txt) are counted.
    busy = {host.host for host in waits}
    idle = 0
    for origin, outcome in sorted(outcomes.items()):
        if outcome is None:
            if split_canonical(origin + "/")[1] not in busy:
                idle += 1
                continue
            print(f"  {origin}: not fetched yet", file=out)
            continue
        until = outcome.expires_at or outcome.retry_at
        until_text = f" (until {until:%Y-%m-%d %H:%M:%S} UTC)" if until else ""
        reason = without_spec_ids(outcome.reason)
        print(f"  {origin}: {outcome.kind}: {reason}{until_text}", file=out)
    if idle:
        print(f"  and {counted(idle, 'other origin')} with nothing to fetch", file=out)
    return 0


def robots_show_command(args: argparse.Namespace) -> int:
    """The cached robots.txt of one origin, its outcome and its expiry."""
    try:
        origin = str(origin_of(args.origin))
    except InvalidURL as error:
        raise UserInputError(f"not an origin or URL: {args.origin!r} ({error.reason})") from None
    database = open_database(args.db, create=False)
    try:
        outcome = RobotsOutcomeStore(database).get(origin)
    finally:
        database.close()
    if outcome is None:
        print(f"{origin}: robots.txt not fetched (yet) in this crawl")
        return 1
    print(f"{origin}: {outcome.kind} (HTTP {outcome.status}): {without_spec_ids(outcome.reason)}")
    if outcome.expires_at is not None:
        print(f"fresh until {outcome.expires_at:%Y-%m-%d %H:%M:%S} UTC")
    if outcome.retry_at is not None:
        print(f"retry at {outcome.retry_at:%Y-%m-%d %H:%M:%S} UTC")
    if outcome.etag or outcome.last_modified:
        print(f"validators: ETag {outcome.etag}, Last-Modified {outcome.last_modified}")
    if outcome.body is not None:
        print("---")
        print(outcome.body.decode("utf-8", "replace").rstrip("\n"))
    return 0


def db_upgrade_command(args: argparse.Namespace) -> int:
    """Apply the schema migrations (opening a database does it too)."""
    revision = upgrade_database(args.db)
    print(f"{args.db}: schema at revision {revision}")
    return 0


def report_command(args: argparse.Namespace) -> int:
    """The site-maintenance report, as text, CSV, JSON or one self-contained HTML file."""
    from politecrawl.report import build_report  # noqa: PLC0415 (only this command needs it)

    if args.compare or args.pass_number is not None:
        if args.format == "junit":
            raise UserInputError("--compare has no junit format (text, csv, json or html)")
        return _compare_command(args)
    settings = _crawl_settings(args.db)
    database = open_database(args.db, create=False)
    try:
        report = build_report(
            database,
            agent=settings.agent,
            slow_seconds=args.slow,
            max_redirects=settings.max_redirects,
            robots_limits=settings.robots_limits,
            purpose=settings.purpose,
        )
    finally:
        database.close()
    return write_output(render_report(report, args.format), args.out)


def render_report(report: Report, form: str) -> str:
    """``report`` as text, csv, json, html or junit (``report`` and ``check`` share it)."""
    from politecrawl.report import (  # noqa: PLC0415 (only the report commands need them)
        render_csv,
        render_json,
        render_junit,
        render_text,
    )
    from politecrawl.report.html import render_html  # noqa: PLC0415

    renderers: dict[str, Callable[[Report], str]] = {
        "text": render_text,
        "csv": render_csv,
        "json": render_json,
        "html": render_html,
        "junit": render_junit,
    }
    return renderers[form](report)


def _compare_command(args: argparse.Namespace) -> int:
    """``report --compare [--pass N]``: what changed between a pass and the one before."""
    from politecrawl.report.compare import (  # noqa: PLC0415 (only this command needs them)
        render_compare_csv,
        render_compare_html,
        render_compare_json,
        render_compare_text,
    )
    from politecrawl.store.reading import compare_passes  # noqa: PLC0415

    database = open_database(args.db, create=False)
    try:
        comparison = compare_passes(database, after=args.pass_number)
    finally:
        database.close()
    if comparison is None:
        raise UserInputError(
            "nothing to compare: the crawl has one pass (run politecrawl recrawl)", path=args.db
        )
    renderers = {
        "text": render_compare_text,
        "csv": render_compare_csv,
        "json": render_compare_json,
        "html": render_compare_html,
    }
    return write_output(renderers[args.format](comparison), args.out)


def write_output(text: str, out: str | None) -> int:
    """``text`` to standard output, or to the file ``out`` (a user's mistake there is one line,
    B1); 0."""
    if out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserInputError(f"cannot write the report: {error.strerror}", path=out) from None
    print(f"report written to {out}", file=sys.stderr)
    return 0


def why_command(args: argparse.Namespace) -> int:
    """The history of one URL in the crawl: how it was found and each decision about it; the
    sitemaps listing it, or, for a sitemap, what reading it found (S4); its use preferences as
    recorded when it was fetched, each with its source (U6)."""
    from politecrawl.report import render_history  # noqa: PLC0415 (only this command needs it)
    from politecrawl.report.use_preferences import render_page_use  # noqa: PLC0415
    from politecrawl.store.reading import page_use, server_of_host, url_history  # noqa: PLC0415

    settings = _crawl_settings(args.db)
    database = open_database(args.db, create=False)
    try:
        history = url_history(database, args.url)
        use = page_use(database, args.url)
        server = None if history is None else server_of_host(database, _host_of(args.url))
    finally:
        database.close()
    if history is None:
        print(
            f"{args.url}: not in this crawl (never linked from a crawled page, listed by a "
            "sitemap, or given as a seed)"
        )
        return 1
    sys.stdout.write(
        render_history(history, agent=settings.agent, robots_limits=settings.robots_limits)
    )
    if use is not None:
        sys.stdout.write(render_page_use(use, settings.purpose))
    if server is not None and len(server.hosts) > 1:
        print(_server_line(server))
    return 0


def _host_of(url: str) -> str:
    """The crawl's host name of ``url``; the URL as given when it is not one."""
    try:
        return split_canonical(canonicalize(url))[1]
    except InvalidURL:
        return url


def _server_line(server: ServerHosts) -> str:
    """The server a URL's requests waited for (P6), and the host names sharing it."""
    return (
        f"server: {server.server}, shared by {counted(len(server.hosts), 'host name')} "
        f"({', '.join(server.hosts)}); its requests waited for it: at most "
        f"{server.max_in_flight} in flight, {server.delay_seconds:g} s between their starts (P6)"
    )


class _CrawlSettings(NamedTuple):
    agent: str
    max_redirects: int
    robots_limits: RobotsLimits
    """The byte limit robots.txt files were read under: a report shows the crawl's verdicts."""
    purpose: str
    """What the content was fetched for (U5)."""


def _crawl_settings(target: str) -> _CrawlSettings:
    """The settings of the crawl in ``target`` that its reports depend on (defaults before a
    run)."""
    from politecrawl.config import CrawlConfig  # noqa: PLC0415
    from politecrawl.store import last_config  # noqa: PLC0415

    database = open_database(target, create=False)
    try:
        stored = last_config(database) or {}
    finally:
        database.close()
    defaults = CrawlConfig()
    agent = str(stored.get("agent") or defaults.crawl.agent)
    redirects = stored.get("max_redirects", defaults.fetching.max_redirects)
    max_bytes = stored.get("robots_max_bytes")
    purpose = stored.get("purpose")
    return _CrawlSettings(
        agent,
        redirects if isinstance(redirects, int) else defaults.fetching.max_redirects,
        RobotsLimits(max_bytes=max_bytes)
        if isinstance(max_bytes, int) and max_bytes > 0
        else RobotsLimits(),
        purpose if isinstance(purpose, str) else defaults.crawl.purpose,
    )
