"""Settings: SPEC defaults, and one clear error naming an impossible setting [B1]."""

import pytest

from politecrawl.config import ConfigError, CrawlConfig


def test_defaults_are_the_spec_values():
    config = CrawlConfig()
    assert (config.crawl.agent, config.robots.semantics, config.politeness.delay_seconds) == (
        "politecrawl",
        "strict",
        1.0,
    )
    assert config.politeness.max_in_flight_per_host == 1  # P1
    assert config.robots.robots_max_bytes == 512 * 1024  # O8
    assert (config.fetching.connect_timeout_seconds, config.fetching.response_timeout_seconds) == (
        10.0,
        30.0,
    )  # C7
    assert config.fetching.max_body_bytes == 10 * 1024 * 1024  # C7
    assert config.fetching.max_redirects == 10  # C4
    assert config.robots.robots_max_redirects == 5  # O7
    assert config.robots.unauthorized_means_allowed is False  # O5
    assert config.fetching.honour_rel_nofollow is True  # T6


def test_p5_user_agent_carries_the_name_token_and_the_contact():
    assert CrawlConfig(agent="examplebot").user_agent.startswith("examplebot/")
    with_contact = CrawlConfig(agent="examplebot", contact="https://example.org/bot")
    assert with_contact.user_agent.endswith(" (+https://example.org/bot)")


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"delay_seconds": -1}, "delay_seconds"),
        ({"workers": 0}, "workers"),
        ({"max_in_flight_per_host": 0}, "max_in_flight_per_host"),
        ({"agent": "bad agent"}, "agent"),
        ({"agent": ""}, "agent"),
        ({"response_timeout_seconds": 0}, "response_timeout_seconds"),
        ({"max_pages": -5}, "max_pages"),
        ({"semantics": "google"}, "semantics"),
        ({"scope": "planet"}, "scope"),
        ({"delay_seconds": float("nan")}, "delay_seconds"),
    ],
)
def test_b1_impossible_settings_name_their_key(changes, key):
    with pytest.raises(ConfigError, match=f"setting {key}:"):
        CrawlConfig(**changes).validate()
