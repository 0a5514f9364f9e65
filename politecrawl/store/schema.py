"""The crawl database's tables, as typed SQLAlchemy 2 models [C5, C6, E1, P1].

The schema changes only through Alembic revisions in ``migrations/``; these models are what the
newest revision builds, and a test checks that autogenerate finds no difference. The ORM classes
are named for their rows (``UrlRecord``, ``OriginRecord``, ...) and never leave
``politecrawl.store``: the frontier and the robots outcome store hand out frozen dataclasses.

Times are aware UTC datetimes in Python and seconds since the epoch in the database
(``EpochTime``, double precision): one type on both back ends, arithmetic in SQL for the
scheduler (``next start = now + delay``), and no date strings to parse on SQLite's hot path.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    Boolean,
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
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
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


class Base(DeclarativeBase):
    """Declarative base with one MetaData and a naming convention for constraints."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: EpochTime()}  # noqa: RUF012 (SQLAlchemy's own hook)


class CrawlRunRecord(Base):
    """One run of ``crawl()``: when, with which configuration, and what it did."""

    __tablename__ = "crawl_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pass_number: Mapped[int] = mapped_column(Integer, default=1)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    config_json: Mapped[str] = mapped_column(Text, default="{}")
    counters_json: Mapped[str] = mapped_column(Text, default="{}")
    outcome: Mapped[str | None] = mapped_column(String(32))


