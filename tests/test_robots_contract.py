"""One contract suite for both robots semantics; the draft and RFC 9309 differ only where tested.

(STYLE 11) Each test runs under both semantics unless it names one; where they part, the
expected value for each is given side by side.
"""

from __future__ import annotations

import pytest

from politecrawl.robots import RequestRate, RobotsLimits, parse_robots

BOTH = pytest.mark.parametrize("semantics", ["draft", "rfc9309"])


def allowed(robots: str | bytes, path: str, semantics: str, agent: str = "politecrawl") -> bool:
    return parse_robots(robots, semantics=semantics).is_allowed(agent, path)


# --- F1: line ends, BOM, bytes --------------------------------------------------------------


@BOTH
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_f1_line_endings(semantics, newline):
    robots = newline.join(["User-agent: *", "Disallow: /a", "Disallow: /b", ""])
    assert not allowed(robots, "/a", semantics)
    assert not allowed(robots, "/b", semantics)
    assert allowed(robots, "/c", semantics)


@BOTH
def test_f1_mixed_line_endings(semantics):
    robots = "User-agent: *\rDisallow: /a\r\nDisallow: /b\nDisallow: /c"
    for path in ("/a", "/b", "/c"):
        assert not allowed(robots, path, semantics)


@BOTH
def test_f1_utf8_bom_is_ignored(semantics):
    robots = b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n"
    assert not allowed(robots, "/x", semantics)


@BOTH
def test_f1_invalid_utf8_and_nul_bytes_do_not_crash(semantics):
    robots = b"User-agent: *\nDisallow: /\xff\xfe\x00bad\nDisallow: /ok\x00\n\x80\x81\n"
    policy = parse_robots(robots, semantics=semantics)
    assert not policy.is_allowed("a", "/ok\x00")
    assert policy.is_allowed("a", "/other")


@BOTH
def test_f1_str_and_bytes_give_the_same_policy(semantics):
    text = "User-agent: *\nDisallow: /caf\u00e9\n"
    for robots in (text, text.encode("utf-8")):
        assert not allowed(robots, "/caf%C3%A9/menu", semantics)


# --- F2: comments -------------------------------------------------------------------------


@BOTH
def test_f2_comment_only_line_does_not_end_a_record(semantics):
    robots = "User-agent: *\n# a comment\nDisallow: /x\n# another\nDisallow: /y # trailing\n"
    assert not allowed(robots, "/x", semantics)
    assert not allowed(robots, "/y", semantics)


@BOTH
def test_f2_comment_after_value_is_stripped(semantics):
    robots = "User-agent: politecrawl # us\nDisallow: /private#not part of the path\n"
    assert not allowed(robots, "/private/page", semantics)


# --- F3: field names, misspellings, missing colons -----------------------------------------


@BOTH
@pytest.mark.parametrize(
    "field",
    [
        "Disallow",
        "DISALLOW",
        "disallow",
        "Disalow",
        "Dissallow",
        "Dissalow",
        "Diasllow",
        "Disallaw",
    ],
)
def test_f3_disallow_spellings_are_read(semantics, field):
    assert not allowed(f"User-agent: *\n{field}: /x\n", "/x", semantics)


@BOTH
@pytest.mark.parametrize("field", ["User-agent", "USER-AGENT", "user agent", "Useragent"])
def test_f3_user_agent_spellings_are_read(semantics, field):
    assert not allowed(f"{field}: politecrawl\nDisallow: /x\n", "/x", semantics)


@BOTH
def test_f3_misspelled_allow_is_not_read(semantics):
    robots = "User-agent: *\nAlow: /x\nDisallow: /\n"
    assert not allowed(robots, "/x", semantics)


@BOTH
def test_f3_missing_colon_after_known_field_is_read(semantics):
    robots = "User-agent *\ndisallow /tmp\n"
    assert not allowed(robots, "/tmp/a", semantics)
    assert allowed(robots, "/other", semantics)


@BOTH
def test_f3_unknown_fields_and_colonless_lines_are_ignored(semantics):
    robots = (
        "User-agent: *\nNoindex: /x\nthis line means nothing\nHost: example.org\nDisallow: /y\n"
    )
    policy = parse_robots(robots, semantics=semantics)
    assert policy.is_allowed("a", "/x")
    assert not policy.is_allowed("a", "/y")
    assert any(w.line_number == 3 for w in policy.warnings)


