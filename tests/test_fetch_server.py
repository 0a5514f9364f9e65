"""Fetch against a real HTTP server on 127.0.0.1, for what ``responses`` cannot simulate (C7, O6):
deadlines against a trickling server, gzip bombs under a memory bound, refused connections,
oversized headers, bodies beyond the cap, connection reuse."""

from __future__ import annotations

import functools
import gzip
import http.server
import socket
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable

import pytest

from politecrawl.errors import FetchError
from politecrawl.fetch import Fetcher, FetchLimits
from politecrawl.fetch.connect import AddressGuard

AGENT = "politecrawl/0.1 (+https://example.org/bot)"
MIB = 1024 * 1024

Route = Callable[["Handler"], None]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so connection reuse can be seen
    server: Server

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.client_address[1], dict(self.headers.items())))
        self.server.routes[self.path.partition("?")[0]](self)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def reply(self, status: int, body: bytes, headers: list[tuple[str, str]] = ()) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def trickle(self, status: int, size: int, gap_seconds: float, headers=()) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.wfile.flush()
        for _ in range(size):
            if self.server.stopping.wait(gap_seconds):
                return
            self.wfile.write(b"x")  # raises once the client has hung up, ending the handler


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Route] = {}
        self.seen: list[tuple[str, int, dict[str, str]]] = []
        self.stopping = threading.Event()

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that hangs up mid-body is what several tests do on purpose

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


@pytest.fixture
def server():
    server = Server()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()
    thread.join()


def make_fetcher(**limits) -> Fetcher:
    # The server's address as a crawl's seed: the anti-steering guard lets a connection reach a
    # non-public address only when the seeds or the settings name it (connect).
    guard = AddressGuard(allowed_hosts=lambda: frozenset({"127.0.0.1"}))
    return Fetcher(user_agent=AGENT, limits=FetchLimits(**limits), address_guard=guard)


# --- the whole-response deadline (C7) -------------------------------------------------------------


def test_c7_trickling_server_cut_off_at_deadline(server):
    server.routes["/slow"] = lambda h: h.trickle(200, 10_000, 0.1)
    with make_fetcher(response_timeout_seconds=1.0) as fetcher:
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"response took longer than 1 s") as caught:
            fetcher.fetch(server.url("/slow"))
        took = time.monotonic() - started
    assert caught.value.temporary
    assert 0.9 <= took < 1.6


def test_c7_a_body_still_arriving_at_the_deadline_is_cut_off(server):
    # Ten bytes a second for a 10,000-byte body: some arrive, the rest would take 1,000 s.
    server.routes["/slow"] = lambda h: h.trickle(200, 10_000, 0.1)
    cut_off = r"cut off while its body was arriving"
    with (
        make_fetcher(response_timeout_seconds=1.0) as fetcher,
        pytest.raises(FetchError, match=cut_off) as caught,
    ):
        fetcher.fetch(server.url("/slow"))
    assert caught.value.cut_off
    assert caught.value.timed_out
    assert caught.value.closed_early  # P2: the server ends it after our close


def test_c7_headers_then_silence_is_a_time_out_not_a_cut_off(server):
    # The status and headers come at once, then not a byte: the server stalled, which another
    # attempt may find over; only a body that was arriving is "cut off".
    server.routes["/stalls"] = lambda h: h.trickle(200, 10, 5.0)
    with (
        make_fetcher(response_timeout_seconds=0.5) as fetcher,
        pytest.raises(FetchError, match=r"longer than 0\.5 s") as caught,
    ):
        fetcher.fetch(server.url("/stalls"))
    assert caught.value.timed_out
    assert not caught.value.cut_off
    assert caught.value.closed_early  # the server was still in the exchange: P2 counts it later


def test_c7_socket_waits_never_outlast_the_deadline(server):
    # A byte every 0.8 s: each socket read succeeds, but the wait after the first byte must be
    # bounded by the 0.2 s left, not by a full per-read time-out.
    server.routes["/gaps"] = lambda h: h.trickle(200, 100, 0.8)
    with make_fetcher(response_timeout_seconds=1.0) as fetcher:
        started = time.monotonic()
        with pytest.raises(FetchError, match="longer than 1 s"):
            fetcher.fetch(server.url("/gaps"))
        assert time.monotonic() - started < 1.45