class HostRecord(Base):
    """A row of ``hosts``: a host name (ports share it), the unit of politeness (P1-P3).

    Not ``HostPaceRecord``, the value a visit hands over to be written into this row."""

    __tablename__ = "hosts"
    __table_args__ = (Index("ix_hosts_due", "active", "next_fetch_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    host: Mapped[str] = mapped_column(String(300), unique=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    """May have queued URLs; cleared lazily when a claim finds none."""
    next_fetch_at: Mapped[datetime]
    """No request to this host may start before this time."""
    in_flight: Mapped[int] = mapped_column(Integer, default=0)
    max_in_flight: Mapped[int] = mapped_column(Integer, default=1)
    delay_seconds: Mapped[float] = mapped_column(Float, default=1.0)
    """The effective delay between requests: configured, Crawl-delay, adaptive, back-off."""
    crawl_delay_seconds: Mapped[float | None] = mapped_column(Float)
    backoff_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    retry_after_until: Mapped[datetime | None]
    last_response_seconds: Mapped[float | None] = mapped_column(Float)
    error_streak: Mapped[int] = mapped_column(Integer, default=0)
    wait_reason: Mapped[str | None] = mapped_column(Text)


class OriginRecord(Base):
    """scheme://host[:port] with its robots.txt state (O1-O8, E1-E4)."""

    __tablename__ = "origins"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    origin: Mapped[str] = mapped_column(String(330), unique=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("hosts.id"), index=True)
    robots_outcome: Mapped[str | None] = mapped_column(String(16))
    """None until fetched; then parsed, allow_all, disallow_all or deferred."""
    robots_status: Mapped[int | None] = mapped_column(Integer)
    robots_body: Mapped[bytes | None] = mapped_column(LargeBinary)
    robots_etag: Mapped[str | None] = mapped_column(Text)
    robots_last_modified: Mapped[str | None] = mapped_column(Text)
    robots_fetched_at: Mapped[datetime | None]
    robots_expires_at: Mapped[datetime | None]
    robots_retry_at: Mapped[datetime | None]
    robots_failures: Mapped[int] = mapped_column(Integer, default=0)
    robots_error: Mapped[str | None] = mapped_column(Text)


class UrlRecord(Base):
    """A canonical URL of the crawl, with its state and, when not fetched, the reason why."""

    __tablename__ = "urls"
    __table_args__ = (
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
        Index("ix_urls_origin_state", "origin_id", "state"),
    )

    id: Mapped[int] = mapped_column(_ID, primary_key=True)
    url_key: Mapped[bytes] = mapped_column(LargeBinary(16), unique=True)
    url: Mapped[str] = mapped_column(Text)
    origin_id: Mapped[int] = mapped_column(ForeignKey("origins.id"))
    host_id: Mapped[int] = mapped_column(ForeignKey("hosts.id"))
    depth: Mapped[int] = mapped_column(Integer, default=0)
    priority: Mapped[int] = mapped_column(Integer, default=0)
    """Lower first, after depth; above 0: a URL to retry (its attempts), which a host whose last
    request failed takes only when it has no URL of priority 0 or below queued (P3)."""
    state: Mapped[str] = mapped_column(String(16), default=QUEUED)
    pass_number: Mapped[int] = mapped_column(Integer, default=1)
    discovered_from: Mapped[int | None] = mapped_column(_ID, ForeignKey("urls.id"))
    discovered_at: Mapped[datetime]
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_expires_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    redirect_hops: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Redirects followed to reach this URL from the URL that was linked (C4)."""
    next_attempt_at: Mapped[datetime | None]
    status: Mapped[int | None] = mapped_column(Integer)
    final_url: Mapped[str | None] = mapped_column(Text)
    content_type: Mapped[str | None] = mapped_column(String(200))
    etag: Mapped[str | None] = mapped_column(Text)
    last_modified: Mapped[str | None] = mapped_column(Text)
    content_hash: Mapped[str | None] = mapped_column(String(64))
    noindex: Mapped[bool | None] = mapped_column(Boolean)
    nofollow: Mapped[bool | None] = mapped_column(Boolean)
    fetched_at: Mapped[datetime | None]
    elapsed_seconds: Mapped[float | None] = mapped_column(Float)
    size_bytes: Mapped[int | None] = mapped_column(BigInteger)
    error: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(String(32))
    """Why it was not fetched: robots, nofollow, scope, trap, deferred, ..."""
    reason_detail: Mapped[str | None] = mapped_column(Text)
    """JSON: the deciding robots line, the scope rule, the time deferred until, ..."""
    kind: Mapped[str] = mapped_column(String(16), default=PAGE, server_default=PAGE)
    """``page`` or ``sitemap``: how the body is read (S1)."""
    canonical_url: Mapped[str | None] = mapped_column(Text)
    """The page's ``<link rel="canonical">``, absolute, when it names one (S4)."""
    sitemap_lastmod: Mapped[datetime | None]
    """The newest ``lastmod`` a sitemap gave for this URL (S3)."""
    check_method: Mapped[str | None] = mapped_column(String(16))
    """For a check: ``HEAD``, or ``HEAD,GET`` when HEAD was refused (L2)."""
    anchors: Mapped[str | None] = mapped_column(Text)
    """With fragment checking on, an HTML page's ids and ``<a name>``s, one a line (L4)."""


class LinkRecord(Base):
    """A link between two URLs, so a report can name every page that links to a broken one.
    Indexed by target only when read (``link_targets``)."""

    __tablename__ = "links"

    from_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    to_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    nofollow: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str | None] = mapped_column(String(200))
    """The link's text (an image's alt), whitespace collapsed: for reports (L1)."""
    line: Mapped[int | None] = mapped_column(Integer)
    """The line of the linking element in the page."""
    resource: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """An image, stylesheet, script, frame or media source rather than a link (L3)."""


class LinkFragmentRecord(Base):
    """A ``#fragment`` a page links to on another page (L4): checked against its anchors."""

    __tablename__ = "link_fragments"

    from_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    to_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    fragment: Mapped[str] = mapped_column(String(300), primary_key=True)
    line: Mapped[int | None] = mapped_column(Integer)


class PassResultRecord(Base):
    """A URL's outcome at the end of a finished pass, kept when a recrawl starts the next."""

    __tablename__ = "pass_results"

    pass_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    url_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    status: Mapped[int | None] = mapped_column(Integer)
    content_hash: Mapped[str | None] = mapped_column(String(64))
    final_url: Mapped[str | None] = mapped_column(Text)
    noindex: Mapped[bool | None] = mapped_column(Boolean)
    nofollow: Mapped[bool | None] = mapped_column(Boolean)
    reason: Mapped[str | None] = mapped_column(String(32))
    fetched_at: Mapped[datetime | None]


class SitemapRecord(Base):
    """A URL read as a sitemap: why it was read and what reading it found (S1, S2)."""

    __tablename__ = "sitemaps"

    url_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    source: Mapped[str] = mapped_column(String(16))
    """``robots`` (a Sitemap line), ``guess`` (/sitemap.xml) or ``index`` (a sitemap index)."""
    for_origin: Mapped[str] = mapped_column(String(330))
    """The origin whose robots.txt vouches for it: it may list that origin's URLs besides its
    own (sitemaps.org's cross-submission rule)."""
    nesting: Mapped[int] = mapped_column(Integer, default=0)
    """0 for a sitemap named by robots.txt or guessed; one more for each index above it."""
    format: Mapped[str | None] = mapped_column(String(16))
    """After reading: urlset, index, text, feed or unknown."""
    entries: Mapped[int | None] = mapped_column(Integer)
    other_origins: Mapped[int] = mapped_column(Integer, default=0)
    """Listed URLs of origins it may not list: ignored (S2)."""
    truncated: Mapped[bool | None] = mapped_column(Boolean)
    problems: Mapped[str | None] = mapped_column(Text)
    """JSON list of what could not be read, each with its line where known."""


class SitemapEntryRecord(Base):
    """A URL listed by a sitemap, with the ``lastmod`` it gave (S3, S4)."""

    __tablename__ = "sitemap_entries"
    __table_args__ = (Index("ix_sitemap_entries_url_id", "url_id"),)

    sitemap_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    url_id: Mapped[int] = mapped_column(_ID, ForeignKey("urls.id"), primary_key=True)
    lastmod: Mapped[datetime | None]
    lastmod_text: Mapped[str | None] = mapped_column(Text)
    line: Mapped[int | None] = mapped_column(Integer)


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
    return cast(Table, UrlRecord.__table__).c.state == literal_column(f"'{state}'")
