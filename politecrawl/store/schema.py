"""The crawl database's tables, as SQLAlchemy Core ``Table`` objects [C5, C6, E1, P1].

The schema changes only through Alembic revisions in ``migrations/``; these tables are what the
newest revision builds, and a test checks that autogenerate finds no difference. They are named
for their tables (``urls_table``, ``origins_table``, ...) and never leave ``politecrawl.store``:
the frontier and the robots outcome store hand out frozen dataclasses. Core, not ORM classes:
every statement is written in Core, and importing ``sqlalchemy.orm`` for the classes alone cost
60-70 ms (of 415-467) at the start of every command that opens a crawl database.

Times are aware UTC datetimes in Python and seconds since the epoch in the database
(``EpochTime``, double precision): one type on both back ends, arithmetic in SQL for the
scheduler (``next start = now + delay``), and no date strings to parse on SQLite's hot path.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    literal_column,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# URL states. "queued" and "deferred" wait; "leased" is being fetched; the rest are final for a
# pass. Every URL that was not fetched keeps its reason (``reason`` and ``reason_detail``).
QUEUED = "queued"
LEASED = "leased"
DONE = "done"
FAILED = "failed"
EXCLUDED = "excluded"  # by robots.txt (O3-O5) or by META/nofollow-only discovery (T5, T6)
DEFERRED = "deferred"  # waits for a time: robots.txt unreachable (O6), Retry-After, back-off
# A lease's lease_server_id once its slots were given back at its response (``Answered``): a
# lost lease marked so gives back nothing (its host's slot and its server's are taken by the
# host's next lease already). No server row has id 0.
SLOTS_GIVEN_BACK = 0
OUT_OF_SCOPE = "out_of_scope"  # scope rules and trap guards (C1, C3)
URL_STATES = (QUEUED, LEASED, DONE, FAILED, EXCLUDED, DEFERRED, OUT_OF_SCOPE)

# What a URL is fetched as: a page (parsed as HTML for links), a sitemap (read for the URLs it
# lists, S1, S2) or a check (a link leaving the site or a page resource: asked for its status,
# never parsed, L1-L3). Each is paced, robots-checked and leased like any page.
PAGE = "page"
SITEMAP = "sitemap"
CHECK = "check"

# The id of a URL row: BIGINT on PostgreSQL, INTEGER (the rowid) on SQLite.
_ID = BigInteger().with_variant(Integer(), "sqlite")


def to_epoch(moment: datetime) -> float:
    """An aware datetime as the epoch seconds stored in the database."""
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: politecrawl stores aware UTC times only")
    return moment.timestamp()


def from_epoch(seconds: float | None) -> datetime | None:
    """Stored epoch seconds (or None) as an aware UTC datetime."""
    return None if seconds is None else datetime.fromtimestamp(float(seconds), UTC)


class EpochTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out; seconds since the epoch (a float) in the database."""

    impl = Float(precision=53)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> float | None:
        return None if value is None else to_epoch(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        return from_epoch(value)


# One MetaData, with a naming convention for constraints (Alembic's revisions name them alike).
metadata = MetaData(naming_convention=NAMING_CONVENTION)


# One run of ``crawl()``: when, with which configuration, and what it did.
crawl_runs_table = Table(
    "crawl_runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pass_number", Integer, default=1, nullable=False),
    Column("started_at", EpochTime(), nullable=False),
    Column("ended_at", EpochTime()),
    Column("config_json", Text, default="{}", nullable=False),
    Column("counters_json", Text, default="{}", nullable=False),
    Column("outcome", String(32)),
)


