"""The seeds file (B1, C1): the format as tables, unusable files as one clear error, properties."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl import seeds as seeds_module
from politecrawl.errors import UserInputError
from politecrawl.seeds import SeedProblem, Seeds, parse_seeds, read_seeds
from politecrawl.urls import canonicalize

A = "http://a.example/"
B = "https://b.example/x"

PARSED = [
    # one URL a line, in file order
    (f"{A}\n{B}\n", [A, B], []),
    (f"{B}\n{A}", [B, A], []),
    # comments: whole-line, indented, trailing after whitespace; a fragment is not a comment
    (f"# my seeds\n{A}\n", [A], []),
    (f"   # indented\n\t# tab\n{A}", [A], []),
    (f"{A} # the main site\n{B}\t#tab comment", [A, B], []),
    (f"{A}#top\n", [A], []),
    ("http://a.example/page#section # comment", ["http://a.example/page"], []),
    ("#\n##\n# \n", [], []),
    # blank lines and surrounding whitespace
    (f"\n\n   {A}   \n\t\n\n{B}\n\n", [A, B], []),
    ("", [], []),
    ("   \n\t\n", [], []),
    # line ends: LF, CRLF, CR, mixed
    (f"{A}\r\n{B}\r\n", [A, B], []),
    (f"{A}\r{B}\r", [A, B], []),
    (f"{A}\r\nnot-a-url\n{B}\rftp://c.example/", [A, B], [(2, "not an absolute"), (4, "'ftp'")]),
    # a BOM is ignored
    (f"\ufeff{A}\n", [A], []),
    (f"\ufeff# comment\n{A}\n", [A], []),
    # canonical and de-duplicated, the first kept
    ("HTTP://A.EXAMPLE:80/\nhttp://a.example/\nhttp://a.example/#x", [A], []),
    (
        "http://b.example/2\nhttp://b.example/1\nhttp://b.example/2",
        ["http://b.example/2", "http://b.example/1"],
        [],
    ),
    ("http://bücher.example/ä", ["http://xn--bcher-kva.example/%C3%A4"], []),
    # bad lines are problems with their numbers; the rest is used
    (f"{A}\nexample.org\n{B}", [A, B], [(2, "write http:// or https:// before it")]),
    ("//example.org/", [], [(1, "not an absolute http(s) URL")]),
    ("mailto:someone@example.org", [], [(1, "not an absolute http(s) URL")]),
    ("ftp://example.org/", [], [(1, "scheme 'ftp' is not http or https")]),
    ("javascript://alert(1)", [], [(1, "scheme 'javascript' is not http or https")]),
    ("http:///path", [], [(1, "no host")]),
    ("http://[::1/", [], [(1, "invalid IPv6 address")]),
    ("http://a.example:99999/", [], [(1, "port out of range")]),
    ("http://a.example:http/", [], [(1, "not a number")]),
    (f"{A} {B}", [], [(1, "more than one word")]),
    (f"{A}#not-a-comment", [A], []),
    (f"{A}#a fragment with spaces", [A], []),
    (f"{A}\tx #comment", [], [(1, "more than one word")]),
    ("http://a.example/" + "x" * 3000, [], [(1, "longer than 2048")]),
    (f"{A}\n\n# c\nbad one\n{B}\nworse\n", [A, B], [(4, "more than one word"), (6, "absolute")]),
]


@pytest.mark.parametrize(("text", "urls", "problems"), PARSED)
def test_b1_parse_seeds(text, urls, problems):
    seeds = parse_seeds(text)
    assert list(seeds.urls) == urls
    assert [problem.line for problem in seeds.problems] == [line for line, _ in problems]
    for problem, (_, reason) in zip(seeds.problems, problems, strict=True):
        assert reason in problem.reason


def test_b1_problem_keeps_the_text_cut_short():
    seeds = parse_seeds("first\n  not-a-url   # comment\n" + "y" * 500)
    assert seeds.problems[0] == SeedProblem(1, "first", seeds.problems[0].reason)
    assert seeds.problems[1].text == "not-a-url"
    assert len(seeds.problems[2].text) == 120
    assert seeds.problems[2].text.endswith("...")


def test_b1_warnings_name_source_and_line():
    seeds = parse_seeds(f"{A}\nnope\n", source="seeds.txt")
    assert seeds.source == "seeds.txt"
    assert seeds.warnings() == (
        "seeds.txt:2: not an absolute http(s) URL; write http:// or https:// before it: 'nope'",
    )
    assert parse_seeds("nope").warnings()[0].startswith("<seeds>:1: ")


# --- read_seeds: files and standard input --------------------------------------------------------


def write(tmp_path: Path, data: bytes, name: str = "seeds.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_b1_read_seeds_file(tmp_path):
    path = write(tmp_path, f"# seeds\r\n{A}\r\nbad\r\n{B}\r\n".encode())
    seeds = read_seeds(str(path))
    assert seeds == Seeds((A, B), (SeedProblem(3, "bad", seeds.problems[0].reason),), str(path))
    assert read_seeds(path) == seeds  # a Path works too


def test_b1_read_seeds_utf8_with_bom(tmp_path):
    path = write(tmp_path, "\ufeffhttp://bücher.example/\n".encode())
    assert read_seeds(str(path)).urls == ("http://xn--bcher-kva.example/",)


def test_b1_read_seeds_from_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"{A}\r\n{B}\n".encode())))
    seeds = read_seeds("-")
    assert seeds.urls == (A, B)
    assert seeds.source == "<stdin>"


def test_b1_read_seeds_from_a_text_only_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{A}\nbad\n"))
    seeds = read_seeds("-")
    assert seeds.urls == (A,)
    assert seeds.warnings()[0].startswith("<stdin>:2: ")


def test_b1_empty_stdin_is_one_error(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(UserInputError) as caught:
        read_seeds("-")
    assert caught.value.path == "<stdin>"


BAD_FILES = [
    (b"", "no seed URL (the file is empty or only comments)", None),
    (b"\n\n   \n", "no seed URL (the file is empty or only comments)", None),
    (b"# only\n# comments\n", "no seed URL (the file is empty or only comments)", None),
    (b"# c\nexample.org\nftp://x.example/\n", "no usable seed URL (2 bad lines; the first:", 2),
    (b"nope", "no usable seed URL (1 bad line; the first:", 1),
    (A.encode() + b"\n\x00\x01\x02", "a binary file, not a list of URLs (NUL byte)", 2),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "a binary file", 3),
    (b"\x1f\x8b\x08\x00\x00\x00", "a binary file", 1),
    (A.encode() + b"\r\nhttp://b.example/caf\xe9\r\n", "not UTF-8 text (byte 0xe9)", 2),
    (b"a\rb\rc\xff", "not UTF-8 text (byte 0xff)", 3),
    ("http://a.example/\n".encode("utf-16"), "UTF-16 text; save the seeds file as UTF-8", 1),
    ("http://a.example/\n".encode("utf-16-be"), "a binary file", 1),
]


@pytest.mark.parametrize(("data", "message", "line"), BAD_FILES)
def test_b1_unusable_seeds_file_is_one_error_with_file_and_line(tmp_path, data, message, line):
    path = write(tmp_path, data)
    with pytest.raises(UserInputError) as caught:
        read_seeds(str(path))
    error = caught.value
    assert message in error.message
    assert (error.path, error.line) == (str(path), line)
    where = str(path) if line is None else f"{path}:{line}"
    assert str(error).startswith(f"{where}: ")
    assert "\n" not in str(error)


def test_b1_missing_file(tmp_path):
    path = str(tmp_path / "nowhere.txt")
    with pytest.raises(UserInputError) as caught:
        read_seeds(path)
    assert str(caught.value) == f"{path}: no such seeds file"
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_b1_directory(tmp_path):
    with pytest.raises(UserInputError) as caught:
        read_seeds(str(tmp_path))
    assert str(caught.value) == f"{tmp_path}: is a directory, not a seeds file"


def test_b1_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path, A.encode())

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)  # chmod 000 does not stop root
    with pytest.raises(UserInputError) as caught:
        read_seeds(str(path))
    assert str(caught.value) == f"{path}: cannot read the seeds file: permission denied"


def test_b1_other_os_error(tmp_path, monkeypatch):
    path = write(tmp_path, A.encode())

    def fail(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(Path, "open", fail)
    with pytest.raises(UserInputError, match="cannot read the seeds file: Input/output error"):
        read_seeds(str(path))


def test_b1_oversized_file(tmp_path, monkeypatch):
    monkeypatch.setattr(seeds_module, "MAX_SEEDS_BYTES", 2**20)
    path = write(tmp_path, (A + "\n").encode() * 70_000)
    with pytest.raises(UserInputError, match="larger than 1 MiB"):
        read_seeds(str(path))


# --- properties ----------------------------------------------------------------------------------

LINES = st.lists(
    st.one_of(
        st.sampled_from([A, B, "# c", "", "  ", "bad", f"{A} # x", "ftp://x/", "\ufeff"]),
        st.text(max_size=30),
    ),
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(lines=LINES, ending=st.sampled_from(["\n", "\r\n", "\r"]))
def test_b1_parse_seeds_never_raises_and_keeps_its_promises(lines, ending):
    text = ending.join(lines)
    seeds = parse_seeds(text)
    assert len(set(seeds.urls)) == len(seeds.urls)
    assert all(canonicalize(url) == url for url in seeds.urls)
    numbers = [problem.line for problem in seeds.problems]
    assert numbers == sorted(set(numbers))
    line_count = len(re.split(r"\r\n|\r|\n", text))
    assert all(1 <= number <= line_count for number in numbers)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_b1_read_seeds_either_reads_or_raises_one_user_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("seeds") / "seeds.txt"
    path.write_bytes(data)
    outcome: Seeds | UserInputError
    try:
        outcome = read_seeds(str(path))
    except UserInputError as error:
        outcome = error
    if isinstance(outcome, UserInputError):
        assert "\n" not in str(outcome)
        assert outcome.path == str(path)
    else:
        assert outcome.urls
