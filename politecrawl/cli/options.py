"""The options of ``run``, ``resume``, ``recrawl`` and ``check``: argparse only, so that
building the command tree loads none of the crawl machinery (``politecrawl robots explain``
starts fast). Each option that is a setting is named in ``FLAG_FIELDS``; given, it overrides
the environment, the ``--config`` file and the stored configuration."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import get_args

from politecrawl.config import SEMANTICS_CHOICES, CrawlConfig
from politecrawl.config.conduct import Purpose

# option -> CrawlConfig field, for flags shared by run and resume
FLAG_FIELDS = {
    "agent": "agent",
    "contact": "contact",
    "delay": "delay_seconds",
    "max_pages": "max_pages",
    "max_depth": "max_depth",
    "workers": "workers",
    "processes": "processes",
    "warc": "warc_dir",
    "scope": "scope",
    "include": "include",
    "exclude": "exclude",
    "semantics": "semantics",
    "purpose": "purpose",
    "resolve": "resolve",
    "max_pages_per_host": "max_pages_per_host",
    "max_duration": "max_duration_seconds",
    "timeout": "response_timeout_seconds",
    "sitemaps": "sitemaps",
    "sitemap_lastmod": "sitemap_lastmod",
    "check_outbound": "check_outbound",
    "check_resources": "check_resources",
    "check_fragments": "check_fragments",
}
_DEFAULTS = CrawlConfig()


def add_crawl_options(
    parser: argparse.ArgumentParser,
    *,
    with_scope: bool = True,
    with_patterns: bool | None = None,
    checking: bool = False,
    db_default: str | None = None,
) -> None:
    """The options ``run``, ``resume``, ``recrawl`` and ``check`` share. ``with_scope``:
    ``--scope``; ``with_patterns``: ``--include`` and ``--exclude`` (as ``with_scope`` unless
    given); ``checking``: the command checks links (``check``: the ``--check-*`` checks are on
    unless turned off); ``db_default``: where the command keeps its crawl without ``--db``,
    when not ``./crawl.db``."""
    db_default = db_default or f"./{_DEFAULTS.storage.database}"
    parser.add_argument(
        "--db",
        default=None,
        help=f"crawl database: a path or a SQLAlchemy URL (default: {db_default})",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=os.environ.get("POLITECRAWL_CONFIG") or None,
        help="a TOML settings file, like config/politecrawl.toml (or POLITECRAWL_CONFIG)",
    )
    option = parser.add_argument
    option(
        "--agent",
        help=f"the robot's name, matched in robots.txt and sent as the User-Agent "
        f"(default: {_DEFAULTS.crawl.agent})",
    )
    option("--contact", help="a URL where site owners can reach you (default: none, and a warning)")
    option(
        "--delay",
        type=float,
        metavar="S",
        help="seconds between requests to one host, at least "
        f"(default: {_DEFAULTS.politeness.delay_seconds:g}; robots.txt may ask for more)",
    )
    option("--max-pages", type=int, metavar="N", help="stop after N pages this run (default: none)")
    option("--max-pages-per-host", type=int, metavar="N", help="fetch at most N pages of a host")
    option(
        "--max-depth",
        type=int,
        metavar="N",
        help="links further from a seed are out (default: none)",
    )
    option("--max-duration", type=float, metavar="S", help="stop claiming work after S seconds")
    option(
        "--timeout",
        type=float,
        metavar="S",
        help="seconds for a whole response "
        f"(default: {_DEFAULTS.fetching.response_timeout_seconds:g})",
    )
    option(
        "--workers",
        type=int,
        metavar="N",
        help=f"worker threads per process (default: {_DEFAULTS.crawl.workers})",
    )
    option(
        "--processes",
        type=int,
        metavar="N",
        help=f"processes crawling together, to use N cores (default: {_DEFAULTS.crawl.processes})",
    )
    if with_scope:
        option(
            "--scope",
            choices=("seeds", "domain", "any"),
            help="what may be crawled: the seeds' origins (default), their domains, or any",
        )
    if with_scope if with_patterns is None else with_patterns:
        add_pattern_options(parser, checking=checking)
    option(
        "--semantics",
        choices=SEMANTICS_CHOICES,
        help="how robots.txt is read: strict (default) fetches only what both the 1996 draft "
        "and RFC 9309 allow; draft or rfc9309 alone",
    )
    option(
        "--purpose",
        choices=get_args(Purpose),
        help="what the content is for: search, ai-input or ai-train; URLs whose robots.txt or "
        "tdmrep.json refuse it are not fetched, pages refusing it are never indexable "
        f"(default: {_DEFAULTS.crawl.purpose}: nothing withheld)",
    )
    option(
        "--resolve",
        action="append",
        metavar="HOST:ADDRESS",
        help="answer HOST with ADDRESS instead of DNS (repeatable), as curl --resolve",
    )
    option(
        "--no-sitemaps",
        dest="sitemaps",
        action="store_false",
        default=None,
        help="do not read the sites' sitemaps (default: read them, robots.txt's Sitemap lines "
        "or /sitemap.xml, and audit them in the report)",
    )
    option(
        "--sitemap-lastmod",
        choices=("revalidate", "skip"),
        help="in a recrawl, a page whose sitemap lastmod is older than its last fetch: "
        f"revalidate it, or skip it (default: {_DEFAULTS.sitemaps.sitemap_lastmod})",
    )
    default = "on" if checking else "off; on for `politecrawl check`"
    for name, what in (
        ("outbound", "links leaving the site, once each, never followed (HEAD, else GET)"),
        ("resources", "the pages' images, stylesheets, scripts, frames and media"),
        ("fragments", "that page#section links find their section"),
    ):
        option(
            f"--check-{name}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"check {what} (default: {default})",
        )
    option("--output", type=Path, metavar="FILE", help="append fetched URLs as JSON lines")
    option("--warc", metavar="DIR", help="write every request and response to WARC files in DIR")
    verbosity = parser.add_mutually_exclusive_group()
    verbosity.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    verbosity.add_argument("--verbose", "-v", action="store_true", help="a line per page")


def add_pattern_options(parser: argparse.ArgumentParser, *, checking: bool = False) -> None:
    """``--include`` and ``--exclude``: the ``include`` and ``exclude`` settings of ``[scope]``
    (C1), with their meaning: each a regular expression searched for (``re.search``) in a
    URL's canonical form; repeatable; given, they replace the lists of the ``--config`` file."""
    option = parser.add_argument
    option(
        "--include",
        action="append",
        metavar="RE",
        help="crawl only URLs in which this regular expression is found (repeatable: a URL "
        f"must match one; {'the site URL' if checking else 'the seeds'} too); searched in the "
        "whole canonical URL, https://host/path?query",
    )
    # The patterns narrow the crawl: a link leaving the site is out of it already, and its
    # check (L1) is not the crawl's to narrow (scope.check_scope judges the origin first).
    leaving = (
        "; links leaving the site are checked all the same (--no-check-outbound: none)"
        if checking
        else "; with --check-outbound, links leaving the site are checked all the same"
    )
    option(
        "--exclude",
        action="append",
        metavar="RE",
        help="do not fetch URLs in which this regular expression is found (repeatable); "
        f"an excluded URL is reported as out of scope, with the pattern{leaving}",
    )
