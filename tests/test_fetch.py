"""Fetch unit tests over the ``responses`` mock: statuses, headers, one hop, caps, error mapping.

What needs a real socket (deadlines, gzip bombs, refused connections) is in test_fetch_server.py.
"""

from __future__ import annotations

import gzip
import itertools
import socket
import threading
import zlib
from datetime import UTC, datetime, timedelta

import pytest
import requests
import responses
from hypothesis import example, given, settings, strategies as st

from politecrawl.errors import FetchError
from politecrawl.fetch import (
    Fetcher,
    FetchLimits,
    FetchResult,
    HostNotFoundError,
    host_not_found_in,
    new_session,
)
from politecrawl.fetch.body import _Inflater
from politecrawl.fetch.connect import AddressGuard

AGENT = "politecrawl/0.1 (+https://example.org/bot)"
URL = "http://example.org/dir/page.html"
NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def mocked():
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock


@pytest.fixture
def fetcher():
    with Fetcher(user_agent=AGENT) as fetcher:
        yield fetcher


def result(**overrides) -> FetchResult:
    fields = {"url": URL, "status": 200, "headers": (), "body": b"", "truncated": False,
              "elapsed_seconds": 0.0, "location": None}  # fmt: skip
    fields.update(overrides)
    return FetchResult(**fields)


# --- statuses are results, never exceptions ------------------------------------------------------


@pytest.mark.parametrize("status", [200, 204, 304, 401, 403, 404, 410, 429, 500, 503])
def test_o3_o6_every_status_is_a_result(mocked, fetcher, status):
    mocked.get(URL, status=status, body=b"" if status in (204, 304) else b"text")
    got = fetcher.fetch(URL)
    assert got.status == status
    assert got.url == URL
    assert got.location is None
    assert not got.truncated
    assert got.elapsed_seconds >= 0


def test_body_and_content_type(mocked, fetcher):
    mocked.get(URL, body=b"<html>hi</html>", content_type="text/html; charset=utf-8")
    got = fetcher.fetch(URL)
    assert got.body == b"<html>hi</html>"
    assert got.content_type == "text/html; charset=utf-8"
    assert got.header("content-TYPE") == got.content_type


# --- headers --------------------------------------------------------------------------------------


def test_t4_repeated_x_robots_tag_kept_in_order(mocked, fetcher):
    headers = [("X-Robots-Tag", "noindex"), ("X-Robots-Tag", "politecrawl: nofollow")]
    mocked.get(URL, body=b"", headers=headers)
    got = fetcher.fetch(URL)
    assert [v for k, v in got.headers if k.lower() == "x-robots-tag"] == [
        "noindex",
        "politecrawl: nofollow",
    ]
    assert got.header("x-robots-tag") == "noindex, politecrawl: nofollow"
    assert got.header("X-Missing") is None


def test_e3_validators_exposed(mocked, fetcher):
    headers = {"ETag": '"abc"', "Last-Modified": "Sun, 01 Mar 2026 10:00:00 GMT"}
    mocked.get(URL, body=b"x", headers=headers)
    got = fetcher.fetch(URL)
    assert got.etag == '"abc"'
    assert got.last_modified == "Sun, 01 Mar 2026 10:00:00 GMT"


# --- what is sent ---------------------------------------------------------------------------------


def test_p5_user_agent_and_accept_encoding_on_every_request(mocked, fetcher):
    mocked.get(URL, body=b"a")
    mocked.get("http://other.example/robots.txt", status=404)
    fetcher.fetch(URL)
    fetcher.fetch("http://other.example/robots.txt")
    for call in mocked.calls:
        assert call.request.headers["User-Agent"] == AGENT
        assert call.request.headers["Accept-Encoding"] == "gzip, deflate"


def test_p4_only_get(mocked, fetcher):
    mocked.get(URL, body=b"a")
    fetcher.fetch(URL)
    assert [call.request.method for call in mocked.calls] == ["GET"]


