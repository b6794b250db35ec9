"""How a cited block reads clause by clause, for the clause check (``grounding.clauses``).

``source_text`` splits a block's ORIGINAL text (without its sentences addressed to the
assistant, ``grounding.evidence``; a Markdown table row with its header) into sentences and
their clauses, each with its terms, negation ``parity``, whether it is restricted ("only")
and the terms its negations focus on (``negated_terms``, after NegEx: Chapman et al. 2001).
The sentence side of the check reads a sentence with the same functions, so both sides are
compared alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kbqa.core.grounding.instructions import without_instructions
from kbqa.core.grounding.predicates import polar_form, restriction_scope
from kbqa.core.text.normalise import detect_language, has_cjk, normalise
from kbqa.core.text.quantities import Quantity, extract_quantities
from kbqa.core.text.sentences import join_quote_lines, split_sentences
from kbqa.core.text.tables import cells, row_sentence
from kbqa.core.text.terms import jieba_words, term_set, terms

#: Negation words, matched as whole words (English) or jieba words (Chinese).
NEGATIONS = frozenset(
    "not no never none cannot without neither nor nothing nobody nowhere 不 没 没有 无 未 "
    "非 别 勿 不能 不会 不得 不可 不可以 无法 无需 无须 不必 不用 不需 不需要 禁止 不要 "
    "不是 并非 不允许 不支持 从不 从未 未经 不再 不准 严禁 不予 不应 不应该 不该 尚未 "
    "未能 没法 毫无 绝不 决不".split()
)
#: Restrictions imply a negation of the rest ("only admins can" -> "guests cannot").
RESTRICTIONS = frozenset("only exclusively solely 仅 只 只有 仅限 唯有 只能 仅能".split())
# Bounds and idioms written with a negation that do not negate the claim.
_NOT_NEGATION_RE = re.compile(
    r"\b(?:no|not) (?:more|less|fewer|later|earlier|longer|sooner) than\b|\bnot only\b"
    r"|\bno matter\b|不超过|不得超过|不多于|不少于|不低于|不高于|不足|不到|不仅|不管|无论|不论"
)
_ANSWER_RE = re.compile(r"^\W*(?:no|yes|不|不是|不用|不需要|不能|不可以)\s*[,，.。!！]")
# Not inside a number or a time: "1,000", "02:00".
_CLAUSE_CUT_RE = re.compile(r"[;，；：]|(?<!\d)[,:]|[,:](?!\d)")
# A line break inside a paragraph (hard-wrapped Markdown), not before a list item, heading,
# quote or table row: the sentence goes on.
_SOFT_BREAK_RE = re.compile(r"(?<=\S)[ \t]*\n(?!\s*(?:[-*+#>|]|\d+[.)]\s))(?=[ \t]*\S)")
_TABLE_RULE_RE = re.compile(r"^\s*\|[\s:|-]*-[\s:|-]*$")
# A conjunction opening a clause joins it, it claims nothing ("…, and phones …", "，并且…").
_LEAD_RE = re.compile(r"^(?:(?:and|but|or|so|then|while|whereas|also)\b|并且|而且|而是|但是|同时|"
                      r"并|且|但|而)\s*")
_END_RE = re.compile(r"[\s.。!?！？]+$")
_LATIN_WORD_RE = re.compile(r"[a-z]+(?:['’]t)?")


@dataclass(frozen=True)
class SourceClause:
    """One clause of a cited block: its ``text`` (normalised), ``terms``, negation
    ``parity`` (0 or 1), whether it has a ``restriction``, ``sentence``: the index of its
    sentence in ``SourceText.sentences``, and ``negated``: its ``negated_terms``. Terms,
    parity and negated terms are read in the clause's ``predicates.polar_form``."""

    text: str
    terms: frozenset[str]
    parity: int
    restriction: bool
    sentence: int
    negated: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SourceText:
    """A block's evidence text read by clause: ``sentences`` (normalised text, terms,
    quantities) and their ``clauses``."""

    sentences: tuple[tuple[str, frozenset[str], tuple[Quantity, ...]], ...]
    clauses: tuple[SourceClause, ...]
    language: str = "en"


def clause_words(text: str) -> list[str]:
    """Latin words (with ``n't``) and jieba words of the CJK runs of normalised ``text``."""
    if not has_cjk(text):
        return _LATIN_WORD_RE.findall(text)
    out: list[str] = []
    for w in jieba_words(text):
        out.extend(_LATIN_WORD_RE.findall(w) if w.isascii() else [w])
    return out


