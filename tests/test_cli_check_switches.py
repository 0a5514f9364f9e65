"""``politecrawl check``'s switches (issue 44), each judged from what the servers were asked
and what the command said [L1, L3, L4, S1, C1, B1].

Each test serves a small web on loopback (tests/site): a site whose home page links to the
docs and the blog, to a page on another site (an outbound link), to an image (a resource) and
to a section of the docs page that is not there (a missing fragment, the site's one broken
link), and which has a sitemap; then it runs ``politecrawl check`` in a subprocess. A switch
overrides the ``--config`` file's setting; ``--include`` and ``--exclude`` replace its lists.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.site import Page, Site, serve
from tests.site.model import OriginSpec

DELAY = "0.02"
ENV = {"POLITECRAWL_MAX_RETRIES": "0", "PATH": "/usr/bin:/bin"}
PNG = Page(b"\x89PNG\r\n\x1a\n", content_type="image/png")


def _html(*parts: str) -> Page:
    return Page(("<html><body>\n" + "\n".join(parts) + "\n</body></html>\n").encode())


def _sitemap() -> Page:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>@@site@@/docs/</loc></url>\n"
        "</urlset>\n"
    )
    return Page(body.encode(), content_type="application/xml")


def switch_web() -> Site:
    """``site``: a home page linking to every kind of target, the docs, the blog, an image
    and a sitemap; ``elsewhere``: the page the outbound link leads to (not a seed)."""
    return Site(
        0,
        (
            OriginSpec(
                "site",
                "127.0.0.101",
                {
                    "/": _html(
                        '<a href="/docs/">Docs</a>',
                        '<a href="/docs/a.html#nowhere">A section that is not there</a>',
                        '<a href="/blog/b.html">Blog</a>',
                        '<a href="@@elsewhere@@/ok.html">Another site</a>',
                        '<img src="/img/logo.png" alt="logo">',
                    ),
                    "/docs/": _html('<a href="/docs/a.html">A</a>', '<a href="/">Home</a>'),
                    "/docs/a.html": _html('<p id="here">a</p>'),
                    "/blog/b.html": _html("<p>b</p>"),
                    "/img/logo.png": PNG,
                    "/sitemap.xml": _sitemap(),
                },
            ),
            OriginSpec("elsewhere", "127.0.0.102", {"/ok.html": _html("ok")}, seeded=False),
        ),
        0.0,
    )


@dataclass
class Checked:
    """One check of the site: what the command said, and what the servers were asked."""

    result: subprocess.CompletedProcess[str]
    site: str
    elsewhere: str
    requested: list[str]
    """The URLs requested, in order (HEAD and GET alike)."""
    report: dict[str, object]

    @property
    def paths(self) -> set[str]:
        """The paths of the site requested."""
        return {url[len(self.site) :] for url in self.requested if url.startswith(self.site)}

    @property
    def asked_elsewhere(self) -> bool:
        return any(url.startswith(self.elsewhere) for url in self.requested)


def politecrawl(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=ENV,
        cwd=cwd,
    )


def check(tmp_path: Path, *switches: str, path: str = "/", config: str | None = None) -> Checked:
    """``politecrawl check SITE/path`` with ``switches`` (and ``config`` as the ``--config``
    file), its JSON report, and the requests the servers saw."""
    database = tmp_path / "check.db"
    extra = list(switches)
    if config is not None:
        (tmp_path / "check.toml").write_text(config, encoding="utf-8")
        extra += ["--config", str(tmp_path / "check.toml")]
    with serve(switch_web()) as web:
        site, elsewhere = web.base("site"), web.base("elsewhere")
        result = politecrawl(
            *("check", site + path, "--db", str(database), "--delay", DELAY, "--quiet"),
            *("--format", "json", *extra),
            cwd=tmp_path,
        )
        requested = [request.url for request in web.log]
    assert "Traceback" not in result.stderr, result.stderr
    report = json.loads(result.stdout) if result.returncode in (0, 1) else {}
    return Checked(result, site, elsewhere, requested, report)


def _out_of_scope(checked: Checked) -> dict[str, str]:
    """The report's out-of-scope URLs, each with its rule."""
    rows = checked.report["out_of_scope"]
    assert isinstance(rows, list)
    return {row["url"]: row["rule"] for row in rows}


def test_l1_l3_l4_s1_a_check_without_switches_asks_for_every_kind_of_target(tmp_path):
    checked = check(tmp_path)
    assert checked.result.returncode == 1, checked.result.stderr  # the missing fragment
    assert {"/", "/docs/", "/docs/a.html", "/blog/b.html", "/img/logo.png"} <= checked.paths
    assert "/sitemap.xml" in checked.paths
    assert checked.asked_elsewhere
    assert "1 broken link found: 1 missing fragment" in checked.result.stderr


