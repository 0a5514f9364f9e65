"""The 1996 draft's own tables and the 1994 standard's examples, as data [M1-M2, A1-A4]."""

from __future__ import annotations

import pytest

from politecrawl.robots import parse_robots

# Draft section 3.2.2: (record path, URL path, matches).
DRAFT_3_2_2_TABLE = [
    ("/tmp", "/tmp", True),
    ("/tmp", "/tmp.html", True),
    ("/tmp", "/tmp/a.html", True),
    ("/tmp/", "/tmp", False),
    ("/tmp/", "/tmp/", True),
    ("/tmp/", "/tmp/a.html", True),
    ("/a%3cd.html", "/a%3cd.html", True),
    ("/a%3Cd.html", "/a%3cd.html", True),
    ("/a%3cd.html", "/a%3Cd.html", True),
    ("/a%3Cd.html", "/a%3Cd.html", True),
    ("/a%2fb.html", "/a%2fb.html", True),
    ("/a%2fb.html", "/a/b.html", False),
    ("/a/b.html", "/a%2fb.html", False),
    ("/a/b.html", "/a/b.html", True),
    ("/%7ejoe/index.html", "/~joe/index.html", True),
    ("/~joe/index.html", "/%7Ejoe/index.html", True),
]


@pytest.mark.parametrize(("record_path", "url_path", "matches"), DRAFT_3_2_2_TABLE)
def test_m2_draft_3_2_2_table(record_path, url_path, matches):
    policy = parse_robots(f"User-agent: *\nDisallow: {record_path}\n")
    assert policy.is_allowed("anybot", f"http://example.org{url_path}") is not matches
    verdict = policy.explain("anybot", url_path)
    assert (verdict.rule is not None) is matches


@pytest.mark.parametrize(("record_path", "url_path", "matches"), DRAFT_3_2_2_TABLE)
def test_m2_draft_3_2_2_table_with_allow_lines(record_path, url_path, matches):
    policy = parse_robots(f"User-agent: *\nAllow: {record_path}\nDisallow: /\n")
    assert policy.is_allowed("anybot", url_path) is matches


FICT_ORG_ROBOTS = """\
# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow:

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
"""

# Draft section 4: URL -> (unhipbot, webcrawler & excite, other).
DRAFT_4_MATRIX = {
    "http://www.fict.org/": (False, True, False),
    "http://www.fict.org/index.html": (False, True, False),
    "http://www.fict.org/robots.txt": (True, True, True),
    "http://www.fict.org/server.html": (False, True, True),
    "http://www.fict.org/services/fast.html": (False, True, True),
    "http://www.fict.org/services/slow.html": (False, True, True),
    "http://www.fict.org/orgo.gif": (False, True, False),
    "http://www.fict.org/org/about.html": (False, True, True),
    "http://www.fict.org/org/plans.html": (False, True, False),
    "http://www.fict.org/%7Ejim/jim.html": (False, True, False),
    "http://www.fict.org/%7Emak/mak.html": (False, True, True),
}
MATRIX_AGENTS = {
    0: ["UnhipBot/0.1", "unhipbot"],
    1: ["WebCrawler/3.0", "Excite/1.0", "webcrawler", "EXCITE"],
    2: ["OtherBot/1.0", "politecrawl"],
}
MATRIX_CELLS = [
    (url, agent, row[column])
    for url, row in DRAFT_4_MATRIX.items()
    for column, agents in MATRIX_AGENTS.items()
    for agent in agents
]


@pytest.mark.parametrize(("url", "agent", "allowed"), MATRIX_CELLS)
def test_m1_a2_draft_section_4_allow_matrix(url, agent, allowed):
    assert parse_robots(FICT_ORG_ROBOTS).is_allowed(agent, url) is allowed


def test_m1_draft_4_first_match_in_file_order_decides():
    verdict = parse_robots(FICT_ORG_ROBOTS).explain("other", "http://www.fict.org/org/plans.html")
    assert verdict.rule is not None
    assert (verdict.rule.line_number, verdict.rule.line) == (12, "Disallow: /org/plans.html")
    assert verdict.record_line == 11


