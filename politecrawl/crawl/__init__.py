"""The crawl loop: the parts of one crawl composed, and the loop that runs them [C5, P1, T5].

``crawler.Crawler`` is the public way in (``politecrawl.Crawler``). Below it: ``assembly``
builds the object graph from the configuration, ``processes`` runs helper processes,
``workers`` the threads that claim, visit and record, ``visit`` takes one leased URL from
scope to completion (with ``robots_visit`` for robots.txt and its sitemaps, ``failures`` for
requests without a usable answer), ``response_reading`` says what a response becomes, and
``checking`` asks a link for its status. Nothing here talks SQL or HTTP itself: the store and
the fetcher do.
"""
