"""Statement values onto the uses: each vocabulary's table, and its lenient reader [U1, U2, U4].

Each reader takes the value as written and returns what it says of each use plus notes (the
caller turns them into warnings with a line number or a header name). None raises.

| use      | Content-Signal | Content-Usage (aipref vocab-08)  | TDMRep tdm-reservation | noai   |
|----------|----------------|----------------------------------|------------------------|--------|
| search   | ``search``     | ``search``                       | (nothing)              | (none) |
| ai-input | ``ai-input``   | ``ai-use``                       | 1 refuses, 0 allows    | refuses|
| ai-train | ``ai-train``   | ``train-ai``                     | 1 refuses, 0 allows    | refuses|

Lenient the way the robots parser is (F3): a mistake is read as meant only where that reading
uses less. A Content-Usage value that is no RFC 9651 dictionary (``Train-AI=n``, ``train-ai=no;``)
keeps its refusals and nothing else; ``train-ai=no`` refuses while ``train-ai=yes`` (not the
token ``y``) says nothing. Labels of earlier aipref drafts (``bots``, ``all``, ``tdm``,
``train-genai``, ``genai``, ``ai``, ``ai-output``, ``inference``) are no vocabulary of -08, which
ignores unknown labels; here their refusals stand in for a use the statement leaves unsaid, as
those drafts' own fallback from a category to its parent did, and never grant anything.
"""

from __future__ import annotations

import re

from http_sf import Token, parse

from politecrawl.usage.values import Stance, Use

Stances = dict[Use, Stance]

CONTENT_SIGNAL_KEYS: dict[str, Use] = {
    "search": Use.SEARCH,
    "ai-input": Use.AI_INPUT,
    "ai-train": Use.AI_TRAIN,
}
"""Content Signals (draft-romm-aipref-contentsignals-00): the key of each use."""
AIPREF_LABELS: dict[str, Use] = {
    "search": Use.SEARCH,
    "ai-use": Use.AI_INPUT,
    "train-ai": Use.AI_TRAIN,
}
"""draft-ietf-aipref-vocab-08's labels: Search, AI Use, AI Training (flat, no nesting)."""
AIPREF_LEGACY_LABELS: dict[str, tuple[Use, ...]] = {
    "bots": tuple(Use),  # vocab-03/-04: Automated Processing, parent of every category
    "all": tuple(Use),  # vocab-02: the same
    "tdm": tuple(Use),  # vocab-01: text and data mining, parent of every category
    "train-genai": (Use.AI_TRAIN,),  # vocab-02/-03: generative AI training
    "genai": (Use.AI_TRAIN,),  # vocab-01: generative AI training
    "ai": (Use.AI_TRAIN,),  # vocab-01: AI training
    "ai-output": (Use.AI_INPUT, Use.SEARCH),  # vocab-04: AI output, search a refinement of it
    "inference": (Use.AI_INPUT,),  # vocab-01: use of a trained model
}
"""Labels of earlier drafts, read for their refusals only (see the module docstring)."""
TDM_RESERVED_USES = (Use.AI_INPUT, Use.AI_TRAIN)
"""What ``tdm-reservation`` speaks of: text and data mining, which training and model input are
(EU Directive 2019/790 art. 4); a search index is not read as mining."""
NOAI_USES = (Use.AI_INPUT, Use.AI_TRAIN)

MAX_STATEMENT_CHARS = 200
_MAX_VALUE_BYTES = 8 * 1024
_PAIR = re.compile(r"([A-Za-z*][A-Za-z0-9_.*-]*)[ \t]*=[ \t]*\"?([^\s,;\"]*)\"?")
_YES = {"yes": Stance.ALLOWED, "no": Stance.REFUSED}


def shorten(text: str) -> str:
    """One line of at most ``MAX_STATEMENT_CHARS`` characters, for the record (a lone surrogate
    replaced, so that it can be stored as UTF-8)."""
    line = " ".join(text.encode("utf-8", "replace").decode("utf-8").split())
    return line if len(line) <= MAX_STATEMENT_CHARS else line[: MAX_STATEMENT_CHARS - 3] + "..."


def most_restrictive(first: Stance, second: Stance) -> Stance:
    """The stance that uses less: refused over allowed over no preference."""
    if Stance.REFUSED in (first, second):
        return Stance.REFUSED
    return Stance.ALLOWED if Stance.ALLOWED in (first, second) else Stance.NONE


def refusals_only(stances: Stances) -> Stances:
    """``stances`` without what they allow: what a misread statement may still say."""
    return {use: stance for use, stance in stances.items() if stance is Stance.REFUSED}


def read_content_signal(value: str) -> tuple[Stances, list[str]]:
    """A ``Content-Signal`` value (``search=yes, ai-train=no``) onto the uses, with notes.

    Keys and values are read case-insensitively; a key left out means no preference; a value
    other than yes or no means none either; an unknown key is ignored. A key given twice keeps
    its most restrictive value."""
    stances: Stances = {}
    notes: list[str] = []
    for raw_piece in re.split(r"[,;]", value[:_MAX_VALUE_BYTES]):
        piece = raw_piece.strip()
        if not piece:
            continue
        pairs = _PAIR.findall(piece)
        rest = _PAIR.sub("", piece).strip()
        if rest:
            notes.append(f"{shorten(rest)!r} is no key=value signal, ignored")
        if len(pairs) > 1:
            notes.append(f"{shorten(piece)!r}: separate signals with commas")
        for key, written in pairs:
            _read_signal(key.lower(), written, stances, notes)
    return stances, notes