@BOTH
def test_f3_whitespace_around_values_is_dropped(semantics):
    assert not allowed("User-agent:\t*  \nDisallow:   /x  \t\n", "/x", semantics)


# --- F4: records ---------------------------------------------------------------------------


@BOTH
def test_f4_blank_line_between_user_agent_and_rules_does_not_orphan_them(semantics):
    robots = "User-agent: politecrawl\n\nDisallow: /x\n"
    assert not allowed(robots, "/x", semantics)


@BOTH
def test_f4_rules_before_any_user_agent_are_ignored(semantics):
    robots = "Disallow: /x\n\nUser-agent: *\nDisallow: /y\n"
    assert allowed(robots, "/x", semantics)
    assert not allowed(robots, "/y", semantics)


@BOTH
def test_f4_user_agent_after_rule_starts_a_new_record(semantics):
    robots = "User-agent: a\nDisallow: /a\nUser-agent: politecrawl\nDisallow: /p\n"
    assert allowed(robots, "/a", semantics)
    assert not allowed(robots, "/p", semantics)


@pytest.mark.parametrize(("semantics", "expected"), [("draft", True), ("rfc9309", False)])
def test_f4_blank_line_ends_a_draft_record_but_not_an_rfc9309_group(semantics, expected):
    robots = "User-agent: politecrawl\nDisallow: /x\n\nDisallow: /y\n"
    assert not allowed(robots, "/x", semantics)
    assert allowed(robots, "/y", semantics) is expected


@BOTH
def test_f4_crawl_delay_is_a_rule_line_so_the_next_user_agent_starts_a_record(semantics):
    # A common file: a delay for everyone, then a ban for one robot. Everyone else may crawl.
    robots = "User-agent: *\nCrawl-delay: 10\n\nUser-agent: BadBot\nDisallow: /\n"
    policy = parse_robots(robots, semantics=semantics)
    assert policy.is_allowed("politecrawl", "/x")
    assert policy.crawl_delay("politecrawl") == 10.0
    assert not policy.is_allowed("BadBot/2.0", "/x")
    assert policy.crawl_delay("BadBot") is None
    no_blank = "User-agent: a\nCrawl-delay: 5\nUser-agent: politecrawl\nDisallow: /x\n"
    assert parse_robots(no_blank, semantics=semantics).is_allowed("a", "/x")


@pytest.mark.parametrize(("semantics", "expected"), [("draft", False), ("rfc9309", True)])
def test_f4_a_user_agent_line_without_rules_is_no_draft_record(semantics, expected):
    robots = "User-agent: *\nDisallow: /x\n\nUser-agent: politecrawl\n"
    assert allowed(robots, "/x", semantics) is expected


# --- F5: several values on one line ---------------------------------------------------------


@BOTH
def test_f5_user_agent_with_several_names(semantics):
    robots = "User-agent: Copernicus Fred\nDisallow: /x\n"
    assert not allowed(robots, "/x", semantics, agent="Fred")
    assert not allowed(robots, "/x", semantics, agent="copernicus/1.0")
    assert allowed(robots, "/x", semantics, agent="other")


@BOTH
def test_f5_disallow_with_several_paths(semantics):
    robots = "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n"
    assert not allowed(robots, "/cgi-bin/a", semantics)
    assert not allowed(robots, "/tmp/b", semantics)
    assert allowed(robots, "/other", semantics)


@pytest.mark.parametrize(("semantics", "split"), [("draft", True), ("rfc9309", False)])
def test_f5_a_value_whose_words_are_not_all_paths_is_one_path_to_rfc9309(semantics, split):
    # "/sitecore modules/" is one folder (Sitecore's, on 16 real sites); RFC 9309 and Google
    # read it whole, the draft's F5 as two paths, and strict asks both.
    robots = "User-agent: *\nDisallow: /sitecore modules/\n"
    assert not allowed(robots, "/sitecore%20modules/shell", semantics)
    assert allowed(robots, "/modules/x", semantics) is not split
    assert not allowed(robots, "/modules/x", "strict")


@BOTH
def test_f5_allow_is_not_split_so_it_never_allows_more(semantics):
    robots = "User-agent: *\nAllow: /my file.html\nDisallow: /\n"
    assert allowed(robots, "/my%20file.html", semantics)
    assert not allowed(robots, "/my", semantics)
    assert not allowed(robots, "/file.html", semantics)


# --- F6: extensions ---------------------------------------------------------------------------


