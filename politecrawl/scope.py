"""What may be crawled: the scope, the trap guards and the anti-steering guard [C1, C3].

Owns ``Scope`` (modes, include/exclude patterns, depth; C1), ``TrapGuards`` (URL length, path
segments, repeated segments, query size; C3) and ``check_scope``, which answers with a
``ScopeVerdict`` naming the first rule that refused a URL, in this order: scheme, URL length,
steering, mode, depth, exclude, include, the other trap guards. Verdicts, never exceptions.
Pages per host are counted by the crawler; ``Scope`` only carries the limit.

The anti-steering guard: a link or redirect from a public origin into a host written as a
loopback, private, link-local or "this host" address (or the name ``localhost``) is refused
unless that origin is a seed or the address is in ``trusted_networks``. Numeric hosts that
socket libraries read as IPv4 (``2130706433``, ``0x7f.1``, ``127.1``) count as addresses.
``check_steering`` applies the guard alone (a robots.txt redirect, O7). A *name* that resolves
to a private address is not seen here (no DNS in L1), and an address may be reached without a
page (a robots.txt hop): ``connect`` checks every address it connects to, by ``seed_networks``.
Pure: no network, no DNS, no clock.
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Final, Literal, cast, get_args

from politecrawl.config import ScopeMode, ScopeSettings
from politecrawl.errors import UserInputError
from politecrawl.urls import InvalidURL, canonicalize, split_canonical

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "SCOPE_MODES",
    "Scope",
    "ScopeMode",
    "ScopeReason",
    "ScopeVerdict",
    "TrapGuards",
    "check_scope",
]

ScopeReason = Literal["scope", "trap", "steering"]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
SCOPE_MODES: Final = get_args(ScopeMode)

# Where a link from the public web must not lead (server-side request forgery). Wider than the
# RFC 1918 list on purpose: 0/8 and :: reach this host, 100.64/10 holds cloud metadata services.
# IPv6 forms of an IPv4 address: ::ffff:0:0/96 (mapped) and NAT64's well-known 64:ff9b::/96 (RFC
# 6052; public IPv4 reached from an IPv6-only network) are judged by the IPv4 address they carry
# (``_unmapped``); the deprecated IPv4-compatible ::/96 (``[::127.0.0.1]``) and the local-use
# NAT64 prefix 64:ff9b:1::/48 (RFC 8215: its embedding is the operator's choice) are refused
# whole: nothing public is written that way, and the reading that fetches less wins.
_NON_PUBLIC: Final = tuple(
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.168.0.0/16", "::/128", "::1/128", "::/96", "64:ff9b:1::/48",
        "fc00::/7", "fe80::/10",
    )
)  # fmt: skip
_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
_LOOPBACK: Final = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
_DEFAULTS: Final = ScopeSettings()  # the trap guards' defaults are the settings' (C3)
_LOCAL_ADDRESSES: Final = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))
# One dotted part of an IPv4 host as inet_aton reads it: hexadecimal, octal or decimal.
_IPV4_PART: Final = re.compile(r"0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*")


@dataclass(frozen=True, slots=True)
class TrapGuards:
    """Limits past which a URL is a crawler trap, not a page (C3). Each must be at least 1."""

    max_url_length: int = _DEFAULTS.max_url_length
    max_path_segments: int = _DEFAULTS.max_path_segments
    max_repeated_segment: int = _DEFAULTS.max_repeated_segment
    """A path holding one segment more often than this (``/a/b/a/b/a/b/a``) is a loop."""
    max_query_bytes: int = _DEFAULTS.max_query_bytes
    max_query_parameters: int = 32  # not a setting: no real page needs more

    def __post_init__(self) -> None:
        for limit in fields(self):
            value = getattr(self, limit.name)
            if value < 1:
                raise UserInputError(f"{limit.name} must be at least 1, not {value}")


@dataclass(frozen=True, slots=True)
class Scope:
    """Which URLs a crawl may fetch (C1). Build it with ``Scope.from_seeds``.

    Modes: ``seeds`` admits the seeds' origins, and the http/https twin of a seed origin on its
    default port (so that the usual ``http://`` to ``https://`` redirect of a seed stays in
    scope; other ports are other servers and stay out); ``domain`` admits a seed host and its
    subdomains on any scheme and port (an address literal admits itself only); ``any`` admits
    every http(s) URL. Patterns are searched anywhere in the canonical URL (anchor with ``^``).
    """

    mode: ScopeMode = "seeds"
    seed_origins: frozenset[str] = frozenset()
    seed_hosts: frozenset[str] = frozenset()
    include: tuple[re.Pattern[str], ...] = ()
    exclude: tuple[re.Pattern[str], ...] = ()
    max_depth: int | None = None
    max_pages_per_host: int | None = None
    trap_guards: TrapGuards = TrapGuards()
    trusted_networks: tuple[Network, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in SCOPE_MODES:
            raise UserInputError(f"scope must be seeds, domain or any, not {self.mode!r}")
        if self.max_depth is not None and self.max_depth < 0:
            raise UserInputError(f"max depth must be 0 or more, not {self.max_depth}")
        pages = self.max_pages_per_host
        if pages is not None and pages < 1:
            raise UserInputError(f"max pages per host must be 1 or more, not {pages}")

    @classmethod
    def from_seeds(
        cls,
        seeds: Iterable[str],
        *,
        mode: str = "seeds",
        include: Iterable[str | re.Pattern[str]] = (),
        exclude: Iterable[str | re.Pattern[str]] = (),
        max_depth: int | None = None,
        max_pages_per_host: int | None = None,
        trap_guards: TrapGuards | None = None,
        trusted_networks: Iterable[str | Network] = (),
    ) -> Scope:
        """Build a scope around ``seeds``; any bad seed, pattern or network is a UserInputError."""
        origins: set[str] = set()
        hosts: set[str] = set()
        for seed in seeds:
            try:
                origin, host = split_canonical(canonicalize(seed))
            except InvalidURL as error:
                raise UserInputError(f"bad seed: {error}") from None
            origins.add(origin)
            hosts.add(host)
        return cls(
            mode=cast("ScopeMode", mode),  # checked in __post_init__
            seed_origins=frozenset(origins),
            seed_hosts=frozenset(hosts),
            include=tuple(_compile("include", pattern) for pattern in include),
            exclude=tuple(_compile("exclude", pattern) for pattern in exclude),
            max_depth=max_depth,
            max_pages_per_host=max_pages_per_host,
            trap_guards=TrapGuards() if trap_guards is None else trap_guards,
            trusted_networks=tuple(_network(net) for net in trusted_networks),
        )


@dataclass(frozen=True, slots=True)
class ScopeVerdict:
    """Allowed, or why not: ``reason`` is scope, trap or steering; ``rule`` says which rule."""

    allowed: bool
    reason: ScopeReason | None = None
    rule: str | None = None
    leaves_site: bool = False
    """Out of scope only because its origin is not the site's: a link a checker may check (L1),
    as opposed to a pattern, depth, trap or steering rule of the crawl's own."""


