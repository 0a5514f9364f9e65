"""Seeded, deterministic robots.txt files and URL samples for ``bench/robots_bench.py``.

Each file has a ``User-agent: *`` group and two named groups (one naming two robots), with
Disallow and Allow lines on realistic paths: directories, files with extensions, query prefixes
(``/search?``, ``/catalog?sort=``), some percent-encoded UTF-8, a few comments, ``Crawl-delay``
and ``Sitemap`` lines. Only features that urllib.robotparser, Protego and politecrawl (both
semantics) read the same way are used: plain prefixes, no ``*`` or ``$``, no blank line inside
a group, and each Allow exception is written *before* the Disallow it carves out of, so that
"first match in file order" (urllib, the 1996 draft) and "longest match" (RFC 9309, Protego)
give the same verdict. Rules whose prefixes nest with opposite verdicts in any other way are
rejected while generating.

Each URL sample is ``n_urls`` absolute URLs on the same host, about a third disallowed for the
``*`` group according to ``expected_allowed`` (the longest-match model), many with query strings.

Show a file or its URL sample: ``python bench/robots_corpus.py typical [--urls]``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

HOST = "https://www.example.com"
SIZES = {"small": 10, "typical": 200, "large": 5_000}
"""Allow plus Disallow lines in each generated file, by name."""

STAR_AGENT = "politecrawl"
"""A robot no group names: it gets the ``*`` group."""
NAMED_AGENTS = ("ExampleBot", "Bingbot")
"""Robots named by the two other groups."""

# Paths sites usually keep robots out of.
_PRIVATE = (
    "admin", "account", "cart", "checkout", "login", "register", "search", "api", "cgi-bin",
    "tmp", "private", "internal", "user", "profile", "settings", "wp-admin", "includes", "print",
    "preview", "draft", "staging", "export", "reports", "redirect", "out", "share", "compare",
    "wishlist", "orders", "basket", "newsletter", "unsubscribe", "ajax", "feeds", "trackback",
    "calendar", "cache", "backup", "old", "test", "dev", "beta",
)  # fmt: skip
# Paths sites usually want crawled.
_PUBLIC = (
    "blog", "news", "products", "category", "catalog", "shop", "help", "support", "docs",
    "about", "contact", "careers", "events", "press", "static", "assets", "images", "media",
    "downloads", "forum", "tag", "archive", "en", "fr", "de", "es",
)  # fmt: skip
_WORDS = (
    "red", "blue", "green", "summer", "winter", "sale", "new", "best", "guide", "review",
    "how-to", "top-10", "2022", "2023", "2024", "outdoor", "kitchen", "garden", "shoes",
    "laptops", "phones", "books", "music", "video", "travel", "recipes", "pricing", "features",
    "faq", "team", "history", "partners", "gifts", "kids", "women", "men", "home", "sports",
    "tools", "toys", "beauty", "health", "deals", "clearance", "brands", "returns", "shipping",
    "size-chart", "gift-cards", "stores", "locations", "v1", "v2", "edit", "delete", "confirm",
)  # fmt: skip
# Percent-encoded UTF-8 (and one space), upper-case hex as sites and crawlers write them.
_ENCODED = (
    "caf%C3%A9", "%C3%BCber-uns", "na%C3%AFve", "se%C3%B1or", "%E2%82%AC-deals", "my%20files",
    "r%C3%A9sum%C3%A9", "stra%C3%9Fe", "%E6%97%A5%E6%9C%AC", "m%C3%BCnchen",
)  # fmt: skip
_EXTENSIONS = (".html", ".php", ".pdf", ".json", ".xml", ".aspx", ".jsp", ".txt", ".csv", ".zip")
_QUERY_KEYS = (
    "q", "s", "sort", "order", "page", "filter", "sessionid", "sid", "ref", "utm_source", "lang",
    "view", "id", "format", "replytocom", "add-to-cart",
)  # fmt: skip
_ID_DIRS = ("products", "item", "p", "listing", "posts", "user", "media", "download")


@dataclass(frozen=True, slots=True)
class Rule:
    allow: bool
    path: str


@dataclass(slots=True)
class Group:
    agents: tuple[str, ...]
    rules: list[Rule]
    crawl_delay: int | None = None
    verdicts: dict[str, bool] = field(init=False)
    """Rule path -> allow, for the longest-match model."""

    def __post_init__(self) -> None:
        self.verdicts = {rule.path: rule.allow for rule in self.rules}


@dataclass(slots=True)
class Corpus:
    """One generated robots.txt, its groups (the model) and its URL sample."""

    name: str
    text: str
    groups: list[Group]
    urls: list[str] = field(default_factory=list)

    @property
    def n_rules(self) -> int:
        return sum(len(group.rules) for group in self.groups)


def _key(path: str) -> str:
    # urllib.robotparser reads "/search?" as "/search" (urlunparse drops an empty query), so
    # nesting is checked on that spelling to keep its first-match verdicts in line.
    return path[:-1] if path.endswith("?") else path


class _GroupBuilder:
    """Collects one group's rules, refusing any that would make rule order matter."""

    def __init__(self) -> None:
        self.blocks: list[list[Rule]] = []
        self.count = 0
        self._verdicts: dict[str, bool] = {}  # key -> allow
        self._below: dict[str, set[bool]] = {}  # proper prefix of some key -> their verdicts

    def fits(self, path: str, allow: bool, parent: str | None = None) -> bool:
        key = _key(path)
        if len(key) < 2 or key in self._verdicts:
            return False
        for end in range(1, len(key)):
            seen = self._verdicts.get(key[:end])
            if seen is not None and seen != allow and key[:end] != parent:
                return False
        return not (self._below.get(key, set()) - {allow})

    def add(self, path: str, allow: bool) -> None:
        key = _key(path)
        self._verdicts[key] = allow
        for end in range(1, len(key)):
            self._below.setdefault(key[:end], set()).add(allow)
        self.count += 1

    def rules(self) -> list[Rule]:
        return [rule for block in self.blocks for rule in block]


