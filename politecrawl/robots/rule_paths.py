"""An Allow or Disallow value to the paths it stands for, in each reading [F3, F5, M3].

Real files write values the 1996 draft never imagined: several paths on a line (the 1994 form,
F5), a path with a blank in it (``/sitecore modules/``), a stray ``/`` or ``*``
(``Disallow: /anal /``), the field name twice (``Disallow: Disallow: /search?*``), a full URL,
a path without its leading ``/``. ``rule_paths`` reads each as its owner means it, and where
that is in doubt, the reading that fetches less wins. Pure text in, text out; the parser turns
the notes into warnings with the line's number.
"""

from __future__ import annotations

import re

BLANKS = " \t\v\f"  # str.strip() alone would also eat octets 0x85 and 0xA0 of UTF-8 text
WORDS = re.compile(r"[^ \t\v\f]+")
_REPEATED_NAME = "disallow:"

Paths = tuple[str, ...]


def rule_paths(value: str, *, is_allow: bool) -> tuple[Paths, Paths, list[str]]:
    """``(the draft's paths, RFC 9309's paths, notes)`` for a stripped Allow or Disallow value;
    no paths: the line matches nothing (M3).

    F5: the draft reads a Disallow's blank-separated words as several paths. So does RFC 9309's
    reading when every word is a path (``/cgi-bin/ /tmp/``); otherwise it reads the value whole,
    as Google does (``/sitecore modules/`` is one folder, ``* http:*`` one pattern).
    """
    if value.startswith("/") and " " not in value and "\t" not in value:
        paths = (value,)
        return paths, paths, []  # the common case
    notes: list[str] = []
    if not is_allow:
        value = _without_repeated_name(value, notes)
    if not value:
        return (), (), notes
    words = WORDS.findall(value)
    # An Allow is never split: a 1994-era file has no Allow, and splitting "/my file.html"
    # would allow all of "/my".
    if is_allow or len(words) == 1:
        whole = _rule_path(value, is_allow=is_allow, notes=notes)
        return ((), (), notes) if whole is None else ((whole,), (whole,), notes)
    lone = [word == "/" or not word.strip("*") for word in words]
    split = []
    for word, is_lone in zip(words, lone, strict=True):
        # A lone "/" or "*" beside other words would forbid the whole site, which those words
        # show is not meant ("Disallow: /anal /", "Disallow: * http:*" on real sites); alone
        # on the line ("Disallow: / *") it means what it says.
        if is_lone and not all(lone):
            notes.append(f"a lone {word!r} among several paths, not read alone")
            continue
        split.append(_rule_path(word, is_allow=False, notes=notes) or word)
    if all(is_lone or word.startswith("/") for word, is_lone in zip(words, lone, strict=True)):
        return tuple(split), tuple(split), notes
    whole = _rule_path(value, is_allow=False, notes=[])  # its words have been noted
    return tuple(split), (whole or value,), notes


def _without_repeated_name(value: str, notes: list[str]) -> str:
    """``Disallow: Disallow: /search?*`` (real files) read as ``Disallow: /search?*`` (F3)."""
    while value[: len(_REPEATED_NAME)].lower() == _REPEATED_NAME:
        value = value[len(_REPEATED_NAME) :].strip(BLANKS)
        notes.append("'Disallow:' written twice, read once")
    return value


def _rule_path(written: str, *, is_allow: bool, notes: list[str]) -> str | None:
    """One rule path as matched: a full URL or a missing "/" mended, or ``None`` to ignore."""
    if written.lower().startswith(("http://", "https://")):
        # A full URL cannot mean this host's root (it may name another host): it matches
        # only what it literally says, as Protego and Google read it.
        path = "/" + written
        notes.append(
            f"a full URL in a rule matches only the literal path {path}; write the path alone"
        )
        return path
    if written.startswith(("/", "*")):
        return written
    if is_allow:
        # RFC 9309 2.2: a path starts with "/", and Google never matches one that does
        # not. Adding one would let "Allow: app/uploads/" outrank "Disallow: /*?" (F3).
        notes.append("Allow path does not start with '/', line ignored")
        return None
    notes.append("path does not start with '/', one added")
    return "/" + written
