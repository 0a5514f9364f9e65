"""Where the time goes: summarise py-spy raw (collapsed-stack) profiles (``run.py --profile``).

    .venv/bin/python bench/profile_summary.py DIR/politecrawl-0.txt [--top 30] [--under politecrawl]

py-spy counts only samples of threads that were running (not idle), so the shares are shares of
the busy time. Prints the functions with the most inclusive samples (a function counted once per
stack), the most self samples, and the inclusive share per module.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

_FRAME = re.compile(r"^(?P<func>.+?) \((?P<file>[^:()]+)(?::(?P<line>\d+))?\)$")


def read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        frames, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        parts = frames.split(";")
        if parts and parts[0].startswith(("thread ", "process ")):
            parts = [p for p in parts if not p.startswith(("thread ", "process "))]
        stacks.append((parts, int(count)))
    return stacks


def name_of(frame: str) -> tuple[str, str]:
    """(function with file, module file) of one frame, line number dropped."""
    found = _FRAME.match(frame)
    if not found:
        return frame, frame
    file = found.group("file")
    for marker in ("site-packages/", "lib/python3.11/"):
        if marker in file:
            file = file.split(marker, 1)[1]
    return f"{found.group('func')} ({file})", file


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profiles", type=Path, nargs="+")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    stacks = [stack for path in args.profiles for stack in read(path)]
    total = sum(count for _, count in stacks)
    inclusive: Counter[str] = Counter()
    self_time: Counter[str] = Counter()
    modules: Counter[str] = Counter()
    for frames, count in stacks:
        names = [name_of(frame) for frame in frames]
        for function in {function for function, _ in names}:
            inclusive[function] += count
        for module in {module for _, module in names}:
            modules[module] += count
        if names:
            self_time[names[-1][0]] += count
    print(f"{total} busy samples")
    for title, counter in (
        ("inclusive (function and what it calls)", inclusive),
        ("self (the innermost frame)", self_time),
        ("inclusive per file", modules),
    ):
        print(f"\n{title}:")
        for name, count in counter.most_common(args.top):
            print(f"  {count / total:6.1%}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
