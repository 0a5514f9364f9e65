"""``politecrawl robots explain``, run as a person runs it: in a subprocess [M6, B1]."""

from __future__ import annotations

import subprocess
import sys

import pytest

ROBOTS = """\
User-agent: *
Disallow: /private
Allow: /private/press

User-agent: politecrawl
Disallow: /search?
"""


def run(*args: str):
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def robots_file(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return path


def test_explain_disallowed_prints_the_deciding_line(robots_file):
    result = run(
        "robots",
        "explain",
        "https://e.org/private/x",
        "--file",
        str(robots_file),
        "--agent",
        "otherbot",
    )
    assert result.returncode == 1
    assert "DISALLOWED for 'otherbot' (strict semantics)" in result.stdout
    assert f"draft:   disallowed, decided by {robots_file}:2: Disallow: /private" in result.stdout
    assert f"rfc9309: disallowed, decided by {robots_file}:2: Disallow: /private" in result.stdout
    assert "strict:  not fetched (forbidden by draft and rfc9309)" in result.stdout
    assert result.stderr == ""


def test_m7_explain_names_the_reading_that_forbids(robots_file):
    result = run(
        "robots",
        "explain",
        "/private/press/2024.html",
        "--file",
        str(robots_file),
        "--agent",
        "otherbot/2.0",
    )
    assert result.returncode == 1
    assert "DISALLOWED for 'otherbot/2.0' (strict semantics)" in result.stdout
    assert f"draft:   disallowed, decided by {robots_file}:2: Disallow: /private" in result.stdout
    assert f"rfc9309: allowed, decided by {robots_file}:3: Allow: /private/press" in result.stdout
    assert "strict:  not fetched (forbidden by draft)" in result.stdout


def test_m7_explain_warns_about_a_full_url_written_as_a_rule(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\nDisallow: http://other.example/\n")
    result = run("robots", "explain", "https://e.org/", "--file", str(path))
    assert result.returncode == 0
    assert f"warning: {path}:2: a full URL in a rule" in result.stdout


def test_explain_allowed_exit_zero_and_rfc9309_semantics(robots_file):
    result = run(
        "robots",
        "explain",
        "/private/press/a",
        "--file",
        str(robots_file),
        "--agent",
        "otherbot",
        "--semantics",
        "rfc9309",
    )
    assert result.returncode == 0
    assert "ALLOWED for 'otherbot' (rfc9309 semantics)" in result.stdout
    assert "strict:  not fetched (forbidden by draft)" in result.stdout


def test_explain_default_agent_is_politecrawl(robots_file):
    result = run("robots", "explain", "/search?q=1", "--file", str(robots_file))
    assert result.returncode == 1
    assert f"{robots_file}:6: Disallow: /search?" in result.stdout
    assert "(record at line 5" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/x", "--file", "/nonexistent/robots.txt"], "/nonexistent/robots.txt: no such file"),
        (["ftp://e.org/x", "--file", "ROBOTS"], "not an http(s) URL or a path"),
        (["not a url", "--file", "ROBOTS"], "not an http(s) URL or a path"),
        (["/x", "--file", "ROBOTS", "--semantics", "google"], "invalid choice: 'google'"),
        (["/x"], "one of the arguments --file --fetch is required"),
        (["/x", "--file", "ROBOTS", "--bogus"], "unknown option --bogus (see --help)"),
    ],
)
def test_b1_bad_input_is_one_line_and_exit_2(robots_file, args, message):
    args = [str(robots_file) if arg == "ROBOTS" else arg for arg in args]
    result = run("robots", "explain", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_b1_directory_instead_of_file(tmp_path):
    result = run("robots", "explain", "/x", "--file", str(tmp_path))
    assert result.returncode == 2
    assert "is a directory" in result.stderr


def test_explain_of_a_binary_file_does_not_crash(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_bytes(b"\xff\xfe\x00garbage\nUser-agent: *\nDisallow: /\xe9t\xe9\n")
    result = run("robots", "explain", "/x", "--file", str(path))
    assert result.returncode == 0
    assert "ALLOWED" in result.stdout


def test_version():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("politecrawl ")


def test_explain_fetch_reads_the_live_robots_txt(web):
    main = web.url("main", "/private/secret.html")
    result = run("robots", "explain", main, "--fetch", "--agent", "otherbot")
    assert "/robots.txt: 200: parsed and obeyed (O3)" in result.stdout
    assert result.returncode in (0, 1)
    assert "semantics" in result.stdout


def test_o5_explain_fetch_of_a_403_origin_is_disallowed(web):
    result = run("robots", "explain", web.url("robots-403", "/p/1.html"), "--fetch")
    assert result.returncode == 1
    assert "403: the whole origin is disallowed (O5)" in result.stdout


def test_o4_explain_fetch_of_a_404_origin_is_allowed(web):
    result = run("robots", "explain", web.url("robots-404", "/p/1.html"), "--fetch")
    assert result.returncode == 0
    assert "404: no robots.txt, no restrictions (O4)" in result.stdout