# A server: the machine behind host names, an IP address or an IPv6 /64 (``politeness.server_of``),
# the second unit of politeness (P6): its hosts share its requests in flight and a minimum gap
# between the starts of its requests, which the claim takes with the host's slot.
servers_table = Table(
    "servers",
    metadata,
    Column("id", Integer, primary_key=True),
    # The address, or an IPv6 address's /64 written as a network.
    Column("address", String(64), unique=True, nullable=False),
    Column("in_flight", Integer, default=0, nullable=False),
    Column("max_in_flight", Integer, default=2, nullable=False),
    # No request to this server may start before this time.
    Column("next_fetch_at", EpochTime(), nullable=False),
    # The gap between the starts of two requests: the setting, or its hosts' smallest delay
    # (the configured one, or what their robots.txt asks).
    Column("delay_seconds", Float, default=0.0, nullable=False),
)


# A row of ``hosts``: a host name (ports share it), the unit of politeness (P1-P3).
#
# Not ``politeness.HostPace``, the value a visit hands over to be written into this row.
hosts_table = Table(
    "hosts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("host", String(300), unique=True, nullable=False),
    # May have queued URLs; cleared lazily when a claim finds none.
    Column("active", Boolean, default=True, nullable=False),
    # No request to this host may start before this time.
    Column("next_fetch_at", EpochTime(), nullable=False),
    Column("in_flight", Integer, default=0, nullable=False),
    Column("max_in_flight", Integer, default=1, nullable=False),
    # The effective delay between requests: configured, Crawl-delay, adaptive, back-off.
    Column("delay_seconds", Float, default=1.0, nullable=False),
    Column("crawl_delay_seconds", Float),
    Column("backoff_seconds", Float, default=0.0, nullable=False),
    Column("retry_after_until", EpochTime()),
    Column("last_response_seconds", Float),
    Column("error_streak", Integer, default=0, nullable=False),
    Column("wait_reason", Text),
    # P6: the server the host's address is on (a ``servers`` row; no declared foreign key, which
    # SQLite adds only by copying the table), None before its address is known or when the
    # address is in an exempt network; the address itself, and when it was learnt.
    Column("server_id", Integer),
    Column("address", String(64)),
    Column("address_resolved_at", EpochTime()),
    Index("ix_hosts_due", "active", "next_fetch_at"),
    Index("ix_hosts_server_id", "server_id"),
)


# scheme://host[:port] with its robots.txt state (O1-O8, E1-E4).
origins_table = Table(
    "origins",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("origin", String(330), unique=True, nullable=False),
    Column("host_id", Integer, ForeignKey("hosts.id"), index=True, nullable=False),
    # None until fetched; then parsed, allow_all, disallow_all or deferred.
    Column("robots_outcome", String(16)),
    Column("robots_status", Integer),
    Column("robots_body", LargeBinary),
    Column("robots_etag", Text),
    Column("robots_last_modified", Text),
    Column("robots_fetched_at", EpochTime()),
    Column("robots_expires_at", EpochTime()),
    Column("robots_retry_at", EpochTime()),
    Column("robots_failures", Integer, default=0, nullable=False),
    Column("robots_error", Text),
    # /.well-known/tdmrep.json, fetched as robots.txt is when a crawl's purpose needs it (U3):
    # None until fetched; then parsed, allow_all (no reservation) or deferred.
    Column("tdmrep_outcome", String(16)),
    Column("tdmrep_status", Integer),
    Column("tdmrep_body", LargeBinary),
    Column("tdmrep_etag", Text),
    Column("tdmrep_last_modified", Text),
    Column("tdmrep_fetched_at", EpochTime()),
    Column("tdmrep_expires_at", EpochTime()),
    Column("tdmrep_retry_at", EpochTime()),
    Column("tdmrep_failures", Integer, default=0, server_default="0", nullable=False),
    Column("tdmrep_error", Text),
)


