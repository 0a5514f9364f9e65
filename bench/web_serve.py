"""Serve a generated benchmark web (``web_gen.py``) with nginx, logging every request (issue 7).

nginx from Debian's packages (``apt-get install -y nginx``), started in the foreground with its
own configuration, pid file, temp directories and logs in a directory of ours: one ``server``
block per loopback address, all on one port. Special answers come from the site description:
robots.txt 403/500 (``return``; a 500 is a 500 every time: nginx cannot answer 500 then 200,
and the truth reads a 5xx robots.txt as deferred for the whole run anyway), redirects
(``return 30x``), X-Robots-Tag headers (``add_header``) and the endless trap (a regex
``location`` serving one file). gzip off.

Each request is logged as one line (format ``bench``):

    $msec $request_time $server_addr $server_port $status $body_bytes_sent "$request"
    "$http_user_agent" $connection $connection_requests      (one line)

``$msec`` is when the request was logged (its end, with millisecond resolution) and
``$request_time`` how long it took from its first byte read, so it started at
``msec - request_time`` (both favour the crawler: nginx reads the request after it was sent,
and logs it before the last bytes reach the crawler).

    with Nginx(site_dir, work_dir) as server:   # started, and stopped (log flushed) on exit
        ...  # crawl; server.log_path is the access log
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LOG_FORMAT = (
    "$msec $request_time $server_addr $server_port $status $body_bytes_sent "
    '"$request" "$http_user_agent" $connection $connection_requests'
)


def free_port(addresses: list[str], start: int = 18080) -> int:
    """A TCP port free on every address (checked by binding each)."""
    for port in range(start, start + 2000):
        sockets = []
        try:
            for address in addresses:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sockets.append(sock)
                sock.bind((address, port))
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
        return port
    raise RuntimeError("no free port")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def nginx_config(
    site: dict, work: Path, log_name: str = "access.log", *, silent_port: int | None = None
) -> str:
    """The whole nginx.conf for a site description (``site.json``); ``silent_port``: a port on
    127.0.0.1 that takes connections and never answers, for the pages that hang."""
    lines = [
        "worker_processes 1;",
        "daemon off;",
        "master_process on;",
        f"pid {work / 'nginx.pid'};",
        f"error_log {work / 'error.log'} warn;",
        "worker_rlimit_nofile 16384;",
        "events { worker_connections 4096; }",
        "http {",
        "    include /etc/nginx/mime.types;",
        "    default_type text/html;",
        "    charset utf-8;",
        "    charset_types text/html text/plain;",
        f"    log_format bench '{LOG_FORMAT}';",
        f"    access_log {work / log_name} bench;",
        "    sendfile on;",
        "    tcp_nodelay on;",
        "    gzip off;",
        "    server_tokens off;",
        "    log_not_found off;",
        "    keepalive_timeout 75s;",
        "    keepalive_requests 1000000;",
        # no open_file_cache: with 100,000 files it holds more descriptors than the worker may
        # open, and nginx then answers 500 ("Too many open files")
        "    port_in_redirect on;",
        "    absolute_redirect on;",
        "    server_name_in_redirect off;",
        f"    client_body_temp_path {work / 'tmp-body'};",
        f"    proxy_temp_path {work / 'tmp-proxy'};",
        f"    fastcgi_temp_path {work / 'tmp-fastcgi'};",
        f"    uwsgi_temp_path {work / 'tmp-uwsgi'};",
        f"    scgi_temp_path {work / 'tmp-scgi'};",
    ]
    port = site["port"]
    for host in site["hosts"]:
        lines += [
            "    server {",
            f"        listen {host['address']}:{port};",
            "        server_name _;",
            f"        root {host['root']};",
            "        index index.html;",
            "        location / { }",
            "        location = /_trap.html { internal; }",
        ]
        status = host["robots_status"]
        if host.get("robots_trickle"):
            # A robots.txt that hangs: a byte a second, headers included.
            lines.append(
                "        location = /robots.txt { limit_rate 1; limit_rate_after 0; "
                "sendfile off; output_buffers 1 1; }"
            )
        elif status not in (200, 404):
            lines.append(f"        location = /robots.txt {{ return {status}; }}")
        for path, (code, location, absolute) in host["redirects"].items():
            extra = "" if absolute else "absolute_redirect off; "
            lines.append(f"        location = {path} {{ {extra}return {code} {location}; }}")
        for path, headers in host["headers"].items():
            adds = " ".join(
                f"add_header {name} {_quote(value)};" for name, value in headers.items()
            )
            lines.append(f"        location = {path} {{ {adds} }}")
        for path, code in host.get("errors", {}).items():
            lines.append(f"        location = {path} {{ return {code}; }}")
        for path in host.get("trickle", []):
            # One byte a second from the first byte: a body every crawler must cut off.
            lines.append(
                f"        location = {path} {{ limit_rate 1; limit_rate_after 0; "
                "sendfile off; output_buffers 1 1; }"
            )
        for path in host.get("hang", []):
            # Passed to a socket that never answers: the client hears nothing until it gives up.
            lines.append(
                f"        location = {path} {{ proxy_pass http://127.0.0.1:{silent_port}; "
                "proxy_read_timeout 300s; }"
            )
        if host["trap"]:
            lines.append(f"        location ~ ^{host['trap']}$ {{ try_files /_trap.html =404; }}")
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


class Nginx:
    """nginx serving ``site_dir`` until the context ends; ``log_path`` is its access log."""

    def __init__(self, site_dir: Path, work_dir: Path, *, log_name: str = "access.log") -> None:
        self.site_dir = Path(site_dir)
        self.work = Path(work_dir)
        self.site = json.loads((self.site_dir / "site.json").read_text(encoding="utf-8"))
        self.log_path = self.work / log_name
        self.log_name = log_name
        self.process: subprocess.Popen[bytes] | None = None
        self._silent: socket.socket | None = None

    def start(self) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        if self.log_path.exists():
            self.log_path.unlink()
        silent_port = None
        if any(host.get("hang") for host in self.site["hosts"]):
            # Listening, never accepting: the kernel completes the handshake and keeps the
            # request, and nothing ever answers it (a server that hangs).
            self._silent = socket.socket()
            self._silent.bind(("127.0.0.1", 0))
            self._silent.listen(128)
            silent_port = self._silent.getsockname()[1]
        config = self.work / "nginx.conf"
        config.write_text(
            nginx_config(self.site, self.work, self.log_name, silent_port=silent_port),
            encoding="utf-8",
        )
        self.process = subprocess.Popen(
            [NGINX, "-c", str(config), "-p", str(self.work)],
            stdout=subprocess.DEVNULL,
            stderr=(self.work / "nginx.stderr").open("wb"),
        )
        first = self.site["hosts"][0]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    "nginx exited: " + (self.work / "nginx.stderr").read_text(errors="replace")
                )
            try:
                with socket.create_connection((first["address"], self.site["port"]), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def stop(self) -> None:
        """Graceful stop (SIGQUIT): the access log is complete when this returns."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None
        if self._silent is not None:
            self._silent.close()
            self._silent = None

    def __enter__(self) -> Nginx:
        try:
            self.start()
        except BaseException:
            self.stop()  # nginx that started, the silent socket: nothing left behind
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description="serve a generated web until Ctrl-C")
    parser.add_argument("site", type=Path)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or args.site / "nginx"
    with Nginx(args.site, work) as server:
        print(f"serving {args.site} on port {server.site['port']}; log {server.log_path}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
