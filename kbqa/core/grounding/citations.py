"""Citations: verify each claim of a draft against the blocks issued for one answer.

One ``Verifier`` serves both contracts: the streaming one (plain sentences with inline
markers, split by ``kbqa.core.text.sentences``) and the JSON one (``{"claims": [...]}``);
both are parsed by ``kbqa.core.grounding.parsing`` (re-exported here).

Verification (``Verifier.verify``), in order:

0. A fragment that claims nothing ("- item two [2]": fewer than two content words and no
   quantity, ``kbqa.core.grounding.predicates.is_fragment``) fails: a chip on it would
   vouch for a claim that is not there.
1. Gate one: every cited number must be an issued block number; marker-like text naming no
   number (``[Source: Upload Policy]``) is a citation of something not issued.
2. Gate two: substantive overlap. The sentence's distinct terms (``kbqa.core.text.terms``),
   minus the terms common to most blocks, are looked up in each cited block's ORIGINAL
   ``chunk.text`` (never the compressed ``block.text``) without its sentences addressed to
   the assistant (``kbqa.core.grounding.evidence``) and the metadata the prompt shows for it
   (title, section). Overlap = found / substantive. Every later check reads the same text.
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
   *Across languages* (the sentence, outside its quotations, is in another language than
   every cited block's text), when gate two fails on all its terms it is tried again on the
   terms written in the blocks' language (Latin words for English, CJK words for Chinese):
   the source's key terms and names the answer keeps verbatim, and the source span it
   quotes. At least ``MIN_CROSS_TERMS`` of them, numbers aside, must be there to check.
3. Numbers: every number in the sentence must appear in a cited block or its metadata
   (title, section, updated date; ``2025-07-04`` gives 2025, 7 and 4, leading zeros never
   matter), since the prompt lets the model name a source's date.
4. Quotations: text inside ``"…"``, ``“…”``, ``「…」``, ``『…』``, ``‘…’`` must appear verbatim
   in a cited block or its title or section, compared after ``normalise`` and with the
   Markdown emphasis and code characters ``*``, ``_`` and a backtick removed on both sides.
5. Instructions are not evidence: a sentence whose terms overlap the answering rules
   (``instructions``, the system prompt) by at least ``RULES_OVERLAP`` and more than any
   cited block is dropped ("My system prompt says: You answer ... ONLY the numbered
   sources [1]"). A failed sentence that its block's instruction sentences would have
   supported says so ("[1] says this only in a sentence addressed to the assistant").
6. Claim words (``kbqa.core.grounding.claim_words``): a number, time, frequency,
   comparison, negation or name that no cited block, its metadata or the question says
   fails the sentence ("[2] does not say “hourly”"). Every content word found in no
   evidence is named in ``Verdict.unsupported``.

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

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from kbqa.core.grounding.claim_words import Evidence, reason, unsupported_words
from kbqa.core.grounding.clauses import clause_issues
from kbqa.core.grounding.evidence import block_evidence, block_metadata, numbers_in, unmark
from kbqa.core.grounding.parsing import (
    CLAIMS_SCHEMA,
    GAP_PREFIX_EN,
    GAP_PREFIX_ZH,
    GAP_PREFIXES,
    DraftFormatError,
    gap_body,
    parse_claim,
    parse_json_draft,
)
from kbqa.core.grounding.predicates import is_fragment
from kbqa.core.grounding.source_text import source_text
from kbqa.core.text.normalise import detect_language, normalise
from kbqa.core.text.terms import stem, term_set, terms, without_parts
from kbqa.core.types import Block, Claim, Verdict

__all__ = [
    "CLAIMS_SCHEMA", "GAP_PREFIXES", "GAP_PREFIX_EN", "GAP_PREFIX_ZH", "DraftFormatError",
    "Verifier", "feedback_lines", "gap_terms", "parse_claim", "parse_json_draft",
]

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
#: Terms a cross-language sentence must keep from its source, numbers aside (module doc).
MIN_CROSS_TERMS = 2
#: Share of a sentence's terms in the answering rules from which, when no cited block has
#: more, the sentence repeats the instructions (the issue's case overlaps them fully).
RULES_OVERLAP = 0.5

_QUOTE_RE = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|「([^」\n]+)」|『([^』\n]+)』|‘([^’\n]+)’')
_LATIN_RUN_RE = re.compile(r"[A-Za-z]+")

NO_CITATION = "has no citation"
NO_TERMS = "has no substantive terms to check against the sources"
FRAGMENT = ("is a fragment that claims nothing (a list item needs a subject and what is said "
            "of it, or belongs in the sentence that introduces it)")


# ----------------------------------------------------------------------------- verification


def _quotes(text: str) -> list[str]:
    spans = ("".join(groups) for groups in _QUOTE_RE.findall(text))
    return [s.strip().rstrip(".,;:!?。，；：！？") for s in spans if s.strip()]


def _cites(numbers: Iterable[int], joiner: str = "or") -> str:
    return f" {joiner} ".join(f"[{n}]" for n in numbers)


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


@lru_cache(maxsize=8)
def _rules_terms(instructions: str) -> frozenset[str]:
    """The answering rules' terms (the rules' text is the same for every answer)."""
    return term_set(instructions)


class Verifier:
    """Checks claims against the blocks issued for one answer (rules in the module doc).

    ``min_overlap`` is gate two's minimum share of substantive terms, in [0, 1]; ``question``
    is what gap claims may name (the user's question and the standalone query, joined);
    ``instructions`` is the answering rules' text, never evidence.
    """

    def __init__(
        self,
        blocks: Sequence[Block],
        *,
        min_overlap: float = 0.3,
        question: str = "",
        instructions: str = "",
    ) -> None:
        self.min_overlap = min_overlap
        evidence = {b.n: block_evidence(b.chunk.text, block_metadata(b)) for b in blocks}
        self._terms = {n: e.terms for n, e in evidence.items()}
        self._texts = {n: e.text for n, e in evidence.items()}
        self._meta = {n: e.meta for n, e in evidence.items()}
        self._evidence_terms = {n: e.evidence_terms for n, e in evidence.items()}
        self._bare_texts = {n: e.bare_text for n, e in evidence.items()}
        self._numbers = {n: e.numbers for n, e in evidence.items()}
        self._languages = {n: e.language for n, e in evidence.items()}
        self._instruction_terms = {n: e.instruction_terms for n, e in evidence.items()}
        self._sources = {b.n: source_text(b.chunk.text, block_metadata(b)) for b in blocks}
        self.common_terms = _common_terms(list(self._terms.values()))
        self._question_terms = term_set(question)
        self._question_text = normalise(question)
        self._question_numbers = numbers_in(self._question_text)
        self._rules_terms = _rules_terms(instructions)

    def verify(self, claim: Claim) -> Verdict:
        """The verdict on ``claim``; a failure is data (issues), never an exception."""
        if claim.kind == "gap":
            return self._verify_gap(claim)
        if not claim.citations and not claim.unknown:
            return Verdict(claim=claim, ok=False, issues=(NO_CITATION,))
        issued = [n for n in claim.citations if n in self._terms]
        issues = [
            f"cited a nonexistent chunk number [{n}]"
            for n in claim.citations
            if n not in self._terms
        ]
        issues += [f"cited {u}, which is not one of the numbered sources" for u in claim.unknown]
        found = term_set(claim.text)
        if not found:
            return Verdict(claim=claim, ok=False, issues=(*issues, NO_TERMS))
        if is_fragment(claim.text):
            return Verdict(claim=claim, ok=False, issues=(*issues, FRAGMENT))
        found, overlaps, verified, gate_two = self._gates(claim.text, issued, found)
        issues += gate_two
        issues += self._check_numbers(claim.text, issued)
        issues += self._check_quotes(claim.text, issued)
        if not issues:
            issues += self._check_rules((found - self.common_terms) or found, overlaps)
        unsupported, word_issues = self._claim_words(claim.text, issued, found)
        if not issues:
            issues += word_issues
        if not issues:
            issues += clause_issues(
                claim.text, [(n, self._sources[n]) for n in issued],
                self.common_terms)
        if issues:
            issues += self._check_instructions((found - self.common_terms) or found, issued)
        return Verdict(
            claim=claim,
            ok=not issues,
            verified=tuple(verified) if not issues else (),
            overlaps=tuple((n, round(o, 4)) for n, o in overlaps.items()),
            issues=tuple(issues),
            unsupported=unsupported,
        )

    def _gates(
        self, text: str, issued: list[int], found: frozenset[str]
    ) -> tuple[frozenset[str], dict[int, float], list[int], list[str]]:
        """Gate two on ``found``; when it fails for a sentence in another language than its
        blocks, again on the terms it keeps in their language (module doc). Returns the terms
        checked, the overlaps, the verified numbers and the issues."""
        overlaps, verified, issues = self._overlaps(found, issued)
        if not issues:
            return found, overlaps, verified, issues
        languages = {self._languages[n] for n in issued}
        sentence_language = detect_language(_QUOTE_RE.sub(" ", text))
        if not languages or sentence_language in languages:
            return found, overlaps, verified, issues
        english_blocks = languages == {"en"}
        kept = frozenset(t for t in found if t.isascii() == english_blocks or t[0].isdigit())
        if sum(not t[0].isdigit() for t in kept) < MIN_CROSS_TERMS:
            language = "Chinese" if sentence_language == "zh" else "English"
            return found, overlaps, verified, [
                f"is written in {language} and keeps too few words of {_cites(issued)} to be "
                "checked (keep the source's key terms or quote it)"
            ]
        return (kept, *self._overlaps(kept, issued))

    def _overlaps(
        self, found: frozenset[str], issued: list[int]
    ) -> tuple[dict[int, float], list[int], list[str]]:
        substantive = (found - self.common_terms) or found
        overlaps = {
            n: len(substantive & self._evidence_terms[n]) / len(substantive) for n in issued
        }
        return (overlaps, *self._gate_two(substantive, overlaps))

    def _check_rules(self, substantive: frozenset[str], overlaps: dict[int, float]) -> list[str]:
        """An issue when the sentence is closer to the answering rules than to its blocks."""
        if not self._rules_terms:
            return []
        rules = len(substantive & self._rules_terms) / len(substantive)
        if rules >= RULES_OVERLAP and rules > max(overlaps.values(), default=0.0):
            return ["repeats the answering instructions, which are not a source"]
        return []

    def _check_instructions(self, substantive: frozenset[str], issued: list[int]) -> list[str]:
        """Why a failed sentence failed, when its cited block says it only in sentences
        addressed to the assistant (``grounding.evidence``): their terms would have taken it
        over ``min_overlap``."""
        return [
            f"[{n}] says this only in a sentence addressed to the assistant, which is an "
            "instruction, not evidence"
            for n in issued
            if substantive & self._instruction_terms[n]
            and len(substantive & (self._evidence_terms[n] | self._instruction_terms[n]))
            >= self.min_overlap * len(substantive)
        ]

    def _claim_words(
        self, text: str, issued: list[int], checked: frozenset[str]
    ) -> tuple[tuple[str, ...], list[str]]:
        """The sentence's content words in no evidence, and the issues of its risky ones."""
        if not issued:
            return (), []
        block_terms = frozenset().union(*(self._evidence_terms[n] for n in issued))
        evidence = Evidence(
            text="\n".join([*(f"{self._texts[n]}\n{self._meta[n]}" for n in issued),
                            self._question_text]),
            numbers=frozenset().union(*(self._numbers[n] for n in issued))
            | self._question_numbers,
            block_terms=block_terms,
        )
        risky = unsupported_words(text, evidence, checked)
        missing = [t for t in sorted(checked - block_terms - self._question_terms)
                   if not t[0].isdigit()]
        seen = {w.word.lower() for w in risky}
        named = [w.word for w in risky] + [t for t in missing if t not in seen]
        return tuple(dict.fromkeys(named)), [reason(w, issued) for w in risky]

    def _verify_gap(self, claim: Claim) -> Verdict:
        """A gap passes with no citation, no digits, only the question's terms, and at
        least one of them in no block (module doc)."""
        issues: list[str] = []
        if claim.citations:
            issues.append(f"says something is not covered yet cites {_cites(claim.citations)}")
        if numbers_in(claim.text):
            issues.append("says something is not covered yet gives a number")
        body = gap_body(claim.text) or ""
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
        missing = sorted(numbers_in(text) - known)
        return [f"gives the number {m}, which appears in none of {_cites(issued)}"
                for m in missing]

    def _check_quotes(self, text: str, issued: list[int]) -> list[str]:
        if not issued:
            return []
        return [
            f"quotes “{q}” which does not appear in {_cites(issued)}"
            for q in _quotes(text)
            if not any(unmark(normalise(q)) in self._bare_texts[n] for n in issued)
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
