"""``politecrawl robots ...``: look at a robots.txt the way the crawler reads it.

``robots explain URL --file F`` prints the verdict for one URL in the chosen semantics (strict by
default, M7), then each reading's own verdict with the line that decided it (the draft's, RFC
9309's) and what strict does, and the parser's warnings (lines it ignored or read leniently, a
full URL written as a rule); then the file's use preferences for the URL and agent
(``Content-Signal``, ``Content-Usage``: U1), each with its line, which never change the
verdict. Exit status: 0 allowed, 1 disallowed, 2 a usage or input error.
With ``--fetch``, the robots.txt is fetched by the crawl's own gate (``Gate.fetch_robots``): its
redirects followed as a crawl follows them (O7), each hop through the anti-steering guard, the
URL's host standing for a crawl's seed.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from politecrawl.errors import UserInputError
from politecrawl.robots import (
    DEFAULT_SEMANTICS,
    READINGS,
    SEMANTICS_NAMES,
    RobotsPolicy,
    Verdict,
    parse_robots,
)

DEFAULT_AGENT = "politecrawl"
EXIT_ALLOWED = 0
EXIT_DISALLOWED = 1
_MAX_WARNINGS_SHOWN = 10
_HTTP_URL = re.compile(r"https?://[^/?#\s]+([/?#]\S*)?", re.IGNORECASE)


def add_robots_commands(commands: Any) -> None:
    """Register ``robots`` and its sub-commands on the top-level sub-parser action."""
    robots = commands.add_parser("robots", help="inspect robots.txt files")
    robots_commands = robots.add_subparsers(dest="robots_command", metavar="COMMAND")
    robots_commands.required = True
    explain = robots_commands.add_parser(
        "explain",
        help="say whether a URL is allowed, and which robots.txt line decided",
        description="Exit status: 0 allowed, 1 disallowed, 2 usage or input error.",
    )
    explain.add_argument("url", help="an absolute http(s) URL, or a path starting with '/'")
    source = explain.add_mutually_exclusive_group(required=True)
    source.add_argument("--file", type=Path, help="the robots.txt file to read")
    source.add_argument(
        "--fetch", action="store_true", help="fetch the URL's robots.txt (one polite GET)"
    )
    explain.add_argument(
        "--resolve",
        action="append",
        metavar="HOST:ADDRESS",
        help="with --fetch: answer HOST with ADDRESS, not DNS (repeatable), as curl --resolve",
    )
    explain.add_argument(
        "--agent", default=DEFAULT_AGENT, help=f"the robot's name token (default: {DEFAULT_AGENT})"
    )
    explain.add_argument(
        "--semantics",
        choices=SEMANTICS_NAMES,
        default=DEFAULT_SEMANTICS,
        help="how to read the file: strict (default: only what both the 1996 draft and "
        "RFC 9309 allow), draft, or rfc9309",
    )
    explain.set_defaults(run=run_explain)
    show = robots_commands.add_parser(
        "show", help="the cached robots.txt of an origin in a crawl database, and its expiry"
    )
    show.add_argument("origin", help="an origin or any URL of it: https://example.org")
    show.add_argument("--db", required=True, help="crawl database: a path or a SQLAlchemy URL")
    show.set_defaults(run=_run_show)


def _run_show(args: argparse.Namespace) -> int:
    from politecrawl.cli.inspect import robots_show_command  # noqa: PLC0415 (loads the store)

    return robots_show_command(args)


def read_robots_file(path: Path) -> bytes:
    """The file's bytes, or a ``UserInputError`` naming it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UserInputError("no such file", path=path) from None
    except IsADirectoryError:
        raise UserInputError("is a directory, not a robots.txt file", path=path) from None
    except OSError as error:
        raise UserInputError(f"cannot read: {error.strerror}", path=path) from None


def check_url(url: str) -> str:
    """Accept an absolute http(s) URL or a path; anything else is a ``UserInputError``."""
    if url.startswith("/") and not url.startswith("//"):
        return url
    if _HTTP_URL.fullmatch(url):
        return url
    raise UserInputError(f"not an http(s) URL or a path starting with '/': {url!r}")


