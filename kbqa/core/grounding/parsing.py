"""Parsing a draft into claims: one parser for streamed sentences and JSON drafts.

Markers (``kbqa.core.text.sentences.MARKER_RE``): ``[2]``, ``[1][3]``, ``[1, 3]``, ``[1-3]``
(1, 2, 3), ``[^2]``, ``【2】``, ``［２］``, and the forms models and gateways also write:
``[ID:2]``, ``[S2]``, ``[source 2]``, ``(Source 2)``, ``[来源2]``, ``（来源2）`` and superscript
digits (``¹``, ``²³`` is 23, ``¹,³`` is 1 and 3), before or after the final punctuation;
never ``[sic]``, ``[a]``, ``[citation needed]``, a Markdown link ``[1](https://...)`` or an
exponent (``10⁶``, ``m²``). Text that looks like a marker but names no number
(``LOOSE_MARKER_RE``: ``[Source: Upload Policy]``, ``[doc-010#c02]``) goes to
``Claim.unknown``: the verifier reports a citation of something not issued, not a sentence
without citation.

The prose keeps no list bullet and no Markdown emphasis (``**bold**``, ``__bold__``,
``*italic*``): what the verifier checks is what the user reads, without asterisks. A sentence
starting with ``Not covered:`` / ``资料未涵盖：`` is a *gap*: a statement of what the sources
do not cover.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import jsonschema

from kbqa.core.errors import KbqaError
from kbqa.core.text.sentences import LOOSE_MARKER_RE, MARKER_RE
from kbqa.core.types import Claim, ClaimKind

#: The prefix of a gap sentence, as the answer prompt asks for it (``kbqa.core.generation.prompt``).
GAP_PREFIX_EN = "Not covered:"
GAP_PREFIX_ZH = "资料未涵盖："
#: Lower-cased prefixes ``parse_claim`` recognises (also the half-width colon).
GAP_PREFIXES = (GAP_PREFIX_EN.lower(), GAP_PREFIX_ZH, "资料未涵盖:")

_SPACE_RE = re.compile(r"[ \t\u3000]+")
_SPACE_BEFORE_PUNCT_RE = re.compile(r"\s+([.!?,;:。！？；，、：”」』)）])")
_BULLET_RE = re.compile(r"^(?:[-*+•·]\s+|\d{1,2}[.)]\s+|\d{1,2}、|[（(]\d{1,2}[)）]\s*)")
_RANGE_RE = re.compile(r"(\d+)\s*[-–—~～]\s*(\d+)")
_KEY_RE = re.compile(r"(?:ids?|sources?|src|ref|来源|出处|s)(?=\s*[:：#]?\s*\d)", re.IGNORECASE)
_STRONG_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_RE = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
# What is left of emphasis after the pairs are gone: a ``**``/``__`` run, or a ``*``/``_``
# opening or closing a word at the start or end of the sentence.
_STRAY_RE = re.compile(r"\*\*+|(?<!\w)__+|__+(?!\w)|^[*_](?=\S)|(?<=\S)[*_](?=[\s.!?。！？]*$)")
_MAX_RANGE = 20  # [1-300] is a typo, not three hundred citations


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


def parse_claim(sentence: str) -> Claim:
    """The claim in ``sentence``: prose without markers, list bullet or Markdown emphasis,
    cited numbers (deduplicated, in order of appearance), marker-like text naming no number
    (``unknown``) and kind (``gap`` for ``Not covered:``)."""
    numbers: list[int] = []
    unknown: list[str] = []

    def take(match: re.Match[str]) -> str:
        if sentence[match.end() : match.end() + 1] == "(":
            return match.group()  # a Markdown link such as [1](https://...)
        numbers.extend(marker_numbers(match.group()))
        return ""

    def take_unknown(match: re.Match[str]) -> str:
        unknown.append(match.group())
        return ""

    prose = MARKER_RE.sub(take, sentence.strip())
    prose = LOOSE_MARKER_RE.sub(take_unknown, prose)
    prose = _tidy(strip_emphasis(_BULLET_RE.sub("", prose.strip())))
    kind: ClaimKind = "gap" if gap_body(prose) is not None else "claim"
    return Claim(
        text=prose, citations=tuple(dict.fromkeys(numbers)), kind=kind, unknown=tuple(unknown)
    )


def strip_emphasis(text: str) -> str:
    """``text`` without Markdown emphasis: ``**200 MB**`` and ``*200 MB*`` -> ``200 MB``
    (a lone ``*`` as in ``5 * 3`` stays). A marker left unbalanced (bold opened in one
    sentence and closed in the next: ``**Every employee …``) is removed too, since it can
    only show as stray asterisks."""
    text = _ITALIC_RE.sub(r"\1", _STRONG_RE.sub(r"\2", text))
    return _STRAY_RE.sub("", text)


def gap_body(prose: str) -> str | None:
    """The text after the gap prefix (tolerating Markdown emphasis), or None if not a gap."""
    bare = prose.replace("*", "").replace("_", "").strip()
    for prefix in GAP_PREFIXES:
        if bare.lower().startswith(prefix):
            return bare[len(prefix) :]
    return None


def marker_numbers(marker: str) -> list[int]:
    """The block numbers one marker names: ``[1-3]`` -> [1, 2, 3], ``[S2]`` -> [2],
    ``¹,³`` -> [1, 3]; a range wider than ``_MAX_RANGE`` gives its two ends."""
    inner = _KEY_RE.sub(" ", unicodedata.normalize("NFKC", marker))
    inner = inner.strip("[]【】()（）^ ")
    out: list[int] = []
    for part in re.split(r"[,，、]", inner):
        part = part.strip().lstrip("^").strip(" :：#")
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
    return Claim(text=parsed.text, citations=merged, kind=parsed.kind, unknown=parsed.unknown)
