"""Real sites' robots.txt lines that an earlier engine misread, each read as its owner means it
where that is not in doubt [F3, F5, A2, M6, M7].

Most lines are quoted from real files found by two reviews of 11,107 and 13,389 sites'
robots.txt (the site is named beside each); the rest are the shapes those reviews' fixes had to
keep. The verdicts are given per reading as ``(draft, rfc9309, strict)``.
"""

from __future__ import annotations

import pytest

from politecrawl.robots import parse_robots

AGENT = "politecrawl/1.0 (+https://example.org/bot)"


def verdicts(robots: str, url: str, agent: str = AGENT) -> tuple[bool, bool, bool]:
    """(draft, rfc9309, strict) for ``url``."""
    policy = parse_robots(robots, semantics="strict")
    return tuple(  # type: ignore[return-value]
        policy.with_semantics(name).is_allowed(agent, url)
        for name in ("draft", "rfc9309", "strict")
    )


# --- F5 is the draft's letter; RFC 9309 splits only a list of paths ----------------------------


@pytest.mark.parametrize(
    ("line", "url", "expected"),
    [
        # femalefirst.co.uk: the draft's letter reads "/" as a path of its own (F5), and
        # strict obeys it; RFC 9309's reading leaves a lone "/" beside paths out.
        ("Disallow: /anal /", "/news/index.html", (False, True, False)),
        ("Disallow: /anal /", "/anal/x", (False, False, False)),
        # thehindu.com: "*" is no wildcard to the draft, and RFC 9309 reads one pattern.
        ("Disallow: * http:*", "/news/national/", (True, True, True)),
        # modani.com: not a list ("Price"), so RFC 9309 reads the value whole.
        ("Disallow: / *? Price = *", "/sofas?color=red", (False, True, False)),
        # realtor.com: "/*not" split off would forbid every URL holding "not".
        ("Disallow: /*not found", "/notebooks/", (True, True, True)),
        ("Disallow: /*not found", "/x/not%20found", (True, False, False)),
        # A list of patterns is split in RFC 9309's reading too.
        ("Disallow: /cgi-bin/ *.php", "/a.php", (True, False, False)),
        ("Disallow: *.pdf /tmp/", "/tmp/a", (False, False, False)),
    ],
)
def test_f5_blanks_in_a_disallow_as_the_draft_and_rfc9309_read_them(line, url, expected):
    assert verdicts(f"User-agent: *\n{line}\n", url) == expected


def test_f5_the_lone_slash_only_the_draft_obeys_is_named_in_a_warning():
    policy = parse_robots("User-agent: *\nDisallow: /anal /\n")
    assert [(w.line_number, w.message) for w in policy.warnings] == [
        (2, "a lone '/' or '*' among several paths: only the draft's reading obeys it")
    ]


def test_f5_m6_a_list_of_paths_is_split_in_both_readings():
    # With "Allow: /" first, the draft's first match allows everything; RFC 9309's longest
    # match must see /private/ on its own for strict to keep it out.
    robots = "User-agent: *\nAllow: /\nDisallow: /cgi-bin/ /private/\n"
    assert verdicts(robots, "/private/x") == (True, False, False)
    assert verdicts(robots, "/cgi-bin/a") == (True, False, False)
    assert verdicts(robots, "/public") == (True, True, True)


@pytest.mark.parametrize("line", ["Disallow: /", "Disallow: /  ", "Disallow: / *"])
def test_f5_a_lone_slash_alone_on_its_line_forbids_everything(line):
    # right-thing.solutions: "Disallow: / *", then "Allow: /ords/r/app/*/*".
    robots = f"User-agent: *\n{line}\nAllow: /ords/r/app/*/*\n"
    assert verdicts(robots, "/index.html") == (False, False, False)


def test_f5_a_list_with_a_lone_wildcard_keeps_its_path():
    # The line is argentina.gob.ar's.
    assert verdicts("User-agent: *\nDisallow: /buscar/ ***\n", "/buscar/x") == (
        False,
        False,
        False,
    )


