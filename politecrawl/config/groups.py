"""Crawl settings: nested frozen groups that mirror the TOML tables, each setting with its SPEC
default and a docstring.

``CrawlConfig`` is what the library takes and what the command line builds (flags > environment
> file > defaults, issue 5: ``politecrawl.config.loader`` layers them). Its groups are the
tables of ``config/politecrawl.toml``: ``crawl`` (who crawls), ``politeness``, ``scope``,
``fetching``, ``robots``, ``sitemaps``, ``checking``, ``storage`` and ``archive``; each
consumer is handed its group. A setting may also be given by its own name, as at a TOML
file's top level: ``CrawlConfig(agent="examplebot", delay_seconds=0.5)`` puts each in its group.
``validate()`` names the setting that is impossible in ``ConfigError.key`` (B1).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints

from politecrawl._version import VERSION
from politecrawl.config.robots_values import (
    DEFAULT_SEMANTICS,
    SEMANTICS_NAMES,
    OutcomeSettings,
    RobotsLimits,
    SemanticsName,
)
from politecrawl.errors import ConfigError

ScopeMode = Literal["seeds", "domain", "any"]
Purpose = Literal["none", "search", "ai-input", "ai-train"]
PolitenessUnit = Literal["server", "host"]
SitemapLastmod = Literal["revalidate", "skip"]
DAY_SECONDS = 86_400.0


@dataclass(frozen=True, slots=True)
class _Check:
    """What a numeric setting must be; ``validate()`` reads it from the field's metadata."""

    minimum: int
    inclusive: bool  # the minimum itself is allowed
    seconds: bool  # a finite number of seconds, not a count

    def problem(self, value: float) -> str | None:
        """Why ``value`` is impossible, or None."""
        too_low = value < self.minimum if self.inclusive else value <= self.minimum
        if self.seconds and (not math.isfinite(value) or too_low):
            relation = ">=" if self.inclusive else ">"
            return f"must be a number of seconds {relation} {self.minimum}, not {value!r}"
        if not self.seconds and too_low:
            bound = "at least 1" if self.minimum == 1 else "0 or more"
            return f"must be {bound}, not {value!r}"
        return None


_SECONDS_OR_ZERO = {"check": _Check(0, inclusive=True, seconds=True)}
_SECONDS = {"check": _Check(0, inclusive=False, seconds=True)}
_COUNT = {"check": _Check(1, inclusive=True, seconds=False)}
_COUNT_OR_ZERO = {"check": _Check(0, inclusive=True, seconds=False)}


@dataclass(frozen=True, slots=True)
class CrawlSettings:
    """[crawl]: who crawls, and with how many workers."""

    agent: str = "politecrawl"
    """The robot's name token (A1): matched against User-agent lines and robot META names."""
    contact: str | None = None
    """A URL or address where site owners can reach you, sent in the User-Agent (P5)."""
    workers: int = field(default=4, metadata=_COUNT)
    """Worker threads in each process of the crawl."""
    processes: int = field(default=1, metadata=_COUNT)
    """Processes crawling together (``HelperProcesses``): Python runs one thread at a time per
    process, so a crawl at a short delay needs more than one to use more than one core."""
    purpose: Purpose = "none"
    """What the content is fetched for (U5): none (nothing is withheld), search (a search index),
    ai-input (content given to a model at answer time: RAG, grounding) or ai-train (training or
    fine-tuning). With a purpose, a URL whose robots.txt (Content-Signal, Content-Usage) or
    tdmrep.json (fetched once per origin for ai-input and ai-train) refuses it is not fetched,
    and a page refused by its own headers or metas is recorded as refused and never indexable.
    Every page's signals are recorded whatever the purpose (U6)."""

    @property
    def user_agent(self) -> str:
        """The User-Agent header: the name token as product, with the contact URL (A1, P5)."""
        comment = f" (+{self.contact})" if self.contact else ""
        return f"{self.agent}/{VERSION}{comment}"


