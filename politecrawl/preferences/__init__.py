"""Where use preferences are attached beyond robots.txt: tdmrep.json and a page's own headers
and metas [U2, U3, U5]. Pure: no I/O.

``read_tdmrep`` reads ``/.well-known/tdmrep.json``; ``page_preferences`` a response's
``Content-Usage``, ``Content-Signal``, TDMRep headers and metas and ``noai``; ``url_preferences``
joins what robots.txt (``politecrawl.robots.preferences``) and tdmrep.json say of a URL before it
is fetched. The values and the combination rule are ``politecrawl.usage``'s.
"""

from politecrawl.preferences.page import page_preferences, url_preferences
from politecrawl.preferences.tdmrep import NO_TDMREP, TdmRepFile, TdmRule, read_tdmrep

__all__ = [
    "NO_TDMREP",
    "TdmRepFile",
    "TdmRule",
    "page_preferences",
    "read_tdmrep",
    "url_preferences",
]