# The 1994 standard's three examples: (robots.txt, agent, path, allowed).
STANDARD_1994 = """\
# robots.txt for http://www.example.com/

User-agent: *
Disallow: /cyberworld/map/ # This is an infinite virtual URL space
Disallow: /tmp/ # these will soon disappear
Disallow: /foo.html
"""
CYBERMAPPER_1994 = """\
# robots.txt for http://www.example.com/

User-agent: *
Disallow: /cyberworld/map/ # This is an infinite virtual URL space

# Cybermapper knows where to go.
User-agent: cybermapper
Disallow:
"""
GO_AWAY_1994 = """\
# go away
User-agent: *
Disallow: /
"""
EXAMPLES_1994 = [
    (STANDARD_1994, "anybot", "/cyberworld/map/index.html", False),
    (STANDARD_1994, "anybot", "/cyberworld/", True),
    (STANDARD_1994, "anybot", "/tmp/x", False),
    (STANDARD_1994, "anybot", "/tmp", True),
    (STANDARD_1994, "anybot", "/foo.html", False),
    (STANDARD_1994, "anybot", "/foo.htm", True),
    (STANDARD_1994, "anybot", "/", True),
    (CYBERMAPPER_1994, "anybot", "/cyberworld/map/index.html", False),
    (CYBERMAPPER_1994, "cybermapper/2.0", "/cyberworld/map/index.html", True),
    (CYBERMAPPER_1994, "anybot", "/index.html", True),
    (GO_AWAY_1994, "anybot", "/", False),
    (GO_AWAY_1994, "anybot", "/index.html", False),
    (GO_AWAY_1994, "anybot", "/robots.txt", True),
]


@pytest.mark.parametrize(("robots", "agent", "path", "allowed"), EXAMPLES_1994)
def test_m1_1994_standard_examples(robots, agent, path, allowed):
    assert parse_robots(robots).is_allowed(agent, path) is allowed


def test_m1_1994_help_example():
    policy = parse_robots("User-agent: *\nDisallow: /help\n")
    assert not policy.is_allowed("a", "/help.html")
    assert not policy.is_allowed("a", "/help/index.html")
    slash = parse_robots("User-agent: *\nDisallow: /help/\n")
    assert not slash.is_allowed("a", "/help/index.html")
    assert slash.is_allowed("a", "/help.html")


# The article's 1994-era variant examples (F5): several values on one line.
VARIANT_EXAMPLE_1 = (
    "User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n"
)
VARIANT_EXAMPLE_2 = (
    "User-Agent: Copernicus Fred\n\nDisallow:\n\nUser-Agent: * Rex\n\nDisallow: /t\n"
)
VARIANT_EXAMPLE_3 = """\
# This is for every spider!

User-Agent: *

# stay away from this

Disallow: /spiders/not/here/ #and everything in it

Disallow: # a little nothing

Disallow: #This could be habit forming!

# Don't comments make code much more readable!!!
"""


@pytest.mark.parametrize(
    ("robots", "agent", "path", "allowed"),
    [
        (VARIANT_EXAMPLE_1, "other", "/index.html", False),
        (VARIANT_EXAMPLE_1, "Lycos/1.0", "/index.html", True),
        (VARIANT_EXAMPLE_1, "Lycos/1.0", "/cgi-bin/search", False),
        (VARIANT_EXAMPLE_1, "Lycos/1.0", "/tmp/x", False),
        (VARIANT_EXAMPLE_2, "Copernicus", "/tmp/", True),
        (VARIANT_EXAMPLE_2, "fred", "/top-cat.txt", True),
        (VARIANT_EXAMPLE_2, "Rex", "/tea-time/", False),
        (VARIANT_EXAMPLE_2, "other", "/traverse.this", False),
        (VARIANT_EXAMPLE_2, "other", "/index.html", True),
        (VARIANT_EXAMPLE_3, "any", "/spiders/not/here/really/", False),
        (VARIANT_EXAMPLE_3, "any", "/spiders/not/here/yes/even/me.html", False),
        (VARIANT_EXAMPLE_3, "any", "/spiders/not/", True),
        (VARIANT_EXAMPLE_3, "any", "/spiders/not/her", True),
    ],
)
def test_f4_f5_1994_variant_examples(robots, agent, path, allowed):
    assert parse_robots(robots).is_allowed(agent, path) is allowed