def test_e3_conditional_headers_sent(mocked, fetcher):
    mocked.get(URL, status=304)
    got = fetcher.fetch(URL, etag='W/"v1"', last_modified="Sun, 01 Mar 2026 10:00:00 GMT")
    sent = mocked.calls[0].request.headers
    assert sent["If-None-Match"] == 'W/"v1"'
    assert sent["If-Modified-Since"] == "Sun, 01 Mar 2026 10:00:00 GMT"
    assert got.status == 304
    assert got.location is None


def test_e3_no_conditional_headers_unless_asked(mocked, fetcher):
    mocked.get(URL, body=b"a")
    fetcher.fetch(URL)
    sent = mocked.calls[0].request.headers
    assert "If-None-Match" not in sent
    assert "If-Modified-Since" not in sent


@pytest.mark.parametrize("bad", ["", "   ", "a\r\nX-Evil: 1", "\x00", "\u2603"])
def test_e3_unsendable_validator_dropped_not_raised(mocked, fetcher, bad):
    mocked.get(URL, body=b"a")
    fetcher.fetch(URL, etag=bad, last_modified=bad)
    sent = mocked.calls[0].request.headers
    assert "If-None-Match" not in sent
    assert "X-Evil" not in sent


# --- one hop per call -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("/new", "http://example.org/new"),
        ("other.html", "http://example.org/dir/other.html"),
        ("../up", "http://example.org/up"),
        ("//cdn.example/x", "http://cdn.example/x"),
        ("https://example.org/secure", "https://example.org/secure"),
        ("?q=1", "http://example.org/dir/page.html?q=1"),
    ],
)
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_c4_o7_redirect_not_followed_location_resolved(mocked, fetcher, status, location, expected):
    mocked.get(URL, status=status, headers={"Location": location})
    got = fetcher.fetch(URL)
    assert got.status == status
    assert got.location == expected
    assert len(mocked.calls) == 1  # one hop: the target was never requested


def test_c4_redirect_without_location(mocked, fetcher):
    mocked.get(URL, status=302)
    assert fetcher.fetch(URL).location is None


def test_c4_redirect_with_unusable_location(mocked, fetcher):
    mocked.get(URL, status=301, headers={"Location": "http://[::1/broken"})
    got = fetcher.fetch(URL)
    assert got.location is None
    assert got.header("Location") == "http://[::1/broken"


def test_location_ignored_outside_redirects(mocked, fetcher):
    mocked.get(URL, status=201, headers={"Location": "/created"})
    assert fetcher.fetch(URL).location is None


# --- decoding and the byte cap --------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["gzip", "x-gzip", "GZIP"])
def test_c7_gzip_body_decoded(mocked, fetcher, coding):
    mocked.get(URL, body=gzip.compress(b"User-agent: *\nDisallow: /\n"),
               headers={"Content-Encoding": coding})  # fmt: skip
    assert fetcher.fetch(URL).body == b"User-agent: *\nDisallow: /\n"


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS], ids=["zlib", "raw"])
def test_c7_deflate_body_decoded_either_framing(mocked, fetcher, wbits):
    packer = zlib.compressobj(wbits=wbits)
    body = packer.compress(b"hello deflate" * 50) + packer.flush()
    mocked.get(URL, body=body, headers={"Content-Encoding": "deflate"})
    assert fetcher.fetch(URL).body == b"hello deflate" * 50


def test_c7_multi_member_gzip_and_trailing_garbage(mocked, fetcher):
    body = gzip.compress(b"one ") + gzip.compress(b"two") + b"\x00\x00garbage"
    mocked.get(URL, body=body, headers={"Content-Encoding": "gzip"})
    assert fetcher.fetch(URL).body == b"one two"


def test_c7_corrupt_gzip_is_temporary(mocked, fetcher):
    mocked.get(URL, body=b"this is not gzip at all", headers={"Content-Encoding": "gzip"})
    with pytest.raises(FetchError) as caught:
        fetcher.fetch(URL)
    assert caught.value.temporary
    assert caught.value.closed_early  # the rest is not read: the server ends it later (P2)


