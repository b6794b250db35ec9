"""Benchmark of the pure-Python answer path (no model, no database).

Run: ``.venv/bin/python bench/pipeline.py``. Prints medians (milliseconds) of:

1. per answer: assembly of 20 hits into 5 blocks + verification of a 10-sentence answer +
   conflict detection over the 5 blocks;
2. per sentence: from the delta that completes a sentence to its verdict
   (SentenceBuffer.feed + parse_claim + Verifier.verify);
3. per sentence, through the real pipeline (``kbqa.core.pipeline.answer`` with a provider
   that timestamps each delta it yields): from the delta that completes a sentence to the
   ``sentence`` event the front end receives;

and the ratios that matter: each stage's share of the answer-path total, and the per-sentence
delay against the gap between tokens of a streaming model (20 ms at 50 tokens/s), which is
the delay a reader could notice.

``--against DIR`` (another checkout, e.g. ``/work/main``) measures both checkouts' code, each
in a child process of its own, alternately for ``--rounds`` rounds (3), and prints each
figure's median per checkout side by side with their ratio (this / DIR): on a shared
machine, alternating keeps both sides under the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ``--code DIR`` (a child of ``--against``): import kbqa from that checkout instead of this one
CODE = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv else ROOT
sys.path.insert(0, str(CODE))

from kbqa.core.context.assembly import assemble  # noqa: E402
from kbqa.core.grounding.citations import Verifier, parse_claim  # noqa: E402
from kbqa.core.grounding.conflicts import find_conflicts  # noqa: E402
from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer  # noqa: E402
from kbqa.core.providers.base import Prompt, Provider, ProviderCall  # noqa: E402
from kbqa.core.records import TraceRecorder  # noqa: E402
from kbqa.core.text.sentences import SentenceBuffer, split_sentences  # noqa: E402
from kbqa.core.types import Chunk, ScoredChunk, Sentence  # noqa: E402

RUNS = 200
TOKEN_GAP_MS = 20.0  # one token every 20 ms = 50 tokens/s, a typical streaming speed

FACTS = [
    "Deleted items stay in the recycle bin for 30 days, after which they are removed.",
    "The maximum upload size is 200 MB per file; larger files must be split.",
    "The free trial lasts 90 days and includes every feature of the pro plan.",
    "The public API allows 1,000 requests per minute for each token.",
    "单个文件最大 200 MB，超过时需要分卷上传。",
    "回收站中的文件保留 30 天，之后永久删除。",
    "Refunds are processed within 5 business days of the request.",
    "Sessions expire after 24 hours of inactivity.",
]
QUESTION = "What is the maximum upload size?"


FILLER = (
    "Team {i} reviewed section {i} of this document during the quarterly audit. "
    "Questions about section {i} go to the owner listed in the header. "
)


def _chunk(i: int) -> Chunk:
    """A chunk of about 60-100 tokens: one fact plus filler unique to the chunk."""
    body = FACTS[i % len(FACTS)] + " " + FILLER.format(i=i) * 2
    return Chunk(chunk_id=f"doc-{i:03d}#c01", doc_id=f"doc-{i:03d}", title=f"Doc {i}", text=body)


HITS = [ScoredChunk(chunk=_chunk(i), score=20.0 - i) for i in range(20)]
BLOCKS = assemble(HITS, budget=1200, max_blocks=5).blocks


def _answer() -> str:
    """Ten sentences, each restating the fact of a block and citing that block."""
    sentences = []
    for k in range(10):
        b = BLOCKS[k % len(BLOCKS)]
        fact = FACTS[int(b.doc_id.split("-")[1]) % len(FACTS)]
        end = "。" if fact.endswith("。") else "."
        sentences.append(f"{fact.rstrip('.。')} [{b.n}]{end}")
    return " ".join(sentences)


ANSWER = _answer()


def answer_path() -> None:
    assembly = assemble(HITS, budget=1200, max_blocks=5)
    verifier = Verifier(assembly.blocks)
    for sentence in split_sentences(ANSWER):
        verifier.verify(parse_claim(sentence))
    find_conflicts(assembly.blocks, QUESTION)


def stages() -> dict[str, Callable[[], object]]:
    assembly = assemble(HITS, budget=1200, max_blocks=5)
    claims = [parse_claim(s) for s in split_sentences(ANSWER)]

    def verify_all() -> None:
        verifier = Verifier(assembly.blocks)
        for claim in claims:
            verifier.verify(claim)

    return {
        "assembly": lambda: assemble(HITS, budget=1200, max_blocks=5),
        "split + parse_claim (10 sentences)": lambda: [
            parse_claim(s) for s in split_sentences(ANSWER)
        ],
        "verification (10 sentences)": verify_all,
        "conflict detection (5 blocks)": lambda: find_conflicts(assembly.blocks, QUESTION),
    }


def sentence_latencies() -> list[float]:
    """Milliseconds from the delta that completes each sentence to its verdict."""
    verifier = Verifier(BLOCKS)
    deltas = [ANSWER[i : i + 4] for i in range(0, len(ANSWER), 4)]
    out: list[float] = []
    buffer = SentenceBuffer()
    for delta in deltas:
        start = time.perf_counter()
        released = buffer.feed(delta)
        for sentence in released:
            verifier.verify(parse_claim(sentence))
        if released:
            out.append((time.perf_counter() - start) * 1000 / len(released))
    return out


class _TimedProvider(Provider):
    """Streams ANSWER in 4-character deltas and remembers when it yielded each one."""

    name = "timed"

    def __init__(self) -> None:
        super().__init__(model="timed")
        self.yielded: list[float] = []

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        for i in range(0, len(ANSWER), 4):
            self.yielded.append(time.perf_counter())
            yield ANSWER[i : i + 4]


class _Retriever:
    async def search(self, query: str, k: int) -> list[ScoredChunk]:
        return [ScoredChunk(h.chunk, h.score, relevance=0.9) for h in HITS[:k]]


async def _pipeline_run() -> list[float]:
    provider = _TimedProvider()
    trace = TraceRecorder(trace_id="bench", question=QUESTION)
    out: list[float] = []
    events = answer(
        AnswerRequest(question="Which limits apply to uploads, trials and the API?"),
        retriever=_Retriever(),
        provider=provider,
        config=PipelineConfig(min_relevance=0.0),
        trace=trace,
    )
    async for ev in events:
        if isinstance(ev, Sentence):
            out.append((time.perf_counter() - provider.yielded[-1]) * 1000)
    return out


def pipeline_sentence_latencies() -> list[float]:
    """Milliseconds from the releasing delta to the ``sentence`` event, real pipeline."""
    return asyncio.run(_pipeline_run())


def median_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure() -> dict[str, float]:
    """Every figure of the run (milliseconds, medians), by name, in print order."""
    answer_path()  # warm up: jieba's dictionary and tiktoken's ranks load once
    figures = {"answer path (assemble + verify 10 + conflicts)": median_ms(answer_path)}
    for name, fn in stages().items():
        figures[f"  {name}"] = median_ms(fn)
    latencies = [x for _ in range(RUNS // 10) for x in sentence_latencies()]
    figures["last delta -> verdict, per sentence"] = statistics.median(latencies)
    through = [x for _ in range(RUNS // 10) for x in pipeline_sentence_latencies()]
    figures["last delta -> sentence event, real pipeline"] = statistics.median(through)
    return figures


def report(figures: dict[str, float]) -> None:
    total = figures["answer path (assemble + verify 10 + conflicts)"]
    per_sentence = figures["last delta -> verdict, per sentence"]
    piped = figures["last delta -> sentence event, real pipeline"]
    print(f"answer path (assemble + verify 10 + conflicts): median {total:.3f} ms")
    for name, ms in figures.items():
        if name.startswith("  "):
            share = ms / total
            print(f"  {name.strip():36s} median {ms:8.3f} ms  ({share:5.1%} of the answer path)")
    print(f"last delta -> verdict, per sentence: median {per_sentence:.3f} ms")
    print(f"  ratio to one token gap ({TOKEN_GAP_MS:.0f} ms): {per_sentence / TOKEN_GAP_MS:.3f}")
    print(
        f"last delta -> sentence event, real pipeline: median {piped:.3f} ms "
        f"(ratio to one token gap {piped / TOKEN_GAP_MS:.3f}, "
        f"to the bare verifier path {piped / per_sentence:.1f}x)"
    )


def _child(code: Path) -> dict[str, float]:
    """``measure()`` of checkout ``code``, in a child process."""
    out = subprocess.run([sys.executable, __file__, "--code", str(code), "--json"],
                         check=True, capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def compare(other: Path, rounds: int) -> None:
    """Both checkouts alternately, ``rounds`` times; medians side by side with the ratio."""
    runs: dict[Path, list[dict[str, float]]] = {ROOT: [], other: []}
    for _ in range(rounds):
        for code in runs:
            runs[code].append(_child(code))
    print(f"{'median ms over ' + str(rounds) + ' rounds':52s} {'this':>9s} {'against':>9s} ratio")
    for name in runs[ROOT][0]:
        mine = statistics.median(r[name] for r in runs[ROOT])
        theirs = statistics.median(r[name] for r in runs[other])
        print(f"{name:52s} {mine:9.3f} {theirs:9.3f} {mine / theirs:5.2f}")
    print(f"(this: {ROOT}; against: {other})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure as well")
    parser.add_argument("--rounds", type=int, default=3, help="alternate runs per checkout")
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.against:
        compare(args.against.resolve(), args.rounds)
    elif args.json:
        print(json.dumps(measure()))
    else:
        report(measure())


if __name__ == "__main__":
    main()
