"""One HTTP GET, one hop, within limits: the only package that talks to requests and urllib3
(layer L2, the HTTP edge).

It owns the User-Agent on every request (P5), GET only (P4), conditional requests (E3), one
redirect hop per call so that the crawler checks every hop against scope and robots (C4, O7),
and the fetch limits of C7: a connect time-out, a deadline on the whole response, and a cap on
the decoded body that a gzip bomb cannot get past. HTTP error statuses are results, not
exceptions; a request that produced no response raises ``FetchError``, temporary (defer, O6) or
not. ``requests.Response`` never leaves this package: callers get a frozen ``FetchResult``.

- ``fetcher``: ``Fetcher``, the request as sent and the hop's answer;
- ``connect``: the connections it opens: ``AddressGuard`` (a host name resolved once, checked
  by the anti-steering guard and pinned), and the one deadline of a response;
- ``body``: the body, read within the deadline and the cap, its content coding undone;
- ``failures``: a request without an answer as a ``FetchError`` (a ``HostNotFoundError`` when
  its host name does not resolve);
- ``values``: ``FetchLimits``, ``FetchRequest``, ``FetchResult``, ``Exchange``.
"""

from politecrawl.errors import FetchError
from politecrawl.fetch.connect import AddressGuard
from politecrawl.fetch.failures import HostNotFoundError, host_not_found_in
from politecrawl.fetch.fetcher import Fetcher, new_session
from politecrawl.fetch.values import Exchange, FetchLimits, FetchRequest, FetchResult

__all__ = [
    "AddressGuard",
    "Exchange",
    "FetchError",
    "FetchLimits",
    "FetchRequest",
    "FetchResult",
    "Fetcher",
    "HostNotFoundError",
    "host_not_found_in",
    "new_session",
]
