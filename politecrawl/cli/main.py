"""The ``politecrawl`` command line: argparse sub-commands over the library, one code path.

argparse rather than click: it is in the standard library (no dependency for a handful of
sub-commands), its sub-parsers cover everything the commands need, and a user mistake is turned
into one line and exit status 2 here, in one place (B1). ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from politecrawl._version import VERSION
from politecrawl.cli.audit import add_audit_command
from politecrawl.cli.options import add_crawl_options
from politecrawl.cli.robots import add_robots_commands
from politecrawl.errors import PolitecrawlError, UserInputError

EXIT_OK = 0
EXIT_USAGE = 2


# Options of other link checkers that a user may reach for, and what politecrawl offers
# instead, when it is not the same thing under another name.
_FOREIGN_OPTIONS = {
    # LinkChecker's --ignore-url=RE: matching URLs, wherever they lead, are checked for
    # syntax only. Not --exclude: that narrows the crawl of the site, not the outbound checks.
    "--ignore-url": "not LinkChecker's here: --exclude RE keeps the site's matching pages from "
    "being fetched (links leaving the site are still checked), --no-check-outbound checks no "
    "link leaving the site",
}


class _OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2 (B1); an
    unknown option is named with the closest of the command's own (``did you mean``), also
    when it is the reason a required argument seems missing (``status --bd crawl.db``)."""

    _given: list[str] | None = None

    def parse_known_args(  # type: ignore[override]  # typeshed's overloads, one behaviour
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if self._unknown_option(extras) is not None:
            self.error("")  # names the unknown option
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        unknown = self._unknown_option(self._given or [])
        if unknown is not None:
            message = f"unknown option {unknown}{self._suggestion(unknown)}"
        else:
            message += " (see --help)"
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def _unknown_option(self, given: Sequence[str]) -> str | None:
        """The first of ``given`` that looks like an option of this command and is none (a
        unique or ambiguous abbreviation is argparse's to judge); None when all are known.
        A command with sub-commands owns only what comes before the sub-command's name."""
        nested = any(isinstance(a, argparse._SubParsersAction) for a in self._actions)
        for arg in given:
            if arg == "--":
                break
            if not arg.startswith("-") or arg == "-" or self._negative_number_matcher.match(arg):
                if nested:
                    break
                continue
            name = arg.split("=", 1)[0]
            known = self._option_string_actions
            if name in known or (not name.startswith("--") and name[:2] in known):
                continue  # -q, -qv, -h
            if name.startswith("--") and any(option.startswith(name) for option in known):
                continue
            return name
        return None

    def _suggestion(self, unknown: str) -> str:
        if unknown in _FOREIGN_OPTIONS and "--exclude" in self._option_string_actions:
            return f": {_FOREIGN_OPTIONS[unknown]}"
        options = [option for option in self._option_string_actions if option.startswith("--")]
        close = difflib.get_close_matches(unknown, options, n=1, cutoff=0.75)
        return f" (did you mean {close[0]}?)" if close else " (see --help)"


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree."""
    parser = _OneLineParser(prog="politecrawl", description="A polite, robots-aware web crawler.")
    parser.add_argument("--version", action="version", version=f"politecrawl {VERSION}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_OneLineParser)
    commands.required = True
    _add_crawl_commands(commands)
    _add_inspect_commands(commands)
    add_robots_commands(commands)
    add_audit_command(commands)
    _add_demo_command(commands)
    return parser


def _later(module: str, function: str) -> Callable[[argparse.Namespace], int]:
    """A command that imports its module only when it runs (the crawl machinery is heavy)."""

    def run(args: argparse.Namespace) -> int:
        command: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module(module), function
        )
        if getattr(args, "freeze_imports", False):
            # The modules just imported (about 80,000 tracked objects) live as long as the process:
            # out of the collector's sight, its full collections during a crawl no longer walk
            # them, and the interpreter's exit no longer takes 0.15-0.3 s to tear them down.
            gc.freeze()
        return command(args)

    return run


def _add_crawl_commands(commands: Any) -> None:
    run = commands.add_parser("run", help="start or continue a crawl from a seeds file")
    run.add_argument("seeds", help="a text file of URLs, one a line (# comments); - for stdin")
    add_crawl_options(run)
    run.set_defaults(run=_later("politecrawl.cli.run", "run_command"))
    resume = commands.add_parser("resume", help="continue the crawl stored in --db")
    add_crawl_options(resume, with_scope=False)
    resume.set_defaults(run=_later("politecrawl.cli.run", "resume_command"))
    recrawl = commands.add_parser(
        "recrawl", help="revisit a crawled site with conditional requests; report what changed"
    )
    add_crawl_options(recrawl, with_scope=False)
    recrawl.add_argument(
        "--max-age",
        "--changed-since",
        dest="max_age",
        metavar="DURATION",
        help="revisit only pages fetched longer ago than this (90s, 30m, 12h, 7d)",
    )
    recrawl.set_defaults(run=_later("politecrawl.cli.run", "recrawl_command"))
    check = commands.add_parser(
        "check",
        help="check a site for broken links, outbound links, resources and #fragments (exit 1 "
        "when something is broken or the check is incomplete)",
    )
    check.add_argument("site", help="the site's URL (its origin is crawled)")
    add_crawl_options(
        check,
        with_scope=False,  # the site's origin is the scope; the patterns narrow it
        with_patterns=True,
        checking=True,
        db_default="one per site in the user's cache, $XDG_CACHE_HOME/politecrawl/HOST.db, "
        "else ~/.cache/politecrawl/HOST.db",
    )
    _add_report_output(check)
    check.set_defaults(run=_later("politecrawl.cli.check", "check_command"))


def _add_report_output(parser: argparse.ArgumentParser) -> None:
    """``--format`` and ``--out``: where and how ``report`` and ``check`` write the report."""
    parser.add_argument(
        "--format",
        choices=("text", "csv", "json", "html", "junit"),
        default="text",
        help="the report's format: text (default), csv, json, one self-contained html page, "
        "or junit (for CI)",
    )
    parser.add_argument("--out", help="write the report to this file instead of standard output")


def _add_demo_command(commands: Any) -> None:
    demo = commands.add_parser(
        "demo", help="crawl the bundled demo site (loopback 127.0.0.2-5) and print the report"
    )
    demo.add_argument(
        "--db", help="the demo crawl's database (default: politecrawl-demo.db here, made anew)"
    )
    demo.add_argument(
        "--warc", metavar="DIR", help="also write what the demo fetches to WARC files in DIR"
    )
    demo.set_defaults(run=_later("politecrawl.cli.demo", "demo_command"))


def _add_inspect_commands(commands: Any) -> None:
    inspect = "politecrawl.cli.inspect"

    status = commands.add_parser("status", help="frontier counts, waiting hosts, robots outcomes")
    status.add_argument("--db", required=True, help="crawl database: a path or a SQLAlchemy URL")
    status.set_defaults(run=_later(inspect, "status_command"))
    report = commands.add_parser("report", help="the site-maintenance report of a crawl")
    report.add_argument("--db", required=True, help="crawl database: a path or a SQLAlchemy URL")
    _add_report_output(report)
    report.add_argument(
        "--slow", type=float, default=2.0, metavar="S", help="pages slower than S seconds"
    )
    report.add_argument(
        "--compare", action="store_true", help="what changed since the previous pass (recrawls)"
    )
    report.add_argument(
        "--pass", dest="pass_number", type=int, metavar="N", help="compare pass N with N-1"
    )
    report.set_defaults(run=_later(inspect, "report_command"))
    why = commands.add_parser("why", help="how a URL was found and what was decided about it")
    why.add_argument("url", help="the URL (any spelling: it is canonicalised)")
    why.add_argument("--db", required=True, help="crawl database: a path or a SQLAlchemy URL")
    why.set_defaults(run=_later(inspect, "why_command"))
    db = commands.add_parser("db", help="the crawl database itself")
    db_commands = db.add_subparsers(dest="db_command", metavar="COMMAND")
    db_commands.required = True
    upgrade = db_commands.add_parser("upgrade", help="apply schema migrations (also done on open)")
    upgrade.add_argument("--db", required=True, help="crawl database: a path or a SQLAlchemy URL")
    upgrade.set_defaults(run=_later(inspect, "db_upgrade_command"))


def main(argv: Sequence[str] | None = None, *, freeze_imports: bool = False) -> int:
    """Run the command line; returns the exit status. ``freeze_imports``: the process is the
    command's own (``console``), so what the command imports is frozen out of the garbage
    collector; not for a caller that goes on after the command (its heap would be frozen)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.freeze_imports = freeze_imports
    try:
        status: int = args.run(args)
    except UserInputError as error:
        if args.debug:
            raise
        print(f"politecrawl: {error.one_line()}", file=sys.stderr)
        return EXIT_USAGE
    except PolitecrawlError as error:
        if args.debug:
            raise
        print(f"politecrawl: {error}", file=sys.stderr)
        return EXIT_USAGE
    return status


def console() -> int:
    """The ``politecrawl`` command (and ``python -m politecrawl``): ``main`` in a process of
    its own."""
    return main(freeze_imports=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console())
