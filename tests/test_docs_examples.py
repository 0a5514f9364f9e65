"""The Python examples of the README and the documentation pages stay true to the code.

Every ```python block of README.md, CONTRIBUTING.md and docs/*.md must compile, and its imports
must name things that exist, so that a rename or a move (a store module, a setting) that leaves
an example behind fails here rather than in a reader's hands. The README's robots.txt example
is pure and runs whole, its commented results checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("**/*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return found


EXAMPLES = _examples()


def test_the_pages_hold_python_examples():
    where = {name.split(":")[0] for name, _ in EXAMPLES}
    assert {"README.md", "docs/library.md", "docs/robots-and-politeness.md"} <= where


@pytest.mark.parametrize(("where", "source"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_every_python_example_compiles_and_its_imports_exist(where: str, source: str):
    tree = ast.parse(source, filename=where)
    imports = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    code = compile(ast.Module(body=imports, type_ignores=[]), where, "exec")
    exec(code, {})  # an ImportError names the example's stale import


def test_the_readme_robots_example_runs_and_says_what_its_comments_say():
    (source,) = [
        code
        for where, code in EXAMPLES
        if where.startswith("README.md") and "parse_robots(" in code
    ]
    namespace: dict[str, object] = {}
    exec(compile(source, "README.md", "exec"), namespace)
    policy = namespace["policy"]
    assert policy.is_allowed("examplebot", "https://example.org/private/x") is False  # type: ignore[attr-defined]
    verdict = policy.explain("examplebot", "/private/x")  # type: ignore[attr-defined]
    assert not verdict.allowed
    assert verdict.rule.directive.line == "Disallow: /private/"
