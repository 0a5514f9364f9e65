"""An Allow or Disallow value to the paths it stands for, in each reading [F3, F5, M3].

Real files write values the 1996 draft never imagined: several paths on a line (the 1994 form,
F5), a path with a blank in it (``/sitecore modules/``), a stray ``/`` or ``*``
(``Disallow: /anal /``), the field name twice (``Disallow: Disallow: /search?*``), a full URL,
a path without its leading ``/``. ``rule_paths`` reads each as its owner means it where the
reading is not in doubt, and otherwise as the reading that fetches less. Pure text in, text
out; the parser turns the notes into warnings with the line's number. What counts as a blank
(``BLANKS``, ``WORDS``) is said here, and the parser splits User-agent values the same way.
"""

from __future__ import annotations

import re

BLANKS = " \t\v\f"  # str.strip() alone would also eat octets 0x85 and 0xA0 of UTF-8 text
WORDS = re.compile(r"[^ \t\v\f]+")
_HAS_BLANK = re.compile(r"[ \t\v\f]").search
# "Disallow: Disallow: /x", "Disallow: disallow : /x", "Disallow: Disallow /x" (real files)
_REPEATED_NAME = re.compile(r"disallow(?:[ \t\v\f]*:|[ \t\v\f]+(?=/))[ \t\v\f]*", re.IGNORECASE)

Paths = tuple[str, ...]


def rule_paths(value: str, *, is_allow: bool) -> tuple[Paths, Paths, list[str]]:
    """``(the draft's paths, RFC 9309's paths, notes)`` for a stripped Allow or Disallow value;
    no paths: the line matches nothing (M3).

    F5: the draft reads every blank-separated word of a Disallow as a path, to the letter. RFC
    9309's reading splits it only when every word is a path or pattern (``/cgi-bin/ /tmp/``,
    ``/cgi-bin/ *.php``: strict then keeps each out even where the draft's first match would
    not), leaving out a lone ``/`` or ``*`` beside the others; otherwise it reads the value
    whole, as Google does (``/sitecore modules/`` is one folder, ``* http:*`` one pattern).
    """
    if value.startswith("/") and not _HAS_BLANK(value):
        return (value,), (value,), []  # the common case
    if not value:
        return (), (), []  # M3
    notes: list[str] = []
    if is_allow:
        # Never split: a 1994-era file has no Allow, and splitting "/my file.html" would allow
        # all of "/my".
        allowed = _allow_path(value, notes)
        return ((), (), notes) if allowed is None else ((allowed,), (allowed,), notes)
    value = _without_repeated_name(value, notes)
    words = WORDS.findall(value)
    draft = tuple(_disallow_path(word, notes) for word in words)
    if len(words) <= 1:
        return draft, draft, notes
    lone = [word == "/" or not word.strip("*") for word in words]
    if not all(
        is_lone or word.startswith(("/", "*")) for word, is_lone in zip(words, lone, strict=True)
    ):
        return draft, (_disallow_path(value, []),), notes  # its words have been noted
    if all(lone):
        return draft, draft, notes  # "Disallow: / *" means what it says
    if any(lone):
        # A lone "/" or "*" beside paths would forbid the whole site, which the other paths
        # show is not meant ("Disallow: /anal /"); the draft's letter still reads it (F5).
        notes.append("a lone '/' or '*' among several paths: only the draft's reading obeys it")
    return (
        draft,
        tuple(path for path, is_lone in zip(draft, lone, strict=True) if not is_lone),
        notes,
    )


def _without_repeated_name(value: str, notes: list[str]) -> str:
    """``Disallow: Disallow: /search?*`` read as ``Disallow: /search?*`` (F3)."""
    while (repeated := _REPEATED_NAME.match(value)) is not None:
        value = value[repeated.end() :]
        notes.append("'Disallow' written twice, read once")
    return value


def _disallow_path(written: str, notes: list[str]) -> str:
    """A Disallow path as matched: a full URL kept literal, a missing "/" added."""
    if written.lower().startswith(("http://", "https://")):
        # A full URL cannot mean this host's root (it may name another host): it matches
        # only what it literally says, as Protego and Google read it.
        notes.append(
            f"a full URL in a rule matches only the literal path /{written}; write the path alone"
        )
        return "/" + written
    if written.startswith(("/", "*")):
        return written
    notes.append("path does not start with '/', one added")
    return "/" + written


def _allow_path(written: str, notes: list[str]) -> str | None:
    """An Allow path as matched, or ``None``: without its leading "/" it is ignored."""
    if written.lower().startswith(("http://", "https://")) or written.startswith(("/", "*")):
        return _disallow_path(written, notes)
    # RFC 9309 2.2: a path starts with "/", and Google never matches one that does not. Adding
    # one would let "Allow: app/uploads/" outrank "Disallow: /*?" (F3).
    notes.append("Allow path does not start with '/', line ignored")
    return None