@dataclass(frozen=True, slots=True)
class PolitenessSettings:
    """[politeness]: how gently each host is asked (P1-P3)."""

    delay_seconds: float = field(default=1.0, metadata=_SECONDS_OR_ZERO)
    """The minimum time between the end of one request to a host and the start of the next (P2)."""
    max_crawl_delay_seconds: float = field(default=60.0, metadata=_SECONDS)
    """A host asking for a longer Crawl-delay is not crawled faster: it is deferred (P2)."""
    slowdown_factor: float = field(default=1.0, metadata=_SECONDS_OR_ZERO)
    """The delay is at least this multiple of the host's last response time (P3)."""
    max_slowdown_seconds: float = field(default=30.0, metadata=_SECONDS)
    """The most a slow response time adds to the delay; a time-out is not a response time (P3)."""
    max_backoff_seconds: float = field(default=600.0, metadata=_SECONDS)
    """The longest delay after consecutive failures of a host (exponential back-off, P3)."""
    retry_backoff_seconds: float = field(default=1.0, metadata=_SECONDS)
    """A failing page is retried no sooner than this after its failure, doubling per attempt,
    and never right after another failure of its host while it has fresh pages (P3, C7). The
    same as ``robots_retry_seconds`` (O6: about 1 s, doubling); a server in trouble (429, 503,
    time-outs) also slows its whole host, so this is the wait of a page broken on its own."""
    max_in_flight_per_host: int = field(default=1, metadata=_COUNT)
    """Requests in flight per host, across all workers and processes (P1)."""
    politeness_unit: PolitenessUnit = "server"
    """server: host names on one address (an IPv6 /64) share its limits below as well as
    keeping their own; host: each host name alone, whatever machine it is on (P6)."""
    max_in_flight_per_server: int = field(default=2, metadata=_COUNT)
    """Requests in flight to one server (an IP address, an IPv6 /64), across every host name
    on it, worker and process; never fewer than ``max_in_flight_per_host`` (P6)."""
    server_delay_seconds: float | None = field(default=None, metadata=_SECONDS_OR_ZERO)
    """The minimum time between the starts of two requests to one server; empty: the smallest
    delay of the hosts on it, so that a server with one host name paces it as before (P6)."""
    server_exempt_networks: tuple[str, ...] = ()
    """Networks (CIDR) whose addresses are not one server: a large CDN's, where one address
    fronts unrelated sites. Their hosts keep their own pace only (P6)."""
    address_max_age_seconds: float = field(default=300.0, metadata=_SECONDS)
    """A host name is resolved again when its address was learnt longer ago than this (the
    system resolver does not tell a DNS answer's lifetime; its cache honours it, P6)."""


@dataclass(frozen=True, slots=True)
class ScopeSettings:
    """[scope]: what may be fetched, and how much (C1, C3)."""

    scope: ScopeMode = "seeds"
    """seeds: only the seeds' origins; domain: their hosts and subdomains; any (C1)."""
    include: tuple[str, ...] = ()
    """Regular expressions; when given, a URL must match one of them (C1)."""
    exclude: tuple[str, ...] = ()
    """Regular expressions; a URL matching one is out of scope (C1)."""
    max_pages: int | None = field(default=None, metadata=_COUNT_OR_ZERO)
    """Stop after this many fetched pages (a run limit; the crawl can be resumed)."""
    max_depth: int | None = field(default=None, metadata=_COUNT_OR_ZERO)
    """Links further than this from a seed are out of scope (C1)."""
    max_pages_per_host: int | None = field(default=None, metadata=_COUNT_OR_ZERO)
    """Fetch at most this many pages per host (C1)."""
    max_duration_seconds: float | None = field(default=None, metadata=_SECONDS)
    """Stop claiming new work after this long (a run limit; resumable)."""
    trusted_networks: tuple[str, ...] = ()
    """Private address ranges (CIDR) that links, redirects and host names may lead into."""
    resolve: tuple[str, ...] = ()
    """``HOST:ADDRESS`` answers given before DNS, as curl's --resolve (a staging host, say)."""
    max_url_length: int = field(default=2048, metadata=_COUNT)
    """Trap guard: longer URLs are not fetched (C3)."""
    max_path_segments: int = field(default=32, metadata=_COUNT)
    """Trap guard: deeper paths are not fetched (C3)."""
    max_repeated_segment: int = field(default=3, metadata=_COUNT)
    """Trap guard: a path repeating one segment more often is not fetched (C3)."""
    max_query_bytes: int = field(default=1024, metadata=_COUNT)
    """Trap guard: longer query strings are not fetched (C3)."""