def _read_signal(key: str, written: str, stances: Stances, notes: list[str]) -> None:
    use = CONTENT_SIGNAL_KEYS.get(key)
    if use is None:
        notes.append(f"unknown signal {key!r}, ignored")
        return
    said = _YES.get(written.lower())
    if said is None:
        notes.append(f"{key}={shorten(written)!r} is neither yes nor no: no preference")
        return
    if use in stances and stances[use] is not said:
        notes.append(f"{key} given twice with different values: the more restrictive applies")
    stances[use] = most_restrictive(stances.get(use, Stance.NONE), said)


def read_content_usage(value: str | bytes) -> tuple[Stances, list[str]]:
    """A ``Content-Usage`` statement (an RFC 9651 dictionary, ``train-ai=n, search=y``) onto the
    uses, with notes: the token ``y`` allows, ``n`` refuses, anything else says nothing
    (draft-ietf-aipref-vocab-08, "Processing Algorithm"); parameters are ignored; a repeated key
    keeps its last value (RFC 9651). A value that is no dictionary keeps only its refusals."""
    data = _as_bytes(value)[:_MAX_VALUE_BYTES]
    notes: list[str] = []
    repeated: list[str] = []
    try:
        parsed = parse(
            data,
            tltype="dictionary",
            on_duplicate_key=lambda key, _context: repeated.append(key),
        )
    except (ValueError, IndexError, TypeError) as error:  # StructuredFieldError is a ValueError
        reason = str(error).split(" at position", 1)[0]  # the position's wording varies
        notes.append(
            f"not a structured-field dictionary (RFC 9651: {reason}); only its refusals are read"
        )
        return _salvage_refusals(data.decode("latin-1"), notes), notes
    notes.extend(f"{key!r} given more than once: the last applies (RFC 9651)" for key in repeated)
    stances: Stances = {}
    legacy: list[tuple[str, tuple[Use, ...]]] = []
    for key, member in parsed.items() if isinstance(parsed, dict) else ():
        member_value = member[0] if isinstance(member, tuple) else member
        use = AIPREF_LABELS.get(key)
        if use is not None:
            said = _aipref_value(key, member_value, notes)
            if said is not Stance.NONE:
                stances[use] = said
        elif key in AIPREF_LEGACY_LABELS:
            if _aipref_value(key, member_value, []) is Stance.REFUSED:
                legacy.append((key, AIPREF_LEGACY_LABELS[key]))
            else:
                notes.append(f"{key!r} is a label of an earlier aipref draft: ignored")
        else:
            notes.append(f"unknown label {key!r} ignored")
    _apply_legacy(legacy, stances, notes)
    return stances, notes


def _aipref_value(key: str, value: object, notes: list[str]) -> Stance:
    """The token ``y`` or ``n``; a near miss that refuses is read as a refusal, never a grant."""
    if isinstance(value, Token):
        if str(value) == "y":
            return Stance.ALLOWED
        if str(value) == "n":
            return Stance.REFUSED
    written = str(value).lower() if isinstance(value, Token | str) else None
    if written in ("n", "no") or value is False:
        notes.append(f"{key}: {_shown(value)} is not the token n; read as a refusal")
        return Stance.REFUSED
    notes.append(f"{key}: {_shown(value)} is neither the token y nor n: no preference")
    return Stance.NONE


def _shown(value: object) -> str:
    if isinstance(value, Token):
        return shorten(str(value))
    if isinstance(value, bool):
        return "?1" if value else "?0"
    return shorten(repr(value))


def _apply_legacy(
    legacy: list[tuple[str, tuple[Use, ...]]], stances: Stances, notes: list[str]
) -> None:
    """An earlier draft's refusal stands for each use the statement does not speak of."""
    for key, uses in legacy:
        unsaid = [use for use in uses if use not in stances]
        for use in unsaid:
            stances[use] = Stance.REFUSED
        covered = ", ".join(use.value for use in unsaid) or "nothing left unsaid"
        notes.append(f"{key}=n is a label of an earlier aipref draft: read as refusing {covered}")


def _salvage_refusals(text: str, notes: list[str]) -> Stances:
    """The refusals of a statement that did not parse: ``key=n`` or ``key=no``, any case."""
    stances: Stances = {}
    legacy: list[tuple[str, tuple[Use, ...]]] = []
    for key, written in _PAIR.findall(text):
        if written.lower() not in ("n", "no"):
            continue
        name = key.lower()
        if name in AIPREF_LABELS:
            stances[AIPREF_LABELS[name]] = Stance.REFUSED
        elif name in AIPREF_LEGACY_LABELS:
            legacy.append((name, AIPREF_LEGACY_LABELS[name]))
    _apply_legacy(legacy, stances, notes)
    return stances


def _as_bytes(value: str | bytes) -> bytes:
    if isinstance(value, bytes):
        return value
    try:
        return value.encode("latin-1")  # a header value as http.client decoded it
    except UnicodeEncodeError:
        return value.encode("utf-8", "replace")


def read_tdm_reservation(value: object) -> tuple[int | None, list[str]]:
    """A ``tdm-reservation`` value: 1 (reserved), 0 (not reserved), or ``None`` (unset) for
    anything else, which TDMRep counts as a protocol error read as unset."""
    if isinstance(value, bool):
        return int(value), [f"tdm-reservation {str(value).lower()} read as {int(value)}"]
    if isinstance(value, int) and value in (0, 1):
        return value, []
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip()), []
    return None, [f"tdm-reservation {shorten(repr(value))} is neither 0 nor 1: unset"]


def tdm_stances(reservation: int | None) -> Stances:
    """What a ``tdm-reservation`` says of each use."""
    if reservation is None:
        return {}
    said = Stance.REFUSED if reservation == 1 else Stance.ALLOWED
    return dict.fromkeys(TDM_RESERVED_USES, said)
