"""The public API is a tested list (STYLE 5): a drift in ``__all__`` fails here."""

import politecrawl
import politecrawl.robots


def test_top_level_all_is_sorted_and_intended():
    assert politecrawl.__all__ == sorted(politecrawl.__all__)
    assert politecrawl.__all__ == [
        "ArchiveError",
        "ConfigError",
        "CrawlConfig",
        "CrawlSummary",
        "Crawler",
        "Excluded",
        "FetchError",
        "InvalidURL",
        "Page",
        "PolitecrawlError",
        "StoreError",
        "UserInputError",
        "__version__",
    ]
    for name in politecrawl.__all__:
        assert getattr(politecrawl, name) is not None


def test_importing_the_robots_engine_does_not_load_the_crawl_machinery():
    import subprocess
    import sys

    code = (
        "import politecrawl.robots, sys; "
        "print('sqlalchemy' in sys.modules, 'requests' in sys.modules, "
        "'politecrawl.config.groups' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    # The robots engine takes its settings' values from config.robots_values, not the groups.
    assert result.stdout.split() == ["False", "False", "False"]


def test_robots_all_is_the_stable_engine_api():
    # ruff's RUF022 keeps __all__ sorted (constants, classes, functions); this keeps it intended.
    assert set(politecrawl.robots.__all__) == {
        "DEFAULT_SEMANTICS",
        "READINGS",
        "ReadingName",
        "SEMANTICS_NAMES",
        "ParseWarning",
        "Record",
        "RequestRate",
        "RobotsLimits",
        "RobotsPolicy",
        "Rule",
        "SemanticsName",
        "Verdict",
        "agent_name_token",
        "parse_robots",
    }
    for name in politecrawl.robots.__all__:
        assert hasattr(politecrawl.robots, name)


def test_the_readme_library_example_names_exist():
    from politecrawl import CrawlConfig, Crawler

    config = CrawlConfig(agent="examplebot", contact="https://example.org/bot", database="x.db")
    assert config.user_agent == f"examplebot/{politecrawl.__version__} (+https://example.org/bot)"
    assert callable(Crawler)


def test_every_package_is_in_the_wheel_list():
    """pyproject.toml lists the packages explicitly (migrations ship inside): a new package
    missing there would import from a checkout and be absent from an installed wheel."""
    import tomllib
    from pathlib import Path

    root = Path(politecrawl.__file__).parent
    found = {
        ".".join(("politecrawl", *init.parent.relative_to(root).parts))
        for init in root.rglob("__init__.py")
    }
    pyproject = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    assert found <= listed, sorted(found - listed)