ALLOWED: Final = ScopeVerdict(allowed=True)


def check_scope(url: str, depth: int, scope: Scope, *, from_url: str | None = None) -> ScopeVerdict:
    """Decide whether the canonical ``url``, ``depth`` links from a seed, may be crawled.

    ``from_url`` is the page that linked or redirected to it (``None`` for a seed); it only
    matters to the anti-steering guard. Cheap checks first; never raises.
    """
    guards = scope.trap_guards
    if not url.startswith(("http://", "https://")):
        return ScopeVerdict(False, "scope", f"not an http or https URL ({url[:40]!r})")
    if len(url) > (limit := guards.max_url_length):  # before any pattern runs over it
        return ScopeVerdict(False, "trap", f"URL is {len(url)} characters > max {limit}")
    try:
        origin, host = split_canonical(url)
    except ValueError:
        return ScopeVerdict(False, "scope", "not a canonical URL")
    if from_url is not None:
        steering = _steering_rule(origin, host, from_url, scope)
        if steering is not None:
            return ScopeVerdict(False, "steering", steering)
    if scope.mode == "seeds" and not _is_seed_origin(origin, host, scope.seed_origins):
        return ScopeVerdict(False, "scope", f"not a seed origin ({origin})", leaves_site=True)
    if scope.mode == "domain" and not _is_seed_domain(host, scope.seed_hosts):
        rule = f"not a seed host or its subdomain ({host})"
        return ScopeVerdict(False, "scope", rule, leaves_site=True)
    if scope.max_depth is not None and depth > scope.max_depth:
        return ScopeVerdict(False, "scope", f"depth {depth} > max {scope.max_depth}")
    for pattern in scope.exclude:
        if pattern.search(url):
            return ScopeVerdict(False, "scope", f"exclude pattern {pattern.pattern!r}")
    if scope.include and not any(pattern.search(url) for pattern in scope.include):
        return ScopeVerdict(False, "scope", "matches no include pattern")
    return _trap_verdict(url[len(origin) :], guards)