@dataclass(frozen=True, slots=True)
class FetchingSettings:
    """[fetching]: how a page is requested and read (C4, C7, T6)."""

    connect_timeout_seconds: float = field(default=10.0, metadata=_SECONDS)
    """Time-out for opening a connection (C7)."""
    response_timeout_seconds: float = field(default=30.0, metadata=_SECONDS)
    """Time-out for a whole response: a server trickling bytes is cut off (C7)."""
    max_body_bytes: int = field(default=10 * 1024 * 1024, metadata=_COUNT)
    """Bytes of a body kept after decompression; the rest is cut off and recorded (C7)."""
    max_retries: int = field(default=3, metadata=_COUNT_OR_ZERO)
    """Retries of a page after a temporary failure, with back-off (C7, P3)."""
    max_timeout_retries: int = field(default=1, metadata=_COUNT_OR_ZERO)
    """A page that timed out is retried only while it has failed fewer times than this (failures
    of any kind count; never beyond ``max_retries``): each attempt that times out holds its
    host's one request in flight for a whole time-out, its other pages waiting (P1, P3)."""
    max_redirects: int = field(default=10, metadata=_COUNT_OR_ZERO)
    """Redirect hops followed from one URL (C4)."""
    honour_rel_nofollow: bool = True
    """Links with rel=nofollow are not followed (T6)."""


@dataclass(frozen=True, slots=True)
class RobotsSettings:
    """[robots]: how robots.txt is read, cached and retried (M6, O5-O8, E2, E4)."""

    semantics: SemanticsName = DEFAULT_SEMANTICS
    """How robots.txt is read: strict fetches only what both the 1996 draft and RFC 9309 allow
    (M7, the default); draft or rfc9309 reads it one way alone (M6)."""
    robots_max_bytes: int = field(default=RobotsLimits().max_bytes, metadata=_COUNT)
    """Octets of robots.txt read; the rest is ignored (O8)."""
    robots_max_redirects: int = field(default=5, metadata=_COUNT_OR_ZERO)
    """Redirect hops followed for robots.txt (O7)."""
    robots_min_lifetime_seconds: float = field(default=1.0, metadata=_SECONDS)
    """The shortest cache lifetime a robots.txt gets (E2)."""
    robots_max_lifetime_seconds: float = field(default=7 * DAY_SECONDS, metadata=_SECONDS)
    """The longest cache lifetime, whatever the headers say (E2); also the default."""
    robots_denied_lifetime_seconds: float = field(default=DAY_SECONDS, metadata=_SECONDS)
    """How long a 401/403 (whole origin disallowed) is cached (E4)."""
    robots_retry_seconds: float = field(default=1.0, metadata=_SECONDS_OR_ZERO)
    """Wait after the first temporary failure of robots.txt, doubling after each (O6)."""
    robots_max_attempts: int = field(default=4, metadata=_COUNT)
    """Attempts at an unreachable robots.txt in one run; then the origin stays deferred (O6)."""
    unauthorized_means_allowed: bool = False
    """Read 401/403 as RFC 9309 does (no restrictions) instead of the draft (all disallowed, O5)."""

    @property
    def outcome_settings(self) -> OutcomeSettings:
        """What ``politecrawl.robots.outcome`` needs of these settings."""
        return OutcomeSettings(
            min_lifetime_seconds=self.robots_min_lifetime_seconds,
            max_lifetime_seconds=self.robots_max_lifetime_seconds,
            denied_lifetime_seconds=self.robots_denied_lifetime_seconds,
            retry_seconds=self.robots_retry_seconds,
            max_attempts=self.robots_max_attempts,
            unauthorized_means_allowed=self.unauthorized_means_allowed,
        )


