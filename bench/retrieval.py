"""Retrieval benchmark: BM25 index build time and query latency on synthetic knowledge bases.

Usage: ``.venv/bin/python bench/retrieval.py [--sizes 10000 100000] [--queries 200]``

Knowledge bases are generated deterministically (seeded): about 70% English chunks of
~60 words drawn with a Zipf-like skew from a 5,000-word synthetic vocabulary, 30% Chinese
chunks of ~40 words from real Chinese words (segmented by jieba, like real documents).
Queries take 3-6 words from a random chunk plus one random word, in the chunk's language.
Build time includes tokenising every chunk (``kbqa.core.text.terms.terms``). Latency is one
``Bm25Index.search`` (query tokenising, scoring over postings, top-k, relevance); the
"full-scan" column times rank-bm25's own ``BM25Okapi.get_scores`` on the same index and
query terms (50 queries), which visits every chunk for every term. Pure Python, no
database; runs in well under two minutes on a laptop-class CPU.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rank_bm25 import BM25Okapi  # noqa: E402

from kbqa.core.retrieval.bm25 import Bm25Index  # noqa: E402
from kbqa.core.text.terms import terms  # noqa: E402
from kbqa.core.types import Chunk  # noqa: E402

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


def synthetic_chunks(size: int, seed: int = 7) -> list[Chunk]:
    rng = random.Random(seed)
    vocab = english_vocabulary(5000, rng)
    zh = ZH_WORDS[:]
    chunks = []
    for i in range(size):
        if rng.random() < 0.7:
            text = " ".join(zipf_pick(rng, vocab, rng.randint(45, 75))) + "."
            lang = "en"
        else:
            text = "".join(rng.choice(zh) for _ in range(rng.randint(30, 50))) + "。"
            lang = "zh"
        doc = f"doc-{i // 10:05d}"
        chunks.append(Chunk(f"{doc}#c{i % 10 + 1:02d}", doc, doc, text, language=lang))
    return chunks


def queries_for(chunks: list[Chunk], n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        chunk = rng.choice(chunks)
        words = terms(chunk.text)
        picked = rng.sample(words, min(len(words), rng.randint(3, 6)))
        extra = terms(rng.choice(chunks).text)[:1]
        sep = "" if chunk.language == "zh" else " "
        out.append(sep.join(picked + extra))
    return out


def percentile(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def run(size: int, n_queries: int, k: int) -> dict[str, float]:
    chunks = synthetic_chunks(size)
    start = time.perf_counter()
    index = Bm25Index(chunks)
    build = time.perf_counter() - start
    queries = queries_for(chunks, n_queries)
    index.search(queries[0], k)  # warm caches (jieba, numpy)
    latencies = []
    for q in queries:
        t0 = time.perf_counter()
        index.search(q, k)
        latencies.append((time.perf_counter() - t0) * 1000)
    scan = []  # rank-bm25's own get_scores: every chunk visited for every term
    for q in queries[:50]:
        t0 = time.perf_counter()
        BM25Okapi.get_scores(index._bm25, list(dict.fromkeys(terms(q))))
        scan.append((time.perf_counter() - t0) * 1000)
    return {
        "scan_p50_ms": percentile(scan, 50),
        "chunks": size,
        "build_s": build,
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=20)
    args = parser.parse_args()
    terms("预热 warm up")  # load jieba's dictionary outside the timings
    print(f"BM25 retrieval (rank-bm25 + postings), k={args.k}, {args.queries} queries per size")
    print(
        f"| {'chunks':>8} | {'build (s)':>9} | {'p50 (ms)':>8} | {'p95 (ms)':>8} "
        f"| {'full-scan p50 (ms)':>18} | {'speed-up':>8} |"
    )
    print(f"|{'-' * 10}|{'-' * 11}|{'-' * 10}|{'-' * 10}|{'-' * 20}|{'-' * 10}|")
    for size in args.sizes:
        r = run(size, args.queries, args.k)
        print(
            f"| {r['chunks']:>8,} | {r['build_s']:>9.2f} | {r['p50_ms']:>8.2f} | "
            f"{r['p95_ms']:>8.2f} | {r['scan_p50_ms']:>18.2f} | "
            f"{r['scan_p50_ms'] / r['p50_ms']:>7.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
