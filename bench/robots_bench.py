"""Benchmark: politecrawl's robots engine against urllib.robotparser and Protego.

Run it on demand, never as a test: ``.venv/bin/python bench/robots_bench.py`` (about 20 s;
``--quick`` for a few seconds, ``--seed N`` for other inputs). Protego is a bench-only extra:
``.venv/bin/pip install protego`` (or ``pip install -e .[bench]``); without it, or without an
importable politecrawl, the missing rows are skipped with a note.

Inputs (``bench/robots_corpus.py``, seeded and deterministic): three robots.txt files of 10, 200
and 5,000 Allow/Disallow lines, each with a URL sample (2,000 absolute URLs on one host, about a
third disallowed for the ``*`` group, many with query strings). Every library gets the same text
and the same URLs. Measured per file and library:

* parse ms: parsing the text *and* answering one ``is_allowed`` call, since an engine may build
  its matcher lazily on first use (politecrawl does); the parse alone is shown beside it. Each
  sample is one cold run: ``re.purge()`` and a parse of an unrelated tiny file happen before it,
  untimed, so that a library's helper regexes are warm but nothing is reused from earlier parses
  of the same text (``re`` caches compiled patterns by their source). Median of the samples.
* checks/s: ``is_allowed`` over the URL sample with the ``*``-group robot, after a parse and a
  warm-up pass; the median of several passes. An engine too slow to answer the whole sample in
  about 0.4 s is timed on a prefix of it (marked ``*``; the sample is shuffled).

The engines take turns sample by sample, so drift in the machine's speed hits them alike, and
the garbage collector is off while timing. The calls: urllib
``RobotFileParser().parse(text.splitlines())`` then ``can_fetch(agent, url)``; Protego
``Protego.parse(text)`` then ``can_fetch(url, agent)``; politecrawl
``parse_robots(text, semantics=...)`` then ``policy.is_allowed(agent, url)``, for both the
``draft`` and the ``rfc9309`` semantics.

Before timing, the verdicts of every library are compared over the URL sample for three robots
(one per group) and with the corpus' longest-match model; the agreement rates are printed.
"""

from __future__ import annotations

import argparse
import gc
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.robotparser import RobotFileParser

from robots_corpus import (
    HOST,
    NAMED_AGENTS,
    SIZES,
    STAR_AGENT,
    Corpus,
    build_corpus,
    expected_allowed,
)

_WARM_UP_TEXT = "User-agent: *\nAllow: /a/b/\nDisallow: /a/\nDisallow: /q?x=\n"
_WARM_UP_URL = "https://warm.example/a/b/c"


@dataclass(frozen=True)
class Engine:
    """How one library parses a file and answers questions."""

    name: str
    parse: Callable[[str], Any]
    check: Callable[[Any, str, str], bool]
    check_all: Callable[[Any, str, list[str]], None]
    """Answer every URL of a list, in a loop of the same shape for every library."""


def _urllib_parse(text: str) -> RobotFileParser:
    parser = RobotFileParser()
    parser.parse(text.splitlines())
    return parser


def _urllib_check_all(parser: RobotFileParser, agent: str, urls: list[str]) -> None:
    can_fetch = parser.can_fetch
    for url in urls:
        can_fetch(agent, url)


def _protego_check_all(parser: Any, agent: str, urls: list[str]) -> None:
    can_fetch = parser.can_fetch
    for url in urls:
        can_fetch(url, agent)