def test_l1_no_check_outbound_asks_nothing_of_another_site(tmp_path):
    checked = check(tmp_path, "--no-check-outbound")
    assert not checked.asked_elsewhere  # not its robots.txt either
    assert {"/", "/docs/a.html", "/img/logo.png"} <= checked.paths  # the rest is checked
    assert checked.result.returncode == 1


def test_l3_no_check_resources_never_asks_for_the_image(tmp_path):
    checked = check(tmp_path, "--no-check-resources")
    assert "/img/logo.png" not in checked.paths
    assert checked.asked_elsewhere
    assert {"/", "/docs/a.html", "/blog/b.html"} <= checked.paths


def test_l4_no_check_fragments_finds_the_site_clean(tmp_path):
    checked = check(tmp_path, "--no-check-fragments")
    # The same pages are fetched: a fragment is checked against a page fetched anyway.
    assert {"/", "/docs/a.html", "/img/logo.png"} <= checked.paths
    assert checked.result.returncode == 0, checked.result.stderr
    assert checked.result.stderr.splitlines()[-1] == "politecrawl: nothing broken"


def test_s1_no_sitemaps_never_asks_for_the_sitemap(tmp_path):
    checked = check(tmp_path, "--no-sitemaps")
    assert "/sitemap.xml" not in checked.paths
    assert "/robots.txt" in checked.paths


def test_c1_include_crawls_only_the_matching_part_of_the_site(tmp_path):
    checked = check(tmp_path, "--include", "/docs/", path="/docs/")
    assert checked.paths & {"/", "/blog/b.html"} == set()
    assert {"/docs/", "/docs/a.html"} <= checked.paths
    assert checked.result.returncode == 0, checked.result.stderr


def test_c1_exclude_keeps_matching_pages_out_but_still_checks_links_leaving_the_site(tmp_path):
    checked = check(tmp_path, "--exclude", "/blog/", "--exclude", r"\.png$")
    assert checked.paths & {"/blog/b.html", "/img/logo.png"} == set()
    assert {"/", "/docs/", "/docs/a.html"} <= checked.paths
    # Not LinkChecker's --ignore-url: a link leaving the site is checked all the same.
    assert checked.asked_elsewhere
    # What was left out is said, with the pattern.
    assert _out_of_scope(checked)[checked.site + "/blog/b.html"] == "exclude pattern '/blog/'"


def test_c1_b1_a_site_url_the_patterns_leave_out_is_a_usage_error_before_any_request(tmp_path):
    checked = check(tmp_path, "--include", "/docs/")  # the home page matches no pattern
    assert checked.result.returncode == 2
    assert checked.requested == []
    (line,) = checked.result.stderr.splitlines()
    assert line == (
        f"politecrawl: the site URL {checked.site}/ is out of the check's scope (matches no "
        "include pattern), so nothing would be checked: --include and --exclude apply to it too"
    )
    assert not (tmp_path / "check.db").exists()


def test_a_switch_overrides_the_config_file_and_patterns_replace_its_lists(tmp_path):
    config = (
        "[scope]\n"
        'exclude = ["/docs/"]\n'
        "[checking]\n"
        "check_outbound = true\n"
        "check_resources = false\n"
    )
    checked = check(
        tmp_path,
        "--no-check-outbound",
        "--check-resources",
        "--exclude",
        "/blog/",
        config=config,
    )
    assert not checked.asked_elsewhere  # the file's true, switched off
    assert "/img/logo.png" in checked.paths  # the file's false, switched on
    assert "/blog/b.html" not in checked.paths
    assert "/docs/a.html" in checked.paths  # the file's exclude replaced, not added to


def test_the_file_alone_turns_a_check_off(tmp_path):
    checked = check(tmp_path, config="[checking]\ncheck_resources = false\n")
    assert "/img/logo.png" not in checked.paths


def test_c5_the_check_after_an_unfinished_one_says_what_it_continues(tmp_path):
    database = tmp_path / "check.db"
    with serve(switch_web()) as web:
        site = web.base("site") + "/"
        args = ("--db", str(database), "--delay", DELAY, "--quiet")
        first = politecrawl("check", site, *args, "--max-pages", "1", cwd=tmp_path)
        assert first.returncode == 1, first.stderr  # incomplete
        status = politecrawl("status", "--db", str(database), cwd=tmp_path)
        second = politecrawl("check", site, *args, cwd=tmp_path)
    assert "resuming" not in first.stderr
    # What the database held when the second check began, as ``status`` counts it.
    counts = {
        state: int(count) for state, count in re.findall(r"^  (\w+) +(\d+)$", status.stdout, re.M)
    }
    done = counts.get("done", 0) + counts.get("failed", 0)
    to_go = sum(counts.get(state, 0) for state in ("queued", "leased", "deferred"))
    assert to_go > 0
    assert (
        f"politecrawl: resuming {database}: {done} of {done + to_go} URLs done, {to_go} to go"
        in second.stderr.splitlines()
    )
