"""``politecrawl run SEEDS`` and ``politecrawl resume``: a crawl from the command line.

Both drive the library's ``Crawler``; nothing here crawls on its own. The configuration comes
from flags > ``POLITECRAWL_*`` environment > ``--config`` file > the stored configuration
(``resume``) > defaults, and is stored with the run. Exit status: 0 finished and nothing broken;
1 finished with broken pages (4xx, 5xx, network errors), deferred or failed work, or nothing
crawled because robots.txt forbids the seeds; 2 a usage or input error; 130 interrupted (state
saved: ``resume``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any, TextIO

from politecrawl.cli.hints import command
from politecrawl.cli.options import FLAG_FIELDS
from politecrawl.cli.progress import ProgressDisplay
from politecrawl.config import CrawlConfig
from politecrawl.config.loader import load_config
from politecrawl.crawl.crawler import Crawler
from politecrawl.errors import UserInputError
from politecrawl.report.model import counted
from politecrawl.results import CrawlSummary, Excluded, Page
from politecrawl.seeds import read_seeds
from politecrawl.store import FrontierStats, last_config, open_database, server_advice

EXIT_FINISHED = 0
EXIT_UNFINISHED = 1
EXIT_INTERRUPTED = 130


def effective_config(args: argparse.Namespace, base: dict[str, Any] | None) -> CrawlConfig:
    """Flags > environment > file > ``base`` > defaults (B1: errors name key and source)."""
    flags: dict[str, object] = {}
    for option, field in FLAG_FIELDS.items():
        value = getattr(args, option, None)
        if value is not None:
            flags[field] = tuple(value) if isinstance(value, list) else value
    if args.db is not None:
        flags["database"] = args.db
    flag_names = {field: "--" + option.replace("_", "-") for option, field in FLAG_FIELDS.items()}
    flag_names["database"] = "--db"
    return load_config(
        file=args.config,
        environ=os.environ,
        flags=flags,
        base=base,
        flag_names=flag_names,
    )


def run_command(args: argparse.Namespace) -> int:
    """``politecrawl run SEEDS``: start or continue the crawl stored in ``--db``."""
    seeds = read_seeds(args.seeds)
    for warning in seeds.warnings():
        print(f"politecrawl: warning: {warning} (skipped)", file=sys.stderr)
    config = effective_config(args, None)
    return crawl(config, args, seeds=list(seeds.urls))


def resume_command(args: argparse.Namespace) -> int:
    """``politecrawl resume --db``: continue with the configuration stored in the database."""
    return crawl(_stored_config(args, "resume", "continue"), args, seeds=[], resuming=True)


def recrawl_command(args: argparse.Namespace) -> int:
    """``politecrawl recrawl --db``: a new pass over the stored crawl (conditional GETs)."""
    max_age = parse_duration(args.max_age) if args.max_age else None
    config = _stored_config(args, "recrawl", "revisit")
    return crawl(config, args, seeds=[], recrawl=True, max_age=max_age)


def _stored_config(args: argparse.Namespace, name: str, verb: str) -> CrawlConfig:
    """The configuration of the crawl in ``--db`` with this run's flags and environment on top
    (``name``: the command's, for messages)."""
    if args.db is None:
        raise UserInputError(f"{name} needs --db (the crawl to {verb})")
    database = open_database(args.db, create=False)
    try:
        stored = last_config(database)
    finally:
        database.close()
    if stored is None:
        run = command("run", "SEEDS", "--db", args.db)
        raise UserInputError(f"no crawl has run in this database yet: use {run}", path=args.db)
    return effective_config(args, stored)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw]?)")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str) -> timedelta:
    """``90``, ``90s``, ``30m``, ``12h``, ``7d``, ``2w`` as a duration; else a UserInputError."""
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise UserInputError(f"--max-age: {text!r} is not a duration like 90s, 30m, 12h or 7d")
    return timedelta(seconds=float(match.group(1)) * _UNIT_SECONDS[match.group(2)])