def _politecrawl_check_all(policy: Any, agent: str, urls: list[str]) -> None:
    is_allowed = policy.is_allowed
    for url in urls:
        is_allowed(agent, url)


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def _engines() -> tuple[list[Engine], list[str]]:
    """The libraries that can be imported here, and notes on those that cannot."""
    engines = [
        Engine(
            "urllib.robotparser",
            _urllib_parse,
            lambda parser, agent, url: parser.can_fetch(agent, url),
            _urllib_check_all,
        )
    ]
    notes = []
    try:
        from protego import Protego  # noqa: PLC0415  (optional, bench-only)
    except ImportError:
        notes.append("Protego not installed (pip install protego): its rows are skipped")
    else:
        engines.append(
            Engine(
                f"Protego {_version('protego')}",
                Protego.parse,
                lambda parser, agent, url: parser.can_fetch(url, agent),
                _protego_check_all,
            )
        )
    sys.path.append(str(Path(__file__).resolve().parents[1]))  # the checkout, if not installed
    try:
        from politecrawl.robots import parse_robots  # noqa: PLC0415  (may be absent or broken)
    except Exception as error:  # a half-written engine: say so and bench the rest
        notes.append(f"politecrawl.robots not importable ({error}): its rows are skipped")
    else:
        for semantics in ("draft", "rfc9309"):
            engines.append(
                Engine(
                    f"politecrawl {semantics}",
                    lambda text, s=semantics: parse_robots(text, semantics=s),
                    lambda policy, agent, url: policy.is_allowed(agent, url),
                    _politecrawl_check_all,
                )
            )
    return engines, notes


@dataclass(frozen=True)
class Settings:
    n_urls: int
    parse_samples: int
    """Cold parse samples at least; more for fast parses, up to ``parse_budget_s``."""
    parse_budget_s: float
    check_passes: int
    pass_budget_s: float
    """A slow engine is timed on a prefix of the URL sample that it answers in about this long."""
    agreement_budget_s: float
    """Per file and engine; a slow engine is compared on a prefix of the questions."""


FULL = Settings(2_000, 9, 0.4, 5, 0.4, 2.0)
QUICK = Settings(500, 3, 0.1, 3, 0.1, 0.4)
_MIN_TIMED_URLS = 100


@dataclass(frozen=True)
class Result:
    corpus: Corpus
    engine: str
    parse_ms: float
    """Parse plus one is_allowed call, cold."""
    parse_only_ms: float
    checks_per_s: float
    urls_timed: int


def _time_parses(
    engines: list[Engine], text: str, url: str, settings: Settings
) -> list[tuple[float, float]]:
    """Per engine, medians of (parse + first check, parse alone) in ms.

    Engines take turns, one cold sample each per round, so that drift in the machine's speed
    hits them alike. Before each sample, untimed: ``re.purge()`` and a parse of a tiny file.
    """
    samples: list[list[tuple[float, float]]] = [[] for _ in engines]
    budget_s = settings.parse_budget_s * len(engines)
    gc.collect()
    started = time.perf_counter()
    rounds = 0
    while rounds < settings.parse_samples or (
        time.perf_counter() - started < budget_s and rounds < 201
    ):
        rounds += 1
        for engine, engine_samples in zip(engines, samples, strict=True):
            re.purge()
            engine.check(engine.parse(_WARM_UP_TEXT), STAR_AGENT, _WARM_UP_URL)
            gc.disable()
            try:
                t0 = time.perf_counter()
                parsed = engine.parse(text)
                t1 = time.perf_counter()
                engine.check(parsed, STAR_AGENT, url)
                t2 = time.perf_counter()
            finally:
                gc.enable()
            engine_samples.append((t2 - t0, t1 - t0))
    return [
        (
            statistics.median(total for total, _ in engine_samples) * 1e3,
            statistics.median(parse for _, parse in engine_samples) * 1e3,
        )
        for engine_samples in samples
    ]


def _time_checks(
    engines: list[Engine], text: str, urls: list[str], settings: Settings
) -> list[tuple[float, int]]:
    """Per engine, warm checks per second (median pass) and the URLs each pass asked about.

    Engines take turns, one pass each per round.
    """
    prepared = []
    for engine in engines:
        parsed = engine.parse(text)
        engine.check(parsed, STAR_AGENT, urls[0])  # lazy compiles and agent look-ups happen here
        probe = urls[:50]
        t0 = time.perf_counter()
        engine.check_all(parsed, STAR_AGENT, probe)
        per_check = (time.perf_counter() - t0) / len(probe)
        timed = urls[: max(_MIN_TIMED_URLS, int(settings.pass_budget_s / per_check))]
        engine.check_all(parsed, STAR_AGENT, timed)  # warm-up pass
        prepared.append((engine, parsed, timed))
    passes: list[list[float]] = [[] for _ in engines]
    for _ in range(settings.check_passes):
        for (engine, parsed, timed), engine_passes in zip(prepared, passes, strict=True):
            gc.collect()
            gc.disable()
            try:
                t0 = time.perf_counter()
                engine.check_all(parsed, STAR_AGENT, timed)
                engine_passes.append(time.perf_counter() - t0)
            finally:
                gc.enable()
    return [
        (len(timed) / statistics.median(engine_passes), len(timed))
        for (_, _, timed), engine_passes in zip(prepared, passes, strict=True)
    ]