@pytest.mark.parametrize("coding", ["br", "zstd", "gzip, gzip", "compress"])
def test_c7_unrequested_encoding_is_temporary(mocked, fetcher, coding):
    mocked.get(URL, body=b"\x8b\x00??", headers={"Content-Encoding": coding})
    with pytest.raises(FetchError, match="unsupported Content-Encoding") as caught:
        fetcher.fetch(URL)
    assert caught.value.temporary
    assert caught.value.closed_early


def test_e3_empty_304_with_any_encoding_is_fine(mocked, fetcher):
    mocked.get(URL, status=304, body=b"", headers={"Content-Encoding": "br"})
    assert fetcher.fetch(URL, etag='"v"').status == 304


def test_c7_identity_encoding_is_plain(mocked, fetcher):
    mocked.get(URL, body=b"plain", headers={"Content-Encoding": "identity"})
    assert fetcher.fetch(URL).body == b"plain"


@pytest.mark.parametrize(("size", "truncated"), [(99, False), (100, False), (101, True)])
def test_c7_cap_and_truncated_flag(mocked, size, truncated):
    mocked.get(URL, body=b"x" * size)
    with Fetcher(user_agent=AGENT, limits=FetchLimits(max_body_bytes=100)) as fetcher:
        got = fetcher.fetch(URL)
    assert got.body == b"x" * min(size, 100)
    assert got.truncated is truncated


def test_c7_cap_applies_to_decoded_bytes(mocked):
    mocked.get(URL, body=gzip.compress(b"z" * 10_000), headers={"Content-Encoding": "gzip"})
    with Fetcher(user_agent=AGENT, limits=FetchLimits(max_body_bytes=1000)) as fetcher:
        got = fetcher.fetch(URL)
    assert got.body == b"z" * 1000
    assert got.truncated


def test_o8_max_bytes_overrides_limit_per_call(mocked, fetcher):
    mocked.get(URL, body=b"r" * 600 * 1024)
    got = fetcher.fetch(URL, max_bytes=512 * 1024)
    assert len(got.body) == 512 * 1024
    assert got.truncated


def test_zero_cap_reads_nothing_but_says_so(mocked, fetcher):
    mocked.get(URL, body=b"abc")
    got = fetcher.fetch(URL, max_bytes=0)
    assert (got.body, got.truncated) == (b"", True)


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=3000),
    members=st.integers(1, 3),
    framing=st.sampled_from(["gzip", "zlib", "raw"]),
    cuts=st.lists(st.integers(0, 4000), max_size=6),
    cap=st.integers(0, 5000),
)
def test_c7_inflater_matches_zlib_for_any_split(data, members, framing, cuts, cap):
    if framing == "gzip":
        encoded, expected = gzip.compress(data) * members, data * members
    else:
        packer = zlib.compressobj(wbits=zlib.MAX_WBITS if framing == "zlib" else -zlib.MAX_WBITS)
        encoded, expected = packer.compress(data) + packer.flush(), data
    inflater = _Inflater(is_gzip=framing == "gzip")
    body = bytearray()
    bounds = [0, *sorted(c % (len(encoded) + 1) for c in cuts), len(encoded)]
    for start, end in itertools.pairwise(bounds):
        if len(body) > cap:
            break
        before = len(body)
        inflater.inflate_into(body, encoded[start:end], cap + 1 - len(body))
        assert len(body) - before <= cap + 1 - before  # never more than asked
    assert bytes(body[:cap]) == expected[:cap]
    assert (len(body) > cap) == (len(expected) > cap)


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["example.org/page", "http://", "ftp://example.org/file", "javascript:alert(1)",
     "mailto:a@example.org", "", "http://exa mple\x00.org/"],
)  # fmt: skip
def test_b1_invalid_url_is_permanent(fetcher, url):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(FetchError) as caught:
            fetcher.fetch(url)
        assert not mock.calls  # nothing was sent
    assert not caught.value.temporary
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("raised", "words"),
    [
        (requests.ConnectionError(ConnectionRefusedError(111, "Connection refused")), "refused"),
        (requests.ConnectionError(socket.gaierror(-2, "Name or service not known")), "Name"),
        (requests.exceptions.ConnectTimeout("connect timed out"), "no connection within 10 s"),
        (requests.exceptions.ReadTimeout("read timed out"), "no answer within 30 s"),
        (requests.exceptions.SSLError("certificate verify failed"), "certificate"),
        (requests.exceptions.ChunkedEncodingError("bad chunk"), "bad chunk"),
        (requests.exceptions.ProxyError("proxy down"), "proxy"),
    ],
)
def test_o6_network_failures_are_temporary(mocked, fetcher, raised, words):
    mocked.get(URL, body=raised)
    with pytest.raises(FetchError, match=words) as caught:
        fetcher.fetch(URL)
    assert caught.value.temporary
    assert caught.value.url == URL


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.builds("http://{}/{}".format, st.text(max_size=20), st.text(max_size=20)),
        st.builds("https://{}".format, st.text(max_size=30)),
    )
)
@example("A://\u0100:@")  # found by hypothesis: user info outside Latin-1 broke Basic auth
@example("http://:\u0100@127.0.0.1:1/")
def test_b1_any_url_gives_a_result_or_fetch_error(url):
    failure: FetchError | None = None
    with (
        responses.RequestsMock(assert_all_requests_are_fired=False),
        Fetcher(user_agent=AGENT) as fetcher,
    ):
        try:
            fetcher.fetch(url)
        except FetchError as error:
            failure = error
    if failure is not None:
        assert failure.url == url
        assert "\n" not in str(failure).removeprefix(f"{url}: ")  # our words are one line