def _trap_verdict(path_and_query: str, guards: TrapGuards) -> ScopeVerdict:
    """The C3 guards on the path and query of a canonical URL (its length is checked earlier)."""
    path, _, query = path_and_query.partition("?")
    # Non-empty segments: "/cal/2024-01/" is 2 deep. A run of empty ones ("/a//////b") counts
    # as a repeated segment, so it is caught as a loop.
    segments = [segment or "/" for segment in path[1:].split("/")]
    if segments and segments[-1] == "/":
        segments.pop()  # the trailing slash of a directory is not a segment
    segment, count = "", 0
    if len(segments) - len(set(segments)) >= guards.max_repeated_segment:  # else none can repeat
        segment, count = Counter(segments).most_common(1)[0]
    parameters = sum(1 for part in query.split("&") if part)
    rule = None
    if len(segments) > guards.max_path_segments:
        rule = f"path has {len(segments)} segments > max {guards.max_path_segments}"
    elif count > guards.max_repeated_segment:  # a relative link that loops: /a/b/a/b/a/b/a
        rule = f"path repeats segment {segment[:40]!r} {count} times"
    elif len(query) > guards.max_query_bytes:  # canonical URLs are ASCII: characters are bytes
        rule = f"query is {len(query)} bytes > max {guards.max_query_bytes}"
    elif parameters > guards.max_query_parameters:
        rule = f"query has {parameters} parameters > max {guards.max_query_parameters}"
    return ALLOWED if rule is None else ScopeVerdict(False, "trap", rule)


def _is_seed_origin(origin: str, host: str, seed_origins: frozenset[str]) -> bool:
    if origin in seed_origins:
        return True
    # C1: a seed's http/https twin on the default port (the common upgrade redirect).
    default_port = origin.endswith("://" + host)
    return default_port and not seed_origins.isdisjoint((f"http://{host}", f"https://{host}"))


def _is_seed_domain(host: str, seed_hosts: frozenset[str]) -> bool:
    if host in seed_hosts:
        return True
    dot = host.find(".")
    while dot >= 0:
        suffix = host[dot + 1 :]
        if suffix in seed_hosts and _address_of(suffix) is None:  # an address has no subdomains
            return True
        dot = host.find(".", dot + 1)
    return False


def _steering_rule(origin: str, host: str, from_url: str, scope: Scope) -> str | None:
    """The rule refusing a public page's link into a non-public host, or ``None``."""
    target = _non_public(host)
    if target is None or origin in scope.seed_origins:
        return None
    address = _address_of(host)
    trusted = _LOCAL_ADDRESSES if address is None else (address, _unmapped(address))
    if any(a in net for a in trusted for net in scope.trusted_networks if a.version == net.version):
        return None
    try:
        source_origin, source_host = split_canonical(canonicalize(from_url))
    except (InvalidURL, ValueError):
        source_origin, source_host = "an unreadable URL", ""  # unknown: read as public
    if source_host and _non_public(source_host) is not None:
        return None  # a loopback or private page may link to its neighbours
    return f"link from a public origin ({source_origin}) into {target}"


