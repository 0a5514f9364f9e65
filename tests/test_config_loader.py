"""Loading settings (B1): precedence, types, one-line errors naming key and source, round trips."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Literal, get_args, get_origin

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from politecrawl.config import GROUPS, ConfigError, CrawlConfig, setting_types
from politecrawl.config.loader import (
    config_from_dict,
    config_to_toml,
    load_config,
)

SHIPPED = Path(__file__).parent.parent / "config" / "politecrawl.toml"
FIELDS = [
    setting.name
    for group in dataclasses.fields(CrawlConfig)
    if group.name != "extra"
    for setting in dataclasses.fields(getattr(CrawlConfig(), group.name))
]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(**sources) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(**sources)
    return caught.value.one_line()


# --- precedence --------------------------------------------------------------------------------


def test_b1_no_layers_give_the_defaults():
    assert load_config() == CrawlConfig()
    assert load_config(environ={}, flags={}, base={}) == CrawlConfig()


def test_b1_flags_over_environment_over_file_over_base_over_defaults(tmp_path):
    file = write(tmp_path, "[politeness]\ndelay_seconds = 3\n")
    environ = {"POLITECRAWL_DELAY_SECONDS": "4"}
    base = {"delay_seconds": 2.0}
    flags = {"delay_seconds": 5.0}
    config = load_config(file=file, environ=environ, flags=flags, base=base)
    assert config.politeness.delay_seconds == 5.0
    assert load_config(file=file, environ=environ, base=base).politeness.delay_seconds == 4.0
    assert load_config(file=file, base=base).politeness.delay_seconds == 3.0
    assert load_config(base=base).politeness.delay_seconds == 2.0
    assert load_config().politeness.delay_seconds == 1.0


def test_b1_each_layer_keeps_what_a_higher_one_does_not_say(tmp_path):
    file = write(tmp_path, "[crawl]\nworkers = 7\nagent = 'filebot'\n")
    config = load_config(
        file=file,
        environ={"POLITECRAWL_AGENT": "envbot"},
        flags={"max_pages": 9},
        base={"database": "old.db", "workers": 2},
    )
    assert (
        config.crawl.workers,
        config.crawl.agent,
        config.scope.max_pages,
        config.storage.database,
    ) == (
        7,
        "envbot",
        9,
        "old.db",
    )


def test_b1_a_flag_of_none_is_not_given():
    config = load_config(environ={"POLITECRAWL_WORKERS": "8"}, flags={"workers": None})
    assert config.crawl.workers == 8


def test_c5_resume_base_is_a_crawl_config_or_its_stored_json():
    earlier = CrawlConfig(agent="oldbot", include=("/a",), max_pages=5, extra={"file": "x"})
    assert load_config(base=earlier) == earlier
    assert load_config(base=earlier).extra == {"file": "x"}  # a CrawlConfig base keeps extra
    assert load_config(base=earlier, flags={"max_pages": 50}).scope.max_pages == 50
    stored = json.loads(json.dumps(stored_form(earlier)))
    assert load_config(base=stored) == earlier
    assert config_from_dict(stored) == earlier


def stored_form(config: CrawlConfig) -> dict[str, object]:
    """What the crawler writes to crawl_runs.config_json: every setting by name."""
    return config.as_flat_dict()


def test_c5_resume_a_stored_setting_that_no_longer_exists_is_dropped():
    assert config_from_dict({"workers": 3, "retired_setting": 1}) == CrawlConfig(workers=3)


# --- the file's shapes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "delay_seconds = 2\nagent = 'bot'\n",  # top level
        "[crawl]\nagent = 'bot'\n[politeness]\ndelay_seconds = 2\n",  # tables
        "agent = 'bot'\npoliteness.delay_seconds = 2\n",  # mixed, dotted
        "\ufeff[politeness]\r\ndelay_seconds = 2\r\n[crawl]\r\nagent = 'bot'\r\n",  # BOM, CRLF
    ],
)
def test_b1_settings_at_top_level_or_in_their_tables(tmp_path, text):
    config = load_config(file=write(tmp_path, text))
    assert (config.politeness.delay_seconds, config.crawl.agent) == (2.0, "bot")


# --- types -------------------------------------------------------------------------------------

CONVERSIONS = [
    # (setting, environment text, TOML value, expected)
    ("agent", "envbot", '"envbot"', "envbot"),
    ("workers", " 8 ", "8", 8),
    ("max_body_bytes", "1_000", "1_000", 1000),
    ("delay_seconds", "2", "2", 2.0),  # an int is a fine float
    ("delay_seconds", "0.25", "0.25", 0.25),
    ("honour_rel_nofollow", "no", "false", False),
    ("synchronous_full", "ON", "true", True),
    ("unauthorized_means_allowed", "1", "true", True),
    ("semantics", "rfc9309", '"rfc9309"', "rfc9309"),
    ("scope", "domain", '"domain"', "domain"),
    ("include", "/a, /b,,/c ", '["/a", "/b", "/c"]', ("/a", "/b", "/c")),
    ("exclude", "", "[]", ()),
    ("trusted_networks", "10.0.0.0/8", '["10.0.0.0/8"]', ("10.0.0.0/8",)),
    ("contact", "https://example.org/bot", '"https://example.org/bot"', "https://example.org/bot"),
    ("contact", "", '""', None),  # empty: not set
    ("max_pages", "12", "12", 12),
    ("max_pages", "", '""', None),
    ("max_duration_seconds", "90", "90", 90.0),
]


@pytest.mark.parametrize(("name", "text", "toml", "expected"), CONVERSIONS)
def test_b1_each_type_from_the_environment_and_the_file(tmp_path, name, text, toml, expected):
    from_env = load_config(environ={f"POLITECRAWL_{name.upper()}": text})
    from_file = load_config(file=write(tmp_path, f"{name} = {toml}\n"))
    assert from_env.value(name) == from_file.value(name) == expected
    assert type(from_env.value(name)) is type(expected)


def test_b1_flags_take_values_or_text_like_the_environment():
    flags = {"workers": "6", "include": ["/x"], "exclude": "/a,/b", "delay_seconds": 3}
    config = load_config(flags=flags)
    assert (config.crawl.workers, config.scope.include, config.scope.exclude) == (
        6,
        ("/x",),
        ("/a", "/b"),
    )
    assert config.politeness.delay_seconds == 3.0
    assert isinstance(config.politeness.delay_seconds, float)


def test_b1_an_empty_optional_unsets_a_stored_limit(tmp_path):
    base = {"max_pages": 100, "contact": "mailto:me@example.org"}
    assert load_config(base=base, environ={"POLITECRAWL_MAX_PAGES": ""}).scope.max_pages is None
    assert load_config(base=base, file=write(tmp_path, 'contact = ""\n')).crawl.contact is None


def test_b1_variables_that_are_not_settings_are_left_alone():
    environ = {"POLITECRAWL_TEST_POSTGRES": "x", "POLITECRAWL_CONFIG": "a.toml", "HOME": "/"}
    assert load_config(environ=environ) == CrawlConfig()


# --- one line per mistake ----------------------------------------------------------------------

NEGATIVE = "must be a number of seconds >= 0, not -1.0"
FILE_ERRORS = [
    ("agent = 'a'\n\n[politeness]\ndelay = 2\n",
     "4: unknown setting 'delay' (did you mean delay_seconds?)"),
    ("[crawl]\nagnet = 'a'\n", "2: unknown setting 'agnet' (did you mean agent?)"),
    ("extra = 'x'\n", "1: unknown setting 'extra'"),
    ("[politness]\ndelay_seconds = 2\n",
     "1: unknown table [politness] (did you mean [politeness]?)"),
    ("[scope]\nworkers = 2\n", "2: setting workers belongs in [crawl], not [scope]"),
    ("workers = 2\n[crawl]\nworkers = 3\n", "3: setting workers is given twice"),
    ("[crawl]\nworkers = 'four'\n", "2: setting workers: 'four' is not a whole number"),
    ("[crawl]\nworkers = 2.5\n", "2: setting workers: 2.5 is not a whole number"),
    ("delay_seconds = true\n", "1: setting delay_seconds: true is not a number"),
    ("honour_rel_nofollow = 'yes'\n", "1: setting honour_rel_nofollow: 'yes' is not true or false"),
    ("include = '/a'\n", "1: setting include: '/a' is not a list of text"),
    ("include = ['/a', 2]\n", "1: setting include: ['/a', 2] is not a list of text"),
    (
        "semantics = 'google'\n",
        "1: setting semantics: 'google' is not one of strict, draft, rfc9309",
    ),
    ("agent = 7\n", "1: setting agent: 7 is not text"),
    ("workers = '4'\n", "1: setting workers: '4' is not a whole number"),  # text only in env
    ("a = 1\nworkers = = 2\n", "2: not valid TOML: Invalid value (column 11)"),
    ("include = ['/a',\n", "2: not valid TOML: Invalid value (at the end of the file)"),
    ("\n[politeness]\ndelay_seconds = -1\n",
     f"3: setting delay_seconds: {NEGATIVE}"),
    ("[robots]\nrobots_max_lifetime_seconds = 0.5\n",
     "2: setting robots_min_lifetime_seconds: is longer than robots_max_lifetime_seconds"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), FILE_ERRORS)
def test_b1_a_bad_file_is_one_line_naming_the_file_the_line_and_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    assert error_of(file=path) == f"{path}:{message}"


def test_b1_a_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"agent = 'a'\ncontact = '\xff'\n")
    assert error_of(file=path) == f"{path}:2: not UTF-8 text"


def test_b1_a_missing_file_or_a_directory_names_the_path(tmp_path):
    assert (
        error_of(file=tmp_path / "no.toml") == f"{tmp_path / 'no.toml'}: no such configuration file"
    )
    assert error_of(file=tmp_path) == f"{tmp_path}: is a directory, not a configuration file"


def test_b1_an_unreadable_file_names_the_path(tmp_path, monkeypatch):
    path = write(tmp_path, "workers = 2\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)  # chmod 0 does not stop root
    assert error_of(file=path) == f"{path}: cannot read the configuration file: Permission denied"


ENV_ERRORS = [
    ({"POLITECRAWL_WORKERS": "four"}, "POLITECRAWL_WORKERS: 'four' is not a whole number"),
    ({"POLITECRAWL_DELAY_SECONDS": "soon"}, "POLITECRAWL_DELAY_SECONDS: 'soon' is not a number"),
    ({"POLITECRAWL_SYNCHRONOUS_FULL": "maybe"},
     "POLITECRAWL_SYNCHRONOUS_FULL: 'maybe' is not true or false"),
    ({"POLITECRAWL_SCOPE": "planet"},
     "POLITECRAWL_SCOPE: 'planet' is not one of seeds, domain, any"),
    ({"POLITECRAWL_DELAY": "2"},
     "POLITECRAWL_DELAY: unknown setting 'delay' (did you mean POLITECRAWL_DELAY_SECONDS?)"),
    ({"POLITECRAWL_EXTRA": "x"}, "POLITECRAWL_EXTRA: unknown setting 'extra'"),
    ({"POLITECRAWL_DELAY_SECONDS": "-1"},
     f"POLITECRAWL_DELAY_SECONDS: setting delay_seconds: {NEGATIVE}"),
    ({"POLITECRAWL_AGENT": "bad agent"},
     "POLITECRAWL_AGENT: setting agent: 'bad agent' is not a name token"
     " (letters, digits, - and _)"),
]  # fmt: skip


@pytest.mark.parametrize(("environ", "message"), ENV_ERRORS)
def test_b1_a_bad_variable_is_one_line_naming_the_variable(environ, message):
    assert error_of(environ=environ) == message


NAMES = {"delay_seconds": "--delay", "workers": "--workers", "bogus": "--bogus"}
FLAG_ERRORS = [
    ({"delay_seconds": -1.0}, NAMES,
     f"--delay: setting delay_seconds: {NEGATIVE}"),
    ({"delay_seconds": -1.0}, None, f"setting delay_seconds: {NEGATIVE}"),
    ({"workers": "four"}, NAMES, "--workers: setting workers: 'four' is not a whole number"),
    ({"bogus": 1}, NAMES, "--bogus: unknown setting 'bogus'"),
    ({"extra": {"a": "b"}}, None, "unknown setting 'extra'"),
]  # fmt: skip


@pytest.mark.parametrize(("flags", "flag_names", "message"), FLAG_ERRORS)
def test_b1_a_bad_flag_is_one_line_naming_the_option(flags, flag_names, message):
    assert error_of(flags=flags, flag_names=flag_names) == message


def test_b1_an_impossible_pair_blames_the_layer_that_set_one_of_them(tmp_path):
    path = write(tmp_path, "[robots]\nrobots_min_lifetime_seconds = 10.0\n")
    flags = {"robots_max_lifetime_seconds": 5.0}
    names = {"robots_max_lifetime_seconds": "--robots-max-lifetime"}
    message = "setting robots_min_lifetime_seconds: is longer than robots_max_lifetime_seconds"
    assert error_of(file=path, flags=flags, flag_names=names) == f"{path}:2: {message}"
    flags = {"robots_max_lifetime_seconds": 0.5}
    assert error_of(flags=flags, flag_names=names) == f"--robots-max-lifetime: {message}"


def test_b1_a_bad_stored_configuration_says_so():
    with pytest.raises(ConfigError) as caught:
        config_from_dict({"workers": "four"})
    assert (
        caught.value.one_line()
        == "stored configuration: setting workers: 'four' is not a whole number"
    )
    assert error_of(base={"workers": 0}) == (
        "stored configuration: setting workers: must be at least 1, not 0; give it anew: "
        "POLITECRAWL_WORKERS=... or a --config file replaces the stored value"
    )


# --- round trips and the shipped file ----------------------------------------------------------


def test_groups_are_the_toml_tables_and_hold_every_setting_once():
    grouped = [name for names in GROUPS.values() for name in names]
    assert len(grouped) == len(set(grouped)) == len(FIELDS)
    assert list(GROUPS) == [group.name for group in dataclasses.fields(CrawlConfig)][:-1]


def test_b1_config_to_toml_reads_back_equal(tmp_path):
    config = CrawlConfig(
        agent="example-bot",
        contact='mailto:"me"@example.org\\',
        warc_dir='warc "dir"\\\x7f\n',
        include=("/a,b", r"\d{1,3}", "ünï"),
        max_pages=0,
        max_duration_seconds=1e9,
        honour_rel_nofollow=False,
        semantics="rfc9309",
        delay_seconds=0.1,
    )
    assert load_config(file=write(tmp_path, config_to_toml(config))) == config
    assert load_config(file=write(tmp_path, config_to_toml(CrawlConfig()))) == CrawlConfig()


def test_b1_the_shipped_file_is_the_defaults_and_names_every_setting():
    assert load_config(file=SHIPPED) == CrawlConfig()
    text = SHIPPED.read_text(encoding="utf-8")
    keys = re.findall(r"^(\w+) = ", text, flags=re.MULTILINE)
    assert sorted(keys) == sorted(FIELDS)  # each once: no drift either way


def test_b1_each_shipped_setting_says_what_it_does_and_which_rule_it_serves():
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if re.match(r"\w+ = ", line):
            assert lines[number - 1].startswith("# "), line
            comment = " ".join(lines[i] for i in range(number - 2, number) if lines[i][:1] == "#")
            assert re.search(r"\b[A-Z]\d+\b", comment), f"{line}: no SPEC id"


def strategy_for(name, hint):
    origin, args = get_origin(hint), get_args(hint)
    text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
    if name == "agent":
        return st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}", fullmatch=True)
    if name in ("include", "exclude"):  # B1: validate() compiles them
        return st.lists(text.filter(_compiles), max_size=3).map(tuple)
    if name in ("trusted_networks", "server_exempt_networks"):
        return st.lists(st.ip_addresses().map(str), max_size=3).map(tuple)
    if name == "contact":  # sent in the User-Agent header: printable ASCII
        ascii_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=20)
        return st.none() | ascii_text.filter(lambda value: value != "")
    if name == "resolve":
        pair = st.tuples(st.from_regex(r"[a-z0-9.-]{1,20}", fullmatch=True), st.ip_addresses())
        return st.lists(pair.map(lambda p: f"{p[0]}:{p[1]}"), max_size=3).map(tuple)
    if origin is Literal:
        return st.sampled_from(args)
    if origin is tuple:
        return st.lists(text, max_size=3).map(tuple)
    if args:  # X | None; an empty string is "not set"
        inner = strategy_for(name, args[0])
        return st.none() | inner.filter(lambda value: value != "")
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(min_value=1, max_value=2**40)
    if hint is float:
        return st.floats(min_value=1e-6, max_value=1e12)
    return text


def _compiles(pattern):
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def _valid(values):
    """Settings made valid by construction rather than filtered (a filter that threw half the
    examples away made Hypothesis's generation slow enough to fail its health check on a busy
    machine): the lifetimes in order, a per-host page cap only with one process."""
    low, high = "robots_min_lifetime_seconds", "robots_max_lifetime_seconds"
    if values[low] > values[high]:
        values[low], values[high] = values[high], values[low]
    if values["processes"] != 1:
        values["max_pages_per_host"] = None
    return CrawlConfig(**values)


HINTS = setting_types()
SETTINGS = {name: strategy_for(name, HINTS[name]) for name in FIELDS}
CONFIGS = st.fixed_dictionaries(SETTINGS).map(_valid)


# No deadline and no speed health check: what is tested is the round trip, not how fast a
# busy machine writes the file or generates the settings.
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(config=CONFIGS)
def test_b1_any_valid_config_round_trips_through_toml_and_stored_json(tmp_path, config):
    config.validate()
    assert load_config(file=write(tmp_path, config_to_toml(config))) == config
    assert config_from_dict(json.loads(json.dumps(stored_form(config)))) == config
