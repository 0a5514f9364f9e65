"""Following one lease through the code, as a reader does (issue 39's measure). Prints figures.

    .venv/bin/python bench/lease_walk.py

A crawl of a scripted three-page site (``ScriptedFetcher``: no network) runs in this process;
the visit of its first page (a fetched page with links, after robots.txt: the origin's caches,
such as its robots.txt's use preferences, are filled then), of a later page (the walk of most
leases) and, for comparison, ``assembly.visitor_of`` are traced. Every call from one politecrawl
module into another is a step of the walk; the walk is the sequence of modules called into
(starting with the traced function's), consecutive repeats collapsed; calls into the clock, into
the scripted fetcher that stands in for the network, into a value's ``__init__`` or property are
not steps, and a call already read (the same caller calling the same function again, in a loop
or for the second reading of robots.txt) is not read again. Printed:

- **stays**: the length of that sequence (each time the reader opens a module);
- **modules**: how many different modules it holds;
- **returns**: stays in a module already left once (stays - modules);
- **climbs**: calls from a package into one it sits below in DESIGN.md's layers (up the stack).

The walk is read as a reader follows the calls, so coming back from a callee is not a step.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from politecrawl import CrawlConfig, Crawler
from politecrawl.crawl import assembly, crawler as crawler_module, visit
from politecrawl.testing import Answer, ScriptedFetcher

# DESIGN.md's layers, top first, as the import contract draws them (a package's rank).
LAYERS = [
    ("politecrawl.cli", "politecrawl.testing"),
    ("politecrawl.demo_site",),
    ("politecrawl.crawl", "politecrawl.audit"),
    ("politecrawl.gate", "politecrawl.report", "politecrawl.warc"),
    ("politecrawl.fetch", "politecrawl.store"),
    ("politecrawl.preferences",),
    (
        "politecrawl.scope",
        "politecrawl.seeds",
        "politecrawl.links",
        "politecrawl.directives",
        "politecrawl.politeness",
        "politecrawl.results",
    ),
    ("politecrawl.html", "politecrawl.sitemaps"),
    ("politecrawl.robots",),
    ("politecrawl.config",),
    ("politecrawl.urls", "politecrawl.httpdates", "politecrawl.clock", "politecrawl.usage"),
    ("politecrawl.errors", "politecrawl._version"),
]

# The time source, and the scripted fetcher that stands in for the network here.
_NOT_A_STEP = frozenset(("politecrawl.clock", "politecrawl.testing"))

SITE = "http://walk.example"
SCRIPT = {
    f"{SITE}/robots.txt": Answer(
        200, "User-agent: *\nDisallow: /private\n", (("Content-Type", "text/plain"),)
    ),
    f"{SITE}/": Answer(200, '<a href="/a">a</a> <a href="/b">b</a> <a href="/private/x">x</a>'),
    f"{SITE}/a": Answer(200, '<title>a</title><a href="/">home</a>'),
    f"{SITE}/b": Answer(200, "<title>b</title>"),
}


def rank(module: str) -> int:
    """A module's layer (0 at the top); modules of no listed package rank last."""
    for index, layer in enumerate(LAYERS):
        if any(module == name or module.startswith(name + ".") for name in layer):
            return index
    return len(LAYERS)


class Walk:
    """The modules a traced call goes through, in the order a reader opens them."""

    def __init__(self) -> None:
        self.steps: list[str] = []
        self.edges: set[tuple[object, object]] = set()
        self.climbs = 0

    def trace(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        if not callee.startswith("politecrawl") or callee == caller or callee in _NOT_A_STEP:
            return
        name = frame.f_code.co_name
        if name.startswith("__"):
            return  # a value's __init__ or __post_init__: read with the value, not a step
        owner = frame.f_locals.get("self")
        if owner is not None and isinstance(getattr(type(owner), name, None), property):
            return  # a value's property, read with the value
        edge = (frame.f_back.f_code if frame.f_back else None, frame.f_code)
        if edge in self.edges:
            return  # a call read once already (a loop, a second reading of robots.txt)
        self.edges.add(edge)
        if not caller.startswith("politecrawl"):
            return  # called back from a library (a dataclass, SQLAlchemy): not a reader's step
        if rank(callee) < rank(caller):
            self.climbs += 1
        if not self.steps or self.steps[-1] != callee:
            self.steps.append(callee)

    def run(self, first: str, call: Callable[[], Any]) -> Any:
        self.steps = [first]
        sys.setprofile(self.trace)
        try:
            return call()
        finally:
            sys.setprofile(None)

    def describe(self, title: str) -> str:
        modules = len(set(self.steps))
        returns = len(self.steps) - modules
        path = " > ".join(step.removeprefix("politecrawl.") for step in self.steps)
        return (
            f"{title}: {len(self.steps)} stays in {modules} modules, {returns} returns to a "
            f"module already left, {self.climbs} climbs\n  {path}"
        )


def main() -> None:
    walk_visit, walk_later, walk_assembly = Walk(), Walk(), Walk()
    visits = 0
    original_visit = visit.Visitor.visit
    original_visitor_of = assembly.visitor_of

    def traced_visit(self: visit.Visitor, lease: Any) -> Any:
        nonlocal visits
        visits += 1
        if lease.url == f"{SITE}/" and lease.attempts == 0 and visits > 1:
            return walk_visit.run(visit.__name__, lambda: original_visit(self, lease))
        if lease.url == f"{SITE}/b":
            return walk_later.run(visit.__name__, lambda: original_visit(self, lease))
        return original_visit(self, lease)

    def traced_visitor_of(*args: Any, **kwargs: Any) -> Any:
        return walk_assembly.run(assembly.__name__, lambda: original_visitor_of(*args, **kwargs))

    visit.Visitor.visit = traced_visit  # type: ignore[method-assign]
    crawler_module.visitor_of = traced_visitor_of  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as directory:
        config = CrawlConfig(
            database=str(Path(directory) / "walk.db"), agent="walkbot", delay_seconds=0, workers=1
        )
        with Crawler(config, fetcher=ScriptedFetcher(SCRIPT)) as crawler:
            crawler.add_seeds([f"{SITE}/"])
            crawler.run()
    print(walk_visit.describe("The origin's first page's lease, from Visitor.visit"))
    print(walk_later.describe("A later page's lease (the origin's caches warm)"))
    print(walk_assembly.describe("assembly.visitor_of"))


if __name__ == "__main__":
    main()
