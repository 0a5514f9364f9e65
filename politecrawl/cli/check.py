"""``politecrawl check SITE_URL``: the one command a site owner types [L5, L1-L4, S1].

Crawls the site (the origin of ``SITE_URL``) with every check on: links leaving the site,
page resources, ``#fragments``, sitemaps; then prints the report and exits 0 when nothing is
broken, 1 when something is (a broken page, link or resource, or a missing fragment) or when
the check is incomplete (``PassProgress``: a limit such as ``--max-pages`` stopped it, work is
deferred, robots.txt forbids the site or does not answer), so it can gate a CI job (``--format
junit`` for CI systems that show test results: an incomplete check is an error there, and
what it did not check is skipped). Interrupted (Ctrl-C, SIGTERM), it still writes the report
of what it found so far, marked incomplete, and exits 130.

The crawl is kept: without ``--db``, in the user's cache directory under the site's name
(``$XDG_CACHE_HOME/politecrawl/<host>.db``). The next check of the site is then a recrawl pass
(conditional requests, and checks younger than ``check_fresh_seconds`` not repeated), and a
check that was interrupted is resumed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any

from politecrawl.cli.inspect import render_report, write_output
from politecrawl.cli.run import (
    EXIT_FINISHED as EXIT_CLEAN,
    EXIT_INTERRUPTED,
    crawl,
    effective_config,
)
from politecrawl.config import CrawlConfig
from politecrawl.crawl.assembly import scope_of
from politecrawl.errors import StoreError, UserInputError
from politecrawl.report import broken_count, build_report
from politecrawl.report.model import broken_parts, counted
from politecrawl.robots.outcome import is_refusal
from politecrawl.scope import check_scope
from politecrawl.store import last_config, open_database
from politecrawl.store.reading import state_counts
from politecrawl.urls import InvalidURL, canonicalize, split_canonical

EXIT_BROKEN = 1
# L5 has two outcomes: a check that did not finish is no pass (the report says why).
EXIT_INCOMPLETE = 1
# What `check` turns on; a flag, the environment or a configuration file may still turn one off.
CHECK_SETTINGS: dict[str, Any] = {
    "check_outbound": True,
    "check_resources": True,
    "check_fragments": True,
    "sitemaps": True,
}
# A check that stopped with work queued or leased was interrupted; deferred work alone (an
# unreachable robots.txt, a Crawl-delay above the cap) is how a finished check ends.
_UNFINISHED = ("queued", "leased")


def check_command(args: argparse.Namespace) -> int:
    """Check the site, print the report; 0 when nothing is broken, 1 when something is or
    the check is incomplete, 130 when interrupted (after the report)."""
    try:
        site = canonicalize(args.site)
    except InvalidURL as error:
        raise UserInputError(f"{args.site!r} is not a site URL: {error.reason}") from None
    if args.db is None:
        args.db = str(default_database(site))
    previous, unfinished = _previous_check(args.db)
    config = effective_config(args, {**(previous or {}), **CHECK_SETTINGS})
    _check_site_in_scope(site, config)
    # The crawl's summary goes to standard error: standard output is the report's (JUnit XML,
    # JSON, CSV a CI job reads).
    if previous is None:
        status = crawl(config, args, seeds=[site], summary_out=sys.stderr)
    elif unfinished:  # an interrupted check: resume it
        status = crawl(config, args, seeds=[], summary_out=sys.stderr, resuming=True)
    else:  # the next check of the site: a recrawl pass
        status = crawl(config, args, seeds=[], recrawl=True, summary_out=sys.stderr)
    database = open_database(config.storage.database, create=False)
    try:
        report = build_report(
            database,
            agent=config.crawl.agent,
            max_redirects=config.fetching.max_redirects,
            purpose=config.crawl.purpose,
        )
    finally:
        database.close()
    # Interrupted too (Ctrl-C, SIGTERM): what was found so far, and that the pass is incomplete
    # (L5: the JUnit file a CI job asked for is written, and does not pass).
    write_output(render_report(report, args.format), args.out)
    if status == EXIT_INTERRUPTED:
        return status
    incomplete = report.progress.incomplete_because
    broken = broken_count(report)
    if broken:
        found = f"{counted(broken, 'broken link')} found: {', '.join(broken_parts(report))}"
        if report.carried_count:
            found += (
                f" ({report.carried_count} of them found by an earlier pass, not re-checked yet)"
            )
        if incomplete:
            found += f"; and the check is incomplete ({', '.join(incomplete)})"
        print(f"politecrawl: {found}", file=sys.stderr)
        return EXIT_BROKEN
    steered = [o for o in report.deferred_origins if is_refusal(o.reason)]
    if status != EXIT_CLEAN and steered:
        # A finding, not an unfinished check: a robots.txt that redirects where the crawler
        # refuses to go (the anti-steering guard: a loopback, private or metadata address) was
        # refused once, not retried, and its origin's pages left alone (O7). Still 1: a CI gate
        # must not pass on a site it could not check, nor hide a link to a site that steers.
        print(
            "politecrawl: nothing broken found, but the robots.txt of "
            f"{counted(len(steered), 'origin')} needs a request politecrawl refuses to make "
            "(the report's deferred origins say why), so their pages were not checked: "
            f"{', '.join(o.origin for o in steered)}",
            file=sys.stderr,
        )
        return EXIT_BROKEN
    if incomplete or status != EXIT_CLEAN:
        # Nothing broken found, but not all was checked: a limit stopped the check, robots.txt
        # keeps politecrawl out, the site did not answer, or work is deferred (L5: the pass is
        # incomplete). A CI gate must not pass on that.
        why = ", ".join(incomplete) or "failed work: see above and the report"
        print(
            f"politecrawl: nothing broken found, but the check is incomplete ({why})",
            file=sys.stderr,
        )
        return EXIT_INCOMPLETE
    print("politecrawl: nothing broken", file=sys.stderr)
    return EXIT_CLEAN


def _check_site_in_scope(site: str, config: CrawlConfig) -> None:
    """B1: a site URL that the check's own patterns (``--include``, ``--exclude``, the file's
    or the last check's) leave out would check nothing; said before anything is fetched."""
    verdict = check_scope(site, 0, scope_of(config, [site]))
    if not verdict.allowed:
        raise UserInputError(
            f"the site URL {site} is out of the check's scope ({verdict.rule}), so nothing "
            "would be checked: --include and --exclude apply to it too"
        )


def default_database(site: str) -> Path:
    """Where the checks of ``site`` are kept when no ``--db`` is given: the user's cache
    directory (``$XDG_CACHE_HOME``, else ``~/.cache``), one file per host and port."""
    origin, _ = split_canonical(site)
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", origin.split("://", 1)[1]).strip("_")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    directory = cache / "politecrawl"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserInputError(
            f"cannot create the cache directory: {error.strerror} (give --db)", path=directory
        ) from None
    return directory / f"{name}.db"


def _previous_check(target: str) -> tuple[dict[str, Any] | None, bool]:
    """The stored configuration of the last check in ``target`` (None for a first check), and
    whether it was interrupted (work still queued or leased)."""
    if "://" not in target and not Path(target).exists():
        return None, False
    try:
        database = open_database(target, create=False)
    except StoreError:
        return None, False  # nothing checked there yet (a broken file: the crawl says so)
    try:
        counts = state_counts(database)
        return last_config(database), any(counts.get(state, 0) for state in _UNFINISHED)
    finally:
        database.close()