def _verdicts(
    engine: Engine, text: str, asked: list[tuple[str, str]], budget_s: float
) -> list[bool]:
    parsed = engine.parse(text)
    verdicts: list[bool] = []
    deadline = time.perf_counter() + budget_s
    for index, (agent, url) in enumerate(asked):
        if index % 50 == 0 and index >= 300 and time.perf_counter() > deadline:
            break
        verdicts.append(engine.check(parsed, agent, url))
    return verdicts


def _shown(allowed: bool) -> str:
    return "allow" if allowed else "DENY"


def _agreement(corpus: Corpus, engines: list[Engine], budget_s: float) -> list[str]:
    """A summary of how the engines and the model agree on one file, with a few examples."""
    agents = (STAR_AGENT, *NAMED_AGENTS)
    asked = [(agent, url) for url in corpus.urls for agent in agents]
    answers = {engine.name: _verdicts(engine, corpus.text, asked, budget_s) for engine in engines}
    common = min(len(v) for v in answers.values())
    model = [expected_allowed(corpus, agent, url) for agent, url in asked[:common]]
    star = [model[i] for i in range(0, common, len(agents))]
    unanimous = sum(len({model[i], *(v[i] for v in answers.values())}) == 1 for i in range(common))
    scope = f"{common:,} verdicts" if common == len(asked) else f"first {common:,} verdicts"
    lines = [
        f"{corpus.name:8} {scope} ({len(agents)} robots x URLs), "
        f"{star.count(False) / len(star):.1%} disallowed for '*': "
        f"all agree on {unanimous / common:.3%}",
        "         vs model: "
        + ", ".join(
            f"{name} {sum(a == b for a, b in zip(v, model, strict=False)) / common:.3%}"
            for name, v in answers.items()
        ),
    ]
    for i in range(common):
        if len(lines) >= 5:
            break
        if len({model[i], *(v[i] for v in answers.values())}) > 1:
            agent, url = asked[i]
            lines.append(
                f"    e.g. {agent} {url.removeprefix(HOST)}: model={_shown(model[i])}, "
                + ", ".join(f"{name}={_shown(v[i])}" for name, v in answers.items())
            )
    return lines


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None or denominator == 0:
        return ""
    return f"{numerator / denominator:.2f}x"


