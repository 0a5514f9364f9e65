"""Use preferences: what a site says of the use of its content (search, AI input, AI training)
[U1-U6]. Pure: no I/O.

    >>> from politecrawl.usage import Use, UsePreferences
    >>> UsePreferences().verdict(Use.AI_TRAIN).stance.value
    'no preference'

``values`` holds the uses, the three stances, ``Signal`` and the combination rule; ``statements``
reads each vocabulary's values (Content Signals, the IETF aipref vocabulary, TDMRep, ``noai``)
onto the uses. Where the statements are found is read elsewhere: robots.txt lines by
``politecrawl.robots.preferences``, tdmrep.json and a page's headers and metas by
``politecrawl.preferences``.
"""

from politecrawl.usage.values import (
    NO_PREFERENCES,
    Protocol,
    Signal,
    Stance,
    UsageWarning,
    Use,
    UsePreferences,
    UseVerdict,
    combine,
    fetch_permitted,
    signal,
    use_of_purpose,
)

__all__ = [
    "NO_PREFERENCES",
    "Protocol",
    "Signal",
    "Stance",
    "UsageWarning",
    "Use",
    "UsePreferences",
    "UseVerdict",
    "combine",
    "fetch_permitted",
    "signal",
    "use_of_purpose",
]
