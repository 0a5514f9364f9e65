"""Bad input on the command line: one line on stderr, exit status 2, no traceback, and an
existing crawl database left exactly as it was [B1]."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from politecrawl.store import Frontier, open_database


def politecrawl(*args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = ""):
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        input=stdin,
        check=False,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def workspace(tmp_path):
    """A directory with a valid seeds file and an existing crawl database."""
    (tmp_path / "seeds.txt").write_text("http://127.0.0.9:9/\n")
    database = open_database(str(tmp_path / "crawl.db"))
    from datetime import UTC, datetime

    Frontier(database).add(["http://127.0.0.9:9/"], now=datetime.now(UTC))
    database.close()
    return tmp_path


def assert_one_line_error(result, *needles: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0]


def test_b1_missing_seeds_file(workspace):
    before = digest(workspace / "crawl.db")
    result = politecrawl("run", "nope.txt", "--db", "crawl.db", cwd=workspace)
    assert_one_line_error(result, "nope.txt", "no such")
    assert digest(workspace / "crawl.db") == before


def test_b1_empty_seeds_file(workspace):
    (workspace / "empty.txt").write_text("# nothing here\n\n")
    result = politecrawl("run", "empty.txt", "--db", "crawl.db", cwd=workspace)
    assert_one_line_error(result, "empty.txt")


def test_b1_seeds_from_stdin_with_no_url(workspace):
    result = politecrawl("run", "-", "--db", "crawl.db", cwd=workspace, stdin="just text\n")
    assert_one_line_error(result, "<stdin>")


def test_b1_database_in_a_missing_directory(workspace):
    result = politecrawl("run", "seeds.txt", "--db", "no/such/dir/crawl.db", cwd=workspace)
    assert_one_line_error(result, "no/such/dir/crawl.db", "does not exist")
    assert not (workspace / "no").exists()


def test_b1_a_file_that_is_not_a_crawl_database(workspace):
    (workspace / "notes.db").write_text("my notes\n")
    before = digest(workspace / "notes.db")
    result = politecrawl("run", "seeds.txt", "--db", "notes.db", cwd=workspace)
    assert_one_line_error(result, "notes.db", "not a crawl database")
    assert digest(workspace / "notes.db") == before


def test_b1_another_programs_sqlite_database(workspace):
    with sqlite3.connect(workspace / "app.db") as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = digest(workspace / "app.db")
    result = politecrawl("status", "--db", "app.db", cwd=workspace)
    assert_one_line_error(result, "app.db", "invoices")
    assert digest(workspace / "app.db") == before


def test_b1_a_config_file_that_is_not_toml(workspace):
    (workspace / "bad.toml").write_text("[politeness]\ndelay_seconds = = 2\n")
    before = digest(workspace / "crawl.db")
    result = politecrawl(
        "run", "seeds.txt", "--db", "crawl.db", "--config", "bad.toml", cwd=workspace
    )
    assert_one_line_error(result, "bad.toml:2", "not valid TOML")
    assert digest(workspace / "crawl.db") == before


def test_b1_an_unknown_setting_in_the_config_file(workspace):
    (workspace / "typo.toml").write_text("delay = 2\n")
    result = politecrawl("run", "seeds.txt", "--config", "typo.toml", cwd=workspace)
    assert_one_line_error(result, "typo.toml:1", "unknown setting 'delay'", "delay_seconds")


def test_b1_an_impossible_value(workspace):
    result = politecrawl("run", "seeds.txt", "--delay", "-1", cwd=workspace)
    assert_one_line_error(result, "--delay", "delay_seconds")
    result = politecrawl("run", "seeds.txt", "--workers", "0", cwd=workspace)
    assert_one_line_error(result, "--workers", "at least 1")


def test_b1_a_bad_environment_variable(workspace):
    result = politecrawl("run", "seeds.txt", cwd=workspace, env={"POLITECRAWL_WORKERS": "four"})
    assert_one_line_error(result, "POLITECRAWL_WORKERS", "whole number")


def test_b1_an_unknown_option(workspace):
    result = politecrawl("run", "seeds.txt", "--fast", cwd=workspace)
    assert_one_line_error(result, "politecrawl run: error: unknown option --fast (see --help)")


def test_b1_a_mistyped_option_gets_the_closest_of_its_commands(workspace):
    result = politecrawl("check", "http://127.0.0.9:9/", "--no-check-outbond", cwd=workspace)
    assert_one_line_error(
        result,
        "politecrawl check: error: unknown option --no-check-outbond (did you mean "
        "--no-check-outbound?)",
    )


SETTINGS_THE_CRAWL_COMPILES = [
    (("--include", "("), {}, "--include", "'(' is not a regular expression"),
    (("--exclude", "[a-"), {}, "--exclude", "'[a-' is not a regular expression"),
    ((), {"POLITECRAWL_TRUSTED_NETWORKS": "10.0.0.0/33"}, "POLITECRAWL_TRUSTED_NETWORKS", "33"),
    (("--contact", "https://exämple.org/bot"), {}, "--contact", "printable ASCII"),
]


@pytest.mark.parametrize(
    ("flags", "env", "source", "problem"),
    SETTINGS_THE_CRAWL_COMPILES,
    ids=["include", "exclude", "trusted-networks", "contact"],
)
def test_b1_a_setting_the_crawl_cannot_use_stops_it_before_its_database_is_created(
    workspace, flags, env, source, problem
):
    result = politecrawl("run", "seeds.txt", "--db", "re.db", *flags, cwd=workspace, env=env)
    assert_one_line_error(result, source, problem)
    assert not list(workspace.glob("re.db*"))  # nothing written, nothing stored to repeat


def test_b1_resume_of_a_crawl_stored_with_a_bad_pattern_names_the_way_out(workspace):
    # A database an older version created, with the bad pattern stored: resume says how to
    # give the setting anew, and does so (the run then stores the good one).
    from datetime import UTC, datetime

    from politecrawl import CrawlConfig
    from politecrawl.store import start_run

    database = open_database(str(workspace / "crawl.db"))
    stored = {**CrawlConfig().as_flat_dict(), "include": ["("]}
    start_run(database, config=stored, now=datetime.now(UTC))
    database.close()
    before = digest(workspace / "crawl.db")
    result = politecrawl("resume", "--db", "crawl.db", cwd=workspace)
    assert_one_line_error(result, "stored configuration", "include", "POLITECRAWL_INCLUDE=")
    assert digest(workspace / "crawl.db") == before
    fixed = politecrawl(
        "resume", "--db", "crawl.db", "-q", "--max-pages", "0",
        cwd=workspace, env={"POLITECRAWL_INCLUDE": ""},
    )  # fmt: skip
    assert fixed.returncode == 0, fixed.stderr
    again = politecrawl("resume", "--db", "crawl.db", "-q", "--max-pages", "0", cwd=workspace)
    assert again.returncode == 0, again.stderr


def test_b1_resume_without_a_crawl(workspace):
    result = politecrawl("resume", "--db", "fresh.db", cwd=workspace)
    assert_one_line_error(result, "no crawl database at fresh.db")
    assert not (workspace / "fresh.db").exists()


READING_COMMANDS = [
    ("status",),
    ("report",),
    ("report", "--compare"),
    ("why", "http://127.0.0.9:9/"),
    ("robots", "show", "http://127.0.0.9:9"),
    ("resume",),
    ("recrawl",),
]


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
def test_b1_a_reading_command_never_creates_a_database(workspace, command):
    result = politecrawl(*command, "--db", "typo.db", cwd=workspace)
    assert_one_line_error(result, "no crawl database at typo.db")
    assert not (workspace / "typo.db").exists()
    assert not list(workspace.glob("typo.db*"))  # no -wal or -shm either


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
def test_b1_a_reading_command_leaves_an_empty_sqlite_file_alone(workspace, command):
    other = workspace / "other.db"
    sqlite3.connect(other).close()  # an SQLite file with nothing in it
    (workspace / "empty.db").write_bytes(b"")
    before = digest(other)
    result = politecrawl(*command, "--db", "other.db", cwd=workspace)
    assert result.returncode == 2, result.stderr
    assert digest(other) == before
    result = politecrawl(*command, "--db", "empty.db", cwd=workspace)
    assert_one_line_error(result, "no crawl database at empty.db")
    assert (workspace / "empty.db").read_bytes() == b""


def test_b1_the_library_reading_entry_point_never_creates_either(tmp_path):
    from politecrawl.errors import StoreError

    with pytest.raises(StoreError, match="no crawl database at"):
        open_database(str(tmp_path / "typo.db"), create=False)
    assert not list(tmp_path.iterdir())


def test_b1_a_postgres_database_without_a_crawl_is_refused_by_readers():
    from tests.store.conftest import postgres_schema_url, require_postgres

    from politecrawl.errors import StoreError

    require_postgres()
    for url in postgres_schema_url():
        with pytest.raises(StoreError, match="no crawl database at"):
            open_database(url, create=False)
        database = open_database(url)  # a writer creates it; then a reader opens it
        database.close()
        open_database(url, create=False).close()


def test_b1_an_unreachable_postgres(workspace):
    result = politecrawl(
        "status",
        "--db",
        "postgresql+psycopg://postgres@127.0.0.1:1/none?connect_timeout=2",
        cwd=workspace,
    )
    assert_one_line_error(result, "cannot open the database")


def test_b1_a_report_to_a_file_that_cannot_be_written(workspace):
    # the report, and ``check``'s, go through one writer: one line and exit 2, not a traceback
    result = politecrawl(
        "report", "--db", "crawl.db", "--out", "missing/dir/report.txt", cwd=workspace
    )
    assert_one_line_error(result, "cannot write the report", "missing/dir/report.txt")