@dataclass(frozen=True, slots=True)
class SitemapSettings:
    """[sitemaps]: discovery and limits (S1-S3)."""

    sitemaps: bool = True
    """Read the sitemaps of in-scope origins and queue the URLs they list (S1, S2)."""
    sitemap_guess: bool = True
    """Try <origin>/sitemap.xml when robots.txt names no sitemap (S1)."""
    max_sitemaps_per_origin: int = field(default=50, metadata=_COUNT)
    """Sitemap lines of a robots.txt read, in file order (S1)."""
    max_sitemap_nesting: int = field(default=2, metadata=_COUNT_OR_ZERO)
    """Sitemap indexes followed below a sitemap named by robots.txt (S2)."""
    max_sitemap_entries: int = field(default=50_000, metadata=_COUNT)
    """URLs read from one sitemap file (sitemaps.org's limit, S2)."""
    max_sitemap_bytes: int = field(default=50 * 1024 * 1024, metadata=_COUNT)
    """Bytes of one sitemap file read after decompression (sitemaps.org's limit, S2)."""
    sitemap_lastmod: SitemapLastmod = "revalidate"
    """In a recrawl pass, a URL whose sitemap lastmod is older than its last fetch: revalidate
    (a conditional request, as any URL) or skip (no request; the last result stands, S3)."""


@dataclass(frozen=True, slots=True)
class CheckingSettings:
    """[checking]: link checking (L1-L4)."""

    check_outbound: bool = False
    """Links leaving the site are checked once each (HEAD, else GET), never followed (L1, L2)."""
    check_resources: bool = False
    """Images, stylesheets, scripts, frames and media of the pages are checked too (L3)."""
    check_fragments: bool = False
    """``page#section`` links must find that id (or ``<a name>``) on the page (L4)."""
    check_fresh_seconds: float = field(default=DAY_SECONDS, metadata=_SECONDS)
    """A recrawl does not check a link again that was checked less than this long ago."""
    check_retries: int = field(default=1, metadata=_COUNT_OR_ZERO)
    """A check that failed for a reason worth trying again (429, 500, 502, 503, 504, no answer)
    is tried at most this many times more, never beyond ``max_retries`` (nor, after a time-out,
    ``max_timeout_retries``): a check wants a verdict, not the page, and each further retry of
    a broken link holds the end of a site check for its back-off (C7, L1)."""


@dataclass(frozen=True, slots=True)
class StorageSettings:
    """[storage]: the crawl database and its leases (C5)."""

    database: str = "crawl.db"
    """A SQLite file path, or a SQLAlchemy URL such as postgresql+psycopg://... (C5)."""
    synchronous_full: bool = False
    """SQLite: fsync every commit, so that not even a power cut loses one (slower)."""
    lease_seconds: float = field(default=120.0, metadata=_SECONDS)
    """How long a claimed URL stays with its worker before it returns to the queue (C5)."""


@dataclass(frozen=True, slots=True)
class ArchiveSettings:
    """[archive]: WARC output."""

    warc_dir: str | None = None
    """Write every HTTP exchange to WARC files in this directory (``politecrawl.warc``)."""
    warc_max_file_bytes: int = field(default=1 << 30, metadata=_COUNT)
    """A WARC file is closed and the next one begun once it is this large."""


