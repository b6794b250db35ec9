"""Conflicts across languages: the other language's values read in the question's terms.

An admin replaces the Chinese upload manual, and its "单个上传文件的最大大小为 100 MB" now
disagrees with the English manual's "The maximum size of a single uploaded file is 200 MB".
Units are already one (``kbqa.core.text.quantities``: MB, 兆 and M; 天 and days; 欧元 and
EUR; 小时 and hours), but the words that say what is measured are not: the two contexts
share no term, so neither the shared-context rule nor the shared-subject rule of
``kbqa.core.grounding.conflicts`` could ever see a disagreement across languages.

``Bridge`` rewrites the mentions of documents in the other language than the question's
into the question's language (``kbqa.core.text.bilingual.bridged_terms``: CC-CEDICT's
glosses, single characters left out), their context in reading order, their subject and
clause, and the clauses, sections and titles of those documents. ``conflicts`` compares a
pair of mentions of two languages through their bridged forms with the same rules as any
pair: what the two values are of is matched through the question's terms in both
languages; pairs of one language are compared as written, as before.

``probe_query`` is the conflict probe's search in the other language: the question's
terms and the asked values' clause words, bridged, so the other language's statement of
the value reaches the blocks even though retrieval ranks by the question's own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from kbqa.core.grounding.conflict_focus import clauses
from kbqa.core.grounding.mentions import Mention
from kbqa.core.text.bilingual import Vocabulary, available, bridged_terms
from kbqa.core.text.terms import is_question_word, term_set, terms
from kbqa.core.types import Block


def language_of(block: Block) -> str:
    """The language of ``block``'s chunk as ingestion detected it ("en" or "zh")."""
    return block.chunk.language


def bridged_sequence(found: Iterable[str], language: str,
                     vocabulary: frozenset[str] | Vocabulary = frozenset()) -> tuple[str, ...]:
    """``found`` (terms, in order) as terms of ``language``, each term's words in its
    place, duplicates dropped (``bilingual.bridged_terms``)."""
    at_hand = vocabulary if isinstance(vocabulary, Vocabulary) else Vocabulary(vocabulary)
    out: dict[str, None] = {}
    for t in found:
        out.update(dict.fromkeys(sorted(bridged_terms(frozenset({t}), language, at_hand))))
    return tuple(out)


@dataclass
class Bridge:
    """Mentions and document clauses of the other language than ``language``'s, bridged
    into it (cached per mention)."""

    language: str
    vocabulary: frozenset[str] = frozenset()  # the question's and its language's blocks' terms
    _mentions: dict[int, Mention] = field(default_factory=dict)
    _at_hand: Vocabulary = field(init=False)  # ``vocabulary`` indexed once per bridge

    def __post_init__(self) -> None:
        self._at_hand = Vocabulary(self.vocabulary)

    @classmethod
    def of(cls, language: str, blocks: Sequence[Block], question: str) -> Bridge:
        """A bridge into ``language`` whose vocabulary is the terms of ``question`` and of
        the clauses of ``blocks`` in that language."""
        found = set(term_set(question))
        for b in blocks:
            if language_of(b) == language:
                found.update(t for c in clauses(b.chunk.text) for t in c)
        return cls(language, frozenset(found))

    def crosses(self, a: Mention, b: Mention) -> bool:
        """Whether ``a`` and ``b`` are of two languages (and the dictionary is installed)."""
        return language_of(a.block) != language_of(b.block) and available()

    def mention(self, m: Mention) -> Mention:
        """``m`` itself in the question's language; else its context, subject and clause
        bridged into it."""
        if language_of(m.block) == self.language:
            return m
        key = id(m)
        if key not in self._mentions:
            self._mentions[key] = replace(
                m, context=bridged_sequence(m.context, self.language, self._at_hand),
                subject=bridged_sequence(m.subject, self.language, self._at_hand),
                clause=bridged_terms(m.clause, self.language, self._at_hand))
        return self._mentions[key]

    def clauses(self, blocks: Sequence[Block],
                own: dict[str, list[frozenset[str]]]) -> dict[str, list[frozenset[str]]]:
        """``own`` (clauses, sections and titles per document) with the documents of the
        other language's entries bridged."""
        other = {b.chunk.doc_id for b in blocks if language_of(b) != self.language}
        return {doc: [bridged_terms(c, self.language, self._at_hand) for c in found]
                if doc in other else found
                for doc, found in own.items()}


def probe_query(question: str, words: Sequence[str], language: str) -> str:
    """The conflict probe's search in the other language than ``language`` (the
    question's): the question's terms and ``words`` (the asked values' clause words),
    bridged; "" when the dictionary has none of them or is not installed."""
    if not available():
        return ""
    other = "zh" if language == "en" else "en"
    asked = [t for t in dict.fromkeys(terms(question)) if not is_question_word(t)]
    found = bridged_sequence([*asked, *words], other)
    kept = [t for t in found if not t[0].isdigit() and (t.isascii() == (other == "en"))]
    return " ".join(kept)
