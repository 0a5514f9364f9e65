"""The frontier: which URL is fetched next, by whom, and what became of it [C1-C6, P1].

``scheduler.Frontier`` is the one object the crawl uses; the modules beside it each answer one
part of its job: ``enqueue`` (new URLs, once each: ``known_urls``, ``link_sorting``,
``origin_hosts``), ``claims`` and ``statements``/``prepared`` (taking the next due URL with its
host's slot), ``leases`` (leases that expired), ``ends`` (the six ways a lease ends, as
values) and ``outcomes`` (what an end writes), ``group_commit`` (many workers' ends in one
SQLite transaction), ``counts`` (what the frontier holds). ``values`` holds the other values
that cross the store's boundary.
"""

from politecrawl.store.frontier.scheduler import Frontier

__all__ = ["Frontier"]
