"""The persisted index: exact rank-bm25 scores, reopening from disk, deltas, merges."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kbqa.core.retrieval import segment as segment_module
from kbqa.core.retrieval import store as store_module
from kbqa.core.retrieval.bm25 import LuceneBM25
from kbqa.core.retrieval.index import Hit, IndexSnapshot
from kbqa.core.retrieval.scoring import K1, B
from kbqa.core.retrieval.segment import build_segment
from kbqa.core.retrieval.store import Entry, IndexReader, IndexStore
from kbqa.core.types import ADMINISTRATOR, EVERYONE, Audience

WORDS = [f"w{i}" for i in range(300)] + ["年假", "报销", "发票", "审批"]


def random_entries(n: int, seed: int = 3, doc_base: int = 0) -> list[Entry]:
    """``n`` chunks, 4 per document, 5-60 terms each, Zipf-like word choice."""
    rng = random.Random(seed)
    entries = []
    for i in range(n):
        k = rng.randint(5, 60)
        words = [WORDS[min(int(rng.paretovariate(0.8)) - 1, len(WORDS) - 1)] for _ in range(k)]
        doc = doc_base + i // 4
        entries.append(Entry(f"d{doc:04d}#c{i % 4 + 1:02d}", doc, words))
    return entries


def random_queries(entries: list[Entry], n: int, seed: int = 5) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(list(rng.choice(entries).terms), 3) + [rng.choice(WORDS)] for _ in range(n)]


def reference_top(entries: list[Entry], query: list[str], k: int = 10) -> list[tuple[str, float]]:
    """rank-bm25 (Lucene IDF) over ``entries``: top k (chunk_id, score), ties by chunk_id."""
    bm25 = LuceneBM25([list(e.terms) for e in entries], k1=K1, b=B)
    scores = bm25.get_scores(list(dict.fromkeys(query)))
    ranked = sorted(
        ((e.chunk_id, float(s)) for e, s in zip(entries, scores, strict=True) if s > 0),
        key=lambda p: (-p[1], p[0]),
    )
    return ranked[:k]


def top(hits: list[Hit]) -> list[tuple[str, float]]:
    return [(h.chunk_id, h.score) for h in hits]


def live_after(entries: list[Entry], changes: dict[int, list[Entry]]) -> list[Entry]:
    """``entries`` with each changed document's chunks replaced by the new ones."""
    kept = [e for e in entries if e.doc_key not in changes]
    return kept + [e for new in changes.values() for e in new]


def test_scores_and_top10_are_identical_to_rank_bm25_after_deltas(tmp_path: Path) -> None:
    entries = random_entries(400)
    store = IndexStore(tmp_path)
    store.build(iter([entries]), terms_version=1)
    changes = {
        3: random_entries(4, seed=8, doc_base=3),  # updated
        7: [],  # retired
        500: random_entries(4, seed=9, doc_base=500),  # added
    }
    for doc, new in changes.items():
        store.replace_documents([doc], new, terms_version=1)
    live = live_after(entries, changes)
    snapshot = store.open()
    assert snapshot is not None and len(snapshot) == len(live)
    for query in random_queries(live, 40):
        assert top(snapshot.search(query, 10)) == reference_top(live, query)  # exact floats


def test_an_index_opened_from_disk_answers_as_a_freshly_built_one(tmp_path: Path) -> None:
    entries = random_entries(300)
    fresh = IndexSnapshot(
        [build_segment(*zip(*[(e.chunk_id, e.doc_key, e.terms) for e in entries], strict=True))]
    )
    store = IndexStore(tmp_path)
    store.build(iter([entries[:150], entries[150:]]), terms_version=1)  # two batches, merged
    opened = IndexReader(IndexStore(tmp_path)).snapshot()
    assert opened is not None
    for query in random_queries(entries, 30):
        assert opened.search(query, 10) == fresh.search(query, 10)


@pytest.mark.parametrize("size", [0, 1])
def test_empty_and_tiny_indexes(tmp_path: Path, size: int) -> None:
    store = IndexStore(tmp_path)
    assert store.open() is None  # never built
    store.build(iter([[Entry("a#c01", 1, ["refund", "window"])][:size]]), terms_version=1)
    snapshot = store.open()
    assert snapshot is not None and len(snapshot) == size
    hits = snapshot.search(["refund"], 5)
    assert [h.chunk_id for h in hits] == ["a#c01"][:size]
    assert all(0 < h.relevance < 1 and h.score > 0 for h in hits)  # Lucene IDF: never 0
    assert snapshot.search([], 5) == [] and snapshot.search(["refund"], 0) == []


