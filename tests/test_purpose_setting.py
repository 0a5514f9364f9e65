"""The crawl's ``purpose`` setting (issue 41) [U5]: its values, where it is given (flag,
environment, file) and that it is stored with the run."""

from __future__ import annotations

import pytest

from politecrawl import CrawlConfig, Crawler
from politecrawl.cli.main import build_parser
from politecrawl.cli.run import effective_config
from politecrawl.config import ConfigError
from politecrawl.config.loader import load_config
from politecrawl.store import last_config, open_database
from politecrawl.testing import FakeClock, ScriptedFetcher
from politecrawl.usage import Use, use_of_purpose


def test_u5_purpose_is_none_by_default():
    assert CrawlConfig().crawl.purpose == "none"
    assert use_of_purpose(CrawlConfig().crawl.purpose) is None


@pytest.mark.parametrize("purpose", ["search", "ai-input", "ai-train"])
def test_u5_each_purpose_names_a_use(purpose):
    config = CrawlConfig(purpose=purpose)
    assert use_of_purpose(config.crawl.purpose) is Use(purpose)


def test_u5_an_unknown_purpose_is_a_config_error_naming_the_setting():
    with pytest.raises(ConfigError) as raised:
        CrawlConfig(purpose="training").validate()
    assert raised.value.key == "purpose"
    assert "none, search, ai-input or ai-train" in str(raised.value)
    with pytest.raises(ValueError, match="not one of none, search"):
        use_of_purpose("training")


def test_u5_purpose_from_the_flag_the_environment_and_the_file(tmp_path):
    args = build_parser().parse_args(["run", "seeds.txt", "--purpose", "ai-train"])
    assert effective_config(args, None).crawl.purpose == "ai-train"
    assert load_config(environ={"POLITECRAWL_PURPOSE": "search"}).crawl.purpose == "search"
    file = tmp_path / "c.toml"
    file.write_text('[crawl]\npurpose = "ai-input"\n', encoding="utf-8")
    assert load_config(file=file).crawl.purpose == "ai-input"


def test_u5_the_flag_rejects_an_unknown_purpose(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "seeds.txt", "--purpose", "train"])
    assert "--purpose" in capsys.readouterr().err


def test_u5_purpose_is_stored_with_the_run_and_resumed(tmp_path):
    database = str(tmp_path / "crawl.db")
    config = CrawlConfig(database=database, purpose="ai-train")
    with Crawler(config, clock=FakeClock(), fetcher=ScriptedFetcher({})) as crawler:
        crawler.run()
    opened = open_database(database, create=False)
    try:
        stored = last_config(opened)
    finally:
        opened.close()
    assert stored is not None
    assert stored["purpose"] == "ai-train"
    resumed = build_parser().parse_args(["resume", "--db", database])
    assert effective_config(resumed, stored).crawl.purpose == "ai-train"
