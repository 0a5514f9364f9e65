"""The report's "Servers shared by host names" laid out [P6]. Pure.

One row per server that served more than one host name: its address, the names, and the pace
they shared (requests in flight, the gap between starts). A crawl with none (each name on its
own address, or politeness per host alone, which learns no address) has no such section.
"""

from __future__ import annotations

from politecrawl.report.model import Report, counted
from politecrawl.report.server_model import SharedServer
from politecrawl.report.tables import Row, Table, plain

__all__ = ["server_tables"]

_NOTE = (
    "host names on one address (an IPv6 /64) were paced as one server: its requests in flight "
    "and the gap between their starts were shared, beside each host's own delay"
)


def _row(item: SharedServer) -> Row:
    pace = f"at most {item.max_in_flight} in flight, {item.delay_seconds:g} s between starts"
    return (
        plain(item.server),
        plain(*item.hosts),
        plain(counted(len(item.hosts), "host name")),
        plain(pace),
    )


def server_tables(report: Report) -> tuple[Table, ...]:
    """The section of ``report``'s shared servers; none when no server had two host names."""
    if not report.shared_servers:
        return ()
    columns = ("Server", "Host names", "Names", "Pace")
    rows = tuple(map(_row, report.shared_servers))
    title = "Servers shared by host names"
    return (Table("shared_servers", title, columns, rows, _NOTE, tone="neutral"),)