def test_an_audience_searches_its_readable_chunks_with_their_statistics(tmp_path: Path) -> None:
    """As if the index held the readable chunks only (README: Who may read what)."""
    entries = [
        Entry(e.chunk_id, e.doc_key, e.terms, ("7",) if e.doc_key % 2 else ())
        for e in random_entries(120)
    ]
    store = IndexStore(tmp_path)
    store.build(iter([entries]), terms_version=1)
    store.replace_documents([3], random_entries(4, seed=8, doc_base=3), terms_version=1)
    snapshot = store.open()
    assert snapshot is not None
    public = [
        e for e in live_after(entries, {3: random_entries(4, seed=8, doc_base=3)}) if not e.access
    ]
    for query in random_queries(public, 20):
        assert top(snapshot.search(query, 10, audience=EVERYONE)) == reference_top(public, query)
    members = snapshot.search(["w1"], 200, audience=Audience(labels=frozenset({"7"})))
    assert {h.doc_key % 2 for h in members} == {0, 1}
    assert snapshot.search(["w1"], 5, audience=ADMINISTRATOR) == snapshot.search(["w1"], 5)


def test_a_second_process_sees_each_change_without_a_rebuild(tmp_path: Path) -> None:
    store = IndexStore(tmp_path)
    store.build(iter([random_entries(200)]), terms_version=1)
    base = {p.name for p in tmp_path.glob("seg-*")}
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdin is not None and reader.stdout is not None

    def ask(query: str) -> str:
        reader.stdin.write(query + "\n")  # type: ignore[union-attr]
        reader.stdin.flush()  # type: ignore[union-attr]
        return reader.stdout.readline().strip()  # type: ignore[union-attr]

    try:
        assert ask("zebra") == ""
        store.replace_documents([900], [Entry("new#c01", 900, ["zebra"])], terms_version=1)
        assert ask("zebra") == "new#c01"  # added
        store.replace_documents([900], [Entry("new#c01v2", 900, ["zebra", "x"])], terms_version=1)
        assert ask("zebra") == "new#c01v2"  # updated: the old version is gone
        store.replace_documents([900], [], terms_version=1)
        assert ask("zebra") == ""  # retired or purged
        assert base <= {p.name for p in tmp_path.glob("seg-*")}  # the base was never rebuilt
    finally:
        reader.stdin.close()
        reader.wait(timeout=10)


READER = """
import sys
from kbqa.core.retrieval.store import IndexReader, IndexStore
reader = IndexReader(IndexStore(sys.argv[1]))
for line in sys.stdin:
    hits = reader.snapshot().search(line.split(), 5)
    print(" ".join(h.chunk_id for h in hits), flush=True)
"""


def test_searches_run_during_a_merge_and_changes_made_meanwhile_survive_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = random_entries(200)
    store = IndexStore(tmp_path)
    store.build(iter([entries]), terms_version=1)
    store.replace_documents([1], random_entries(4, seed=11, doc_base=1), terms_version=1)
    inside, release = threading.Event(), threading.Event()
    real_merge = segment_module.merge_segments

    def slow_merge(parts: object) -> object:
        inside.set()
        assert release.wait(10)
        return real_merge(parts)  # type: ignore[arg-type]

    monkeypatch.setattr(store_module, "merge_segments", slow_merge)
    merging = threading.Thread(target=store.merge)
    merging.start()
    assert inside.wait(10)
    reader = IndexReader(store)
    query = random_queries(entries, 1)[0]
    before = reader.snapshot().search(query, 10)  # type: ignore[union-attr]
    store.replace_documents([2], [Entry("late#c01", 2, ["zebra"])], terms_version=1)
    assert [h.chunk_id for h in reader.snapshot().search(["zebra"], 5)] == ["late#c01"]  # type: ignore[union-attr]
    release.set()
    merging.join(10)
    after = reader.snapshot()
    assert after is not None
    manifest = store.read_manifest()
    assert manifest is not None and len(manifest.segments) == 2  # merged base + later delta
    assert [h.chunk_id for h in after.search(["zebra"], 5)] == ["late#c01"]
    live = live_after(
        entries,
        {1: random_entries(4, seed=11, doc_base=1), 2: [Entry("late#c01", 2, ["zebra"])]},
    )
    assert len(after) == len(live)
    assert top(after.search(query, 10)) == reference_top(live, query)
    assert before  # searching went on while the merge was held
