"""Citations: parse a draft into claims, then verify each claim against the issued blocks.

One ``Verifier`` serves both contracts: the streaming one (plain sentences with inline
markers, split by ``kbqa.core.text.sentences``) and the JSON one (``{"claims": [...]}``).

Parsing (``parse_claim``): markers ``[2]``, ``[1][3]``, ``[1, 3]``, ``[1-3]`` (1, 2, 3),
``[^2]``, ``【2】``, ``［２］``, before or after the final punctuation; never ``[sic]``,
``[a]``, ``[citation needed]`` or a Markdown link ``[1](https://...)``. A sentence starting
with ``Not covered:`` / ``资料未涵盖：`` is a *gap*: a statement of what the sources do not cover.

Verification (``Verifier.verify``), in order:

1. Gate one: every cited number must be an issued block number.
2. Gate two: substantive overlap. The sentence's distinct terms (``kbqa.core.text.terms``),
   minus the terms common to most blocks, are looked up in each cited block's ORIGINAL
   ``chunk.text`` (never the compressed ``block.text``). Overlap = found / substantive.
   Common terms are those in more than half of the blocks AND in at least 3 blocks: a word
   every block shares (the product name, the topic of the question) says nothing about
   whether *this* block supports the sentence, yet a word in 2 of 3 blocks is often just two
   near-identical documents (a copy, an older version), and removing it would remove the
   evidence itself. When removing common terms leaves a sentence with no terms, all its
   terms are used.
   Several citations combine so that a sentence may join facts from two blocks: a cited
   block counts (becomes a chip in ``verified``) when its own overlap reaches half the
   min_overlap, and the counted blocks together must cover ``min_overlap`` of the terms. A
   citation that carries less is dropped from the chips, since a chip that opens an
   unrelated passage misleads; if no cited block counts, the sentence fails.
3. Numbers: every number in the sentence must appear in a cited block (a wrong number is the
   worst hallucination).
4. Quotations: text inside ``"…"``, ``“…”``, ``「…」``, ``『…』``, ``‘…’`` must appear verbatim
   in a cited block, compared after ``normalise`` and with the Markdown emphasis and code
   characters ``*``, ``_`` and a backtick removed on both sides (a quoted sentence loses its
   emphasis, so ``window.__x=1`` in the source reads ``window.x=1`` in it).

Gap claims ("Not covered: …") are checked against the question (``question``: the user's
question and the standalone query) and the blocks, because a gap sentence reaches the
screen like any other. A gap passes only when it cites nothing and gives no digits, every
substantive term of its text after the prefix is a term of the question, and at least one
of them occurs in no block's ORIGINAL text. Substantive terms are the terms
(``kbqa.core.text.terms``) minus ``GAP_VOCABULARY`` (the words that say *that* something is
not covered: "sources", "mention", 资料, 提到, ...) and minus one-character terms (``里``,
``b``: no topic); a Chinese term also counts as in the question or in a block when it is a
substring of its text, since jieba may cut the same words differently in another sentence.
Without a question no gap passes. ``min_overlap`` (default 0.3) is the setting
``KBQA_OVERLAP_THRESHOLD`` (``PipelineConfig.overlap_threshold``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import jsonschema

from kbqa.core.errors import KbqaError
from kbqa.core.text.normalise import normalise
from kbqa.core.text.sentences import MARKER_RE
from kbqa.core.text.terms import stem, term_set, terms, without_parts
from kbqa.core.types import Block, Claim, ClaimKind, Verdict

#: The prefix of a gap sentence, as the answer prompt asks for it (``kbqa.core.generation.prompt``).
GAP_PREFIX_EN = "Not covered:"
GAP_PREFIX_ZH = "资料未涵盖："
#: Lower-cased prefixes ``parse_claim`` recognises (also the half-width colon).
GAP_PREFIXES = (GAP_PREFIX_EN.lower(), GAP_PREFIX_ZH, "资料未涵盖:")
#: Terms (as ``term_set`` gives them) that say *that* something is not covered rather than
#: what: "the sources found do not mention ...", "资料没有提到...". A gap must name what is
#: missing with the question's own words; these are the only others it may use.
GAP_VOCABULARY = term_set(
    "source found find mention mentioned say said cover covered document information info "
    "detail whether answer answered question provided provide specify specified state "
    "stated explain explained include included describe described address addressed "
    "don doesn isn aren nothing anything specific specifically explicitly clear clearly "
    "available given context text passage none use uses used word words term terms "
) | frozenset(
    "资料 找到 提到 提及 涉及 涵盖 没有 未 文档 内容 说明 是否 相关 信息 具体 明确 关于 "
    "有关 问题 回答 无法 给出 出现 中 词".split()
)

_SPACE_RE = re.compile(r"[ \t\u3000]+")
_SPACE_BEFORE_PUNCT_RE = re.compile(r"\s+([.!?,;:。！？；，、：”」』)）])")
_BULLET_RE = re.compile(r"^(?:[-*+•·]\s+|\d{1,2}[.)]\s+|\d{1,2}、|[（(]\d{1,2}[)）]\s*)")
_RANGE_RE = re.compile(r"(\d+)\s*[-–—~～]\s*(\d+)")
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
_QUOTE_RE = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|「([^」\n]+)」|『([^』\n]+)』|‘([^’\n]+)’')
_EMPHASIS_CHARS_RE = re.compile(r"[*_`]")
_LATIN_RUN_RE = re.compile(r"[A-Za-z]+")
_MAX_RANGE = 20  # [1-300] is a typo, not three hundred citations

NO_CITATION = "has no citation"
NO_TERMS = "has no substantive terms to check against the sources"


class DraftFormatError(KbqaError):
    """The model's JSON draft is not valid JSON or does not match ``CLAIMS_SCHEMA``."""