@BOTH
def test_f6_crawl_delay_request_rate_and_sitemaps(semantics):
    robots = (
        "Sitemap: https://example.org/s1.xml\n"
        "User-agent: *\nCrawl-delay: 2.5\nRequest-rate: 3/15\nDisallow: /x\n"
        "User-agent: politecrawl\nCrawl-delay: 10\nDisallow:\n"
        "Sitemap: http://example.org/s2.xml\nSitemap: /relative.xml\n"
        "Sitemap: https://example.org/s1.xml\n"
    )
    policy = parse_robots(robots, semantics=semantics)
    assert policy.crawl_delay("other") == 2.5
    assert policy.request_rate("other") == RequestRate(3, 15.0)
    assert policy.crawl_delay("politecrawl/0.1") == 10.0
    assert policy.request_rate("politecrawl") is None
    assert policy.sitemaps == ["https://example.org/s1.xml", "http://example.org/s2.xml"]


@BOTH
@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf", ""])
def test_f6_invalid_crawl_delay_is_ignored(semantics, value):
    policy = parse_robots(
        f"User-agent: *\nCrawl-delay: {value}\nDisallow: /x\n", semantics=semantics
    )
    assert policy.crawl_delay("a") is None
    assert not policy.is_allowed("a", "/x")


@BOTH
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1/10", RequestRate(1, 10.0)),
        ("2/1m", RequestRate(2, 60.0)),
        ("0/5", None),
        ("1/0", None),
        ("fast", None),
    ],
)
def test_f6_request_rate_values(semantics, value, expected):
    policy = parse_robots(f"User-agent: *\nRequest-rate: {value}\n", semantics=semantics)
    assert policy.request_rate("a") == expected


# --- A1-A4: which record applies ------------------------------------------------------------


@BOTH
def test_a1_full_user_agent_header_matches_by_name_token(semantics):
    robots = "User-agent: figtree\nDisallow: /\n"
    assert not allowed(robots, "/x", semantics, agent="FigTree/0.1 Robot libwww-perl/5.04")
    assert allowed(robots, "/x", semantics, agent="libwww-perl/5.04")


@pytest.mark.parametrize(("semantics", "expected"), [("draft", False), ("rfc9309", True)])
def test_a2_draft_matches_substrings_rfc9309_matches_exact_tokens(semantics, expected):
    robots = "User-agent: my-politecrawl-clone\nDisallow: /\n"
    assert allowed(robots, "/x", semantics) is expected


@BOTH
def test_a2_agent_match_is_case_insensitive(semantics):
    assert not allowed("User-agent: POLITECRAWL\nDisallow: /\n", "/x", semantics)


@pytest.mark.parametrize(("semantics", "expected"), [("draft", True), ("rfc9309", False)])
def test_a2_draft_obeys_only_the_first_matching_record(semantics, expected):
    robots = "User-agent: politecrawl\nDisallow: /a\n\nUser-agent: politecrawl\nDisallow: /b\n"
    assert not allowed(robots, "/a", semantics)
    assert allowed(robots, "/b", semantics) is expected  # RFC 9309 merges the groups


@BOTH
def test_a3_star_record_when_no_record_names_the_robot(semantics):
    robots = "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
    assert allowed(robots, "/y", semantics)
    assert not allowed(robots, "/x", semantics)


@BOTH
def test_a3_named_record_wins_over_star_wherever_it_is(semantics):
    robots = "User-agent: *\nDisallow: /\n\nUser-agent: politecrawl\nDisallow: /x\n"
    assert allowed(robots, "/y", semantics)
    assert not allowed(robots, "/x", semantics)


@BOTH
@pytest.mark.parametrize(
    "robots",
    ["", "\n\n", "# only comments\n", "garbage\x00\xff", "User-agent: other\nDisallow: /\n"],
)
def test_a4_no_applicable_record_means_unlimited_access(semantics, robots):
    assert allowed(robots, "/anything", semantics)


# --- M1-M6: matching --------------------------------------------------------------------------


@pytest.mark.parametrize(("semantics", "expected"), [("draft", False), ("rfc9309", True)])
def test_m1_first_match_in_file_order_versus_longest_match(semantics, expected):
    robots = "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
    assert allowed(robots, "/a/b/c", semantics) is expected


@pytest.mark.parametrize(("semantics", "expected"), [("draft", False), ("rfc9309", True)])
def test_m6_allow_wins_ties_only_in_rfc9309(semantics, expected):
    robots = "User-agent: *\nDisallow: /page\nAllow: /page\n"
    assert allowed(robots, "/page", semantics) is expected