def run_explain(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``robots explain``: print the verdict and the deciding line, in both semantics."""
    out = out or sys.stdout
    url = check_url(args.url)
    if args.fetch:
        body = _fetch_robots(url, args.agent, out, resolve=_fixed_answers(args.resolve))
        if body is None:
            return EXIT_DISALLOWED
        args.file = Path(url.split("/", 3)[2]) / "robots.txt"  # only named in the output
    else:
        body = read_robots_file(args.file)
    policy = parse_robots(body, semantics=args.semantics)
    verdict = policy.explain(args.agent, url)
    print(
        f"{url}: {_verdict_word(verdict)} for {args.agent!r} ({verdict.semantics} semantics)",
        file=out,
    )
    for line in _readings(policy, args.agent, url, args.file):
        print(f"  {line}", file=out)
    if policy.truncated:
        print(f"  note: {args.file} was cut short by the parser's limits (O8)", file=out)
    for warning in policy.warnings[:_MAX_WARNINGS_SHOWN]:
        print(f"  warning: {args.file}:{warning.line_number}: {warning.message}", file=out)
    hidden = len(policy.warnings) - _MAX_WARNINGS_SHOWN
    if hidden > 0:
        print(f"  ({hidden} more warnings)", file=out)
    for line in use_preference_lines(body, args.agent, url, args.file):
        print(f"  {line}", file=out)
    return EXIT_ALLOWED if verdict.allowed else EXIT_DISALLOWED


def use_preference_lines(body: bytes, agent: str, url: str, path: Path) -> list[str]:
    """What the file's ``Content-Signal`` and ``Content-Usage`` lines say of ``url`` for
    ``agent`` (U1): each signal with its line, what they say of each use together (U4), and
    what reading them noted. They never change the verdict above."""
    from politecrawl.robots.preferences import read_robots_preferences  # noqa: PLC0415
    from politecrawl.usage import Use  # noqa: PLC0415

    preferences = read_robots_preferences(body)
    said = preferences.for_url(agent, url)
    if not said.signals and not preferences.warnings:
        return ["use preferences: none (no Content-Signal or Content-Usage line for it)"]
    lines = [f"use preferences for {agent!r} (they never change what may be fetched):"]
    lines += [f"  {one.describe()}" for one in said.signals]
    lines.append("  " + "; ".join(f"{use.value}: {said.verdict(use).stance.value}" for use in Use))
    noted = preferences.warnings
    lines += [
        f"warning: {path}:{one.line_number}: {one.message}" for one in noted[:_MAX_WARNINGS_SHOWN]
    ]
    if len(noted) > _MAX_WARNINGS_SHOWN:
        lines.append(f"({len(noted) - _MAX_WARNINGS_SHOWN} more use-preference warnings)")
    return lines


def _fetch_robots(url: str, agent: str, out: TextIO, *, resolve: dict[str, str]) -> bytes | None:
    """The body to judge ``url`` by, or None when the answer decides alone (printed)."""
    from politecrawl.cli.robots_fetch import fetch_robots_alone  # noqa: PLC0415 (--fetch only)
    from politecrawl.robots.outcome import is_refusal  # noqa: PLC0415
    from politecrawl.scope import Scope  # noqa: PLC0415
    from politecrawl.urls import InvalidURL, canonicalize, split_canonical  # noqa: PLC0415

    try:
        origin, host = split_canonical(canonicalize(url))
    except InvalidURL as error:
        raise UserInputError(f"--fetch needs an absolute http(s) URL: {error.reason}") from None
    # The URL is the user's, as a crawl's seed is: its host may be any address (a loopback or
    # intranet site); a redirect opens nothing (connect, scope.check_steering: O7, C4).
    outcome = fetch_robots_alone(
        origin,
        host,
        agent=agent,
        user_agent=f"{agent}/robots-explain",
        resolve=resolve,
        scope=Scope.from_seeds([url], mode="any"),
    )
    print(f"{origin}/robots.txt: {outcome.reason}", file=out)
    if outcome.kind == "parsed":
        return outcome.body or b""
    if outcome.kind == "allow_all":
        return b""  # no records: everything allowed (A4), said below
    if outcome.kind == "disallow_all":
        print(f"{url}: DISALLOWED for {agent!r}: the whole origin", file=out)
    elif is_refusal(outcome.reason):
        print(f"{url}: a crawler would leave it this run: its robots.txt was refused", file=out)
    else:
        print(f"{url}: a crawler would defer it until robots.txt answers (O6)", file=out)
    return None


def _fixed_answers(pairs: list[str] | None) -> dict[str, str]:
    """``--resolve HOST:ADDRESS`` answers, by lower-case host."""
    answers = {}
    for pair in pairs or ():
        host, colon, address = pair.partition(":")
        try:
            ipaddress.ip_address(address.strip("[]"))
        except ValueError:
            valid = False
        else:
            valid = bool(colon and host)
        if not valid:
            raise UserInputError(
                f"--resolve {pair!r} is not HOST:ADDRESS (e.g. staging.example:10.0.0.5)"
            )
        answers[host.lower()] = address.strip("[]")
    return answers


def _verdict_word(verdict: Verdict) -> str:
    return "ALLOWED" if verdict.allowed else "DISALLOWED"


def _deciding(verdict: Verdict, path: Path) -> str:
    if verdict.rule is None:
        return verdict.reason
    return (
        f"decided by {path}:{verdict.rule.line_number}: {verdict.rule.line}"
        f"  (record at line {verdict.record_line}, path matched: {verdict.path})"
    )


def _readings(policy: RobotsPolicy, agent: str, url: str, path: Path) -> list[str]:
    """Each reading's verdict and deciding line, then what strict does with them (M7)."""
    lines = []
    for name in READINGS:
        verdict = policy.explain(agent, url, semantics=name)
        word = "allowed" if verdict.allowed else "disallowed"
        lines.append(f"{name + ':':8} {word}, {_deciding(verdict, path)}")
    strict = policy.explain(agent, url, semantics="strict")
    if strict.allowed:
        lines.append("strict:  fetched (both readings allow it)")
    else:
        lines.append(f"strict:  not fetched (forbidden by {' and '.join(strict.forbidden_by)})")
    return lines