#: JSON Schema of the non-streaming contract (extra keys are tolerated and ignored).
CLAIMS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["claims"],
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["text", "citations"],
                "properties": {
                    "text": {"type": "string", "minLength": 1},
                    "citations": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                },
            },
        },
        "not_covered": {"type": "string"},
    },
}
_VALIDATOR = jsonschema.Draft202012Validator(CLAIMS_SCHEMA)


# ----------------------------------------------------------------------------- parsing


def parse_claim(sentence: str) -> Claim:
    """The claim in ``sentence``: prose without markers or list bullet, cited numbers
    (deduplicated, in order of appearance) and kind (``gap`` for ``Not covered:``)."""
    numbers: list[int] = []

    def take(match: re.Match[str]) -> str:
        if sentence[match.end() : match.end() + 1] == "(":
            return match.group()  # a Markdown link such as [1](https://...)
        numbers.extend(_marker_numbers(match.group()))
        return ""

    prose = MARKER_RE.sub(take, sentence.strip())
    prose = _tidy(_BULLET_RE.sub("", prose.strip()))
    kind: ClaimKind = "gap" if _gap_body(prose) is not None else "claim"
    return Claim(text=prose, citations=tuple(dict.fromkeys(numbers)), kind=kind)


def _gap_body(prose: str) -> str | None:
    """The text after the gap prefix (tolerating Markdown emphasis), or None if not a gap."""
    bare = prose.replace("*", "").replace("_", "").strip()
    for prefix in GAP_PREFIXES:
        if bare.lower().startswith(prefix):
            return bare[len(prefix) :]
    return None


def _marker_numbers(marker: str) -> list[int]:
    inner = unicodedata.normalize("NFKC", marker).strip("[]【】^ ")
    out: list[int] = []
    for part in re.split(r"[,，、]", inner):
        part = part.strip().lstrip("^")
        rng = _RANGE_RE.fullmatch(part)
        if rng:
            lo, hi = int(rng.group(1)), int(rng.group(2))
            out.extend(range(lo, hi + 1) if 0 <= hi - lo <= _MAX_RANGE else (lo, hi))
        elif part.isdigit():
            out.append(int(part))
    return out


def _tidy(prose: str) -> str:
    prose = _SPACE_RE.sub(" ", prose)
    prose = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", prose)
    return prose.strip()