SettingsGroup = (
    CrawlSettings
    | PolitenessSettings
    | ScopeSettings
    | FetchingSettings
    | RobotsSettings
    | SitemapSettings
    | CheckingSettings
    | StorageSettings
    | ArchiveSettings
)


@dataclass(frozen=True, slots=True, init=False)
class CrawlConfig:
    """Everything a crawl can be told, in groups. Defaults are the polite ones of SPEC.md.

    ``CrawlConfig(politeness=PolitenessSettings(delay_seconds=0.5))`` and
    ``CrawlConfig(delay_seconds=0.5)`` are the same configuration; a setting given by name
    overrides that setting of a group given whole.
    """

    crawl: CrawlSettings
    politeness: PolitenessSettings
    scope: ScopeSettings
    fetching: FetchingSettings
    robots: RobotsSettings
    sitemaps: SitemapSettings
    checking: CheckingSettings
    storage: StorageSettings
    archive: ArchiveSettings
    extra: dict[str, str] = field(compare=False)
    """Reserved for front ends (e.g. the configuration file a run came from)."""

    def __init__(self, *, extra: dict[str, str] | None = None, **given: Any) -> None:
        self._assemble({}, given, {} if extra is None else extra)

    def _assemble(
        self, groups: Mapping[str, SettingsGroup], given: Mapping[str, Any], extra: dict[str, str]
    ) -> None:
        """Set every group: from ``groups``, then groups and settings by name from ``given``."""
        chosen = dict(groups)
        by_group: dict[str, dict[str, Any]] = {}
        for name, value in given.items():
            # ``scope`` and ``sitemaps`` name a group and a setting of it: the value tells which.
            if name in GROUP_TYPES and (
                isinstance(value, GROUP_TYPES[name]) or name not in TABLE_OF
            ):
                if not isinstance(value, GROUP_TYPES[name]):
                    raise TypeError(f"{name} must be a {GROUP_TYPES[name].__name__}")
                chosen[name] = value
            elif name in TABLE_OF:
                by_group.setdefault(TABLE_OF[name], {})[name] = value
            else:
                raise TypeError(f"CrawlConfig has no setting {name!r}")
        for table, group_type in GROUP_TYPES.items():
            group = chosen.get(table) or group_type()
            if table in by_group:
                group = dataclasses.replace(group, **by_group[table])
            object.__setattr__(self, table, group)
        object.__setattr__(self, "extra", extra)

    @property
    def user_agent(self) -> str:
        """The User-Agent header (``CrawlSettings.user_agent``)."""
        return self.crawl.user_agent

    def replace(self, **changes: Any) -> CrawlConfig:
        """A copy with some settings (by name) or groups changed, validated."""
        extra = changes.pop("extra", self.extra)
        changed = object.__new__(CrawlConfig)
        changed._assemble(self._groups(), changes, extra)
        return changed.validate()

    def as_flat_dict(self) -> dict[str, object]:
        """Every setting by name, as stored with a run and written to WARC (``extra`` left out)."""
        values: dict[str, object] = {}
        for group in self._groups().values():
            values |= dataclasses.asdict(group)
        return values

    def value(self, name: str) -> object:
        """One setting by name, from its group."""
        return getattr(getattr(self, TABLE_OF[name]), name)

    def validate(self) -> CrawlConfig:
        """Return self, or raise ``ConfigError`` naming the first impossible setting (B1): the
        agent, then each setting in the order of the TOML tables, then impossible pairs."""
        crawl, robots = self.crawl, self.robots
        token = crawl.agent.replace("-", "").replace("_", "")
        if not token or not token.isascii() or not token.isalnum():  # a product token (A1)
            _fail("agent", f"{crawl.agent!r} is not a name token (letters, digits, - and _)")
        for group in self._groups().values():
            _check_group(group)
        if crawl.processes > 1 and self.scope.max_pages_per_host is not None:
            # Each process counts a host's pages itself: shared out, a process whose share is
            # 0 would exclude the host's every URL it claims.
            _fail(
                "processes",
                "cannot be combined with max_pages_per_host (use one process)",
                related=("max_pages_per_host",),
            )
        if robots.robots_min_lifetime_seconds > robots.robots_max_lifetime_seconds:
            _fail(
                "robots_min_lifetime_seconds",
                "is longer than robots_max_lifetime_seconds",
                related=("robots_max_lifetime_seconds",),
            )
        for pair in self.scope.resolve:
            host, colon, address = pair.partition(":")
            if not colon or not host or not _is_ip(address):
                _fail("resolve", f"{pair!r} is not HOST:ADDRESS (e.g. staging.example:10.0.0.5)")
        self._check_scope_values()
        user_agent = crawl.user_agent
        if not user_agent.isprintable() or not user_agent.isascii():
            _fail(
                "contact",
                f"{crawl.contact!r} cannot be sent in a User-Agent header: printable ASCII only "
                "(percent-encode the rest of a URL)",
            )
        return self

    def _check_scope_values(self) -> None:
        """B1: the patterns and networks the crawl's scope compiles, checked here so that a
        mistake stops the run before its database is created or the setting stored."""
        scope = self.scope
        for key, patterns in (("include", scope.include), ("exclude", scope.exclude)):
            for pattern in patterns:
                try:
                    re.compile(pattern)
                except re.error as error:
                    _fail(key, f"{pattern!r} is not a regular expression ({error})")
        networks = {
            "trusted_networks": scope.trusted_networks,
            "server_exempt_networks": self.politeness.server_exempt_networks,
        }
        for key, values in networks.items():
            for network in values:
                try:
                    ipaddress.ip_network(network.strip(), strict=False)
                except ValueError as error:
                    _fail(key, f"{network!r} is not an address range ({error})")

    def _groups(self) -> dict[str, SettingsGroup]:
        return {table: getattr(self, table) for table in GROUP_TYPES}


