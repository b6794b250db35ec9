"""Does a knowledge-base-derived query expansion help retrieval on how people ask? (issue 12)

Usage: ``.venv/bin/python bench/expansion.py [CASES.jsonl ...] [--k 5]``
(default: the demo, natural and held-out natural sets in ``sources/demo/``).

Three rankings of the demo knowledge base's chunks (``sources/demo/docs``, chunked as
ingestion chunks them, one in-memory segment scored by kbqa's own BM25), side by side on the
same questions:

- ``bm25``: the query's ``search_terms``, as retrieval searches today.
- ``rm3``: pseudo-relevance feedback, RM3 (Lavrenko & Croft, SIGIR 2001, relevance model 1;
  interpolated with the query as in Abdul-Jaleel et al., TREC 2004). The top ``FB_DOCS``
  chunks give ``P(w|R) = sum_D P(w|D) * P(D|q)`` with ``P(D|q)`` their BM25 scores
  normalised to sum 1; the ``FB_TERMS`` best terms, weights normalised, are mixed with the
  query's own terms (each ``1/|q|``) as ``ORIGINAL_WEIGHT * q + (1 - ORIGINAL_WEIGHT) * R``.
  Parameters are Anserini's RM3 defaults (fbDocs 10, fbTerms 10, originalQueryWeight 0.5),
  not tuned here.
- ``assoc``: term associations learned from the knowledge base itself: two terms are
  associated when they share chunks (Dice coefficient ``2 n(a,b) / (n(a) + n(b))`` over
  chunks, at least ``MIN_DICE``); each query term the knowledge base knows adds its
  ``ASSOC_PER_TERM`` best associates at weight ``ASSOC_WEIGHT`` times the Dice value.

A question's *answer chunks* are the chunks whose text holds one alternative of every
``answer_contains`` group (case-insensitive); questions with no such chunk, follow-ups
(``history``: they need the standalone rewrite first) and refusals are left out. Printed per
set and method: hit@1 and hit@k (an answer chunk ranked first / in the top k, which is what
the reader is given) and MRR@10. Deterministic; nothing is timed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import frontmatter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kbqa.core.retrieval.index import IndexSnapshot  # noqa: E402
from kbqa.core.retrieval.segment import build_segment  # noqa: E402
from kbqa.core.text.terms import search_terms  # noqa: E402
from sources.chunking import chunk_text  # noqa: E402

FB_DOCS = 10  # Anserini RM3 default fbDocs
FB_TERMS = 10  # Anserini RM3 default fbTerms
ORIGINAL_WEIGHT = 0.5  # Anserini RM3 default originalQueryWeight
MIN_DICE = 0.3
ASSOC_PER_TERM = 2
ASSOC_WEIGHT = 0.5
DEFAULT_SETS = ("questions.jsonl", "natural.jsonl", "natural_holdout.jsonl")


class Corpus:
    """The demo chunks, their terms and one BM25 segment over them."""

    def __init__(self, docs: Path) -> None:
        self.texts: list[str] = []
        self.terms: list[list[str]] = []
        for path in sorted(docs.glob("*.md")):
            post = frontmatter.load(path)
            for draft in chunk_text(post.content):
                self.texts.append(draft.text.lower())
                self.terms.append(search_terms(f"{draft.section}\n{draft.text}"))
        ids = [f"c{i:05d}" for i in range(len(self.texts))]
        self.snapshot = IndexSnapshot([build_segment(ids, [0] * len(ids), self.terms)])
        self.chunks_of: dict[str, set[int]] = defaultdict(set)
        for i, ts in enumerate(self.terms):
            for t in ts:
                self.chunks_of[t].add(i)

    def term_scores(self, term: str) -> list[float]:
        """Each chunk's BM25 contribution from ``term`` alone (0 where absent)."""
        per_segment, _ = self.snapshot.scores([term])
        scores = per_segment.get(0)
        return [0.0] * len(self.texts) if scores is None else scores.tolist()

    def weighted(self, weights: dict[str, float]) -> list[float]:
        """Each chunk's ``sum_t weight_t * bm25_t``."""
        total = [0.0] * len(self.texts)
        for term, w in weights.items():
            for i, s in enumerate(self.term_scores(term)):
                total[i] += w * s
        return total

    def rank(self, weights: dict[str, float]) -> list[int]:
        """Chunk positions by ``weighted`` score, best first, ties by position."""
        total = self.weighted(weights)
        return sorted((i for i, s in enumerate(total) if s > 0), key=lambda i: (-total[i], i))

    def rm3(self, query: dict[str, float]) -> dict[str, float]:
        """RM3 weights for ``query`` (module docstring)."""
        scores = self.weighted(query)
        top = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: -scores[i])
        top = top[:FB_DOCS]
        norm = sum(scores[i] for i in top)
        relevance: Counter[str] = Counter()
        for i in top:
            counts = Counter(self.terms[i])
            for term, n in counts.items():
                relevance[term] += n / len(self.terms[i]) * scores[i] / norm
        best = relevance.most_common(FB_TERMS)
        total = sum(v for _, v in best) or 1.0
        mixed = {t: ORIGINAL_WEIGHT * w for t, w in query.items()}
        for term, v in best:
            mixed[term] = mixed.get(term, 0.0) + (1 - ORIGINAL_WEIGHT) * v / total
        return mixed

    def associated(self, query: dict[str, float]) -> dict[str, float]:
        """The query plus each known term's best associates in the knowledge base."""
        out = dict(query)
        for term in query:
            mine = self.chunks_of.get(term)
            if not mine:
                continue
            near: Counter[str] = Counter()
            for i in mine:
                near.update(set(self.terms[i]))
            dice = {
                other: 2 * n / (len(mine) + len(self.chunks_of[other]))
                for other, n in near.items()
                if other != term
            }
            best = sorted(dice.items(), key=lambda kv: (-kv[1], kv[0]))[:ASSOC_PER_TERM]
            for other, value in best:
                if value >= MIN_DICE and other not in query:
                    out[other] = out.get(other, 0.0) + ASSOC_WEIGHT * value / len(query)
        return out