def _slug(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(_WORDS)
    if roll < 0.7:
        return f"{rng.choice(_WORDS)}-{rng.choice(_WORDS)}"
    if roll < 0.9:
        return f"{rng.choice(_WORDS)}-{rng.randint(1, 999)}"
    return rng.choice(_ENCODED)


def _segments(rng: random.Random, count: int) -> str:
    return "".join(f"{_slug(rng)}/" for _ in range(count))


def _rule_path(rng: random.Random, large: bool) -> str:
    """A path a site might Disallow (or, rarely, Allow)."""
    base = rng.choice(_PRIVATE) if rng.random() < 0.7 else rng.choice(_PUBLIC)
    depth = rng.randint(0, 3 if large else 1)
    roll = rng.random()
    if roll < 0.34:  # a directory
        return f"/{base}/{_segments(rng, depth)}"
    if roll < 0.52:  # a file
        return f"/{base}/{_segments(rng, depth)}{_slug(rng)}{rng.choice(_EXTENSIONS)}"
    if roll < 0.68:  # a query prefix
        stem = f"/{base}" if depth == 0 else f"/{base}/{_segments(rng, depth)[:-1]}"
        if rng.random() < 0.3:
            return f"{stem}?"
        return f"{stem}?{rng.choice(_QUERY_KEYS)}="
    if roll < 0.78:  # a bare prefix, as in "Disallow: /cgi-bin"
        return f"/{base}" if depth == 0 else f"/{base}/{_segments(rng, depth)[:-1]}"
    if roll < 0.86:  # percent-encoded
        return f"/{rng.choice(_ENCODED)}/{_segments(rng, depth)}"
    # one page or item among very many: the bulk of a large file
    tail = rng.choice(("/", f"-{rng.choice(_WORDS)}.html", "/edit", ""))
    return f"/{rng.choice(_ID_DIRS)}/{rng.randint(1, 999_999)}{tail}"


def _exception_path(rng: random.Random, parent: str) -> str:
    """An Allow carved out of the Disallowed directory ``parent``."""
    roll = rng.random()
    if roll < 0.45:
        return f"{parent}{_slug(rng)}/"
    if roll < 0.8:
        return f"{parent}{_slug(rng)}.html"
    return f"{parent}{rng.choice(_WORDS)}"


def _build_group(rng: random.Random, n_rules: int, large: bool) -> list[Rule]:
    builder = _GroupBuilder()
    attempts = 0
    while builder.count < n_rules:
        attempts += 1
        if attempts > 200 * n_rules + 1_000:
            raise RuntimeError("rule space exhausted; change the vocabulary or the seed")
        left = n_rules - builder.count
        path = _rule_path(rng, large)
        allow = rng.random() < 0.04  # a standalone Allow, e.g. "Allow: /static/"
        if not builder.fits(path, allow):
            continue
        builder.add(path, allow)
        block = [Rule(allow, path)]
        if not allow and path.endswith("/") and left > 1 and rng.random() < 0.35:
            for _ in range(min(left - 1, rng.choice((1, 1, 2)))):
                exception = _exception_path(rng, path)
                if builder.fits(exception, True, parent=_key(path)):
                    builder.add(exception, True)
                    block.insert(0, Rule(True, exception))  # before its Disallow: see docstring
        builder.blocks.append(block)
    return builder.rules()


def _render(groups: list[Group], rng: random.Random) -> str:
    lines = ["# robots.txt for www.example.com", "# Generated for benchmarking; do not edit.", ""]
    for index, group in enumerate(groups):
        if index:
            lines.append("")
        lines.extend(f"User-agent: {agent}" for agent in group.agents)
        if group.crawl_delay is not None:
            lines.append(f"Crawl-delay: {group.crawl_delay}")
        for rule in group.rules:
            line = f"{'Allow' if rule.allow else 'Disallow'}: {rule.path}"
            if rng.random() < 0.02:
                line += "  # keep out"
            lines.append(line)
    lines.extend(("", f"Sitemap: {HOST}/sitemap.xml", f"Sitemap: {HOST}/sitemap-news.xml", ""))
    return "\n".join(lines)


def _tail(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return f"{_slug(rng)}/"
    if roll < 0.6:
        return f"{_slug(rng)}{rng.choice(_EXTENSIONS)}"
    if roll < 0.8:
        return f"{_segments(rng, rng.randint(1, 2))}{_slug(rng)}.html"
    return str(rng.randint(1, 99_999))


def _query(rng: random.Random) -> str:
    pairs = [
        f"{rng.choice(_QUERY_KEYS)}={rng.choice(_WORDS)}" for _ in range(rng.choice((1, 1, 2, 3)))
    ]
    return "?" + "&".join(pairs)


def _near_rule(rng: random.Random, rules: list[Rule]) -> str:
    """A URL path under a rule's prefix (disallowed unless an exception allows it)."""
    path = rng.choice(rules).path
    if path.endswith("/"):
        path += _tail(rng)
    elif path.endswith("?"):
        path += _query(rng)[1:]
    elif path.endswith("="):
        path += rng.choice(_WORDS)
        if rng.random() < 0.3:
            path += f"&page={rng.randint(2, 40)}"
    elif "." in path.rsplit("/", 1)[-1]:
        if rng.random() < 0.3:
            path += _query(rng)
    elif rng.random() < 0.7:
        path += "/" + _tail(rng)
    return path


def _public_path(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.05:
        path = "/"
    elif roll < 0.15:
        path = f"/{rng.choice(_PUBLIC)}{rng.choice(('', '/', '.html'))}"
    elif roll < 0.9:
        path = f"/{rng.choice(_PUBLIC)}/{_tail(rng)}"
    else:
        path = f"/{rng.choice(_ID_DIRS)}/{rng.randint(1, 999_999)}-{_slug(rng)}.html"
    if rng.random() < 0.25:
        path += _query(rng)
    return path


def _sample_urls(rng: random.Random, group: Group, n_urls: int) -> list[str]:
    want_disallowed = round(n_urls / 3)
    buckets: dict[bool, list[str]] = {True: [], False: []}
    wanted = {True: n_urls - want_disallowed, False: want_disallowed}
    seen: set[str] = set()
    disallows = [rule for rule in group.rules if not rule.allow] or group.rules
    allows = [rule for rule in group.rules if rule.allow]
    for _ in range(100 * n_urls):
        if all(len(buckets[v]) >= wanted[v] for v in (True, False)):
            break
        roll = rng.random()
        if roll < 0.45:
            path = _near_rule(rng, disallows)
        elif roll < 0.55 and allows:
            path = _near_rule(rng, allows)
        else:
            path = _public_path(rng)
        verdict = _longest_match(group, path)
        if path in seen or len(buckets[verdict]) >= wanted[verdict]:
            continue
        seen.add(path)
        buckets[verdict].append(HOST + path)
    urls = buckets[True] + buckets[False]
    rng.shuffle(urls)
    return urls


def build_corpus(name: str, n_rules: int, n_urls: int, seed: int = 9309) -> Corpus:
    """The robots.txt named ``name`` with ``n_rules`` Allow/Disallow lines, and its URL sample."""
    rng = random.Random(f"{seed}:{name}:{n_rules}")
    star = max(1, round(n_rules * 0.7))
    search_engines = max(1, round(n_rules * 0.2))
    examplebot = max(1, n_rules - star - search_engines)
    star = n_rules - search_engines - examplebot
    large = n_rules > 1_000
    groups = [
        Group(("*",), _build_group(rng, star, large)),
        Group(("Googlebot", "Bingbot"), _build_group(rng, search_engines, large), crawl_delay=2),
        Group(("ExampleBot",), _build_group(rng, examplebot, large), crawl_delay=10),
    ]
    corpus = Corpus(name, _render(groups, rng), groups)
    corpus.urls = _sample_urls(rng, groups[0], n_urls)
    return corpus


def _longest_match(group: Group, path: str) -> bool:
    verdicts = group.verdicts
    for end in range(len(path), 0, -1):
        verdict = verdicts.get(path[:end])
        if verdict is not None:
            return verdict
    return True


def expected_allowed(corpus: Corpus, agent: str, url: str) -> bool:
    """The verdict by RFC 9309's longest match (the model the corpus is built to satisfy)."""
    token = agent.split("/", maxsplit=1)[0].lower()
    group = next(
        (g for g in corpus.groups if any(a.lower() == token for a in g.agents)),
        corpus.groups[0],
    )
    return _longest_match(group, url.removeprefix(HOST))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=sorted(SIZES))
    parser.add_argument("--urls", action="store_true", help="print the URL sample instead")
    parser.add_argument("--n-urls", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=9309)
    args = parser.parse_args()
    corpus = build_corpus(args.name, SIZES[args.name], args.n_urls, args.seed)
    print("\n".join(corpus.urls) if args.urls else corpus.text, end="")


if __name__ == "__main__":
    main()
