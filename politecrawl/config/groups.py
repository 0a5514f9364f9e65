"""Crawl settings: nested frozen groups that mirror the TOML tables, each setting with its SPEC
default and a docstring.

``CrawlConfig`` is what the library takes and what the command line builds (flags > environment
> file > defaults, issue 5: ``politecrawl.config.loader`` layers them). Its groups are the
tables of ``config/politecrawl.toml``: ``crawl`` (who crawls), ``politeness``, ``fetching`` and
``robots`` (how servers are asked: ``conduct``), ``scope``, ``sitemaps``, ``checking``,
``storage`` and ``archive`` (what the crawl covers and keeps: ``coverage``); each consumer is
handed its group. A setting may also be given by its own name, as at a TOML file's top level:
``CrawlConfig(agent="examplebot", delay_seconds=0.5)`` puts each in its group. ``validate()``
names the setting that is impossible in ``ConfigError.key`` (B1); what a numeric setting must
be is in ``bounds``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints

from politecrawl.config.conduct import (
    CrawlSettings,
    FetchingSettings,
    PolitenessSettings,
    RobotsSettings,
)
from politecrawl.config.coverage import (
    ArchiveSettings,
    CheckingSettings,
    ScopeSettings,
    SitemapSettings,
    StorageSettings,
)
from politecrawl.config.robots_values import SEMANTICS_NAMES, SemanticsName
from politecrawl.errors import ConfigError

__all__ = [
    "GROUPS",
    "GROUP_TYPES",
    "SEMANTICS_CHOICES",
    "TABLE_OF",
    "CrawlConfig",
    "SettingsGroup",
    "setting_types",
]


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