def answer_chunks(corpus: Corpus, groups: Sequence[Sequence[str]]) -> set[int]:
    """Chunks holding one alternative of every group (case-insensitive)."""
    return {
        i
        for i, text in enumerate(corpus.texts)
        if all(any(alt.lower() in text for alt in group) for group in groups)
    }


def score_set(corpus: Corpus, path: Path, k: int) -> tuple[int, int, dict[str, tuple[float, ...]]]:
    """(cases counted, cases skipped, method -> (hit@1, hit@k, MRR@10))."""
    hits: dict[str, list[tuple[int, int, float]]] = defaultdict(list)
    skipped = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case.get("expect") != "answer" or case.get("history") or not case.get("answer_contains"):
            continue
        gold = answer_chunks(corpus, case["answer_contains"])
        terms = list(dict.fromkeys(search_terms(case["question"])))
        if not gold or not terms:
            skipped += 1
            continue
        query = {t: 1.0 / len(terms) for t in terms}
        for name, weights in (
            ("bm25", query),
            ("rm3", corpus.rm3(query)),
            ("assoc", corpus.associated(query)),
        ):
            ranked = corpus.rank(weights)
            first = next((r for r, i in enumerate(ranked[:10], 1) if i in gold), 0)
            hits[name].append((int(first == 1), int(0 < first <= k), 1 / first if first else 0.0))
    counted = len(hits["bm25"])
    summary = {
        name: tuple(sum(col) / max(counted, 1) for col in zip(*rows, strict=True))
        for name, rows in hits.items()
    }
    return counted, skipped, summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args(argv)
    sets = args.sets or [ROOT / "sources/demo" / name for name in DEFAULT_SETS]
    corpus = Corpus(ROOT / "sources/demo/docs")
    print(f"{len(corpus.texts)} chunks; hit@1 / hit@{args.k} / MRR@10, answerable one-turn cases")
    print("| set (cases, skipped) | bm25 | rm3 | assoc |\n|---|---|---|---|")
    for path in sets:
        counted, skipped, summary = score_set(corpus, path, args.k)
        cells = [
            " / ".join(f"{v:.3f}" if j == 2 else f"{v:.1%}" for j, v in enumerate(summary[m]))
            for m in ("bm25", "rm3", "assoc")
        ]
        print(f"| {path.stem} ({counted}, {skipped}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
