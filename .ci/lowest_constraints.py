"""Print pip constraints that pin each runtime dependency to the lowest version pyproject.toml
declares (``name>=X`` becomes ``name==X``), for ``make test-lowest``: a bound that is too low
shows as a failing suite instead of as a user's broken install. The tools of the ``dev`` extra
stay at their newest (a lint rule set is not a runtime bound); ``postgres`` is pinned too."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

_LOWER_BOUND = re.compile(r"^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*>=\s*([0-9][0-9A-Za-z.]*)")


def main() -> None:
    project = tomllib.loads(
        Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml").read_text()
    )["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["postgres"]]
    for requirement in requirements:
        match = _LOWER_BOUND.match(requirement)
        if match is None:
            sys.exit(f"no lower bound to pin in {requirement!r}: declare one (name>=X)")
        name, version = match.groups()
        print(f"{name}=={version}")
        if name == "psycopg":  # the [binary] extra's wheel is a package of its own
            print(f"psycopg-binary=={version}")


if __name__ == "__main__":
    main()
