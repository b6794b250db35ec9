"""Evaluation cases: the JSON Lines case format, its parser, and answer matching.

One case per line (README: Evaluation)::

    {"id": "q-017", "question": "...", "lang": "en" | "zh",            (lang optional)
     "documents": [{"doc_id", "title", "text", "updated", "authority", "source_url"}],
     "expect": "answer" | "refuse" | "conflict",
     "answer_contains": ["30"] | [["30 days", "30 天"], ["recycle"]],    (answer cases)
     "refusal_reason": "low_score" | "no_support",                        (optional)
     "history": ["earlier user question", ...]}                           (optional)

``documents`` present (even empty) means the case brings its own temporary knowledge base;
absent means the stored knowledge base answers it. ``answer_contains`` is a list of groups:
every group must be matched by one of its aliases (case-insensitive; whitespace ignored for
Chinese). A bare string is one group of one alias; an answer case needs at least one (without
one any answer scored right), missing or empty alike. ``history`` holds the conversation's
earlier USER questions, oldest first: the case's question is then a follow-up and is
answered as the chat answers one (standalone query from the history). Unknown keys are
ignored, so case files may carry notes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from kbqa.core.text.normalise import detect_language, normalise
from kbqa.core.types import Language

Expect = Literal["answer", "refuse", "conflict"]
EXPECTS: tuple[str, ...] = ("answer", "refuse", "conflict")
EXPECTED_REASONS: tuple[str, ...] = ("low_score", "no_support")
AUTHORITIES: tuple[str, ...] = ("policy", "manual", "faq", "meeting-note", "archived", "other")
AliasGroups = tuple[tuple[str, ...], ...]

_SPACE_RE = re.compile(r"\s+")


class CaseFormatError(ValueError):
    """A case line is malformed; the message says which field and why (no line number)."""


@dataclass(frozen=True)
class CaseDocument:
    """A document of a case's own temporary knowledge base (text is Markdown-like)."""

    doc_id: str
    title: str
    text: str
    updated: str = ""
    authority: str = "other"
    source_url: str = ""
    visibility: tuple[str, ...] = ()  # group names; empty: everyone


@dataclass(frozen=True)
class EvalCase:
    """One evaluation question and what a correct run looks like.

    ``documents`` None: use the stored knowledge base. ``origin`` is ``file:line`` for reports.
    ``history``: earlier user questions of the conversation, oldest first (a follow-up).
    """

    id: str
    question: str
    lang: Language
    expect: Expect
    documents: tuple[CaseDocument, ...] | None = None
    answer_contains: AliasGroups = ()
    refusal_reason: str | None = None
    origin: str = ""
    groups: tuple[str, ...] = ()  # the asking user's groups (names); empty: no group
    history: tuple[str, ...] = ()