@BOTH
def test_m3_empty_values_match_nothing(semantics):
    robots = "User-agent: *\nAllow:\nDisallow: /x\nDisallow:\n"
    assert allowed(robots, "/", semantics)
    assert not allowed(robots, "/x", semantics)


@BOTH
def test_m4_query_is_matched_fragment_is_not(semantics):
    robots = "User-agent: *\nDisallow: /search?\nDisallow: /page?id=7\n"
    assert allowed(robots, "/search", semantics)
    assert not allowed(robots, "/search?q=x", semantics)
    assert not allowed(robots, "http://example.org/search?", semantics)
    assert not allowed(robots, "/page?id=7&x=1", semantics)
    assert allowed(robots, "/page#?id=7", semantics)


@BOTH
def test_m5_non_ascii_compared_as_utf8_octets(semantics):
    robots = "User-agent: *\nDisallow: /b\u00fccher/\n"
    assert not allowed(robots, "/b%C3%BCcher/x", semantics)
    assert not allowed(robots, "/b%c3%bccher/x", semantics)
    assert not allowed(robots, "/b\u00fccher/x", semantics)
    assert allowed(robots, "/bucher/x", semantics)


@pytest.mark.parametrize(("semantics", "expected"), [("draft", True), ("rfc9309", False)])
def test_m6_wildcards_only_in_rfc9309(semantics, expected):
    robots = "User-agent: *\nDisallow: /*.gif$\nDisallow: /private*/x\n"
    assert allowed(robots, "/images/a.gif", semantics) is expected
    assert allowed(robots, "/private-area/x", semantics) is expected
    assert allowed(robots, "/images/a.gif?size=2", semantics)


def test_m6_rfc9309_dollar_anchors_only_at_the_end():
    policy = parse_robots("User-agent: *\nDisallow: /a$b\nDisallow: /end$\n", semantics="rfc9309")
    assert not policy.is_allowed("x", "/a$b/c")
    assert not policy.is_allowed("x", "/end")
    assert policy.is_allowed("x", "/end/more")


def test_m6_rfc9309_percent_encoding_normalised_per_section_2_2_2():
    robots = "User-agent: *\nDisallow: /\nAllow: /foo/bar/%62%61%7A\nAllow: /x/\u30c4\n"
    policy = parse_robots(robots, semantics="rfc9309")
    assert policy.is_allowed("a", "/foo/bar/baz")
    assert policy.is_allowed("a", "/x/%E3%83%84")
    assert policy.is_allowed("a", "/x/%e3%83%84")


def test_m6_rfc9309_escaped_wildcard_characters_are_literal_per_section_2_2_3():
    robots = "User-agent: *\nDisallow: /file-with-a-%2A.html\nDisallow: /foo-%24\n"
    policy = parse_robots(robots, semantics="rfc9309")
    assert not policy.is_allowed("a", "/file-with-a-*.html")
    assert policy.is_allowed("a", "/file-with-a-b.html")
    assert not policy.is_allowed("a", "/foo-$")
    assert not policy.is_allowed("a", "/foo-%24/more")


# --- O2, O8 ---------------------------------------------------------------------------------


@BOTH
def test_o2_robots_txt_itself_is_always_allowed(semantics):
    policy = parse_robots("User-agent: *\nDisallow: /\n", semantics=semantics)
    assert policy.is_allowed("a", "http://example.org/robots.txt")
    assert not policy.is_allowed("a", "http://example.org/robots.txt.bak")
    assert policy.explain("a", "/robots.txt").reason.endswith("(O2)")


@BOTH
def test_o8_byte_limit_reported_and_part_read_is_parsed(semantics):
    robots = "User-agent: *\nDisallow: /early\n" + "# padding\n" * 60_000 + "Disallow: /late\n"
    policy = parse_robots(robots, semantics=semantics)
    assert policy.truncated
    assert not policy.is_allowed("a", "/early")
    # /late is past the limit, never read; no rule read decides it, so it is not fetched.
    assert not policy.is_allowed("a", "/late")


