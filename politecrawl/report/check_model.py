"""The link checks of the report as values (L1-L4): what was checked and what was wrong.

``politecrawl.report.checks.build_link_checks`` fills a ``LinkChecks`` from a crawl database; it
is the ``checks`` field of a ``Report``. ``Referrer`` (a page linking to a URL, with the link's
text and line) lives here and serves every section that names linking pages; ``RobotsVerdict``
(a URL robots.txt forbids, with the deciding line) every section that names such a URL. Pure:
no I/O, no clock. Every tuple is in a stable order (by URL, then fragment, then linking page),
so two reports of one database are equal.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Referrer:
    """A page that links to a URL; ``nofollow``: the link was recorded but not followed (T5,
    T6). ``text`` and ``line`` say where the link is; ``resource``: it is an image,
    stylesheet, script, frame or media source (L3); ``redirect``: the "page" is a redirect to
    the URL, no link anyone wrote (C4)."""

    url: str
    nofollow: bool = False
    text: str | None = None
    line: int | None = None
    resource: bool = False
    redirect: bool = False


@dataclass(frozen=True, slots=True)
class BrokenCheck:
    """A link leaving the site or a page resource that answered status >= 400 or failed
    (L1-L3), with every page linking to it."""

    url: str
    origin: str
    status: int | None
    state: str
    """``done`` (with the status) or ``failed`` (a network error after the retries)."""
    error: str | None
    method: str | None
    """How it was asked: ``HEAD``, or ``HEAD,GET`` when HEAD was refused (L2)."""
    referrers: tuple[Referrer, ...]
    from_pass: int | None = None
    """None: found by the current pass; else the earlier pass that found it, which the
    current (unfinished) pass has not re-checked yet."""

    @property
    def problem(self) -> str:
        """What went wrong, in a few words."""
        return self.error or (f"HTTP {self.status}" if self.status is not None else self.state)

    @property
    def is_resource(self) -> bool:
        """Every page uses it as a resource (an image, a stylesheet, ...), none links to it."""
        return bool(self.referrers) and all(ref.resource for ref in self.referrers)


@dataclass(frozen=True, slots=True)
class RedirectToUpdate:
    """A URL pages link to that answered a permanent redirect (301, 308): the links should
    point at ``new_url``, where the permanent redirects lead."""

    url: str
    status: int
    new_url: str | None
    """The end of the permanent redirects from ``url`` (a temporary redirect's target is no
    place to link to); None when the answer named no valid location."""
    new_outcome: str
    """What ``new_url`` answered (``200``, ``404``, ``302``), else its state (``excluded``), or
    ``not crawled``, or ``redirect loop``."""
    hops: int
    """Permanent redirects from ``url`` to ``new_url``."""
    referrers: tuple[Referrer, ...]

    @property
    def is_ok(self) -> bool:
        """The new URL answered 2xx: updating the link fixes it for good."""
        return self.new_outcome.isdigit() and 200 <= int(self.new_outcome) < 300


@dataclass(frozen=True, slots=True)
class RobotsVerdict:
    """A URL robots.txt forbids politecrawl to request, with the line that decided (O3-O5,
    M1, M7): what a robots exclusion (``model.RobotsExclusion``) and a forbidden link check
    (``ForbiddenCheck``) say alike, and how every section words it."""

    url: str
    origin: str
    semantics: str
    line: int | None
    text: str | None
    """The deciding Allow/Disallow line as written; None for a whole-origin refusal (O5)."""
    why: str

    @property
    def rule(self) -> str:
        """The deciding line as written, or why the whole origin is refused."""
        return self.text if self.text is not None else self.why

    @property
    def deciding(self) -> str:
        """``line 2: Disallow: /private``, or why the whole origin is refused."""
        return self.rule if self.line is None else f"line {self.line}: {self.rule}"


@dataclass(frozen=True, slots=True)
class ForbiddenCheck(RobotsVerdict):
    """A link leaving the site (or a resource) that its robots.txt forbids politecrawl to
    request: never checked (L1), with the deciding line as for pages."""

    referrers: tuple[Referrer, ...]


@dataclass(frozen=True, slots=True)
class MissingFragment:
    """A ``#fragment`` that pages link to on a page without that id or ``<a name>`` (L4)."""

    url: str
    """The page linked to, without the fragment."""
    origin: str
    fragment: str
    """As written in the links, percent-decoded."""
    referrers: tuple[Referrer, ...]
    """The linking pages, each with the line of the link."""
    from_pass: int | None = None
    """None: judged on the page as the current pass fetched it; else as the earlier pass
    did, the current (unfinished) pass not having fetched it again yet."""

    @property
    def link(self) -> str:
        """``url#fragment``: the link as pages write it."""
        return f"{self.url}#{self.fragment}"


@dataclass(frozen=True, slots=True)
class LinkChecks:
    """What link checking found (L1-L4). ``enabled`` False and every section empty when the
    crawl checked nothing: no outbound link, no resource, no fragment."""

    enabled: bool = False
    pages_checked: int = 0
    """In-scope pages fetched (done or failed): link targets checked by crawling them."""
    checks_made: int = 0
    """Links leaving the site and resources asked for their status (done or failed)."""
    checks_waiting: int = 0
    """Checks not made yet: queued, or deferred (their robots.txt unreachable, a back-off)."""
    fragments_checked: int = 0
    """``#fragment`` links judged against the anchors of their page."""
    broken: tuple[BrokenCheck, ...] = ()
    redirects: tuple[RedirectToUpdate, ...] = ()
    robots_forbidden: tuple[ForbiddenCheck, ...] = ()
    missing_fragments: tuple[MissingFragment, ...] = ()

    @property
    def counts(self) -> dict[str, int]:
        """What was checked, then findings per kind."""
        return {
            "pages_checked": self.pages_checked,
            "checks_made": self.checks_made,
            "checks_waiting": self.checks_waiting,
            "fragments_checked": self.fragments_checked,
            "broken": len(self.broken),
            "redirects": len(self.redirects),
            "robots_forbidden": len(self.robots_forbidden),
            "missing_fragments": len(self.missing_fragments),
        }
