"""Retrieval benchmark: rank-bm25, bm25s and kbqa's persisted index, side by side in one run.

Usage: ``.venv/bin/python bench/retrieval.py [--sizes 10000 100000] [--million] [--queries 200]``

Knowledge bases are generated deterministically (seeded): about 70% English chunks of
~60 words drawn with a Zipf-like skew from a 5,000-word synthetic vocabulary, 30% Chinese
chunks of ~40 words from real Chinese words. Chunks are tokenised once
(``kbqa.core.text.terms``, in parallel; that is ingestion's work now, reported apart), and
every engine gets the same terms. Queries take 3-6 terms of a random chunk plus one of
another, and are timed from terms to the top 10 (rank-bm25: its own ``get_scores`` over
every chunk, ``--rank-queries`` (50) queries; bm25s: ``BM25(method="lucene").retrieve``,
memory-mapped; kbqa: ``IndexSnapshot.search``). bm25s and kbqa latencies come from one
process that times each query on both in turn (the machine is shared: load then hits both
alike).

Each engine runs in fresh processes, so RSS is its own: one process builds (and saves),
another opens the saved index and answers the queries (rank-bm25 cannot be saved: it is
built in the serving process). RSS counts memory-mapped pages the process touched; they
are shared by every worker on the machine (the "private" column is the rest).

"update seen (ms)": a second process searches the kbqa index in a loop; this one replaces
one document (a delta, no rebuild); the time until the other process finds the new chunk.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kbqa.core.text.terms import terms  # noqa: E402

SYLLABLES = "ka ri to me na su lo pe vi da mo ne ru sa ki po te ga bu zo".split()
ZH_WORDS = (
    "报销 发票 审批 部门 经理 财务 年假 病假 婚假 员工 申请 提交 期限 制度 公司 合同 "
    "出差 住宿 标准 交通 餐费 补贴 预算 采购 供应商 付款 流程 系统 账号 密码 安全 网络 "
    "设备 电脑 手机 丢失 报告 服务台 培训 考核 绩效 薪资 社保 公积金 入职 离职 试用期 "
    "加班 调休 会议 纪要 项目 客户 数据 隐私 备份 权限 审计 规定 通知 证明 医院 天数"
).split()


def english_vocabulary(size: int, rng: random.Random) -> list[str]:
    words = ["".join(p) for p in itertools.product(SYLLABLES, repeat=3)]
    rng.shuffle(words)
    return words[:size]


def zipf_pick(rng: random.Random, words: list[str], n: int) -> list[str]:
    """``n`` words with a Zipf-like skew (a few common words, a long tail)."""
    return [words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)] for _ in range(n)]


def synthetic_texts(size: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    vocab = english_vocabulary(5000, rng)
    texts = []
    for _ in range(size):
        if rng.random() < 0.7:
            texts.append(" ".join(zipf_pick(rng, vocab, rng.randint(45, 75))) + ".")
        else:
            texts.append("".join(rng.choice(ZH_WORDS) for _ in range(rng.randint(30, 50))) + "。")
    return texts


def tokenised_corpus(size: int) -> list[list[str]]:
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(terms, synthetic_texts(size), chunksize=500))


def queries_for(corpus: list[list[str]], n: int, seed: int = 11) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = rng.choice(corpus)
        picked = rng.sample(words, min(len(words), rng.randint(3, 6)))
        out.append(list(dict.fromkeys(picked + rng.choice(corpus)[:1])))
    return out


# --- engines: each function runs in a child process and returns a dict of figures


def rank_bm25_serve(work: Path) -> dict[str, float]:
    import numpy as np

    from kbqa.core.retrieval.bm25 import LuceneBM25
    from kbqa.core.retrieval.scoring import K1, B

    corpus, queries = load(work)
    start = time.perf_counter()
    bm25 = LuceneBM25(corpus, k1=K1, b=B)
    build = time.perf_counter() - start
    del corpus
    top = []

    def query(q: list[str]) -> None:
        scores = bm25.get_scores(q)
        best = np.lexsort((np.arange(len(scores)), -scores))[:10]  # ties by position
        top.append([int(i) for i in best if scores[i] > 0])

    n = int(os.environ.get("KBQA_BENCH_RANK_QUERIES", "50"))
    return {"build_s": build, "open_s": build, **timed(query, queries[:n]), "top": top}


def bm25s_build(work: Path) -> dict[str, float]:
    import bm25s

    corpus, _ = load(work)
    start = time.perf_counter()
    retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    retriever.index(corpus, show_progress=False)
    retriever.save(str(work / "bm25s"))
    return {"build_s": time.perf_counter() - start}


def bm25s_serve(work: Path) -> dict[str, float]:
    import bm25s

    _, queries = load(work, corpus=False)
    start = time.perf_counter()
    retriever = bm25s.BM25.load(str(work / "bm25s"), mmap=True)
    opened = time.perf_counter() - start
    top = []

    def query(q: list[str]) -> None:
        ids = retriever.get_tokens_ids(q)
        if not ids:
            top.append([])
            return
        docs, scores = retriever.retrieve([ids], k=10, show_progress=False, n_threads=0)
        top.append([int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0])

    return {"open_s": opened, **timed(query, queries), "top": top}


def kbqa_build(work: Path) -> dict[str, float]:
    from kbqa.core.retrieval.store import Entry, IndexStore

    corpus, _ = load(work)
    entries = [Entry(f"{i:08d}", i // 10, t) for i, t in enumerate(corpus)]
    del corpus
    batches = (entries[i : i + 20_000] for i in range(0, len(entries), 20_000))
    start = time.perf_counter()
    IndexStore(work / "kbqa").build(batches, terms_version=1)
    return {"build_s": time.perf_counter() - start}


def kbqa_serve(work: Path) -> dict[str, float]:
    from kbqa.core.retrieval.store import IndexStore

    _, queries = load(work, corpus=False)
    start = time.perf_counter()
    snapshot = IndexStore(work / "kbqa").open()
    opened = time.perf_counter() - start
    assert snapshot is not None
    top = []

    def query(q: list[str]) -> None:
        top.append([int(h.chunk_id) for h in snapshot.search(q, 10)])

    return {"open_s": opened, **timed(query, queries), "top": top}


def duel(work: Path) -> dict[str, object]:
    """bm25s and kbqa open in one process, each query timed on both in turn, so load from
    other programs on a shared machine hits both alike."""
    import bm25s

    from kbqa.core.retrieval.store import IndexStore

    _, queries = load(work, corpus=False)
    retriever = bm25s.BM25.load(str(work / "bm25s"), mmap=True)
    snapshot = IndexStore(work / "kbqa").open()
    assert snapshot is not None

    def with_bm25s(q: list[str]) -> None:
        ids = retriever.get_tokens_ids(q)
        if ids:
            retriever.retrieve([ids], k=10, show_progress=False, n_threads=0)

    engines = {"bm25s": with_bm25s, "kbqa": lambda q: snapshot.search(q, 10)}
    latencies: dict[str, list[float]] = {name: [] for name in engines}
    for q in [queries[0], *queries]:
        for name, search in engines.items():
            t0 = time.perf_counter()
            search(q)
            latencies[name].append((time.perf_counter() - t0) * 1000)
    out: dict[str, object] = {}
    for name, values in latencies.items():
        quantiles = statistics.quantiles(values[1:], n=100, method="inclusive")  # 0: warm-up
        out[name] = {"p50_ms": quantiles[49], "p95_ms": quantiles[94]}
    return out


def kbqa_watch(work: Path) -> dict[str, float]:
    """Search for the marker term until found; prints readiness, then the time found."""
    from kbqa.core.retrieval.store import IndexReader, IndexStore

    reader = IndexReader(IndexStore(work / "kbqa"))
    print("ready", flush=True)
    while True:
        snapshot = reader.snapshot()
        if snapshot is not None and snapshot.search(["zzmarker"], 1):
            return {"found_at": time.time()}
        time.sleep(0.001)


def timed(query: object, queries: list[list[str]]) -> dict[str, float]:
    query(queries[0])  # type: ignore[operator]  # warm-up
    latencies = []
    for q in queries:
        t0 = time.perf_counter()
        query(q)  # type: ignore[operator]
        latencies.append((time.perf_counter() - t0) * 1000)
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return {"p50_ms": quantiles[49], "p95_ms": quantiles[94], **memory()}


def memory() -> dict[str, float]:
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssAnon"):
            fields[name] = int(value.split()[0]) / 1024
    return {"rss_mb": fields.get("VmRSS", 0.0), "private_mb": fields.get("RssAnon", 0.0)}


def load(work: Path, corpus: bool = True) -> tuple[list[list[str]], list[list[str]]]:
    queries = json.loads((work / "queries.json").read_text(encoding="utf-8"))
    if not corpus:
        return [], queries
    with open(work / "corpus.pickle", "rb") as fh:
        return pickle.load(fh), queries


CHILDREN = {
    f.__name__: f
    for f in (rank_bm25_serve, bm25s_build, bm25s_serve, kbqa_build, kbqa_serve, kbqa_watch, duel)
}


def child(name: str, work: Path) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, str(work)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def update_seen_ms(work: Path) -> float:
    """Time from a one-document update here to another process finding its chunk."""
    from kbqa.core.retrieval.store import Entry, IndexStore

    watcher = subprocess.Popen(
        [sys.executable, __file__, "--child", "kbqa_watch", str(work)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert watcher.stdout is not None
    assert watcher.stdout.readline().strip() == "ready"
    time.sleep(0.2)
    start = time.time()
    IndexStore(work / "kbqa").replace_documents(
        [10**9], [Entry("marker", 10**9, ["zzmarker", "new"])], terms_version=1
    )
    found = json.loads(watcher.stdout.read().strip().splitlines()[-1])["found_at"]
    watcher.wait()
    return (float(found) - start) * 1000


def run_size(size: int, n_queries: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="kbqa-bench-retrieval-") as tmp:
        work = Path(tmp)
        start = time.perf_counter()
        corpus = tokenised_corpus(size)
        tokenise = time.perf_counter() - start
        queries = queries_for(corpus, n_queries)
        with open(work / "corpus.pickle", "wb") as fh:
            pickle.dump(corpus, fh)
        (work / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
        del corpus
        rank = child("rank_bm25_serve", work)
        rows = {
            "rank-bm25 (full scan)": rank,
            "bm25s (lucene, mmap)": {**child("bm25s_build", work), **child("bm25s_serve", work)},
            "kbqa index (mmap)": {**child("kbqa_build", work), **child("kbqa_serve", work)},
        }
        agree = {name: same_top(r["top"], rank["top"]) for name, r in rows.items()}
        together = child("duel", work)
        rows["bm25s (lucene, mmap)"].update(together["bm25s"])  # type: ignore[arg-type]
        rows["kbqa index (mmap)"].update(together["kbqa"])  # type: ignore[arg-type]
        seen = update_seen_ms(work)
    lines = [
        f"| {size:,} | {name} | {r['build_s']:.2f} | {r['open_s']:.3f} | {r['p50_ms']:.2f} | "
        f"{r['p95_ms']:.2f} | {r['rss_mb']:.0f} | {r['private_mb']:.0f} |"
        for name, r in rows.items()
    ]
    p50 = {name: r["p50_ms"] for name, r in rows.items()}
    lines.append(
        f"|  | tokenising (at ingestion): {tokenise:.1f} s; kbqa p50 / bm25s p50: "
        f"{p50['kbqa index (mmap)'] / p50['bm25s (lucene, mmap)']:.2f}; same top-10 as "
        f"rank-bm25: kbqa {agree['kbqa index (mmap)']:.0%}, bm25s "
        f"{agree['bm25s (lucene, mmap)']:.0%} (float32); update seen by another process: "
        f"{seen:.0f} ms |  |  |  |  |  |  |"
    )
    return lines


def same_top(top: list[list[int]], reference: list[list[int]]) -> float:
    """Share of the reference's queries for which ``top`` lists the same 10 chunks."""
    return sum(a == b for a, b in zip(top, reference, strict=False)) / len(reference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also 1,000,000 chunks (slow)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--rank-queries", type=int, default=50, help="queries timed on rank-bm25 (slow)"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(CHILDREN[args.child[0]](Path(args.child[1]))), flush=True)
        return
    sizes = args.sizes + ([1_000_000] if args.million else [])
    os.environ["KBQA_BENCH_RANK_QUERIES"] = str(args.rank_queries)
    print(f"BM25 top-10, {args.queries} queries per size, load average {os.getloadavg()[0]:.1f}")
    print(
        "| chunks | engine | build (s) | open (s) | p50 (ms) | p95 (ms) | RSS (MB) | private (MB) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for size in sizes:
        for line in run_size(size, args.queries):
            print(line, flush=True)


if __name__ == "__main__":
    main()