# --- Retry-After (P3) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 0 ", 0.0),
        ("Sun, 01 Mar 2026 12:02:00 GMT", 120.0),  # IMF-fixdate
        ("Sunday, 01-Mar-26 12:00:30 GMT", 30.0),  # RFC 850
        ("Sun Mar  1 12:01:00 2026", 60.0),  # asctime
        ("Sun, 01 Mar 2026 11:00:00 GMT", 0.0),  # in the past: no wait
        ("9" * 5000, 365 * 24 * 3600.0),  # absurd: capped to a finite figure
        ("-5", None),
        ("1.5", None),
        ("soon", None),
        ("", None),
        ("\u0661\u0662", None),  # Arabic-Indic digits are not delay-seconds
    ],
)
def test_p3_retry_after(value, seconds):
    got = result(status=503, headers=(("Retry-After", value),))
    assert got.retry_after_seconds(NOW) == seconds


def test_p3_retry_after_absent():
    assert result(status=429).retry_after_seconds(NOW) is None


def test_p3_retry_after_first_of_repeated_headers():
    headers = (("Retry-After", "Sun, 01 Mar 2026 12:00:10 GMT"), ("retry-after", "999"))
    assert result(headers=headers).retry_after_seconds(NOW) == 10.0


def test_p3_retry_after_uses_the_now_given():
    got = result(headers=(("Retry-After", "Sun, 01 Mar 2026 12:02:00 GMT"),))
    assert got.retry_after_seconds(NOW + timedelta(seconds=60)) == 60.0


def test_p3_retry_after_needs_an_aware_now():
    with pytest.raises(ValueError, match="aware"):
        result().retry_after_seconds(datetime(2026, 3, 1))


def test_p3_retry_after_through_fetch(mocked, fetcher):
    mocked.get(URL, status=429, headers={"Retry-After": "7"})
    assert fetcher.fetch(URL).retry_after_seconds(NOW) == 7.0


# --- the Fetcher object ---------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["", "  ", "bot\r\nX: y", "bøt"])
def test_p5_user_agent_must_be_sendable(agent):
    with pytest.raises(ValueError, match="User-Agent"):
        Fetcher(user_agent=agent)


@pytest.mark.parametrize(
    "limits",
    [{"connect_timeout_seconds": 0}, {"response_timeout_seconds": -1},
     {"response_timeout_seconds": float("nan")}, {"connect_timeout_seconds": float("inf")},
     {"max_body_bytes": -1}],
)  # fmt: skip
def test_c7_limits_validated(limits):
    with pytest.raises(ValueError, match="must"):
        FetchLimits(**limits)