GROUP_TYPES: dict[str, type[SettingsGroup]] = {
    "crawl": CrawlSettings,
    "politeness": PolitenessSettings,
    "scope": ScopeSettings,
    "fetching": FetchingSettings,
    "robots": RobotsSettings,
    "sitemaps": SitemapSettings,
    "checking": CheckingSettings,
    "storage": StorageSettings,
    "archive": ArchiveSettings,
}
"""The TOML tables, in the order ``config_to_toml`` writes them, and the group of each."""
GROUPS: dict[str, tuple[str, ...]] = {
    table: tuple(setting.name for setting in fields(group_type))
    for table, group_type in GROUP_TYPES.items()
}
"""The settings of each table, in field order."""
TABLE_OF: dict[str, str] = {name: table for table, names in GROUPS.items() for name in names}
"""The table of each setting."""
SEMANTICS_CHOICES: tuple[SemanticsName, ...] = SEMANTICS_NAMES


@cache
def setting_types() -> dict[str, Any]:
    """Every setting's type hint, by name (for the loader's conversions)."""
    types: dict[str, Any] = {}
    for group_type in GROUP_TYPES.values():
        types |= get_type_hints(group_type)
    return types


def _check_group(group: SettingsGroup) -> None:
    hints = setting_types()
    for setting in fields(group):
        name, value = setting.name, getattr(group, setting.name)
        choices = get_args(hints[name]) if get_origin(hints[name]) is Literal else ()
        if choices and value not in choices:
            _fail(name, f"must be {_either(choices)}, not {value!r}")
        check = setting.metadata.get("check")
        if check is not None and value is not None and (problem := check.problem(value)):
            _fail(name, problem)


def _either(choices: tuple[str, ...]) -> str:
    return ", ".join(choices[:-1]) + " or " + choices[-1]


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True


def _fail(key: str, message: str, *, related: tuple[str, ...] = ()) -> None:
    raise ConfigError(f"setting {key}: {message}", key=key, related=related)