def check_steering(url: str, scope: Scope, *, from_url: str) -> ScopeVerdict:
    """The anti-steering guard alone, for a hop the scope's modes do not judge: a robots.txt
    redirect may lead to another origin (O7), never from a public page into a non-public host
    (C4: every hop is checked). ``url`` is canonical; never raises."""
    try:
        origin, host = split_canonical(url)
    except ValueError:
        return ScopeVerdict(False, "scope", "not a canonical URL")
    rule = _steering_rule(origin, host, from_url, scope)
    return ALLOWED if rule is None else ScopeVerdict(False, "steering", rule)


def seed_networks(hosts: Iterable[str]) -> tuple[Network, ...]:
    """The non-public networks canonical seed hosts are written in (``localhost``: loopback):
    where a private seed's pages may lead without steering (``_steering_rule``: neighbours),
    and so where ``connect`` lets an address written out in a URL connect."""
    found: list[Network] = []
    for host in hosts:
        named = _non_public(host)
        if named == "localhost":
            found += _LOOPBACK
        elif named is not None:
            found.append(ipaddress.ip_network(named))
    return tuple(dict.fromkeys(found))


def non_public_network(address: str) -> str | None:
    """The non-public network an IP address (text) is in, else ``None`` (``connect`` asks)."""
    try:
        parsed = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return None
    parsed = _unmapped(parsed)
    for net in _NON_PUBLIC:
        if parsed.version == net.version and parsed in net:
            return str(net)
    return None


def address_in(address: str, networks: Iterable[Network]) -> bool:
    """Whether an IP address (text) is in one of ``networks``."""
    try:
        parsed = _unmapped(ipaddress.ip_address(address.strip("[]").split("%")[0]))
    except ValueError:
        return False
    return any(parsed.version == net.version and parsed in net for net in networks)


def is_steering_target(host: str) -> bool:
    """Whether a canonical host is written as a non-public address or ``localhost``: a URL the
    guard judges by the page that led to it (``check_scope``'s ``from_url``)."""
    return _non_public(host) is not None


def _non_public(host: str) -> str | None:
    """The non-public network (or ``localhost``) that ``host`` names, else ``None``."""
    if host == "localhost" or host.endswith(".localhost"):  # RFC 6761: always loopback
        return "localhost"
    address = _address_of(host)
    if address is None:
        return None
    address = _unmapped(address)
    for net in _NON_PUBLIC:
        if address.version == net.version and address in net:
            return str(net)
    return None


def _unmapped(address: Address) -> Address:
    """``::ffff:10.0.0.1`` connects to ``10.0.0.1``; so does ``64:ff9b::a00:1``, through a NAT64
    gateway that does not refuse it (RFC 6052 asks it to, without a way to be sure it does)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address in _NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def _address_of(host: str) -> Address | None:
    """The address a canonical host denotes; IPv4 read as inet_aton and WHATWG read it."""
    if host.startswith("["):
        try:
            return ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    parts = host.split(".")
    if len(parts) > 4 or not all(_IPV4_PART.fullmatch(part) for part in parts):
        return None
    *high, last = (
        int(part[2:] or "0", 16)
        if part.startswith("0x")
        else int(part, 8 if part[0] == "0" else 10)
        for part in parts
    )
    if any(number > 255 for number in high) or last >= 256 ** (4 - len(high)):
        return None
    for index, number in enumerate(high):  # "127.1" is 127.0.0.1: the last part fills the rest
        last += number << (8 * (3 - index))
    return ipaddress.IPv4Address(last)


def _compile(kind: str, pattern: str | re.Pattern[str]) -> re.Pattern[str]:
    if isinstance(pattern, re.Pattern):
        return pattern
    try:
        return re.compile(pattern)
    except re.error as error:
        raise UserInputError(f"invalid {kind} pattern {pattern!r}: {error}") from None


def _network(net: str | Network) -> Network:
    if not isinstance(net, str):
        return net
    try:
        return ipaddress.ip_network(net.strip(), strict=False)
    except ValueError as error:
        raise UserInputError(f"invalid trusted network {net!r}: {error}") from None