def parse_json_draft(text: str) -> list[Claim]:
    """Claims of a JSON draft (``CLAIMS_SCHEMA``), ``not_covered`` last as a gap claim.

    Accepts the object wrapped in a ```json fence. Markers inside a claim's text are parsed
    and merged after its ``citations``. Raises ``DraftFormatError`` on invalid JSON or schema.
    """
    body = text.strip()
    fence = re.fullmatch(r"```[a-zA-Z]*\s*\n?(.*?)\n?\s*```", body, re.DOTALL)
    if fence:
        body = fence.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise DraftFormatError(f"The model's answer is not valid JSON: {exc}.") from exc
    error = jsonschema.exceptions.best_match(_VALIDATOR.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise DraftFormatError(
            f"The model's answer does not match the claims format at {where}: {error.message}."
        )
    claims = [_json_claim(item) for item in data["claims"]]
    gap = data.get("not_covered", "").strip()
    if gap:
        parsed = parse_claim(gap)
        claims.append(Claim(text=parsed.text, citations=parsed.citations, kind="gap"))
    return claims


def _json_claim(item: dict[str, Any]) -> Claim:
    parsed = parse_claim(item["text"])
    merged = tuple(dict.fromkeys([*item["citations"], *parsed.citations]))
    return Claim(text=parsed.text, citations=merged, kind=parsed.kind)


# ----------------------------------------------------------------------------- verification


def _numbers(text: str) -> frozenset[str]:
    """Numbers written in ``text`` (NFKC), thousands separators removed: ``1,000`` -> ``1000``."""
    found = _NUMBER_RE.findall(unicodedata.normalize("NFKC", text))
    return frozenset(re.sub(r",(?=\d{3}\b)", "", n).rstrip(",.") for n in found)


def _quotes(text: str) -> list[str]:
    spans = ("".join(groups) for groups in _QUOTE_RE.findall(text))
    return [s.strip().rstrip(".,;:!?。，；：！？") for s in spans if s.strip()]


def _cites(numbers: Iterable[int], joiner: str = "or") -> str:
    return f" {joiner} ".join(f"[{n}]" for n in numbers)


def _unmark(text: str) -> str:
    """``text`` without Markdown emphasis and code characters (``*``, ``_``, backtick)."""
    return _EMPHASIS_CHARS_RE.sub("", text)


def gap_terms(body: str) -> tuple[str, ...]:
    """The substantive terms of a gap statement's ``body`` (the text after its prefix), in
    reading order: its terms minus ``GAP_VOCABULARY``, one-character terms and the parts
    jieba's search mode adds to a longer word (``回收`` of ``回收站``)."""
    found = [t for t in dict.fromkeys(terms(body))
             if t not in GAP_VOCABULARY and (len(t) > 1 or t.isdigit())]
    return tuple(without_parts(found))


def _within(term: str, terms: frozenset[str], text: str) -> bool:
    """Whether ``term`` is one of ``terms``, or (Chinese) a substring of normalised ``text``."""
    return term in terms or (not term.isascii() and term in text)


def _surface(body: str, term: str) -> str:
    """The word of ``body`` that gave the Latin ``term`` ("gigabytes" for "gigabyte")."""
    for match in _LATIN_RUN_RE.finditer(unicodedata.normalize("NFKC", body)):
        if stem(match.group().lower()) == term:
            return match.group()
    return term


class Verifier:
    """Checks claims against the blocks issued for one answer (rules in the module doc).

    ``min_overlap`` is gate two's minimum share of substantive terms, in [0, 1]; ``question``
    is what gap claims may name (the user's question and the standalone query, joined).
    """

    def __init__(
        self, blocks: Sequence[Block], *, min_overlap: float = 0.3, question: str = ""
    ) -> None:
        self.min_overlap = min_overlap
        self._terms = {b.n: term_set(b.chunk.text) for b in blocks}
        self._texts = {b.n: normalise(b.chunk.text) for b in blocks}
        self._bare_texts = {n: _unmark(t) for n, t in self._texts.items()}
        self._numbers = {b.n: _numbers(b.chunk.text) for b in blocks}
        self.common_terms = _common_terms(list(self._terms.values()))
        self._question_terms = term_set(question)
        self._question_text = normalise(question)

    def verify(self, claim: Claim) -> Verdict:
        """The verdict on ``claim``; a failure is data (issues), never an exception."""
        if claim.kind == "gap":
            return self._verify_gap(claim)
        if not claim.citations:
            return Verdict(claim=claim, ok=False, issues=(NO_CITATION,))
        issued = [n for n in claim.citations if n in self._terms]
        issues = [
            f"cited a nonexistent chunk number [{n}]"
            for n in claim.citations
            if n not in self._terms
        ]
        found = term_set(claim.text)
        substantive = (found - self.common_terms) or found
        if not substantive:
            return Verdict(claim=claim, ok=False, issues=(*issues, NO_TERMS))
        overlaps = {n: len(substantive & self._terms[n]) / len(substantive) for n in issued}
        verified, gate_two = self._gate_two(substantive, overlaps)
        issues += gate_two
        issues += self._check_numbers(claim.text, issued)
        issues += self._check_quotes(claim.text, issued)
        return Verdict(
            claim=claim,
            ok=not issues,
            verified=tuple(verified) if not issues else (),
            overlaps=tuple((n, round(o, 4)) for n, o in overlaps.items()),
            issues=tuple(issues),
        )

    def _verify_gap(self, claim: Claim) -> Verdict:
        """A gap passes with no citation, no digits, only the question's terms, and at
        least one of them in no block (module doc)."""
        issues: list[str] = []
        if claim.citations:
            issues.append(f"says something is not covered yet cites {_cites(claim.citations)}")
        if _numbers(claim.text):
            issues.append("says something is not covered yet gives a number")
        body = _gap_body(claim.text) or ""
        named = gap_terms(body)
        unasked = [t for t in named if not _within(t, self._question_terms, self._question_text)]
        if unasked:
            words = ", ".join(f"“{_surface(body, t)}”" for t in unasked)
            issues.append(f"names things the question did not ask about: {words}")
        elif not named:
            issues.append("says something is not covered but names nothing the question asks")
        else:
            issues += self._gap_mentions(body, named)
        return Verdict(claim=claim, ok=not issues, issues=tuple(issues))

    def _gap_mentions(self, body: str, named: Sequence[str]) -> list[str]:
        """No issue when some named term is in no block; else one issue per named term."""
        where = {t: self.mentions(t) for t in named}
        if not all(where.values()):
            return []
        return [
            f"says the sources do not mention “{_surface(body, t)}”, but "
            + (f"{_cites(ns)} does" if len(ns) == 1 else f"{_cites(ns, 'and')} do")
            for t, ns in where.items()
        ]

    def mentions(self, term: str) -> tuple[int, ...]:
        """Numbers of the blocks whose ORIGINAL text has ``term`` (a ``term_set`` term)."""
        return tuple(n for n in self._terms if _within(term, self._terms[n], self._texts[n]))

    def _gate_two(
        self, substantive: frozenset[str], overlaps: dict[int, float]
    ) -> tuple[list[int], list[str]]:
        counted = [n for n, o in overlaps.items() if o > 0 and o >= self.min_overlap / 2]
        covered: set[str] = set()
        for n in counted:
            covered |= substantive & self._terms[n]
        if counted and len(covered) / len(substantive) >= self.min_overlap:
            return counted, []
        weak = [n for n, o in overlaps.items() if o < self.min_overlap]
        return [], [f"[{n}] has only {overlaps[n]:.2f} substantive overlap with this sentence"
                    for n in weak]

    def _check_numbers(self, text: str, issued: list[int]) -> list[str]:
        if not issued:
            return []
        known: set[str] = set().union(*(self._numbers[n] for n in issued))
        missing = sorted(_numbers(text) - known)
        return [f"gives the number {m}, which appears in none of {_cites(issued)}"
                for m in missing]

    def _check_quotes(self, text: str, issued: list[int]) -> list[str]:
        if not issued:
            return []
        return [
            f"quotes “{q}” which does not appear in {_cites(issued)}"
            for q in _quotes(text)
            if not any(_unmark(normalise(q)) in self._bare_texts[n] for n in issued)
        ]


def _common_terms(block_terms: list[frozenset[str]]) -> frozenset[str]:
    """Terms found in more than half of the blocks and in at least 3 of them (module doc)."""
    counts = Counter(t for terms in block_terms for t in terms)
    return frozenset(t for t, c in counts.items() if c * 2 > len(block_terms) and c >= 3)


def feedback_lines(verdicts: Sequence[Verdict]) -> tuple[str, ...]:
    """One line per failing sentence (1-based position), for the single regeneration:
    ``Sentence 2 ("..."): cited a nonexistent chunk number [8]; ...``."""
    return tuple(
        f'Sentence {i} ("{_shorten(v.claim.text)}"): {"; ".join(v.issues)}'
        for i, v in enumerate(verdicts, 1)
        if not v.ok
    )


def _shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