def _print_table(results: list[Result]) -> None:
    print(
        f"{'file':8} {'rules':>5} {'KiB':>6}  {'library':20} {'parse+1st':>9} {'(parse':>8}"
        f" {'checks/s':>9}   {'pc/urllib':^15}   {'pc/Protego':^15}"
    )
    print(
        f"{'':44} {'ms':>9} {'only)':>8} {'':>9}   {'parse':>7} {'checks':>7}"
        f"   {'parse':>7} {'checks':>7}"
    )
    for index, result in enumerate(results):
        if index and result.corpus is not results[index - 1].corpus:
            print()
        ratios = ""
        if result.engine.startswith("politecrawl"):
            columns = []
            for key in ("urllib", "Protego"):
                base = next(
                    (r for r in results if r.corpus is result.corpus and r.engine.startswith(key)),
                    None,
                )
                parse = _ratio(result.parse_ms, base.parse_ms if base else None)
                checks = _ratio(result.checks_per_s, base.checks_per_s if base else None)
                columns.append(f"{parse:>7} {checks:>7}")
            ratios = "   ".join(columns)
        partial = "*" if result.urls_timed < len(result.corpus.urls) else " "
        print(
            f"{result.corpus.name:8} {result.corpus.n_rules:>5}"
            f" {len(result.corpus.text.encode()) / 1024:>6.1f}  {result.engine:20}"
            f" {result.parse_ms:>9.3f} {result.parse_only_ms:>8.3f}"
            f" {result.checks_per_s:>9,.0f}{partial}  {ratios}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer URLs and repeats (a few seconds)"
    )
    parser.add_argument("--seed", type=int, default=9309, help="corpus seed (default 9309)")
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="also time hostile files (50 MB, a 10 MB line, NUL/invalid UTF-8, 100,000 rules)",
    )
    args = parser.parse_args()
    settings = QUICK if args.quick else FULL
    started = time.perf_counter()

    engines, notes = _engines()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), {sys.platform}"
    )
    print(f"CPU: {_cpu_model()}")
    print("engines: " + ", ".join(engine.name for engine in engines))
    for note in notes:
        print(f"note: {note}")
    corpora = [build_corpus(name, n, settings.n_urls, args.seed) for name, n in SIZES.items()]

    robots = ", ".join((STAR_AGENT, *NAMED_AGENTS))
    print(f"\nAgreement on the URL samples (robots {robots}; model = longest match).")
    print("urllib reads 'Disallow: /tag?' as '/tag' (an empty query is dropped), so it also")
    print("denies /tag/... and /tagged: those disagreements are expected.")
    for corpus in corpora:
        for line in _agreement(corpus, engines, settings.agreement_budget_s):
            print(line)

    results = []
    for corpus in corpora:
        parses = _time_parses(engines, corpus.text, corpus.urls[0], settings)
        checks = _time_checks(engines, corpus.text, corpus.urls, settings)
        for engine, (parse_ms, parse_only_ms), (per_s, timed) in zip(
            engines, parses, checks, strict=True
        ):
            results.append(Result(corpus, engine.name, parse_ms, parse_only_ms, per_s, timed))

    print(
        "\nparse+1st ms: parse the text and answer one is_allowed (lazy compiles count), cold,"
        " median;\n(parse only): the same samples without the is_allowed call."
    )
    print(
        f"checks/s: is_allowed over the {settings.n_urls:,} URLs for '{STAR_AGENT}' (the '*'"
        f" group), warm, median of {settings.check_passes} passes;"
        f"\n* = too slow for the whole sample: timed on its first"
        f" ~{settings.pass_budget_s:g} s worth of URLs (at least {_MIN_TIMED_URLS})."
    )
    print("pc/X = politecrawl / X: parse < 1 and checks > 1 mean politecrawl is faster.\n")
    _print_table(results)
    if args.hostile:
        _print_hostile(engines)
    print(f"\ntotal {time.perf_counter() - started:.1f} s")


def _hostile_inputs() -> dict[str, str]:
    """Files a robot must survive (O8); text, since every engine takes text."""
    rules = "".join(f"Disallow: /r{i}/\n" for i in range(100_000))
    garbage = (bytes(range(256)) * 400).decode("latin-1")
    return {
        "50 MB of rules": "User-agent: *\n" + "Disallow: /x/y/z\n" * 3_000_000,
        "one 10 MB line": "User-agent: *\nDisallow: /" + "a" * 10_000_000 + "\n",
        "NUL and invalid UTF-8": "\x00" * 1000 + "\nUser-agent: *\nDisallow: /a\n" + garbage,
        "100,000 rules": "User-agent: *\n" + rules,
    }


def _print_hostile(engines: list[Engine]) -> None:
    """One cold parse plus one check per engine and hostile file, in seconds."""
    print("\nHostile files: parse + one is_allowed, seconds (one run each; politecrawl reads at")
    print("most 512 KiB, 16 KiB per line and 50,000 rules, O8; the others read everything).")
    inputs = _hostile_inputs()
    print(f"{'file':<24}" + "".join(f"{engine.name:>24}" for engine in engines))
    for name, text in inputs.items():
        cells = []
        for engine in engines:
            started = time.perf_counter()
            parsed = engine.parse(text)
            engine.check(parsed, STAR_AGENT, f"https://{HOST}/some/path?q=1")
            cells.append(f"{time.perf_counter() - started:>24.3f}")
        print(f"{name:<24}" + "".join(cells))


if __name__ == "__main__":
    main()
