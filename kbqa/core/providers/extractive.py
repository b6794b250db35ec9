"""The offline default: answers by quoting the sources' own sentences, cited, or declines.

For ``answer``/``answer_json`` it splits each block's ORIGINAL text into sentences, scores
each by the question terms it contains, weighting a term by its rarity across the blocks
(``log((N + 1) / (df + 0.5))``, the BM25 IDF shape; a term in more than half of 3+ blocks
is "common" and weighs only ``COMMON_WEIGHT``, the same rule the verifier uses), and
returns the best sentence plus up to ``MAX_EXTRA`` more scoring at least ``KEEP_RATIO`` of
the best that add new information. Each is followed by its block number: ``... [2]``.

It declines (outputs only a ``Not covered:`` / ``资料未涵盖：`` sentence, which the pipeline
turns into a "no support" refusal) when fewer than half of the question's content terms
occur in any block, or when the best sentence contains none of the question's rarest terms
present in the blocks. Question terms no chosen sentence covers are named in a final gap
sentence (partial support). ``compress`` keeps the block's sentences that share any question
term, verbatim, one per line. ``rewrite`` is not supported.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import unicodedata
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from kbqa.core.errors import ProviderError
from kbqa.core.providers.base import Prompt, Provider, ProviderCall
from kbqa.core.providers.fake import word_deltas
from kbqa.core.sentences import MARKER_RE, split_sentences
from kbqa.core.text import detect_language
from kbqa.core.tokenize import stem, terms
from kbqa.core.tokens import count_tokens
from kbqa.core.types import Block, Language

KEEP_RATIO = 0.6  # an extra sentence must score 60% of the best (brief; tuned on demo docs)
MAX_EXTRA = 2
DUPLICATE_JACCARD = 0.6  # term-set Jaccard at or above which two sentences say the same
COMMON_WEIGHT = 0.1
GENERIC_TERMS = frozenset(
    """long many much get got need want know tell way happen still ever really thing keep
    something anything someone anyone make let like able allowed possible please
    多久 多长 多长时间 需要 怎样 怎么办 能否 是不是 哪里 时候 知道 告诉""".split()
)
_SUFFIXES = ("ments", "ment", "ings", "ing", "ions", "ion", "ed", "er", "es", "s")
_LINE_START_RE = re.compile(r"^\s*(?:[-*+•]\s|\d{1,2}[.)、]\s?|#|\||>)")
_BULLET_RE = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,2}[.)]\s+)")
_EMPHASIS_RE = re.compile(r"\*\*|__|`")
_WORD_RE = re.compile(r"[a-z]+")
_CJK_END = "。！？；"
# "How long/many/much", "maximum", "多久/多少/几": the answer is a quantity, so a sentence
# that states a number earns the weight of the question's rarest term (measured on the demo
# documents: without it "How long does the recycle bin keep items?" quoted how to restore).
_QUANTITY_RE = re.compile(
    r"\bhow (?:long|many|much|big|large|often|soon)\b|\b(?:max|maximum|minimum|limit)\w*"
    r"|多久|多少|多长|多大|几[天个次年月周小]|上限|最多|最长"
)
_DIGIT_RE = re.compile(r"\d")


def fold(term: str) -> str:
    """A looser English match than the S-stemmer: ``reimbursed``/``reimbursement`` -> ``reimburs``.

    Latin words lose one common suffix and a final ``e`` if at least 4 letters remain;
    numbers and Chinese terms are returned unchanged.
    """
    if not term.isascii() or not term.isalpha():
        return term
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            term = term[: -len(suffix)]
            break
    return term[:-1] if term.endswith("e") and len(term) > 4 else term


def folded_terms(text: str) -> frozenset[str]:
    return frozenset(fold(t) for t in terms(text))


QUANTITY_TERMS = frozenset(
    fold(t) for t in "limit maximum minimum max min size 上限 最多 最长 大小".split()
)


def unwrap(text: str) -> str:
    """Join hard-wrapped lines of a paragraph or list item, so a sentence is one line.

    Chunk text keeps the document's line breaks, and ``split_sentences`` ends a sentence at
    every line break; a line that starts a bullet, heading, table row or quote starts anew.
    """
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            lines.append("")
        elif lines and lines[-1] and not _LINE_START_RE.match(raw):
            glue = "" if _wide(lines[-1][-1]) and _wide(line[0]) else " "
            lines[-1] += glue + line
        else:
            lines.append(line)
    return "\n".join(line for line in lines if line)


def _wide(char: str) -> bool:
    """CJK ideographs and full-width punctuation, which join without a space."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def clean(sentence: str) -> str:
    """A source sentence fit to show: no bullet, emphasis or stray markers; "" for headings."""
    if sentence.lstrip().startswith(("#", "|")):
        return ""
    text = MARKER_RE.sub("", _BULLET_RE.sub("", sentence))
    return _EMPHASIS_RE.sub("", text).strip()


