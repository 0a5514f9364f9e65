"""The error tree (STYLE 8): one root, the classes where ``politecrawl.errors`` draws them, each
exported from ``politecrawl``, and the old homes of ``ConfigError`` and ``InvalidURL`` kept."""

import pickle
import re
import subprocess
import sys

import pytest

import politecrawl
import politecrawl.errors
from politecrawl import (
    ArchiveError,
    ConfigError,
    FetchError,
    InvalidURL,
    PolitecrawlError,
    StoreError,
    UserInputError,
)

EXPORTED_ERRORS = {
    "ArchiveError",
    "ConfigError",
    "FetchError",
    "InvalidURL",
    "PolitecrawlError",
    "StoreError",
    "UserInputError",
}


def _drawn_tree() -> dict[str, str | None]:
    """Each class of the tree drawn in ``politecrawl.errors``' docstring, with its parent."""
    parents: dict[str, str | None] = {}
    stack: list[tuple[int, str]] = []  # (column of the name, name), the current branch
    for line in (politecrawl.errors.__doc__ or "").splitlines():
        found = re.match(r"(\s*(?:[|+]\s*|--\s*)*)([A-Z]\w+)\s", line)
        if found is None or not found.group(2).endswith(("Error", "URL")):
            continue
        column = len(found.group(1))
        while stack and stack[-1][0] >= column:
            stack.pop()
        parents[found.group(2)] = stack[-1][1] if stack else None
        stack.append((column, found.group(2)))
    return parents


def test_b1_the_exported_errors_are_the_tree_drawn_in_politecrawl_errors():
    drawn = _drawn_tree()
    assert set(drawn) == EXPORTED_ERRORS
    assert drawn["ConfigError"] == drawn["InvalidURL"] == "UserInputError"  # a person's mistake
    for name, parent in drawn.items():
        error = getattr(politecrawl, name)
        assert error is getattr(politecrawl.errors, name)
        if parent is None:
            assert error.__bases__ == (Exception,)
        else:
            assert error.__bases__[0] is getattr(politecrawl, parent)
    assert set(politecrawl.__all__) >= EXPORTED_ERRORS


def test_every_error_class_of_the_package_is_in_the_tree():
    names = {name for name in dir(politecrawl.errors) if name.endswith(("Error", "URL"))}
    assert names == EXPORTED_ERRORS
    for name in EXPORTED_ERRORS - {"PolitecrawlError"}:
        assert issubclass(getattr(politecrawl, name), PolitecrawlError)


def test_the_old_homes_still_hold_the_same_classes():
    import politecrawl.config
    import politecrawl.config.groups
    import politecrawl.urls

    assert politecrawl.config.ConfigError is politecrawl.config.groups.ConfigError is ConfigError
    assert "ConfigError" in politecrawl.config.__all__
    assert politecrawl.urls.InvalidURL is InvalidURL


def test_c1_invalid_url_is_a_user_input_error_and_still_a_value_error():
    error = InvalidURL("ftp://a/", "scheme 'ftp' is not http or https")
    assert isinstance(error, UserInputError)
    assert isinstance(error, ValueError)
    assert (
        str(error)
        == error.one_line()
        == ("invalid URL 'ftp://a/': scheme 'ftp' is not http or https")
    )
    with pytest.raises(ValueError, match="not http or https"):
        raise error
    copy = pickle.loads(pickle.dumps(error))  # crosses to the crawl's helper processes
    assert (type(copy), copy.url, copy.reason, str(copy)) == (
        InvalidURL,
        error.url,
        error.reason,
        str(error),
    )


def test_b1_config_error_keeps_its_key_file_and_line_when_pickled():
    error = ConfigError("must be 1 or more", key="workers", related=("processes",), path="c.toml")
    assert str(error) == "c.toml: must be 1 or more"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.key, copy.related, copy.path, copy.line) == (
        "workers",
        ("processes",),
        "c.toml",
        None,
    )
    assert str(copy) == str(error)


@pytest.mark.parametrize("error", [FetchError, StoreError, ArchiveError])
def test_the_other_branches_are_not_user_input(error):
    assert not issubclass(error, UserInputError)
    assert not issubclass(error, ValueError)


def test_the_errors_load_without_the_crawl_machinery():
    code = (
        "import politecrawl, sys; politecrawl.PolitecrawlError, politecrawl.InvalidURL; "
        "print('sqlalchemy' in sys.modules, 'requests' in sys.modules, "
        "'politecrawl.config' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False", "False"]