def test_f3_disallow_written_twice_is_read_once():
    # solutionsmedia.cbcrc.ca
    robots = "User-agent: *\nDisallow: Disallow: /search?*\n"
    assert verdicts(robots, "/search?q=x") == (True, False, False)  # the draft has no "*"
    assert verdicts(robots, "/searching") == (True, True, True)
    policy = parse_robots(robots)
    assert [w.message for w in policy.warnings] == ["'Disallow' written twice, read once"]


@pytest.mark.parametrize("value", ["Disallow: /x", "disallow : /x", "Disallow /x", "DISALLOW:/x"])
def test_f3_disallow_written_twice_in_any_spelling_is_read_once(value):
    assert verdicts(f"User-agent: *\nDisallow: {value}\n", "/x/y") == (False, False, False)


# --- F3: a separator typed wrong --------------------------------------------------------------


def test_f3_a_semicolon_typed_for_the_colon_is_read_as_meant():
    # bancaditalia.it
    robots = "User-agent: *\nDisallow; /pubblicazioni/bollettino-vigilanza/2013-*\n"
    url = "/pubblicazioni/bollettino-vigilanza/2013-01/index.html"
    assert verdicts(robots, url) == (True, False, False)  # the draft has no wildcards
    assert verdicts(robots, "/pubblicazioni/bollettino-vigilanza/2013-*") == (False, False, False)
    assert verdicts(robots, "/pubblicazioni/") == (True, True, True)


@pytest.mark.parametrize(
    "robots",
    [
        "User-agent: *\nDisallow;/private\n",
        "User-agent: *\ndisallow = /private\n",
        "User-agent; politecrawl\nDisallow: /private\n",
    ],
)
def test_f3_semicolon_and_equals_sign_for_the_colon(robots):
    assert verdicts(robots, "/private/a") == (False, False, False)
    assert verdicts(robots, "/public/a") == (True, True, True)


def test_f3_an_allow_with_a_mistyped_separator_is_not_read():
    robots = "User-agent: *\nDisallow: /\nAllow; /public\n"
    assert verdicts(robots, "/public/a") == (False, False, False)
    assert verdicts("User-agent: *\nDisallow: /\nAllow: /public\n", "/public/a") == (
        False,  # the draft's first match: Disallow: / comes first
        True,
        False,
    )


# --- A2 / RFC 9309 2.2.1: a robot named with punctuation after its name ----------------------


@pytest.mark.parametrize(
    "agents",
    ["politecrawl, otherbot", "politecrawl*", "politecrawl;", "politecrawl.", "politecrawl2"],
)
def test_a2_m6_a_name_followed_by_punctuation_names_the_robot(agents):
    robots = f"User-agent: *\nDisallow: /\n\nUser-agent: {agents}\nDisallow: /private\n"
    assert verdicts(robots, "/public") == (True, True, True)
    assert verdicts(robots, "/private") == (False, False, False)
    assert verdicts(robots, "/public", agent="otherbot/2.0") == (
        "otherbot" in agents,
        "otherbot" in agents,
        "otherbot" in agents,
    )


def test_a2_m6_only_the_first_word_of_a_line_names_by_its_leading_name():
    # money.pl's sites: "User-agent: SentiBot www.sentibot.eu (compatible with Googlebot)";
    # Google reads the robot's name from the first word only.
    robots = (
        "User-agent: politecrawl\nDisallow: /private/\n\n"
        "User-agent: SentiBot www.sentibot.eu (compatible with politecrawl)\nDisallow: /\n"
    )
    assert verdicts(robots, "/index.html") == (True, True, True)
    assert verdicts(robots, "/index.html", agent="SentiBot") == (False, False, False)


def test_a2_m6_a_longer_name_does_not_name_the_robot():
    robots = "User-agent: *\nDisallow: /\n\nUser-agent: politecrawler\nAllow: /\n"
    # The draft's substring match (A2) reads "politecrawler" as naming politecrawl; RFC 9309
    # does not, so strict keeps the "*" record's Disallow.
    assert verdicts(robots, "/a") == (True, False, False)


@pytest.mark.parametrize("line", ["Allow:", "Disallow:", "Disallow: Disallow:"])
def test_m3_an_empty_value_matches_nothing_and_is_no_mistake(line):
    policy = parse_robots(f"User-agent: *\n{line}\n")
    assert policy.is_allowed(AGENT, "/a")
    assert [w.message for w in policy.warnings if "start with" in w.message] == []
