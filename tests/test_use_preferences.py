"""Use preferences: the vocabularies onto the uses, the combination rule, and robots.txt's
Content-Signal and Content-Usage lines [U1, U4].

The robots.txt files in ``usage_files/`` are real-shaped: crawler-commons' content-signal-groups
shape (file-wide and group-scoped signals, merged groups), Cloudflare's managed robots.txt (a long
comment block, then ``User-agent: *`` with ``Content-Signal`` and ``Allow: /``), and a
Content-Usage file with overlapping paths (draft-ietf-aipref-attach-05's example, extended).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from politecrawl.robots import parse_robots
from politecrawl.robots.preferences import read_robots_preferences
from politecrawl.usage import (
    NO_PREFERENCES,
    Protocol,
    Stance,
    Use,
    UsePreferences,
    combine,
    fetch_permitted,
    signal,
)
from politecrawl.usage.statements import read_content_signal, read_content_usage

FILES = Path(__file__).parent / "usage_files"
AGENT = "politecrawl/1.0 (+https://example.org/bot)"
A, R, N = Stance.ALLOWED, Stance.REFUSED, Stance.NONE


def stances(preferences: UsePreferences) -> tuple[Stance, Stance, Stance]:
    """(search, ai-input, ai-train)."""
    return tuple(preferences.verdict(use).stance for use in Use)  # type: ignore[return-value]


def warned(preferences) -> list[tuple[int | None, str]]:
    return [(warning.line_number, warning.message) for warning in preferences.warnings]


# --- U4: three states per use, combined to the most restrictive --------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ((), N),
        ((N,), N),
        ((A,), A),
        ((R,), R),
        ((N, A), A),
        ((A, N), A),
        ((A, R), R),
        ((R, A), R),
        ((N, R, A), R),
        ((A, A), A),
        ((N, N), N),
    ],
)
def test_u4_signals_combine_to_the_most_restrictive(said, expected):
    signals = [
        signal(Protocol.CONTENT_SIGNAL, f"source {i}", "x", {Use.AI_TRAIN: stance})
        for i, stance in enumerate(said)
    ]
    verdict = combine(signals, Use.AI_TRAIN)
    assert verdict.stance is expected
    assert [one.source for one in verdict.deciding] == [
        f"source {i}" for i, stance in enumerate(said) if stance is expected and stance is not N
    ]


def test_u4_each_use_is_combined_on_its_own():
    preferences = UsePreferences(
        (
            signal(Protocol.CONTENT_SIGNAL, "robots.txt line 3", "x", {Use.SEARCH: A}),
            signal(Protocol.TDMREP, "tdm-reservation header", "1", {Use.AI_TRAIN: R}),
        )
    )
    assert stances(preferences) == (A, N, R)
    assert preferences.refuses(Use.AI_TRAIN)
    assert not preferences.refuses(Use.SEARCH)
    assert "refused by tdm-reservation header" in preferences.verdict(Use.AI_TRAIN).describe()
    assert "no preference" in preferences.verdict(Use.AI_INPUT).describe()


@pytest.mark.parametrize(
    ("robots_allowed", "said", "purpose", "fetched"),
    [
        (True, N, None, True),
        (True, R, None, True),  # U5: without a purpose nothing is withheld
        (True, R, Use.AI_TRAIN, False),
        (True, A, Use.AI_TRAIN, True),
        (True, N, Use.AI_TRAIN, True),
        (False, A, Use.AI_TRAIN, False),  # U1: a signal never grants what robots.txt forbids
        (False, A, None, False),
        (False, N, Use.SEARCH, False),
    ],
)
def test_u4_u5_preferences_only_ever_withhold_a_fetch(robots_allowed, said, purpose, fetched):
    preferences = UsePreferences(
        (signal(Protocol.CONTENT_SIGNAL, "robots.txt", "x", dict.fromkeys(Use, said)),)
    )
    assert fetch_permitted(robots_allowed, preferences, purpose) is fetched


def test_u4_merged_preferences_keep_every_signal_and_warning():
    first = UsePreferences((signal(Protocol.NOAI, "meta robots", "noai", {Use.AI_TRAIN: R}),))
    second = UsePreferences((signal(Protocol.TDMREP, "header", "0", {Use.AI_TRAIN: A}),))
    merged = first.merged(second, NO_PREFERENCES)
    assert len(merged.signals) == 2
    assert merged.verdict(Use.AI_TRAIN).stance is R


# --- U4: each vocabulary mapped onto the uses (the table of docs/use-preferences.md) ------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("search=yes, ai-input=yes, ai-train=no", (A, A, R)),
        ("search=yes,ai-train=no", (A, N, R)),
        ("ai-train=no", (N, N, R)),
        ("SEARCH=Yes, AI-Train=NO", (A, N, R)),  # keys and values in any case
        ("search=no, ai-input=no, ai-train=no", (R, R, R)),
        ("", (N, N, N)),
    ],
)
def test_u4_content_signal_keys(value, expected):
    said, _ = read_content_signal(value)
    assert tuple(said.get(use, N) for use in Use) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("train-ai=n", (N, N, R)),
        ("train-ai=y, search=n", (R, N, A)),
        ("ai-use=n", (N, R, N)),
        ("search=y, ai-use=y, train-ai=y", (A, A, A)),
        ('train-ai=n;reason="licence"', (N, N, R)),  # parameters are ignored
        ("train-ai;allow=n, train-ai=y", (N, N, A)),  # the last key applies (vocab-08 6.5)
        ("foo=n", (N, N, N)),  # unknown labels are ignored
        # Labels of earlier drafts: refusals for the uses left unsaid, never a grant.
        ("bots=n", (R, R, R)),
        ("all=n, search=y", (A, R, R)),
        ("train-genai=n", (N, N, R)),
        ("train-genai=n, train-ai=y", (N, N, A)),
        ("bots=y", (N, N, N)),
        ("ai-output=n", (R, R, N)),
    ],
)
def test_u4_aipref_vocabulary_labels(value, expected):
    said, _ = read_content_usage(value)
    assert tuple(said.get(use, N) for use in Use) == expected


# --- U2: malformed statement values say less, never more ----------------------------------------


@pytest.mark.parametrize(
    ("value", "expected", "note"),
    [
        ("ai-train=maybe", (N, N, N), "ai-train='maybe' is neither yes nor no: no preference"),
        ("use=reference, ai-train=no", (N, N, R), "unknown signal 'use', ignored"),
        ("search=yes ai-train=no", (A, N, R), "'search=yes ai-train=no': separate signals"),
        ("ai-train", (N, N, N), "'ai-train' is no key=value signal, ignored"),
        (
            "ai-train=yes, ai-train=no",
            (N, N, R),
            "ai-train given twice with different values: the more restrictive applies",
        ),
    ],
)
def test_u2_malformed_content_signal_values(value, expected, note):
    said, notes = read_content_signal(value)
    assert tuple(said.get(use, N) for use in Use) == expected
    assert any(one.startswith(note) for one in notes), notes


@pytest.mark.parametrize(
    ("value", "expected", "note"),
    [
        ("Train-AI=n", (N, N, R), "not a structured-field dictionary"),
        ("train-ai=n,,", (N, N, R), "not a structured-field dictionary"),
        ("search=Y, train-ai=N", (N, N, R), "train-ai: N is not the token n; read as a refusal"),
        ("train-ai=no", (N, N, R), "train-ai: no is not the token n; read as a refusal"),
        ("train-ai=yes", (N, N, N), "train-ai: yes is neither the token y nor n"),
        ('search="y"', (N, N, N), "search: 'y' is neither the token y nor n"),
        ("train-ai", (N, N, N), "train-ai: ?1 is neither the token y nor n"),
        ("train-ai=(n)", (N, N, N), 'train-ai: [(Token("n"), {})] is neither'),
        ("train-ai=y, train-ai=n", (N, N, R), "'train-ai' given more than once"),
        ("\u00e9=n", (N, N, N), "not a structured-field dictionary"),
    ],
)
def test_u2_malformed_content_usage_values(value, expected, note):
    said, notes = read_content_usage(value)
    assert tuple(said.get(use, N) for use in Use) == expected
    assert any(one.startswith(note) for one in notes), notes


# --- U1: robots.txt Content-Signal, file-wide and per group, merged as RFC 9309 merges --------


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        # mybot's two groups merge: search=yes, ai-train=yes from one, ai-input=yes from the other
        ("mybot", (A, A, A)),
        ("MyBot/2.1 (+https://bots.example)", (A, A, A)),
        ("yourbot", (N, A, N)),
        ("otherbot", (R, N, R)),
        (AGENT, (A, N, R)),  # not named: the "*" group
    ],
)
def test_u1_content_signal_groups(agent, expected):
    preferences = read_robots_preferences((FILES / "content-signal-groups.txt").read_bytes())
    assert stances(preferences.for_url(agent, "https://site.example/any/page")) == expected


def test_u1_content_signal_before_any_group_speaks_for_every_robot():
    robots = "Content-Signal: ai-train=no\n\nUser-agent: *\nContent-Signal: search=yes\nAllow: /\n"
    preferences = read_robots_preferences(robots)
    assert stances(preferences.for_url(AGENT, "/x")) == (A, N, R)
    assert stances(preferences.for_url("namedbot", "/x")) == (A, N, R)
    both = "Content-Signal: ai-train=no\nUser-agent: *\nContent-Signal: ai-train=yes\nAllow: /\n"
    assert stances(read_robots_preferences(both).for_url(AGENT, "/x")) == (N, N, R)


def test_u1_content_signal_groups_sources_name_the_line_and_group():
    preferences = read_robots_preferences((FILES / "content-signal-groups.txt").read_bytes())
    sources = [one.source for one in preferences.for_url("yourbot", "/").signals]
    assert sources == [
        "robots.txt line 6 (before any User-agent group, for every robot)",
        "robots.txt line 18 (User-agent: yourbot, mybot)",
    ]
    said = preferences.for_url("yourbot", "/").signals[1]
    assert said.statement == "Content-Signal: ai-input=yes"
    assert said.line_number == 18
    assert said.protocol is Protocol.CONTENT_SIGNAL
    assert warned(preferences) == [
        (6, "ai-train='maybe' is neither yes nor no: no preference"),
    ]


def test_u1_cloudflare_managed_robots_txt():
    data = (FILES / "cloudflare-managed.txt").read_bytes()
    preferences = read_robots_preferences(data)
    assert stances(preferences.for_url(AGENT, "https://www.example.com/blog/post")) == (A, N, R)
    # The named AI crawlers' groups say nothing: robots.txt keeps them out instead.
    assert stances(preferences.for_url("GPTBot/1.2", "/blog/post")) == (N, N, N)
    assert preferences.warnings == ()
    policy = parse_robots(data)
    assert policy.is_allowed(AGENT, "/blog/post")
    assert not policy.is_allowed(AGENT, "/cdn-cgi/l/email-protection")
    assert not policy.is_allowed("GPTBot/1.2", "/blog/post")


def test_u1_a_signal_never_grants_a_fetch_robots_txt_forbids():
    robots = "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=yes\nDisallow: /\n"
    preferences = read_robots_preferences(robots).for_url(AGENT, "/page")
    assert stances(preferences) == (A, A, A)
    allowed = parse_robots(robots).is_allowed(AGENT, "/page")
    assert not allowed
    assert not any(fetch_permitted(allowed, preferences, use) for use in [None, *Use])


def _without_preference_lines(text: str) -> str:
    """The file with each preference line made a comment (so no line number moves)."""
    return "\n".join(
        "#" + line
        if line.lower().lstrip().startswith(("content-signal", "content-usage"))
        else line
        for line in text.split("\n")
    )


@pytest.mark.parametrize(
    "name", ["content-signal-groups.txt", "cloudflare-managed.txt", "content-usage-paths.txt"]
)
@pytest.mark.parametrize("semantics", ["strict", "draft", "rfc9309"])
def test_u1_preference_lines_never_change_what_robots_txt_allows(name, semantics):
    text = (FILES / name).read_text()
    with_lines = parse_robots(text, semantics=semantics)
    without = parse_robots(_without_preference_lines(text), semantics=semantics)
    agents = [AGENT, "mybot", "yourbot", "otherbot", "GPTBot", "ExampleBot", "Amazonbot/0.1"]
    paths = ["/", "/private/x", "/login/", "/never/test", "/ai-ok/x", "/cdn-cgi/x", "/a.pdf"]
    for agent in agents:
        for path in paths:
            assert with_lines.is_allowed(agent, path) == without.is_allowed(agent, path)
        assert with_lines.crawl_delay(agent) == without.crawl_delay(agent)
    assert [record.rules for record in with_lines.records] == [
        record.rules for record in without.records
    ]


def test_u1_a_signal_between_user_agent_lines_does_not_split_the_group():
    robots = "User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /\n"
    assert not parse_robots(robots).is_allowed("a", "/x")
    preferences = read_robots_preferences(robots)
    assert stances(preferences.for_url("a", "/x")) == (N, N, R)
    assert stances(preferences.for_url("b", "/x")) == (N, N, R)


# --- U1: robots.txt Content-Usage, longest path wins ---------------------------------------------


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        # draft-ietf-aipref-attach-05's own table
        (AGENT, "/test", (N, N, R)),
        (AGENT, "/ai-ok/test", (N, N, A)),
        ("ExampleBot", "/test", (N, N, A)),
        ("ExampleBot", "/ai-ok/private/x", (N, N, A)),
        # overlapping paths: the longest match decides
        (AGENT, "/ai-ok/private/x", (N, R, R)),
        (AGENT, "/ai-ok/report.pdf", (R, N, R)),  # "/*.pdf$" and "/ai-ok/": 7 octets each
        (AGENT, "/ai-ok/report.pdf?download=1", (N, N, A)),  # "$": the pdf rule no longer matches
        (AGENT, "/docs/report.pdf", (R, N, R)),
        # the same path twice, conflicting: both apply, the refusal wins
        (AGENT, "/news/today", (A, R, N)),
        # escapes are decoded as for Allow and Disallow (RFC 9309 2.2.2)
        (AGENT, "/%61i-ok/x", (N, N, A)),
    ],
)
def test_u1_content_usage_longest_path(agent, path, expected):
    preferences = read_robots_preferences((FILES / "content-usage-paths.txt").read_bytes())
    assert stances(preferences.for_url(agent, f"https://site.example{path}")) == expected


def test_u1_content_usage_rules_of_equal_length_all_apply():
    preferences = read_robots_preferences((FILES / "content-usage-paths.txt").read_bytes())
    found = preferences.for_url(AGENT, "/ai-ok/report.pdf").signals
    assert [one.line_number for one in found] == [7, 9]
    assert preferences.warnings == ()


def test_u1_content_usage_groups_merge_and_a_disallowed_path_stays_disallowed():
    robots = (
        "User-agent: politecrawl\nDisallow: /private/\nContent-Usage: /private/ train-ai=y\n"
        "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n"
        "User-agent: politecrawl\nContent-Usage: /data/ ai-use=n\n"
    )
    preferences = read_robots_preferences(robots)
    assert stances(preferences.for_url(AGENT, "/data/x")) == (N, R, N)
    assert stances(preferences.for_url(AGENT, "/other")) == (N, N, N)  # "*" is not ours
    assert stances(preferences.for_url("somebot", "/other")) == (N, N, R)
    said = preferences.for_url(AGENT, "/private/x")
    assert not fetch_permitted(parse_robots(robots).is_allowed(AGENT, "/private/x"), said, None)


# --- U1: malformed lines, read leniently with warnings and line numbers -----------------------


def test_u1_malformed_lines_are_warnings_with_line_numbers():
    robots = "\n".join(
        [
            "User-agent: *",  # 1
            "Content-Signals: ai-train=no, search=yes",  # 2: misspelled: refusals only
            "ContentUsage: ai-use=n",  # 3: misspelled: refusals only
            "Content-Signal ai-input=no",  # 4: no colon
            "Content-Signal:",  # 5: empty
            "Content-Signal: ai-train=perhaps",  # 6: neither yes nor no
            "Content-Usage: /only-a-path",  # 7: no preference
            "Content-Usage: *.pdf train-ai=n",  # 8: path without '/'
            "Content-Usage: Train-AI=n, Search=y",  # 9: no dictionary: refusals only
            "Content-Signal: use=reference",  # 10: unknown key
            "Allow: /",
        ]
    )
    preferences = read_robots_preferences(robots)
    assert stances(preferences.for_url(AGENT, "/x")) == (N, R, R)
    assert stances(preferences.for_url(AGENT, "/x.pdf")) == (N, R, R)
    assert warned(preferences) == [
        (2, "'content-signals' read as content-signal: only its refusals are kept"),
        (3, "'contentusage' read as content-usage: only its refusals are kept"),
        (4, "'content-signal' without a colon read as content-signal: only its refusals are kept"),
        (5, "empty content-signal value, ignored"),
        (6, "ai-train='perhaps' is neither yes nor no: no preference"),
        (7, "Content-Usage path without a preference, ignored"),
        (8, "Content-Usage path does not start with '/': read as a pattern"),
        (
            9,
            "not a structured-field dictionary (RFC 9651: Key cannot begin with an uppercase "
            "character); only its refusals are read",
        ),
        (10, "unknown signal 'use', ignored"),
    ]


def test_u1_content_usage_outside_any_group_is_read_for_every_robot():
    preferences = read_robots_preferences(
        "Content-Usage: train-ai=n\nUser-agent: *\nContent-Usage: train-ai=y\n"
    )
    assert stances(preferences.for_url(AGENT, "/")) == (N, N, R)
    assert warned(preferences) == [
        (1, "Content-Usage outside any User-agent group: read for every robot")
    ]


def test_u1_lines_ending_in_cr_a_bom_and_latin1_octets_keep_their_line_numbers():
    data = b"\xef\xbb\xbfUser-agent: *\r\nContent-Signal: ai-train=n\xe9\rAllow: /\r\n"
    preferences = read_robots_preferences(data)
    assert warned(preferences) == [(2, "ai-train='n\ufffd' is neither yes nor no: no preference")]


def test_u1_preference_lines_are_bounded_like_rules():
    from politecrawl.robots import RobotsLimits

    robots = "User-agent: *\n" + "Content-Signal: ai-train=no\n" * 5
    preferences = read_robots_preferences(robots, RobotsLimits(max_rules=3))
    assert len(preferences.for_url(AGENT, "/").signals) == 3
    assert warned(preferences)[0] == (5, "too many preference lines, ignored")
