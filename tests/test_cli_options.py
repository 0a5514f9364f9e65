"""What the command line says to a newcomer (issue 44) [B1]: an unknown option gets the closest
of its command's own, counts take their plurals, the commands it suggests run as printed, and
``resume`` says what it continues; the check switches as settings (end to end in
tests/test_cli_check_switches.py)."""

from __future__ import annotations

import argparse
import io
import os
import shlex
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from politecrawl.cli.demo import _politeness
from politecrawl.cli.hints import command, program
from politecrawl.cli.main import build_parser, main
from politecrawl.cli.progress import ProgressDisplay, describe_wait
from politecrawl.cli.run import effective_config, print_summary, resumed
from politecrawl.politeness import HostQueue
from politecrawl.results import CrawlSummary
from politecrawl.store import Frontier, FrontierStats, open_database

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    """Every command that runs (``db upgrade``, not ``db``), with its words and parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*words, name))
            return
    yield words, parser


def _typo(option: str) -> str:
    """``--exclude`` -> ``--exlcude``: two letters of the name swapped (``--db`` -> ``--bd``)."""
    name = option[2:]
    at = max(len(name) // 2 - 1, 0)
    return "--" + name[:at] + name[at + 1] + name[at] + name[at + 2 :]


COMMANDS = [
    (words, option)
    for words, parser in _commands(build_parser())
    for option in sorted(parser._option_string_actions)
    if option.startswith("--") and option != "--help" and len(set(option[2:])) > 1
]


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("words", "option"), COMMANDS, ids=[f"{' '.join(w)} {o}" for w, o in COMMANDS]
)
def test_b1_a_mistyped_option_of_any_command_gets_did_you_mean(words, option, capsys):
    typo = _typo(option)
    if typo == option:
        pytest.skip("the swap changes nothing")
    # Positionals given as far as the command has them, so that the option is the mistake.
    argv = [*words, *("http://127.0.0.9:9/" for _ in _positionals(words)), typo]
    line = _error(argv, capsys)
    assert (
        line
        == f"politecrawl {' '.join(words)}: error: unknown option {typo} (did you mean {option}?)"
    )


def _positionals(words: tuple[str, ...]) -> list[str]:
    parser = dict(_commands(build_parser()))[words]
    return [
        action.dest
        for action in parser._actions
        if not action.option_strings and not isinstance(action, argparse._SubParsersAction)
    ]


def test_b1_a_mistyped_required_option_is_named_rather_than_said_missing(capsys):
    line = _error(["status", "--bd", "crawl.db"], capsys)
    assert line == "politecrawl status: error: unknown option --bd (did you mean --db?)"


def test_b1_an_option_nothing_resembles_points_to_help(capsys):
    assert _error(["report", "--db", "c.db", "--frobnicate"], capsys) == (
        "politecrawl report: error: unknown option --frobnicate (see --help)"
    )
    assert _error(["--debg", "status", "--db", "c.db"], capsys) == (
        "politecrawl: error: unknown option --debg (did you mean --debug?)"
    )


def test_b1_linkcheckers_ignore_url_is_explained_not_taken_for_exclude(capsys):
    line = _error(["check", "http://127.0.0.9:9/", "--ignore-url=^https://x"], capsys)
    assert line.startswith("politecrawl check: error: unknown option --ignore-url: ")
    assert "links leaving the site are still checked" in line
    assert "--no-check-outbound" in line


def test_b1_usage_errors_other_than_options_stay_argparses(capsys):
    assert _error(["check", "http://127.0.0.9:9/", "--include"], capsys) == (
        "politecrawl check: error: argument --include: expected one argument (see --help)"
    )


def test_a_check_switch_overrides_the_file_and_a_pattern_replaces_its_list(tmp_path):
    file = tmp_path / "crawl.toml"
    file.write_text(
        '[scope]\ninclude = ["/a/"]\n[checking]\ncheck_outbound = true\ncheck_fragments = true\n'
    )
    argv = ["run", "seeds.txt", "--config", str(file), "--no-check-outbound"]
    config = effective_config(build_parser().parse_args([*argv, "--include", "/b/"]), None)
    assert config.checking.check_outbound is False
    assert config.checking.check_fragments is True  # not given: the file's
    assert config.scope.include == ("/b/",)
    stored = {"check_resources": True, "exclude": ["/x/"]}
    resume = ["resume", "--db", "c.db", "--no-check-resources"]
    config = effective_config(build_parser().parse_args(resume), stored)
    assert config.checking.check_resources is False
    assert config.scope.exclude == ("/x/",)


def test_counts_take_their_plurals_in_the_summary():
    out = io.StringIO()
    print_summary(CrawlSummary(pages=1, redirects=1, errors=1, sitemaps=1, checks=1), out)
    text = out.getvalue()
    assert text.startswith("1 page fetched in 0.0 s: ")
    assert "1 redirect, 1 error;" in text
    assert "1 sitemap read." in text
    assert "1 outbound link or resource checked" in text
    out = io.StringIO()
    print_summary(CrawlSummary(pages=2, redirects=0, errors=3), out)
    assert out.getvalue().startswith("2 pages fetched")
    assert "0 redirects, 3 errors;" in out.getvalue()
    assert "sitemap" not in out.getvalue()  # none read: not said (a 404 is no sitemap read)


def test_counts_take_their_plurals_in_the_progress_line():
    stream = io.StringIO()
    display = ProgressDisplay(
        lambda: CrawlSummary(pages=1, errors=1, sitemaps=1, checks=1),
        lambda: FrontierStats({"queued": 0, "leased": 0, "deferred": 0}),
        stream=stream,
        interval_seconds=0.0,
    )
    with display:
        display.tick()
    line = stream.getvalue()
    assert line.startswith("politecrawl: 1 page (")
    assert " 1 error, " in line
    assert "1 sitemap read, 1 link checked (0 broken)" in line
    one = HostQueue("a.example", 0, 0, 1.0, NOW, reason="deferred")
    assert describe_wait([one], NOW).endswith("; 1 host waiting: 1 deferred")


def test_counts_take_their_plurals_in_the_demo_and_status(tmp_path, capsys):
    text = _politeness([(0.0, "http://a", "/"), (0.0, "http://b", "/"), (0.5, "http://b", "/x")])
    assert text.splitlines() == [
        "The site saw 3 requests; smallest gap between two per host:",
        "  http://a: 1 request",
        "  http://b: 2 requests, 0.500 s",
    ]
    database = open_database(str(tmp_path / "c.db"))
    try:
        Frontier(database).add(["http://127.0.0.9:9/"], now=NOW)
    finally:
        database.close()
    assert main(["status", "--db", str(tmp_path / "c.db")]) == 0
    assert capsys.readouterr().out.startswith(f"crawl database {tmp_path / 'c.db'}: 1 URL\n")


def test_resume_says_what_it_continues():
    stats = FrontierStats(
        {"done": 170, "failed": 4, "queued": 340, "leased": 5, "deferred": 12, "excluded": 30}
        | {"out_of_scope": 10}
    )
    assert resumed(stats) == (
        "174 of 531 URLs done, 357 to go (12 of them deferred); 40 more not to be fetched "
        "(robots.txt, scope)"
    )
    assert resumed(FrontierStats({"done": 1})) == "1 of 1 URL done, 0 to go"


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_hint_names_the_program_as_it_can_be_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = _executable((tmp_path / "bin").mkdir() or tmp_path / "bin" / "politecrawl")
    # On PATH, this very script: its name.
    assert program(str(script), path=str(tmp_path / "bin")) == "politecrawl"
    # Not on PATH (as after `make demo`), or PATH finds another one: its path, as typed here.
    assert program(str(script), path="/nonexistent") == "bin/politecrawl"
    other = _executable((tmp_path / "other").mkdir() or tmp_path / "other" / "politecrawl")
    assert program(str(script), path=str(other.parent)) == "bin/politecrawl"
    monkeypatch.chdir("/")
    assert program(str(script), path="/nonexistent") == str(script)
    # Quoted for the shell.
    spaced = _executable((tmp_path / "my bin").mkdir() or tmp_path / "my bin" / "politecrawl")
    assert program(str(spaced), path="/nonexistent") == shlex.quote(str(spaced))


def test_a_hint_of_python_m_politecrawl_runs_as_printed(tmp_path, monkeypatch):
    package = Path(str(sys.modules["politecrawl"].__file__)).parent
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(package / "__main__.py")])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # not this environment's bin
    printed = command("--version")
    beside = Path(sys.executable).parent / "politecrawl"
    assert printed == (
        f"{shlex.quote(str(beside))} --version"
        if beside.is_file()
        else f"{shlex.quote(sys.executable)} -m politecrawl --version"
    )
    env = {**os.environ, "PYTHONPATH": str(package.parent)}  # the code under test
    ran = subprocess.run(printed, shell=True, capture_output=True, text=True, env=env, check=False)
    assert ran.returncode == 0, (printed, ran.stderr)
    assert ran.stdout.startswith("politecrawl ")
    # With this environment's bin on PATH, its name alone.
    monkeypatch.setenv("PATH", f"{beside.parent}:/usr/bin:/bin")
    if beside.is_file():
        assert command("--version") == "politecrawl --version"