@dataclass(frozen=True)
class LineProblem:
    """A line (or a whole file, line 0) that was skipped, and why."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.message}"


def alias_groups(value: Any, *, field: str = "answer_contains") -> AliasGroups:
    """``"30"`` -> ``(("30",),)``; ``["a", "b"]`` -> both required; ``[["a", "A"], ...]`` aliases.

    Raises CaseFormatError for empty strings, empty groups or non-string items.
    """
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise CaseFormatError(f"{field} must be a string or a list")
    groups: list[tuple[str, ...]] = []
    for item in items:
        aliases = [item] if isinstance(item, str) else item
        if not isinstance(aliases, list) or not aliases:
            raise CaseFormatError(f"{field}: each item must be a string or a non-empty list")
        if not all(isinstance(a, str) and a.strip() for a in aliases):
            raise CaseFormatError(f"{field}: aliases must be non-empty strings")
        groups.append(tuple(a.strip() for a in aliases))
    return tuple(groups)


def _fold(text: str, lang: str) -> str:
    folded = normalise(text)
    return _SPACE_RE.sub("", folded) if lang == "zh" else folded


def answer_matches(text: str, groups: AliasGroups, *, lang: str) -> bool:
    """True when every group has an alias contained in ``text`` (RGB's scoring rule).

    Case-insensitive and width-folded (NFKC); for Chinese (``lang == "zh"``) all whitespace is
    removed from both sides. No groups -> True when ``text`` is not blank.
    """
    haystack = _fold(text, lang)
    if not groups:
        return bool(haystack.strip())
    return all(any(_fold(a, lang) in haystack for a in group) for group in groups)


def _required_str(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and key == "id":
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise CaseFormatError(f"missing or empty {key!r}")
    return value.strip()


def _optional_str(raw: dict[str, Any], key: str, default: str = "") -> str:
    value = raw.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise CaseFormatError(f"{key!r} must be a string")
    return value.strip()


def _str_list(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    """An optional list of non-empty strings (group names). Raises CaseFormatError."""
    value = raw.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise CaseFormatError(f"{key!r} must be a list of names")
    return tuple(v.strip() for v in value)
def _history(raw: dict[str, Any]) -> tuple[str, ...]:
    value = raw.get("history")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(q, str) and q.strip() for q in value):
        raise CaseFormatError("'history' must be a list of non-empty strings")
    return tuple(q.strip() for q in value)


def parse_document(raw: Any, index: int) -> CaseDocument:
    """One entry of ``documents``; ``title`` defaults to ``doc_id``. Raises CaseFormatError."""
    if not isinstance(raw, dict):
        raise CaseFormatError(f"documents[{index}] must be an object")
    try:
        doc_id = _required_str(raw, "doc_id")
        text = _required_str(raw, "text")
        authority = _optional_str(raw, "authority", "other") or "other"
        doc = CaseDocument(
            doc_id=doc_id,
            title=_optional_str(raw, "title") or doc_id,
            text=text,
            updated=_optional_str(raw, "updated"),
            authority=authority,
            source_url=_optional_str(raw, "source_url"),
            visibility=_str_list(raw, "visibility"),
        )
    except CaseFormatError as exc:
        raise CaseFormatError(f"documents[{index}]: {exc}") from None
    if authority not in AUTHORITIES:
        raise CaseFormatError(f"documents[{index}]: authority must be one of {AUTHORITIES}")
    return doc


def _documents(raw: dict[str, Any]) -> tuple[CaseDocument, ...] | None:
    if "documents" not in raw or raw["documents"] is None:
        return None
    docs = raw["documents"]
    if not isinstance(docs, list):
        raise CaseFormatError("'documents' must be a list")
    parsed = tuple(parse_document(d, i) for i, d in enumerate(docs))
    ids = [d.doc_id for d in parsed]
    if len(set(ids)) != len(ids):
        raise CaseFormatError("documents: doc_id values must be unique within a case")
    return parsed


# The fields a case may have; "note" is for people (what the answer is and where).
CASE_FIELDS = frozenset(("id", "question", "lang", "documents", "expect", "answer_contains",
                         "refusal_reason", "history", "groups", "note"))


def parse_case(raw: Any, *, origin: str = "", scored: bool = True) -> EvalCase:
    """Validate one decoded JSON object into an EvalCase. Raises CaseFormatError, also for
    an answer case without ``answer_contains`` when its answer is ``scored`` (``evaluate``;
    ``calibrate`` reads only what is asked and what is expected)."""
    if not isinstance(raw, dict):
        raise CaseFormatError("a case must be a JSON object")
    unknown = sorted(set(raw) - CASE_FIELDS)
    if unknown:  # a misspelt "answer_contains" scored any answer as right
        known = ", ".join(sorted(CASE_FIELDS))
        raise CaseFormatError(f"unknown field {unknown[0]!r} (known: {known})")
    case_id, question = _required_str(raw, "id"), _required_str(raw, "question")
    expect = raw.get("expect")
    if expect not in EXPECTS:
        raise CaseFormatError(f"'expect' must be one of {EXPECTS}, got {expect!r}")
    lang = raw.get("lang") or detect_language(question)
    if lang not in ("en", "zh"):
        raise CaseFormatError(f"'lang' must be 'en' or 'zh', got {lang!r}")
    reason = raw.get("refusal_reason")
    if reason is not None and reason not in EXPECTED_REASONS:
        raise CaseFormatError(f"'refusal_reason' must be one of {EXPECTED_REASONS}")
    groups = raw.get("answer_contains")
    if scored and expect == "answer" and groups in (None, [], ""):  # any answer scored right
        raise CaseFormatError(f"case {case_id!r}: an answer case needs 'answer_contains' "
                              "with at least one string (what a right answer says)")
    return EvalCase(
        id=case_id,
        question=question,
        lang=cast(Language, lang),
        expect=cast(Expect, expect),
        documents=_documents(raw),
        answer_contains=alias_groups(groups) if groups else (),
        refusal_reason=reason,
        origin=origin,
        groups=_str_list(raw, "groups"),
        history=_history(raw),
    )


def read_cases(
    lines: Iterable[str], *, source: str, scored: bool = True
) -> tuple[list[EvalCase], list[LineProblem]]:
    """Parse JSON Lines of cases (``scored``: as ``parse_case``); blank lines are skipped.

    Bad lines (invalid JSON, invalid case, duplicate id) become LineProblems with their 1-based
    line number and are skipped; the good cases are returned in file order. Never raises.
    """
    cases: list[EvalCase] = []
    problems: list[LineProblem] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            case = parse_case(json.loads(line), origin=f"{source}:{number}", scored=scored)
        except json.JSONDecodeError as exc:
            problems.append(LineProblem(source, number, f"invalid JSON ({exc.msg})"))
            continue
        except CaseFormatError as exc:
            problems.append(LineProblem(source, number, str(exc)))
            continue
        if case.id in seen:
            problems.append(LineProblem(source, number, f"duplicate id {case.id!r}"))
            continue
        seen.add(case.id)
        cases.append(case)
    return cases, problems


def expect_counts(cases: Sequence[EvalCase]) -> dict[str, int]:
    """``{"answer": n, "refuse": n, "conflict": n}`` for a progress line."""
    return {e: sum(1 for c in cases if c.expect == e) for e in EXPECTS}