@BOTH
def test_o8_past_the_byte_limit_only_what_a_rule_read_allows_is_allowed(semantics):
    # www.xuexi.cn's shape: 47,063 Allow lines, then "Disallow: /" past 512 KiB.
    allows = "".join(f"Allow: /a{i}/\n" for i in range(47_063))
    policy = parse_robots("User-agent: *\n" + allows + "Disallow: /\n", semantics=semantics)
    assert policy.truncated
    assert policy.is_allowed("a", "/a7/page.html")  # a rule read allows it
    assert not policy.is_allowed("a", "/elsewhere")  # none read decides: the tail might
    verdict = policy.explain("a", "/elsewhere")
    assert not verdict.allowed
    assert "unread part" in verdict.reason
    assert "longer than 524,288 bytes" in verdict.reason
    # The same file within the limit: the line that forbids is read and named.
    whole = parse_robots(
        "User-agent: *\n" + allows + "Disallow: /\n",
        semantics=semantics,
        limits=RobotsLimits(max_bytes=10**7),
    )
    assert not whole.truncated
    assert whole.explain("a", "/elsewhere").rule is not None


@BOTH
def test_o8_a_page_over_the_limit_that_is_no_robots_txt_forbids_nothing(semantics):
    # wsj.com, owner.ford.com and 21 more real sites answer /robots.txt with an HTML page over
    # 512 KiB: no User-agent line was read, so its unread part is no robots.txt either.
    page = "<html><body>" + "<p>Page not found</p>\n" * 40_000 + "</body></html>\n"
    policy = parse_robots(page, semantics=semantics)
    assert policy.truncated
    assert policy.is_allowed("a", "/index.html")


@BOTH
def test_o8_a_file_within_the_limit_with_no_rule_for_a_url_allows_it(semantics):
    robots = "User-agent: *\nDisallow: /x\n" + "# padding\n" * 1_000
    policy = parse_robots(robots, semantics=semantics)
    assert not policy.truncated
    assert policy.is_allowed("a", "/elsewhere")


@BOTH
def test_o8_a_disallow_cut_at_the_limit_is_kept_shorter_an_allow_is_dropped(semantics):
    limits = RobotsLimits(max_line_bytes=24)
    robots = "User-agent: *\nDisallow: /private/very-long-name\nAllow: /public/very-long-name\n"
    policy = parse_robots(robots, semantics=semantics, limits=limits)
    assert policy.truncated
    assert not policy.is_allowed("a", "/private/very-other")  # a cut path forbids more
    assert policy.is_allowed("a", "/public/very-long-name")  # nothing disallows it
    assert [r.allow for record in policy.records for r in record.rules] == [False]


def test_unknown_semantics_is_a_value_error():
    with pytest.raises(ValueError, match="unknown robots semantics"):
        parse_robots("", semantics="google")


# --- explain and disagreement -------------------------------------------------------------


def test_explain_names_the_deciding_line_and_record():
    robots = "User-agent: *\nDisallow: /\n\nUser-agent: politecrawl\nAllow: /docs\nDisallow: /\n"
    verdict = parse_robots(robots).explain("politecrawl/1.0 (+https://x)", "https://e.org/docs/a")
    assert verdict.allowed
    assert verdict.record_line == 4
    assert verdict.rule is not None
    assert (verdict.rule.line_number, verdict.rule.line) == (5, "Allow: /docs")
    assert verdict.agent_token == "politecrawl"


def test_explain_when_nothing_decides():
    policy = parse_robots("User-agent: other\nDisallow: /\n")
    assert "no record names 'politecrawl'" in policy.explain("politecrawl", "/").reason
    policy = parse_robots("User-agent: *\nDisallow: /x\n")
    verdict = policy.explain("politecrawl", "/y")
    assert verdict.allowed
    assert verdict.rule is None
    assert verdict.record_line == 1


def test_m6_disagreement_reports_both_deciding_lines():
    robots = "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
    policy = parse_robots(robots)
    assert policy.disagreement("x", "/c") is None
    assert policy.disagreement("x", "/a/c") is None
    pair = policy.disagreement("x", "/a/b")
    assert pair is not None
    draft, rfc = pair
    assert (draft.semantics, draft.allowed, draft.rule.line_number) == ("draft", False, 2)
    assert (rfc.semantics, rfc.allowed, rfc.rule.line_number) == ("rfc9309", True, 3)


def test_with_semantics_shares_the_parse():
    draft = parse_robots("User-agent: *\nDisallow: /a\nAllow: /a/b\n", semantics="draft")
    rfc = draft.with_semantics("rfc9309")
    assert (draft.semantics, rfc.semantics) == ("draft", "rfc9309")
    assert rfc._data is draft._data
    assert not draft.is_allowed("x", "/a/b")
    assert rfc.is_allowed("x", "/a/b")