@dataclass(frozen=True)
class Candidate:
    """One sentence of one block: ``n`` the block number, ``position`` its order in the block."""

    n: int
    position: int
    text: str
    terms: frozenset[str]


@dataclass(frozen=True)
class Selection:
    """What to answer: chosen sentences (empty when declining) and uncovered question words."""

    chosen: tuple[Candidate, ...]
    uncovered: tuple[str, ...]
    declined: bool


def candidates(blocks: Sequence[Block]) -> list[Candidate]:
    """Every showable sentence of every block's original text, in block then reading order."""
    out: list[Candidate] = []
    for block in blocks:
        for position, raw in enumerate(split_sentences(unwrap(block.chunk.text))):
            text = clean(raw)
            found = folded_terms(text)
            if text and found:
                out.append(Candidate(block.n, position, text, found))
    return out


def question_terms(question: str) -> list[str]:
    """The question's distinct content terms, folded, in order (generic words removed)."""
    out = [fold(t) for t in terms(question) if t not in GENERIC_TERMS]
    return list(dict.fromkeys(out))


def term_weights(qterms: Sequence[str], blocks: Sequence[Block]) -> dict[str, float]:
    """Rarity of each question term across ``blocks`` (0.0 for a term in none of them)."""
    block_terms = [folded_terms(b.chunk.text) for b in blocks]
    n = len(block_terms)
    weights: dict[str, float] = {}
    for t in qterms:
        df = sum(t in bt for bt in block_terms)
        common = n >= 3 and df > n / 2
        weights[t] = 0.0 if df == 0 else COMMON_WEIGHT if common else math.log((n + 1) / (df + 0.5))
    return weights


def select(question: str, blocks: Sequence[Block]) -> Selection:
    """Choose the sentences that answer ``question`` from ``blocks``, or decline."""
    qterms = question_terms(question)
    weights = term_weights(qterms, blocks)
    present = [t for t in qterms if weights[t] > 0]
    if not qterms or len(present) * 2 < len(qterms):
        return Selection((), _surfaces(question, [t for t in qterms if t not in present]), True)
    top = max(weights[t] for t in present)
    rarest = {t for t in present if weights[t] >= top - 1e-9}
    pool = [(sum(weights[t] for t in present if t in c.terms), c) for c in candidates(blocks)]
    by_terms = sorted(pool, key=lambda sc: (-sc[0], sc[1].n, sc[1].position))
    if not by_terms or by_terms[0][0] <= 0 or not rarest & by_terms[0][1].terms:
        return Selection((), _surfaces(question, [t for t in qterms if t not in present]), True)
    bonus = top if _QUANTITY_RE.search(question.lower()) else 0.0
    scored = sorted(
        ((score + (bonus if score > 0 and _DIGIT_RE.search(c.text) else 0.0), c)
         for score, c in pool),
        key=lambda sc: (-sc[0], sc[1].n, sc[1].position),
    )
    chosen = _pick(scored)
    covered = frozenset().union(*(c.terms for c in chosen))
    if any(_DIGIT_RE.search(c.text) for c in chosen):
        covered |= QUANTITY_TERMS  # "limit", "maximum": a quoted number answers them
    missing = [t for t in qterms if t not in covered and _nameable(t)]
    # The best sentence leads; the others follow in block and reading order.
    ordered = (chosen[0], *sorted(chosen[1:], key=lambda c: (c.n, c.position)))
    return Selection(ordered, _surfaces(question, missing), False)


def _pick(scored: list[tuple[float, Candidate]]) -> list[Candidate]:
    best_score, best = scored[0]
    chosen = [best]
    for score, cand in scored[1:]:
        if len(chosen) > MAX_EXTRA or score < KEEP_RATIO * best_score:
            break
        seen = frozenset().union(*(c.terms for c in chosen))
        duplicate = any(_jaccard(cand.terms, c.terms) >= DUPLICATE_JACCARD for c in chosen)
        if not duplicate and len(cand.terms - seen) * 10 >= 3 * len(cand.terms):
            chosen.append(cand)
    return chosen