def test_negative_max_bytes_rejected(fetcher):
    with pytest.raises(ValueError, match="max_bytes"):
        fetcher.fetch(URL, max_bytes=-1)


def test_one_session_per_thread_all_closed(mocked):
    mocked.get(URL, body=b"a")
    made: list[requests.Session] = []

    def factory() -> requests.Session:
        made.append(new_session())
        return made[-1]

    fetcher = Fetcher(user_agent=AGENT, session_factory=factory)
    fetcher.fetch(URL)
    fetcher.fetch(URL)
    worker = threading.Thread(target=fetcher.fetch, args=(URL,))
    worker.start()
    worker.join()
    assert len(made) == 2  # the main thread's session was reused
    fetcher.close()
    with pytest.raises(RuntimeError, match="closed"):
        fetcher.fetch(URL)


def test_default_session_ignores_environment():
    session = new_session()
    assert not session.trust_env  # no proxy, netrc or CA bundle from the environment
    session.close()


def _as_sent(request: requests.PreparedRequest) -> tuple:
    return (
        request.method,
        request.url,
        sorted(request.headers.items()),
        request.body,
        {event: list(hooks) for event, hooks in request.hooks.items()},
    )


def _sessions() -> list[requests.Session]:
    plain = new_session()
    with_cookie = new_session()
    with_cookie.cookies.set("session", "abc", domain="example.org", path="/")
    with_cookie.headers["X-Team"] = "crawl"
    with_cookie.headers["Accept-Encoding"] = "identity"
    with_proxy = new_session()
    with_proxy.proxies = {"http": "http://127.0.0.1:9", "https": None}
    with_hook = new_session()
    with_hook.hooks["response"].append(lambda response, **_: response)
    with_auth = new_session()
    with_auth.auth = ("user", "secret")
    with_params = new_session()
    with_params.params = {"q": "1"}
    with_env = requests.Session()  # trust_env on: the environment is read
    return [plain, with_cookie, with_proxy, with_hook, with_auth, with_params, with_env]


@pytest.mark.parametrize("index", range(7))
def test_p5_e3_a_request_is_prepared_as_requests_prepares_it(index):
    from politecrawl.fetch.fetcher import prepare

    session = _sessions()[index]
    url = "http://example.org/a/b?c=d"
    headers = {"User-Agent": "politecrawl/1.0 (+https://example.org/bot)", "If-None-Match": '"v1"'}
    headers["Accept-Encoding"] = None if index == 1 else "gzip"  # None: the session's goes
    for method in ("GET", "HEAD"):
        ours, options = prepare(session, method, url, headers)
        theirs = session.prepare_request(requests.Request(method, url, headers=headers))
        expected = session.merge_environment_settings(theirs.url, {}, True, None, None)
        assert _as_sent(ours) == _as_sent(theirs)
        assert {name: options[name] for name in ("verify", "proxies", "cert")} == {
            name: expected[name] for name in ("verify", "proxies", "cert")
        }


@pytest.mark.parametrize(
    ("code", "not_found"),
    [(socket.EAI_NONAME, True), (socket.EAI_AGAIN, False), (socket.EAI_FAIL, False)],
    ids=["nxdomain", "resolver-timed-out", "servfail"],
)
def test_o6_l1_a_name_that_does_not_exist_is_host_not_found_a_failing_resolver_is_not(
    code, not_found
):
    # No DNS query: the guard's resolver answers as the system's would (O6 for a crawled
    # origin either way; a check records "host not found" at once, L1).
    def resolver(host: str, port: int) -> list[str]:
        raise socket.gaierror(code, "from the test's resolver")

    url = "http://gone.invalid/robots.txt"
    fetcher = Fetcher(user_agent="test/1", address_guard=AddressGuard(resolver=resolver))
    with fetcher, pytest.raises(FetchError) as caught:
        fetcher.fetch(url)
    error = caught.value
    assert error.temporary
    assert isinstance(error, HostNotFoundError) is not_found
    assert not error.host_trouble or not not_found  # no server to back off from
    found = host_not_found_in(f"{error}: robots.txt temporarily unavailable (O6)", url)
    assert (found == "host not found (from the test's resolver)") is not_found