def test_c7_headers_that_trickle_are_cut_off_at_the_deadline(server):
    """One deadline from the request to the last byte: a status line and headers sent a byte at
    a time (each socket read succeeds) are cut off too, and the connection is closed, so the
    server sees the crawler hang up long before it has sent them all."""
    # The status line at once, then the headers a byte every 20 ms: the headers are arriving
    # when the deadline comes, however late a busy machine schedules the server's thread. (The
    # status line too was trickled once; on a loaded machine its 17 bytes could take the whole
    # 0.5 s, and the answer was then, rightly, a stall rather than a cut.)
    status = b"HTTP/1.1 200 OK\r\n"
    head = status + b"".join(b"X-Pad-%d: x\r\n" % i for i in range(40))
    sent = []

    def trickle_headers(handler: Handler) -> None:
        try:
            handler.wfile.write(status)
            handler.wfile.flush()
            sent.extend(range(len(status)))
            for index in range(len(status), len(head)):
                if server.stopping.wait(0.02):
                    return
                handler.wfile.write(head[index : index + 1])
                handler.wfile.flush()
                sent.append(index)
        except OSError:
            sent.append("hung up")

    server.routes["/slow-head"] = trickle_headers
    fetcher = make_fetcher(response_timeout_seconds=0.5)
    with fetcher, pytest.raises(FetchError, match=r"longer than 0\.5 s") as caught:
        fetcher.fetch(server.url("/slow-head"))
    assert caught.value.temporary
    # The headers were still arriving: cut off, not a stall.
    assert caught.value.cut_off
    assert "cut off while its headers were arriving" in str(caught.value)
    deadline = time.monotonic() + 10
    while "hung up" not in sent and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "hung up" in sent  # the connection was closed, not left open for the server
    assert len(sent) - 1 < len(head)  # cut off before the headers were all sent


def test_c7_a_tls_handshake_that_trickles_is_cut_off_at_the_deadline():
    """The deadline runs from the connection: a server that answers a ClientHello with the start
    of a TLS record (a 16 KiB handshake announced, 200 bytes sent, a byte every 20 ms, so each
    socket read succeeds) is cut off too, as a time-out, and sees the crawler hang up before its
    200 bytes are out. (Without the deadline, only the 5 s connect time-out ends the handshake.)"""
    record = b"\x16\x03\x03\x40\x00" + b"\x02" * 195
    listener = socket.create_server(("127.0.0.1", 0))
    stopping = threading.Event()
    sent: list[object] = []

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(4096)  # the ClientHello
            try:
                for index in range(len(record)):
                    if stopping.wait(0.02):
                        return
                    connection.sendall(record[index : index + 1])
                    sent.append(index)
            except OSError:
                sent.append("hung up")
                return
            stopping.wait(10)  # all sent, and the crawler still waiting: hold the connection

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    port = listener.getsockname()[1]
    try:
        fetcher = make_fetcher(connect_timeout_seconds=5.0, response_timeout_seconds=0.5)
        with fetcher, pytest.raises(FetchError, match=r"longer than 0\.5 s") as caught:
            fetcher.fetch(f"https://127.0.0.1:{port}/")
        assert caught.value.temporary
        thread.join(10)  # returns once the server has seen the hang-up (or after 10 s)
    finally:
        stopping.set()
        listener.close()
    assert "hung up" in sent  # the socket was shut down, not left to the server
    assert len(sent) - 1 < len(record)


def test_c7_silent_server_times_out_before_headers(server):
    server.routes["/mute"] = lambda h: server.stopping.wait(5)
    with make_fetcher(response_timeout_seconds=0.5) as fetcher:
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"longer than 0\.5 s") as caught:
            fetcher.fetch(server.url("/mute"))
        assert time.monotonic() - started < 1.2
    assert caught.value.temporary


def test_c4_c7_redirect_body_is_not_drained(server):
    # requests' Session.send reads a whole 3xx body even with allow_redirects=False; the fetcher
    # must not, or a trickling redirect would hold it far past its deadline.
    server.routes["/moved"] = lambda h: h.trickle(302, 10_000, 0.1, [("Location", "/x")])
    with make_fetcher(response_timeout_seconds=1.0) as fetcher:
        started = time.monotonic()
        with pytest.raises(FetchError, match="longer than 1 s"):
            fetcher.fetch(server.url("/moved"))
        assert time.monotonic() - started < 1.6
    assert [path for path, _, _ in server.seen] == ["/moved"]


# --- gzip bombs and the byte cap (C7) -------------------------------------------------------------


def many_member_bomb() -> bytes:
    """1 GiB of zeros as 1024 gzip members of 1 MiB each: about 1 KiB per MiB on the wire."""
    return gzip.compress(b"\0" * MIB, compresslevel=9) * 1024


