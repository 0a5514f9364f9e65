"""URL rules that need no network: canonical URLs, origins, keys and the robots match path.

Owns ``canonicalize`` (one spelling per URL for the frontier: C1, C2, C3; anything else raises
``InvalidURL``), ``Origin`` / ``origin_of`` (whose robots.txt applies: O1), ``host_key`` (the
politeness unit), ``url_key`` (the database's de-duplication key) and ``robots_match_path`` (M4).

Pure: no I/O, no clock. Hosts are IDNA-encoded with the ``idna`` package (UTS 46,
non-transitional), the one requests uses, so the host we key on is the host requests connects to.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import string
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import unquote

import idna

# Re-exported (the alias tells mypy so): politecrawl.urls.InvalidURL is public; errors is its home.
from politecrawl.errors import InvalidURL as InvalidURL  # noqa: PLC0414

MAX_URL_LENGTH = 2048  # C3: longer canonical URLs are traps (session ids, loops); not fetched
MAX_LINK_LENGTH = 64 * 1024
"""What ``links`` keeps of a link at most (C3): far above any ``max_url_length`` one would set, so
that the trap guard, not canonicalisation, refuses a long link, and the refusal is recorded (a
link of 10,000 characters is a trap to report, not a link to lose); bounded all the same."""
_DEFAULT_PORTS = {"http": 80, "https": 443}
_MAX_HOST_LENGTH = 253  # DNS: no resolvable name is longer
# RFC 3986 appendix B, with a strict scheme so that "not a url" stays a relative reference.
# The fragment is whatever follows the match: it is dropped (C2).
_SPLIT = re.compile(
    r"(?:([A-Za-z][A-Za-z0-9+.\-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?", re.DOTALL
)
# WHATWG strips C0 controls and space from both ends; any Unicode whitespace goes too.
_STRIP = "".join(chr(code) for code in range(0x3001) if code <= 0x20 or chr(code).isspace())
_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")  # removed anywhere, as browsers do
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
# Printable ASCII that may stand as it is in a path or query: not % (escapes), not "<>\^`{|}.
_KEPT = string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@/?[]"
_ESCAPE_OR_UNSAFE = re.compile(r"%[0-9A-Fa-f]{2}|[^" + re.escape(_KEPT) + "]")
_HOST_NAME = re.compile(r"(?:[a-z0-9_-]{1,63}\.)*[a-z0-9_-]{1,63}")
# scheme "://" authority: everything up to the first "/", "?" or "#" after it.
_SCHEME_AND_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*|//[^/?#]*")


def robots_match_path(url: str) -> str:
    """Return the path and ``?query`` of ``url``, the string robots.txt rules are matched against.

    ``url`` is an absolute URL (``https://host/a?b``), a network-path reference (``//host/a``) or
    a path (``/a?b``). The fragment is never part of it; a bare ``?`` is kept (M4); an empty path
    is ``/``. Nothing is decoded here: each robots semantics normalises escapes its own way.
    """
    if url.startswith(("https://", "http://")):
        # The common case without a regular expression: the authority ends at "/", "?" or "#".
        end = len(url)
        for mark in "/?#":
            found = url.find(mark, 8 if url[4] == "s" else 7, end)
            if found >= 0:
                end = found
        url = url[end:]
    elif not url.startswith("/") or url.startswith("//"):
        head = _SCHEME_AND_AUTHORITY.match(url)
        if head is not None:
            url = url[head.end() :]
    hash_at = url.find("#")
    if hash_at >= 0:
        url = url[:hash_at]
    if not url.startswith("/"):
        url = "/" + url
    return url


@dataclass(frozen=True, slots=True)
class Origin:
    """Whose robots.txt applies (O1): scheme, canonical host, port (``None`` when the default).

    Build it with ``origin_of``; ``http`` and ``https`` on one host are two origins.
    """

    scheme: str
    host: str
    port: int | None = None

    def __str__(self) -> str:
        """``https://example.org`` or ``http://127.0.0.1:8080``: no path, no trailing slash."""
        base = f"{self.scheme}://{self.host}"
        return base if self.port is None else f"{base}:{self.port}"

    @property
    def robots_url(self) -> str:
        """The URL of this origin's robots.txt (O2)."""
        return f"{self}/robots.txt"


def canonicalize(url: str, base: str | None = None, *, max_length: int = MAX_URL_LENGTH) -> str:
    """Return the canonical form of ``url``, resolved against ``base`` when given (C1, C2, C3).

    Resolution follows RFC 3986 5.2 (``http:g`` is read as relative to an http base, as browsers
    do). Then: scheme and host lower-cased, host IDNA-encoded without a trailing dot, IPv6
    compressed, default port and userinfo dropped, ``%xx`` upper-cased and decoded when unreserved,
    unsafe characters percent-encoded as UTF-8, dot segments removed, empty path ``/``, fragment
    dropped. The query keeps its order. An empty query (a bare ``?``) is dropped: RFC 3986 6.2.3
    does not promise ``/a?`` and ``/a`` are one resource, but servers answer them alike, and one
    fetch is politer than two. Idempotent; raises only ``InvalidURL``.
    """
    return _canonical(url, base, max_length)[1]


def origin_of(url: str) -> Origin:
    """Return the origin of ``url`` after canonicalisation (O1); raises ``InvalidURL``."""
    return _canonical(url, None, MAX_URL_LENGTH)[0]


def host_key(url: str) -> str:
    """Return the politeness unit of ``url`` (P1, P2): its canonical host, without the port.

    Two ports on one host name share one politeness budget: they are usually one machine, and
    the polite choice is to ask it no faster for having several ports. Raises ``InvalidURL``.
    """
    return origin_of(url).host


def split_canonical(canonical_url: str) -> tuple[str, str]:
    """``(origin, host key)`` of a URL that ``canonicalize`` returned, by slicing alone.

    The frontier calls this for every URL it adds; parsing it again would cost more than the
    rest of the insert. Equal to ``(str(origin_of(u)), host_key(u))`` for canonical ``u``.
    """
    authority_at = canonical_url.index("://") + 3
    path_at = canonical_url.index("/", authority_at)
    authority = canonical_url[authority_at:path_at]
    host = (
        authority[: authority.rindex(":")]
        if authority.rfind(":") > authority.rfind("]")
        else authority
    )
    return canonical_url[:path_at], host


@functools.lru_cache(maxsize=4096)  # a site's menu: the same URLs on every page
def url_key(canonical_url: str) -> bytes:
    """Return the de-duplication key of a URL already canonical: a 16-byte blake2b digest (C2)."""
    data = canonical_url.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


class _Parts(NamedTuple):
    """A URL reference split by RFC 3986 appendix B; ``None`` for an absent component."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None


def _split(url: str) -> _Parts:
    """Split a reference; every string matches ``_SPLIT``."""
    found = _SPLIT.match(url)
    assert found is not None  # the pattern's parts are all optional
    return _Parts(*found.groups())


def _clean(url: str) -> str:
    """Strip surrounding whitespace and controls, and remove tabs and newlines anywhere."""
    url = url.strip(_STRIP)
    if "\t" in url or "\n" in url or "\r" in url:  # rare: three scans cost less than translate
        url = url.translate(_TAB_OR_NEWLINE)
    return url


def _resolve(ref: _Parts, base: _Parts) -> _Parts:
    """Resolve ``ref`` against ``base`` (RFC 3986 5.2.2); dot segments are removed later."""
    if ref.scheme is not None and ref.scheme.lower() != (base.scheme or "").lower():
        return ref
    if ref.authority is not None:
        return ref._replace(scheme=base.scheme)
    if not ref.path:
        return base._replace(query=base.query if ref.query is None else ref.query)
    if ref.path.startswith("/"):
        return base._replace(path=ref.path, query=ref.query)
    if base.authority is not None and not base.path:
        return base._replace(path="/" + ref.path, query=ref.query)
    directory = base.path[: base.path.rfind("/") + 1]
    return base._replace(path=directory + ref.path, query=ref.query)


class LinkResolver:
    """``canonicalize(href, base)`` for the many links of one page: the same answers, faster.

    The base is read once, and a link resolved before (by any page of this process) against a
    base that gives it the same meaning is answered from memory: a site's menu is on every page.
    A path-absolute link (``/a``) means the same under every base of one origin, a relative one
    (``a``) under every base of one directory; only a link with neither authority nor path
    (``?q``, ``#f``) takes the base's own path and query, and is read each time.
    """

    __slots__ = ("_base", "_by_directory", "_by_origin", "_by_scheme", "_max_length", "_scheme")

    def __init__(self, base: str, *, max_length: int = MAX_URL_LENGTH) -> None:
        self._base = parts = _split(_clean(base))
        scheme = (parts.scheme or "").lower()
        path = parts.path
        directory = "/" if parts.authority is not None and not path else path[: path.rfind("/") + 1]
        self._max_length = max_length
        self._scheme = scheme
        self._by_scheme = (max_length, scheme)
        self._by_origin = (max_length, scheme, parts.authority)
        self._by_directory = (max_length, scheme, parts.authority, directory)

    def canonicalize(self, url: str) -> str:
        """``canonicalize(url, base)``; raises ``InvalidURL``."""
        cleaned = _clean(url)
        ref = _split(cleaned)
        if ref.scheme is not None and ref.scheme.lower() != self._scheme:
            context: tuple[object, ...] | None = (self._max_length,)  # the base plays no part
        elif ref.authority is not None:
            context = self._by_scheme
        elif ref.path.startswith("/"):
            context = self._by_origin
        elif ref.path:
            context = self._by_directory
        else:
            context = None
        if context is None:
            return _canonical_parts(url, _resolve(ref, self._base), self._max_length)[1]
        if len(cleaned) > MAX_URL_LENGTH:  # rare, and not worth keeping in memory
            return _canonical_parts(url, _resolve(ref, self._base), self._max_length)[1]
        key = (cleaned, context)
        known = _RESOLVED.get(key)
        if known is None:
            try:
                known = _canonical_parts(url, _resolve(ref, self._base), self._max_length)[1]
            except InvalidURL as error:
                known = _Refused(error.reason)
            if len(_RESOLVED) >= _MAX_RESOLVED:
                _RESOLVED.clear()
            _RESOLVED[key] = known
        if isinstance(known, _Refused):
            raise InvalidURL(url, known.reason)
        return known


class _Refused(NamedTuple):
    """A link ``canonicalize`` refused, remembered with why."""

    reason: str


# What LinkResolver answered, by cleaned link and what of the base it depends on; bounded
# (about 480 bytes an entry, measured: 4 MB full; a site's menus need far fewer entries).
_RESOLVED: dict[tuple[str, tuple[object, ...]], str | _Refused] = {}
_MAX_RESOLVED = 8_192


def _canonical(url: str, base: str | None, max_length: int) -> tuple[Origin, str]:
    """Canonicalise ``url``; return its origin and its canonical form."""
    parts = _split(_clean(url))
    if base is not None:
        parts = _resolve(parts, _split(_clean(base)))
    return _canonical_parts(url, parts, max_length)


def _canonical_parts(url: str, parts: _Parts, max_length: int) -> tuple[Origin, str]:
    """The origin and canonical form of ``url``, split (and resolved) as ``parts``."""
    if parts.scheme is None:
        raise InvalidURL(url, "empty URL" if not _clean(url) else "no scheme (not absolute)")
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise InvalidURL(url, f"scheme {scheme!r} is not http or https")  # C1, P4
    if not parts.authority:
        raise InvalidURL(url, "no host")
    origin = _ORIGINS.get((scheme, parts.authority))
    if origin is None:
        origin = _origin(url, scheme, parts.authority)
        if len(_ORIGINS) >= _MAX_CACHED_ORIGINS:
            _ORIGINS.clear()
        _ORIGINS[(scheme, parts.authority)] = origin
    path = _remove_dot_segments(_ESCAPE_OR_UNSAFE.sub(_fix_one, parts.path)) if parts.path else "/"
    query = f"?{_ESCAPE_OR_UNSAFE.sub(_fix_one, parts.query)}" if parts.query else ""
    canonical = f"{origin}{path}{query}"
    if len(canonical) > max_length:
        raise InvalidURL(url, f"URL longer than {max_length} characters")  # C3
    return origin, canonical


# Links name the same few hosts over and over; their IDNA reading is the costly part of
# canonicalising, so a (scheme, authority) seen before is not read again. Only valid ones are
# kept, and the cache is bounded.
_ORIGINS: dict[tuple[str, str], Origin] = {}
_MAX_CACHED_ORIGINS = 4096


def _origin(url: str, scheme: str, authority: str) -> Origin:
    """Read host and port from an authority; userinfo is dropped (C2)."""
    if "\\" in authority:  # browsers read "\" as "/": two readings of the host, so fetch neither
        raise InvalidURL(url, "backslash in host")
    host_and_port = authority.rpartition("@")[2]
    if host_and_port.startswith("["):
        literal, bracket, rest = host_and_port[1:].partition("]")
        if not bracket or rest[:1] not in ("", ":"):
            raise InvalidURL(url, "invalid IPv6 address")
        host, port_text = _ipv6_host(url, literal), rest[1:]
    else:
        name, _, port_text = host_and_port.partition(":")
        host = _name_host(url, name)
    return Origin(scheme, host, _port(url, scheme, port_text))


def _ipv6_host(url: str, literal: str) -> str:
    """Return an IPv6 literal in brackets, compressed and lower-cased."""
    if "%" not in literal:  # a zone id ("fe80::1%25eth0") names a local interface: refused
        try:
            return f"[{ipaddress.IPv6Address(literal).compressed}]"
        except ValueError:
            pass
    raise InvalidURL(url, "invalid IPv6 address")


def _name_host(url: str, raw: str) -> str:
    """Return a host name percent-decoded, lower-cased, IDNA-encoded, without a trailing dot."""
    name = unquote(raw)  # as WHATWG does; bad UTF-8 becomes U+FFFD, which IDNA refuses
    if len(name) > _MAX_HOST_LENGTH:  # before IDNA, whose punycode is quadratic
        raise InvalidURL(url, f"host longer than {_MAX_HOST_LENGTH} characters")
    try:
        if not name.isascii():
            name = idna.uts46_remap(name, std3_rules=False, transitional=False)
        labels = name.lower().removesuffix(".").split(".")
        host = ".".join(
            label if label.isascii() else idna.alabel(label).decode("ascii") for label in labels
        )
    except ValueError:  # idna.IDNAError and UnicodeError are ValueErrors
        raise InvalidURL(url, "host is not a valid domain name") from None
    if not host:
        raise InvalidURL(url, "no host")
    if len(host) > _MAX_HOST_LENGTH or not _HOST_NAME.fullmatch(host):
        raise InvalidURL(url, f"invalid host {host[:80]!r}")
    return host


def _port(url: str, scheme: str, text: str) -> int | None:
    """Return the port, or ``None`` when it is empty or the scheme's default."""
    if not text:
        return None  # "host:" means the default port (RFC 3986 6.2.3)
    if not (text.isascii() and text.isdigit()):
        raise InvalidURL(url, f"port {text[:20]!r} is not a number")
    digits = text.lstrip("0")
    if len(digits) > 5 or not 0 < int(digits or "0") <= 65535:
        raise InvalidURL(url, "port out of range")
    port = int(digits)
    return None if port == _DEFAULT_PORTS[scheme] else port


def _fix_one(found: re.Match[str]) -> str:
    """Upper-case an escape or decode it when unreserved; encode an unsafe character or lone %."""
    text = found.group()
    if len(text) == 3:
        char = chr(int(text[1:], 16))
        return char if char in _UNRESERVED else text.upper()
    try:
        data = text.encode("utf-8", "surrogateescape")  # a byte smuggled in by a lenient decode
    except UnicodeEncodeError:
        data = "\ufffd".encode()  # any other lone surrogate, as WHATWG does
    return "".join(f"%{byte:02X}" for byte in data)


def _remove_dot_segments(path: str) -> str:
    """Remove ``.`` and ``..`` segments (RFC 3986 5.2.4) from a path that starts with ``/``."""
    segments = path.split("/")
    kept: list[str] = []
    for segment in segments[1:]:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")  # "/a/b/.." is the directory "/a/"
    return "/" + "/".join(kept)
