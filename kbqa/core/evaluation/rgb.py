"""Turn RGB benchmark records into evaluation cases.

RGB: Chen et al. 2023, "Benchmarking Large Language Models in Retrieval-Augmented
Generation" (arXiv 2309.01431), github.com/chen700564/RGB. Its data is CC BY-NC-SA 4.0: read
it from wherever it lies at run time, never copy records into this project.

Record fields (JSON Lines): ``id, query, answer, positive, negative``; the fact files add
``fakeanswer`` and ``positive_wrong`` (each positive passage with the answer replaced by the
fake answer). ``answer`` is a string, a list of required strings, or a list of alias lists
(the ``answer_contains`` shapes). ``positive`` may be a list of lists (``*_int`` files); it
is flattened.

Each record becomes up to three cases, ids ``{stem}-{id}-{answer|refuse|conflict}``:

- answer: positives + negatives as the case's documents;
- refuse: negatives only (skipped when there are none);
- conflict (records with ``positive_wrong``, when both the true and the fake answer contain a
  digit, because the conflict gate compares quantities): positives from one source and
  positive_wrong from another, same authority and no dates so nothing justifies choosing;
  answer_contains holds the true and the fake values, so an answer showing both counts.

Passages are shuffled with a seed derived from the record id (reproducible) and named
neutrally (``p01``, ``p02``...), so neither order nor names reveal which passage is positive.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any, cast

from kbqa.core.evaluation.cases import (
    AliasGroups,
    CaseDocument,
    CaseFormatError,
    EvalCase,
    Expect,
    LineProblem,
    alias_groups,
)
from kbqa.core.text.normalise import detect_language
from kbqa.core.types import Language

_DIGIT_RE = re.compile(r"\d")


def _passages(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise CaseFormatError(f"{field!r} must be a list")
    flat: list[str] = []
    for item in value:
        for text in item if isinstance(item, list) else [item]:
            if not isinstance(text, str):
                raise CaseFormatError(f"{field!r} must hold strings")
            if text.strip():
                flat.append(text.strip())
    return flat


def _documents(
    passages: list[tuple[str, str]], *, seed: str, lang: Language
) -> tuple[CaseDocument, ...]:
    """(source label, text) pairs -> shuffled, neutrally named documents."""
    order = list(passages)
    random.Random(seed).shuffle(order)
    label = "资料" if lang == "zh" else "Passage"
    docs = []
    for i, (source, text) in enumerate(order, start=1):
        url = f"rgb://{source}/p{i:02d}" if source else ""
        docs.append(CaseDocument(doc_id=f"p{i:02d}", title=f"{label} {i}", text=text,
                                 source_url=url))
    return tuple(docs)


def _has_number(groups: AliasGroups) -> bool:
    return all(any(_DIGIT_RE.search(a) for a in group) for group in groups)


def rgb_cases(record: Any, *, stem: str, origin: str = "") -> list[EvalCase]:
    """The cases of one RGB record (see the module docstring). Raises CaseFormatError."""
    if not isinstance(record, dict):
        raise CaseFormatError("an RGB record must be a JSON object")
    if record.get("id") is None or not isinstance(record.get("query"), str):
        raise CaseFormatError("missing 'id' or 'query'")
    rid, query = str(record["id"]), record["query"].strip()
    answer = alias_groups(record.get("answer"), field="answer")
    positive = _passages(record.get("positive"), "positive")
    negative = _passages(record.get("negative"), "negative")
    lang = cast(Language, stem[:2] if stem[:3] in ("zh_", "en_") else detect_language(query))
    base = f"{stem}-{rid}"

    def case(expect: Expect, docs: list[tuple[str, str]], groups: AliasGroups) -> EvalCase:
        return EvalCase(
            id=f"{base}-{expect}", question=query, lang=lang, expect=expect,
            documents=_documents(docs, seed=f"{base}-{expect}", lang=lang),
            answer_contains=groups, origin=origin,
        )

    cases = [case("answer", [("", p) for p in positive + negative], answer)]
    if negative:
        cases.append(case("refuse", [("", p) for p in negative], ()))
    wrong = _passages(record.get("positive_wrong"), "positive_wrong")
    if wrong and record.get("fakeanswer") is not None:
        fake = alias_groups(record["fakeanswer"], field="fakeanswer")
        if _has_number(answer) and _has_number(fake):
            docs = [("source-a", p) for p in positive] + [("source-b", p) for p in wrong]
            cases.append(case("conflict", docs, answer + fake))
    return cases


def read_rgb(
    lines: Iterable[str], *, source: str, stem: str
) -> tuple[list[EvalCase], list[LineProblem]]:
    """Parse RGB JSON Lines into cases; bad lines become LineProblems and are skipped."""
    cases: list[EvalCase] = []
    problems: list[LineProblem] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cases.extend(rgb_cases(json.loads(line), stem=stem, origin=f"{source}:{number}"))
        except json.JSONDecodeError as exc:
            problems.append(LineProblem(source, number, f"invalid JSON ({exc.msg})"))
        except CaseFormatError as exc:
            problems.append(LineProblem(source, number, str(exc)))
    return cases, problems