# A canonical URL of the crawl, with its state and, when not fetched, the reason why.
urls_table = Table(
    "urls",
    metadata,
    Column("id", _ID, primary_key=True),
    Column("url_key", LargeBinary(16), unique=True, nullable=False),
    Column("url", Text, nullable=False),
    Column("origin_id", Integer, ForeignKey("origins.id"), nullable=False),
    Column("host_id", Integer, ForeignKey("hosts.id"), nullable=False),
    Column("depth", Integer, default=0, nullable=False),
    # Lower first, after depth; above 0: a URL to retry (its attempts), which a host whose last
    # request failed takes only when it has no URL of priority 0 or below queued (P3).
    Column("priority", Integer, default=0, nullable=False),
    Column("state", String(16), default=QUEUED, nullable=False),
    Column("pass_number", Integer, default=1, nullable=False),
    Column("discovered_from", _ID, ForeignKey("urls.id")),
    Column("discovered_at", EpochTime(), nullable=False),
    Column("lease_owner", String(200)),
    Column("lease_expires_at", EpochTime()),
    # The server whose slot the lease holds (P6), given back when the lease ends or expires;
    # SLOTS_GIVEN_BACK: the lease holds no slot any more, its host's nor a server's (Answered).
    Column("lease_server_id", Integer),
    Column("attempts", Integer, default=0, nullable=False),
    # Redirects followed to reach this URL from the URL that was linked (C4).
    Column("redirect_hops", Integer, default=0, server_default="0", nullable=False),
    Column("next_attempt_at", EpochTime()),
    Column("status", Integer),
    Column("final_url", Text),
    Column("content_type", String(200)),
    Column("etag", Text),
    Column("last_modified", Text),
    Column("content_hash", String(64)),
    Column("noindex", Boolean),
    Column("nofollow", Boolean),
    Column("fetched_at", EpochTime()),
    Column("elapsed_seconds", Float),
    Column("size_bytes", BigInteger),
    Column("error", Text),
    # Why it was not fetched: robots, nofollow, scope, trap, deferred, ...
    Column("reason", String(32)),
    # JSON: the deciding robots line, the scope rule, the time deferred until, ...
    Column("reason_detail", Text),
    # ``page`` or ``sitemap``: how the body is read (S1).
    Column("kind", String(16), default=PAGE, server_default=PAGE, nullable=False),
    # The page's ``<link rel="canonical">``, absolute, when it names one (S4).
    Column("canonical_url", Text),
    # The newest ``lastmod`` a sitemap gave for this URL (S3).
    Column("sitemap_lastmod", EpochTime()),
    # For a check: ``HEAD``, or ``HEAD,GET`` when HEAD was refused (L2).
    Column("check_method", String(16)),
    # With fragment checking on, an HTML page's ids and ``<a name>``s, one a line (L4).
    Column("anchors", Text),
    # With a crawl purpose, whether the page's signals refused it when fetched (U5); None
    # without a purpose. Its signals are in ``use_signals``.
    Column("use_refused", Boolean),
    # claim: the best queued URL of a host, breadth first (depth, priority, age).
    Index("ix_urls_claim", "host_id", "state", "depth", "priority", "id"),
    Index(
        "ix_urls_lease_expiry",
        "lease_expires_at",
        sqlite_where=text("state = 'leased'"),
        postgresql_where=text("state = 'leased'"),
    ),
    Index(
        "ix_urls_deferred_until",
        "next_attempt_at",
        sqlite_where=text("state = 'deferred'"),
        postgresql_where=text("state = 'deferred'"),
    ),
    # No index on (origin, state) since 0009: a page wrote 6.9 of its 30.7 log pages into it,
    # and its readers (an origin's deferral, a report's URLs of one origin) find an origin's
    # URLs through its host in ``ix_urls_claim``.
)