def parity(text: str) -> int:
    """0 when normalised ``text`` states something, 1 when it denies it: the parity of its
    negation words, bounds written with a negation and a leading answer word aside."""
    text = _NOT_NEGATION_RE.sub(" ", _ANSWER_RE.sub(" ", text))
    count = sum(w in NEGATIONS or w.endswith(("n't", "n’t")) for w in clause_words(text))
    return count % 2


def _restricted(text: str) -> bool:
    """Whether a source clause restricts: a restriction word, or one inside a longer word
    as the claim side finds it (``restriction_scope``: 仅 of jieba's 仅供)."""
    return restriction_scope(text) is not None or any(
        w in RESTRICTIONS for w in clause_words(text))


def split_clauses(text: str) -> list[str]:
    """The clauses of one normalised sentence: cut at ``, ; : ，；：`` (not inside "1,000" or
    "02:00"), stripped, non-empty."""
    cut = (_LEAD_RE.sub("", _END_RE.sub("", p).strip()) for p in _CLAUSE_CUT_RE.split(text))
    return [c for c in cut if c]


@lru_cache(maxsize=1024)
def source_text(chunk_text: str, metadata: str = "") -> SourceText:
    """``SourceText`` of a block whose ORIGINAL text is ``chunk_text`` and whose metadata
    (title, section, updated: ``evidence.block_metadata``) is one more sentence, since the
    prompt shows it and the sentence may name it ("According to Uploads (updated …)");
    the text is read without its
    sentences addressed to the assistant, as every check reads it
    (``kbqa.core.grounding.evidence``); cached per passage like ``block_evidence``. Sentences
    are split before ``normalise`` (which lower-cases, hiding where English ones start),
    after joining the lines of a hard-wrapped paragraph.
    Never raises."""
    sentences = []
    clauses = []
    unwrapped = _with_headers(_SOFT_BREAK_RE.sub(
        " ", join_quote_lines(without_instructions(chunk_text))))
    raws = [*split_sentences(unwrapped), *([metadata.replace("\n", " ")] if metadata else [])]
    for i, raw in enumerate(raws):
        sentence = normalise(raw)
        sentences.append((sentence, term_set(sentence), tuple(extract_quantities(sentence))))
        for c in split_clauses(sentence):
            polar = polar_form(c)
            clauses.append(SourceClause(c, term_set(polar), parity(polar), _restricted(c), i,
                                        negated_terms(polar)))
    return SourceText(tuple(sentences), tuple(clauses), detect_language(unwrapped))


def _with_headers(text: str) -> str:
    """``text`` with each Markdown table row written with its table's header row (and the
    ``|---|`` rule left out): a row's cells are about its columns ("Uptime commitment"), as
    the offline reader writes them ("Plan: Business; …; Uptime commitment: 99.9%";
    ``_row_sentence``)."""
    out: list[str] = []
    header = ""
    for line in text.split("\n"):
        if not line.lstrip().startswith("|"):
            header = ""
            out.append(line)
        elif _TABLE_RULE_RE.match(line):
            continue
        elif not header:
            header = line.strip()
            out.append(line)
        else:
            out.append(_row_sentence(header, line.strip()))
    return "\n".join(out)


def _row_sentence(header: str, row: str) -> str:
    """A table ``row`` as one sentence of ``Header: value`` clauses, as the reader quotes
    it (``text.tables.row_sentence``: "Plan: Starter; …; Uptime commitment: none."), so a
    cell's negation ("none") is its own clause's; the header and row as written when their
    cells do not pair up."""
    names, values = cells(header), cells(row)
    if len(names) != len(values):
        return f"{header} {row}"
    return row_sentence(names, values) + "."


def negated_terms(text: str) -> frozenset[str]:
    """The focus of each negation in normalised ``text``: the first term after the negation
    word ("not replaced" -> ``replac``-, "不享有" -> ``享有``). Two clauses state the same claim
    with opposite polarity only when both hold the negated term; NegEx (Chapman et al.
    2001, "A simple algorithm for identifying negated findings") reads a negation's scope
    as the words after its cue in the same way."""
    text = _NOT_NEGATION_RE.sub(" ", _ANSWER_RE.sub(" ", text))
    words = clause_words(text)
    out = set()
    for i, w in enumerate(words):
        if w in NEGATIONS or w.endswith(("n't", "n’t")):
            after = next((t for v in words[i + 1 :] for t in terms(v)
                          if t not in NEGATIONS), None)
            if after:
                out.add(after)
    return frozenset(out)