@functools.cache
def one_member_bomb() -> bytes:
    """256 MiB of zeros in a single deflate stream, so only zlib's max_length can stop it."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * MIB
    return b"".join([*(packer.compress(block) for _ in range(256)), packer.flush()])


@pytest.mark.parametrize("make_bomb", [many_member_bomb, one_member_bomb])
@pytest.mark.parametrize("status", [200, 301])
def test_c7_gzip_bomb_cut_at_cap_without_inflating(server, make_bomb, status):
    bomb = make_bomb()
    assert len(bomb) < 1.1 * MIB  # for at least 256 MiB of zeros
    headers = [("Content-Encoding", "gzip"), ("Location", "/elsewhere")]
    server.routes["/bomb"] = lambda h: h.reply(status, bomb, headers)
    cap = 2 * MIB
    with make_fetcher(max_body_bytes=cap) as fetcher:
        tracemalloc.start()
        try:
            got = fetcher.fetch(server.url("/bomb"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert got.status == status
    assert got.truncated
    assert got.body == b"\0" * cap
    print(f"{make_bomb.__name__}: peak {peak / MIB:.2f} MiB")
    assert peak < 3 * cap, f"peak {peak / MIB:.1f} MiB for a {cap / MIB:.0f} MiB cap"


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_c7_body_larger_than_cap_then_connection_still_usable(server, chunked):
    big = bytes(range(256)) * 4096  # 1 MiB

    def send_big(h: Handler) -> None:
        if not chunked:
            h.reply(200, big)
            return
        h.send_response(200)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        for start in range(0, len(big), 50_000):
            piece = big[start : start + 50_000]
            h.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        h.wfile.write(b"0\r\n\r\n")

    server.routes["/big"] = send_big
    server.routes["/small"] = lambda h: h.reply(200, b"small")
    with make_fetcher(max_body_bytes=100_000) as fetcher:
        got = fetcher.fetch(server.url("/big"))
        assert got.truncated
        assert got.body == big[:100_000]
        assert fetcher.fetch(server.url("/small")).body == b"small"
        assert not fetcher.fetch(server.url("/big"), max_bytes=2 * MIB).truncated


def test_connections_are_pooled(server):
    server.routes["/a"] = lambda h: h.reply(200, b"a")
    with make_fetcher() as fetcher:
        for _ in range(3):
            fetcher.fetch(server.url("/a"))
    assert len({port for _, port, _ in server.seen}) == 1  # one connection, kept alive


def test_real_headers_and_gzip(server):
    headers = [("Content-Encoding", "gzip"), ("X-Robots-Tag", "noindex"),
               ("X-Robots-Tag", "nofollow"), ("Retry-After", "3")]  # fmt: skip
    server.routes["/r"] = lambda h: h.reply(503, gzip.compress(b"busy"), headers)
    with make_fetcher() as fetcher:
        got = fetcher.fetch(server.url("/r"), etag='"e1"')
    assert (got.status, got.body) == (503, b"busy")
    assert got.header("X-Robots-Tag") == "noindex, nofollow"
    sent = server.seen[0][2]
    assert sent["User-Agent"] == AGENT
    assert sent["Accept-Encoding"] == "gzip, deflate"
    assert sent["If-None-Match"] == '"e1"'


def test_c4_real_redirect_is_one_hop(server):
    server.routes["/from"] = lambda h: h.reply(301, b"moved", [("Location", "to?x=1")])
    server.routes["/to"] = lambda h: h.reply(200, b"target")
    with make_fetcher() as fetcher:
        got = fetcher.fetch(server.url("/from"))
    assert got.location == server.url("/to?x=1")
    assert [path for path, _, _ in server.seen] == ["/from"]


# --- failures (O6) --------------------------------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_o6_connection_refused_is_temporary():
    url = f"http://127.0.0.1:{closed_port()}/robots.txt"
    with make_fetcher() as fetcher, pytest.raises(FetchError, match="refused") as caught:
        fetcher.fetch(url)
    assert caught.value.temporary
    assert caught.value.url == url


def test_o6_environment_proxy_never_used(server, monkeypatch):
    proxy_port = closed_port()  # were the proxy used, the connection would be refused
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy_port}")
    monkeypatch.setenv("NO_PROXY", "")
    server.routes["/p"] = lambda h: h.reply(200, b"direct")
    with make_fetcher() as fetcher:
        assert fetcher.fetch(server.url("/p")).body == b"direct"


@pytest.mark.parametrize(
    "headers",
    [[("X-Huge", "h" * 70_000)], [(f"X-{n}", "v") for n in range(120)]],
    ids=["long-line", "too-many"],
)
def test_o6_oversized_headers_are_temporary(server, headers):
    server.routes["/h"] = lambda h: h.reply(200, b"ok", headers)
    with make_fetcher() as fetcher, pytest.raises(FetchError) as caught:
        fetcher.fetch(server.url("/h"))
    assert caught.value.temporary


def test_o6_body_shorter_than_announced_is_temporary(server):
    def short(h: Handler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", "100")
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(b"only ten..")
        h.close_connection = True

    server.routes["/short"] = short
    with make_fetcher() as fetcher, pytest.raises(FetchError) as caught:
        fetcher.fetch(server.url("/short"))
    assert caught.value.temporary


def test_o6_garbage_status_line_is_temporary():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]

        def answer() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(b"SMTP ready\r\n\r\n")

        worker = threading.Thread(target=answer)
        worker.start()
        with make_fetcher() as fetcher, pytest.raises(FetchError) as caught:
            fetcher.fetch(f"http://127.0.0.1:{port}/")
        worker.join()
    assert caught.value.temporary