# A link between two URLs, so a report can name every page that links to a broken one.
# Indexed by target only when read (``link_targets``). On SQLite without rowid (0009): the rows
# live in their primary key's tree, one tree written a link instead of two.
links_table = Table(
    "links",
    metadata,
    Column("from_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("to_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("nofollow", Boolean, default=False, nullable=False),
    # The link's text (an image's alt), whitespace collapsed: for reports (L1).
    Column("text", String(200)),
    # The line of the linking element in the page.
    Column("line", Integer),
    # An image, stylesheet, script, frame or media source rather than a link (L3).
    Column("resource", Boolean, default=False, server_default="0", nullable=False),
    sqlite_with_rowid=False,
)


# A ``#fragment`` a page links to on another page (L4): checked against its anchors.
link_fragments_table = Table(
    "link_fragments",
    metadata,
    Column("from_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("to_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("fragment", String(300), primary_key=True),
    Column("line", Integer),
)


# A URL's outcome at the end of a finished pass, kept when a recrawl starts the next.
pass_results_table = Table(
    "pass_results",
    metadata,
    Column("pass_number", Integer, primary_key=True),
    Column("url_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("state", String(16), nullable=False),
    Column("status", Integer),
    Column("content_hash", String(64)),
    Column("final_url", Text),
    Column("noindex", Boolean),
    Column("nofollow", Boolean),
    Column("reason", String(32)),
    Column("fetched_at", EpochTime()),
)


# A URL read as a sitemap: why it was read and what reading it found (S1, S2).
sitemaps_table = Table(
    "sitemaps",
    metadata,
    Column("url_id", _ID, ForeignKey("urls.id"), primary_key=True),
    # ``robots`` (a Sitemap line), ``guess`` (/sitemap.xml) or ``index`` (a sitemap index).
    Column("source", String(16), nullable=False),
    # The origin whose robots.txt vouches for it: it may list that origin's URLs besides its
    # own (sitemaps.org's cross-submission rule).
    Column("for_origin", String(330), nullable=False),
    # 0 for a sitemap named by robots.txt or guessed; one more for each index above it.
    Column("nesting", Integer, default=0, nullable=False),
    # After reading: urlset, index, text, feed or unknown.
    Column("format", String(16)),
    Column("entries", Integer),
    # Listed URLs of origins it may not list: ignored (S2).
    Column("other_origins", Integer, default=0, nullable=False),
    Column("truncated", Boolean),
    # JSON list of what could not be read, each with its line where known.
    Column("problems", Text),
)


# A URL listed by a sitemap, with the ``lastmod`` it gave (S3, S4).
sitemap_entries_table = Table(
    "sitemap_entries",
    metadata,
    Column("sitemap_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("url_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("lastmod", EpochTime()),
    Column("lastmod_text", Text),
    Column("line", Integer),
    Index("ix_sitemap_entries_url_id", "url_id"),
)


# A use-preference signal that applied to a page when it was fetched (U6): where it was read
# (robots.txt line, header, meta, tdmrep.json location), as written, and what it says of each
# use (``allowed``, ``refused``; NULL: no preference). Replaced when the page is read again.
use_signals_table = Table(
    "use_signals",
    metadata,
    Column("url_id", _ID, ForeignKey("urls.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    # content-signal, content-usage, tdmrep or noai
    Column("protocol", String(16), nullable=False),
    Column("source", Text, nullable=False),
    Column("statement", Text, nullable=False),
    Column("search", String(16)),
    Column("ai_input", String(16)),
    Column("ai_train", String(16)),
    Column("line_number", Integer),
    Column("policy", Text),
)


def in_state(state: str) -> ColumnElement[bool]:
    """``urls.state = '<state>'`` with the state written into the SQL, not bound.

    Both engines decide by the value compared with ``state`` whether a partial index on it
    (``WHERE state = 'leased'``) applies. PostgreSQL matches one only to a constant, and
    psycopg prepares a statement it has run five times, after which PostgreSQL may plan it
    generically: with a bound state, the once-a-second housekeeping of leases and deferred URLs
    then reads every URL of the crawl (134 ms at 1.07 million URLs, against 0.006 ms), and the
    crawl slows as its frontier grows. SQLite reads the bound value to decide, so it prepares
    the statement again whenever the value is bound, which is at every execution: a claim's
    lease took 120 us at 1,000,000 queued URLs, of which running it was 27 us."""
    if state not in URL_STATES:
        raise ValueError(f"not a URL state: {state!r}")
    return urls_table.c.state == literal_column(f"'{state}'")