def _nameable(term: str) -> bool:
    """Worth naming in a gap: no digits, and Latin words of 4+ letters ("old" says little)."""
    if any(ch.isdigit() for ch in term):
        return False
    return not term.isascii() or len(term) >= 4


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def _surfaces(question: str, missing: Sequence[str]) -> tuple[str, ...]:
    """The question's own words for ``missing`` folded terms (digits never named)."""
    folded = unicodedata.normalize("NFKC", question).lower()
    by_term = {fold(stem(w)): w for w in _WORD_RE.findall(folded)}
    names = [by_term.get(t, t) for t in missing if not any(ch.isdigit() for ch in t)]
    # jieba's search mode gives 出租车 and its parts 出租, 租车: name only the longest.
    whole = [w for w in names if not any(w != o and w in o for o in names)]
    return tuple(dict.fromkeys(whole))


def gap_sentence(language: Language, missing: Sequence[str]) -> str:
    """A gap sentence naming what the sources do not mention (no digits, no citation)."""
    if language == "zh":
        if not missing:
            return "资料未涵盖：找到的资料无法回答这个问题。"
        return f"资料未涵盖：找到的资料没有提到{'、'.join(missing)}。"
    if not missing:
        return "Not covered: the sources found do not answer this question."
    return f"Not covered: the sources found do not mention {', '.join(missing)}."


def cite(sentence: str, n: int) -> str:
    """``sentence`` with its block marker: ``... days. [2]``; Chinese ``...30天[2]。``."""
    if sentence[-1:] in _CJK_END:
        return f"{sentence[:-1]}[{n}]{sentence[-1]}"
    return f"{sentence} [{n}]"


def render_stream(selection: Selection, language: Language) -> str:
    """The plain-text draft: one cited sentence per line, then the gap sentence if any."""
    lines = [cite(c.text, c.n) for c in selection.chosen]
    if selection.declined or selection.uncovered:
        lines.append(gap_sentence(language, selection.uncovered))
    return "\n".join(lines)


def render_json(selection: Selection, language: Language) -> str:
    """The JSON draft (``{"claims": [...], "not_covered": ...}``, the citations contract)."""
    data: dict[str, object] = {
        "claims": [{"text": c.text, "citations": [c.n]} for c in selection.chosen]
    }
    if selection.declined or selection.uncovered:
        data["not_covered"] = gap_sentence(language, selection.uncovered)
    return json.dumps(data, ensure_ascii=False)


def compress_text(question: str, block: Block) -> str:
    """The block's sentences sharing any question term, verbatim, one per line ("" if none)."""
    qterms = set(question_terms(question))
    kept = [
        s for s in split_sentences(unwrap(block.chunk.text)) if qterms & folded_terms(s)
    ]
    return "\n".join(kept)


class ExtractiveProvider(Provider):
    """Offline answers quoted from the blocks; no network, no model."""

    name: ClassVar[str] = "extractive"
    supports_rewrite: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__(model="extractive", fast_model="extractive")

    @property
    def label(self) -> str:
        return "offline extractive"

    def compose(self, prompt: Prompt) -> str:
        """The whole output for ``prompt``; raises ``ProviderError`` for ``rewrite``."""
        if prompt.task == "compress":
            return compress_text(prompt.question, prompt.blocks[0]) if prompt.blocks else ""
        if prompt.task == "rewrite":
            raise ProviderError("the offline extractive provider cannot rewrite questions")
        # Feedback needs no special handling: every sentence is quoted from its block.
        selection = select(prompt.question, prompt.blocks)
        language = detect_language(prompt.question)
        if prompt.task == "answer_json":
            return render_json(selection, language)
        return render_stream(selection, language)

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield the composed output a word (or 4 CJK characters) at a time."""
        call.model = call.model_version = "extractive"
        text = self.compose(prompt)
        for delta in word_deltas(text):
            await asyncio.sleep(0)
            yield delta
        call.input_tokens = count_tokens(prompt.system) + sum(
            count_tokens(m["content"]) for m in prompt.messages
        )
        call.output_tokens = count_tokens(text)
        call.stop_reason = "end_turn"
