"""Benchmark: peak memory of reading one large sitemap, as it arrives, against inflating and
parsing it whole (what the reader did before lxml 6.2; issue 38).

Run on demand:

    .venv/bin/python bench/sitemap_memory.py [--mib 45]

Makes a urlset of about ``--mib`` MiB (50,000 entries, each with image extensions, as large
sites publish), plain and gzip-compressed, and reads each in a fresh process three ways:
``SitemapReader`` fed 64 KiB pieces as a fetch would hand them (the body never held whole),
``parse_sitemap`` over the body held in memory (the fetch's buffer), and the old way (the body
inflated whole, then ``etree.iterparse`` over it) for comparison. Prints each process's peak RSS
above its RSS once the input is ready (the compressed or plain body held, lxml imported), and
the entries read; asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import io
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from lxml import etree

from politecrawl.sitemaps import SitemapEntry, SitemapReader, parse_lastmod, parse_sitemap

_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
_IMAGE_NS = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
_STEP = 64 * 1024


def _write(path: Path, mib: int) -> None:
    entries = 50_000
    images = max(1, (mib << 20) // entries // 110)
    with path.open("wb") as out:
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {_NS} {_IMAGE_NS}>\n'.encode())
        for number in range(entries):
            pictures = "".join(
                f"<image:image><image:loc>https://www.example.org/img/{number}-{k}.jpg"
                "</image:loc></image:image>"
                for k in range(images)
            )
            out.write(
                f"<url><loc>https://www.example.org/p/{number}.html</loc>"
                f"<lastmod>2026-11-01</lastmod>{pictures}</url>\n".encode()
            )
        out.write(b"</urlset>\n")


def _rss_kib() -> int:
    """The process's resident set now (``ru_maxrss`` is the peak so far, start-up included)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def _measure(way: str, path: str) -> None:
    """Runs in a child process: prints peak RSS growth (KiB) and the entries read."""

    streamed = way == "streamed"
    body = b"" if streamed else Path(path).read_bytes()
    start = _rss_kib()
    if streamed:
        reader = SitemapReader()
        with Path(path).open("rb") as source:
            while piece := source.read(_STEP):
                reader.feed(piece)
        count = len(reader.close().entries)
    elif way == "held":
        count = len(parse_sitemap(body).entries)
    else:  # the old way: inflate whole, then iterparse over it, keeping the same entries
        data = gzip.decompress(body) if body.startswith(b"\x1f\x8b") else body[:]
        kept = []
        loc = lastmod = None
        for _, element in etree.iterparse(io.BytesIO(data), events=("end",)):
            name = element.tag.rpartition("}")[2]
            if name == "loc" and element.getparent().tag.endswith("}url"):
                loc = element.text
            elif name == "lastmod":
                lastmod = element.text
            elif name == "url":
                kept.append(SitemapEntry(loc, parse_lastmod(lastmod), lastmod, element.sourceline))
                element.clear(keep_tail=False)
        count = len(kept)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{peak - start} {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, nargs="+", default=[10, 45])
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        _measure(*options.child)
        return
    ways = {
        "streamed": "SitemapReader, fed as it arrives",
        "held": "parse_sitemap over the held body",
        "whole": "inflated whole, then iterparse",
    }
    print(f"{'file':<22} {'way':<34} {'peak RSS above start':>22} {'entries':>9}")
    for mib in options.mib:
        with tempfile.TemporaryDirectory() as folder:
            plain = Path(folder) / "sitemap.xml"
            _write(plain, mib)
            packed = Path(folder) / "sitemap.xml.gz"
            packed.write_bytes(gzip.compress(plain.read_bytes(), 6))
            size = plain.stat().st_size / 2**20
            for label, path in (
                (f"{size:.0f} MiB plain", plain),
                (f"{size:.0f} MiB gzipped", packed),
            ):
                for way, text in ways.items():
                    child = [sys.executable, __file__, "--child", way, str(path)]
                    run = subprocess.run(child, check=True, capture_output=True, text=True)
                    grown_kib, count = run.stdout.split()
                    grown = int(grown_kib) / 1024
                    print(f"{label:<22} {text:<34} {grown:>19.1f} MB {int(count):>9,}")


if __name__ == "__main__":
    main()
