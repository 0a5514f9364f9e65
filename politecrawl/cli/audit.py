"""``politecrawl audit ACCESS_LOG... --robots FILE_OR_URL``: who crawls a site, and how [G1-G4].

The front end of ``politecrawl.audit``: it gathers the robots.txt versions (files, URLs fetched
through the crawl's own gate and its anti-steering guard, or a crawl database's stored copies),
streams the logs through an ``Auditor`` and writes the report. A robots.txt given as
``FILE@2025-06-01T12:00:00Z`` took effect at that time (G4). Exit status 0 when the log was
audited, 2 when nothing could be read (every problem said, one line each).
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from politecrawl.audit import Auditor, RobotsVersion
from politecrawl.errors import UserInputError
from politecrawl.robots import parse_robots

if TYPE_CHECKING:
    from politecrawl.audit import AuditResult

EXIT_OK = 0
_AUDIT_AGENT = "politecrawl"
_HTTP = re.compile(r"https?://", re.IGNORECASE)
_WHOLE_ORIGIN_OFF_LIMITS = "User-agent: *\nDisallow: /\n"


def add_audit_command(commands: Any) -> None:
    """Register ``audit`` on the top-level sub-parser action."""
    audit = commands.add_parser(
        "audit",
        help="audit access logs: which crawlers read robots.txt, fetch what it forbids, "
        "ignore Crawl-delay or 429s",
    )
    audit.add_argument(
        "logs", nargs="+", type=Path, metavar="ACCESS_LOG", help="combined/common/JSON lines, gzip"
    )
    audit.add_argument(
        "--robots",
        action="append",
        default=[],
        metavar="FILE_OR_URL[@TIME]",
        help="the site's robots.txt (repeatable: a version with @ISO-TIME took effect then)",
    )
    audit.add_argument("--db", help="use the robots.txt copies stored in a crawl database")
    audit.add_argument(
        "--site", default="", help="the origin the log is of, https://www.example.org"
    )
    audit.add_argument(
        "--retry-after",
        type=float,
        metavar="SECONDS",
        help="the Retry-After your server sends with 429/503 (when the log does not record it)",
    )
    audit.add_argument(
        "--format", choices=("text", "csv", "json", "html"), default="text", help="default text"
    )
    audit.add_argument("--out", help="write to this file instead of standard output")
    audit.set_defaults(run=audit_command)


def _split_time(spec: str) -> tuple[str, datetime | None]:
    source, at, when = spec.rpartition("@")
    if not at:
        return spec, None
    try:
        moment = datetime.fromisoformat(when)
    except ValueError:
        return spec, None  # an @ of the name itself
    return source, moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def robots_versions(specs: list[str]) -> list[RobotsVersion]:
    """Each ``--robots`` as a version: a file read, or a URL fetched (one polite GET)."""
    versions = []
    for spec in specs:
        source, effective_from = _split_time(spec)
        if _HTTP.match(source):
            body = fetch_robots(source)
        else:
            path = Path(source)
            try:
                body = path.read_bytes()
            except OSError as error:
                reason = error.strerror or str(error)
                raise UserInputError(f"cannot read robots.txt: {reason}", path=path) from None
        versions.append(RobotsVersion(parse_robots(body), source, effective_from, ""))
    return versions


def fetch_robots(url: str) -> bytes:
    """The robots.txt at ``url`` fetched by the crawl's gate (redirects, O7; anti-steering
    guard): its body, none for "no restrictions" (O4), everything off limits for 401/403 (O5)."""
    from politecrawl.cli.robots_fetch import fetch_robots_alone  # noqa: PLC0415 (requests)
    from politecrawl.urls import InvalidURL, canonicalize, split_canonical  # noqa: PLC0415

    try:
        origin, host = split_canonical(canonicalize(url))
    except InvalidURL as error:
        raise UserInputError(f"--robots {url}: {error.reason}") from None
    outcome = fetch_robots_alone(
        origin, host, agent=_AUDIT_AGENT, user_agent=f"{_AUDIT_AGENT}/audit"
    )
    if outcome.kind == "parsed":
        return outcome.body or b""
    if outcome.kind == "allow_all":
        return b""
    if outcome.kind == "disallow_all":
        return _WHOLE_ORIGIN_OFF_LIMITS.encode()
    raise UserInputError(f"--robots {url}: robots.txt could not be fetched: {outcome.reason}")


def stored_versions(target: str) -> list[RobotsVersion]:
    """The robots.txt copy each origin of a crawl database has (the database keeps the last
    fetched copy, not its history: it applies to the whole log)."""
    from politecrawl.store import open_database  # noqa: PLC0415
    from politecrawl.store.reading import origin_robots  # noqa: PLC0415

    database = open_database(target, create=False)
    try:
        origins = origin_robots(database, with_body=True)
    finally:
        database.close()
    versions = []
    for row in origins:
        if row.outcome not in ("parsed", "allow_all", "disallow_all"):
            continue
        body = row.body or b""
        if row.outcome == "disallow_all":
            body = _WHOLE_ORIGIN_OFF_LIMITS.encode()
        fetched = "" if row.fetched_at is None else f", fetched {row.fetched_at.isoformat()}"
        source = f"{target}: {row.origin}/robots.txt ({row.outcome}{fetched})"
        versions.append(RobotsVersion(parse_robots(body), source, None, row.origin))
    if not versions:
        raise UserInputError(f"{target}: the crawl database holds no robots.txt to audit with")
    return versions


def audit_command(args: argparse.Namespace) -> int:
    """``politecrawl audit``."""
    from politecrawl.audit.render import render  # noqa: PLC0415

    if not args.robots and not args.db:
        raise UserInputError("audit needs --robots FILE_OR_URL (or --db CRAWL_DATABASE)")
    site = args.site.rstrip("/")
    if not site:
        first_url = next((spec for spec in args.robots if _HTTP.match(spec)), None)
        if first_url is not None:
            site = "/".join(_split_time(first_url)[0].split("/", 3)[:3])
    versions = robots_versions(args.robots)
    if args.db:
        stored = stored_versions(args.db)
        versions.extend(stored)
        if not site and len(stored) == 1:
            site = stored[0].origin  # the crawl's one origin is the log's
    auditor = Auditor(versions, site=site, retry_after_seconds=args.retry_after)
    auditor.read_files(args.logs)
    result = auditor.result()
    _say_problems(result)
    if result.requests == 0:
        raise UserInputError("nothing could be read from the access logs: " + _why_empty(result))
    text = render(result, args.format)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _say_problems(result: AuditResult) -> None:
    for problem in result.problems:
        print(f"politecrawl: {problem}", file=sys.stderr)


def _why_empty(result: AuditResult) -> str:
    if result.problems:
        return "see above"
    if result.bad_lines:
        return f"{result.bad_lines} unreadable lines"
    return "the files are empty"