def crawl(
    config: CrawlConfig,
    args: argparse.Namespace,
    *,
    seeds: list[str],
    recrawl: bool = False,
    max_age: timedelta | None = None,
    summary_out: TextIO | None = None,
    resuming: bool = False,
) -> int:
    """Run the crawl with a progress display; print the summary (on standard output, or
    ``summary_out``); return the exit status. ``resuming``: say first what the run continues."""
    interrupted = False
    seed_notes = _SeedNotes(config.crawl.agent)
    with Crawler(config, on_excluded=seed_notes.check) as crawler:
        output = _open_output(args.output)
        if not config.crawl.contact:
            print(
                "politecrawl: warning: no contact URL configured (--contact): site owners "
                "cannot reach you",
                file=sys.stderr,
            )
        assert crawler.database is not None
        for advice in server_advice(crawler.database):
            print(f"politecrawl: warning: {advice}", file=sys.stderr)
        if seeds:
            crawler.add_seeds(seeds)
        if resuming:
            print(
                f"politecrawl: resuming {config.storage.database}: {resumed(crawler.stats())}",
                file=sys.stderr,
            )
        assert crawler.frontier is not None
        seed_notes.seeds = crawler.frontier.seed_urls()
        display = ProgressDisplay(
            crawler.progress,
            crawler.stats,
            quiet=args.quiet,
            host_queues=crawler.host_queues,
            now=crawler.clock.now,
        )
        try:
            with display:
                pages = (
                    crawler.recrawl(max_age=max_age, handle_signals=True)
                    if recrawl
                    else crawler.crawl(handle_signals=True)
                )
                for page in pages:
                    if output is not None:
                        output.write(json.dumps(page_record(page), sort_keys=True) + "\n")
                        output.flush()
                    if args.verbose:
                        print(f"{page.status} {page.url}", file=sys.stderr)
                    display.tick()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if output is not None:
                output.close()
        summary = crawler.summary
    print_summary(summary, summary_out or sys.stdout)
    database = config.storage.database
    if summary.already_finished:
        print(
            f"politecrawl: the crawl in {database} was already finished "
            f"({counted(summary.done, 'URL')} fetched, {summary.failed} failed): "
            f"`{command('recrawl', '--db', database)}` revisits it, "
            f"`{command('report', '--db', database)}` shows what it found",
            file=sys.stderr,
        )
    if interrupted:
        print(
            f"politecrawl: interrupted; state saved: `{command('resume', '--db', database)}` "
            "continues",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    # 1: something for a person to look at: broken pages this run, failed or deferred work, or
    # seeds that robots.txt keeps us from (so that `|| mail ...` in a cron line fires).
    broken = summary.errors or summary.broken_checks
    if broken or summary.deferred or summary.failed or seed_notes.refused:
        return EXIT_UNFINISHED
    return EXIT_FINISHED


class _SeedNotes:
    """Says at once, on stderr, when robots.txt keeps the crawl from a seed: with the deciding
    line, and the record a site owner adds to let the crawler in."""

    def __init__(self, agent: str) -> None:
        self.agent = agent
        self.seeds: set[str] = set()
        self.refused = 0

    def check(self, excluded: Excluded) -> None:
        if excluded.reason != "robots" or excluded.url not in self.seeds:
            return
        self.refused += 1
        detail = excluded.detail
        line = detail.get("line")
        deciding = (
            f"line {line}: {detail.get('text')}" if line is not None else str(detail.get("why"))
        )
        print(
            f"politecrawl: robots.txt forbids the seed {excluded.url} ({deciding}); nothing "
            "behind it is crawled. If it is your site, a record of its own lets politecrawl "
            f"in:\n    User-agent: {self.agent}\n    Allow: /",
            file=sys.stderr,
        )


def resumed(stats: FrontierStats) -> str:
    """What a resumed crawl continues, from its frontier's counts: ``174 of 531 URLs done,
    357 to go (12 of them deferred); 40 more not to be fetched``. Done: fetched in this
    pass, failed ones included; to go: queued, in flight (a killed run's, back in the queue
    when their lease ends) and deferred; not to be fetched: excluded by robots.txt or out of
    scope (every kind of URL counts: pages, checked links, sitemaps)."""
    states = stats.by_state
    done = states.get("done", 0) + states.get("failed", 0)
    to_go = sum(states.get(state, 0) for state in ("queued", "leased", "deferred"))
    text = f"{done} of {counted(done + to_go, 'URL')} done, {to_go} to go"
    if deferred := states.get("deferred", 0):
        text += f" ({deferred} of them deferred)"
    if left_out := stats.total - done - to_go:
        text += f"; {left_out} more not to be fetched (robots.txt, scope)"
    return text


def page_record(page: Page) -> dict[str, object]:
    """One line of ``--output``: the page, and its use-preference signals as seen when it was
    fetched, each with its source, and whether they refused the crawl's purpose (U6)."""
    return {
        "url": page.url,
        "final_url": page.final_url,
        "status": page.status,
        "depth": page.depth,
        "content_type": page.content_type,
        "indexable": page.indexable,
        "follow": page.follow,
        "title": page.title,
        "fetched_at": page.fetched_at.isoformat(),
        "error": page.error,
        "use_refused": page.refused,
        "use_signals": [one.as_record() for one in page.use_preferences.signals],
    }


def print_summary(summary: CrawlSummary, out: TextIO) -> None:
    """The end-of-run summary a person reads."""
    print(
        f"{counted(summary.pages, 'page')} fetched in {summary.duration_seconds:.1f} s: "
        f"{summary.indexable} indexable, {summary.noindex} noindex, {summary.nofollow} nofollow, "
        f"{counted(summary.redirects, 'redirect')}, {counted(summary.errors, 'error')}; "
        f"{summary.excluded_by_robots} excluded by robots.txt, {summary.out_of_scope} out of "
        f"scope, {summary.deferred} deferred, {summary.queued} still queued "
        f"({summary.stopped_because}).",
        file=out,
    )
    if summary.sitemaps or summary.sitemap_skips:
        spared = (
            f"; {counted(summary.sitemap_skips, 'request')} spared by their sitemap lastmod"
            if summary.sitemap_skips
            else ""
        )
        print(f"{counted(summary.sitemaps, 'sitemap')} read{spared}.", file=out)
    if summary.checks:
        # Links leaving the site and resources only: broken pages are the first line's errors.
        checked = counted(
            summary.checks, "outbound link or resource", "outbound links and resources"
        )
        print(f"{checked} checked, {summary.broken_checks} broken.", file=out)
    if summary.excluded_by_preferences or summary.refused:
        # U5: what the crawl's purpose withheld, before a request and after one
        print(
            f"Refused for the crawl's purpose: {counted(summary.excluded_by_preferences, 'URL')}"
            f" not fetched, {counted(summary.refused, 'page')} fetched and never indexable.",
            file=out,
        )


def _open_output(path: Path | None) -> TextIO | None:
    if path is None:
        return None
    try:
        return path.open("a", encoding="utf-8", buffering=1)
    except OSError as error:
        raise UserInputError(f"cannot write the output file: {error.strerror}", path=path) from None
