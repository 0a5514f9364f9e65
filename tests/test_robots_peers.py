"""Peer conformance: the public robots.txt suites of CPython, Google and Protego, and RFC 9309's
examples, run against our engine [A1-A4, F1-F6, M1-M6, O2].

The cases are plain data in ``tests/peer_cases.py``, which names each source file. A ``both`` row
runs once per semantics. A row with a ``why`` is one where SPEC.md deliberately differs from the
peer: it is expected per SPEC.md, and a failure prints the peer's view next to ours.
"""

from __future__ import annotations

from collections import Counter

import pytest

from peer_cases import (
    ALL_CASES,
    BOTH,
    CPYTHON_CASES,
    GOOGLE_CASES,
    PROTEGO_CASES,
    RFC9309_CASES,
    SOURCE_FILES,
    PeerCase,
)
from politecrawl.robots import parse_robots

SEMANTICS = ("draft", "rfc9309")

# Failing rows whose expectation is kept as the peer wrote it, although we are confident the peer
# contradicts SPEC.md (the engine is right), keyed by (source, case_name, the row's semantics).
# Every other deliberate difference is written as our own expectation, with a ``why``, in the data.
KNOWN_CONTRADICTIONS: dict[tuple[str, str, str], str] = {
    ("google", "GoogleOnly_LineTooLong", "rfc9309"): (
        "O8 bounds line length and, where SPEC is silent, the reading that fetches less wins: an "
        "Allow line cut short by the limit is dropped, while Google obeys the cut-off Allow"
    ),
}


def _params(cases: list[PeerCase]) -> list[object]:
    params = []
    for index, case in enumerate(cases):
        semantics_list = SEMANTICS if case.semantics == BOTH else (case.semantics,)
        for semantics in semantics_list:
            reason = KNOWN_CONTRADICTIONS.get((case.source, case.case_name, case.semantics))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(
                pytest.param(
                    case, semantics, id=f"{case.case_name}-{index}-{semantics}", marks=marks
                )
            )
    return params


def _describe(case: PeerCase, semantics: str) -> str:
    where = f"{SOURCE_FILES[case.source]} {case.case_name} ({semantics})"
    target = f"agent={case.agent!r} url={case.url_or_path[:120]!r}"
    if case.why:
        return f"{where}: {target}; we differ from the peer on purpose: {case.why}"
    return f"{where}: {target}"


def _observe(case: PeerCase, semantics: str) -> object:
    """What our engine answers to the question the row asks."""
    policy = parse_robots(case.robots_txt, semantics=semantics)
    if case.check == "allowed":
        return policy.is_allowed(case.agent, case.url_or_path)
    if case.check == "crawl_delay":
        return policy.crawl_delay(case.agent)
    if case.check == "request_rate":
        rate = policy.request_rate(case.agent)
        return None if rate is None else (rate.requests, rate.seconds)
    if case.check == "sitemaps":
        return policy.sitemaps
    verdict = policy.explain(case.agent, case.url_or_path)  # "rule_line"
    return None if verdict.rule is None else verdict.rule.line_number


def _check(case: PeerCase, semantics: str) -> None:
    expected = case.expected_allowed if case.check == "allowed" else case.expected_value
    got = _observe(case, semantics)
    assert got == expected, _describe(case, semantics)


@pytest.mark.parametrize(("case", "semantics"), _params(CPYTHON_CASES))
def test_peer_cpython(case: PeerCase, semantics: str) -> None:
    _check(case, semantics)


@pytest.mark.parametrize(("case", "semantics"), _params(GOOGLE_CASES))
def test_peer_google(case: PeerCase, semantics: str) -> None:
    _check(case, semantics)


@pytest.mark.parametrize(("case", "semantics"), _params(PROTEGO_CASES))
def test_peer_protego(case: PeerCase, semantics: str) -> None:
    _check(case, semantics)


@pytest.mark.parametrize(("case", "semantics"), _params(RFC9309_CASES))
def test_peer_rfc9309(case: PeerCase, semantics: str) -> None:
    _check(case, semantics)


def test_peer_cases_are_well_formed() -> None:
    """Every row names a known source and semantics, and its check has an expectation."""
    for case in ALL_CASES:
        assert case.source in SOURCE_FILES, case
        assert case.semantics in {"draft", "rfc9309", "both"}, case
        assert case.case_name, case
        if case.check == "allowed":
            assert isinstance(case.expected_allowed, bool), case
        else:
            assert case.expected_allowed is None, case
            assert not case.why, case
    counts = Counter(case.source for case in ALL_CASES)
    assert set(counts) == set(SOURCE_FILES)
